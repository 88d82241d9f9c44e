/* test_coop_local.c: the resident cooperative tridiagonal solver (whole systems in local memory, several per work-group, or one long system alone in a group's whole local memory) against the serial oracle: forced and default group sizes, many systems per group, uniform and variable batches down to 1 row, long systems, badly scaled and near-singular rows, float and double; and that hb_plan_get_info/hb_plan_describe name the variant that runs (resident where a system fits the local memory allowed, staged past it). */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv */
#define HB_CORE_INTERNALS /* a white-box test of the core's rule */
#include "hb_oracle_runner.h"
#include "hb_plan.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Short systems: many per group (n = 1, 2, 3 with one work-item each),
 * uniform and variable (1..max rows), sizes that are multiples of nothing. */
static const hb_oracle_shape shapes[] = {
    {"300 systems of 1 row", 300, 1, 1, 0},
    {"257 systems of 2 rows", 257, 2, 2, 0},
    {"130 systems of 3 rows", 130, 3, 3, 0},
    {"200 systems of 64 rows", 200, 64, 64, 0},
    {"67 systems of 97 rows", 67, 97, 97, 0},
    {"21 systems of 512 rows", 21, 512, 512, 0},
    {"301 systems of 1..40 rows", 301, 1, 40, 0},
    {"90 systems of 1..300 rows", 90, 1, 300, 0},
    {"9 systems of 700..1000 rows", 9, 700, 1000, 0},
};
/* 0: the library's rule; then forced work-items per system, one not a power
 * of two, one past every short system's chunks. */
static const int32_t groups[] = {0, 1, 3, 16, 64};

static hb_plan_options coop_options(int32_t group)
{
    return hb_oracle_options(HB_STRATEGY_COOPERATIVE, group);
}

static int64_t batch_max(const hb_oracle_batch *bt)
{
    int64_t m = 0;
    for (int64_t s = 0; s < bt->nsys; ++s)
        if (bt->off[s + 1] - bt->off[s] > m)
            m = bt->off[s + 1] - bt->off[s];
    return m;
}

/* Long systems (past 48 KiB in both precisions at the default rule), run
 * by whichever variant the device holds: resident alone in a group where its
 * local memory allows, else staged. */
static const hb_oracle_shape long_shapes[] = {
    {"3 systems of 4096 rows", 3, 4096, 4096, 0},
    {"5 systems of 1500..6000 rows", 5, 1500, 6000, 0},
    /* 1,024 work-items of 8 doubles on an H200, past what the kernel's
     * registers allow one group there: the plan must keep within that. */
    {"2 systems of 8192 rows", 2, 8192, 8192, 0},
};

/* The plan of a batch of nsys systems of at most max_rows rows and what it
 * says: resident or not as expected (-1: either); resident groups within the
 * 48 KiB budget, or one system alone within `alone` bytes (0: any); local
 * memory 3 x S x P x LD reals (a, c, d over the diagonal), LD the longest
 * chunk (at least 3) made odd; the description naming the variant and its
 * numbers. */
static void check_variant(const hb_plan *plan, int64_t nsys, int64_t max_rows, hb_precision p,
                          int32_t group, int resident, int64_t alone, const char *what)
{
    hb_plan_info in;
    memset(&in, 0, sizeof in);
    HB_CHECK_STATUS(hb_plan_get_info(plan, &in), HB_SUCCESS);
    const char *ds = hb_plan_describe(plan);
    HB_CHECK(in.strategy == HB_STRATEGY_COOPERATIVE &&
                 (resident < 0 ? in.resident == 0 || in.resident == 1 : in.resident == resident),
             "%s: resident %d, expected %d (%s)", what, (int)in.resident, resident, ds);
    HB_CHECK(group <= 0 || in.group_size == group, "%s: group_size %d, asked %d (%s)", what,
             (int)in.group_size, (int)group, ds);
    const int64_t esize = p == HB_DOUBLE ? 8 : 4;
    char want[160];
    if (in.resident) {
        const int64_t S = in.systems_per_group, P = in.group_size;
        const int64_t unit = 3 * S * P * esize;
        const int64_t ld = unit > 0 ? in.local_bytes / unit : 0;
        const int64_t chunk = (max_rows + P - 1) / P, c3 = chunk < 3 ? 3 : chunk;
        const int within = in.local_bytes <= 48 * 1024 ||
                           (S == 1 && (alone == 0 || in.local_bytes <= alone));
        HB_CHECK(S >= 1 && S <= nsys && within && unit > 0 &&
                     in.local_bytes % unit == 0 && ld == (c3 | 1),
                 "%s: %lld systems x %lld work-items, %lld bytes local (%s)", what, (long long)S,
                 (long long)P, (long long)in.local_bytes, ds);
        HB_CHECK(in.ngroups == (nsys + S - 1) / S, "%s: %lld groups for %lld systems of %lld (%s)",
                 what, (long long)in.ngroups, (long long)nsys, (long long)S, ds);
        snprintf(want, sizeof want, "resident: %d system%s x %d work-items per group",
                 (int)in.systems_per_group, in.systems_per_group == 1 ? "" : "s",
                 (int)in.group_size);
    } else {
        HB_CHECK(in.systems_per_group == 1 && in.ngroups == nsys, "%s: staged, %d systems per "
                 "group, %lld groups (%s)", what, (int)in.systems_per_group,
                 (long long)in.ngroups, ds);
        snprintf(want, sizeof want, "staged: %d work-items per system", (int)in.group_size);
    }
    HB_CHECK(strstr(ds, want) != NULL, "%s: the description lacks \"%s\": %s", what, want, ds);
}

static void near_singular(hb_context *ctx, hb_precision p, int32_t group)
{
    hb_oracle_batch bt;
    hb_oracle_tridiag_hard(&bt, p, 150, 1, 200, 0, 1);
    hb_plan_options o = coop_options(group);
    hb_plan *plan = NULL;
    char what[160];
    snprintf(what, sizeof what, "%s near-singular batch, group %d", hb_test_precision_name(p),
             (int)group);
    if (hb_oracle_plan_create(ctx, &bt, &o, 0, &plan) == HB_SUCCESS) {
        check_variant(plan, bt.nsys, batch_max(&bt), p, group, 1, 0, what);
        void *x = hb_test_alloc(p, bt.nrows);
        hb_oracle_plan_set(plan, &bt);
        hb_oracle_plan_finish(plan, &bt, x);
        int64_t worst = -1;
        double r = hb_test_tridiag_ratio(p, bt.nsys, bt.off, bt.m[0], bt.m[1], bt.m[2], x, bt.rhs,
                                         &worst);
        /* The bound of test_coop's near-singular batches (10x LAPACK's 30):
         * the chunked elimination's weaker backward error on barely dominant
         * systems. */
        HB_CHECK(r < 10 * HB_TEST_RATIO_MAX, "%s: residual ratio %g (system %lld)", what, r,
                 (long long)worst);
        free(x);
        hb_plan_destroy(plan);
    }
    hb_oracle_free(&bt);
}

/* The rule (hb__coop_resident) on devices it never sees here: an H200's
 * 227 KiB per group, a K80/P100's 48 KiB, with and without a limit for one
 * system alone; short systems keep several per group within 48 KiB. */
static void resident_rule(void)
{
    hb_device_traits h200, k80;
    memset(&h200, 0, sizeof h200);
    h200.is_gpu = h200.has_double = 1;
    h200.local_mem = 232448;
    h200.max_group = 1024;
    h200.compute_units = 132;
    hb_device_traits h256 = h200, h512 = h200;
    h256.max_group = 256;
    /* The plan's traits where the kernel's registers allow 512 threads per
     * block (plan.c lowers max_group to the kernel's own limit). */
    h512.max_group = 512;
    k80 = h200;
    k80.local_mem = 49152;
    k80.compute_units = 13;
    const struct {
        const hb_device_traits *dev;
        int64_t nsys, rows;
        size_t esize, alone;
        int fits;
        int32_t P, S, LD;
    } cases[] = {
        {&h200, 20, 4096, 8, 0, 1, 512, 1, 9},       /* alone: 8 doubles each, 110,592 B */
        {&h200, 20000, 4096, 8, 0, 1, 512, 1, 9},    /* many systems: the same */
        {&h200, 20, 4096, 8, 49152, 0, 0, 0, 0},     /* the rule before: staged */
        {&h200, 20, 4096, 8, 110591, 1, 256, 1, 17}, /* 512 too many: 256, 104,448 B */
        {&h200, 20, 4096, 8, 104448, 1, 256, 1, 17}, /* a limit at exactly its need */
        {&h200, 20, 4096, 8, 104447, 0, 0, 0, 0},    /* ... and one byte short */
        {&h200, 20, 8192, 8, 0, 1, 1024, 1, 9},      /* 221,184 B: fits in 227 KiB */
        {&h200, 20, 16384, 8, 0, 0, 0, 0, 0},        /* 442,368 or 417,792 B: staged */
        {&h200, 20, 8192, 4, 0, 1, 512, 1, 17},      /* float: 16 rows each, 104,448 B */
        {&h200, 2000, 4096, 4, 0, 1, 256, 1, 17},    /* float: 16 rows each, 52,224 B */
        {&h256, 20, 4096, 8, 0, 1, 256, 1, 17},      /* a 256-item device: 104,448 B */
        {&h256, 20, 8192, 8, 0, 1, 256, 1, 33},      /* ... 8,192 rows: 202,752 B */
        {&h512, 20, 8192, 8, 0, 1, 512, 1, 17},      /* a 512-item kernel: 208,896 B */
        {&h512, 20000, 64, 8, 0, 1, 8, 16, 9},       /* short: as on the whole device */
        {&h200, 20, 5000, 8, 0, 1, 512, 1, 11},      /* >= 8 rows each: 135,168 B */
        {&h200, 20, 1500, 8, 0, 1, 256, 1, 7},       /* never fewer than 256: 43,008 B */
        {&h200, 200, 2048, 8, 0, 1, 256, 1, 9},      /* 55,296 B */
        {&h200, 1000, 64, 8, 0, 1, 64, 2, 3},        /* short: two per group */
        {&h200, 20000, 64, 8, 0, 1, 8, 16, 9},       /* short: sixteen per group */
        {&k80, 20, 4096, 8, 0, 0, 0, 0, 0},          /* 48 KiB device: staged */
        {&k80, 20, 1024, 8, 0, 1, 256, 1, 5},        /* 30,720 B fits there */
        {&k80, 20, 1500, 8, 0, 1, 256, 1, 7},        /* and 43,008 B */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        hb_coop_resident r;
        memset(&r, 0, sizeof r);
        const int got = hb__coop_resident(cases[i].dev, cases[i].nsys, cases[i].rows,
                                          cases[i].esize, 0, cases[i].alone, &r);
        HB_CHECK(got == cases[i].fits &&
                     (!got || (r.group == cases[i].P && r.systems == cases[i].S &&
                               r.ld == cases[i].LD &&
                               r.local_bytes == (size_t)3 * (size_t)r.systems * (size_t)r.group *
                                                    (size_t)r.ld * cases[i].esize)),
                 "rule case %zu (%lld x %lld, %zu-byte reals, limit %zu): got %d, P %d, S %d, "
                 "LD %d, %zu B",
                 i, (long long)cases[i].nsys, (long long)cases[i].rows, cases[i].esize,
                 cases[i].alone, got, (int)r.group, (int)r.systems, (int)r.ld, r.local_bytes);
    }
}

/* A limit that is not a byte count in 1024 .. 2^30 fails every cooperative
 * plan, by name, and leaves no plan. */
static void bad_limits(hb_context *ctx)
{
    const char *const bad[] = {"0", "1023", "-5", "48k", "1073741825", "99999999999999999999"};
    hb_oracle_coop_env_refused(ctx, "HINESBATCH_COOP_RESIDENT_LIMIT", bad,
                               sizeof bad / sizeof bad[0]);
}

/* A plan's variant without solving, with HINESBATCH_COOP_RESIDENT_LIMIT at
 * alone bytes: resident below the budget, staged above (-1: either, by the
 * device's local memory). */
static void variant_only(hb_context *ctx, hb_precision p, int64_t nsys, int64_t n, int32_t group,
                         int resident, int64_t alone)
{
    char lim[32];
    snprintf(lim, sizeof lim, "%lld", (long long)alone);
    HB_CHECK(setenv("HINESBATCH_COOP_RESIDENT_LIMIT", lim, 1) == 0, "setenv");
    hb_plan_options o = coop_options(group);
    hb_plan *plan = NULL;
    char what[160];
    snprintf(what, sizeof what, "%s %lld x %lld rows, group %d", hb_test_precision_name(p),
             (long long)nsys, (long long)n, (int)group);
    HB_CHECK_STATUS(hb_plan_create_tridiag_uniform(ctx, p, nsys, n, &o, &plan), HB_SUCCESS);
    if (plan)
        check_variant(plan, nsys, n, p, group, resident, alone, what);
    hb_plan_destroy(plan);
    unsetenv("HINESBATCH_COOP_RESIDENT_LIMIT");
}

int main(void)
{
    hb_test_begin("test_coop_local");
    resident_rule();
    /* One group per system: the variants here are resident and staged
     * (test_coop_span covers systems spanning several groups). */
    HB_CHECK(setenv("HINESBATCH_COOP_SPAN", "1", 1) == 0, "setenv");
    /* Not the register kernel (CUDA), which would take every system of up
     * to 512 rows at the rule's group size: test_coop_warp has it. */
    HB_CHECK(setenv("HINESBATCH_COOP_WARP", "0", 1) == 0, "setenv");
    hb_context *ctx = hb_test_context(), *oracle = hb_test_oracle();
    if (!hb_oracle_coop_available(ctx)) { /* host backends (test_coop checks the refusal) */
        hb_context_destroy(oracle);
        hb_context_destroy(ctx);
        return hb_test_finish();
    }
    bad_limits(ctx);

    for (int ip = 0; ip < 2; ++ip) {
        const hb_precision p = ip ? HB_FLOAT : HB_DOUBLE;
        /* The default rule on systems of 64 rows (hb__coop_resident_rows_per_item:
         * 1, 4 or 8 rows per work-item as the batch grows): P work-items per
         * system, S systems per group of 128, chunks at stride LD (odd, >= 3):
         * 3 x S x P x LD reals. */
        static const struct {
            int64_t nsys;
            int32_t P, S, LD;
        } rule[] = {{1000, 64, 2, 3}, {4000, 16, 8, 5}, {20000, 8, 16, 9}};
        for (size_t r = 0; r < sizeof rule / sizeof rule[0]; ++r) {
            hb_plan_options o = coop_options(0);
            hb_plan *plan = NULL;
            HB_CHECK_STATUS(hb_plan_create_tridiag_uniform(ctx, p, rule[r].nsys, 64, &o, &plan),
                            HB_SUCCESS);
            hb_plan_info in;
            memset(&in, 0, sizeof in);
            const int64_t S = rule[r].S;
            if (plan && hb_plan_get_info(plan, &in) == HB_SUCCESS)
                HB_CHECK(in.resident && in.group_size == rule[r].P && in.systems_per_group == S &&
                             in.ngroups == (rule[r].nsys + S - 1) / S &&
                             in.local_bytes == 3 * S * rule[r].P * rule[r].LD *
                                                   (p == HB_DOUBLE ? 8 : 4),
                         "%lld x 64: %s", (long long)rule[r].nsys, hb_plan_describe(plan));
            hb_plan_destroy(plan);
        }
        /* Long systems: 4,096 rows at the default rule (256 work-items,
         * chunks of 16 at stride 17: 3 x 256 x 17 reals, past 48 KiB in both
         * precisions) and 6,000 rows over 16 work-items (stride 375). With
         * one system alone held to 48 KiB (the rule before) both are staged;
         * at 150,000 bytes 4,096 rows (104,448 B in double) and 6,000
         * (144,000 B in double) may run resident where the device holds them,
         * 20,000 (at least 1,024 work-items at stride 21 where the device
         * allows, else stride 79: over 240,000 B) may not. 1,024 rows fit
         * 48 KiB (stride 5). */
        const int64_t esz = p == HB_DOUBLE ? 8 : 4;
        variant_only(ctx, p, 3, 20000, 0, 0, 48 * 1024);
        variant_only(ctx, p, 3, 4096, 0, 0, 48 * 1024);
        variant_only(ctx, p, 3, 6000, 16, 0, 48 * 1024);
        variant_only(ctx, p, 3, 20000, 0, 0, 150000);
        variant_only(ctx, p, 3, 4096, 0, -1, 150000);
        variant_only(ctx, p, 3, 6000, 16, 3 * 16 * 375 * esz <= 150000 ? -1 : 0, 150000);
        variant_only(ctx, p, 5, 1024, 0, 1, 48 * 1024);
        variant_only(ctx, p, 1, 1, 0, 1, 48 * 1024);

        /* Long systems against the oracle, by whichever variant runs. */
        for (size_t j = 0; j < sizeof long_shapes / sizeof long_shapes[0]; ++j) {
            char name[200], what[300];
            snprintf(name, sizeof name, "%s %s", hb_test_precision_name(p), long_shapes[j].name);
            hb_oracle_batch bt;
            hb_oracle_make(&bt, &hb_oracle_tridiag, p, &long_shapes[j], 1.0);
            hb_oracle_reference(&bt, oracle, NULL, name);
            for (size_t g = 0; g < sizeof groups / sizeof groups[0]; ++g) {
                if (groups[g] == 1)
                    continue; /* one work-item walking 6,000 rows: test_coop has it */
                hb_plan_options o = coop_options(groups[g]);
                snprintf(what, sizeof what, "long(group %d) %s", (int)groups[g], name);
                hb_plan *plan = NULL;
                if (hb_oracle_plan_create(ctx, &bt, &o, 0, &plan) == HB_SUCCESS) {
                    check_variant(plan, bt.nsys, batch_max(&bt), p, groups[g], -1, 0, what);
                    hb_plan_destroy(plan);
                }
                hb_oracle_plan(ctx, &bt, &o, 0, NULL, what);
            }
            hb_oracle_free(&bt);
        }

        for (size_t j = 0; j < sizeof shapes / sizeof shapes[0]; ++j) {
            const hb_oracle_shape *sh = &shapes[j];
            const double scales[3] = {1.0, p == HB_DOUBLE ? 1e-300 : 1e-30,
                                      p == HB_DOUBLE ? 1e300 : 1e30};
            for (int k = 0; k < 3; ++k) {
                char name[200], what[300];
                snprintf(name, sizeof name, "%s %s scaled by %g", hb_test_precision_name(p),
                         sh->name, scales[k]);
                hb_oracle_batch bt;
                hb_oracle_make(&bt, &hb_oracle_tridiag, p, sh, scales[k]);
                hb_oracle_reference(&bt, oracle, NULL, name);
                for (size_t g = 0; g < sizeof groups / sizeof groups[0]; ++g) {
                    if (k && groups[g] != 0 && groups[g] != 3)
                        continue; /* scaled: the rule's group and one other */
                    hb_plan_options o = coop_options(groups[g]);
                    for (int uni = 0; uni <= bt.uniform; ++uni) {
                        snprintf(what, sizeof what, "resident(group %d) %s%s", (int)groups[g],
                                 name, uni ? " (uniform create)" : "");
                        hb_plan *plan = NULL;
                        if (hb_oracle_plan_create(ctx, &bt, &o, uni, &plan) == HB_SUCCESS) {
                            check_variant(plan, bt.nsys, batch_max(&bt), p, groups[g], 1, 0,
                                          what);
                            hb_plan_destroy(plan);
                        }
                        hb_oracle_plan(ctx, &bt, &o, uni, NULL, what);
                    }
                }
                hb_oracle_free(&bt);
            }
        }
        /* Rows scaled by up to 10^(+-kmax), variable 1..400 rows. */
        {
            hb_oracle_batch bt;
            hb_oracle_tridiag_hard(&bt, p, 120, 1, 400, p == HB_DOUBLE ? 12 : 4, 0);
            char name[200];
            snprintf(name, sizeof name, "%s badly row-scaled batch", hb_test_precision_name(p));
            hb_oracle_reference(&bt, oracle, NULL, name);
            for (size_t g = 0; g < sizeof groups / sizeof groups[0]; ++g) {
                char what[300];
                snprintf(what, sizeof what, "resident(group %d) %s", (int)groups[g], name);
                hb_plan_options o = coop_options(groups[g]);
                hb_oracle_plan(ctx, &bt, &o, 0, NULL, what);
            }
            hb_oracle_free(&bt);
        }
        near_singular(ctx, p, 0);
        near_singular(ctx, p, 3);
    }
    hb_context_destroy(oracle);
    hb_context_destroy(ctx);
    return hb_test_finish();
}
