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

/* A batch's branch tables on the host, before they go to the backend. */
typedef struct {
    int64_t nbr, nseg, ngroups, length, maxseg;
    int64_t *pos0, *bst, *blen, *ppos, *chptr, *chidx, *seg, *grp, *rowmap;
    int64_t *cmap_same, *cmap_swap; /* re-rooted only */
} br_tables;

static void tables_free(br_tables *t)
{
    int64_t *all[] = {t->pos0, t->bst,    t->blen,      t->ppos,     t->chptr, t->chidx,
                      t->seg,  t->grp,    t->rowmap,    t->cmap_same, t->cmap_swap};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i)
        free(all[i]);
    memset(t, 0, sizeof *t);
}

/* Uploads t; the plan takes seg, grp and rowmap (its host copies), the rest
 * stays t's. */
static hb_status tables_install(hb_plan *plan, br_tables *t, const hb_branch_options *o)
{
    hb_branch_dev *br = &plan->br;
    br->nbranches = t->nbr;
    br->nsegments = t->nseg;
    br->ngroups = t->ngroups;
    br->length = t->length;
    br->nrows = plan->nrows;
    br->max_seg_branches = t->maxseg;
    br->group_size = o->group_size;
    br->split = o->split;
    br->host_seg_ptr = t->seg;
    br->host_grp_ptr = t->grp;
    plan->host_rowmap = t->rowmap;
    t->seg = t->grp = t->rowmap = NULL;
    const int64_t nbr = t->nbr;
    size_t nb8 = (size_t)nbr * sizeof(int64_t);
    hb_status st;
    if ((st = upload(plan, &br->pos0, t->pos0, nb8)) ||
        (st = upload(plan, &br->bstride, t->bst, nb8)) ||
        (st = upload(plan, &br->len, t->blen, nb8)) || (st = upload(plan, &br->ppos, t->ppos, nb8)) ||
        (st = upload(plan, &br->chptr, t->chptr, nb8 + sizeof(int64_t))) ||
        (st = upload(plan, &br->chidx, t->chidx, (size_t)t->chptr[nbr] * sizeof(int64_t))) ||
        (st = upload(plan, &br->seg_ptr, br->host_seg_ptr,
                     (size_t)(t->nseg + 1) * sizeof(int64_t))) ||
        (st = upload(plan, &br->grp_ptr, br->host_grp_ptr,
                     (size_t)(t->ngroups + 1) * sizeof(int64_t))) ||
        (st = upload(plan, &br->rowmap, plan->host_rowmap,
                     (size_t)plan->nrows * sizeof(int64_t))))
        return st;
    if (o->reroot &&
        ((st = upload(plan, &br->cmap_same, t->cmap_same, (size_t)plan->nrows * sizeof(int64_t))) ||
         (st = upload(plan, &br->cmap_swap, t->cmap_swap, (size_t)plan->nrows * sizeof(int64_t)))))
        return st;
    return HB_SUCCESS;
}

/* Copies of one tree (nsys >= 1): the tables the general path makes, from
 * the one tree's branches and each branch's rank worked out, not sorted.
 * Records are ordered by group, level, length (longest first), system,
 * branch; every cell has the same branches, so a (level, length) class of
 * the tree holds its branches of every cell of a group, cell after cell:
 * branch lb of cell s has rank G + m x off(c) + (s - g k) x |c| + idx(lb)
 * (group g of k cells from G, m cells in it, class c of lb). The general
 * path's per-branch records, sort and scattered writes took 6 s for 65,536
 * cells of a 1,000-row tree on one host core; this is one pass over the
 * branches and one over the rows, in order. */
typedef struct {
    int64_t nb, n, nsys, k, nlev;
    const hb__tree_cut *c;
    int64_t *cls, *idx;     /* per branch: its class, its place in the class      */
    int64_t *coff, *csize;  /* per class: branches of one cell before it, in it  */
    int64_t *loff, *lsize;  /* per level: the same                               */
    int64_t *chunk0;        /* per segment (group x level): its first chunk      */
    int64_t *chunkoff;      /* per chunk: its first position                     */
} mono_shape;

/* One cell's branches in class order: level, longest first, number. */
typedef struct {
    int64_t level, len, b;
} cls_key;

static int cmp_cls_key(const void *pa, const void *pb)
{
    const cls_key *x = pa, *y = pb;
    if (x->level != y->level)
        return x->level < y->level ? -1 : 1;
    if (x->len != y->len)
        return x->len > y->len ? -1 : 1;
    return (x->b > y->b) - (x->b < y->b);
}

static int64_t mono_cells(const mono_shape *m, int64_t g)
{
    const int64_t left = m->nsys - g * m->k;
    return left < m->k ? left : m->k;
}

/* The rank of branch lb of cell s. */
static int64_t mono_rank(const mono_shape *m, int64_t s, int64_t lb)
{
    const int64_t g = s / m->k, c = m->cls[lb];
    return g * m->k * m->nb + mono_cells(m, g) * m->coff[c] + (s - g * m->k) * m->csize[c] +
           m->idx[lb];
}

/* Where node i of cell s lives. */
static int64_t mono_pos(const mono_shape *m, int64_t s, int64_t i)
{
    const int64_t lb = m->c->bid[i], L = m->c->level[lb], g = s / m->k, cells = mono_cells(m, g);
    const int64_t seg0 = g * m->k * m->nb + cells * m->loff[L];
    const int64_t seg1 = seg0 + cells * m->lsize[L];
    const int64_t b = mono_rank(m, s, lb), q = (b - seg0) / HB_BRANCH_CHUNK;
    const int64_t c0 = seg0 + q * HB_BRANCH_CHUNK;
    const int64_t w = seg1 - c0 < HB_BRANCH_CHUNK ? seg1 - c0 : HB_BRANCH_CHUNK;
    return m->chunkoff[m->chunk0[g * m->nlev + L] + q] + (b - c0) + (int64_t)m->c->bj[i] * w;
}

static hb_status mono_tables(hb_plan *plan, const int32_t *parent, const one_tree *tr,
                             const hb_branch_options *o, br_tables *t)
{
    const hb__tree_cut *c = &tr->cut;
    const int64_t nb = c->nb, n = c->n, nsys = plan->nsys, nlev = c->nlev;
    mono_shape m = {.nb = nb, .n = n, .nsys = nsys, .nlev = nlev, .c = c};
    hb_status st = HB_SUCCESS;
    int64_t *order = NULL, *nch = NULL, *kids = NULL, *kptr = NULL;
    /* Cells per group: the fine tree packs whole cells while every level's
     * branches fit the group (at least one cell); branch-level, one group. */
    m.k = nsys;
    if (o->group_size > 0) {
        int64_t *per = hb__calloc_n(nlev, sizeof *per);
        if (!per)
            return hb__error(HB_ERR_OUT_OF_MEMORY, "branch classes");
        for (int64_t b = 0; b < nb; ++b)
            per[c->level[b]]++;
        for (int64_t L = 0; L < nlev; ++L)
            if (per[L] > 0 && o->group_size / per[L] < m.k)
                m.k = o->group_size / per[L];
        if (m.k < 1)
            m.k = 1;
        free(per);
    }
    const int64_t ngroups = (nsys + m.k - 1) / m.k;
    int64_t nbr, nseg;
    if (!hb__mul_i64(nsys, nb, &nbr) || !hb__mul_i64(ngroups, nlev, &nseg))
        return hb__error(HB_ERR_OUT_OF_MEMORY, "%lld cells of %lld branches", (long long)nsys,
                         (long long)nb);
    /* The tree's branches by level, longest first, then number: the class
     * order. */
    m.cls = hb__malloc_n(nb, sizeof *m.cls);
    m.idx = hb__malloc_n(nb, sizeof *m.idx);
    m.coff = hb__malloc_n(nb, sizeof *m.coff);
    m.csize = hb__malloc_n(nb, sizeof *m.csize);
    m.loff = hb__calloc_n(nlev + 1, sizeof *m.loff);
    m.lsize = hb__calloc_n(nlev, sizeof *m.lsize);
    m.chunk0 = hb__malloc_n(nseg + 1, sizeof *m.chunk0);
    order = hb__malloc_n(nb, sizeof *order);
    nch = hb__calloc_n(nb + 1, sizeof *nch);
    t->nbr = nbr;
    t->nseg = nseg;
    t->ngroups = ngroups;
    t->pos0 = hb__malloc_n(nbr, sizeof *t->pos0);
    t->bst = hb__malloc_n(nbr, sizeof *t->bst);
    t->blen = hb__malloc_n(nbr, sizeof *t->blen);
    t->ppos = hb__malloc_n(nbr, sizeof *t->ppos);
    t->chptr = hb__malloc_n(nbr + 1, sizeof *t->chptr);
    t->chidx = hb__malloc_n(nbr > 0 ? nbr : 1, sizeof *t->chidx);
    t->seg = hb__malloc_n(nseg + 1, sizeof *t->seg);
    t->grp = hb__malloc_n(ngroups + 1, sizeof *t->grp);
    t->rowmap = hb__malloc_n(plan->nrows, sizeof *t->rowmap);
    if (o->reroot) {
        t->cmap_same = hb__malloc_n(plan->nrows, sizeof *t->cmap_same);
        t->cmap_swap = hb__malloc_n(plan->nrows, sizeof *t->cmap_swap);
    }
    if (!m.cls || !m.idx || !m.coff || !m.csize || !m.loff || !m.lsize || !m.chunk0 || !order ||
        !nch || !t->pos0 || !t->bst || !t->blen || !t->ppos || !t->chptr || !t->chidx ||
        !t->seg || !t->grp || !t->rowmap || (o->reroot && (!t->cmap_same || !t->cmap_swap))) {
        st = hb__error(HB_ERR_OUT_OF_MEMORY, "branch layout of %lld branches", (long long)nbr);
        goto done;
    }
    {
        cls_key *keys = hb__malloc_n(nb, sizeof *keys);
        if (!keys) {
            st = hb__error(HB_ERR_OUT_OF_MEMORY, "branch classes");
            goto done;
        }
        for (int64_t b = 0; b < nb; ++b)
            keys[b] = (cls_key){c->level[b], c->blen[b], b};
        qsort(keys, (size_t)nb, sizeof *keys, cmp_cls_key);
        for (int64_t r = 0; r < nb; ++r)
            order[r] = keys[r].b;
        free(keys);
    }
    int64_t ncls = 0;
    for (int64_t r = 0; r < nb; ++r) {
        const int64_t b = order[r];
        if (r == 0 || c->level[b] != c->level[order[r - 1]] || c->blen[b] != c->blen[order[r - 1]]) {
            m.coff[ncls] = r;
            m.csize[ncls] = 0;
            ++ncls;
        }
        m.cls[b] = ncls - 1;
        m.idx[b] = m.csize[ncls - 1]++;
        m.lsize[c->level[b]]++;
    }
    for (int64_t L = 0; L < nlev; ++L)
        m.loff[L + 1] = m.loff[L] + m.lsize[L];
    /* Segments and chunks, in order: the chunk offsets (a few per segment)
     * and, per branch, its position, stride and length. */
    int64_t nchunks = 0;
    for (int64_t g = 0; g < ngroups; ++g)
        for (int64_t L = 0; L < nlev; ++L) {
            m.chunk0[g * nlev + L] = nchunks;
            const int64_t len = mono_cells(&m, g) * m.lsize[L];
            nchunks += (len + HB_BRANCH_CHUNK - 1) / HB_BRANCH_CHUNK;
        }
    m.chunk0[nseg] = nchunks;
    m.chunkoff = hb__malloc_n(nchunks + 1, sizeof *m.chunkoff);
    if (!m.chunkoff) {
        st = hb__error(HB_ERR_OUT_OF_MEMORY, "%lld chunks", (long long)nchunks);
        goto done;
    }
    int64_t off = 0, maxseg = 0, b = 0, ch = 0;
    for (int64_t g = 0; g < ngroups; ++g) {
        const int64_t cells = mono_cells(&m, g);
        t->grp[g] = g * nlev;
        for (int64_t L = 0; L < nlev; ++L) {
            const int64_t lo = b, hi = b + cells * m.lsize[L];
            t->seg[g * nlev + L] = lo;
            if (hi - lo > maxseg)
                maxseg = hi - lo;
            /* Each class of the level spans cells x its size. */
            int64_t cl = m.cls[order[m.loff[L]]], left = cells * m.csize[cl];
            for (int64_t c0 = lo; c0 < hi; c0 += HB_BRANCH_CHUNK) {
                const int64_t w = hi - c0 < HB_BRANCH_CHUNK ? hi - c0 : HB_BRANCH_CHUNK;
                m.chunkoff[ch++] = off;
                int64_t first = -1;
                for (int64_t x = c0; x < c0 + w; ++x) {
                    while (left == 0) {
                        ++cl;
                        left = cells * m.csize[cl];
                    }
                    const int64_t len = c->blen[order[m.coff[cl]]];
                    if (first < 0)
                        first = len;
                    t->pos0[x] = off + (x - c0);
                    t->bst[x] = w;
                    t->blen[x] = len;
                    --left;
                }
                off += w * first;
            }
            b = hi;
        }
    }
    t->seg[nseg] = nbr;
    t->grp[ngroups] = nseg;
    t->length = off;
    t->maxseg = maxseg;
    /* Row map (and the re-rooted couplings' maps), cell by cell in row
     * order. Branch data use the tree's own numbering; OLD() turns one
     * into the caller's row. */
#define OLD(i) (tr->perm ? (int64_t)tr->perm[i] : (int64_t)(i))
    for (int64_t s = 0; s < nsys; ++s) {
        int64_t *map = t->rowmap + s * n;
        for (int64_t i = 0; i < n; ++i)
            map[OLD(i)] = mono_pos(&m, s, i);
        if (o->reroot) {
            const int32_t *tp = tr->npar;
            t->cmap_same[s * n] = t->cmap_swap[s * n] = -1;
            for (int64_t x = 1; x < n; ++x) {
                const int64_t y = parent[x];
                const int kept = tp[tr->inv[x]] == tr->inv[y];
                t->cmap_same[s * n + x] = kept ? map[x] : -1;
                t->cmap_swap[s * n + x] = kept ? -1 : map[y];
            }
        }
    }
    /* Links: each branch's head's parent position and its child branches
     * (in ascending rank: by class, then place, whatever the cell). */
    const int32_t *tp = tr->npar ? tr->npar : parent;
    for (int64_t lb = 0; lb < nb; ++lb)
        if (c->head[lb] != 0)
            nch[c->bid[tp[c->head[lb]]] + 1]++;
    for (int64_t lb = 0; lb < nb; ++lb)
        nch[lb + 1] += nch[lb];
    kids = hb__malloc_n(nb > 0 ? nb : 1, sizeof *kids);
    kptr = hb__malloc_n(nb + 1, sizeof *kptr);
    if (!kids || !kptr) {
        st = hb__error(HB_ERR_OUT_OF_MEMORY, "child lists");
        goto done;
    }
    memcpy(kptr, nch, (size_t)(nb + 1) * sizeof *kptr);
    for (int64_t r = 0; r < nb; ++r) { /* in class order: each list ascending */
        const int64_t lb = order[r];
        if (c->head[lb] != 0)
            kids[kptr[c->bid[tp[c->head[lb]]]]++] = lb;
    }
    int64_t e = 0;
    t->chptr[0] = 0;
    for (int64_t g = 0, x = 0; g < ngroups; ++g) {
        const int64_t cells = mono_cells(&m, g);
        /* Ranks in order: class by class, cell by cell, place by place. */
        for (int64_t r0 = 0; r0 < nb;) {
            const int64_t cl = m.cls[order[r0]], size = m.csize[cl];
            for (int64_t sc = 0; sc < cells; ++sc) {
                const int64_t s = g * m.k + sc;
                for (int64_t j = 0; j < size; ++j, ++x) {
                    const int64_t lb = order[r0 + j], h = c->head[lb];
                    t->ppos[x] = h == 0 ? -1 : mono_pos(&m, s, tp[h]);
                    for (int64_t q = nch[lb]; q < nch[lb + 1]; ++q)
                        t->chidx[e++] = mono_rank(&m, s, kids[q]);
                    t->chptr[x + 1] = e;
                }
            }
            r0 += size;
        }
    }
#undef OLD
done:
    free(m.cls);
    free(m.idx);
    free(m.coff);
    free(m.csize);
    free(m.loff);
    free(m.lsize);
    free(m.chunk0);
    free(m.chunkoff);
    free(order);
    free(nch);
    free(kids);
    free(kptr);
    return st;
}

hb_status hb__branches_build(hb_plan *plan, const int32_t *parent, const hb_branch_options *o)
{
    if (plan->mono && plan->nsys > 0 && !o->general) {
        one_tree tr;
        br_tables t;
        memset(&t, 0, sizeof t);
        hb_status st = prepare_tree(parent, plan->n_uniform > 0 ? plan->n_uniform
                                                                 : plan->offsets[1],
                                    o, &tr);
        if (st == HB_SUCCESS)
            st = mono_tables(plan, parent, &tr, o, &t);
        if (st == HB_SUCCESS)
            st = tables_install(plan, &t, o);
        tree_free(&tr);
        tables_free(&t);
        return st;
    }

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
    {
        br_tables t = {nbr, nseg, ngroups, off, maxseg, pos0, bst, blen, ppos, chptr, chidx,
                       seg, grp, rowmap, cmap_same, cmap_swap};
        st = tables_install(plan, &t, o);
        seg = grp = rowmap = NULL; /* the plan's now */
    }
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
