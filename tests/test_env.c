/* test_env.c: HINESBATCH_BACKEND (valid in any case, invalid, not compiled, unset) and HINESBATCH_STRATEGY parsing. */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv, strdup */
#include <stdlib.h>
#include <string.h>

#include "hb_test_util.h"

/* Opens a context with HB_BACKEND_AUTO under HINESBATCH_BACKEND=value (NULL:
 * unset); returns the status and the backend chosen (AUTO on failure). */
static hb_status open_with(const char *value, hb_backend *chosen)
{
    if (value)
        setenv("HINESBATCH_BACKEND", value, 1);
    else
        unsetenv("HINESBATCH_BACKEND");
    hb_context *c = NULL;
    hb_status st = hb_context_create(HB_BACKEND_AUTO, &c);
    *chosen = st == HB_SUCCESS ? hb_context_backend(c) : HB_BACKEND_AUTO;
    HB_CHECK((st == HB_SUCCESS) == (c != NULL), "HINESBATCH_BACKEND=%s: ctx %p with status %s",
             value ? value : "(unset)", (void *)c, hb_status_string(st));
    if (c)
        HB_CHECK(strstr(hb_context_describe(c), hb_backend_name(*chosen)) != NULL,
                 "describe '%s' does not name backend %s", hb_context_describe(c),
                 hb_backend_name(*chosen));
    hb_context_destroy(c);
    return st;
}

static void mixed_case(char *dst, const char *src, int variant)
{
    size_t i = 0;
    for (; src[i]; ++i) {
        char ch = src[i];
        int up = variant == 1 || (variant == 2 && i % 2 == 0);
        dst[i] = up && ch >= 'a' && ch <= 'z' ? (char)(ch - 'a' + 'A') : ch;
    }
    dst[i] = '\0';
}

static void backend_variable(void)
{
    hb_backend got;
    /* Every backend name in lower, upper and mixed case. Host backends that
     * are compiled in must open; GPU backends may find no device. */
    for (int b = HB_BACKEND_SERIAL; b <= HB_BACKEND_CUDA; ++b) {
        const char *name = hb_backend_name((hb_backend)b);
        for (int variant = 0; variant < 3; ++variant) {
            char v[32];
            mixed_case(v, name, variant);
            hb_status st = open_with(v, &got);
            if (!hb_backend_compiled((hb_backend)b)) {
                HB_CHECK(st == HB_ERR_BACKEND_UNAVAILABLE,
                         "HINESBATCH_BACKEND=%s (not compiled): %s, expected unavailable", v,
                         hb_status_string(st));
                HB_CHECK(strstr(hb_last_error(), "compiled") != NULL,
                         "not-compiled message should say so: '%s'", hb_last_error());
            } else if (b == HB_BACKEND_SERIAL || b == HB_BACKEND_OPENMP) {
                HB_CHECK(st == HB_SUCCESS && got == (hb_backend)b,
                         "HINESBATCH_BACKEND=%s: %s, backend %s (%s)", v, hb_status_string(st),
                         hb_backend_name(got), hb_last_error());
            } else {
                HB_CHECK((st == HB_SUCCESS && got == (hb_backend)b) ||
                             st == HB_ERR_BACKEND_UNAVAILABLE,
                         "HINESBATCH_BACKEND=%s: %s, backend %s (%s)", v, hb_status_string(st),
                         hb_backend_name(got), hb_last_error());
                if (st != HB_SUCCESS)
                    printf("test_env: note: %s is compiled in but unavailable here: %s\n", v,
                           hb_last_error());
            }
        }
    }
    /* Names the variable does not know: an error, never a silent default. */
    const char *bogus[] = {"bogus", "serial ", "open-mp", "gpu", "0"};
    for (size_t i = 0; i < sizeof bogus / sizeof bogus[0]; ++i) {
        HB_CHECK_STATUS(open_with(bogus[i], &got), HB_ERR_INVALID_ARGUMENT);
        HB_CHECK(strstr(hb_last_error(), "HINESBATCH_BACKEND") != NULL,
                 "message should name the variable: '%s'", hb_last_error());
    }
    /* A backend not compiled in: unavailable, with a reason. */
    int missing = 0;
    for (int b = HB_BACKEND_SERIAL; b <= HB_BACKEND_CUDA; ++b) {
        if (hb_backend_compiled((hb_backend)b))
            continue;
        missing = 1;
        HB_CHECK_STATUS(open_with(hb_backend_name((hb_backend)b), &got), HB_ERR_BACKEND_UNAVAILABLE);
        hb_context *c = NULL;
        HB_CHECK_STATUS(hb_context_create((hb_backend)b, &c), HB_ERR_BACKEND_UNAVAILABLE);
        HB_CHECK(c == NULL, "context made for a missing backend");
    }
    if (!missing)
        printf("test_env: note: every backend is compiled in; the not-compiled case is skipped\n");
    HB_CHECK(hb_backend_compiled(HB_BACKEND_SERIAL), "serial must always be compiled");
    /* Unset, empty and "auto" pick something that is compiled in. */
    const char *autos[] = {NULL, "", "auto", "AUTO", "Auto"};
    for (size_t i = 0; i < sizeof autos / sizeof autos[0]; ++i) {
        HB_CHECK_STATUS(open_with(autos[i], &got), HB_SUCCESS);
        HB_CHECK(got != HB_BACKEND_AUTO && hb_backend_compiled(got),
                 "auto (%s) picked %s", autos[i] ? autos[i] : "unset", hb_backend_name(got));
    }
    /* An explicit backend ignores the variable. */
    setenv("HINESBATCH_BACKEND", "bogus", 1);
    hb_context *c = NULL;
    HB_CHECK_STATUS(hb_context_create(HB_BACKEND_SERIAL, &c), HB_SUCCESS);
    HB_CHECK(c && hb_context_backend(c) == HB_BACKEND_SERIAL, "explicit serial");
    hb_context_destroy(c);
}

static void strategy_variable(hb_context *ctx)
{
    int32_t parent[6] = {-1, 0, 1, 1, 0, 4};
    hb_plan *plan = NULL;
    /* What AUTO picks without the variable ("auto" and "" must pick the same). */
    char auto_pick[64] = "";
    unsetenv("HINESBATCH_STRATEGY");
    HB_CHECK_STATUS(hb_plan_create_hines_uniform(ctx, HB_DOUBLE, 4, 6, parent, NULL, &plan),
                    HB_SUCCESS);
    if (plan) {
        const char *st = strstr(hb_plan_describe(plan), "strategy=");
        snprintf(auto_pick, sizeof auto_pick, "%.*s", st ? (int)strcspn(st, " ;") : 0,
                 st ? st : "");
    }
    hb_plan_destroy(plan);
    plan = NULL;
    HB_CHECK(auto_pick[0] != '\0', "describe names no strategy");
    const char *good[] = {"per-system", "PER-SYSTEM", "Per-System", "auto", "AUTO", ""};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; ++i) {
        setenv("HINESBATCH_STRATEGY", good[i], 1);
        const char *want = strncmp(good[i], "per", 3) && strncmp(good[i], "PER", 3) &&
                                   strncmp(good[i], "Per", 3)
                               ? auto_pick
                               : "strategy=per-system";
        HB_CHECK_STATUS(hb_plan_create_hines_uniform(ctx, HB_DOUBLE, 4, 6, parent, NULL, &plan),
                        HB_SUCCESS);
        if (plan)
            HB_CHECK(strstr(hb_plan_describe(plan), want) != NULL,
                     "HINESBATCH_STRATEGY=%s: %s (expected %s)", good[i], hb_plan_describe(plan),
                     want);
        hb_plan_destroy(plan);
        plan = NULL;
    }
    const char *bad[] = {"bogus", "per_system", "per-system2"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        setenv("HINESBATCH_STRATEGY", bad[i], 1);
        HB_CHECK_STATUS(hb_plan_create_hines_uniform(ctx, HB_DOUBLE, 4, 6, parent, NULL, &plan),
                        HB_ERR_INVALID_ARGUMENT);
        HB_CHECK(strstr(hb_last_error(), "HINESBATCH_STRATEGY") != NULL,
                 "message should name the variable: '%s'", hb_last_error());
        HB_CHECK(plan == NULL, "plan made under HINESBATCH_STRATEGY=%s", bad[i]);
        HB_CHECK_STATUS(hb_plan_create_tridiag_uniform(ctx, HB_FLOAT, 4, 6, NULL, &plan),
                        HB_ERR_INVALID_ARGUMENT);
    }
    unsetenv("HINESBATCH_STRATEGY");
    HB_CHECK_STATUS(hb_plan_create_hines_uniform(ctx, HB_DOUBLE, 4, 6, parent, NULL, &plan),
                    HB_SUCCESS);
    hb_plan_destroy(plan);
}

int main(void)
{
    hb_test_begin("test_env");
    /* The registered HINESBATCH_BACKEND is the backend under test. */
    const char *env = getenv("HINESBATCH_BACKEND");
    char *saved = env ? strdup(env) : NULL;
    char *saved_strategy = getenv("HINESBATCH_STRATEGY") ? strdup(getenv("HINESBATCH_STRATEGY")) : NULL;
    backend_variable();
    if (saved)
        setenv("HINESBATCH_BACKEND", saved, 1);
    else
        unsetenv("HINESBATCH_BACKEND");
    hb_context *ctx = hb_test_context();
    strategy_variable(ctx);
    if (saved_strategy)
        setenv("HINESBATCH_STRATEGY", saved_strategy, 1);
    hb_context_destroy(ctx);
    free(saved);
    free(saved_strategy);
    return hb_test_finish();
}
