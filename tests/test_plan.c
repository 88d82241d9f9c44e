/* test_plan.c: plans used as a simulation uses them: many steps with new data, writes through hb_plan_buffer, empty batches. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hb_test_util.h"

#define STEPS 4

static hb_context *ctx, *oracle;

/* The step's solution x against the oracle's xref: residual already checked
 * by the caller; here bit-identical on host backends, else within
 * hb_test_diff_bound (1e-12 double, 1e-4 float normwise per system). */
static void compare(hb_precision p, int64_t nsys, const int64_t *off, const void *x,
                    const void *xref, const char *what)
{
    if (hb_test_bitwise(ctx))
        HB_CHECK(hb_test_bitequal(x, xref, (size_t)off[nsys] * hb_test_esize(p)),
                 "%s: not bit-identical to the oracle (diff %g)", what,
                 hb_test_max_rel_diff(p, nsys, off, x, xref));
    else
        HB_CHECK(hb_test_max_rel_diff(p, nsys, off, x, xref) <= hb_test_diff_bound(p),
                 "%s: differs from the oracle by %g", what,
                 hb_test_max_rel_diff(p, nsys, off, x, xref));
}

/* Tridiagonal: a and c set once, b and rhs new every step. */
static void tridiag_steps(hb_precision p, const hb_test_layout *tl)
{
    int64_t nsys = 40, *off = hb_test_offsets_random(nsys, 1, 200), n = off[nsys];
    void *a = hb_test_alloc(p, n), *b = hb_test_alloc(p, n), *c = hb_test_alloc(p, n);
    void *r = hb_test_alloc(p, n), *x = hb_test_alloc(p, n), *xr = hb_test_alloc(p, n);
    hb_plan_options o;
    hb_plan_options_init(&o);
    o.layout = tl->layout, o.block_size = tl->block_size, o.padding = tl->padding;
    hb_plan *plan = NULL;
    HB_CHECK_STATUS(hb_plan_create_tridiag(ctx, p, nsys, off, &o, &plan), HB_SUCCESS);
    for (int step = 0; plan && step < STEPS; ++step) {
        char what[160];
        snprintf(what, sizeof what, "tridiag %s %s step %d", p == HB_DOUBLE ? "double" : "float",
                 hb_test_layout_name(tl), step);
        if (step > 0) { /* keep the first step's a and c (x, xr: scratch here) */
            hb_test_tridiag_random(p, nsys, off, x, b, xr, r, 1.0);
        } else {
            hb_test_tridiag_random(p, nsys, off, a, b, c, r, 1.0);
            HB_CHECK_STATUS(hb_plan_set(plan, HB_ARRAY_A, a), HB_SUCCESS);
            HB_CHECK_STATUS(hb_plan_set(plan, HB_ARRAY_C, c), HB_SUCCESS);
        }
        /* b random per step must stay dominant over the first step's a and c:
         * hb_test_tridiag_random's margin is relative to its own a, c, so
         * make b dominant over the kept ones explicitly. */
        for (int64_t s = 0; s < nsys; ++s)
            for (int64_t k = off[s]; k < off[s + 1]; ++k) {
                double sum = (k > off[s] ? fabs(hb_test_get(p, a, k)) : 0) +
                             (k + 1 < off[s + 1] ? fabs(hb_test_get(p, c, k)) : 0);
                hb_test_put(p, b, k, (hb_test_get(p, b, k) < 0 ? -1 : 1) * (sum + 0.5 + hb_test_unit()));
            }
        HB_CHECK_STATUS(hb_plan_set(plan, HB_ARRAY_B, b), HB_SUCCESS);
        HB_CHECK_STATUS(hb_plan_set(plan, HB_ARRAY_RHS, r), HB_SUCCESS);
        hb_test_poison(p, x, n);
        HB_CHECK_STATUS(hb_plan_solve(plan), HB_SUCCESS);
        HB_CHECK_STATUS(hb_plan_get_solution(plan, x), HB_SUCCESS);
        memcpy(xr, r, (size_t)n * hb_test_esize(p));
        HB_CHECK_STATUS(p == HB_DOUBLE ? hb_dtridiag_solve(oracle, nsys, off, a, b, c, xr)
                                       : hb_stridiag_solve(oracle, nsys, off, a, b, c, xr),
                        HB_SUCCESS);
        double ind = hb_test_tridiag_ratio(p, nsys, off, a, b, c, x, r, NULL);
        HB_CHECK(ind < HB_TEST_RATIO_MAX, "%s: residual ratio %g >= 30", what, ind);
        compare(p, nsys, off, x, xr, what);
    }
    hb_plan_destroy(plan);
    free(off), free(a), free(b), free(c), free(r), free(x), free(xr);
}

/* Hines: u and l set once, d and rhs every step, through hb_plan_set or (on
 * host backends, whose buffers are host memory) written in place through
 * hb_plan_buffer at hb_plan_index, as a simulator's kernel would. */
static void hines_steps(hb_precision p, const hb_test_layout *tl, int mono, int in_place)
{
    int64_t nsys = 33, n0 = 150;
    int64_t *off = mono ? hb_test_offsets_uniform(nsys, n0) : hb_test_offsets_random(nsys, 1, 300);
    int64_t n = off[nsys];
    int32_t *par = hb_test_xalloc((size_t)n * sizeof *par);
    for (int64_t s = 0; s < nsys; ++s) {
        if (mono && s > 0)
            memcpy(par + off[s], par, (size_t)n0 * sizeof *par);
        else
            hb_test_tree(par + off[s], off[s + 1] - off[s], HB_TREE_NEURON);
    }
    void *u = hb_test_alloc(p, n), *l = hb_test_alloc(p, n), *d = hb_test_alloc(p, n);
    void *r = hb_test_alloc(p, n), *x = hb_test_alloc(p, n), *xr = hb_test_alloc(p, n);
    hb_test_hines_random(p, nsys, off, par, u, l, d, r, 1.0);
    hb_plan_options o;
    hb_plan_options_init(&o);
    o.layout = tl->layout, o.block_size = tl->block_size, o.padding = tl->padding;
    hb_plan *plan = NULL;
    HB_CHECK_STATUS(mono ? hb_plan_create_hines_uniform(ctx, p, nsys, n0, par, &o, &plan)
                         : hb_plan_create_hines(ctx, p, nsys, off, par, &o, &plan),
                    HB_SUCCESS);
    if (plan) {
        HB_CHECK_STATUS(hb_plan_set(plan, HB_ARRAY_U, u), HB_SUCCESS);
        HB_CHECK_STATUS(hb_plan_set(plan, HB_ARRAY_L, l), HB_SUCCESS);
    }
    for (int step = 0; plan && step < STEPS; ++step) {
        char what[200];
        snprintf(what, sizeof what, "hines %s %s %s%s step %d", p == HB_DOUBLE ? "double" : "float",
                 mono ? "mono" : "multi", hb_test_layout_name(tl), in_place ? " in place" : "",
                 step);
        /* New diagonal (still dominant: scale it up) and rhs per step. */
        for (int64_t k = 0; k < n; ++k) {
            hb_test_put(p, d, k, hb_test_get(p, d, k) * (1.0 + 0.5 * hb_test_unit()));
            hb_test_put(p, r, k, 2.0 * hb_test_unit() - 1.0);
        }
        if (in_place) {
            void *hd = NULL, *hr = NULL;
            HB_CHECK_STATUS(hb_plan_buffer(plan, HB_ARRAY_D, &hd), HB_SUCCESS);
            HB_CHECK_STATUS(hb_plan_buffer(plan, HB_ARRAY_RHS, &hr), HB_SUCCESS);
            for (int64_t s = 0; hd && hr && s < nsys; ++s)
                for (int64_t i = 0; i < off[s + 1] - off[s]; ++i) {
                    int64_t idx = -1;
                    if (hb_plan_index(plan, s, i, &idx) != HB_SUCCESS) {
                        HB_CHECK(0, "%s: hb_plan_index(%lld, %lld)", what, (long long)s, (long long)i);
                        continue;
                    }
                    hb_test_put(p, hd, idx, hb_test_get(p, d, off[s] + i));
                    hb_test_put(p, hr, idx, hb_test_get(p, r, off[s] + i));
                }
        } else {
            HB_CHECK_STATUS(hb_plan_set(plan, HB_ARRAY_D, d), HB_SUCCESS);
            HB_CHECK_STATUS(hb_plan_set(plan, HB_ARRAY_RHS, r), HB_SUCCESS);
        }
        hb_test_poison(p, x, n);
        HB_CHECK_STATUS(hb_plan_solve(plan), HB_SUCCESS);
        HB_CHECK_STATUS(hb_plan_synchronize(plan), HB_SUCCESS);
        HB_CHECK_STATUS(hb_plan_get_solution(plan, x), HB_SUCCESS);
        memcpy(xr, r, (size_t)n * hb_test_esize(p));
        HB_CHECK_STATUS(p == HB_DOUBLE ? hb_dhines_solve(oracle, nsys, off, par, u, l, d, xr)
                                       : hb_shines_solve(oracle, nsys, off, par, u, l, d, xr),
                        HB_SUCCESS);
        double ind = hb_test_hines_ratio(p, nsys, off, par, u, l, d, x, r, NULL);
        HB_CHECK(ind < HB_TEST_RATIO_MAX, "%s: residual ratio %g >= 30", what, ind);
        compare(p, nsys, off, x, xr, what);
    }
    hb_plan_destroy(plan);
    free(off), free(par), free(u), free(l), free(d), free(r), free(x), free(xr);
}

/* nsys == 0: every call succeeds and writes nothing. */
static void empty_plans(void)
{
    int64_t off[1] = {0};
    int32_t par[1] = {-1};
    double x[2] = {7.0, 8.0}, v[2] = {1.0, 2.0};
    hb_plan *plans[3] = {NULL, NULL, NULL};
    HB_CHECK_STATUS(hb_plan_create_tridiag(ctx, HB_DOUBLE, 0, off, NULL, &plans[0]), HB_SUCCESS);
    HB_CHECK_STATUS(hb_plan_create_tridiag_uniform(ctx, HB_DOUBLE, 0, 5, NULL, &plans[1]), HB_SUCCESS);
    HB_CHECK_STATUS(hb_plan_create_hines(ctx, HB_DOUBLE, 0, off, par, NULL, &plans[2]), HB_SUCCESS);
    for (int k = 0; k < 3; ++k) {
        hb_plan *pl = plans[k];
        if (!pl)
            continue;
        const hb_array arr[4] = {k < 2 ? HB_ARRAY_A : HB_ARRAY_U, k < 2 ? HB_ARRAY_B : HB_ARRAY_L,
                                 k < 2 ? HB_ARRAY_C : HB_ARRAY_D, HB_ARRAY_RHS};
        for (int w = 0; w < 4; ++w)
            HB_CHECK_STATUS(hb_plan_set(pl, arr[w], v), HB_SUCCESS);
        HB_CHECK_STATUS(hb_plan_solve(pl), HB_SUCCESS);
        HB_CHECK_STATUS(hb_plan_synchronize(pl), HB_SUCCESS);
        HB_CHECK_STATUS(hb_plan_get_solution(pl, x), HB_SUCCESS);
        HB_CHECK(x[0] == 7.0 && x[1] == 8.0, "empty plan %d wrote x", k);
        hb_layout_info info;
        HB_CHECK_STATUS(hb_plan_layout_info(pl, &info), HB_SUCCESS);
        HB_CHECK(info.nsys == 0 && info.length == 0, "empty plan %d: nsys %lld length %lld", k,
                 (long long)info.nsys, (long long)info.length);
        void *h = NULL;
        HB_CHECK_STATUS(hb_plan_buffer(pl, HB_ARRAY_RHS, &h), HB_ERR_INVALID_ARGUMENT);
        hb_plan_destroy(pl);
    }
}

/* Default options: the plan says what it chose. */
static void describe_defaults(void)
{
    int64_t off[3] = {0, 4, 10};
    int32_t par[10] = {-1, 0, 1, 1, -1, 0, 0, 2, 3, 3};
    hb_plan *plan = NULL;
    HB_CHECK_STATUS(hb_plan_create_hines(ctx, HB_FLOAT, 2, off, par, NULL, &plan), HB_SUCCESS);
    if (plan) {
        const char *d = hb_plan_describe(plan);
        HB_CHECK(strstr(d, "hines") && strstr(d, "float") && strstr(d, "layout=") &&
                     strstr(d, "strategy=") && strstr(d, "parents=per-system") &&
                     strstr(d, hb_context_describe(ctx)),
                 "describe: '%s'", d);
        printf("test_plan: default plan: %s\n", d);
    }
    hb_plan_destroy(plan);
    plan = NULL;
    HB_CHECK_STATUS(hb_plan_create_tridiag_uniform(ctx, HB_DOUBLE, 1000, 16, NULL, &plan), HB_SUCCESS);
    if (plan) {
        const char *d = hb_plan_describe(plan);
        HB_CHECK(strstr(d, "tridiagonal") && strstr(d, "double") && strstr(d, "1000 systems"),
                 "describe: '%s'", d);
        printf("test_plan: default plan: %s\n", d);
    }
    hb_plan_destroy(plan);
}

int main(void)
{
    hb_test_begin("test_plan");
    ctx = hb_test_context();
    oracle = hb_test_oracle();
    const hb_precision precs[] = {HB_DOUBLE, HB_FLOAT};
    const int layouts[] = {0, 2, 5, 10};
    for (int ip = 0; ip < 2; ++ip)
        for (size_t j = 0; j < sizeof layouts / sizeof layouts[0]; ++j) {
            const hb_test_layout *tl = &hb_test_layouts[layouts[j]];
            tridiag_steps(precs[ip], tl);
            hines_steps(precs[ip], tl, 1, 0);
            hines_steps(precs[ip], tl, 0, 0);
            if (hb_test_bitwise(ctx)) { /* host memory behind hb_plan_buffer */
                hines_steps(precs[ip], tl, 1, 1);
                hines_steps(precs[ip], tl, 0, 1);
            }
        }
    empty_plans();
    describe_defaults();
    hb_context_destroy(oracle);
    hb_context_destroy(ctx);
    return hb_test_finish();
}
