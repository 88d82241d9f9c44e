/* branches.c: the branch strategies' tables: each tree re-rooted and cut by hb_tree.h, branches grouped by level (and by work-group for the fine tree), laid out. */
#include "hb_plan.h"
#include "hb_tree.h"

#include <stdlib.h>
#include <string.h>

/* One tree of the batch: its cut into branches (hb_tree.h), in the tree's own
 * numbering, which is new when re-rooted. */
typedef struct {
    hb__tree_cut cut;
    int32_t *perm, *inv;    /* re-rooted: new index -> row, row -> new index  */
    int32_t *npar;          /* re-rooted: parents in new indices              */
} one_tree;

static void tree_free(one_tree *t)
{
    free(t->perm);
    free(t->inv);
    free(t->npar);
    hb__tree_cut_free(&t->cut);
}

/* One tree: optional re-rooting at the lowest-numbered root of least depth
 * in branches, then the cut into branches, optionally split. */
static hb_status prepare_tree(const int32_t *par, int64_t n, const hb_branch_options *o,
                              one_tree *t)
{
    memset(t, 0, sizeof *t);
    const int32_t *p = par;
    if (o->reroot) {
        int64_t root = 0;
        HB_FORWARD(hb__tree_best_root(par, n, HB__DEPTH_BRANCHES, HB__ROOT_FIRST, &root));
        HB_FORWARD(hb__tree_renumber(par, n, root, &t->perm, &t->inv, &t->npar));
        p = t->npar;
    }
    return hb__tree_cut_make(p, n, HB__DEPTH_BRANCHES, o->split, &t->cut);
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
    br_rec *tmp = hb__malloc_n(n > 0 ? n : 1, sizeof *tmp);
    int64_t *cnt = hb__malloc_n(nkeys + 1, sizeof *cnt);
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
    one_tree *trees = hb__calloc_n(ntrees, sizeof *trees);
    int64_t *sys_off = hb__malloc_n(nsys + 1, sizeof *sys_off); /* first branch of s */
    if (!trees || !sys_off) {
        free(trees);
        free(sys_off);
        return hb__error(HB_ERR_OUT_OF_MEMORY, "branch tables for %lld systems", (long long)nsys);
    }
#define ROW0(s) (plan->offsets ? plan->offsets[s] : (s) * plan->n_uniform)
#define NROWS(s) (plan->offsets ? plan->offsets[(s) + 1] - plan->offsets[s] : plan->n_uniform)
#define TREE(s) (&trees[mono ? 0 : (s)])
#define CUT(s) (&TREE(s)->cut)
    for (int64_t t = 0; t < ntrees && st == HB_SUCCESS; ++t)
        st = prepare_tree(parent + ROW0(t), NROWS(t), o, &trees[t]);
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
    rec = hb__malloc_n(nbr, sizeof *rec);
    rank = hb__malloc_n(nbr, sizeof *rank);
    if (!rec || !rank) {
        st = hb__error(HB_ERR_OUT_OF_MEMORY, "%lld branch records", (long long)nbr);
        goto done;
    }
    /* Fine tree: pack whole cells greedily into groups while every level's
     * branch count stays within the group size. */
    int64_t maxlev = 0;
    for (int64_t t = 0; t < ntrees; ++t)
        if (trees[t].cut.nlev - 1 > maxlev)
            maxlev = trees[t].cut.nlev - 1;
    int64_t *fill = hb__calloc_n(maxlev + 1, sizeof *fill);
    int64_t *mine = hb__calloc_n(maxlev + 1, sizeof *mine);
    if (!fill || !mine) {
        free(fill);
        free(mine);
        st = hb__error(HB_ERR_OUT_OF_MEMORY, "level histograms");
        goto done;
    }
    int64_t group = 0, in_group = 0;
    for (int64_t s = 0; s < nsys; ++s) {
        const hb__tree_cut *c = CUT(s);
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

    pos0 = hb__malloc_n(nbr, sizeof *pos0);
    bst = hb__malloc_n(nbr, sizeof *bst);
    blen = hb__malloc_n(nbr, sizeof *blen);
    ppos = hb__malloc_n(nbr, sizeof *ppos);
    chptr = hb__calloc_n(nbr + 1, sizeof *chptr);
    chidx = hb__malloc_n(nbr > 0 ? nbr : 1, sizeof *chidx);
    seg = hb__malloc_n(nbr + 1, sizeof *seg);
    grp = hb__malloc_n(nbr + 1, sizeof *grp);
    rowmap = hb__malloc_n(plan->nrows > 0 ? plan->nrows : 1, sizeof *rowmap);
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
#define OLD(tr, i) ((tr)->perm ? (int64_t)(tr)->perm[i] : (int64_t)(i))
    for (int64_t s = 0; s < nsys; ++s) {
        const one_tree *tr = TREE(s);
        const hb__tree_cut *c = &tr->cut;
        int64_t r0 = ROW0(s);
        for (int64_t i = 0; i < c->n; ++i) {
            int64_t b = rank[sys_off[s] + c->bid[i]];
            rowmap[r0 + OLD(tr, i)] = pos0[b] + (int64_t)c->bj[i] * bst[b];
        }
    }
    owner = hb__malloc_n(nbr > 0 ? nbr : 1, sizeof *owner);
    if (o->reroot) {
        cmap_same = hb__malloc_n(plan->nrows, sizeof *cmap_same);
        cmap_swap = hb__malloc_n(plan->nrows, sizeof *cmap_swap);
    }
    if (!owner || (o->reroot && (!cmap_same || !cmap_swap))) {
        st = hb__error(HB_ERR_OUT_OF_MEMORY, "branch links of %lld branches", (long long)nbr);
        goto done;
    }
    for (int64_t s = 0; s < nsys; ++s) {
        const one_tree *tr = TREE(s);
        const hb__tree_cut *c = &tr->cut;
        const int32_t *par = parent + (mono ? 0 : ROW0(s));
        const int32_t *tp = tr->npar ? tr->npar : par; /* parents in the tree's numbering */
        int64_t r0 = ROW0(s);
        for (int64_t lb = 0; lb < c->nb; ++lb) {
            int64_t b = rank[sys_off[s] + lb], h = c->head[lb];
            ppos[b] = h == 0 ? -1 : rowmap[r0 + OLD(tr, tp[h])];
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
                int kept = tp[tr->inv[x]] == tr->inv[y];
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
        int64_t *next = hb__malloc_n(nbr > 0 ? nbr : 1, sizeof *next);
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
#undef TREE
#undef CUT
    for (int64_t t = 0; t < ntrees; ++t)
        tree_free(&trees[t]);
    free(trees);
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
