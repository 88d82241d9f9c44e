/* test_hines.c: Hines batches (mono and multi morphology) in every layout, via plans and one-shot calls, checked by residual and against the serial oracle. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hb_test_util.h"

/* Batch shapes. kind < HB_TREE_KINDS: every system has that tree shape
 * (mono-morphology when uniform); HB_TREE_KINDS: a random shape per system. */
typedef struct {
    const char *name;
    int64_t nsys, lo, hi;
    int uniform, kind;
} shape;

static const shape shapes[] = {
    {"mono chain 32x300", 32, 300, 300, 1, HB_TREE_CHAIN},
    {"mono star 32x300", 32, 300, 300, 1, HB_TREE_STAR},
    {"mono binary 32x255", 32, 255, 255, 1, HB_TREE_BINARY},
    {"mono random 32x300", 32, 300, 300, 1, HB_TREE_RANDOM},
    {"mono neuron 3x4000", 3, 4000, 4000, 1, HB_TREE_NEURON},
    {"mono 300x1", 300, 1, 1, 1, HB_TREE_CHAIN},
    {"multi 50x200 mixed trees", 50, 200, 200, 1, HB_TREE_KINDS},
    {"multi 24 of 1..4000 rows", 24, 1, 4000, 0, HB_TREE_KINDS},
    {"multi 300 of 1..64 rows", 300, 1, 64, 0, HB_TREE_KINDS},
};
#define NSHAPES ((int)(sizeof shapes / sizeof shapes[0]))

typedef struct {
    hb_precision p;
    int64_t nsys, nrows;
    int64_t *off;
    int32_t *parent; /* flat, one run per system */
    int mono;        /* all systems share one tree (parent + 0)   */
    void *u, *l, *d, *rhs, *xref;
} batch;

static hb_status oneshot(hb_context *ctx, const batch *bt, void *x)
{
    memcpy(x, bt->rhs, (size_t)bt->nrows * hb_test_esize(bt->p));
    return bt->p == HB_DOUBLE
               ? hb_dhines_solve(ctx, bt->nsys, bt->off, bt->parent, bt->u, bt->l, bt->d, x)
               : hb_shines_solve(ctx, bt->nsys, bt->off, bt->parent, bt->u, bt->l, bt->d, x);
}

/* Residual ratios (library and independent long double) under 30, and the
 * solution equal to the oracle's: bit-identical on host backends, else within
 * hb_test_diff_bound (1e-12 double, 1e-4 float normwise per system). */
static void check_solution(hb_context *ctx, const batch *bt, const void *x, const char *what)
{
    double lib = INFINITY;
    int64_t wl = -1, wi = -1;
    HB_CHECK_STATUS(hb_hines_residual(bt->p, bt->nsys, bt->off, bt->parent, bt->u, bt->l, bt->d,
                                      x, bt->rhs, &lib, &wl),
                    HB_SUCCESS);
    double ind = hb_test_hines_ratio(bt->p, bt->nsys, bt->off, bt->parent, bt->u, bt->l, bt->d, x,
                                     bt->rhs, &wi);
    HB_CHECK(lib < HB_TEST_RATIO_MAX, "%s: residual ratio %g (system %lld) >= %g", what, lib,
             (long long)wl, HB_TEST_RATIO_MAX);
    HB_CHECK(ind < HB_TEST_RATIO_MAX, "%s: long double residual ratio %g (system %lld) >= %g",
             what, ind, (long long)wi, HB_TEST_RATIO_MAX);
    if (!bt->xref)
        return;
    if (hb_test_bitwise(ctx)) {
        HB_CHECK(hb_test_bitequal(x, bt->xref, (size_t)bt->nrows * hb_test_esize(bt->p)),
                 "%s: not bit-identical to the serial oracle (max rel diff %g)", what,
                 hb_test_max_rel_diff(bt->p, bt->nsys, bt->off, x, bt->xref));
    } else {
        double diff = hb_test_max_rel_diff(bt->p, bt->nsys, bt->off, x, bt->xref);
        HB_CHECK(diff <= hb_test_diff_bound(bt->p), "%s: differs from the oracle by %g > %g",
                 what, diff, hb_test_diff_bound(bt->p));
    }
}

static void make_batch(batch *bt, hb_precision p, const shape *sh, double scale, hb_context *oracle)
{
    memset(bt, 0, sizeof *bt);
    bt->p = p;
    bt->nsys = sh->nsys;
    bt->off = sh->uniform ? hb_test_offsets_uniform(sh->nsys, sh->lo)
                          : hb_test_offsets_random(sh->nsys, sh->lo, sh->hi);
    bt->nrows = bt->off[bt->nsys];
    bt->parent = hb_test_xalloc((size_t)bt->nrows * sizeof *bt->parent);
    bt->mono = sh->uniform && sh->kind < HB_TREE_KINDS;
    for (int64_t s = 0; s < bt->nsys; ++s) {
        int64_t n = bt->off[s + 1] - bt->off[s];
        if (bt->mono && s > 0) /* identical trees: the random shape drawn once */
            memcpy(bt->parent + bt->off[s], bt->parent, (size_t)n * sizeof *bt->parent);
        else
            hb_test_tree(bt->parent + bt->off[s], n,
                         sh->kind < HB_TREE_KINDS ? (hb_test_tree_kind)sh->kind
                                                  : (hb_test_tree_kind)hb_test_range(0, HB_TREE_KINDS - 1));
    }
    bt->u = hb_test_alloc(p, bt->nrows);
    bt->l = hb_test_alloc(p, bt->nrows);
    bt->d = hb_test_alloc(p, bt->nrows);
    bt->rhs = hb_test_alloc(p, bt->nrows);
    hb_test_hines_random(p, bt->nsys, bt->off, bt->parent, bt->u, bt->l, bt->d, bt->rhs, scale);
    void *x = hb_test_alloc(p, bt->nrows);
    char what[200];
    snprintf(what, sizeof what, "oracle %s %s scale %g", p == HB_DOUBLE ? "double" : "float",
             sh->name, scale);
    HB_CHECK_STATUS(oneshot(oracle, bt, x), HB_SUCCESS);
    check_solution(oracle, bt, x, what);
    bt->xref = x;
}

static void free_batch(batch *bt)
{
    free(bt->off), free(bt->parent), free(bt->u), free(bt->l), free(bt->d), free(bt->rhs);
    free(bt->xref);
}

/* One plan in one layout: set u, l, d, rhs; solve; read back into a poisoned
 * x. use_uniform: hb_plan_create_hines_uniform (mono batches only). */
static void run_plan(hb_context *ctx, const batch *bt, const hb_test_layout *tl, int use_uniform,
                     const char *name)
{
    char what[300];
    snprintf(what, sizeof what, "plan %s %s %s%s", bt->p == HB_DOUBLE ? "double" : "float", name,
             hb_test_layout_name(tl), use_uniform ? " (uniform create)" : "");
    hb_plan_options o;
    hb_plan_options_init(&o);
    o.layout = tl->layout;
    o.block_size = tl->block_size;
    o.padding = tl->padding;
    hb_plan *plan = NULL;
    hb_status st = use_uniform
                       ? hb_plan_create_hines_uniform(ctx, bt->p, bt->nsys, bt->off[1], bt->parent,
                                                      &o, &plan)
                       : hb_plan_create_hines(ctx, bt->p, bt->nsys, bt->off, bt->parent, &o, &plan);
    HB_CHECK(st == HB_SUCCESS, "%s: create: %s (%s)", what, hb_status_string(st), hb_last_error());
    if (st != HB_SUCCESS)
        return;
    /* Identical trees are stored once, whichever constructor made the plan. */
    const char *desc = hb_plan_describe(plan);
    HB_CHECK(strstr(desc, bt->mono ? "parents=shared" : "parents=per-system") != NULL,
             "%s: expected %s parents: %s", what, bt->mono ? "shared" : "per-system", desc);
    hb_layout_info info;
    HB_CHECK_STATUS(hb_plan_layout_info(plan, &info), HB_SUCCESS);
    HB_CHECK(info.layout == tl->layout, "%s: layout %d, asked for %d (%s)", what,
             (int)info.layout, (int)tl->layout, desc);
    void *x = hb_test_alloc(bt->p, bt->nrows);
    hb_test_poison(bt->p, x, bt->nrows);
    HB_CHECK_STATUS(hb_plan_set(plan, HB_ARRAY_U, bt->u), HB_SUCCESS);
    HB_CHECK_STATUS(hb_plan_set(plan, HB_ARRAY_L, bt->l), HB_SUCCESS);
    HB_CHECK_STATUS(hb_plan_set(plan, HB_ARRAY_D, bt->d), HB_SUCCESS);
    HB_CHECK_STATUS(hb_plan_set(plan, HB_ARRAY_RHS, bt->rhs), HB_SUCCESS);
    HB_CHECK_STATUS(hb_plan_solve(plan), HB_SUCCESS);
    HB_CHECK_STATUS(hb_plan_synchronize(plan), HB_SUCCESS);
    HB_CHECK_STATUS(hb_plan_get_solution(plan, x), HB_SUCCESS);
    check_solution(ctx, bt, x, what);
    hb_plan_destroy(plan);
    free(x);
}

static void run_oneshot(hb_context *ctx, const batch *bt, const char *name)
{
    char what[300];
    snprintf(what, sizeof what, "one-shot %s %s", bt->p == HB_DOUBLE ? "double" : "float", name);
    void *x = hb_test_alloc(bt->p, bt->nrows);
    HB_CHECK_STATUS(oneshot(ctx, bt, x), HB_SUCCESS);
    check_solution(ctx, bt, x, what);
    free(x);
}

int main(void)
{
    hb_test_begin("test_hines");
    hb_context *ctx = hb_test_context(), *oracle = hb_test_oracle();
    const hb_precision precs[] = {HB_DOUBLE, HB_FLOAT};
    for (int ip = 0; ip < 2; ++ip) {
        hb_precision p = precs[ip];
        for (int is = 0; is < NSHAPES; ++is) {
            batch bt;
            make_batch(&bt, p, &shapes[is], 1.0, oracle);
            run_oneshot(ctx, &bt, shapes[is].name);
            for (int il = 0; il < hb_test_nlayouts; ++il) {
                run_plan(ctx, &bt, &hb_test_layouts[il], 0, shapes[is].name);
                if (bt.mono)
                    run_plan(ctx, &bt, &hb_test_layouts[il], 1, shapes[is].name);
            }
            free_batch(&bt);
        }
        /* Near-underflow and near-overflow: whole systems scaled; the ratio is
         * scale-invariant, so the same threshold must hold. */
        const double scales[2] = {p == HB_DOUBLE ? 1e-300 : 1e-30, p == HB_DOUBLE ? 1e300 : 1e30};
        const int scaled_shapes[] = {3, 4, 7, 8};
        const int scaled_layouts[] = {0, 1, 4, 11};
        for (int k = 0; k < 2; ++k) {
            for (size_t j = 0; j < sizeof scaled_shapes / sizeof scaled_shapes[0]; ++j) {
                const shape *sh = &shapes[scaled_shapes[j]];
                batch bt;
                char name[120];
                snprintf(name, sizeof name, "%s scaled by %g", sh->name, scales[k]);
                make_batch(&bt, p, sh, scales[k], oracle);
                run_oneshot(ctx, &bt, name);
                for (size_t m = 0; m < sizeof scaled_layouts / sizeof scaled_layouts[0]; ++m)
                    run_plan(ctx, &bt, &hb_test_layouts[scaled_layouts[m]], bt.mono, name);
                free_batch(&bt);
            }
        }
    }
    hb_context_destroy(oracle);
    hb_context_destroy(ctx);
    return hb_test_finish();
}
