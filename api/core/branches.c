/* branches.c: cuts Hines systems into branches, groups them by level (and by work-group for the fine tree), lays them out. */
#include "hb_plan.h"

#include <stdlib.h>
#include <string.h>

/* Branches of one tree, computed in one ascending pass (parent < child, so no
 * recursion): row i starts a branch when it is the root, when its parent has
 * several children, or when the parent's branch reached split_length. */
typedef struct {
    int64_t n, nb;
    int32_t *bid, *bj;      /* per row: local branch and index in it          */
    int64_t *head, *blen;   /* per local branch                               */
    int32_t *level;
    int32_t *perm, *inv;    /* re-rooted: new index -> row, row -> new index  */
    int32_t *npar;          /* re-rooted: parents in new indices              */
} tree_cut;

static void cut_free(tree_cut *t)
{
    free(t->perm);
    free(t->inv);
    free(t->npar);
    free(t->bid);
    free(t->bj);
    free(t->head);
    free(t->blen);
    free(t->level);
}

/* limit (per level of an earlier cut ref, or NULL): a branch is cut when
 * it reaches its level's limit. */
static hb_status cut_tree(const int32_t *par, int64_t n, const int64_t *limit,
                          const tree_cut *ref, tree_cut *t)
{
    t->n = n;
    t->nb = 0;
    int32_t *nch = calloc((size_t)n, sizeof *nch);
    t->bid = malloc((size_t)n * sizeof *t->bid);
    t->bj = malloc((size_t)n * sizeof *t->bj);
    t->head = malloc((size_t)n * sizeof *t->head);
    t->blen = malloc((size_t)n * sizeof *t->blen);
    t->level = malloc((size_t)n * sizeof *t->level);
    if (!nch || !t->bid || !t->bj || !t->head || !t->blen || !t->level) {
        free(nch);
        cut_free(t);
        return hb__error(HB_ERR_OUT_OF_MEMORY, "branch decomposition of %lld rows", (long long)n);
    }
    for (int64_t i = 1; i < n; ++i)
        nch[par[i]]++;
    for (int64_t i = 0; i < n; ++i) {
        int64_t p = i > 0 ? par[i] : -1;
        int starts = p < 0 || nch[p] != 1 ||
                     (limit && t->bj[p] + 1 >= limit[ref->level[ref->bid[p]]]);
        if (starts) {
            int64_t b = t->nb++;
            t->bid[i] = (int32_t)b;
            t->bj[i] = 0;
            t->head[b] = i;
            t->blen[b] = 1;
            t->level[b] = p < 0 ? 0 : t->level[t->bid[p]] + 1;
        } else {
            t->bid[i] = t->bid[p];
            t->bj[i] = t->bj[p] + 1;
            t->blen[t->bid[p]]++;
        }
    }
    free(nch);
    return HB_SUCCESS;
}

/* The root of least depth in branches. Along a path from root r to a leaf,
 * a new branch starts after r when deg(r) >= 2 and after every inner node p
 * with deg(p) >= 3, whatever the orientation; so the depth from r is a
 * node-weighted eccentricity, found for every r by one pass down and one up
 * the original tree (iterative: parent < child). Ties keep the old root. */
static hb_status best_root(const int32_t *par, int64_t n, int64_t *root)
{
    *root = 0;
    if (n <= 2)
        return HB_SUCCESS;
    int64_t *deg = calloc((size_t)n, sizeof *deg), *g = calloc((size_t)n, sizeof *g);
    int64_t *b1 = malloc((size_t)n * sizeof *b1), *b2 = malloc((size_t)n * sizeof *b2);
    int64_t *arg = malloc((size_t)n * sizeof *arg), *up = malloc((size_t)n * sizeof *up);
    if (!deg || !g || !b1 || !b2 || !arg || !up) {
        free(deg), free(g), free(b1), free(b2), free(arg), free(up);
        return hb__error(HB_ERR_OUT_OF_MEMORY, "re-rooting a tree of %lld rows", (long long)n);
    }
    for (int64_t v = 1; v < n; ++v)
        deg[v]++, deg[par[v]]++;
    for (int64_t v = 0; v < n; ++v)
        b1[v] = b2[v] = -1, arg[v] = -1;
    /* h(v): weight of inner nodes from v's parent down through v to v's
     * deepest leaf, v included when it is not itself the leaf. */
#define NCHILD(v) (deg[v] - ((v) != 0))
#define H(v) (NCHILD(v) > 0 ? (deg[v] >= 3) + g[v] : 0)
    for (int64_t v = n - 1; v >= 1; --v) {
        int64_t p = par[v], h = H(v);
        if (h > g[p])
            g[p] = h;
        if (h > b1[p])
            b2[p] = b1[p], b1[p] = h, arg[p] = v;
        else if (h > b2[p])
            b2[p] = h;
    }
    up[0] = -1;
    for (int64_t v = 1; v < n; ++v) {
        int64_t p = par[v];
        int64_t sib = arg[p] == v ? b2[p] : b1[p];
        int64_t best = p != 0 && up[p] > sib ? up[p] : sib;
        up[v] = best < 0 ? 0 : (deg[p] >= 3) + best; /* best < 0: p is a leaf seen from v */
    }
    int64_t best_ecc = -1;
    for (int64_t r = 0; r < n; ++r) {
        int64_t m = b1[r] > up[r] ? b1[r] : up[r];
        int64_t ecc = (deg[r] >= 2) + (m < 0 ? 0 : m);
        if (best_ecc < 0 || ecc < best_ecc)
            best_ecc = ecc, *root = r;
    }
#undef NCHILD
#undef H
    free(deg), free(g), free(b1), free(b2), free(arg), free(up);
    return HB_SUCCESS;
}

/* Renumbers the tree breadth-first from root so that parent < child holds
 * again; t->perm, t->inv and t->npar describe the new numbering. */
static hb_status renumber(const int32_t *par, int64_t n, int64_t root, tree_cut *t)
{
    int64_t *start = calloc((size_t)n + 1, sizeof *start);
    int64_t *adj = malloc((size_t)(2 * n) * sizeof *adj), *fillp = malloc((size_t)n * sizeof *fillp);
    t->perm = malloc((size_t)n * sizeof *t->perm);
    t->inv = malloc((size_t)n * sizeof *t->inv);
    t->npar = malloc((size_t)n * sizeof *t->npar);
    if (!start || !t->perm || !t->inv || !t->npar || !adj || !fillp) {
        free(start), free(adj), free(fillp);
        return hb__error(HB_ERR_OUT_OF_MEMORY, "renumbering a tree of %lld rows", (long long)n);
    }
    for (int64_t v = 1; v < n; ++v)
        start[v + 1]++, start[par[v] + 1]++;
    for (int64_t v = 0; v < n; ++v)
        start[v + 1] += start[v];
    for (int64_t v = 0; v < n; ++v)
        fillp[v] = start[v], t->inv[v] = -1;
    for (int64_t v = 1; v < n; ++v)
        adj[fillp[v]++] = par[v], adj[fillp[par[v]]++] = v;
    int64_t head = 0, tail = 0;
    t->perm[tail++] = (int32_t)root;
    t->inv[root] = 0;
    t->npar[0] = -1;
    while (head < tail) {
        int64_t v = t->perm[head];
        for (int64_t e = start[v]; e < start[v + 1]; ++e) {
            int64_t w = adj[e];
            if (t->inv[w] < 0) {
                t->inv[w] = (int32_t)tail;
                t->npar[tail] = (int32_t)head;
                t->perm[tail++] = (int32_t)w;
            }
        }
        ++head;
    }
    free(start), free(adj), free(fillp);
    return HB_SUCCESS;
}

/* One tree: optional re-rooting, then the cut into branches, optionally
 * cut again where branches are longer than their level's average. */
static hb_status prepare_tree(const int32_t *par, int64_t n, const hb_branch_options *o,
                              tree_cut *t)
{
    memset(t, 0, sizeof *t);
    const int32_t *p = par;
    if (o->reroot) {
        int64_t root = 0;
        HB_FORWARD(best_root(par, n, &root));
        HB_FORWARD(renumber(par, n, root, t));
        p = t->npar;
    }
    HB_FORWARD(cut_tree(p, n, NULL, NULL, t));
    if (!o->split)
        return HB_SUCCESS;
    tree_cut ref = *t; /* the unsplit cut gives each level's average */
    int64_t nlev = 0;
    for (int64_t b = 0; b < ref.nb; ++b)
        if (ref.level[b] + 1 > nlev)
            nlev = ref.level[b] + 1;
    int64_t *sum = calloc((size_t)nlev, sizeof *sum), *cnt = calloc((size_t)nlev, sizeof *cnt);
    tree_cut cut = {0};
    cut.perm = t->perm, cut.inv = t->inv, cut.npar = t->npar;
    ref.perm = ref.inv = ref.npar = NULL; /* now owned by cut */
    *t = cut;
    if (!sum || !cnt) {
        free(sum), free(cnt), cut_free(&ref);
        return hb__error(HB_ERR_OUT_OF_MEMORY, "branch splitting");
    }
    for (int64_t b = 0; b < ref.nb; ++b)
        sum[ref.level[b]] += ref.blen[b], cnt[ref.level[b]]++;
    for (int64_t L = 0; L < nlev; ++L) /* limit = ceil(average), at least 1 */
        sum[L] = cnt[L] ? (sum[L] + cnt[L] - 1) / cnt[L] : 1;
    hb_status st = cut_tree(p, n, sum, &ref, t);
    cut_free(&ref);
    free(sum), free(cnt);
    return st;
}

typedef struct {
    int64_t group, level, len, sys, local;
} br_rec;

/* Record order: group, level, longest branch first (a chunk pads to its
 * first), then the order of creation (system, local branch). Two stable
 * counting passes give it in linear time; qsort took over a second for
 * 25,600 real cells on one host core, and grows as n log n. */
static int64_t rec_key(const br_rec *r, int by_len, int64_t maxlen, int64_t nlev)
{
    return by_len ? maxlen - r->len : r->group * nlev + r->level;
}

static void counting_pass(const br_rec *src, br_rec *dst, int64_t n, int64_t *cnt, int64_t nkeys,
                          int by_len, int64_t maxlen, int64_t nlev)
{
    memset(cnt, 0, (size_t)(nkeys + 1) * sizeof *cnt);
    for (int64_t i = 0; i < n; ++i)
        cnt[rec_key(&src[i], by_len, maxlen, nlev) + 1]++;
    for (int64_t k = 0; k < nkeys; ++k)
        cnt[k + 1] += cnt[k];
    for (int64_t i = 0; i < n; ++i)
        dst[cnt[rec_key(&src[i], by_len, maxlen, nlev)]++] = src[i];
}

/* rec holds the records in order of creation; sorted in place. */
static hb_status sort_records(br_rec *rec, int64_t n, int64_t ngroups, int64_t maxlev)
{
    int64_t maxlen = 0, nlev = maxlev + 1;
    for (int64_t i = 0; i < n; ++i)
        if (rec[i].len > maxlen)
            maxlen = rec[i].len;
    int64_t nkeys = ngroups * nlev > maxlen + 1 ? ngroups * nlev : maxlen + 1;
    br_rec *tmp = malloc((size_t)(n > 0 ? n : 1) * sizeof *tmp);
    int64_t *cnt = malloc((size_t)(nkeys + 1) * sizeof *cnt);
    if (!tmp || !cnt) {
        free(tmp), free(cnt);
        return hb__error(HB_ERR_OUT_OF_MEMORY, "sorting %lld branch records", (long long)n);
    }
    counting_pass(rec, tmp, n, cnt, maxlen + 1, 1, maxlen, nlev);
    counting_pass(tmp, rec, n, cnt, ngroups * nlev, 0, maxlen, nlev);
    free(tmp), free(cnt);
    return HB_SUCCESS;
}

/* Lanes of one interleaved chunk of a segment: a warp, so that neighbouring
 * work-items read neighbouring addresses. */
#define HB_BRANCH_CHUNK 32

void hb__branches_free(hb_plan *plan)
{
    hb_branch_dev *br = &plan->br;
    hb_buffer *bufs[] = {br->pos0,   br->bstride, br->len,     br->ppos,
                         br->chptr,  br->chidx,   br->seg_ptr, br->grp_ptr,
                         br->rowmap, br->cmap_same, br->cmap_swap};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; ++i)
        if (bufs[i])
            plan->ctx->ops->release(plan->ctx, bufs[i]);
    free(br->host_seg_ptr);
    free(br->host_grp_ptr);
    free(plan->host_rowmap);
    plan->host_rowmap = NULL;
    memset(br, 0, sizeof *br);
}

static hb_status upload(hb_plan *plan, hb_buffer **buf, const void *src, size_t bytes)
{
    hb_context *ctx = plan->ctx;
    hb_status st = ctx->ops->alloc(ctx, bytes ? bytes : 8, buf);
    if (st == HB_SUCCESS && bytes)
        st = ctx->ops->write(ctx, plan->stream, *buf, 0, src, bytes);
    return st;
}

hb_status hb__branches_build(hb_plan *plan, const int32_t *parent, const hb_branch_options *o)
{
    const int64_t nsys = plan->nsys;
    const int mono = plan->mono;
    const int64_t ntrees = mono ? 1 : nsys;
    hb_status st = HB_SUCCESS;
    tree_cut *cuts = calloc((size_t)ntrees, sizeof *cuts);
    int64_t *sys_off = malloc((size_t)(nsys + 1) * sizeof *sys_off); /* first branch of s */
    if (!cuts || !sys_off) {
        free(cuts);
        free(sys_off);
        return hb__error(HB_ERR_OUT_OF_MEMORY, "branch tables for %lld systems", (long long)nsys);
    }
#define ROW0(s) (plan->offsets ? plan->offsets[s] : (s) * plan->n_uniform)
#define NROWS(s) (plan->offsets ? plan->offsets[(s) + 1] - plan->offsets[s] : plan->n_uniform)
#define CUT(s) (&cuts[mono ? 0 : (s)])
    for (int64_t t = 0; t < ntrees && st == HB_SUCCESS; ++t)
        st = prepare_tree(parent + ROW0(t), NROWS(t), o, &cuts[t]);
    br_rec *rec = NULL;
    int64_t *rank = NULL, *pos0 = NULL, *bst = NULL, *blen = NULL, *ppos = NULL;
    int64_t *chptr = NULL, *chidx = NULL, *seg = NULL, *grp = NULL, *rowmap = NULL;
    int64_t *owner = NULL, *cmap_same = NULL, *cmap_swap = NULL;
    int64_t nbr = 0;
    if (st != HB_SUCCESS)
        goto done;
    sys_off[0] = 0;
    for (int64_t s = 0; s < nsys; ++s)
        sys_off[s + 1] = sys_off[s] + CUT(s)->nb;
    nbr = sys_off[nsys];
    rec = malloc((size_t)nbr * sizeof *rec);
    rank = malloc((size_t)nbr * sizeof *rank);
    if (!rec || !rank) {
        st = hb__error(HB_ERR_OUT_OF_MEMORY, "%lld branch records", (long long)nbr);
        goto done;
    }
    /* Fine tree: pack whole cells greedily into groups while every level's
     * branch count stays within the group size. */
    int64_t maxlev = 0;
    for (int64_t t = 0; t < ntrees; ++t)
        for (int64_t b = 0; b < cuts[t].nb; ++b)
            if (cuts[t].level[b] > maxlev)
                maxlev = cuts[t].level[b];
    int64_t *fill = calloc((size_t)maxlev + 1, sizeof *fill);
    int64_t *mine = calloc((size_t)maxlev + 1, sizeof *mine);
    if (!fill || !mine) {
        free(fill);
        free(mine);
        st = hb__error(HB_ERR_OUT_OF_MEMORY, "level histograms");
        goto done;
    }
    int64_t group = 0, in_group = 0;
    for (int64_t s = 0; s < nsys; ++s) {
        const tree_cut *c = CUT(s);
        if (o->group_size > 0) {
            memset(mine, 0, (size_t)(maxlev + 1) * sizeof *mine);
            for (int64_t b = 0; b < c->nb; ++b)
                mine[c->level[b]]++;
            int fits = 1;
            for (int64_t L = 0; L <= maxlev && fits; ++L)
                fits = fill[L] + mine[L] <= o->group_size;
            if (!fits && in_group > 0) {
                ++group;
                in_group = 0;
                memset(fill, 0, (size_t)(maxlev + 1) * sizeof *fill);
            }
            for (int64_t L = 0; L <= maxlev; ++L)
                fill[L] += mine[L];
            ++in_group;
        }
        for (int64_t b = 0; b < c->nb; ++b)
            rec[sys_off[s] + b] = (br_rec){group, c->level[b], c->blen[b], s, b};
    }
    free(fill);
    free(mine);
    const int64_t ngroups = nsys > 0 ? group + 1 : 0;
    if ((st = sort_records(rec, nbr, ngroups, maxlev)) != HB_SUCCESS)
        goto done;
    for (int64_t b = 0; b < nbr; ++b)
        rank[sys_off[rec[b].sys] + rec[b].local] = b;

    pos0 = malloc((size_t)nbr * sizeof *pos0);
    bst = malloc((size_t)nbr * sizeof *bst);
    blen = malloc((size_t)nbr * sizeof *blen);
    ppos = malloc((size_t)nbr * sizeof *ppos);
    chptr = calloc((size_t)nbr + 1, sizeof *chptr);
    chidx = malloc((size_t)(nbr > 0 ? nbr : 1) * sizeof *chidx);
    seg = malloc((size_t)(nbr + 1) * sizeof *seg);
    grp = malloc((size_t)(nbr + 1) * sizeof *grp);
    rowmap = malloc((size_t)(plan->nrows > 0 ? plan->nrows : 1) * sizeof *rowmap);
    if (!pos0 || !bst || !blen || !ppos || !chptr || !chidx || !seg || !grp || !rowmap) {
        st = hb__error(HB_ERR_OUT_OF_MEMORY, "branch layout of %lld branches", (long long)nbr);
        goto done;
    }
    /* Segments (one level of one group) and groups, then positions: each
     * segment is cut into chunks of HB_BRANCH_CHUNK branches, interleaved and
     * padded to the chunk's longest (first) branch. */
    int64_t nseg = 0, off = 0, maxseg = 0;
    grp[0] = 0;
    for (int64_t b = 0; b < nbr; ++b) {
        if (b == 0 || rec[b].group != rec[b - 1].group || rec[b].level != rec[b - 1].level) {
            if (b > 0 && rec[b].group != rec[b - 1].group)
                grp[rec[b].group] = nseg;
            seg[nseg++] = b;
        }
        blen[b] = rec[b].len;
    }
    seg[nseg] = nbr;
    grp[ngroups] = nseg;
    for (int64_t sgi = 0; sgi < nseg; ++sgi) {
        int64_t lo = seg[sgi], hi = seg[sgi + 1];
        if (hi - lo > maxseg)
            maxseg = hi - lo;
        for (int64_t c0 = lo; c0 < hi; c0 += HB_BRANCH_CHUNK) {
            int64_t w = hi - c0 < HB_BRANCH_CHUNK ? hi - c0 : HB_BRANCH_CHUNK;
            for (int64_t b = c0; b < c0 + w; ++b) {
                pos0[b] = off + (b - c0);
                bst[b] = w;
            }
            off += w * blen[c0];
        }
    }
    /* Row map, parent positions, couplings of re-rooted trees, child lists.
     * Branch data use the tree's own numbering (new indices when re-rooted);
     * OLD() turns one into the caller's row. */
#define OLD(c, i) ((c)->perm ? (int64_t)(c)->perm[i] : (int64_t)(i))
    for (int64_t s = 0; s < nsys; ++s) {
        const tree_cut *c = CUT(s);
        int64_t r0 = ROW0(s);
        for (int64_t i = 0; i < c->n; ++i) {
            int64_t b = rank[sys_off[s] + c->bid[i]];
            rowmap[r0 + OLD(c, i)] = pos0[b] + (int64_t)c->bj[i] * bst[b];
        }
    }
    owner = malloc((size_t)(nbr > 0 ? nbr : 1) * sizeof *owner);
    if (o->reroot) {
        cmap_same = malloc((size_t)plan->nrows * sizeof *cmap_same);
        cmap_swap = malloc((size_t)plan->nrows * sizeof *cmap_swap);
    }
    if (!owner || (o->reroot && (!cmap_same || !cmap_swap))) {
        st = hb__error(HB_ERR_OUT_OF_MEMORY, "branch links of %lld branches", (long long)nbr);
        goto done;
    }
    for (int64_t s = 0; s < nsys; ++s) {
        const tree_cut *c = CUT(s);
        const int32_t *par = parent + (mono ? 0 : ROW0(s));
        const int32_t *tp = c->npar ? c->npar : par; /* parents in the tree's numbering */
        int64_t r0 = ROW0(s);
        for (int64_t lb = 0; lb < c->nb; ++lb) {
            int64_t b = rank[sys_off[s] + lb], h = c->head[lb];
            ppos[b] = h == 0 ? -1 : rowmap[r0 + OLD(c, tp[h])];
            owner[b] = h == 0 ? -1 : rank[sys_off[s] + c->bid[tp[h]]];
            if (h != 0)
                chptr[owner[b] + 1]++;
        }
        if (o->reroot) {
            /* Row x's couplings belong to the edge to par[x]. Kept as it was,
             * they stay at x; turned round (par[x] is now x's child), they
             * describe par[x]'s edge to x, with u and l exchanged. */
            cmap_same[r0] = cmap_swap[r0] = -1;
            for (int64_t x = 1; x < c->n; ++x) {
                int64_t y = par[x];
                int kept = tp[c->inv[x]] == c->inv[y];
                cmap_same[r0 + x] = kept ? rowmap[r0 + x] : -1;
                cmap_swap[r0 + x] = kept ? -1 : rowmap[r0 + y];
            }
        }
    }
#undef OLD
    for (int64_t b = 0; b < nbr; ++b)
        chptr[b + 1] += chptr[b];
    {
        /* Children in ascending branch order: a fixed order of the junction
         * updates makes the result deterministic. */
        int64_t *next = malloc((size_t)(nbr > 0 ? nbr : 1) * sizeof *next);
        if (!next) {
            st = hb__error(HB_ERR_OUT_OF_MEMORY, "child lists");
            goto done;
        }
        memcpy(next, chptr, (size_t)nbr * sizeof *next);
        for (int64_t b = 0; b < nbr; ++b)
            if (owner[b] >= 0)
                chidx[next[owner[b]]++] = b;
        free(next);
    }
    hb_branch_dev *br = &plan->br;
    br->nbranches = nbr;
    br->nsegments = nseg;
    br->ngroups = ngroups;
    br->length = off;
    br->nrows = plan->nrows;
    br->max_seg_branches = maxseg;
    br->group_size = o->group_size;
    br->split = o->split;
    br->host_seg_ptr = seg;
    br->host_grp_ptr = grp;
    plan->host_rowmap = rowmap;
    seg = grp = rowmap = NULL;
    size_t nb8 = (size_t)nbr * sizeof(int64_t);
    if ((st = upload(plan, &br->pos0, pos0, nb8)) || (st = upload(plan, &br->bstride, bst, nb8)) ||
        (st = upload(plan, &br->len, blen, nb8)) || (st = upload(plan, &br->ppos, ppos, nb8)) ||
        (st = upload(plan, &br->chptr, chptr, nb8 + sizeof(int64_t))) ||
        (st = upload(plan, &br->chidx, chidx, (size_t)chptr[nbr] * sizeof(int64_t))) ||
        (st = upload(plan, &br->seg_ptr, br->host_seg_ptr, (size_t)(nseg + 1) * sizeof(int64_t))) ||
        (st = upload(plan, &br->grp_ptr, br->host_grp_ptr,
                     (size_t)(ngroups + 1) * sizeof(int64_t))) ||
        (st = upload(plan, &br->rowmap, plan->host_rowmap,
                     (size_t)plan->nrows * sizeof(int64_t))))
        goto done;
    if (o->reroot &&
        ((st = upload(plan, &br->cmap_same, cmap_same, (size_t)plan->nrows * sizeof(int64_t))) ||
         (st = upload(plan, &br->cmap_swap, cmap_swap, (size_t)plan->nrows * sizeof(int64_t)))))
        goto done;
done:
#undef ROW0
#undef NROWS
#undef CUT
    for (int64_t t = 0; t < ntrees; ++t)
        cut_free(&cuts[t]);
    free(cuts);
    free(sys_off);
    free(rec);
    free(rank);
    free(pos0);
    free(bst);
    free(blen);
    free(ppos);
    free(chptr);
    free(chidx);
    free(seg);
    free(grp);
    free(rowmap);
    free(owner);
    free(cmap_same);
    free(cmap_swap);
    return st;
}
