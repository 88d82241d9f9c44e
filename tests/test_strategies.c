/* test_strategies.c: branch-level and fine-tree Hines strategies against the per-system serial oracle, their AUTO rule, branch layouts, re-rooting and HINESBATCH_STRATEGY. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hb_oracle_runner.h"
#define HB_CORE_INTERNALS /* a white-box test of the core */
#include "hb_plan.h"

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

/* Cable-like values: negative couplings, and a diagonal that is, as in a
 * cable (C/dt plus the couplings), the sum of the row's couplings plus a
 * margin, so the matrices are diagonally dominant. */
static void fill_values(hb_oracle_batch *b, double scale)
{
    hb_precision p = b->p;
    void *u = b->m[0], *l = b->m[1], *d = b->m[2];
    for (int64_t k = 0; k < b->nrows; ++k) {
        hb_test_put(p, u, k, -scale * (0.1 + hb_test_unit()));
        hb_test_put(p, l, k, -scale * (0.1 + hb_test_unit()));
        hb_test_put(p, d, k, scale * (0.5 + 2.0 * hb_test_unit()));
        hb_test_put(p, b->rhs, k, hb_test_unit() - 0.5);
    }
    for (int64_t s = 0; s < b->nsys; ++s)
        for (int64_t k = b->off[s] + 1; k < b->off[s + 1]; ++k) {
            int64_t q = b->off[s] + b->parent[k]; /* A[k][q] = l[k], A[q][k] = u[k] */
            hb_test_put(p, d, k, hb_test_get(p, d, k) - hb_test_get(p, l, k));
            hb_test_put(p, d, q, hb_test_get(p, d, q) - hb_test_get(p, u, k));
        }
}

/* nsys systems of 1..maxn rows (mono: one size and tree for all). */
static void make_batch(hb_oracle_batch *b, hb_precision p, int64_t nsys, int64_t maxn, int mono,
                       double scale)
{
    int64_t *off = hb_test_xalloc((size_t)(nsys + 1) * sizeof *off), n0 = hb_test_range(1, maxn);
    int shape0 = (int)hb_test_range(0, 4);
    for (int64_t s = 0; s < nsys; ++s)
        off[s + 1] = off[s] + (mono ? n0 : hb_test_range(1, maxn));
    int32_t *parent = hb_test_xalloc((size_t)off[nsys] * sizeof *parent);
    for (int64_t s = 0; s < nsys; ++s) {
        int64_t n = off[s + 1] - off[s];
        if (mono && s > 0)
            memcpy(parent + off[s], parent, (size_t)n * sizeof *parent);
        else
            make_tree(parent + off[s], n, mono ? shape0 : (int)hb_test_range(0, 4));
    }
    hb_oracle_init(b, &hb_oracle_hines, p, nsys, off, parent, NULL, NULL, NULL, NULL);
    fill_values(b, scale);
    free(off);
    free(parent);
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
        hb_strategy g = hb__auto_strategy(&gpu, cases[i].nsys, cases[i].max_rows, cases[i].mono, 0, 8);
        hb_strategy h = hb__auto_strategy(&host, cases[i].nsys, cases[i].max_rows, cases[i].mono, 0, 8);
        /* Where the cell-group solver can run, it replaces the fine tree. */
        hb_strategy gc = hb__auto_strategy(&gpu, cases[i].nsys, cases[i].max_rows, cases[i].mono, 1, 8);
        hb_strategy hc = hb__auto_strategy(&host, cases[i].nsys, cases[i].max_rows, cases[i].mono, 1, 8);
        HB_CHECK(gc == (cases[i].gpu == F ? HB_STRATEGY_CELL_GROUP : cases[i].gpu) && hc == P,
                 "AUTO with cell-group, %lld %s cells of <= %lld rows: GPU %s, host %s",
                 (long long)cases[i].nsys, cases[i].mono ? "shared-tree" : "mixed",
                 (long long)cases[i].max_rows, hb_strategy_name(gc), hb_strategy_name(hc));
        HB_CHECK(g == cases[i].gpu, "AUTO on a GPU, %lld %s cells of <= %lld rows: %s, want %s",
                 (long long)cases[i].nsys, cases[i].mono ? "shared-tree" : "mixed",
                 (long long)cases[i].max_rows, hb_strategy_name(g), hb_strategy_name(cases[i].gpu));
        HB_CHECK(h == P, "AUTO on a host, %lld cells: %s, want per-system",
                 (long long)cases[i].nsys, hb_strategy_name(h));
    }
    /* A GPU that gives its compute units: cell-group (where it can run)
     * below hb__auto_cell_group_per_unit cells per unit, one tree or a mix;
     * from there copies of one cell run per-system and a mix the rule
     * above. The threshold: the measured crossing of the CA1 cell (728
     * rows: about 384 cells per unit in double, 512 in float), lower for
     * smaller cells, rising with the rows towards PER_UNIT. */
    gpu.compute_units = 132;
    const hb_strategy C = HB_STRATEGY_CELL_GROUP;
    for (int f = 0; f < 2; ++f) {
        const size_t es = f ? 4 : 8;
        const int64_t top = f ? HB_AUTO_CELL_GROUP_PER_UNIT_FLOAT : HB_AUTO_CELL_GROUP_PER_UNIT;
        const int64_t ca1 = hb__auto_cell_group_per_unit(728, es);
        HB_CHECK(f ? ca1 >= 508 && ca1 <= 516 : ca1 >= 380 && ca1 <= 388,
                 "%s: %lld cells per unit for 728 rows", f ? "float" : "double", (long long)ca1);
        int64_t prev = 0;
        for (int64_t r = 1; r <= ((int64_t)1 << 40); r = r < 4096 ? r + 1 : r * 2) {
            const int64_t t = hb__auto_cell_group_per_unit(r, es);
            if (!(t >= prev && t <= top)) {
                HB_CHECK(0, "%s: %lld rows, %lld cells per unit after %lld", f ? "float" : "double",
                         (long long)r, (long long)t, (long long)prev);
                break;
            }
            prev = t;
        }
        HB_CHECK(prev >= top - 1, "%s: towards %lld, %lld", f ? "float" : "double",
                 (long long)top, (long long)prev);
        HB_CHECK(hb__auto_cell_group_per_unit(0, es) == 0 &&
                     hb__auto_cell_group_per_unit(INT64_MAX, es) == top,
                 "%s: 0 and INT64_MAX rows", f ? "float" : "double");
        /* The 44-row cell crosses at about half the CA1 cell's. */
        const int64_t small = hb__auto_cell_group_per_unit(44, es);
        HB_CHECK(small * 3 > ca1 && small * 3 < ca1 * 2, "%s: 44 rows, %lld cells per unit",
                 f ? "float" : "double", (long long)small);
        const int64_t cg = ca1 * 132, cs = small * 132;
        const struct {
            int64_t nsys, rows;
            int mono, cell_ok;
            hb_strategy want;
        } units[] = {
            {fine, 728, 1, 1, C},     {cg - 1, 728, 1, 1, C}, {cg, 728, 1, 1, P},
            {per, 728, 1, 1, P},      {fine, 728, 1, 0, B},   {cg - 1, 728, 1, 0, B},
            {cg, 728, 1, 0, P},       {fine - 1, 728, 1, 0, F}, {fine, 728, 0, 1, C},
            {cg - 1, 728, 0, 1, C},   {cg, 728, 0, 1, B},     {per, 728, 0, 1, P},
            {fine - 1, 728, 0, 1, C}, {fine, 728, 0, 0, B},   {cg, 728, 0, 0, B},
            {16, rows - 1, 1, 1, P}, /* tiny trees of one shape stay per-system */
            {cs - 1, 44, 1, 1, C},   {cs, 44, 1, 1, P},       {cs, 44, 0, 1, B},
            {cs - 1, 44, 0, 1, C},
        };
        for (size_t i = 0; i < sizeof units / sizeof units[0]; ++i) {
            const hb_strategy g = hb__auto_strategy(&gpu, units[i].nsys, units[i].rows,
                                                    units[i].mono, units[i].cell_ok, es);
            HB_CHECK(g == units[i].want,
                     "AUTO on a GPU of 132 units, %s, %lld %s cells of %lld rows, cell-group %s: "
                     "%s, want %s",
                     f ? "float" : "double", (long long)units[i].nsys,
                     units[i].mono ? "shared-tree" : "mixed", (long long)units[i].rows,
                     units[i].cell_ok ? "possible" : "impossible", hb_strategy_name(g),
                     hb_strategy_name(units[i].want));
        }
    }
}

/* AUTO's cost model (hb__auto_times) and the schedule shape it reads
 * (hb__cell_shape). The shapes below are the measured trees' of
 * docs/benchmarks/h200-2026-12-01-shape (call 1, H200, 132 SMs), where the
 * forced strategies' times were: CA1 (728 rows), 16,384 cells in double,
 * cell-group 0.50 ms, branch-level 0.88, per-system 1.32; levels:1792:8
 * (a binary tree under a 896-node first branch: 123 schedule levels)
 * cell-group 7.67, branch-level 2.31, per-system 3.32; CA1 at 65,536 cells
 * cell-group 1.82, branch-level 1.81, per-system 1.63. */
static void auto_model(void)
{
    /* A chain of 100 nodes: a trunk of HB_CELL_TRUNK_MAX (64) nodes, the
     * 36 below it in chains of at most 8 (8, 8, 8, 8, 4), one per level. */
    int32_t par[201];
    par[0] = -1;
    for (int i = 1; i < 100; ++i)
        par[i] = i - 1;
    hb_cell_shape cs;
    HB_CHECK_STATUS(hb__cell_shape(par, 100, 0, &cs), HB_SUCCESS);
    HB_CHECK(cs.trunk == HB_CELL_TRUNK_MAX && cs.levels == 6 && cs.widest == HB_CELL_TRUNK_MAX &&
                 cs.path[0] == 36 && cs.path[7] == 36,
             "chain of 100: trunk %lld, levels %lld, widest %lld, path %lld / %lld",
             (long long)cs.trunk, (long long)cs.levels, (long long)cs.widest,
             (long long)cs.path[0], (long long)cs.path[7]);
    /* With chains of at most 3 nodes: 12 chains (36 / 3). */
    HB_CHECK_STATUS(hb__cell_shape(par, 100, 3, &cs), HB_SUCCESS);
    HB_CHECK(cs.levels == 13 && cs.path[5] == 36,
             "chain of 100, chains of 3: %lld levels, path %lld", (long long)cs.levels,
             (long long)cs.path[5]);
    /* A star of 200 leaves: a trunk of the root, one level of 200 chains of
     * one node, taken ceil(200 / g) rounds. */
    for (int i = 1; i <= 200; ++i)
        par[i] = 0;
    HB_CHECK_STATUS(hb__cell_shape(par, 201, 0, &cs), HB_SUCCESS);
    HB_CHECK(cs.trunk == 1 && cs.levels == 2 && cs.widest == 200 && cs.path[0] == 200 &&
                 cs.path[6] == 4 && cs.path[8] == 1 && cs.path[10] == 1,
             "star of 200: trunk %lld, levels %lld, widest %lld, path %lld %lld %lld %lld",
             (long long)cs.trunk, (long long)cs.levels, (long long)cs.widest,
             (long long)cs.path[0], (long long)cs.path[6], (long long)cs.path[8],
             (long long)cs.path[10]);
    HB_CHECK(hb__cell_shape(par, 0, 0, &cs) == HB_ERR_INVALID_ARGUMENT, "0 rows accepted");

    hb_device_traits gpu;
    memset(&gpu, 0, sizeof gpu);
    gpu.is_gpu = 1;
    gpu.compute_units = 132;
    /* rows; branches, levels, path; waves, chain path, trunk, levels */
    const hb_auto_shape ca1_16k = {728, 194, 36, 236, 16, 36, 24, 13},
                        levels_16k = {1792, 255, 8, 1023, 32, 959, 64, 123},
                        ca1_64k = {728, 194, 36, 236, 63, 36, 24, 13};
    const struct {
        const hb_auto_shape *s;
        int64_t nsys;
        hb_strategy want;
    } cases[] = {
        {&ca1_16k, 16384, HB_STRATEGY_CELL_GROUP},
        {&levels_16k, 16384, HB_STRATEGY_BRANCH_LEVEL},
        {&ca1_64k, 65536, HB_STRATEGY_PER_SYSTEM},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        hb_auto_times t;
        hb__auto_times(&gpu, cases[i].nsys, cases[i].s, 8, 0, &t);
        const hb_strategy g = hb__auto_fastest(&t);
        HB_CHECK(g == cases[i].want,
                 "model, %lld cells of %lld rows: per-system %.0f, branch-level %.0f, "
                 "cell-group %.0f us: %s, want %s",
                 (long long)cases[i].nsys, (long long)cases[i].s->rows, t.per_system,
                 t.branch_level, t.cell_group, hb_strategy_name(g),
                 hb_strategy_name(cases[i].want));
        /* Every modelled time grows with the batch. */
        hb_auto_times t2;
        hb__auto_times(&gpu, 2 * cases[i].nsys, cases[i].s, 8, 0, &t2);
        HB_CHECK(t2.per_system > t.per_system && t2.branch_level > t.branch_level &&
                     t2.cell_group > t.cell_group,
                 "model, %lld rows: times fall with twice the cells", (long long)cases[i].s->rows);
    }
    /* What is not offered is never chosen: shared couplings have no
     * branch-level (per-system moves fewer bytes; cell-group's fewer waves
     * come with the shape), no waves no cell-group, nothing at all
     * per-system. */
    hb_auto_times t;
    hb__auto_times(&gpu, 16384, &levels_16k, 8, 1, &t);
    hb_auto_times plain;
    hb__auto_times(&gpu, 16384, &levels_16k, 8, 0, &plain);
    HB_CHECK(t.branch_level < 0 && t.per_system < plain.per_system &&
                 t.cell_group == plain.cell_group &&
                 hb__auto_fastest(&t) == HB_STRATEGY_PER_SYSTEM,
             "shared couplings: branch-level %.0f, per-system %.0f (%.0f unshared), cell-group "
             "%.0f (%.0f), chose %s",
             t.branch_level, t.per_system, plain.per_system, t.cell_group, plain.cell_group,
             hb_strategy_name(hb__auto_fastest(&t)));
    hb_auto_shape none = {728, 0, 0, 0, 0, 0, 0, 0};
    hb__auto_times(&gpu, 16384, &none, 4, 0, &t);
    HB_CHECK(t.branch_level < 0 && t.cell_group < 0 && t.per_system > 0 &&
                 hb__auto_fastest(&t) == HB_STRATEGY_PER_SYSTEM,
             "nothing offered: %.0f / %.0f / %.0f, %s", t.per_system, t.branch_level,
             t.cell_group, hb_strategy_name(hb__auto_fastest(&t)));
}

/* Which strategies the model cannot tell from its fastest: each time less
 * its error against the fastest's plus its error (hb_plan.h's bounds). */
static void auto_candidates(void)
{
    const struct {
        hb_auto_times t;
        size_t esize;
        int n;
        hb_strategy want[3];
    } cases[] = {
        /* A clear winner. */
        {{1000, 2000, 500}, 8, 1, {HB_STRATEGY_CELL_GROUP}},
        /* The L5PC cell at 16,384 cells in double (h200-2026-12-01-confirm):
         * modelled cell-group 827 us, branch-level 923, measured 933 / 850. */
        {{1943, 923, 827}, 8, 2, {HB_STRATEGY_CELL_GROUP, HB_STRATEGY_BRANCH_LEVEL}},
        /* All three close: the fastest, then by modelled time. */
        {{1000, 1010, 990},
         8,
         3,
         {HB_STRATEGY_CELL_GROUP, HB_STRATEGY_PER_SYSTEM, HB_STRATEGY_BRANCH_LEVEL}},
        /* Nothing else offered. */
        {{1000, -1, -1}, 8, 1, {HB_STRATEGY_PER_SYSTEM}},
        /* Float's cell-group error is wider: a tie there, not in double. */
        {{1290, -1, 1000}, 8, 1, {HB_STRATEGY_CELL_GROUP}},
        {{1290, -1, 1000}, 4, 2, {HB_STRATEGY_CELL_GROUP, HB_STRATEGY_PER_SYSTEM}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        hb_strategy out[3] = {HB_STRATEGY_AUTO, HB_STRATEGY_AUTO, HB_STRATEGY_AUTO};
        const int n = hb__auto_candidates(&cases[i].t, cases[i].esize, out);
        int same = n == cases[i].n;
        for (int k = 0; same && k < n; ++k)
            same = out[k] == cases[i].want[k];
        HB_CHECK(same, "candidates of %.0f / %.0f / %.0f us (%zu-byte values): %d (%s, %s, %s)",
                 cases[i].t.per_system, cases[i].t.branch_level, cases[i].t.cell_group,
                 cases[i].esize, n, hb_strategy_name(out[0]), hb_strategy_name(out[1]),
                 hb_strategy_name(out[2]));
    }
}

/* AUTO's tie-break on this backend: every candidate timed, the first (the
 * model's) taken unless another beat it by the margin, and its plan kept as new (refusing a solve until set; then solving
 * a random batch of that tree as the oracle does), no message left; a batch
 * over the limit is not timed. */
static void auto_measure(hb_context *ctx, hb_context *oracle)
{
    /* What the backend offers (host backends have no cell-group kernel). */
    hb_strategy cand[3] = {HB_STRATEGY_PER_SYSTEM};
    int ncand = 1;
    if (ctx->ops->hines_branch_level)
        cand[ncand++] = HB_STRATEGY_BRANCH_LEVEL;
    if (ctx->ops->hines_cell)
        cand[ncand++] = HB_STRATEGY_CELL_GROUP;
    hb_plan_options o;
    hb_plan_options_init(&o);
    for (int pi = 0; pi < 2; ++pi) {
        const hb_precision p = pi ? HB_FLOAT : HB_DOUBLE;
        hb_oracle_batch b;
        make_batch(&b, p, hb_test_range(16, 256), 120, 1, 1.0);
        const int64_t n = b.off[1];
        char what[200];
        snprintf(what, sizeof what, "tie-break, %lld cells of %lld rows, %s", (long long)b.nsys,
                 (long long)n, hb_test_precision_name(p));
        hb_oracle_reference(&b, oracle, NULL, what);
        double ms[3] = {NAN, NAN, NAN};
        hb_strategy best = HB_STRATEGY_AUTO;
        hb_plan *kept = (hb_plan *)&best; /* poisoned: written on every path */
        HB_CHECK_STATUS(
            hb__auto_measure(ctx, p, b.nsys, n, b.parent, &o, cand, ncand, &best, ms, &kept),
            HB_SUCCESS);
        if (ncand < 2) { /* one candidate: nothing to time */
            HB_CHECK(best == HB_STRATEGY_AUTO && ms[0] == -1 && kept == NULL,
                     "%s: one candidate timed: %s %g", what, hb_strategy_name(best), ms[0]);
            hb_oracle_free(&b);
            continue;
        }
        /* The model's choice (the first) unless another beat it by the margin. */
        int k = 1, other = 1;
        for (; k < ncand && ms[k] > 0 && isfinite(ms[k]); ++k)
            if (ms[k] < ms[other])
                other = k;
        const int want = ms[other] < ms[0] * (1 - HB_AUTO_MEASURE_MARGIN) ? other : 0;
        HB_CHECK(ms[0] > 0 && k == ncand && best == cand[want] && hb_last_error()[0] == '\0',
                 "%s: %s (%g / %g / %g ms), message '%s'", what, hb_strategy_name(best), ms[0],
                 ms[1], ms[2], hb_last_error());
        HB_CHECK(kept && hb_test_plan_info(kept).strategy == best &&
                     hb_test_plan_info(kept).nsys == b.nsys,
                 "%s: the kept plan is not %s's", what, hb_strategy_name(best));
        if (kept) {
            HB_CHECK_STATUS(hb_plan_solve(kept), HB_ERR_INVALID_ARGUMENT); /* as new */
            void *x = hb_test_alloc(p, b.nrows);
            hb_oracle_plan_set(kept, &b);
            hb_oracle_plan_finish(kept, &b, x);
            hb_oracle_check(ctx, &b, x, best, what);
            free(x);
            hb_plan_destroy(kept);
        }
        hb_oracle_free(&b);
    }
    int32_t par[64];
    make_tree(par, 64, 4);
    double ms[2] = {NAN, NAN};
    hb_strategy best = HB_STRATEGY_AUTO;
    hb_plan *kept = (hb_plan *)&best;
    HB_CHECK_STATUS(hb__auto_measure(ctx, HB_DOUBLE, HB_AUTO_MEASURE_MAX_ROWS / 64 + 1, 64, par,
                                     &o, cand, 2, &best, ms, &kept),
                    HB_SUCCESS);
    HB_CHECK(best == HB_STRATEGY_AUTO && ms[0] == -1 && ms[1] == -1 && kept == NULL,
             "a batch over the limit was timed: %s %g %g", hb_strategy_name(best), ms[0], ms[1]);
}

/* Random batches solved with both branch strategies in four variants (plain,
 * re-rooted, split, both with small fine-tree groups so cells spill over)
 * against the per-system oracle: the policy's "another order" tier, the
 * residual, hb_plan_get_info, and determinism. */
static void against_oracle(hb_context *ctx, hb_context *oracle)
{
    const hb_strategy strategies[] = {HB_STRATEGY_BRANCH_LEVEL, HB_STRATEGY_FINE_TREE};
    for (int round = 0; round < 16; ++round) {
        int variant = (round / 2) % 4; /* every variant in both precisions */
        hb_precision p = round % 2 ? HB_FLOAT : HB_DOUBLE;
        int mono = round % 3 == 0;
        int64_t nsys = hb_test_range(1, 300), maxn = variant == 3 ? 3000 : 400;
        double scale = round == 13 ? (p == HB_DOUBLE ? 1e-280 : 1e-30)
                       : round == 14 ? (p == HB_DOUBLE ? 1e280 : 1e30)
                                     : 1.0;
        hb_oracle_batch b;
        make_batch(&b, p, nsys, maxn, mono, scale);
        char what[300];
        snprintf(what, sizeof what, "round %d %s %s nsys=%lld scale %g", round,
                 hb_test_precision_name(p), mono ? "mono" : "multi", (long long)nsys, scale);
        hb_oracle_reference(&b, oracle, NULL, what);
        void *x = hb_test_alloc(p, b.nrows), *again = hb_test_alloc(p, b.nrows);
        for (int k = 0; k < 2; ++k) {
            hb_plan_options o;
            hb_plan_options_init(&o);
            o.strategy = strategies[k];
            o.reroot = variant & 1;
            o.split_branches = (variant >> 1) & 1;
            o.group_size = variant == 3 ? 32 : 0;
            char w[400];
            snprintf(w, sizeof w, "%s %s (reroot %d, split %d)", what,
                     hb_strategy_name(strategies[k]), variant & 1, variant >> 1);
            hb_oracle_plan(ctx, &b, &o, 0, x, w);
            /* Deterministic: junction updates have a fixed order, no atomics. */
            hb_oracle_plan(ctx, &b, &o, 0, again, w);
            HB_CHECK(hb_test_bitequal(again, x, (size_t)b.nrows * hb_test_esize(p)),
                     "%s: two solves differ", w);
        }
        free(x);
        free(again);
        hb_oracle_free(&b);
    }
}

/* One int64 table of a plan's branch layout, read back from the backend. */
static int64_t *read_table(hb_plan *plan, hb_buffer *buf, int64_t count)
{
    int64_t *t = hb_test_xalloc((size_t)(count > 0 ? count : 1) * sizeof *t);
    if (buf && count > 0) {
        HB_CHECK_STATUS(plan->ctx->ops->read(plan->ctx, plan->stream, buf, 0, t,
                                             (size_t)count * sizeof *t),
                        HB_SUCCESS);
        HB_CHECK_STATUS(plan->ctx->ops->finish(plan->ctx, plan->stream), HB_SUCCESS);
    }
    return t;
}

#define BRANCH_TABLES 11
static void read_tables(hb_plan *plan, int64_t *t[BRANCH_TABLES], int64_t n[BRANCH_TABLES])
{
    const hb_branch_dev *br = &plan->br;
    hb_buffer *bufs[BRANCH_TABLES] = {br->pos0,    br->bstride, br->len,     br->ppos,
                                      br->chptr,   br->chidx,   br->seg_ptr, br->grp_ptr,
                                      br->rowmap,  br->cmap_same, br->cmap_swap};
    const int64_t nb = br->nbranches;
    int64_t counts[BRANCH_TABLES] = {nb, nb, nb, nb, nb + 1, 0, br->nsegments + 1,
                                     br->ngroups + 1, plan->nrows, br->cmap_same ? plan->nrows : 0,
                                     br->cmap_swap ? plan->nrows : 0};
    for (int i = 0; i < BRANCH_TABLES; ++i) {
        if (i == 5) { /* chidx: as many as chptr's last */
            counts[5] = t[4][nb];
        }
        n[i] = counts[i];
        t[i] = read_table(plan, bufs[i], counts[i]);
    }
}

/* Copies of one tree get their branch tables from the branches' ranks
 * (branches.c, mono_tables), not from the general path's sort: every table
 * and count the same as the general path's, for random trees, both branch
 * strategies, fine-tree groups of several sizes, re-rooted and split. */
static void mono_tables_same(hb_context *ctx)
{
    static const char *names[BRANCH_TABLES] = {"pos0", "bstride", "len",  "ppos",
                                               "chptr", "chidx", "seg_ptr", "grp_ptr",
                                               "rowmap", "cmap_same", "cmap_swap"};
    for (int round = 0; round < 24; ++round) {
        const int64_t n = hb_test_range(1, 400), nsys = hb_test_range(1, 300);
        int32_t *par = hb_test_xalloc((size_t)n * sizeof *par);
        make_tree(par, n, round % 5);
        hb_plan_options o;
        hb_plan_options_init(&o);
        o.strategy = round % 2 ? HB_STRATEGY_FINE_TREE : HB_STRATEGY_BRANCH_LEVEL;
        o.reroot = (round / 2) % 2;
        o.split_branches = (round / 4) % 2;
        o.group_size = round % 2 ? (int32_t)hb_test_range(1, 256) : 0;
        hb_plan *plan = NULL;
        HB_CHECK_STATUS(hb_plan_create_hines_uniform(ctx, HB_DOUBLE, nsys, n, par, &o, &plan),
                        HB_SUCCESS);
        if (!plan) {
            free(par);
            continue;
        }
        int64_t *mono[BRANCH_TABLES], *gen[BRANCH_TABLES], nm[BRANCH_TABLES], ng[BRANCH_TABLES];
        const hb_branch_dev was = plan->br;
        read_tables(plan, mono, nm);
        int64_t *host_map = hb_test_xalloc((size_t)plan->nrows * sizeof *host_map);
        memcpy(host_map, plan->host_rowmap, (size_t)plan->nrows * sizeof *host_map);
        hb__branches_free(plan);
        hb_branch_options bo = {o.strategy == HB_STRATEGY_FINE_TREE ? o.group_size : 0,
                                o.split_branches, o.reroot, 1};
        HB_CHECK_STATUS(hb__branches_build(plan, par, &bo), HB_SUCCESS);
        read_tables(plan, gen, ng);
        const hb_branch_dev *now = &plan->br;
        HB_CHECK(was.nbranches == now->nbranches && was.nsegments == now->nsegments &&
                     was.ngroups == now->ngroups && was.length == now->length &&
                     was.max_seg_branches == now->max_seg_branches,
                 "round %d (%lld cells of %lld rows, %s, group %d, reroot %d, split %d): "
                 "counts %lld/%lld %lld/%lld %lld/%lld %lld/%lld %lld/%lld",
                 round, (long long)nsys, (long long)n, hb_strategy_name(o.strategy),
                 (int)o.group_size, (int)o.reroot, (int)o.split_branches,
                 (long long)was.nbranches, (long long)now->nbranches, (long long)was.nsegments,
                 (long long)now->nsegments, (long long)was.ngroups, (long long)now->ngroups,
                 (long long)was.length, (long long)now->length, (long long)was.max_seg_branches,
                 (long long)now->max_seg_branches);
        for (int i = 0; i < BRANCH_TABLES; ++i) {
            int same = nm[i] == ng[i] && !memcmp(mono[i], gen[i], (size_t)nm[i] * sizeof **mono);
            HB_CHECK(same, "round %d (%lld cells of %lld rows, %s, group %d, reroot %d, split %d): "
                           "%s differs (%lld / %lld entries)",
                     round, (long long)nsys, (long long)n, hb_strategy_name(o.strategy),
                     (int)o.group_size, (int)o.reroot, (int)o.split_branches, names[i],
                     (long long)nm[i], (long long)ng[i]);
            free(mono[i]);
            free(gen[i]);
        }
        HB_CHECK(!memcmp(host_map, plan->host_rowmap, (size_t)plan->nrows * sizeof *host_map),
                 "round %d: the host row maps differ", round);
        free(host_map);
        hb_plan_destroy(plan);
        free(par);
    }
}

/* Index formula of branch layouts: hb_plan_index names where each row went;
 * on host backends the native buffer shows it directly. */
static void branch_index(hb_context *ctx)
{
    hb_oracle_batch b;
    make_batch(&b, HB_DOUBLE, 40, 200, 0, 1.0);
    hb_plan_options o;
    hb_plan_options_init(&o);
    o.strategy = HB_STRATEGY_BRANCH_LEVEL;
    hb_plan *plan = NULL;
    if (hb_oracle_plan_create(ctx, &b, &o, 0, &plan) == HB_SUCCESS) {
        HB_CHECK_STATUS(hb_plan_set(plan, HB_ARRAY_RHS, b.rhs), HB_SUCCESS);
        int64_t base[40];
        HB_CHECK_STATUS(hb_plan_system_bases(plan, base), HB_ERR_INVALID_ARGUMENT);
        void *native = NULL;
        HB_CHECK_STATUS(hb_plan_buffer(plan, HB_ARRAY_RHS, &native), HB_SUCCESS);
        if (hb_test_on_host(ctx) && native) {
            int bad = 0;
            for (int64_t s = 0; s < b.nsys; ++s)
                for (int64_t i = 0; i < b.off[s + 1] - b.off[s]; ++i) {
                    int64_t idx = -1;
                    hb_plan_index(plan, s, i, &idx);
                    bad += ((double *)native)[idx] != ((double *)b.rhs)[b.off[s] + i];
                }
            HB_CHECK(bad == 0, "%d rows not at hb_plan_index in the branch layout", bad);
        }
        hb_plan_destroy(plan);
    }
    hb_oracle_free(&b);
}

/* Re-rooting a caterpillar (a path with a leaf on every inner node) rooted
 * at one end must cut its depth in branches about in half. */
static void reroot_caterpillar(hb_context *ctx)
{
    enum { N = 41 };
    int32_t par[N];
    par[0] = -1;
    for (int k = 1; k < N; ++k)
        par[k] = k % 2 ? (int32_t)(k > 1 ? k - 2 : 0) : (int32_t)(k - 1);
    int64_t levels[2] = {0, 0};
    for (int rr = 0; rr < 2; ++rr) {
        hb_plan_options o;
        hb_plan_options_init(&o);
        o.strategy = HB_STRATEGY_BRANCH_LEVEL;
        o.reroot = rr;
        hb_plan *plan = NULL;
        HB_CHECK_STATUS(hb_plan_create_hines_uniform(ctx, HB_DOUBLE, 2, N, par, &o, &plan),
                        HB_SUCCESS);
        if (plan) {
            hb_plan_info in = hb_test_plan_info(plan);
            levels[rr] = in.nlevels;
            HB_CHECK(in.rerooted == rr, "caterpillar: rerooted %d, asked %d", (int)in.rerooted, rr);
        }
        hb_plan_destroy(plan);
    }
    HB_CHECK(levels[1] > 0 && levels[1] * 2 <= levels[0] + 2,
             "re-rooting the caterpillar: %lld levels, %lld without", (long long)levels[1],
             (long long)levels[0]);
}

/* Strategy misuse and HINESBATCH_STRATEGY. */
static void misuse(hb_context *ctx)
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
    HB_CHECK(plan && hb_test_plan_info(plan).strategy == HB_STRATEGY_FINE_TREE,
             "HINESBATCH_STRATEGY not applied: %s", plan ? hb_plan_describe(plan) : "");
    hb_plan_destroy(plan);
    plan = NULL;
    setenv("HINESBATCH_STRATEGY", "sideways", 1);
    HB_CHECK_STATUS(hb_plan_create_hines_uniform(ctx, HB_FLOAT, 3, 5, par, NULL, &plan),
                    HB_ERR_INVALID_ARGUMENT);
    HB_CHECK(strstr(hb_last_error(), "sideways") != NULL, "message lacks the value: %s",
             hb_last_error());
    unsetenv("HINESBATCH_STRATEGY");
    /* auto_estimate is 0 or 1, and so is HINESBATCH_AUTO_ESTIMATE. */
    hb_plan_options_init(&o);
    o.auto_estimate = 2;
    HB_CHECK_STATUS(hb_plan_create_hines_uniform(ctx, HB_FLOAT, 3, 5, par, &o, &plan),
                    HB_ERR_INVALID_ARGUMENT);
    HB_CHECK(plan == NULL && strstr(hb_last_error(), "auto_estimate") != NULL,
             "auto_estimate = 2: %s", hb_last_error());
    o.auto_estimate = 1;
    setenv("HINESBATCH_AUTO_ESTIMATE", "yes", 1);
    HB_CHECK_STATUS(hb_plan_create_hines_uniform(ctx, HB_FLOAT, 3, 5, par, &o, &plan),
                    HB_ERR_INVALID_ARGUMENT);
    HB_CHECK(plan == NULL && strstr(hb_last_error(), "HINESBATCH_AUTO_ESTIMATE='yes'") != NULL,
             "HINESBATCH_AUTO_ESTIMATE=yes: %s", hb_last_error());
    setenv("HINESBATCH_AUTO_ESTIMATE", "0", 1);
    HB_CHECK_STATUS(hb_plan_create_hines_uniform(ctx, HB_FLOAT, 3, 5, par, &o, &plan),
                    HB_SUCCESS);
    hb_plan_destroy(plan);
    unsetenv("HINESBATCH_AUTO_ESTIMATE");
}

int main(void)
{
    hb_test_begin("test_strategies");
    auto_rule();
    auto_model();
    auto_candidates();
    hb_context *ctx = hb_test_context(), *oracle = hb_test_oracle();
    auto_measure(ctx, oracle);
    mono_tables_same(ctx);
    against_oracle(ctx, oracle);
    branch_index(ctx);
    reroot_caterpillar(ctx);
    misuse(ctx);
    hb_context_destroy(ctx);
    hb_context_destroy(oracle);
    return hb_test_finish();
}
