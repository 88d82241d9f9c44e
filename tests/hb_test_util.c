/* hb_test_util.c: shared test helpers (see hb_test_util.h). */
#include "hb_test_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int hb_test_failures = 0;
int hb_test_checks = 0;
static uint64_t state;
static const char *test_name = "test";

uint64_t hb_test_begin(const char *name)
{
    test_name = name;
    const char *env = getenv("HB_TEST_SEED");
    uint64_t seed = env && env[0] ? strtoull(env, NULL, 10)
                                  : (uint64_t)time(NULL) ^ ((uint64_t)clock() << 32);
    state = seed;
    printf("%s: seed %llu (replay with HB_TEST_SEED=%llu), backend %s\n", name,
           (unsigned long long)seed, (unsigned long long)seed,
           getenv("HINESBATCH_BACKEND") ? getenv("HINESBATCH_BACKEND") : "(auto)");
    return seed;
}

uint64_t hb_test_rand(void)
{
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

double hb_test_unit(void) { return (double)(hb_test_rand() >> 11) * 0x1.0p-53; }

int64_t hb_test_range(int64_t lo, int64_t hi)
{
    return lo + (int64_t)(hb_test_rand() % (uint64_t)(hi - lo + 1));
}

hb_context *hb_test_context(void)
{
    hb_context *ctx = NULL;
    hb_status st = hb_context_create(HB_BACKEND_AUTO, &ctx);
    if (st == HB_SUCCESS) {
        printf("%s: context %s\n", test_name, hb_context_describe(ctx));
        return ctx;
    }
    const char *skip = getenv("HB_TEST_ALLOW_SKIP");
    if (st == HB_ERR_BACKEND_UNAVAILABLE && skip && !strcmp(skip, "1")) {
        printf("%s: SKIPPED: %s\n", test_name, hb_last_error());
        exit(77);
    }
    fprintf(stderr, "%s: cannot open the backend under test: %s: %s\n", test_name,
            hb_status_string(st), hb_last_error());
    exit(1);
}

hb_context *hb_test_oracle(void)
{
    hb_context *ctx = NULL;
    if (hb_context_create(HB_BACKEND_SERIAL, &ctx) != HB_SUCCESS) {
        fprintf(stderr, "%s: cannot open the serial oracle: %s\n", test_name, hb_last_error());
        exit(1);
    }
    return ctx;
}

int hb_test_bitwise(const hb_context *ctx)
{
    hb_backend b = hb_context_backend(ctx);
    return b == HB_BACKEND_SERIAL || b == HB_BACKEND_OPENMP;
}

int hb_test_finish(void)
{
    printf("%s: %d checks\n", test_name, hb_test_checks);
    printf("%d passed, %d failed\n", hb_test_checks - hb_test_failures, hb_test_failures);
    return hb_test_failures == 0 ? 0 : 1;
}

static double val(hb_precision p, const void *v, int64_t k)
{
    return p == HB_DOUBLE ? ((const double *)v)[k] : (double)((const float *)v)[k];
}

double hb_test_max_rel_diff(hb_precision p, int64_t nsys, const int64_t *offsets, const void *x,
                            const void *y)
{
    double worst = 0;
    for (int64_t s = 0; s < nsys; ++s) {
        double dn = 0, yn = 0;
        for (int64_t k = offsets[s]; k < offsets[s + 1]; ++k) {
            double diff = fabs(val(p, x, k) - val(p, y, k));
            if (isnan(diff))
                return INFINITY;
            dn = fmax(dn, diff);
            yn = fmax(yn, fabs(val(p, y, k)));
        }
        double r = yn > 0 ? dn / yn : dn;
        if (r > worst)
            worst = r;
    }
    return worst;
}

int hb_test_bitequal(const void *x, const void *y, size_t bytes) { return !memcmp(x, y, bytes); }

void hb_test_poison(hb_precision p, void *x, int64_t n)
{
    for (int64_t k = 0; k < n; ++k) {
        if (p == HB_DOUBLE)
            ((double *)x)[k] = NAN;
        else
            ((float *)x)[k] = NAN;
    }
}
