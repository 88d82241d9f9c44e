/* test_coop_local.c: the resident cooperative tridiagonal solver (whole systems in local memory, several per work-group) against the serial oracle: forced and default group sizes, many systems per group, uniform and variable batches down to 1 row, badly scaled and near-singular rows, float and double; and that hb_plan_get_info/hb_plan_describe name the variant that runs (resident for short systems, staged for long ones). */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "hb_oracle_runner.h"

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

/* The plan of a batch of nsys systems of at most max_rows rows and what it
 * says: resident or not as expected; resident groups within the 48 KiB
 * budget, local memory 4 x S x P x LD reals with LD odd, >= 3 and >= the
 * longest chunk; the description naming the variant and its numbers. */
static void check_variant(const hb_plan *plan, int64_t nsys, int64_t max_rows, hb_precision p,
                          int32_t group, int resident, const char *what)
{
    hb_plan_info in;
    memset(&in, 0, sizeof in);
    HB_CHECK_STATUS(hb_plan_get_info(plan, &in), HB_SUCCESS);
    const char *ds = hb_plan_describe(plan);
    HB_CHECK(in.strategy == HB_STRATEGY_COOPERATIVE && in.resident == resident,
             "%s: resident %d, expected %d (%s)", what, (int)in.resident, resident, ds);
    HB_CHECK(group <= 0 || in.group_size == group, "%s: group_size %d, asked %d (%s)", what,
             (int)in.group_size, (int)group, ds);
    const int64_t esize = p == HB_DOUBLE ? 8 : 4;
    char want[160];
    if (resident) {
        const int64_t S = in.systems_per_group, P = in.group_size;
        const int64_t unit = 4 * S * P * esize;
        const int64_t ld = unit > 0 ? in.local_bytes / unit : 0;
        const int64_t chunk = (max_rows + P - 1) / P;
        HB_CHECK(S >= 1 && S <= nsys && in.local_bytes <= 48 * 1024 && unit > 0 &&
                     in.local_bytes % unit == 0 && ld % 2 == 1 && ld >= 3 && ld >= chunk &&
                     ld <= (chunk < 3 ? 3 : chunk) + 1,
                 "%s: %lld systems x %lld work-items, %lld bytes local (%s)", what, (long long)S,
                 (long long)P, (long long)in.local_bytes, ds);
        HB_CHECK(in.ngroups == (nsys + S - 1) / S, "%s: %lld groups for %lld systems of %lld (%s)",
                 what, (long long)in.ngroups, (long long)nsys, (long long)S, ds);
        snprintf(want, sizeof want, "resident: %d systems x %d work-items per group",
                 (int)in.systems_per_group, (int)in.group_size);
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
        check_variant(plan, bt.nsys, batch_max(&bt), p, group, 1, what);
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

/* A plan's variant without solving: resident below the budget, staged above. */
static void variant_only(hb_context *ctx, hb_precision p, int64_t nsys, int64_t n, int32_t group,
                         int resident)
{
    hb_plan_options o = coop_options(group);
    hb_plan *plan = NULL;
    char what[160];
    snprintf(what, sizeof what, "%s %lld x %lld rows, group %d", hb_test_precision_name(p),
             (long long)nsys, (long long)n, (int)group);
    HB_CHECK_STATUS(hb_plan_create_tridiag_uniform(ctx, p, nsys, n, &o, &plan), HB_SUCCESS);
    if (plan)
        check_variant(plan, nsys, n, p, group, resident, what);
    hb_plan_destroy(plan);
}

int main(void)
{
    hb_test_begin("test_coop_local");
    /* One group per system: the variants here are resident and staged
     * (test_coop_span covers systems spanning several groups). */
    HB_CHECK(setenv("HINESBATCH_COOP_SPAN", "1", 1) == 0, "setenv");
    hb_context *ctx = hb_test_context(), *oracle = hb_test_oracle();
    hb_plan *probe = NULL;
    hb_plan_options po = coop_options(0);
    hb_status ps = hb_plan_create_tridiag_uniform(ctx, HB_DOUBLE, 2, 10, &po, &probe);
    hb_plan_destroy(probe);
    if (ps == HB_ERR_BACKEND_UNAVAILABLE) {
        /* Host backends lack the cooperative solvers (test_coop checks the
         * refusal). */
        HB_CHECK(hb_test_on_host(ctx), "a GPU backend lacks the cooperative solver: %s",
                 hb_last_error());
        hb_context_destroy(oracle);
        hb_context_destroy(ctx);
        return hb_test_finish();
    }
    HB_CHECK_STATUS(ps, HB_SUCCESS);

    for (int ip = 0; ip < 2; ++ip) {
        const hb_precision p = ip ? HB_FLOAT : HB_DOUBLE;
        /* The default rule on systems of 64 rows (hb__coop_resident_rows_per_item:
         * 1, 4 or 8 rows per work-item as the batch grows): P work-items per
         * system, S systems per group of 128, chunks at stride LD (odd, >= 3):
         * 4 x S x P x LD reals. */
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
                             in.local_bytes == 4 * S * rule[r].P * rule[r].LD *
                                                   (p == HB_DOUBLE ? 8 : 4),
                         "%lld x 64: %s", (long long)rule[r].nsys, hb_plan_describe(plan));
            hb_plan_destroy(plan);
        }
        /* Long systems keep the staged kernel: 4,096 rows at the default
         * rule (256 work-items, chunks of 16 at stride 17: 4 x 256 x 17 reals,
         * past 48 KiB in both precisions), and any system whose group cannot
         * hold it (6,000 rows over 16 work-items). 1,024 rows fit (stride 5). */
        variant_only(ctx, p, 3, 20000, 0, 0);
        variant_only(ctx, p, 3, 4096, 0, 0);
        variant_only(ctx, p, 3, 6000, 16, 0);
        variant_only(ctx, p, 5, 1024, 0, 1);
        variant_only(ctx, p, 1, 1, 0, 1);

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
                            check_variant(plan, bt.nsys, batch_max(&bt), p, groups[g], 1, what);
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
