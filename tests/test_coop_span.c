/* test_coop_span.c: the cooperative solver's span variant (each system cut into G segments, one work-group each; HINESBATCH_COOP_SPAN forces G) on uniform and variable batches, short, badly scaled and near-singular systems, in both precisions, against the serial oracle; and how plans name it. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "hb_oracle_runner.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Around the segment rules: systems shorter than G segments of 2P rows
 * (n = 1, 2, 3, 5: one segment), exactly 2P x G, not a multiple of G or of
 * P, and variable batches whose systems span different numbers of groups. */
static const hb_oracle_shape shapes[] = {
    {"3 systems of 1 row", 3, 1, 1, 0},
    {"5 systems of 2 rows", 5, 2, 2, 0},
    {"4 systems of 3 rows", 4, 3, 3, 0},
    {"2 systems of 5 rows", 2, 5, 5, 0},
    {"3 systems of 512 rows", 3, 512, 512, 0},
    {"2 systems of 1001 rows", 2, 1001, 1001, 0},
    {"1 system of 8192 rows", 1, 8192, 8192, 0},
    {"2 systems of 20000 rows", 2, 20000, 20000, 0},
    {"40 systems of 1..9 rows", 40, 1, 9, 0},
    {"20 systems of 1..700 rows", 20, 1, 700, 0},
    {"8 systems of 1..20000 rows", 8, 1, 20000, 0},
};
/* Groups per system (3: not a power of two) and work-items per group
 * (0: the library's rule for the segment; 32: small groups, so that short
 * systems span too). */
static const int spans[] = {1, 2, 3, 4, 8};
static const int32_t groups[] = {0, 32};

static void set_span(int g)
{
    char v[16];
    snprintf(v, sizeof v, "%d", g);
    HB_CHECK(setenv("HINESBATCH_COOP_SPAN", v, 1) == 0, "setenv");
}

static hb_plan_options coop_options(int32_t group)
{
    return hb_oracle_options(HB_STRATEGY_COOPERATIVE, group);
}

/* What a plan says: G > 1 groups per system named in the description
 * ("span: G groups x P work-items per system") and as nsys x G groups in
 * hb_plan_get_info; G = 1 is the staged kernel, named as before. */
static void naming(hb_context *ctx)
{
    for (size_t i = 0; i < sizeof spans / sizeof spans[0]; ++i) {
        set_span(spans[i]);
        hb_plan_options o = coop_options(64);
        hb_plan *plan = NULL;
        HB_CHECK_STATUS(hb_plan_create_tridiag_uniform(ctx, HB_DOUBLE, 5, 4096, &o, &plan),
                        HB_SUCCESS);
        if (!plan)
            continue;
        hb_plan_info in;
        HB_CHECK_STATUS(hb_plan_get_info(plan, &in), HB_SUCCESS);
        char want[96];
        snprintf(want, sizeof want, "span: %d groups x %d work-items per system", spans[i],
                 (int)in.group_size);
        const char *d = hb_plan_describe(plan);
        if (spans[i] > 1) {
            HB_CHECK(strstr(d, want) != NULL, "G = %d: the description lacks '%s': %s", spans[i],
                     want, d);
            HB_CHECK(in.ngroups == 5 * spans[i], "G = %d: %lld groups", spans[i],
                     (long long)in.ngroups);
        } else {
            HB_CHECK(strstr(d, "span") == NULL && in.ngroups == 5,
                     "G = 1 is the one-group kernel: %s, %lld groups", d, (long long)in.ngroups);
        }
        HB_CHECK(in.group_size == 64, "group %d, asked 64: %s", (int)in.group_size, d);
        hb_plan_destroy(plan);
    }
    /* A value that is not a count fails every cooperative plan, by name. */
    const char *const bad[] = {"0", "-2", "x", "4k", "1025"};
    hb_oracle_coop_env_refused(ctx, "HINESBATCH_COOP_SPAN", bad, sizeof bad / sizeof bad[0]);
}

int main(void)
{
    hb_test_begin("test_coop_span");
    hb_test_env_save();
    hb_context *ctx = hb_test_context(), *oracle = hb_test_oracle();
    if (!hb_oracle_coop_available(ctx)) { /* host backends */
        hb_context_destroy(oracle);
        hb_context_destroy(ctx);
        hb_test_env_free();
        return hb_test_finish();
    }
    naming(ctx);

    for (int ip = 0; ip < 2; ++ip) {
        hb_precision p = ip ? HB_FLOAT : HB_DOUBLE;
        const double scales[3] = {1.0, p == HB_DOUBLE ? 1e-300 : 1e-30,
                                  p == HB_DOUBLE ? 1e300 : 1e30};
        for (size_t j = 0; j < sizeof shapes / sizeof shapes[0]; ++j) {
            for (int k = 0; k < 3; ++k) {
                const hb_oracle_shape *sh = &shapes[j];
                char name[200], what[300];
                snprintf(name, sizeof name, "%s %s scaled by %g", hb_test_precision_name(p),
                         sh->name, scales[k]);
                hb_oracle_batch bt;
                hb_oracle_make(&bt, &hb_oracle_tridiag, p, sh, scales[k]);
                hb_oracle_reference(&bt, oracle, NULL, name);
                for (size_t s = 0; s < sizeof spans / sizeof spans[0]; ++s) {
                    if (k && spans[s] != 4)
                        continue; /* scaled: one span */
                    set_span(spans[s]);
                    for (size_t g = 0; g < sizeof groups / sizeof groups[0]; ++g) {
                        hb_plan_options o = coop_options(groups[g]);
                        for (int uni = 0; uni <= bt.uniform; ++uni) {
                            snprintf(what, sizeof what, "cooperative(span %d, group %d) %s%s",
                                     spans[s], (int)groups[g], name,
                                     uni ? " (uniform create)" : "");
                            hb_oracle_plan(ctx, &bt, &o, uni, NULL, what);
                        }
                    }
                }
                hb_oracle_free(&bt);
            }
        }
        /* Rows scaled by up to 10^(+-kmax) against the oracle; near-singular
         * by residual. */
        for (int weak = 0; weak < 2; ++weak) {
            hb_oracle_batch bt;
            hb_oracle_tridiag_hard(&bt, p, 6, 1, 3000, weak ? 0 : p == HB_DOUBLE ? 12 : 4, weak);
            char name[200];
            snprintf(name, sizeof name, "%s %s", hb_test_precision_name(p),
                     weak ? "near-singular (weakly dominant) batch" : "badly row-scaled batch");
            if (!weak)
                hb_oracle_reference(&bt, oracle, NULL, name);
            for (size_t s = 0; s < sizeof spans / sizeof spans[0]; ++s) {
                set_span(spans[s]);
                char what[300];
                snprintf(what, sizeof what, "cooperative(span %d, group 32) %s", spans[s], name);
                if (weak) {
                    /* test_coop.c's bound for the hybrid. */
                    hb_plan_options ro = coop_options(32);
                    hb_oracle_residual_only(ctx, &bt, &ro, 10 * HB_TEST_RATIO_MAX, what);
                } else {
                    hb_plan_options o = coop_options(32);
                    hb_oracle_plan(ctx, &bt, &o, 0, NULL, what);
                }
            }
            hb_oracle_free(&bt);
        }
    }
    hb_test_env_restore();
    hb_test_env_free();
    hb_context_destroy(oracle);
    hb_context_destroy(ctx);
    return hb_test_finish();
}
