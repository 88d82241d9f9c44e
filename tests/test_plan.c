/* test_plan.c: plans used as a simulation uses them (many steps with new data, writes through hb_plan_buffer), empty batches, and hb_plan_get_info on every kind of plan, with hb_plan_describe agreeing with it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hb_oracle_runner.h"

#define STEPS 4

static hb_context *ctx, *oracle;

/* Tridiagonal: a and c set once, b and rhs new every step. */
static void tridiag_steps(hb_precision p, const hb_test_layout *tl)
{
    const hb_oracle_shape sh = {"40 systems of 1..200 rows", 40, 1, 200, 0};
    hb_oracle_batch bt;
    hb_oracle_make(&bt, &hb_oracle_tridiag, p, &sh, 1.0);
    void *a = bt.m[0], *b = bt.m[1], *c = bt.m[2], *x = hb_test_alloc(p, bt.nrows);
    hb_plan_options o = hb_test_layout_options(tl);
    hb_plan *plan = NULL;
    if (hb_oracle_plan_create(ctx, &bt, &o, 0, &plan) == HB_SUCCESS) {
        HB_CHECK_STATUS(hb_plan_set(plan, HB_ARRAY_A, a), HB_SUCCESS);
        HB_CHECK_STATUS(hb_plan_set(plan, HB_ARRAY_C, c), HB_SUCCESS);
    }
    for (int step = 0; plan && step < STEPS; ++step) {
        char what[160];
        snprintf(what, sizeof what, "tridiag %s %s step %d", hb_test_precision_name(p),
                 hb_test_layout_name(tl), step);
        /* A new b, diagonally dominant over the first step's a and c, and rhs. */
        for (int64_t s = 0; s < bt.nsys; ++s)
            for (int64_t k = bt.off[s]; k < bt.off[s + 1]; ++k) {
                double sum = (k > bt.off[s] ? fabs(hb_test_get(p, a, k)) : 0) +
                             (k + 1 < bt.off[s + 1] ? fabs(hb_test_get(p, c, k)) : 0);
                hb_test_put(p, b, k, (hb_test_unit() < 0.5 ? -1 : 1) * (sum + 0.5 + hb_test_unit()));
                hb_test_put(p, bt.rhs, k, 2.0 * hb_test_unit() - 1.0);
            }
        HB_CHECK_STATUS(hb_plan_set(plan, HB_ARRAY_B, b), HB_SUCCESS);
        HB_CHECK_STATUS(hb_plan_set(plan, HB_ARRAY_RHS, bt.rhs), HB_SUCCESS);
        hb_oracle_plan_step(ctx, oracle, NULL, plan, &bt, x, what);
    }
    hb_plan_destroy(plan);
    free(x);
    hb_oracle_free(&bt);
}

/* Hines: u and l set once, d and rhs every step, through hb_plan_set or (on
 * host backends, whose buffers are host memory) written in place through
 * hb_plan_buffer at hb_plan_index, as a simulator's kernel would. */
static void hines_steps(hb_precision p, const hb_test_layout *tl, int mono, int in_place)
{
    const hb_oracle_shape shapes[2] = {{"33 neurons of 1..300 rows", 33, 1, 300, HB_TREE_NEURON},
                                       {"33 copies of a neuron of 150 rows", 33, 150, 150,
                                        HB_TREE_NEURON}};
    hb_oracle_batch bt;
    hb_oracle_make(&bt, &hb_oracle_hines, p, &shapes[mono], 1.0);
    void *d = bt.m[2], *r = bt.rhs, *x = hb_test_alloc(p, bt.nrows);
    hb_plan_options o = hb_test_layout_options(tl);
    hb_plan *plan = NULL;
    if (hb_oracle_plan_create(ctx, &bt, &o, mono, &plan) == HB_SUCCESS) {
        HB_CHECK_STATUS(hb_plan_set(plan, HB_ARRAY_U, bt.m[0]), HB_SUCCESS);
        HB_CHECK_STATUS(hb_plan_set(plan, HB_ARRAY_L, bt.m[1]), HB_SUCCESS);
    }
    for (int step = 0; plan && step < STEPS; ++step) {
        char what[200];
        snprintf(what, sizeof what, "hines %s %s %s%s step %d", hb_test_precision_name(p),
                 mono ? "mono" : "multi", hb_test_layout_name(tl), in_place ? " in place" : "",
                 step);
        /* New diagonal (still dominant: scale it up) and rhs per step. */
        for (int64_t k = 0; k < bt.nrows; ++k) {
            hb_test_put(p, d, k, hb_test_get(p, d, k) * (1.0 + 0.5 * hb_test_unit()));
            hb_test_put(p, r, k, 2.0 * hb_test_unit() - 1.0);
        }
        if (in_place) {
            void *hd = NULL, *hr = NULL;
            HB_CHECK_STATUS(hb_plan_buffer(plan, HB_ARRAY_D, &hd), HB_SUCCESS);
            HB_CHECK_STATUS(hb_plan_buffer(plan, HB_ARRAY_RHS, &hr), HB_SUCCESS);
            for (int64_t s = 0; hd && hr && s < bt.nsys; ++s)
                for (int64_t i = 0; i < bt.off[s + 1] - bt.off[s]; ++i) {
                    int64_t idx = -1;
                    if (hb_plan_index(plan, s, i, &idx) != HB_SUCCESS) {
                        HB_CHECK(0, "%s: hb_plan_index(%lld, %lld)", what, (long long)s, (long long)i);
                        continue;
                    }
                    hb_test_put(p, hd, idx, hb_test_get(p, d, bt.off[s] + i));
                    hb_test_put(p, hr, idx, hb_test_get(p, r, bt.off[s] + i));
                }
        } else {
            HB_CHECK_STATUS(hb_plan_set(plan, HB_ARRAY_D, d), HB_SUCCESS);
            HB_CHECK_STATUS(hb_plan_set(plan, HB_ARRAY_RHS, r), HB_SUCCESS);
        }
        hb_oracle_plan_step(ctx, oracle, NULL, plan, &bt, x, what);
    }
    hb_plan_destroy(plan);
    free(x);
    hb_oracle_free(&bt);
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
        hb_test_check_info(pl, ctx, HB_DOUBLE, 0, off, k < 2 ? NULL : par, NULL, "empty plan");
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

/* hb_plan_describe is for people, but says what hb_plan_get_info says, in
 * the words of the name functions. */
static void check_describe(const hb_plan *plan, const char *what)
{
    hb_plan_info in = hb_test_plan_info(plan);
    const char *d = hb_plan_describe(plan);
    char systems[64];
    snprintf(systems, sizeof systems, "%lld systems", (long long)in.nsys);
    int branch = in.strategy == HB_STRATEGY_BRANCH_LEVEL || in.strategy == HB_STRATEGY_FINE_TREE;
    HB_CHECK(strstr(d, in.hines ? "hines" : "tridiagonal") &&
                 strstr(d, hb_test_precision_name(in.precision)) && strstr(d, systems) &&
                 strstr(d, hb_strategy_name(in.strategy)) &&
                 strstr(d, branch ? "by-branch" : hb_layout_name(in.layout)) &&
                 (in.padding == HB_PADDING_AUTO || strstr(d, hb_padding_name(in.padding))) &&
                 (!in.hines || strstr(d, in.shared_tree ? "parents=shared" : "parents=per-system")) &&
                 (!in.rerooted || strstr(d, "rerooted")) && (!in.split || strstr(d, "split")) &&
                 strstr(d, hb_context_describe(ctx)) && strstr(d, hb_backend_name(in.backend)),
             "%s: describe '%s' disagrees with hb_plan_get_info (strategy %s, layout %s, "
             "padding %s)",
             what, d, hb_strategy_name(in.strategy), hb_layout_name(in.layout),
             hb_padding_name(in.padding));
}

/* Every kind of plan: hb_plan_get_info against the options it was made with,
 * and hb_plan_describe agreeing. */
static void plan_info(void)
{
    const hb_oracle_shape shapes[] = {{"uniform 20x30", 20, 30, 30, HB_TREE_RANDOM},
                                      {"variable 37 of 1..90", 37, 1, 90, HB_TREE_KINDS}};
    for (int is = 0; is < 2; ++is)
        for (int kind = 0; kind < 2; ++kind) {
            hb_precision p = (is + kind) % 2 ? HB_FLOAT : HB_DOUBLE;
            hb_oracle_batch bt;
            hb_oracle_make(&bt, kind ? &hb_oracle_hines : &hb_oracle_tridiag, p, &shapes[is], 1.0);
            /* Defaults, then per-system in every layout, padding and block size. */
            for (int il = -1; il < hb_test_nlayouts; ++il) {
                hb_plan_options o;
                if (il < 0)
                    hb_plan_options_init(&o);
                else
                    o = hb_test_layout_options(&hb_test_layouts[il]);
                for (int uni = 0; uni <= bt.shared; ++uni) {
                    char what[200];
                    snprintf(what, sizeof what, "info %s %s %s%s", bt.kind->name, shapes[is].name,
                             il < 0 ? "default" : hb_test_layout_name(&hb_test_layouts[il]),
                             uni ? " (uniform create)" : "");
                    hb_plan *plan = NULL;
                    if (hb_oracle_plan_create(ctx, &bt, &o, uni, &plan) != HB_SUCCESS)
                        continue;
                    hb_test_check_info(plan, ctx, p, bt.nsys, bt.off, bt.parent, &o, what);
                    check_describe(plan, what);
                    hb_plan_destroy(plan);
                }
            }
            /* Hines: the branch strategies, plain, re-rooted, split, both, and
             * the fine tree with a group size of its own. */
            for (int v = 0; kind && v < 10; ++v) {
                hb_plan_options o;
                hb_plan_options_init(&o);
                o.strategy = v < 5 ? HB_STRATEGY_BRANCH_LEVEL : HB_STRATEGY_FINE_TREE;
                o.reroot = v % 5 == 1 || v % 5 == 3;
                o.split_branches = v % 5 == 2 || v % 5 == 3;
                o.group_size = v % 5 == 4 ? 32 : 0;
                /* Options the strategy does not use must not show. */
                o.layout = v % 5 == 4 ? HB_LAYOUT_BLOCK_INTERLEAVED : HB_LAYOUT_AUTO;
                o.padding = v % 5 == 4 ? HB_PADDING_COMPUTE : HB_PADDING_AUTO;
                char what[200];
                snprintf(what, sizeof what, "info hines %s %s reroot %d split %d group %d",
                         shapes[is].name, hb_strategy_name(o.strategy), (int)o.reroot,
                         (int)o.split_branches, (int)o.group_size);
                hb_plan *plan = NULL;
                if (hb_oracle_plan_create(ctx, &bt, &o, 0, &plan) != HB_SUCCESS)
                    continue;
                hb_test_check_info(plan, ctx, p, bt.nsys, bt.off, bt.parent, &o, what);
                check_describe(plan, what);
                hb_plan_destroy(plan);
            }
            hb_oracle_free(&bt);
        }
}

int main(void)
{
    hb_test_begin("test_plan");
    ctx = hb_test_context();
    oracle = hb_test_oracle();
    const int layouts[] = {0, 2, 5, 10};
    for (int ip = 0; ip < 2; ++ip)
        for (size_t j = 0; j < sizeof layouts / sizeof layouts[0]; ++j) {
            hb_precision p = ip ? HB_FLOAT : HB_DOUBLE;
            const hb_test_layout *tl = &hb_test_layouts[layouts[j]];
            tridiag_steps(p, tl);
            for (int mono = 1; mono >= 0; --mono)
                for (int in_place = 0; in_place <= hb_test_on_host(ctx); ++in_place)
                    hines_steps(p, tl, mono, in_place); /* in place: host memory behind hb_plan_buffer */
        }
    empty_plans();
    plan_info();
    hb_context_destroy(oracle);
    hb_context_destroy(ctx);
    return hb_test_finish();
}
