/* test_coop_warp.c: the register cooperative tridiagonal solver (CUDA: 1 to 32 lanes of a warp per system, its rows in registers) forced on (HINESBATCH_COOP_WARP=1) against the serial oracle: every rows-per-lane and lanes-per-system variant, uniform and variable batches down to 1 row, odd system counts, badly scaled and near-singular rows, float and double; when plans take it (HINESBATCH_COOP_WARP, group sizes, the size limit) and how they name it; elsewhere, that no plan claims it. */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv */
#define HB_CORE_INTERNALS         /* a white-box test of the core's rule */
#include "hb_backend.h"
#include "hb_oracle_runner.h"
#include "hb_plan.h"

#include <stdlib.h>
#include <string.h>

static hb_plan_options coop_options(int32_t group)
{
    return hb_oracle_options(HB_STRATEGY_COOPERATIVE, group);
}

/* The plan of nsys x n rows with group size group: the register kernel
 * with m rows per lane and w lanes per system (m = 0: another variant). */
static void expect(hb_context *ctx, hb_precision p, int64_t nsys, int64_t n, int32_t group,
                   int32_t m, int32_t w)
{
    hb_plan_options o = coop_options(group);
    hb_plan *plan = NULL;
    HB_CHECK_STATUS(hb_plan_create_tridiag_uniform(ctx, p, nsys, n, &o, &plan), HB_SUCCESS);
    if (!plan)
        return;
    hb_plan_info in;
    memset(&in, 0, sizeof in);
    HB_CHECK_STATUS(hb_plan_get_info(plan, &in), HB_SUCCESS);
    const char *ds = hb_plan_describe(plan);
    const char *what = hb_test_precision_name(p);
    if (m) {
        /* 32 / w systems per warp, two warps per group. */
        const int32_t s = 2 * (32 / w);
        char name[120];
        snprintf(name, sizeof name, "registers: %d systems x %d work-items per group, %d rows each",
                 (int)s, (int)w, (int)m);
        HB_CHECK(in.rows_per_item == m && in.group_size == w && in.resident == 1 &&
                     in.local_bytes == 0 && in.systems_per_group == s &&
                     in.ngroups == (nsys + s - 1) / s && strstr(ds, name) != NULL,
                 "%s %lld x %lld, group %d: expected the register kernel, %d x %d rows: %s", what,
                 (long long)nsys, (long long)n, (int)group, (int)w, (int)m, ds);
    } else {
        HB_CHECK(in.rows_per_item == 0 && strstr(ds, "registers") == NULL,
                 "%s %lld x %lld, group %d: expected another variant: %s", what, (long long)nsys,
                 (long long)n, (int)group, ds);
    }
    hb_plan_destroy(plan);
}

/* When plans take it, on a backend that has it (has) or not, forced on
 * (HINESBATCH_COOP_WARP=1: the rule's choice by batch size aside): 8 rows
 * per lane up to 256 rows, 16 up to 512, 32 up to 1,024 (float only), on
 * the fewest lanes (a power of two) that hold the system. */
static void choice(hb_context *ctx, int has)
{
    static const struct {
        int64_t n;
        int32_t m, w, float_only;
    } table[] = {
        {1, 8, 1, 0},     {8, 8, 1, 0},     {9, 8, 2, 0},      {31, 8, 4, 0},
        {33, 8, 8, 0},    {64, 8, 8, 0},    {65, 8, 16, 0},    {200, 8, 32, 0},
        {256, 8, 32, 0},  {257, 16, 32, 0}, {511, 16, 32, 0},  {512, 16, 32, 0},
        {513, 32, 32, 1}, {1000, 32, 32, 1}, {1024, 32, 32, 1}, {1025, 0, 0, 1},
    };
    HB_CHECK(setenv("HINESBATCH_COOP_WARP", "1", 1) == 0, "setenv");
    for (int ip = 0; ip < 2; ++ip) {
        const hb_precision p = ip ? HB_FLOAT : HB_DOUBLE;
        for (size_t k = 0; k < sizeof table / sizeof table[0]; ++k) {
            const int fits = has && (p == HB_FLOAT || !table[k].float_only) && table[k].m;
            expect(ctx, p, 7, table[k].n, 0, fits ? table[k].m : 0, table[k].w);
            expect(ctx, p, 7, table[k].n, 16, 0, 0); /* a group size asked: another kernel */
        }
        HB_CHECK(setenv("HINESBATCH_COOP_WARP", "0", 1) == 0, "setenv");
        expect(ctx, p, 7, 64, 0, 0, 0);
        /* A span asked for is another variant. */
        HB_CHECK(setenv("HINESBATCH_COOP_WARP", "1", 1) == 0, "setenv");
        HB_CHECK(setenv("HINESBATCH_COOP_SPAN", "2", 1) == 0, "setenv");
        expect(ctx, p, 7, 64, 0, 0, 0);
        unsetenv("HINESBATCH_COOP_SPAN");
    }
    const char *const bad[] = {"2", "-1", "yes", "01", " 1"};
    hb_oracle_coop_env_refused(ctx, "HINESBATCH_COOP_WARP", bad, sizeof bad / sizeof bad[0]);
    /* The refusals unset it: forced on again for the solves. */
    HB_CHECK(setenv("HINESBATCH_COOP_WARP", "1", 1) == 0, "setenv");
}

/* The rule (hb__coop_warp_rule) on an H200's 132 compute units and on a
 * device that does not say: double systems of up to 256 rows, float ones of
 * up to 512, longer floats from 16 systems per compute unit (2,112). */
static void rule(void)
{
    hb_device_traits h200, unknown;
    memset(&h200, 0, sizeof h200);
    h200.is_gpu = h200.has_double = 1;
    h200.compute_units = 132;
    unknown = h200;
    unknown.compute_units = 0;
    static const struct {
        int unknown;
        size_t esize;
        int64_t nsys, rows;
        int want;
    } cases[] = {
        {0, 8, 256, 1, 1},      {0, 8, 256000, 256, 1}, {0, 8, 20, 257, 0},
        {0, 8, 256000, 512, 0}, {0, 4, 20, 512, 1},     {0, 4, 256000, 512, 1},
        {0, 4, 2111, 1024, 0},  {0, 4, 2112, 1024, 1},  {0, 4, 20, 513, 0},
        {1, 4, 100000, 1024, 0}, {1, 4, 100000, 512, 1}, {1, 8, 100000, 64, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        const int got = hb__coop_warp_rule(cases[i].unknown ? &unknown : &h200, cases[i].esize,
                                           cases[i].nsys, cases[i].rows);
        HB_CHECK(got == cases[i].want, "rule case %zu (%lld x %lld, %zu-byte reals%s): %d",
                 i, (long long)cases[i].nsys, (long long)cases[i].rows, cases[i].esize,
                 cases[i].unknown ? ", compute units unknown" : "", got);
    }
}

/* Left to the rule (HINESBATCH_COOP_WARP unset), plans follow it. */
static void by_rule(hb_context *ctx, int has)
{
    unsetenv("HINESBATCH_COOP_WARP");
    const int64_t sizes[][2] = {{300, 64}, {300, 256}, {300, 300}, {300, 512}, {5000, 1024},
                                {30, 1024}};
    for (int ip = 0; ip < 2; ++ip) {
        const hb_precision p = ip ? HB_FLOAT : HB_DOUBLE;
        const size_t es = p == HB_DOUBLE ? 8 : 4;
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; ++k) {
            const int64_t nsys = sizes[k][0], n = sizes[k][1];
            int32_t m = 0, w = 0;
            const int on = has && hb__coop_warp_shape(es, n, &m, &w) &&
                           hb__coop_warp_rule(&ctx->traits, es, nsys, n);
            expect(ctx, p, nsys, n, 0, on ? m : 0, w);
        }
    }
    HB_CHECK(setenv("HINESBATCH_COOP_WARP", "1", 1) == 0, "setenv");
}

/* Every variant: 8 and 16 (and in float 32) rows per lane, 1 to 32 lanes per
 * system; odd system counts (a warp's last systems and a block's last warp
 * idle), one system alone, variable batches with 1-row systems among long
 * ones (the longest sets the lanes per system). */
static const hb_oracle_shape shapes[] = {
    {"1 system of 1 row", 1, 1, 1, 0},
    {"301 systems of 1 row", 301, 1, 1, 0},
    {"257 systems of 2 rows", 257, 2, 2, 0},
    {"130 systems of 3 rows", 130, 3, 3, 0},
    {"99 systems of 32 rows", 99, 32, 32, 0},
    {"101 systems of 33 rows", 101, 33, 33, 0},
    {"200 systems of 64 rows", 200, 64, 64, 0},
    {"67 systems of 97 rows", 67, 97, 97, 0},
    {"45 systems of 255 rows", 45, 255, 255, 0},
    {"33 systems of 300 rows", 33, 300, 300, 0},
    {"21 systems of 512 rows", 21, 512, 512, 0},
    {"1 system of 512 rows", 1, 512, 512, 0},
    {"301 systems of 1..40 rows", 301, 1, 40, 0},
    {"90 systems of 1..300 rows", 90, 1, 300, 0},
    {"77 systems of 1..512 rows", 77, 1, 512, 0},
};
/* Float only: 32 rows per lane. */
static const hb_oracle_shape float_shapes[] = {
    {"33 systems of 1024 rows", 33, 1024, 1024, 0},
    {"40 systems of 500..1024 rows", 40, 500, 1024, 0},
};

static void solve_shape(hb_context *ctx, hb_context *oracle, hb_precision p,
                        const hb_oracle_shape *sh)
{
    const double scales[3] = {1.0, p == HB_DOUBLE ? 1e-300 : 1e-30,
                              p == HB_DOUBLE ? 1e300 : 1e30};
    for (int k = 0; k < 3; ++k) {
        char name[200], what[300];
        snprintf(name, sizeof name, "%s %s scaled by %g", hb_test_precision_name(p), sh->name,
                 scales[k]);
        hb_oracle_batch bt;
        hb_oracle_make(&bt, &hb_oracle_tridiag, p, sh, scales[k]);
        hb_oracle_reference(&bt, oracle, NULL, name);
        hb_plan_options o = coop_options(0);
        for (int uni = 0; uni <= bt.uniform; ++uni) {
            snprintf(what, sizeof what, "registers %s%s", name, uni ? " (uniform create)" : "");
            hb_oracle_plan(ctx, &bt, &o, uni, NULL, what);
        }
        hb_oracle_free(&bt);
    }
}

static void hard(hb_context *ctx, hb_context *oracle, hb_precision p)
{
    const int64_t max = HB_COOP_WARP_MAX_ROWS(p == HB_DOUBLE ? 8 : 4);
    hb_plan_options o = coop_options(0);
    /* Rows scaled by up to 10^(+-kmax): the same solution as unscaled. */
    hb_oracle_batch bt;
    hb_oracle_tridiag_hard(&bt, p, 120, 1, max, p == HB_DOUBLE ? 12 : 4, 0);
    char what[200];
    snprintf(what, sizeof what, "registers: %s badly row-scaled batch", hb_test_precision_name(p));
    hb_oracle_reference(&bt, oracle, NULL, what);
    hb_oracle_plan(ctx, &bt, &o, 0, NULL, what);
    hb_oracle_free(&bt);
    /* Barely dominant rows: the residual alone, at test_coop's bound (10x
     * LAPACK's 30: the chunked elimination's weaker backward error). */
    hb_oracle_tridiag_hard(&bt, p, 150, 1, max, 0, 1);
    snprintf(what, sizeof what, "registers: %s near-singular batch", hb_test_precision_name(p));
    hb_oracle_residual_only(ctx, &bt, &o, 10 * HB_TEST_RATIO_MAX, what);
    hb_oracle_free(&bt);
}

int main(void)
{
    hb_test_begin("test_coop_warp");
    rule();
    unsetenv("HINESBATCH_COOP_WARP");
    unsetenv("HINESBATCH_COOP_SPAN");
    hb_context *ctx = hb_test_context(), *oracle = hb_test_oracle();
    if (!hb_oracle_coop_available(ctx)) { /* host backends */
        hb_context_destroy(oracle);
        hb_context_destroy(ctx);
        return hb_test_finish();
    }
    const int has = hb_context_backend(ctx) == HB_BACKEND_CUDA;
    choice(ctx, has);
    by_rule(ctx, has);
    if (has) {
        for (int ip = 0; ip < 2; ++ip) {
            const hb_precision p = ip ? HB_FLOAT : HB_DOUBLE;
            for (size_t j = 0; j < sizeof shapes / sizeof shapes[0]; ++j)
                solve_shape(ctx, oracle, p, &shapes[j]);
            for (size_t j = 0; p == HB_FLOAT && j < sizeof float_shapes / sizeof float_shapes[0];
                 ++j)
                solve_shape(ctx, oracle, p, &float_shapes[j]);
            hard(ctx, oracle, p);
        }
    }
    hb_context_destroy(oracle);
    hb_context_destroy(ctx);
    return hb_test_finish();
}
