/* hb_test_util.c: shared test helpers (see hb_test_util.h). */
#include "hb_test_util.h"

#include <float.h>
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

/* ---- Random test batches ------------------------------------------------- */

double hb_test_get(hb_precision p, const void *x, int64_t k) { return val(p, x, k); }

void hb_test_put(hb_precision p, void *x, int64_t k, double v)
{
    if (p == HB_DOUBLE)
        ((double *)x)[k] = v;
    else
        ((float *)x)[k] = (float)v;
}

size_t hb_test_esize(hb_precision p) { return p == HB_DOUBLE ? sizeof(double) : sizeof(float); }

void *hb_test_xalloc(size_t bytes)
{
    void *m = calloc(1, bytes ? bytes : 1);
    if (!m) {
        fprintf(stderr, "%s: out of host memory (%zu bytes)\n", test_name, bytes);
        exit(1);
    }
    return m;
}

void *hb_test_alloc(hb_precision p, int64_t n)
{
    return hb_test_xalloc((size_t)(n > 0 ? n : 1) * hb_test_esize(p));
}

int64_t *hb_test_offsets_uniform(int64_t nsys, int64_t n)
{
    int64_t *off = hb_test_xalloc((size_t)(nsys + 1) * sizeof *off);
    for (int64_t s = 0; s <= nsys; ++s)
        off[s] = s * n;
    return off;
}

int64_t *hb_test_offsets_random(int64_t nsys, int64_t lo, int64_t hi)
{
    int64_t *off = hb_test_xalloc((size_t)(nsys + 1) * sizeof *off);
    int64_t slo = nsys >= 2 ? hb_test_range(0, nsys - 1) : -1, shi = slo;
    while (nsys >= 2 && shi == slo)
        shi = hb_test_range(0, nsys - 1);
    for (int64_t s = 0; s < nsys; ++s) {
        /* Log-uniform sizes: short systems are common, long ones present. */
        double span = log((double)hi + 1) - log((double)lo);
        int64_t n = (int64_t)(exp(log((double)lo) + span * hb_test_unit()));
        n = n < lo ? lo : n > hi ? hi : n;
        off[s + 1] = off[s] + (s == slo ? lo : s == shi ? hi : n);
    }
    return off;
}

const char *hb_test_tree_name(hb_test_tree_kind kind)
{
    static const char *const names[] = {"chain", "star", "binary", "random", "neuron"};
    return kind < HB_TREE_KINDS ? names[kind] : "?";
}

void hb_test_tree(int32_t *parent, int64_t n, hb_test_tree_kind kind)
{
    if (n <= 0)
        return;
    parent[0] = -1;
    for (int64_t i = 1; i < n; ++i) {
        switch (kind) {
        case HB_TREE_CHAIN: parent[i] = (int32_t)(i - 1); break;
        case HB_TREE_STAR: parent[i] = 0; break;
        case HB_TREE_BINARY: parent[i] = (int32_t)((i - 1) / 2); break;
        case HB_TREE_RANDOM: parent[i] = (int32_t)hb_test_range(0, i - 1); break;
        default:
            parent[i] = hb_test_unit() < 0.98 ? (int32_t)(i - 1) : (int32_t)hb_test_range(0, i - 1);
        }
    }
}

static double sym_unit(void) { return 2.0 * hb_test_unit() - 1.0; }
static double diag_of(double offsum) { return (hb_test_unit() < 0.5 ? -1 : 1) * (offsum + 0.5 + hb_test_unit()); }

void hb_test_tridiag_random(hb_precision p, int64_t nsys, const int64_t *off, void *a, void *b,
                            void *c, void *rhs, double scale)
{
    for (int64_t s = 0; s < nsys; ++s) {
        for (int64_t k = off[s]; k < off[s + 1]; ++k) {
            /* Ignored entries (a of the first row, c of the last) get junk:
             * the solver must not read them. */
            double av = sym_unit(), cv = sym_unit();
            double sum = (k > off[s] ? fabs(av) : 0) + (k + 1 < off[s + 1] ? fabs(cv) : 0);
            hb_test_put(p, a, k, av * scale);
            hb_test_put(p, c, k, cv * scale);
            hb_test_put(p, b, k, diag_of(sum) * scale);
            hb_test_put(p, rhs, k, sym_unit() * scale);
        }
    }
}

void hb_test_hines_random(hb_precision p, int64_t nsys, const int64_t *off, const int32_t *parent,
                          void *u, void *l, void *d, void *rhs, double scale)
{
    int64_t maxn = 0;
    for (int64_t s = 0; s < nsys; ++s)
        if (off[s + 1] - off[s] > maxn)
            maxn = off[s + 1] - off[s];
    double *sum = hb_test_xalloc((size_t)(maxn + 1) * sizeof *sum);
    for (int64_t s = 0; s < nsys; ++s) {
        int64_t lo = off[s], n = off[s + 1] - lo;
        for (int64_t i = 0; i < n; ++i)
            sum[i] = 0;
        for (int64_t i = 0; i < n; ++i) {
            double uv = sym_unit(), lv = sym_unit();
            hb_test_put(p, u, lo + i, uv * scale);
            hb_test_put(p, l, lo + i, lv * scale);
            if (i > 0) {
                sum[i] += fabs(lv);                /* A[i][p] = l[i]  */
                sum[parent[lo + i]] += fabs(uv);   /* A[p][i] = u[i]  */
            }
        }
        for (int64_t i = 0; i < n; ++i) {
            hb_test_put(p, d, lo + i, diag_of(sum[i]) * scale);
            hb_test_put(p, rhs, lo + i, sym_unit() * scale);
        }
    }
    free(sum);
}

static long double ldv(hb_precision p, const void *v, int64_t k)
{
    return p == HB_DOUBLE ? (long double)((const double *)v)[k]
                          : (long double)((const float *)v)[k];
}

static double ld_ratio(hb_precision p, long double rn, long double an, long double xn)
{
    long double eps = p == HB_DOUBLE ? (long double)DBL_EPSILON : (long double)FLT_EPSILON;
    if (isnan(rn) || isnan(an) || isnan(xn) || isinf(rn) || isinf(an) || isinf(xn))
        return INFINITY;
    long double den = an * xn * eps;
    if (den == 0)
        return rn == 0 ? 0.0 : INFINITY;
    return (double)(rn / den);
}

double hb_test_tridiag_ratio(hb_precision p, int64_t nsys, const int64_t *off, const void *a,
                             const void *b, const void *c, const void *x, const void *rhs,
                             int64_t *worst)
{
    double best = 0;
    if (worst)
        *worst = nsys > 0 ? 0 : -1;
    for (int64_t s = 0; s < nsys; ++s) {
        long double rn = 0, an = 0, xn = 0;
        for (int64_t k = off[s]; k < off[s + 1]; ++k) {
            long double row = fabsl(ldv(p, b, k)), ax = ldv(p, b, k) * ldv(p, x, k);
            if (k > off[s]) {
                ax += ldv(p, a, k) * ldv(p, x, k - 1);
                row += fabsl(ldv(p, a, k));
            }
            if (k + 1 < off[s + 1]) {
                ax += ldv(p, c, k) * ldv(p, x, k + 1);
                row += fabsl(ldv(p, c, k));
            }
            rn = fmaxl(rn, fabsl(ldv(p, rhs, k) - ax));
            an = fmaxl(an, row);
            long double xv = fabsl(ldv(p, x, k));
            xn = isnan(xv) ? xv : fmaxl(xn, xv);
        }
        double r = ld_ratio(p, rn, an, xn);
        if (!(r <= best)) {
            best = r;
            if (worst)
                *worst = s;
        }
    }
    return best;
}

double hb_test_hines_ratio(hb_precision p, int64_t nsys, const int64_t *off, const int32_t *parent,
                           const void *u, const void *l, const void *d, const void *x,
                           const void *rhs, int64_t *worst)
{
    int64_t maxn = 0;
    for (int64_t s = 0; s < nsys; ++s)
        if (off[s + 1] - off[s] > maxn)
            maxn = off[s + 1] - off[s];
    long double *ax = hb_test_xalloc((size_t)(2 * maxn + 1) * sizeof *ax), *row = ax + maxn;
    double best = 0;
    if (worst)
        *worst = nsys > 0 ? 0 : -1;
    for (int64_t s = 0; s < nsys; ++s) {
        int64_t lo = off[s], n = off[s + 1] - lo;
        long double rn = 0, an = 0, xn = 0;
        for (int64_t i = 0; i < n; ++i) {
            ax[i] = ldv(p, d, lo + i) * ldv(p, x, lo + i);
            row[i] = fabsl(ldv(p, d, lo + i));
        }
        for (int64_t i = 1; i < n; ++i) {
            int64_t q = parent[lo + i];
            ax[i] += ldv(p, l, lo + i) * ldv(p, x, lo + q);
            ax[q] += ldv(p, u, lo + i) * ldv(p, x, lo + i);
            row[i] += fabsl(ldv(p, l, lo + i));
            row[q] += fabsl(ldv(p, u, lo + i));
        }
        for (int64_t i = 0; i < n; ++i) {
            rn = fmaxl(rn, fabsl(ldv(p, rhs, lo + i) - ax[i]));
            an = fmaxl(an, row[i]);
            long double xv = fabsl(ldv(p, x, lo + i));
            xn = isnan(xv) ? xv : fmaxl(xn, xv);
        }
        double r = ld_ratio(p, rn, an, xn);
        if (!(r <= best)) {
            best = r;
            if (worst)
                *worst = s;
        }
    }
    free(ax);
    return best;
}

double hb_test_diff_bound(hb_precision p)
{
    return p == HB_DOUBLE ? HB_TEST_DIFF_DOUBLE : HB_TEST_DIFF_FLOAT;
}

const hb_test_layout hb_test_layouts[] = {
    {HB_LAYOUT_FLAT, 0, HB_PADDING_AUTO},
    {HB_LAYOUT_INTERLEAVED, 0, HB_PADDING_COMPUTE},
    {HB_LAYOUT_INTERLEAVED, 0, HB_PADDING_SKIP},
    {HB_LAYOUT_BLOCK_INTERLEAVED, 1, HB_PADDING_COMPUTE},
    {HB_LAYOUT_BLOCK_INTERLEAVED, 7, HB_PADDING_SKIP},
    {HB_LAYOUT_BLOCK_INTERLEAVED, 7, HB_PADDING_COMPUTE},
    {HB_LAYOUT_BLOCK_INTERLEAVED, 32, HB_PADDING_COMPUTE},
    {HB_LAYOUT_BLOCK_INTERLEAVED, 32, HB_PADDING_SKIP},
    {HB_LAYOUT_BLOCK_INTERLEAVED, 257, HB_PADDING_COMPUTE},
    {HB_LAYOUT_BLOCK_INTERLEAVED, 257, HB_PADDING_SKIP},
    {HB_LAYOUT_BLOCK_SHARED, 5, HB_PADDING_COMPUTE},
    {HB_LAYOUT_BLOCK_SHARED, 16, HB_PADDING_SKIP},
    {HB_LAYOUT_BLOCK_SHARED, 64, HB_PADDING_COMPUTE},
};
const int hb_test_nlayouts = (int)(sizeof hb_test_layouts / sizeof hb_test_layouts[0]);

const char *hb_test_layout_name(const hb_test_layout *l)
{
    static char buf[96];
    const char *name = l->layout == HB_LAYOUT_FLAT              ? "flat"
                       : l->layout == HB_LAYOUT_INTERLEAVED     ? "interleaved"
                       : l->layout == HB_LAYOUT_BLOCK_SHARED    ? "block-shared"
                       : l->layout == HB_LAYOUT_BLOCK_INTERLEAVED ? "block-interleaved"
                                                                  : "auto";
    snprintf(buf, sizeof buf, "%s(bs=%d)/%s", name, (int)l->block_size,
             l->padding == HB_PADDING_COMPUTE ? "compute"
             : l->padding == HB_PADDING_SKIP  ? "skip"
                                              : "auto");
    return buf;
}

void hb_test_require_sim(hb_context *ctx)
{
    int32_t root = -1;
    hb_morph_cell *cell = NULL;
    hb_sim *sim = NULL;
    hb_status st = hb_morph_cell_from_parent(1, &root, 10.0, 10.0, NULL, &cell);
    const hb_morph_cell *cells[1] = {cell};
    if (st == HB_SUCCESS)
        st = hb_sim_create(ctx, cells, 1, NULL, &sim);
    if (st != HB_SUCCESS) {
        fprintf(stderr, "FAIL: %s: %s\n", hb_status_string(st), hb_last_error());
        exit(1);
    }
    hb_sim_destroy(sim);
    hb_morph_cell_destroy(cell);
}

void hb_test_check_ulp(hb_precision p, int64_t n, const void *x, const void *ref,
                       const char *what)
{
    double worst = 0, eps = p == HB_DOUBLE ? 0x1p-52 : 0x1p-23;
    int64_t at = -1, differ = 0;
    for (int64_t k = 0; k < n; ++k) {
        double a = hb_test_get(p, x, k), b = hb_test_get(p, ref, k);
        differ += a != b;
        double ulp = fabs(b) > 0 ? eps * pow(2.0, floor(log2(fabs(b)))) : 0x1p-1074;
        double e = fabs(a - b) / ulp;
        if (!(e <= worst)) { /* NaN counts as the worst */
            worst = isnan(e) ? INFINITY : e;
            at = k;
        }
    }
    printf("%s: %lld of %lld elements differ from the oracle, worst %g ulp\n", what,
           (long long)differ, (long long)n, worst);
    HB_CHECK(worst <= 2.0, "%s: %g ulp from the oracle at flat row %lld (bound 2)", what, worst,
             (long long)at);
}
