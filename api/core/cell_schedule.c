/* cell_schedule.c: the cell-group strategy's plan-time schedule: each distinct tree's trunk (solved by PCR), elimination levels (by node height below it), back-substitution levels (by depth below it) and child lists, uploaded once. */
#include "hb_plan.h"
#include "hb_tree.h"

#include <stdlib.h>
#include <string.h>

/* kernels_cl/solver/hines_cell.cl reads the header by its own HB_CELL_K_*
 * numbers (OpenCL C cannot include this header): change both together. */
_Static_assert(HB_CELL_EFIRST == 4 && HB_CELL_BPAR == 9 && HB_CELL_NT == 10 && HB_CELL_HDR == 11,
               "the schedule's header must match HB_CELL_K_* in kernels_cl/solver/hines_cell.cl");

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

/* Scratch of one tree: heights, depths, per-level and per-node counters. */
typedef struct {
    int32_t *h, *dep, *cnt, *pos;
} tree_scratch;

/* The next table of schedule S: its offset from S into header entry key,
 * o advanced past its len words. */
static int32_t *place(int32_t *S, int32_t *o, int key, int64_t len)
{
    S[key] = *o;
    *o += (int32_t)len;
    return S + S[key];
}

/* Appends the schedule of the tree par[0..n) (layout in hb_backend.h) to v;
 * n fits int32 (the plan keeps cells within local memory first). */
static int put_tree(words *v, const int32_t *par, int32_t n, const tree_scratch *sc,
                    int64_t *widest, int64_t *levels)
{
    int32_t *h = sc->h, *dep = sc->dep, *cnt = sc->cnt, *pos = sc->pos;
    int32_t H = 0, D = 0, nlev = 0;
    for (int32_t i = 0; i < n; ++i)
        h[i] = 0;
    for (int32_t i = n - 1; i >= 1; --i)
        if (h[i] + 1 > h[par[i]])
            h[par[i]] = h[i] + 1;
    if (n > 0)
        H = h[0];
    /* The trunk: heights H down to ht, one node each (a node's only child of
     * the next height down is then the next), at most HB_CELL_TRUNK_MAX. */
    for (int32_t k = 0; k <= H; ++k)
        cnt[k] = 0;
    for (int32_t i = 0; i < n; ++i)
        ++cnt[h[i]];
    int32_t ht = H;
    while (ht > 0 && cnt[ht - 1] == 1 && H - ht + 1 < HB_CELL_TRUNK_MAX)
        --ht;
    const int32_t nt = n > 0 ? H - ht + 1 : 0;
    /* Levels for the heights 1 .. ht - 1 off the trunk (leaves need none). */
    const int32_t ne = ht > 1 ? ht - 1 : 0;
    for (int32_t i = 0; i < n; ++i) {
        dep[i] = h[i] >= ht ? 0 : dep[par[i]] + 1; /* parents come first */
        if (dep[i] > D)
            D = dep[i];
        nlev += h[i] >= 1 && h[i] < ht;
    }
    const int32_t nb = D, ecount = nlev + nt, nback = n - nt;
    const int64_t total = (int64_t)HB_CELL_HDR + (ne + 1) + 2 * (int64_t)ecount + (ecount + 1) +
                          nback + (nb + 1) + nback + nback;
    if (!words_reserve(v, total))
        return 0;
    int32_t *S = v->w + v->len;
    int32_t o = HB_CELL_HDR;
    int32_t *eptr = S + o;
    o += ne + 1;
    int32_t *eorder = place(S, &o, HB_CELL_EORDER, ecount);
    int32_t *efirst = place(S, &o, HB_CELL_EFIRST, ecount);
    int32_t *ecs = place(S, &o, HB_CELL_ECS, ecount + 1);
    int32_t *cidx = place(S, &o, HB_CELL_CIDX, nback);
    int32_t *bptr = place(S, &o, HB_CELL_BPTR, nb + 1);
    int32_t *border = place(S, &o, HB_CELL_BORDER, nback);
    int32_t *bpar = place(S, &o, HB_CELL_BPAR, nback);
    S[HB_CELL_N] = n;
    S[HB_CELL_NE] = ne;
    S[HB_CELL_NB] = nb;
    S[HB_CELL_NT] = nt;

    /* Elimination levels by counting sort, nodes of a level in index order;
     * the trunk after them, from the root down. */
    for (int32_t e = 0; e <= ne; ++e)
        eptr[e] = 0;
    for (int32_t i = 0; i < n; ++i)
        if (h[i] >= 1 && h[i] < ht)
            ++eptr[h[i]];
    for (int32_t e = 0; e < ne; ++e) {
        if (eptr[e + 1] > *widest)
            *widest = eptr[e + 1];
        eptr[e + 1] += eptr[e];
    }
    for (int32_t e = 0; e < ne; ++e)
        pos[e] = eptr[e];
    for (int32_t i = 0; i < n; ++i) {
        if (h[i] >= ht)
            eorder[nlev + (H - h[i])] = i;
        else if (h[i] >= 1)
            eorder[pos[h[i] - 1]++] = i;
    }
    if (nt > *widest)
        *widest = nt;
    /* Children off the trunk per entry, highest index first: the serial
     * sweep (i from n-1 down) updates a parent in that order, so the gather
     * rounds as it does. cnt: such children per node; pos: where a node's
     * run starts in cidx. */
    for (int32_t i = 0; i < n; ++i)
        cnt[i] = 0;
    for (int32_t i = 1; i < n; ++i)
        cnt[par[i]] += h[i] < ht;
    ecs[0] = 0;
    for (int32_t q = 0; q < ecount; ++q) {
        pos[eorder[q]] = ecs[q];
        ecs[q + 1] = ecs[q] + cnt[eorder[q]];
    }
    for (int32_t i = n - 1; i >= 1; --i)
        if (h[i] < ht)
            cidx[pos[par[i]]++] = i;
    for (int32_t q = 0; q < ecount; ++q)
        efirst[q] = ecs[q + 1] > ecs[q] ? cidx[ecs[q]] : -1;
    /* Back-substitution levels by depth below the trunk, with each entry's
     * parent. */
    for (int32_t b = 0; b <= nb; ++b)
        bptr[b] = 0;
    for (int32_t i = 0; i < n; ++i)
        if (dep[i] > 0)
            ++bptr[dep[i]];
    for (int32_t b = 0; b < nb; ++b) {
        if (bptr[b + 1] > *widest)
            *widest = bptr[b + 1];
        bptr[b + 1] += bptr[b];
    }
    for (int32_t b = 0; b < nb; ++b)
        pos[b] = bptr[b];
    for (int32_t i = 0; i < n; ++i)
        if (dep[i] > 0) {
            const int32_t q = pos[dep[i] - 1]++;
            border[q] = i;
            bpar[q] = par[i];
        }
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

hb_status hb__cell_schedule_build(hb_plan *plan, const int32_t *parent, int64_t *widest,
                                  int64_t *levels)
{
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
                       hb__malloc_n(maxn + 1, sizeof(int32_t)),
                       hb__malloc_n(maxn + 2, sizeof(int32_t))};
    int64_t *soff = hb__malloc_n(nslots, sizeof *soff);
    /* Open-addressed table of slots whose tree was stored: 2 x the slots. */
    int64_t tsize = 1;
    while (tsize < 2 * nslots)
        tsize *= 2;
    int64_t *table = plan->mono ? NULL : hb__malloc_n(tsize, sizeof *table);
    if (!sc.h || !sc.dep || !sc.cnt || !sc.pos || !soff || (!plan->mono && !table)) {
        st = hb__error(HB_ERR_OUT_OF_MEMORY, "cell-group schedule: tables of %lld cells",
                       (long long)nslots);
        goto done;
    }
    if (plan->mono) {
        if (!put_tree(&v, parent, (int32_t)maxn, &sc, widest, levels)) {
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
            if (!put_tree(&v, par, (int32_t)n, &sc, widest, levels)) {
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
    free(sc.dep);
    free(sc.cnt);
    free(sc.pos);
    free(soff);
    free(table);
    free(v.w);
    return st;
}
