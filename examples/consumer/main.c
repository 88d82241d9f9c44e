/* main.c: a consumer of the installed hinesbatch: random batches of every kind on the backend from the environment, checked. */
#include <hinesbatch.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Small helpers instead of libm, so the program links with the library alone. */
static double dabs(double v) { return v < 0 ? -v : v; }
static double dmax(double a, double b) { return a > b ? a : b; }

static int failures = 0;
#define CHECK(cond, ...)                                    \
    do {                                                    \
        if (!(cond)) {                                      \
            ++failures;                                     \
            fprintf(stderr, "FAIL line %d: ", __LINE__);    \
            fprintf(stderr, __VA_ARGS__);                   \
            fputc('\n', stderr);                            \
        }                                                   \
    } while (0)

static unsigned long long rng = 88172645463325252ull;
static double unit(void)
{ /* xorshift64: enough for test matrices */
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (double)(rng >> 11) * 0x1.0p-53;
}

/* A batch in double, with float copies: nsys systems, random sizes in [1, maxn]
 * (or all maxn), random trees (or one shared tree), diagonally dominant. */
typedef struct {
    int64_t nsys, n;
    int64_t *off;
    int32_t *par;
    double *a, *b, *c, *r; /* tridiag a, b, c; Hines u = a, l = c, d = b; r = rhs */
    float *fa, *fb, *fc, *fr;
} batch;

static void make(batch *bt, int64_t nsys, int64_t maxn, int uniform, int shared_tree)
{
    bt->nsys = nsys;
    bt->off = malloc((size_t)(nsys + 1) * sizeof *bt->off);
    bt->off[0] = 0;
    for (int64_t s = 0; s < nsys; ++s)
        bt->off[s + 1] = bt->off[s] + (uniform ? maxn : 1 + (int64_t)(unit() * (double)maxn));
    int64_t n = bt->n = bt->off[nsys];
    bt->par = malloc((size_t)n * sizeof *bt->par);
    double *m = malloc((size_t)n * 4 * sizeof *m);
    float *f = malloc((size_t)n * 4 * sizeof *f);
    bt->a = m, bt->b = m + n, bt->c = m + 2 * n, bt->r = m + 3 * n;
    bt->fa = f, bt->fb = f + n, bt->fc = f + 2 * n, bt->fr = f + 3 * n;
    for (int64_t s = 0; s < nsys; ++s)
        for (int64_t i = 0, lo = bt->off[s]; i < bt->off[s + 1] - lo; ++i)
            bt->par[lo + i] = i == 0 ? -1
                              : shared_tree && s > 0 ? bt->par[i]
                              : unit() < 0.8 ? (int32_t)(i - 1)
                                             : (int32_t)(unit() * (double)i);
    for (int64_t k = 0; k < n; ++k) {
        bt->a[k] = unit() - 0.5, bt->c[k] = unit() - 0.5, bt->r[k] = unit() - 0.5;
        bt->b[k] = 3.0 + unit(); /* > sum of couplings for chains; fixed below for trees */
    }
    /* Hines rows: d[i] must dominate l[i] and the u of all children. */
    for (int64_t s = 0; s < nsys; ++s)
        for (int64_t i = 1, lo = bt->off[s]; i < bt->off[s + 1] - lo; ++i)
            bt->b[lo + bt->par[lo + i]] += dabs(bt->a[lo + i]);
    for (int64_t k = 0; k < 4 * n; ++k)
        f[k] = (float)m[k];
}

static void unmake(batch *bt) { free(bt->off), free(bt->par), free(bt->a), free(bt->fa); }

/* Largest normwise difference between the float and double solutions. */
static double diff(const batch *bt, const double *x, const float *fx)
{
    double worst = 0;
    for (int64_t s = 0; s < bt->nsys; ++s) {
        double dn = 0, xn = 0;
        for (int64_t k = bt->off[s]; k < bt->off[s + 1]; ++k) {
            dn = dmax(dn, dabs(x[k] - (double)fx[k]));
            xn = dmax(xn, dabs(x[k]));
        }
        worst = dmax(worst, xn > 0 ? dn / xn : dn);
    }
    return worst;
}

static void tridiag(hb_context *ctx, int64_t nsys, int64_t maxn, int uniform)
{
    batch bt;
    make(&bt, nsys, maxn, uniform, 0);
    double *x = malloc((size_t)bt.n * sizeof *x);
    float *fx = malloc((size_t)bt.n * sizeof *fx);
    memcpy(x, bt.r, (size_t)bt.n * sizeof *x);
    memcpy(fx, bt.fr, (size_t)bt.n * sizeof *fx);
    double rd = 1e30, rf = 1e30;
    hb_status st = hb_dtridiag_solve(ctx, nsys, bt.off, bt.a, bt.b, bt.c, x);
    CHECK(st == HB_SUCCESS, "dtridiag: %s", hb_last_error());
    st = hb_stridiag_solve(ctx, nsys, bt.off, bt.fa, bt.fb, bt.fc, fx);
    CHECK(st == HB_SUCCESS, "stridiag: %s", hb_last_error());
    hb_tridiag_residual(HB_DOUBLE, nsys, bt.off, bt.a, bt.b, bt.c, x, bt.r, &rd, NULL);
    hb_tridiag_residual(HB_FLOAT, nsys, bt.off, bt.fa, bt.fb, bt.fc, fx, bt.fr, &rf, NULL);
    CHECK(rd < 30 && rf < 30, "tridiag residual ratios %g (double) %g (float)", rd, rf);
    CHECK(diff(&bt, x, fx) < 1e-4, "tridiag float vs double: %g", diff(&bt, x, fx));
    printf("tridiagonal %s %lld systems (%lld rows): ratios %.2g double, %.2g float\n",
           uniform ? "uniform" : "variable", (long long)nsys, (long long)bt.n, rd, rf);
    free(x), free(fx);
    unmake(&bt);
}

/* Hines through a plan (mono: the uniform constructor) in an interleaved
 * layout, and through the one-shot call; both precisions. */
static void hines(hb_context *ctx, int64_t nsys, int64_t maxn, int mono)
{
    batch bt;
    make(&bt, nsys, maxn, mono, mono);
    double *x = malloc((size_t)bt.n * sizeof *x), *y = malloc((size_t)bt.n * sizeof *y);
    float *fx = malloc((size_t)bt.n * sizeof *fx);
    hb_plan_options o;
    hb_plan_options_init(&o);
    o.layout = HB_LAYOUT_INTERLEAVED;
    for (int prec = 0; prec < 2; ++prec) {
        hb_plan *plan = NULL;
        hb_precision p = prec ? HB_FLOAT : HB_DOUBLE;
        hb_status st = mono ? hb_plan_create_hines_uniform(ctx, p, nsys, maxn, bt.par, &o, &plan)
                            : hb_plan_create_hines(ctx, p, nsys, bt.off, bt.par, &o, &plan);
        if (st == HB_SUCCESS)
            st = hb_plan_set(plan, HB_ARRAY_U, prec ? (void *)bt.fa : (void *)bt.a);
        if (st == HB_SUCCESS)
            st = hb_plan_set(plan, HB_ARRAY_L, prec ? (void *)bt.fc : (void *)bt.c);
        if (st == HB_SUCCESS)
            st = hb_plan_set(plan, HB_ARRAY_D, prec ? (void *)bt.fb : (void *)bt.b);
        if (st == HB_SUCCESS)
            st = hb_plan_set(plan, HB_ARRAY_RHS, prec ? (void *)bt.fr : (void *)bt.r);
        if (st == HB_SUCCESS)
            st = hb_plan_solve(plan);
        if (st == HB_SUCCESS)
            st = hb_plan_get_solution(plan, prec ? (void *)fx : (void *)x);
        CHECK(st == HB_SUCCESS, "hines plan (%s): %s", prec ? "float" : "double", hb_last_error());
        if (plan && !prec)
            printf("plan: %s\n", hb_plan_describe(plan));
        hb_plan_destroy(plan);
    }
    double rd = 1e30, rf = 1e30;
    hb_hines_residual(HB_DOUBLE, nsys, bt.off, bt.par, bt.a, bt.c, bt.b, x, bt.r, &rd, NULL);
    hb_hines_residual(HB_FLOAT, nsys, bt.off, bt.par, bt.fa, bt.fc, bt.fb, fx, bt.fr, &rf, NULL);
    CHECK(rd < 30 && rf < 30, "hines residual ratios %g (double) %g (float)", rd, rf);
    CHECK(diff(&bt, x, fx) < 1e-3, "hines float vs double: %g", diff(&bt, x, fx));
    memcpy(y, bt.r, (size_t)bt.n * sizeof *y);
    CHECK(hb_dhines_solve(ctx, nsys, bt.off, bt.par, bt.a, bt.c, bt.b, y) == HB_SUCCESS,
          "one-shot hines: %s", hb_last_error());
    CHECK(diff(&bt, y, fx) < 1e-3, "one-shot hines vs plan: %g", diff(&bt, y, fx));
    printf("hines %s %lld systems (%lld rows): ratios %.2g double, %.2g float\n",
           mono ? "mono" : "multi", (long long)nsys, (long long)bt.n, rd, rf);
    free(x), free(y), free(fx);
    unmake(&bt);
}

static void errors(hb_context *ctx)
{
    int64_t off[3] = {0, 3, 6};
    int32_t par[6] = {-1, 0, 1, -1, 0, 1};
    double u[6] = {0, 1, 1, 0, 1, 1}, d[6] = {4, 4, 4, 4, 4, 4}, r[6] = {1, 2, 3, 4, 5, 6};
    double keep[6];
    memcpy(keep, r, sizeof r);
    CHECK(hb_dhines_solve(ctx, 2, NULL, par, u, u, d, r) == HB_ERR_INVALID_ARGUMENT, "NULL offsets");
    par[4] = 4; /* parent not before the row */
    CHECK(hb_dhines_solve(ctx, 2, off, par, u, u, d, r) == HB_ERR_INVALID_TREE, "bad tree");
    CHECK(strstr(hb_last_error(), "system 1") != NULL, "tree message: %s", hb_last_error());
    par[4] = 0;
    d[5] = 0; /* zero pivot at a leaf of system 1 */
    CHECK(hb_dhines_solve(ctx, 2, off, par, u, u, d, r) == HB_ERR_NUMERICAL, "zero pivot");
    CHECK(memcmp(keep, r, sizeof r) == 0, "output changed by a failing solve");
    CHECK(hb_dhines_solve(ctx, 0, off, par, u, u, d, r) == HB_SUCCESS, "nsys 0");
    printf("error codes: %s / %s / %s as expected\n", hb_status_string(HB_ERR_INVALID_ARGUMENT),
           hb_status_string(HB_ERR_INVALID_TREE), hb_status_string(HB_ERR_NUMERICAL));
}

int main(void)
{
    hb_context *ctx = NULL;
    hb_status st = hb_context_create(HB_BACKEND_AUTO, &ctx);
    if (st != HB_SUCCESS) {
        const char *skip = getenv("HB_TEST_ALLOW_SKIP");
        printf("no context: %s: %s\n", hb_status_string(st), hb_last_error());
        return st == HB_ERR_BACKEND_UNAVAILABLE && skip && !strcmp(skip, "1") ? 77 : 1;
    }
    /* hb_version() is the library linked, HB_VERSION the headers compiled with. */
    CHECK(hb_version() == HB_VERSION, "library %d, headers %d", hb_version(), HB_VERSION);
#ifdef HB_EXPECTED_VERSION /* the version the build system found (CMake package, pkg-config) */
    CHECK(!strcmp(HB_VERSION_STRING, HB_EXPECTED_VERSION), "headers %s, package %s",
          HB_VERSION_STRING, HB_EXPECTED_VERSION);
#endif
    printf("hinesbatch %s on %s\n", HB_VERSION_STRING, hb_context_describe(ctx));
    tridiag(ctx, 100, 300, 0);
    tridiag(ctx, 64, 128, 1);
    hines(ctx, 50, 400, 1);
    hines(ctx, 70, 500, 0);
    errors(ctx);
    /* The options API from the installed header: the same device again,
     * through the handles (or defaults) the first context reports. */
    hb_context_options o;
    hb_context *again = NULL;
    CHECK(hb_context_get_options(ctx, &o) == HB_SUCCESS, "hb_context_get_options");
    CHECK(hb_context_create_with(&o, &again) == HB_SUCCESS, "hb_context_create_with");
    if (again) {
        CHECK(!strcmp(hb_context_describe(again), hb_context_describe(ctx)) ||
                  strstr(hb_context_describe(again), "caller's") != NULL,
              "create_with opened another device");
        tridiag(again, 10, 30, 0);
    }
    hb_context_destroy(again);
    hb_context_destroy(ctx);
    printf("%s\n", failures ? "FAILED" : "OK");
    return failures ? 1 : 0;
}
