/* hb_oracle_runner.c: the oracle runner (see hb_oracle_runner.h). */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv */
#include "hb_oracle_runner.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- The two kinds ---------------------------------------------------------- */

static hb_status tri_oneshot(hb_context *ctx, const hb_oracle_batch *bt, void *x)
{
    memcpy(x, bt->rhs, (size_t)bt->nrows * hb_test_esize(bt->p));
    return bt->p == HB_DOUBLE
               ? hb_dtridiag_solve(ctx, bt->nsys, bt->off, bt->m[0], bt->m[1], bt->m[2], x)
               : hb_stridiag_solve(ctx, bt->nsys, bt->off, bt->m[0], bt->m[1], bt->m[2], x);
}

static hb_status tri_create(hb_context *ctx, const hb_oracle_batch *bt, const hb_plan_options *o,
                            int use_uniform, hb_plan **plan)
{
    return use_uniform
               ? hb_plan_create_tridiag_uniform(ctx, bt->p, bt->nsys, bt->off[1], o, plan)
               : hb_plan_create_tridiag(ctx, bt->p, bt->nsys, bt->off, o, plan);
}

static hb_status tri_residual(const hb_oracle_batch *bt, const void *x, double *r, int64_t *w)
{
    return hb_tridiag_residual(bt->p, bt->nsys, bt->off, bt->m[0], bt->m[1], bt->m[2], x, bt->rhs,
                               r, w);
}

static double tri_ratio(const hb_oracle_batch *bt, const void *x, int64_t *w)
{
    return hb_test_tridiag_ratio(bt->p, bt->nsys, bt->off, bt->m[0], bt->m[1], bt->m[2], x,
                                 bt->rhs, w);
}

static void tri_random(hb_oracle_batch *bt, double scale)
{
    hb_test_tridiag_random(bt->p, bt->nsys, bt->off, bt->m[0], bt->m[1], bt->m[2], bt->rhs, scale);
}

const hb_oracle_kind hb_oracle_tridiag = {"tridiagonal", 0, {HB_ARRAY_A, HB_ARRAY_B, HB_ARRAY_C},
                                          tri_oneshot, tri_create, tri_residual, tri_ratio,
                                          tri_random};

static hb_status hin_oneshot(hb_context *ctx, const hb_oracle_batch *bt, void *x)
{
    memcpy(x, bt->rhs, (size_t)bt->nrows * hb_test_esize(bt->p));
    return bt->p == HB_DOUBLE ? hb_dhines_solve(ctx, bt->nsys, bt->off, bt->parent, bt->m[0],
                                                bt->m[1], bt->m[2], x)
                              : hb_shines_solve(ctx, bt->nsys, bt->off, bt->parent, bt->m[0],
                                                bt->m[1], bt->m[2], x);
}

static hb_status hin_create(hb_context *ctx, const hb_oracle_batch *bt, const hb_plan_options *o,
                            int use_uniform, hb_plan **plan)
{
    return use_uniform ? hb_plan_create_hines_uniform(ctx, bt->p, bt->nsys, bt->off[1],
                                                      bt->parent, o, plan)
                       : hb_plan_create_hines(ctx, bt->p, bt->nsys, bt->off, bt->parent, o, plan);
}

static hb_status hin_residual(const hb_oracle_batch *bt, const void *x, double *r, int64_t *w)
{
    return hb_hines_residual(bt->p, bt->nsys, bt->off, bt->parent, bt->m[0], bt->m[1], bt->m[2],
                             x, bt->rhs, r, w);
}

static double hin_ratio(const hb_oracle_batch *bt, const void *x, int64_t *w)
{
    return hb_test_hines_ratio(bt->p, bt->nsys, bt->off, bt->parent, bt->m[0], bt->m[1], bt->m[2],
                               x, bt->rhs, w);
}

static void hin_random(hb_oracle_batch *bt, double scale)
{
    hb_test_hines_random(bt->p, bt->nsys, bt->off, bt->parent, bt->m[0], bt->m[1], bt->m[2],
                         bt->rhs, scale);
}

const hb_oracle_kind hb_oracle_hines = {"hines", 1, {HB_ARRAY_U, HB_ARRAY_L, HB_ARRAY_D},
                                        hin_oneshot, hin_create, hin_residual, hin_ratio,
                                        hin_random};

/* ---- Batches ---------------------------------------------------------------- */

void hb_oracle_init(hb_oracle_batch *bt, const hb_oracle_kind *kind, hb_precision p, int64_t nsys,
                    const int64_t *offsets, const int32_t *parent, const void *m0, const void *m1,
                    const void *m2, const void *rhs)
{
    memset(bt, 0, sizeof *bt);
    bt->kind = kind;
    bt->p = p;
    bt->nsys = nsys;
    bt->nrows = offsets[nsys];
    bt->off = hb_test_xalloc((size_t)(nsys + 1) * sizeof *bt->off);
    memcpy(bt->off, offsets, (size_t)(nsys + 1) * sizeof *bt->off);
    if (kind->hines) {
        bt->parent = hb_test_xalloc((size_t)(bt->nrows + 1) * sizeof *bt->parent);
        memcpy(bt->parent, parent, (size_t)bt->nrows * sizeof *bt->parent);
    }
    bt->uniform = bt->shared = 1;
    for (int64_t s = 1; s < nsys; ++s) {
        int64_t n = offsets[s + 1] - offsets[s];
        bt->uniform &= n == offsets[1];
        bt->shared = bt->uniform &&
                     (!kind->hines || (bt->shared && !memcmp(bt->parent + offsets[s], bt->parent,
                                                             (size_t)n * sizeof *bt->parent)));
    }
    const void *src[4] = {m0, m1, m2, rhs};
    size_t bytes = (size_t)bt->nrows * hb_test_esize(p);
    for (int i = 0; i < 4; ++i) {
        void *a = hb_test_alloc(p, bt->nrows);
        if (src[i])
            memcpy(a, src[i], bytes);
        if (i < 3)
            bt->m[i] = a;
        else
            bt->rhs = a;
    }
}

void hb_oracle_make(hb_oracle_batch *bt, const hb_oracle_kind *kind, hb_precision p,
                    const hb_oracle_shape *sh, double scale)
{
    int uniform = sh->lo == sh->hi;
    int64_t *off = uniform ? hb_test_offsets_uniform(sh->nsys, sh->lo)
                           : hb_test_offsets_random(sh->nsys, sh->lo, sh->hi);
    int32_t *parent = NULL;
    if (kind->hines) {
        parent = hb_test_xalloc((size_t)(off[sh->nsys] + 1) * sizeof *parent);
        int one = uniform && sh->tree < HB_TREE_KINDS; /* one tree, drawn once */
        for (int64_t s = 0; s < sh->nsys; ++s) {
            int64_t n = off[s + 1] - off[s];
            if (one && s > 0)
                memcpy(parent + off[s], parent, (size_t)n * sizeof *parent);
            else
                hb_test_tree(parent + off[s], n,
                             sh->tree < HB_TREE_KINDS
                                 ? (hb_test_tree_kind)sh->tree
                                 : (hb_test_tree_kind)hb_test_range(0, HB_TREE_KINDS - 1));
        }
    }
    hb_oracle_init(bt, kind, p, sh->nsys, off, parent, NULL, NULL, NULL, NULL);
    kind->random(bt, scale);
    free(off);
    free(parent);
}

void hb_oracle_free(hb_oracle_batch *bt)
{
    free(bt->off), free(bt->parent), free(bt->rhs), free(bt->xref);
    for (int i = 0; i < 3; ++i)
        free(bt->m[i]);
    memset(bt, 0, sizeof *bt);
}

/* ---- Checks ----------------------------------------------------------------- */

/* Both residual ratios under HB_TEST_RATIO_MAX. */
static void check_residual(const hb_oracle_batch *bt, const void *x, const char *what)
{
    double lib = INFINITY;
    int64_t wl = -1, wi = -1;
    HB_CHECK_STATUS(bt->kind->residual(bt, x, &lib, &wl), HB_SUCCESS);
    double ind = bt->kind->ratio(bt, x, &wi);
    HB_CHECK(lib < HB_TEST_RATIO_MAX, "%s: residual ratio %g (system %lld) >= %g", what, lib,
             (long long)wl, HB_TEST_RATIO_MAX);
    HB_CHECK(ind < HB_TEST_RATIO_MAX, "%s: long double residual ratio %g (system %lld) >= %g",
             what, ind, (long long)wi, HB_TEST_RATIO_MAX);
}

void hb_oracle_check(const hb_context *ctx, const hb_oracle_batch *bt, const void *x,
                     hb_strategy used, const char *what)
{
    check_residual(bt, x, what);
    HB_CHECK(bt->xref != NULL, "%s: no oracle reference to compare with", what);
    if (bt->xref)
        hb_test_compare_to_oracle(hb_context_backend(ctx), used == bt->ref_strategy, bt->p,
                                  bt->nsys, bt->off, x, bt->xref, what);
}

/* ---- Plans ------------------------------------------------------------------ */

hb_status hb_oracle_plan_create(hb_context *ctx, const hb_oracle_batch *bt,
                                const hb_plan_options *o, int use_uniform, hb_plan **plan)
{
    *plan = NULL;
    hb_status st = bt->kind->create(ctx, bt, o, use_uniform, plan);
    HB_CHECK(st == HB_SUCCESS, "create a %s plan of %lld systems on %s: %s (%s)", bt->kind->name,
             (long long)bt->nsys, hb_context_describe(ctx), hb_status_string(st), hb_last_error());
    return st;
}

void hb_oracle_plan_set(hb_plan *plan, const hb_oracle_batch *bt)
{
    for (int i = 0; i < 3; ++i)
        HB_CHECK_STATUS(hb_plan_set(plan, bt->kind->arrays[i], bt->m[i]), HB_SUCCESS);
    HB_CHECK_STATUS(hb_plan_set(plan, HB_ARRAY_RHS, bt->rhs), HB_SUCCESS);
}

void hb_oracle_plan_finish(hb_plan *plan, const hb_oracle_batch *bt, void *x)
{
    hb_test_poison(bt->p, x, bt->nrows);
    HB_CHECK_STATUS(hb_plan_solve(plan), HB_SUCCESS);
    HB_CHECK_STATUS(hb_plan_synchronize(plan), HB_SUCCESS);
    HB_CHECK_STATUS(hb_plan_get_solution(plan, x), HB_SUCCESS);
}

void hb_oracle_plan_check(const hb_context *ctx, const hb_plan *plan, const hb_oracle_batch *bt,
                          const void *x, const char *what)
{
    hb_oracle_check(ctx, bt, x, hb_test_plan_info(plan).strategy, what);
}

void hb_oracle_reference(hb_oracle_batch *bt, hb_context *oracle, const hb_plan_options *o,
                         const char *what)
{
    char w[400];
    snprintf(w, sizeof w, "oracle: %s", what);
    free(bt->xref);
    bt->xref = hb_test_alloc(bt->p, bt->nrows);
    hb_plan *plan = NULL;
    if (hb_oracle_plan_create(oracle, bt, o, 0, &plan) == HB_SUCCESS) {
        bt->ref_strategy = hb_test_plan_info(plan).strategy;
        hb_oracle_plan_set(plan, bt);
        hb_oracle_plan_finish(plan, bt, bt->xref);
        check_residual(bt, bt->xref, w);
    }
    hb_plan_destroy(plan);
}

void hb_oracle_plan_step(const hb_context *ctx, hb_context *oracle, const hb_plan_options *ref_opts,
                         hb_plan *plan, hb_oracle_batch *bt, void *x, const char *what)
{
    hb_oracle_plan_finish(plan, bt, x);
    hb_oracle_reference(bt, oracle, ref_opts, what);
    hb_oracle_plan_check(ctx, plan, bt, x, what);
}

void hb_oracle_plan(hb_context *ctx, const hb_oracle_batch *bt, const hb_plan_options *o,
                    int use_uniform, void *x_out, const char *what)
{
    hb_plan *plan = NULL;
    if (hb_oracle_plan_create(ctx, bt, o, use_uniform, &plan) != HB_SUCCESS)
        return;
    hb_test_check_info(plan, ctx, bt->p, bt->nsys, bt->off, bt->parent, o, what);
    void *x = x_out ? x_out : hb_test_alloc(bt->p, bt->nrows);
    hb_oracle_plan_set(plan, bt);
    hb_oracle_plan_finish(plan, bt, x);
    hb_oracle_plan_check(ctx, plan, bt, x, what);
    hb_plan_destroy(plan);
    if (!x_out)
        free(x);
}

void hb_oracle_oneshot(hb_context *ctx, const hb_oracle_batch *bt, void *x_out, const char *what)
{
    /* A one-shot solve is a plan with default options: its strategy tells
     * which tier of the policy applies. */
    hb_plan *probe = NULL;
    hb_strategy used = HB_STRATEGY_AUTO;
    if (hb_oracle_plan_create(ctx, bt, NULL, 0, &probe) == HB_SUCCESS)
        used = hb_test_plan_info(probe).strategy;
    hb_plan_destroy(probe);
    void *x = x_out ? x_out : hb_test_alloc(bt->p, bt->nrows);
    HB_CHECK_STATUS(bt->kind->oneshot(ctx, bt, x), HB_SUCCESS);
    hb_oracle_check(ctx, bt, x, used, what);
    if (!x_out)
        free(x);
}

/* ---- The suite -------------------------------------------------------------- */

int hb_oracle_suite(const char *test, const hb_oracle_kind *kind, const hb_oracle_shape *shapes,
                    int nshapes, const int *scaled, int nscaled)
{
    hb_test_begin(test);
    hb_context *ctx = hb_test_context(), *oracle = hb_test_oracle();
    /* The layouts the scaled batches run in: flat, full-interleaved, a
     * block-interleaved and a block-shared one. */
    const int scaled_layouts[] = {0, 1, 4, 11};
    for (int ip = 0; ip < 2; ++ip) {
        hb_precision p = ip ? HB_FLOAT : HB_DOUBLE;
        /* Near-underflow and near-overflow: whole systems scaled; the ratio is
         * scale-invariant, so the same threshold must hold. */
        const double scales[3] = {1.0, p == HB_DOUBLE ? 1e-300 : 1e-30,
                                  p == HB_DOUBLE ? 1e300 : 1e30};
        for (int k = 0; k < 3; ++k) {
            int n = k ? nscaled : nshapes;
            for (int j = 0; j < n; ++j) {
                const hb_oracle_shape *sh = &shapes[k ? scaled[j] : j];
                char name[200], what[400];
                snprintf(name, sizeof name, "%s %s %s", hb_test_precision_name(p), kind->name,
                         sh->name);
                if (k)
                    snprintf(name + strlen(name), sizeof name - strlen(name), " scaled by %g",
                             scales[k]);
                hb_oracle_batch bt;
                hb_oracle_make(&bt, kind, p, sh, scales[k]);
                hb_oracle_reference(&bt, oracle, NULL, name);
                snprintf(what, sizeof what, "one-shot %s", name);
                hb_oracle_oneshot(ctx, &bt, NULL, what);
                int nl = k ? (int)(sizeof scaled_layouts / sizeof scaled_layouts[0])
                           : hb_test_nlayouts;
                for (int il = 0; il < nl; ++il) {
                    const hb_test_layout *tl = &hb_test_layouts[k ? scaled_layouts[il] : il];
                    hb_plan_options o = hb_test_layout_options(tl);
                    /* Shared batches also through the uniform constructor (the
                     * scaled ones through it only). */
                    for (int uni = k ? bt.shared : 0; uni <= bt.shared; ++uni) {
                        snprintf(what, sizeof what, "plan %s %s%s", name, hb_test_layout_name(tl),
                                 uni ? " (uniform create)" : "");
                        hb_oracle_plan(ctx, &bt, &o, uni, NULL, what);
                    }
                }
                hb_oracle_free(&bt);
            }
        }
    }
    hb_context_destroy(oracle);
    hb_context_destroy(ctx);
    return hb_test_finish();
}

hb_plan_options hb_oracle_options(hb_strategy s, int32_t group)
{
    hb_plan_options o;
    hb_plan_options_init(&o);
    o.strategy = s;
    o.group_size = group;
    return o;
}

int hb_oracle_coop_available(hb_context *ctx)
{
    hb_plan *probe = NULL;
    hb_plan_options o = hb_oracle_options(HB_STRATEGY_COOPERATIVE, 0);
    const hb_status st = hb_plan_create_tridiag_uniform(ctx, HB_DOUBLE, 2, 10, &o, &probe);
    hb_plan_destroy(probe);
    if (st == HB_ERR_BACKEND_UNAVAILABLE) {
        HB_CHECK(hb_test_on_host(ctx), "a GPU backend lacks the cooperative solver: %s",
                 hb_last_error());
        HB_CHECK(strstr(hb_last_error(), "cooperative") != NULL, "the refusal names it: %s",
                 hb_last_error());
        return 0;
    }
    HB_CHECK_STATUS(st, HB_SUCCESS);
    return 1;
}

void hb_oracle_coop_env_refused(hb_context *ctx, const char *var, const char *const *bad,
                                size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        HB_CHECK(setenv(var, bad[i], 1) == 0, "setenv %s", var);
        hb_plan_options o = hb_oracle_options(HB_STRATEGY_COOPERATIVE, 0);
        hb_plan *plan = NULL;
        HB_CHECK_STATUS(hb_plan_create_tridiag_uniform(ctx, HB_FLOAT, 2, 100, &o, &plan),
                        HB_ERR_INVALID_ARGUMENT);
        HB_CHECK(plan == NULL, "no plan on error (%s=%s)", var, bad[i]);
        HB_CHECK(strstr(hb_last_error(), var) != NULL && strstr(hb_last_error(), bad[i]) != NULL,
                 "the message names the variable and its value: %s", hb_last_error());
        hb_plan_destroy(plan);
    }
    unsetenv(var);
}

void hb_oracle_tridiag_hard(hb_oracle_batch *bt, hb_precision p, int64_t nsys, int64_t lo,
                            int64_t hi, int kmax, int weak)
{
    int64_t *off = hb_test_offsets_random(nsys, lo, hi);
    hb_oracle_init(bt, &hb_oracle_tridiag, p, nsys, off, NULL, NULL, NULL, NULL, NULL);
    free(off);
    for (int64_t s = 0; s < nsys; ++s) {
        const int64_t o = bt->off[s], n = bt->off[s + 1] - o;
        for (int64_t i = 0; i < n; ++i) {
            const int64_t k = o + i;
            double a = i ? 2 * hb_test_unit() - 1 : 0, c = i + 1 < n ? 2 * hb_test_unit() - 1 : 0;
            double margin = weak ? 1e-3 * (fabs(a) + fabs(c)) + 1e-12 : 0.5 + hb_test_unit();
            double b = (fabs(a) + fabs(c) + margin) * (hb_test_unit() < 0.5 ? -1 : 1);
            double d = 2 * hb_test_unit() - 1;
            double f = pow(10.0, (double)hb_test_range(-kmax, kmax));
            hb_test_put(p, bt->m[0], k, a * f);
            hb_test_put(p, bt->m[1], k, b * f);
            hb_test_put(p, bt->m[2], k, c * f);
            hb_test_put(p, bt->rhs, k, d * f);
        }
    }
}

void hb_oracle_residual_only(hb_context *ctx, const hb_oracle_batch *bt, const hb_plan_options *o,
                             double bound, const char *what)
{
    hb_plan *plan = NULL;
    if (hb_oracle_plan_create(ctx, bt, o, 0, &plan) != HB_SUCCESS)
        return;
    void *x = hb_test_alloc(bt->p, bt->nrows);
    hb_oracle_plan_set(plan, bt);
    hb_oracle_plan_finish(plan, bt, x);
    int64_t worst = -1;
    double r = hb_test_tridiag_ratio(bt->p, bt->nsys, bt->off, bt->m[0], bt->m[1], bt->m[2], x,
                                     bt->rhs, &worst);
    HB_CHECK(r < bound, "%s: residual ratio %g (system %lld) >= %g", what, r, (long long)worst,
             bound);
    hb_plan_destroy(plan);
    free(x);
}
