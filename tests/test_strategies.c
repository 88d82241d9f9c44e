/* test_strategies.c: branch-level and fine-tree Hines strategies against the per-system serial oracle. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define HB_CORE_INTERNALS /* a white-box test of the core */
#include "hb_plan.h"
#include "hb_test_util.h"

/* Tree shapes that stress the decomposition: chains (one branch), stars
 * (every node its own branch), binary trees (many levels), random trees with
 * long unbranched runs, and a neuron-like soma with long dendrites. */
static void make_tree(int32_t *par, int64_t n, int shape)
{
    par[0] = -1;
    for (int64_t k = 1; k < n; ++k) {
        switch (shape) {
        case 0: par[k] = (int32_t)(k - 1); break;
        case 1: par[k] = 0; break;
        case 2: par[k] = (int32_t)((k - 1) / 2); break;
        case 3:
            par[k] = hb_test_unit() < 0.92 ? (int32_t)(k - 1) : (int32_t)hb_test_range(0, k - 1);
            break;
        default: par[k] = k < 8 ? 0 : (int32_t)(k - 7); break; /* 7 dendrites off a soma */
        }
    }
}

/* Cable-like values: negative couplings, diagonally dominant rows. */
static void fill_values(hb_precision p, int64_t total, void *u, void *l, void *d, void *rhs,
                        double scale)
{
    for (int64_t k = 0; k < total; ++k) {
        hb_test_put(p, u, k, -scale * (0.1 + hb_test_unit()));
        hb_test_put(p, l, k, -scale * (0.1 + hb_test_unit()));
        hb_test_put(p, d, k, scale * (2.5 + 2.0 * hb_test_unit()));
        hb_test_put(p, rhs, k, hb_test_unit() - 0.5);
    }
}

typedef struct {
    hb_precision p;
    int64_t nsys, total;
    int64_t *offsets;
    int32_t *parent;
    void *u, *l, *d, *rhs, *x, *ref;
} batch;

static void batch_free(batch *b)
{
    free(b->offsets);
    free(b->parent);
    free(b->u);
    free(b->l);
    free(b->d);
    free(b->rhs);
    free(b->x);
    free(b->ref);
}

static batch make_batch(hb_precision p, int64_t nsys, int64_t maxn, int mono, double scale)
{
    batch b = {p, nsys, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    b.offsets = malloc((size_t)(nsys + 1) * sizeof *b.offsets);
    int64_t n0 = hb_test_range(1, maxn);
    int shape0 = (int)hb_test_range(0, 4);
    b.offsets[0] = 0;
    for (int64_t s = 0; s < nsys; ++s)
        b.offsets[s + 1] = b.offsets[s] + (mono ? n0 : hb_test_range(1, maxn));
    b.total = b.offsets[nsys];
    size_t es = p == HB_DOUBLE ? sizeof(double) : sizeof(float);
    b.parent = malloc((size_t)b.total * sizeof *b.parent);
    b.u = malloc((size_t)b.total * es);
    b.l = malloc((size_t)b.total * es);
    b.d = malloc((size_t)b.total * es);
    b.rhs = malloc((size_t)b.total * es);
    b.x = malloc((size_t)b.total * es);
    b.ref = malloc((size_t)b.total * es);
    for (int64_t s = 0; s < nsys; ++s) {
        int64_t n = b.offsets[s + 1] - b.offsets[s];
        if (mono && s > 0)
            memcpy(b.parent + b.offsets[s], b.parent, (size_t)n * sizeof *b.parent);
        else
            make_tree(b.parent + b.offsets[s], n, mono ? shape0 : (int)hb_test_range(0, 4));
    }
    fill_values(p, b.total, b.u, b.l, b.d, b.rhs, scale);
    return b;
}

/* Branch options under test: 0 plain, 1 re-rooted, 2 split, 3 both. */
static int variant = 0;

/* Plans the batch with a strategy on ctx and solves; x gets the solution. */
static hb_status solve_with(hb_context *ctx, batch *b, hb_strategy strategy, void *x,
                            char *describe, size_t dlen)
{
    hb_plan_options o;
    hb_plan_options_init(&o);
    o.strategy = strategy;
    if (strategy != HB_STRATEGY_PER_SYSTEM) {
        o.reroot = variant & 1;
        o.split_branches = (variant >> 1) & 1;
        o.group_size = variant == 3 ? 32 : 0; /* a small group makes cells spill over */
    }
    hb_plan *plan = NULL;
    hb_status st = hb_plan_create_hines(ctx, b->p, b->nsys, b->offsets, b->parent, &o, &plan);
    if (st != HB_SUCCESS)
        return st;
    snprintf(describe, dlen, "%s", hb_plan_describe(plan));
    if (!(st = hb_plan_set(plan, HB_ARRAY_U, b->u)) && !(st = hb_plan_set(plan, HB_ARRAY_L, b->l)) &&
        !(st = hb_plan_set(plan, HB_ARRAY_D, b->d)) &&
        !(st = hb_plan_set(plan, HB_ARRAY_RHS, b->rhs)) && !(st = hb_plan_solve(plan)))
        st = hb_plan_get_solution(plan, x);
    hb_plan_destroy(plan);
    return st;
}

/* The AUTO rule at each threshold and on each side of it, on a host and on
 * a GPU context (docs/strategies.md states it; api/core/auto.c holds it). */
static void auto_rule(void)
{
    hb_device_traits host, gpu;
    memset(&host, 0, sizeof host);
    memset(&gpu, 0, sizeof gpu);
    gpu.is_gpu = 1;
    const hb_strategy P = HB_STRATEGY_PER_SYSTEM, B = HB_STRATEGY_BRANCH_LEVEL,
                      F = HB_STRATEGY_FINE_TREE;
    const int64_t fine = HB_AUTO_FINE_TREE_BELOW, per = HB_AUTO_PER_SYSTEM_FROM,
                  rows = HB_AUTO_BRANCHES_FROM_ROWS;
    const struct {
        int64_t nsys, max_rows;
        int mono;
        hb_strategy gpu;
    } cases[] = {
        {1, 728, 1, F},           {fine - 1, 728, 1, F},    {fine, 728, 1, B},
        {per - 1, 728, 1, B},     {per, 728, 1, P},         {256000, 728, 1, P},
        {1, 1068, 0, F},          {fine - 1, 1068, 0, F},   {fine, 1068, 0, B},
        {per - 1, 1068, 0, B},    {per, 1068, 0, P},        {256000, 1068, 0, P},
        {65536, rows - 1, 1, P},  {16, rows - 1, 1, P},     {65536, rows, 1, B},
        {16, rows - 1, 0, F},     {65536, rows - 1, 0, B},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        hb_strategy g = hb__auto_strategy(&gpu, cases[i].nsys, cases[i].max_rows, cases[i].mono);
        hb_strategy h = hb__auto_strategy(&host, cases[i].nsys, cases[i].max_rows, cases[i].mono);
        HB_CHECK(g == cases[i].gpu, "AUTO on a GPU, %lld %s cells of <= %lld rows: %d, want %d",
                 (long long)cases[i].nsys, cases[i].mono ? "shared-tree" : "mixed",
                 (long long)cases[i].max_rows, (int)g, (int)cases[i].gpu);
        HB_CHECK(h == P, "AUTO on a host, %lld cells: %d, want per-system",
                 (long long)cases[i].nsys, (int)h);
    }
}

int main(void)
{
    hb_test_begin("test_strategies");
    auto_rule();
    hb_context *ctx = hb_test_context(), *oracle = hb_test_oracle();
    const hb_strategy strategies[] = {HB_STRATEGY_BRANCH_LEVEL, HB_STRATEGY_FINE_TREE};
    const char *names[] = {"branch-level", "fine-tree"};
    for (int round = 0; round < 16; ++round) {
        variant = round % 4;
        hb_precision p = round % 2 ? HB_FLOAT : HB_DOUBLE;
        int mono = round % 3 == 0;
        int64_t nsys = hb_test_range(1, 300), maxn = round % 4 == 3 ? 3000 : 400;
        double scale = round == 13 ? (p == HB_DOUBLE ? 1e-280 : 1e-30)
                       : round == 14 ? (p == HB_DOUBLE ? 1e280 : 1e30)
                                     : 1.0;
        batch b = make_batch(p, nsys, maxn, mono, scale);
        char desc[700];
        HB_CHECK_STATUS(solve_with(oracle, &b, HB_STRATEGY_PER_SYSTEM, b.ref, desc, sizeof desc),
                        HB_SUCCESS);
        /* Bound: the strategies add a junction's contributions in another
         * order than the per-system sweep, so results differ by rounding:
         * normwise per system within 1e-12 (double) / 2e-4 (float) on these
         * diagonally dominant matrices. */
        double bound = p == HB_DOUBLE ? 1e-12 : 2e-4;
        for (int k = 0; k < 2; ++k) {
            hb_test_poison(p, b.x, b.total);
            hb_status st = solve_with(ctx, &b, strategies[k], b.x, desc, sizeof desc);
            HB_CHECK(st == HB_SUCCESS, "round %d %s: %s (%s)", round, names[k],
                     hb_status_string(st), hb_last_error());
            if (st != HB_SUCCESS)
                continue;
            HB_CHECK(strstr(desc, names[k]) != NULL, "describe lacks %s: %s", names[k], desc);
            double diff = hb_test_max_rel_diff(p, nsys, b.offsets, b.x, b.ref);
            HB_CHECK(diff <= bound,
                     "round %d %s (reroot %d, split %d) %s %s nsys=%lld: diff to oracle %.3g > %.3g",
                     round, names[k], variant & 1, variant >> 1, p == HB_DOUBLE ? "double" : "float",
                     mono ? "mono" : "multi", (long long)nsys, diff, bound);
            double ratio = 0;
            int64_t worst = -1;
            HB_CHECK_STATUS(hb_hines_residual(p, nsys, b.offsets, b.parent, b.u, b.l, b.d, b.x,
                                              b.rhs, &ratio, &worst),
                            HB_SUCCESS);
            HB_CHECK(ratio < 30, "round %d %s: residual ratio %.3g >= 30 at system %lld", round,
                     names[k], ratio, (long long)worst);
            /* Deterministic: junction updates have a fixed order, no atomics. */
            size_t bytes = (size_t)b.total * (p == HB_DOUBLE ? sizeof(double) : sizeof(float));
            void *again = malloc(bytes);
            hb_test_poison(p, again, b.total);
            HB_CHECK_STATUS(solve_with(ctx, &b, strategies[k], again, desc, sizeof desc),
                            HB_SUCCESS);
            HB_CHECK(hb_test_bitequal(again, b.x, bytes), "round %d %s: two solves differ", round,
                     names[k]);
            free(again);
        }
        batch_free(&b);
    }

    /* Index formula of branch layouts: hb_plan_index names where each row
     * went; on host backends the native buffer shows it directly. */
    {
        batch b = make_batch(HB_DOUBLE, 40, 200, 0, 1.0);
        hb_plan_options o;
        hb_plan_options_init(&o);
        o.strategy = HB_STRATEGY_BRANCH_LEVEL;
        hb_plan *plan = NULL;
        HB_CHECK_STATUS(hb_plan_create_hines(ctx, HB_DOUBLE, b.nsys, b.offsets, b.parent, &o, &plan),
                        HB_SUCCESS);
        if (plan) {
            HB_CHECK_STATUS(hb_plan_set(plan, HB_ARRAY_RHS, b.rhs), HB_SUCCESS);
            int64_t base[40];
            HB_CHECK_STATUS(hb_plan_system_bases(plan, base), HB_ERR_INVALID_ARGUMENT);
            void *native = NULL;
            HB_CHECK_STATUS(hb_plan_buffer(plan, HB_ARRAY_RHS, &native), HB_SUCCESS);
            if (hb_test_bitwise(ctx) && native) {
                int bad = 0;
                for (int64_t s = 0; s < b.nsys; ++s)
                    for (int64_t i = 0; i < b.offsets[s + 1] - b.offsets[s]; ++i) {
                        int64_t idx = -1;
                        hb_plan_index(plan, s, i, &idx);
                        bad += ((double *)native)[idx] != ((double *)b.rhs)[b.offsets[s] + i];
                    }
                HB_CHECK(bad == 0, "%d rows not at hb_plan_index in the branch layout", bad);
            }
            hb_plan_destroy(plan);
        }
        batch_free(&b);
    }

    /* Re-rooting a caterpillar (a path with a leaf on every inner node)
     * rooted at one end must cut its depth in branches about in half. */
    {
        enum { N = 41 };
        int32_t par[N];
        par[0] = -1;
        for (int k = 1; k < N; ++k)
            par[k] = k % 2 ? (int32_t)(k > 1 ? k - 2 : 0) : (int32_t)(k - 1);
        int levels[2] = {0, 0};
        for (int rr = 0; rr < 2; ++rr) {
            hb_plan_options o;
            hb_plan_options_init(&o);
            o.strategy = HB_STRATEGY_BRANCH_LEVEL;
            o.reroot = rr;
            hb_plan *plan = NULL;
            HB_CHECK_STATUS(hb_plan_create_hines_uniform(ctx, HB_DOUBLE, 2, N, par, &o, &plan),
                            HB_SUCCESS);
            const char *d = plan ? strstr(hb_plan_describe(plan), "branches, ") : NULL;
            if (d)
                levels[rr] = atoi(d + strlen("branches, "));
            hb_plan_destroy(plan);
        }
        HB_CHECK(levels[1] > 0 && levels[1] * 2 <= levels[0] + 2,
                 "re-rooting the caterpillar: %d levels, %d without", levels[1], levels[0]);
    }

    /* Strategy misuse and HINESBATCH_STRATEGY. */
    {
        hb_plan_options o;
        hb_plan_options_init(&o);
        o.strategy = HB_STRATEGY_FINE_TREE;
        hb_plan *plan = NULL;
        HB_CHECK_STATUS(hb_plan_create_tridiag_uniform(ctx, HB_DOUBLE, 4, 8, &o, &plan),
                        HB_ERR_INVALID_ARGUMENT);
        HB_CHECK(plan == NULL, "failed create wrote the plan");
        int32_t par[5] = {-1, 0, 1, 1, 0};
        setenv("HINESBATCH_STRATEGY", "Fine-Tree", 1);
        HB_CHECK_STATUS(hb_plan_create_hines_uniform(ctx, HB_FLOAT, 3, 5, par, NULL, &plan),
                        HB_SUCCESS);
        HB_CHECK(plan && strstr(hb_plan_describe(plan), "strategy=fine-tree"),
                 "HINESBATCH_STRATEGY not applied: %s", plan ? hb_plan_describe(plan) : "");
        hb_plan_destroy(plan);
        plan = NULL;
        setenv("HINESBATCH_STRATEGY", "sideways", 1);
        HB_CHECK_STATUS(hb_plan_create_hines_uniform(ctx, HB_FLOAT, 3, 5, par, NULL, &plan),
                        HB_ERR_INVALID_ARGUMENT);
        HB_CHECK(strstr(hb_last_error(), "sideways") != NULL, "message lacks the value: %s",
                 hb_last_error());
        unsetenv("HINESBATCH_STRATEGY");
    }
    hb_context_destroy(ctx);
    hb_context_destroy(oracle);
    return hb_test_finish();
}
