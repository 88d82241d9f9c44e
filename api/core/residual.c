/* residual.c: LAPACK-style residual ratios of tridiagonal and Hines solutions, on the host in double. */
#include "hb_plan.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

static double at(hb_precision p, const void *v, int64_t k)
{
    return p == HB_DOUBLE ? ((const double *)v)[k] : (double)((const float *)v)[k];
}

static double ratio(double rnorm, double anorm, double xnorm, hb_precision p)
{
    double eps = p == HB_DOUBLE ? DBL_EPSILON : FLT_EPSILON;
    double den = anorm * xnorm * eps;
    if (den == 0.0)
        return rnorm == 0.0 ? 0.0 : INFINITY;
    return rnorm / den;
}

/* max that propagates NaN (fmax drops it): one NaN anywhere in a solution
 * must make its ratio NaN, never 0. */
static double max_nan(double a, double b)
{
    if (isnan(a) || isnan(b))
        return NAN;
    return a > b ? a : b;
}

static hb_status check_args(hb_precision p, int64_t nsys, const int64_t *offsets,
                            const void *const *ptrs, const char *const *names, int nptr,
                            double *max_ratio, const char *fn)
{
    HB_FORWARD(hb__check_batch(p, nsys, fn));
    if (!max_ratio)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: max_ratio (output) is NULL", fn);
    if (nsys == 0)
        return HB_SUCCESS;
    for (int i = 0; i < nptr; ++i)
        if (!ptrs[i])
            return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: %s is NULL", fn, names[i]);
    return hb__check_offsets(nsys, offsets, fn);
}

hb_status hb_tridiag_residual(hb_precision p, int64_t nsys, const int64_t *offsets, const void *a,
                              const void *b, const void *c, const void *x, const void *rhs,
                              double *max_ratio, int64_t *worst)
{
    const void *ptrs[] = {a, b, c, x, rhs};
    const char *const names[] = {"a", "b", "c", "x", "rhs"};
    HB_FORWARD(check_args(p, nsys, offsets, ptrs, names, 5, max_ratio, "hb_tridiag_residual"));
    double best = 0.0;
    int64_t ws = nsys > 0 ? 0 : -1;
    for (int64_t s = 0; s < nsys; ++s) {
        int64_t lo = offsets[s], hi = offsets[s + 1];
        double rn = 0, an = 0, xn = 0;
        for (int64_t k = lo; k < hi; ++k) {
            double lo_v = k > lo ? at(p, a, k) : 0.0, up_v = k + 1 < hi ? at(p, c, k) : 0.0;
            double ax = at(p, b, k) * at(p, x, k);
            if (k > lo)
                ax += lo_v * at(p, x, k - 1);
            if (k + 1 < hi)
                ax += up_v * at(p, x, k + 1);
            rn = max_nan(rn, fabs(at(p, rhs, k) - ax));
            an = max_nan(an, fabs(lo_v) + fabs(at(p, b, k)) + fabs(up_v));
            xn = max_nan(xn, fabs(at(p, x, k)));
        }
        double r = ratio(rn, an, xn, p);
        if (!isnan(best) && !(r <= best)) { /* a NaN ratio sticks */
            best = r;
            ws = s;
        }
    }
    *max_ratio = best;
    if (worst)
        *worst = ws;
    return HB_SUCCESS;
}

hb_status hb_hines_residual(hb_precision p, int64_t nsys, const int64_t *offsets,
                            const int32_t *parent, const void *u, const void *l, const void *d,
                            const void *x, const void *rhs, double *max_ratio, int64_t *worst)
{
    const void *ptrs[] = {parent, u, l, d, x, rhs};
    const char *const names[] = {"parent", "u", "l", "d", "x", "rhs"};
    HB_FORWARD(check_args(p, nsys, offsets, ptrs, names, 6, max_ratio, "hb_hines_residual"));
    int64_t maxn = 0;
    for (int64_t s = 0; s < nsys; ++s) {
        int64_t n = offsets[s + 1] - offsets[s];
        HB_FORWARD(hb__check_tree(parent + offsets[s], n, s));
        if (n > maxn)
            maxn = n;
    }
    /* Row sums of A x and of |A| per system, scattered through the parents. */
    double *ax = hb__malloc_n((maxn > 0 ? maxn : 1) * 2, sizeof *ax);
    if (!ax)
        return hb__error(HB_ERR_OUT_OF_MEMORY, "hb_hines_residual: %lld rows",
                         (long long)maxn);
    double *arow = ax + maxn;
    double best = 0.0;
    int64_t ws = nsys > 0 ? 0 : -1;
    for (int64_t s = 0; s < nsys; ++s) {
        int64_t lo = offsets[s], n = offsets[s + 1] - lo;
        const int32_t *par = parent + lo;
        for (int64_t i = 0; i < n; ++i) {
            ax[i] = at(p, d, lo + i) * at(p, x, lo + i);
            arow[i] = fabs(at(p, d, lo + i));
        }
        double xn = 0;
        for (int64_t i = 1; i < n; ++i) {
            int64_t q = par[i];
            ax[i] += at(p, l, lo + i) * at(p, x, lo + q); /* A[i][p] = l[i] */
            ax[q] += at(p, u, lo + i) * at(p, x, lo + i); /* A[p][i] = u[i] */
            arow[i] += fabs(at(p, l, lo + i));
            arow[q] += fabs(at(p, u, lo + i));
        }
        double rn = 0, an = 0;
        for (int64_t i = 0; i < n; ++i) {
            rn = max_nan(rn, fabs(at(p, rhs, lo + i) - ax[i]));
            an = max_nan(an, arow[i]);
            xn = max_nan(xn, fabs(at(p, x, lo + i)));
        }
        double r = ratio(rn, an, xn, p);
        if (!isnan(best) && !(r <= best)) { /* a NaN ratio sticks */
            best = r;
            ws = s;
        }
    }
    free(ax);
    *max_ratio = best;
    if (worst)
        *worst = ws;
    return HB_SUCCESS;
}
