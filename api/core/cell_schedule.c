/* cell_schedule.c: the cell-group strategy's plan-time schedule: each distinct tree's trunk (solved by PCR), its chains off the trunk (unbranched runs, each walked by one work-item) in levels, and child lists, uploaded once. */
#include "hb_plan.h"
#include "hb_tree.h"

#include <stdlib.h>
#include <string.h>

/* kernels_cl/solver/hb_cell_phases.cl reads the header by its own HB_CELL_K_*
 * numbers (OpenCL C cannot include this header): change both together. */
_Static_assert(HB_CELL_EFIRST == 4 && HB_CELL_CPAR == 8 && HB_CELL_CONTIG == 10 &&
                   HB_CELL_HDR == 11,
               "the schedule's header must match HB_CELL_K_* in kernels_cl/solver/hb_cell_phases.cl");

/* A growing int32 table. */
typedef struct {
    int32_t *w;
    int64_t len, cap;
} words;

static int words_reserve(words *v, int64_t more)
{
    if (more <= v->cap - v->len)
        return 1;
    int64_t cap = v->cap > 0 ? v->cap : 1024;
    while (cap - v->len < more) {
        if (cap > INT64_MAX / 2)
            return 0;
        cap *= 2;
    }
    int32_t *w = NULL;
    size_t bytes;
    if (!hb__bytes_n(cap, sizeof *w, &bytes) || !(w = realloc(v->w, bytes)))
        return 0;
    v->w = w;
    v->cap = cap;
    return 1;
}

/* The most nodes of a chain where the plan's options leave it to the
 * library (hb_plan_options.cell_chain 0). The cell-group solver on an H200,
 * the CA1 cell (728 rows), two rounds, ms (docs/benchmarks/
 * h200-2026-11-30-chains, call 3): chains of 4 / 8 / whole runs / levels of
 * nodes (the schedule before chains): 256 cells in double 0.042 / 0.041-0.042
 * / 0.042 / 0.043-0.044, 2,560 in double 0.132-0.134 / 0.125-0.127 /
 * 0.127-0.130 / 0.138-0.148, 256 in float 0.036-0.041 / 0.037-0.038 /
 * 0.038-0.039 / 0.037-0.041, 2,560 in float 0.111-0.120 / 0.107 /
 * 0.108-0.111 / 0.090. */
#define HB_CELL_CHAIN_AUTO 8

/* A chain off the trunk while sorting: its level, length and bottom node. */
typedef struct {
    int32_t level, len, bottom;
} chain_key;

/* Level first, then the longest first, then the bottom's index, highest
 * first (the order of discovery: the sort is then as if stable). */
static int chain_order(const void *a, const void *b)
{
    const chain_key *x = a, *y = b;
    if (x->level != y->level)
        return x->level < y->level ? -1 : 1;
    if (x->len != y->len)
        return x->len > y->len ? -1 : 1;
    return x->bottom > y->bottom ? -1 : x->bottom < y->bottom;
}

/* Scratch of one tree (a value per node each): heights, counters,
 * positions, child counts, places in chains, and the chains' sort keys. */
typedef struct {
    int32_t   *h, *cnt, *pos, *nch, *run;
    chain_key *ck;
} tree_scratch;

/* Whether node i's chain goes on to its parent: the parent is off the trunk
 * (height below ht) and continues from i, its one child (place > 1). */
static inline int chain_goes_up(const int32_t *par, const int32_t *h, const int32_t *run,
                                int32_t ht, int32_t i)
{
    return h[par[i]] < ht && run[par[i]] > 1;
}

/* The next table of schedule S: its offset from S into header entry key,
 * o advanced past its len words. */
static int32_t *place(int32_t *S, int32_t *o, int key, int64_t len)
{
    S[key] = *o;
    *o += (int32_t)len;
    return S + S[key];
}

/* The chains of the tree par[0..n): heights in sc->h (H = h[0]), the
 * trunk (the nodes of height >= *ht, *nt of them), and the chains off it
 * in sc->ck[0..*nc) with their levels and lengths, *ne levels of them. */
static void tree_chains(const int32_t *par, int32_t n, int32_t most, const tree_scratch *sc,
                        int32_t *ht_out, int32_t *nt_out, int32_t *ne_out, int32_t *nc_out)
{
    int32_t *h = sc->h, *cnt = sc->cnt, *nch = sc->nch, *run = sc->run;
    chain_key *ck = sc->ck;
    int32_t H = 0;
    for (int32_t i = 0; i < n; ++i)
        h[i] = 0, nch[i] = 0;
    for (int32_t i = n - 1; i >= 1; --i) {
        ++nch[par[i]];
        if (h[i] + 1 > h[par[i]])
            h[par[i]] = h[i] + 1;
    }
    if (n > 0)
        H = h[0];
    /* The trunk: heights H down to ht, one node each (a node's only child of
     * the next height down is then the next), at most HB_CELL_TRUNK_MAX.
     * The nodes of height >= ht are the trunk's; every other node is off it,
     * and so are its children. */
    for (int32_t k = 0; k <= H; ++k)
        cnt[k] = 0;
    for (int32_t i = 0; i < n; ++i)
        ++cnt[h[i]];
    int32_t ht = H;
    while (ht > 0 && cnt[ht - 1] == 1 && H - ht + 1 < HB_CELL_TRUNK_MAX)
        --ht;
    /* Chains off the trunk: a chain runs from a node without exactly one
     * child (its bottom) up through parents with exactly one child, off the
     * trunk, at most `most` nodes (a longer run is cut: the node after the
     * cut is the bottom of the next chain, one level up). A chain's level
     * lv: 0 where its bottom is a leaf, else one more than its bottom's
     * children's chains' highest (children come after their parents: one
     * sweep from the last node). run[i]: i's place in its chain from the
     * bottom (1: the bottom), and before i's turn its last child's place;
     * cnt[i]: the highest level of i's children so far (-1: none). */
    int32_t ne = 0, nc = 0;
    for (int32_t i = 0; i < n; ++i)
        cnt[i] = -1, run[i] = 0;
    for (int32_t i = n - 1; i >= 0; --i) {
        if (h[i] >= ht)
            continue;
        const int go_on = nch[i] == 1 && run[i] < most; /* run[i]: its child's place */
        const int32_t lv = go_on ? cnt[i] : cnt[i] + 1; /* a leaf: -1 + 1 */
        run[i] = go_on ? run[i] + 1 : 1;
        if (lv + 1 > ne)
            ne = lv + 1;
        if (cnt[par[i]] < lv)
            cnt[par[i]] = lv;
        run[par[i]] = run[i];
        if (run[i] == 1)
            ck[nc++] = (chain_key){lv, 0, i}; /* bottoms, from the last node */
    }
    for (int32_t k = 0; k < nc; ++k) {
        int32_t len = 1, i = ck[k].bottom;
        for (; chain_goes_up(par, h, run, ht, i); i = par[i])
            ++len;
        ck[k].len = len;
    }
    *ht_out = ht;
    *nt_out = n > 0 ? H - ht + 1 : 0;
    *ne_out = ne;
    *nc_out = nc;
}

/* Appends the schedule of the tree par[0..n) (layout in hb_backend.h) to v;
 * n fits int32 (the plan keeps cells within local memory first). */
static int put_tree(words *v, const int32_t *par, int32_t n, int32_t most,
                    const tree_scratch *sc, int64_t *widest, int64_t *levels)
{
    int32_t *h = sc->h, *cnt = sc->cnt, *pos = sc->pos, *run = sc->run;
    chain_key *ck = sc->ck;
    int32_t ht, nt, ne, nc;
    tree_chains(par, n, most, sc, &ht, &nt, &ne, &nc);
    const int32_t H = n > 0 ? h[0] : 0;
    const int32_t noff = n - nt, ecount = n;
    const int64_t total = (int64_t)HB_CELL_HDR + (ne + 1) + 2 * (int64_t)ecount + (ecount + 1) +
                          noff + (nc + 1) + nc;
    if (!words_reserve(v, total))
        return 0;
    int32_t *S = v->w + v->len;
    int32_t o = HB_CELL_HDR;
    int32_t *eptr = S + o;
    o += ne + 1;
    int32_t *eorder = place(S, &o, HB_CELL_EORDER, ecount);
    int32_t *efirst = place(S, &o, HB_CELL_EFIRST, ecount);
    int32_t *ecs = place(S, &o, HB_CELL_ECS, ecount + 1);
    int32_t *cidx = place(S, &o, HB_CELL_CIDX, noff);
    int32_t *cptr = place(S, &o, HB_CELL_CPTR, nc + 1);
    int32_t *cpar = place(S, &o, HB_CELL_CPAR, nc);
    S[HB_CELL_N] = n;
    S[HB_CELL_NE] = ne;
    S[HB_CELL_NC] = nc;
    S[HB_CELL_NT] = nt;

    /* Chains by level, and within a level longest first, so that
     * work-items taking a level's chains in turn share its work evenly; then
     * each chain's entries from its bottom up, the trunk's after the last
     * chain's from the root down. */
    for (int32_t e = 0; e <= ne; ++e)
        eptr[e] = 0;
    for (int32_t k = 0; k < nc; ++k)
        ++eptr[ck[k].level + 1];
    for (int32_t e = 0; e < ne; ++e) {
        if (eptr[e + 1] > *widest)
            *widest = eptr[e + 1];
        eptr[e + 1] += eptr[e];
    }
    qsort(ck, (size_t)nc, sizeof *ck, chain_order);
    int32_t q = 0, contig = 1;
    for (int32_t k = 0; k < nc; ++k) {
        int32_t i = ck[k].bottom;
        cptr[k] = q;
        eorder[q++] = i;
        while (chain_goes_up(par, h, run, ht, i)) {
            contig &= par[i] == i - 1;
            eorder[q++] = i = par[i];
        }
        cpar[k] = par[i];
    }
    S[HB_CELL_CONTIG] = contig;
    cptr[nc] = q;
    for (int32_t i = 0; i < n; ++i)
        if (h[i] >= ht)
            eorder[q + (H - h[i])] = i;
    if (nt > *widest)
        *widest = nt;
    /* Children per entry (off the trunk, all of them for a node off it),
     * highest index first: the serial sweep (i from n-1 down) updates a
     * parent in that order, so the gather rounds as it does. cnt: such
     * children per node; pos: where a node's run starts in cidx. */
    for (int32_t i = 0; i < n; ++i)
        cnt[i] = 0;
    for (int32_t i = 1; i < n; ++i)
        cnt[par[i]] += h[i] < ht;
    ecs[0] = 0;
    for (int32_t k = 0; k < ecount; ++k) {
        pos[eorder[k]] = ecs[k];
        ecs[k + 1] = ecs[k] + cnt[eorder[k]];
    }
    for (int32_t i = n - 1; i >= 1; --i)
        if (h[i] < ht)
            cidx[pos[par[i]]++] = i;
    for (int32_t k = 0; k < ecount; ++k)
        efirst[k] = ecs[k + 1] > ecs[k] ? cidx[ecs[k]] : -1;
    /* Elimination levels, the trunk counting as one. */
    const int64_t steps = n > 0 ? (int64_t)ne + 1 : 0;
    if (steps > *levels)
        *levels = steps;
    v->len += total;
    return 1;
}

/* FNV-1a of a tree, to find repeated trees of a mixed batch. */
static uint64_t tree_hash(const int32_t *par, int64_t n)
{
    return hb__fnv1a(1469598103934665603ull ^ (uint64_t)n, par, (size_t)n * sizeof *par);
}

/* Size classes of the cells (hb_layout_dev.cell_class): slots sorted by
 * the next power of two of their rows (at least 32), stably. */
static hb_status cell_classes(hb_plan *plan)
{
    const hb_layout_host *lay = &plan->lay;
    hb_layout_dev *dev = &plan->dev;
    const int64_t nslots = lay->nslots;
    int64_t cnt[64] = {0}, ld[64] = {0}, first[64];
    int *cls = hb__malloc_n(nslots, sizeof *cls);
    int64_t *order = hb__malloc_n(nslots, sizeof *order);
    int64_t *table = hb__malloc_n(3 * 64, sizeof *table);
    hb_status st = HB_SUCCESS;
    if (!cls || !order || !table) {
        st = hb__error(HB_ERR_OUT_OF_MEMORY, "cell-group classes of %lld cells",
                       (long long)nslots);
        goto done;
    }
    for (int64_t t = 0; t < nslots; ++t) {
        int k = 0;
        while (k < 62 && ((int64_t)32 << k) < lay->nown[t])
            ++k;
        cls[t] = plan->mono ? 0 : k;
        ++cnt[cls[t]];
        if (lay->nown[t] > ld[cls[t]])
            ld[cls[t]] = lay->nown[t];
    }
    int nc = 0;
    for (int k = 0, at = 0; k < 64; ++k) {
        first[k] = at;
        at += (int)cnt[k];
        if (cnt[k] > 0) {
            table[3 * nc] = first[k];
            table[3 * nc + 1] = cnt[k];
            table[3 * nc + 2] = ld[k] > 0 ? ld[k] : 1;
            ++nc;
        }
    }
    for (int64_t t = 0; t < nslots; ++t)
        order[first[cls[t]]++] = t;
    hb_context *ctx = plan->ctx;
    const size_t bytes = (size_t)nslots * sizeof *order;
    if ((st = ctx->ops->alloc(ctx, bytes, &dev->cslots)) ||
        (st = ctx->ops->write(ctx, plan->stream, dev->cslots, 0, order, bytes)) ||
        (st = ctx->ops->finish(ctx, plan->stream)))
        goto done;
    dev->cell_class = table;
    dev->cell_nclasses = nc;
    table = NULL;
done:
    free(cls);
    free(order);
    free(table);
    return st;
}

hb_status hb__cell_schedule_build(hb_plan *plan, const int32_t *parent, int32_t chain,
                                  int64_t *widest, int64_t *levels)
{
    const int32_t most = chain > 0 ? chain : HB_CELL_CHAIN_AUTO;
    const hb_layout_host *lay = &plan->lay;
    const int64_t nslots = lay->nslots, maxn = lay->max_rows;
    *widest = 1;
    *levels = 0;
    if (maxn > INT32_MAX / 2)
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "cell-group schedule: a cell of %lld rows is past its int32 tables",
                         (long long)maxn);
    hb_status st = HB_SUCCESS;
    words v = {NULL, 0, 0};
    tree_scratch sc = {hb__malloc_n(maxn + 1, sizeof(int32_t)),
                       hb__malloc_n(maxn + 1, sizeof(int32_t)),
                       hb__malloc_n(maxn + 2, sizeof(int32_t)),
                       hb__malloc_n(maxn + 1, sizeof(int32_t)),
                       hb__malloc_n(maxn + 1, sizeof(int32_t)),
                       hb__malloc_n(maxn + 1, sizeof(chain_key))};
    int64_t *soff = hb__malloc_n(nslots, sizeof *soff);
    /* Open-addressed table of slots whose tree was stored: 2 x the slots. */
    int64_t tsize = 1;
    while (tsize < 2 * nslots)
        tsize *= 2;
    int64_t *table = plan->mono ? NULL : hb__malloc_n(tsize, sizeof *table);
    if (!sc.h || !sc.cnt || !sc.pos || !sc.nch || !sc.run || !sc.ck || !soff ||
        (!plan->mono && !table)) {
        st = hb__error(HB_ERR_OUT_OF_MEMORY, "cell-group schedule: tables of %lld cells",
                       (long long)nslots);
        goto done;
    }
    if (plan->mono) {
        if (!put_tree(&v, parent, (int32_t)maxn, most, &sc, widest, levels)) {
            st = hb__error(HB_ERR_OUT_OF_MEMORY, "cell-group schedule of %lld rows",
                           (long long)maxn);
            goto done;
        }
        for (int64_t t = 0; t < nslots; ++t)
            soff[t] = 0;
    } else {
        for (int64_t k = 0; k < tsize; ++k)
            table[k] = -1;
        for (int64_t t = 0; t < nslots; ++t) {
            const int32_t *par = parent + lay->flat[t];
            const int64_t n = lay->nown[t];
            int64_t k = (int64_t)(tree_hash(par, n) & (uint64_t)(tsize - 1));
            for (; table[k] >= 0; k = (k + 1) & (tsize - 1)) {
                const int64_t u = table[k];
                if (lay->nown[u] == n &&
                    !memcmp(parent + lay->flat[u], par, (size_t)n * sizeof *par))
                    break;
            }
            if (table[k] >= 0) {
                soff[t] = soff[table[k]];
                continue;
            }
            table[k] = t;
            soff[t] = v.len;
            if (!put_tree(&v, par, (int32_t)n, most, &sc, widest, levels)) {
                st = hb__error(HB_ERR_OUT_OF_MEMORY, "cell-group schedule: %lld values",
                               (long long)v.len);
                goto done;
            }
        }
    }
    hb_context *ctx = plan->ctx;
    size_t sbytes = (size_t)nslots * sizeof *soff, wbytes = (size_t)v.len * sizeof *v.w;
    /* Trees of a mixed batch that differ all need their own schedule (up to
     * 8 values per row): checked before the device is asked. */
    if ((st = hb__memory_check(ctx, 0, hb__add_sat(sbytes, wbytes), "cell-group schedule")) ||
        (st = ctx->ops->alloc(ctx, sbytes, &plan->dev.soff)) ||
        (st = ctx->ops->write(ctx, plan->stream, plan->dev.soff, 0, soff, sbytes)) ||
        (st = ctx->ops->alloc(ctx, wbytes ? wbytes : sizeof *v.w, &plan->dev.sched)) ||
        (wbytes && (st = ctx->ops->write(ctx, plan->stream, plan->dev.sched, 0, v.w, wbytes))))
        goto done;
    /* The host tables are freed next: the writes must have left them. */
    if ((st = ctx->ops->finish(ctx, plan->stream)))
        goto done;
    st = cell_classes(plan);
done:
    free(sc.h);
    free(sc.cnt);
    free(sc.pos);
    free(sc.nch);
    free(sc.run);
    free(sc.ck);
    free(soff);
    free(table);
    free(v.w);
    return st;
}

hb_status hb__cell_shape(const int32_t *parent, int64_t n, int32_t chain, hb_cell_shape *out)
{
    const int32_t most = chain > 0 ? chain : HB_CELL_CHAIN_AUTO;
    memset(out, 0, sizeof *out);
    if (n < 1 || n > INT32_MAX / 2)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "cell-group shape: a cell of %lld rows",
                         (long long)n);
    /* The scratch of put_tree but positions (no tables are written). */
    tree_scratch sc = {hb__malloc_n(n + 1, sizeof(int32_t)),
                       hb__malloc_n(n + 1, sizeof(int32_t)),
                       NULL,
                       hb__malloc_n(n + 1, sizeof(int32_t)),
                       hb__malloc_n(n + 1, sizeof(int32_t)),
                       hb__malloc_n(n + 1, sizeof(chain_key))};
    /* Per level: its chains and its longest. */
    int32_t *lcount = hb__malloc_n(n + 1, sizeof(int32_t));
    int32_t *lmax = hb__malloc_n(n + 1, sizeof(int32_t));
    hb_status st = HB_SUCCESS;
    if (!sc.h || !sc.cnt || !sc.nch || !sc.run || !sc.ck || !lcount || !lmax) {
        st = hb__error(HB_ERR_OUT_OF_MEMORY, "cell-group shape of %lld rows", (long long)n);
        goto done;
    }
    int32_t ht, nt, ne, nc;
    tree_chains(parent, (int32_t)n, most, &sc, &ht, &nt, &ne, &nc);
    for (int32_t e = 0; e < ne; ++e)
        lcount[e] = 0, lmax[e] = 0;
    for (int32_t k = 0; k < nc; ++k) {
        const chain_key *c = &sc.ck[k];
        ++lcount[c->level];
        if (c->len > lmax[c->level])
            lmax[c->level] = c->len;
    }
    out->widest = nt > 1 ? nt : 1;
    for (int32_t e = 0; e < ne; ++e)
        if (lcount[e] > out->widest)
            out->widest = lcount[e];
    out->levels = (int64_t)ne + 1;
    out->trunk = nt;
    /* A level's work-items take its chains in turns, each round as long as
     * its longest chain: at most ceil(chains / g) rounds of the level's
     * longest (the bound the cost model was fitted with). */
    for (int k = 0; k < HB_CELL_SHAPE_GROUPS; ++k) {
        const int64_t g = (int64_t)1 << k;
        int64_t path = 0;
        for (int32_t e = 0; e < ne; ++e)
            path += (lcount[e] + g - 1) / g * (int64_t)lmax[e];
        out->path[k] = path;
    }
done:
    free(sc.h);
    free(sc.cnt);
    free(sc.nch);
    free(sc.run);
    free(sc.ck);
    free(lcount);
    free(lmax);
    return st;
}
