/* test_env.c: names of backends, layouts, paddings and strategies both ways; HINESBATCH_BACKEND (valid in any case, invalid, unset); backends not compiled in; HINESBATCH_STRATEGY. */
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

/* The strategy of a Hines plan made with default options under
 * HINESBATCH_STRATEGY=value (NULL: unset), read from hb_plan_get_info;
 * HB_STRATEGY_AUTO when the plan is refused. */
static hb_strategy strategy_under(hb_context *ctx, const char *value, hb_status *st)
{
    static const int32_t parent[6] = {-1, 0, 1, 1, 0, 4};
    if (value)
        setenv("HINESBATCH_STRATEGY", value, 1);
    else
        unsetenv("HINESBATCH_STRATEGY");
    hb_plan *plan = NULL;
    *st = hb_plan_create_hines_uniform(ctx, HB_DOUBLE, 4, 6, parent, NULL, &plan);
    hb_strategy got = plan ? hb_test_plan_info(plan).strategy : HB_STRATEGY_AUTO;
    HB_CHECK((*st == HB_SUCCESS) == (plan != NULL), "HINESBATCH_STRATEGY=%s: plan %p with %s",
             value ? value : "(unset)", (void *)plan, hb_status_string(*st));
    hb_plan_destroy(plan);
    return got;
}

static void strategy_variable(hb_context *ctx)
{
    hb_status st;
    /* What AUTO picks without the variable; "auto" and "" must pick the same. */
    hb_strategy auto_pick = strategy_under(ctx, NULL, &st);
    HB_CHECK(st == HB_SUCCESS && auto_pick != HB_STRATEGY_AUTO, "default plan: strategy %s (%s)",
             hb_strategy_name(auto_pick), hb_status_string(st));
    const char *autos[] = {"auto", "AUTO", ""};
    for (size_t i = 0; i < sizeof autos / sizeof autos[0]; ++i) {
        hb_strategy got = strategy_under(ctx, autos[i], &st);
        HB_CHECK(st == HB_SUCCESS && got == auto_pick, "HINESBATCH_STRATEGY='%s': %s, expected %s",
                 autos[i], hb_strategy_name(got), hb_strategy_name(auto_pick));
    }
    /* AUTO's choice for a small tridiagonal batch, the variable unset. */
    hb_strategy tri_pick = HB_STRATEGY_AUTO;
    {
        HB_CHECK(unsetenv("HINESBATCH_STRATEGY") == 0, "unsetenv");
        hb_plan *tri = NULL;
        HB_CHECK_STATUS(hb_plan_create_tridiag_uniform(ctx, HB_FLOAT, 4, 6, NULL, &tri),
                        HB_SUCCESS);
        if (tri)
            tri_pick = hb_test_plan_info(tri).strategy;
        HB_CHECK(tri_pick == HB_STRATEGY_PER_SYSTEM || tri_pick == HB_STRATEGY_COOPERATIVE,
                 "tridiagonal AUTO picked %s", hb_strategy_name(tri_pick));
        hb_plan_destroy(tri);
    }
    /* Every strategy by name, in any case. */
    for (int s = HB_STRATEGY_PER_SYSTEM; s <= HB_STRATEGY_FINE_TREE; ++s)
        for (int variant = 0; variant < 3; ++variant) {
            char v[32];
            mixed_case(v, hb_strategy_name((hb_strategy)s), variant);
            hb_strategy got = strategy_under(ctx, v, &st);
            HB_CHECK(st == HB_SUCCESS && got == (hb_strategy)s,
                     "HINESBATCH_STRATEGY=%s: %s (%s), expected %s", v, hb_strategy_name(got),
                     hb_status_string(st), hb_strategy_name((hb_strategy)s));
            /* It forces Hines plans only: a tridiagonal plan keeps AUTO's
             * choice (per-system, or cooperative on a GPU). */
            hb_plan *tri = NULL;
            HB_CHECK_STATUS(hb_plan_create_tridiag_uniform(ctx, HB_FLOAT, 4, 6, NULL, &tri),
                            HB_SUCCESS);
            HB_CHECK(tri && hb_test_plan_info(tri).strategy == tri_pick,
                     "tridiagonal plan under HINESBATCH_STRATEGY=%s is not %s", v,
                     hb_strategy_name(tri_pick));
            hb_plan_destroy(tri);
        }
    const char *bad[] = {"bogus", "per_system", "per-system2"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        strategy_under(ctx, bad[i], &st);
        HB_CHECK(st == HB_ERR_INVALID_ARGUMENT, "HINESBATCH_STRATEGY=%s: %s", bad[i],
                 hb_status_string(st));
        HB_CHECK(strstr(hb_last_error(), "HINESBATCH_STRATEGY") != NULL,
                 "message should name the variable: '%s'", hb_last_error());
        hb_plan *plan = NULL;
        HB_CHECK_STATUS(hb_plan_create_tridiag_uniform(ctx, HB_FLOAT, 4, 6, NULL, &plan),
                        HB_ERR_INVALID_ARGUMENT);
        HB_CHECK(plan == NULL, "tridiagonal plan made under HINESBATCH_STRATEGY=%s", bad[i]);
    }
    /* cooperative forces tridiagonal plans (left AUTO) instead; Hines plans
     * keep AUTO's pick. Backends without the solver refuse the plan. */
    for (int variant = 0; variant < 3; ++variant) {
        char v[32];
        mixed_case(v, "cooperative", variant);
        hb_strategy got = strategy_under(ctx, v, &st);
        HB_CHECK(st == HB_SUCCESS && got == auto_pick,
                 "Hines plan under HINESBATCH_STRATEGY=%s: %s, expected %s", v,
                 hb_strategy_name(got), hb_strategy_name(auto_pick));
        hb_plan *tri = NULL;
        st = hb_plan_create_tridiag_uniform(ctx, HB_FLOAT, 4, 6, NULL, &tri);
        if (hb_test_on_host(ctx))
            HB_CHECK(st == HB_ERR_BACKEND_UNAVAILABLE && !tri,
                     "tridiagonal plan under HINESBATCH_STRATEGY=%s on a host backend: %s", v,
                     hb_status_string(st));
        else
            HB_CHECK(st == HB_SUCCESS && tri &&
                         hb_test_plan_info(tri).strategy == HB_STRATEGY_COOPERATIVE,
                     "tridiagonal plan under HINESBATCH_STRATEGY=%s: %s", v, hb_status_string(st));
        hb_plan_destroy(tri);
    }
    /* cell-group forces Hines plans; host backends lack it and refuse. */
    for (int variant = 0; variant < 3; ++variant) {
        char v[32];
        mixed_case(v, "cell-group", variant);
        hb_strategy got = strategy_under(ctx, v, &st);
        if (hb_test_on_host(ctx))
            HB_CHECK(st == HB_ERR_BACKEND_UNAVAILABLE,
                     "Hines plan under HINESBATCH_STRATEGY=%s on a host backend: %s", v,
                     hb_status_string(st));
        else
            HB_CHECK(st == HB_SUCCESS && got == HB_STRATEGY_CELL_GROUP,
                     "Hines plan under HINESBATCH_STRATEGY=%s: %s (%s)", v,
                     hb_strategy_name(got), hb_status_string(st));
    }
    strategy_under(ctx, NULL, &st);
    HB_CHECK_STATUS(st, HB_SUCCESS);
}

/* A backend not compiled in is unavailable, saying so and naming it, whatever
 * the environment says about devices; a compiled one never says "not
 * compiled". Backend-specific tests are registered only for built backends
 * (tests/CMakeLists.txt), so this is where the absent ones are checked. */
static void not_compiled(void)
{
    int missing = 0;
    setenv("HINESBATCH_DEVICE", "x", 1); /* malformed: must not matter */
    setenv("HINESBATCH_OPENCL_PLATFORM", "no-such-platform", 1);
    for (int b = HB_BACKEND_SERIAL; b <= HB_BACKEND_CUDA; ++b) {
        const char *name = hb_backend_name((hb_backend)b);
        hb_context *c = (hb_context *)&missing; /* must stay as is on failure */
        hb_status st = hb_context_create((hb_backend)b, &c);
        if (hb_backend_compiled((hb_backend)b)) {
            HB_CHECK(st != HB_ERR_BACKEND_UNAVAILABLE || !strstr(hb_last_error(), "not compiled"),
                     "%s is compiled in but says: %s", name, hb_last_error());
            if (st == HB_SUCCESS)
                hb_context_destroy(c);
            continue;
        }
        missing = 1;
        HB_CHECK(st == HB_ERR_BACKEND_UNAVAILABLE, "%s (not compiled): %s, expected unavailable",
                 name, hb_status_string(st));
        HB_CHECK(strstr(hb_last_error(), "not compiled") && strstr(hb_last_error(), name),
                 "%s (not compiled): message should say so and name it: '%s'", name,
                 hb_last_error());
        HB_CHECK(c == (hb_context *)&missing, "%s (not compiled): output written", name);
        /* Through HINESBATCH_BACKEND too. */
        hb_backend got;
        HB_CHECK_STATUS(open_with(name, &got), HB_ERR_BACKEND_UNAVAILABLE);
    }
    if (!missing)
        printf("test_env: note: every backend is compiled in; the not-compiled case is skipped\n");
}

/* Adapters from the typed name functions to one signature; the output of a
 * _from_name call is read back only through the typed variable it wrote. */
#define NAME_ADAPTERS(T, W)                                                     \
    static const char *W##_name(int v) { return hb_##W##_name((T)v); }          \
    static hb_status W##_from(const char *s, int *out)                          \
    {                                                                           \
        T t = (T)(out ? *out : 0);                                              \
        hb_status st = hb_##W##_from_name(s, out ? &t : NULL);                  \
        if (out)                                                                \
            *out = (int)t;                                                      \
        return st;                                                              \
    }
NAME_ADAPTERS(hb_backend, backend)
NAME_ADAPTERS(hb_layout, layout)
NAME_ADAPTERS(hb_padding, padding)
NAME_ADAPTERS(hb_strategy, strategy)

typedef struct {
    const char *what;
    int count;                /* values 0 .. count-1 */
    const char *names[6];     /* as documented in hinesbatch.h */
    const char *(*name)(int);
    hb_status (*from)(const char *, int *);
} name_table;

static const name_table tables[] = {
    {"backend", 5, {"auto", "serial", "openmp", "opencl", "cuda"}, backend_name, backend_from},
    {"layout", 5, {"auto", "flat", "full-interleaved", "block-interleaved", "block-shared"},
     layout_name, layout_from},
    {"padding", 3, {"auto", "compute", "skip"}, padding_name, padding_from},
    {"strategy", 6, {"auto", "per-system", "branch-level", "fine-tree", "cooperative", "cell-group"},
     strategy_name, strategy_from},
};
#define NTABLES ((int)(sizeof tables / sizeof tables[0]))

/* Name <-> value both ways, any case; unknown names and values. */
static void names(void)
{
    for (int t = 0; t < NTABLES; ++t) {
        const name_table *tb = &tables[t];
        for (int v = 0; v < tb->count; ++v) {
            const char *n = tb->name(v);
            HB_CHECK(!strcmp(n, tb->names[v]), "%s %d is named '%s', expected '%s'", tb->what, v,
                     n, tb->names[v]);
            for (int variant = 0; variant < 3; ++variant) {
                char s[64];
                mixed_case(s, tb->names[v], variant);
                int out = -7;
                HB_CHECK(tb->from(s, &out) == HB_SUCCESS && out == v,
                         "%s_from_name('%s'): %d (%s), expected %d", tb->what, s, out,
                         hb_last_error(), v);
            }
            /* The other tables' names (bar "auto") are not names of this one. */
            for (int u = 0; u < NTABLES; ++u)
                for (int w = 1; u != t && w < tables[u].count; ++w) {
                    int out = 12345;
                    hb_status st = tb->from(tables[u].names[w], &out);
                    HB_CHECK(st == HB_ERR_INVALID_ARGUMENT && out == 12345,
                             "%s_from_name('%s'): %s, output %d", tb->what, tables[u].names[w],
                             hb_status_string(st), out);
                }
        }
        const int bad_values[] = {-1, tb->count, 99};
        for (int i = 0; i < 3; ++i)
            HB_CHECK(!strcmp(tb->name(bad_values[i]), "unknown"), "%s %d is named '%s'", tb->what,
                     bad_values[i], tb->name(bad_values[i]));
        char longer[64], shorter[64];
        snprintf(longer, sizeof longer, "%s ", tb->names[1]);
        snprintf(shorter, sizeof shorter, "%s", tb->names[1]);
        shorter[strlen(shorter) - 1] = '\0';
        const char *bad_names[] = {"bogus", "", "unknown", longer, shorter, NULL};
        for (size_t i = 0; i < sizeof bad_names / sizeof bad_names[0]; ++i) {
            int out = 12345;
            hb_status st = tb->from(bad_names[i], &out);
            HB_CHECK(st == HB_ERR_INVALID_ARGUMENT && out == 12345,
                     "%s_from_name('%s'): %s, output %d (must stay 12345)", tb->what,
                     bad_names[i] ? bad_names[i] : "(null)", hb_status_string(st), out);
            HB_CHECK(!bad_names[i] || strstr(hb_last_error(), bad_names[i]),
                     "%s_from_name('%s'): message should name it: '%s'", tb->what,
                     bad_names[i] ? bad_names[i] : "(null)", hb_last_error());
        }
        HB_CHECK_STATUS(tb->from(tb->names[1], NULL), HB_ERR_INVALID_ARGUMENT);
    }
}

int main(void)
{
    hb_test_begin("test_env");
    hb_test_env_save();
    names();
    not_compiled();
    hb_test_env_restore();
    backend_variable();
    hb_test_env_restore();
    /* The registered HINESBATCH_BACKEND is the backend under test. */
    hb_context *ctx = hb_test_context();
    strategy_variable(ctx);
    hb_test_env_restore();
    hb_context_destroy(ctx);
    hb_test_env_free();
    return hb_test_finish();
}
