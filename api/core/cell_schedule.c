/* cell_schedule.c: the cell-group strategy's plan-time schedule: each distinct tree's elimination levels (by node height), back-substitution levels (by depth) and child lists, uploaded once. */
#include "hb_plan.h"

#include <stdlib.h>
#include <string.h>

/* kernels_cl/solver/hb_cell_phases.cl reads the header by its own
 * HB_CELL_K_* numbers (OpenCL C cannot include this header): change both
 * together. */
_Static_assert(HB_CELL_EFIRST == 4 && HB_CELL_BPAR == 9 && HB_CELL_BLIST == 13 &&
                   HB_CELL_LEN == 14 && HB_CELL_HDR == 15,
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

/* Scratch of one tree, n + 2 words each: per node its child count, only
 * child (when it has one), elimination and back-substitution chain levels;
 * per level a cursor. */
typedef struct {
    int32_t *cnt, *only, *elv, *blv, *pos;
} tree_scratch;

/* The next table of schedule S: its offset from S into header entry key,
 * o advanced past its len words. */
static int32_t *place(int32_t *S, int32_t *o, int key, int64_t len)
{
    S[key] = *o;
    *o += (int32_t)len;
    return S + S[key];
}

/* Counting sort of the chain starts (start(i) true) by level lv[i] into
 * order[ptr[l] .. ptr[l+1]), index order within a level (ptr: nl + 1
 * words); keeps the widest level. */
#define HB_BY_LEVEL(n, first, START, lv, nl, ptr, order, pos, widest)                    \
    do {                                                                              \
        for (int32_t e_ = 0; e_ <= (nl); ++e_)                                        \
            (ptr)[e_] = 0;                                                            \
        for (int32_t i = (first); i < (n); ++i)                                       \
            if (START)                                                                \
                ++(ptr)[(lv)[i] + 1];                                                 \
        for (int32_t e_ = 0; e_ < (nl); ++e_) {                                       \
            if ((ptr)[e_ + 1] > *(widest))                                            \
                *(widest) = (ptr)[e_ + 1];                                            \
            (ptr)[e_ + 1] += (ptr)[e_];                                               \
        }                                                                             \
        for (int32_t e_ = 0; e_ < (nl); ++e_)                                         \
            (pos)[e_] = (ptr)[e_];                                                    \
        for (int32_t i = (first); i < (n); ++i)                                       \
            if (START)                                                                \
                (order)[(pos)[(lv)[i]]++] = i;                                        \
    } while (0)

/* Appends the schedule of the tree par[0..n) (layout in hb_backend.h) to v;
 * n fits int32 (the plan keeps cells within local memory first), and a
 * parent's index is below its child's (the Hines order hb_validate checks). */
static int put_tree(words *v, const int32_t *par, int32_t n, const tree_scratch *sc,
                    int64_t *widest, int64_t *levels)
{
    int32_t *cnt = sc->cnt, *only = sc->only, *elv = sc->elv, *blv = sc->blv, *pos = sc->pos;
    if (n < 1)
        return 1; /* the plan has no empty cells: nothing to schedule */
    for (int32_t i = 0; i < n; ++i)
        cnt[i] = 0, only[i] = -1, elv[i] = 0;
    for (int32_t i = 1; i < n; ++i)
        ++cnt[par[i]], only[par[i]] = i;
    /* Elimination: a node with children continues the chain of its only
     * child when that child has children too (econt); every other node with
     * children, and the root, starts an entry. Levels, children first
     * (higher indices first): a start one above the highest chain ending at
     * its children (elv[] collects that maximum before the node's turn), a
     * continuation its child's. */
#define ECONT(i) (cnt[i] == 1 && cnt[only[i]] > 0)
#define ESTART(i) ((cnt[i] > 0 || (i) == 0) && !ECONT(i))
    int32_t E = 0, Ec = 0, Cc = 0, NE = 0;
    for (int32_t i = n - 1; i >= 0; --i) {
        if (cnt[i] == 0 && i > 0)
            continue;
        if (ECONT(i))
            elv[i] = elv[only[i]], ++Ec;
        else
            ++E, Cc += cnt[i];
        if (elv[i] + 1 > NE)
            NE = elv[i] + 1;
        /* A chain ends here unless the parent continues it. */
        if (i > 0 && !ECONT(par[i]) && elv[i] + 1 > elv[par[i]])
            elv[par[i]] = elv[i] + 1;
    }
    /* Back-substitution: a node continues its parent's chain when it is
     * that parent's only child and the parent is not the root (x_0 comes
     * from the elimination). Levels, parents first. */
#define BCONT(i) (par[i] > 0 && cnt[par[i]] == 1)
    int32_t B = 0, Bc = 0, NB = 0;
    for (int32_t i = 1; i < n; ++i) {
        blv[i] = BCONT(i) ? blv[par[i]] : (par[i] == 0 ? 0 : blv[par[i]] + 1);
        if (blv[i] + 1 > NB)
            NB = blv[i] + 1;
        B += !BCONT(i);
        Bc += BCONT(i);
    }
    const int64_t len = (int64_t)HB_CELL_HDR + (NE + 1) + 3 * (int64_t)E + 1 + Cc + (E + 1) + Ec +
                        (NB + 1) + 2 * (int64_t)B + (B + 1) + Bc;
    if ((uint64_t)len > HB_CELL_SCHED_WORDS(n) || !words_reserve(v, len))
        return 0; /* the first cannot happen (hb_backend.h's bound) */
    int32_t *S = v->w + v->len;
    int32_t o = HB_CELL_HDR;
    int32_t *eptr = S + o;
    o += NE + 1;
    int32_t *eorder = place(S, &o, HB_CELL_EORDER, E);
    int32_t *efirst = place(S, &o, HB_CELL_EFIRST, E);
    int32_t *ecs = place(S, &o, HB_CELL_ECS, E + 1);
    int32_t *cidx = place(S, &o, HB_CELL_CIDX, Cc);
    int32_t *ech = place(S, &o, HB_CELL_ECH, E + 1);
    int32_t *elist = place(S, &o, HB_CELL_ELIST, Ec);
    int32_t *bptr = S + o;
    S[HB_CELL_BPTR] = o;
    o += NB + 1;
    int32_t *border = place(S, &o, HB_CELL_BORDER, B);
    int32_t *bpar = place(S, &o, HB_CELL_BPAR, B);
    int32_t *bch = place(S, &o, HB_CELL_BCH, B + 1);
    int32_t *blist = place(S, &o, HB_CELL_BLIST, Bc);
    S[HB_CELL_N] = n;
    S[HB_CELL_NE] = NE;
    S[HB_CELL_NB] = NB;
    S[HB_CELL_LEN] = o;

    HB_BY_LEVEL(n, 0, ESTART(i), elv, NE, eptr, eorder, pos, widest);
    /* Each entry: its first node's children, highest index first (the
     * serial sweep, i from n-1 down, updates a parent in that order, so the
     * gather rounds as it does); then its chain up. */
    /* elv is free now: it becomes each start's cursor into cidx (-1: not a
     * start), filled by children in decreasing index. */
    for (int32_t i = 0; i < n; ++i)
        elv[i] = -1;
    ecs[0] = 0;
    for (int32_t q = 0; q < E; ++q) {
        elv[eorder[q]] = ecs[q];
        ecs[q + 1] = ecs[q] + cnt[eorder[q]];
    }
    for (int32_t c = n - 1; c >= 1; --c)
        if (elv[par[c]] >= 0)
            cidx[elv[par[c]]++] = c;
    ech[0] = 0;
    for (int32_t q = 0; q < E; ++q) {
        const int32_t p = eorder[q];
        efirst[q] = cnt[p] > 0 ? cidx[ecs[q]] : -1;
        int32_t m = ech[q];
        for (int32_t x = p; x > 0 && ECONT(par[x]); x = par[x])
            elist[m++] = par[x];
        ech[q + 1] = m;
    }
    HB_BY_LEVEL(n, 1, !BCONT(i), blv, NB, bptr, border, pos, widest);
    bch[0] = 0;
    for (int32_t q = 0; q < B; ++q) {
        bpar[q] = par[border[q]];
        int32_t m = bch[q];
        for (int32_t x = border[q]; cnt[x] == 1; x = only[x])
            blist[m++] = only[x];
        bch[q + 1] = m;
    }
#undef ECONT
#undef ESTART
#undef BCONT
    if (NE > *levels)
        *levels = NE;
    v->len += len;
    return 1;
}

/* FNV-1a of a tree, to find repeated trees of a mixed batch. */
static uint64_t tree_hash(const int32_t *par, int64_t n)
{
    uint64_t x = 1469598103934665603ull ^ (uint64_t)n;
    const unsigned char *b = (const unsigned char *)par;
    for (size_t k = 0; k < (size_t)n * sizeof *par; ++k)
        x = (x ^ b[k]) * 1099511628211ull;
    return x;
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
    tree_scratch sc = {hb__malloc_n(maxn + 2, sizeof(int32_t)),
                       hb__malloc_n(maxn + 2, sizeof(int32_t)),
                       hb__malloc_n(maxn + 2, sizeof(int32_t)),
                       hb__malloc_n(maxn + 2, sizeof(int32_t)),
                       hb__malloc_n(maxn + 2, sizeof(int32_t))};
    int64_t *soff = hb__malloc_n(nslots, sizeof *soff);
    /* Open-addressed table of slots whose tree was stored: 2 x the slots. */
    int64_t tsize = 1;
    while (tsize < 2 * nslots)
        tsize *= 2;
    int64_t *table = plan->mono ? NULL : hb__malloc_n(tsize, sizeof *table);
    if (!sc.cnt || !sc.only || !sc.elv || !sc.blv || !sc.pos || !soff || (!plan->mono && !table)) {
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
    free(sc.cnt);
    free(sc.only);
    free(sc.elv);
    free(sc.blv);
    free(sc.pos);
    free(soff);
    free(table);
    free(v.w);
    return st;
}
