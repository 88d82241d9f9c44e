/* test_layout.c: layout engine: flat<->layout round trips through the backend ops, index formula, bases, padding values. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define HB_CORE_INTERNALS /* a white-box test of the core */
#include "hb_plan.h"
#include "hb_test_util.h"

/* The expected layout of a batch, derived here from DESIGN.md independently of
 * api/layout.c: interleaved variable batches are sorted by size, longest first
 * (stable), each block padded to its longest member. */
typedef struct {
    int64_t *base;   /* per system */
    int64_t *extent; /* rows stored for the system's slot (own + padding) */
    int64_t stride, length;
} expect;

static void expected_layout(expect *e, const hb_test_layout *tl, int64_t nsys, const int64_t *off)
{
    e->base = hb_test_xalloc((size_t)nsys * sizeof *e->base);
    e->extent = hb_test_xalloc((size_t)nsys * sizeof *e->extent);
    int64_t *order = hb_test_xalloc((size_t)nsys * sizeof *order), maxn = 0;
    for (int64_t s = 0; s < nsys; ++s) {
        order[s] = s;
        maxn = off[s + 1] - off[s] > maxn ? off[s + 1] - off[s] : maxn;
    }
    if (tl->layout == HB_LAYOUT_FLAT) {
        e->stride = 1;
        e->length = off[nsys];
        for (int64_t s = 0; s < nsys; ++s) {
            e->base[s] = off[s];
            e->extent[s] = off[s + 1] - off[s];
        }
        free(order);
        return;
    }
    /* Stable insertion sort by size, descending (test batches are small). */
    for (int64_t i = 1; i < nsys; ++i) {
        int64_t v = order[i], n = off[v + 1] - off[v], j = i;
        while (j > 0 && off[order[j - 1] + 1] - off[order[j - 1]] < n) {
            order[j] = order[j - 1];
            --j;
        }
        order[j] = v;
    }
    if (tl->layout == HB_LAYOUT_INTERLEAVED) {
        e->stride = nsys;
        e->length = nsys * maxn;
        for (int64_t t = 0; t < nsys; ++t) {
            e->base[order[t]] = t;
            e->extent[order[t]] = maxn;
        }
    } else {
        int64_t bs = tl->block_size, start = 0;
        e->stride = bs;
        for (int64_t t0 = 0; t0 < nsys; t0 += bs) {
            int64_t ext = off[order[t0] + 1] - off[order[t0]];
            for (int64_t t = t0; t < t0 + bs && t < nsys; ++t) {
                e->base[order[t]] = start + (t - t0);
                e->extent[order[t]] = ext;
            }
            start += ext * bs;
        }
        e->length = start;
    }
    free(order);
}

static void free_expect(expect *e) { free(e->base), free(e->extent); }

/* Uniform batches: the closed formulas of DESIGN.md. */
static int64_t formula(const hb_test_layout *tl, int64_t nsys, int64_t n, int64_t s, int64_t i)
{
    switch (tl->layout) {
    case HB_LAYOUT_FLAT: return s * n + i;
    case HB_LAYOUT_INTERLEAVED: return i * nsys + s;
    default: {
        int64_t bs = tl->block_size;
        return (s / bs) * bs * n + i * bs + s % bs;
    }
    }
}

/* Checks hb_plan_layout_info, hb_plan_system_bases and hb_plan_index against
 * the expectation (and the closed formula when uniform). */
static void check_indexing(const hb_plan *plan, const hb_test_layout *tl, int64_t nsys,
                           const int64_t *off, int uniform, const expect *e, const char *what)
{
    hb_layout_info info;
    HB_CHECK_STATUS(hb_plan_layout_info(plan, &info), HB_SUCCESS);
    HB_CHECK(info.layout == tl->layout && info.nsys == nsys && info.stride == e->stride &&
                 info.length == e->length,
             "%s: layout info (layout %d nsys %lld stride %lld length %lld), expected stride "
             "%lld length %lld",
             what, (int)info.layout, (long long)info.nsys, (long long)info.stride,
             (long long)info.length, (long long)e->stride, (long long)e->length);
    int blocky = tl->layout == HB_LAYOUT_BLOCK_INTERLEAVED || tl->layout == HB_LAYOUT_BLOCK_SHARED;
    HB_CHECK(info.block_size == (blocky ? tl->block_size : 0), "%s: block_size %d", what,
             (int)info.block_size);
    HB_CHECK(info.padded == (!uniform && tl->layout != HB_LAYOUT_FLAT), "%s: padded = %d", what,
             (int)info.padded);
    int64_t *bases = hb_test_xalloc((size_t)nsys * sizeof *bases);
    HB_CHECK_STATUS(hb_plan_system_bases(plan, bases), HB_SUCCESS);
    unsigned char *seen = hb_test_xalloc((size_t)e->length + 1);
    int bad = 0;
    for (int64_t s = 0; s < nsys && !bad; ++s) {
        if (bases[s] != e->base[s]) {
            HB_CHECK(0, "%s: base of system %lld is %lld, expected %lld", what, (long long)s,
                     (long long)bases[s], (long long)e->base[s]);
            bad = 1;
        }
        for (int64_t i = 0; i < off[s + 1] - off[s] && !bad; ++i) {
            int64_t idx = -1, want = e->base[s] + i * e->stride;
            if (uniform && want != formula(tl, nsys, off[1], s, i)) {
                HB_CHECK(0, "%s: (%lld,%lld) expected index %lld disagrees with the formula",
                         what, (long long)s, (long long)i, (long long)want);
                bad = 1;
            }
            hb_status st = hb_plan_index(plan, s, i, &idx);
            if (st != HB_SUCCESS || idx != want || idx < 0 || idx >= e->length || seen[idx]) {
                HB_CHECK(0, "%s: hb_plan_index(%lld,%lld) = %lld (%s), expected %lld, unique, < %lld",
                         what, (long long)s, (long long)i, (long long)idx, hb_status_string(st),
                         (long long)want, (long long)e->length);
                bad = 1;
            } else {
                seen[idx] = 1;
            }
        }
    }
    HB_CHECK(!bad, "%s: indexing", what);
    int64_t idx = 0;
    HB_CHECK_STATUS(hb_plan_index(plan, nsys, 0, &idx), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_plan_index(plan, -1, 0, &idx), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_plan_index(plan, 0, off[1] - off[0], &idx), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_plan_index(plan, 0, -1, &idx), HB_ERR_INVALID_ARGUMENT);
    free(bases);
    free(seen);
}

/* flat -> layout -> flat through ctx->ops with each conversion rule: the
 * layout holds every own value at its index (0 where the rule zeroes it), the
 * padding value in padded rows that are computed, and the round trip is exact. */
static void check_round_trip(hb_context *ctx, hb_plan *plan, hb_precision p, int64_t nsys,
                             const int64_t *off, const expect *e, const char *what)
{
    const hb_convert_rule rules[] = {{0.0, 0, 0}, {1.0, 1, 0}, {0.0, 0, 1}, {1.0, 1, 1}};
    int64_t nrows = off[nsys], len = plan->dev.length;
    size_t es = hb_test_esize(p);
    void *x = hb_test_alloc(p, nrows), *want = hb_test_alloc(p, nrows);
    void *lay = hb_test_alloc(p, len), *back = hb_test_alloc(p, nrows);
    for (int64_t k = 0; k < nrows; ++k) /* distinct, exactly representable values */
        hb_test_put(p, x, k, (double)(k + 1) * (hb_test_unit() < 0.5 ? -0.5 : 0.25));
    hb_buffer *fb = NULL, *lb = NULL, *fb2 = NULL;
    HB_CHECK_STATUS(ctx->ops->alloc(ctx, (size_t)nrows * es, &fb), HB_SUCCESS);
    HB_CHECK_STATUS(ctx->ops->alloc(ctx, (size_t)len * es, &lb), HB_SUCCESS);
    HB_CHECK_STATUS(ctx->ops->alloc(ctx, (size_t)nrows * es, &fb2), HB_SUCCESS);
    if (!fb || !lb || !fb2)
        goto done;
    HB_CHECK_STATUS(ctx->ops->write(ctx, plan->stream, fb, 0, x, (size_t)nrows * es), HB_SUCCESS);
    for (size_t r = 0; r < sizeof rules / sizeof rules[0]; ++r) {
        const hb_convert_rule *rule = &rules[r];
        /* Poison the layout and the flat target so unwritten elements show. */
        hb_test_poison(p, lay, len);
        hb_test_poison(p, back, nrows);
        HB_CHECK_STATUS(ctx->ops->write(ctx, plan->stream, lb, 0, lay, (size_t)len * es), HB_SUCCESS);
        HB_CHECK_STATUS(ctx->ops->write(ctx, plan->stream, fb2, 0, back, (size_t)nrows * es),
                        HB_SUCCESS);
        HB_CHECK_STATUS(ctx->ops->to_layout(ctx, plan->stream, p, &plan->dev, rule, fb, lb),
                        HB_SUCCESS);
        HB_CHECK_STATUS(ctx->ops->to_flat(ctx, plan->stream, p, &plan->dev, lb, fb2), HB_SUCCESS);
        HB_CHECK_STATUS(ctx->ops->finish(ctx, plan->stream), HB_SUCCESS);
        HB_CHECK_STATUS(ctx->ops->read(ctx, plan->stream, lb, 0, lay, (size_t)len * es), HB_SUCCESS);
        HB_CHECK_STATUS(ctx->ops->read(ctx, plan->stream, fb2, 0, back, (size_t)nrows * es),
                        HB_SUCCESS);
        int bad = 0;
        for (int64_t s = 0; s < nsys && !bad; ++s) {
            int64_t n = off[s + 1] - off[s];
            /* Padded rows are written when they are computed. */
            int64_t ext = plan->lay.padding == HB_PADDING_COMPUTE ? e->extent[s] : n;
            for (int64_t i = 0; i < ext && !bad; ++i) {
                double w = i >= n ? rule->pad_value
                           : (rule->zero_first && i == 0) || (rule->zero_last && i == n - 1)
                               ? 0.0
                               : hb_test_get(p, x, off[s] + i);
                double got = hb_test_get(p, lay, e->base[s] + i * e->stride);
                if (i < n)
                    hb_test_put(p, want, off[s] + i, w);
                if (!(got == w)) {
                    HB_CHECK(0, "%s rule %zu: layout element (%lld,%lld) = %g, expected %g%s",
                             what, r, (long long)s, (long long)i, got, w,
                             i >= n ? " (padding)" : "");
                    bad = 1;
                }
            }
        }
        HB_CHECK(!bad && hb_test_bitequal(back, want, (size_t)nrows * es),
                 "%s rule %zu: flat -> layout -> flat is not exact", what, r);
    }
done:
    if (fb)
        ctx->ops->release(ctx, fb);
    if (lb)
        ctx->ops->release(ctx, lb);
    if (fb2)
        ctx->ops->release(ctx, fb2);
    free(x), free(want), free(lay), free(back);
}

/* Host backends: the native pointer of hb_plan_buffer holds element (s,i) at
 * hb_plan_index, padded rows of computed padding hold the identity row
 * (a=c=u=l=0, b=d=1, rhs=0), and ignored entries (a/u/l of row 0, c of the
 * last row) are zero. */
static void check_native(hb_plan *plan, hb_precision p, int is_hines, int64_t nsys,
                         const int64_t *off, const expect *e, const char *what)
{
    const hb_array arrays[2][4] = {{HB_ARRAY_A, HB_ARRAY_B, HB_ARRAY_C, HB_ARRAY_RHS},
                                   {HB_ARRAY_U, HB_ARRAY_L, HB_ARRAY_D, HB_ARRAY_RHS}};
    int64_t nrows = off[nsys];
    void *x = hb_test_alloc(p, nrows);
    for (int w = 0; w < 4; ++w) {
        hb_array which = arrays[is_hines][w];
        for (int64_t k = 0; k < nrows; ++k)
            hb_test_put(p, x, k, 1.0 + hb_test_unit());
        HB_CHECK_STATUS(hb_plan_set(plan, which, x), HB_SUCCESS);
        void *h = NULL;
        HB_CHECK_STATUS(hb_plan_buffer(plan, which, &h), HB_SUCCESS);
        if (!h)
            continue;
        int zero_first = which == HB_ARRAY_A || which == HB_ARRAY_U || which == HB_ARRAY_L;
        int zero_last = which == HB_ARRAY_C;
        double pad = which == HB_ARRAY_B || which == HB_ARRAY_D ? 1.0 : 0.0;
        int flat = plan->lay.layout == HB_LAYOUT_FLAT, bad = 0;
        for (int64_t s = 0; s < nsys && !bad; ++s) {
            int64_t n = off[s + 1] - off[s];
            /* Every padded row, computed or skipped: a plan starts with them
             * set to the identity and no conversion or solve changes that. */
            int64_t ext = e->extent[s];
            for (int64_t i = 0; i < ext && !bad; ++i) {
                int64_t idx = e->base[s] + i * e->stride;
                if (i < n)
                    HB_CHECK_STATUS(hb_plan_index(plan, s, i, &idx), HB_SUCCESS);
                double got = hb_test_get(p, h, idx);
                /* Flat plans hold the caller's array as given. */
                double w = i >= n ? pad
                           : !flat && ((zero_first && i == 0) || (zero_last && i == n - 1))
                               ? 0.0
                               : hb_test_get(p, x, off[s] + i);
                if (!(got == w)) {
                    HB_CHECK(0, "%s array %d: native element (%lld,%lld) = %g, expected %g", what,
                             (int)which, (long long)s, (long long)i, got, w);
                    bad = 1;
                }
            }
        }
    }
    free(x);
}

int main(void)
{
    hb_test_begin("test_layout");
    hb_context *ctx = hb_test_context();
    int host = hb_test_on_host(ctx);
    struct {
        const char *name;
        int64_t nsys, lo, hi;
    } shapes[] = {{"uniform 13x9", 13, 9, 9},     {"uniform 64x5", 64, 5, 5},
                  {"uniform 1x17", 1, 17, 17},    {"variable 29 of 1..40", 29, 1, 40},
                  {"variable 300 of 1..12", 300, 1, 12}, {"variable 3 of 1..200", 3, 1, 200}};
    const hb_precision precs[] = {HB_DOUBLE, HB_FLOAT};
    for (int ip = 0; ip < 2; ++ip) {
        hb_precision p = precs[ip];
        for (size_t is = 0; is < sizeof shapes / sizeof shapes[0]; ++is) {
            int uniform = shapes[is].lo == shapes[is].hi;
            int64_t nsys = shapes[is].nsys;
            int64_t *off = uniform ? hb_test_offsets_uniform(nsys, shapes[is].lo)
                                   : hb_test_offsets_random(nsys, shapes[is].lo, shapes[is].hi);
            int32_t *parent = hb_test_xalloc((size_t)off[nsys] * sizeof *parent);
            for (int64_t s = 0; s < nsys; ++s)
                hb_test_tree(parent + off[s], off[s + 1] - off[s], HB_TREE_RANDOM);
            for (int il = 0; il < hb_test_nlayouts; ++il) {
                const hb_test_layout *tl = &hb_test_layouts[il];
                expect e;
                expected_layout(&e, tl, nsys, off);
                hb_plan_options o = hb_test_layout_options(tl);
                for (int kind = 0; kind < 3; ++kind) {
                    /* 0: tridiagonal with offsets, 1: tridiagonal uniform, 2: Hines */
                    if (kind == 1 && !uniform)
                        continue;
                    char what[256];
                    snprintf(what, sizeof what, "%s %s %s %s", hb_test_precision_name(p),
                             shapes[is].name, hb_test_layout_name(tl),
                             kind == 2 ? "hines" : kind == 1 ? "tridiag(uniform)" : "tridiag");
                    hb_plan *plan = NULL;
                    hb_status st =
                        kind == 0 ? hb_plan_create_tridiag(ctx, p, nsys, off, &o, &plan)
                        : kind == 1 ? hb_plan_create_tridiag_uniform(ctx, p, nsys, off[1], &o, &plan)
                                    : hb_plan_create_hines(ctx, p, nsys, off, parent, &o, &plan);
                    HB_CHECK(st == HB_SUCCESS, "%s: create: %s", what, hb_last_error());
                    if (st != HB_SUCCESS)
                        continue;
                    hb_test_check_info(plan, ctx, p, nsys, off, kind == 2 ? parent : NULL, &o,
                                       what);
                    check_indexing(plan, tl, nsys, off, uniform, &e, what);
                    check_round_trip(ctx, plan, p, nsys, off, &e, what);
                    if (host)
                        check_native(plan, p, kind == 2, nsys, off, &e, what);
                    hb_plan_destroy(plan);
                }
                free_expect(&e);
            }
            free(off);
            free(parent);
        }
    }
    if (!host)
        printf("test_layout: native-pointer checks skipped: %s buffers are device memory\n",
               hb_context_describe(ctx));
    hb_context_destroy(ctx);
    return hb_test_finish();
}
