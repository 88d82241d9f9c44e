/* oneshot.c: the one-shot solves on host arrays, thin wrappers over plans. */
#include "hb_plan.h"

/* ctx, nsys and, when there is anything to solve, every array named. */
static hb_status check_args(hb_context *ctx, int64_t nsys, const void *const *ptr,
                            const char *const *name, int n, const char *fn)
{
    if (!ctx)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: ctx is NULL", fn);
    if (nsys < 0)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: nsys = %lld is negative", fn,
                         (long long)nsys);
    for (int i = 0; nsys > 0 && i < n; ++i)
        if (!ptr[i])
            return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: %s is NULL", fn, name[i]);
    return HB_SUCCESS;
}

/* Sets every array, solves and reads back; the plan writes x only on success. */
static hb_status run_plan(hb_plan *plan, const hb_array *which, const void *const *data, int n,
                          void *x)
{
    hb_status st = HB_SUCCESS;
    for (int i = 0; i < n && st == HB_SUCCESS; ++i)
        st = hb_plan_set(plan, which[i], data[i]);
    if (st == HB_SUCCESS)
        st = hb_plan_solve(plan);
    if (st == HB_SUCCESS)
        st = hb_plan_get_solution(plan, x);
    hb_plan_destroy(plan);
    return st;
}

static hb_status tridiag(hb_context *ctx, hb_precision p, int64_t nsys, const int64_t *offsets,
                         const void *a, const void *b, const void *c, void *d, const char *fn)
{
    static const char *const name[] = {"offsets", "a", "b", "c", "d"};
    const void *const data[] = {offsets, a, b, c, d};
    HB_FORWARD(check_args(ctx, nsys, data, name, 5, fn));
    if (nsys == 0)
        return HB_SUCCESS;
    hb_plan *plan = NULL;
    HB_FORWARD(hb_plan_create_tridiag(ctx, p, nsys, offsets, NULL, &plan));
    static const hb_array which[] = {HB_ARRAY_A, HB_ARRAY_B, HB_ARRAY_C, HB_ARRAY_RHS};
    return run_plan(plan, which, data + 1, 4, d);
}

static hb_status hines(hb_context *ctx, hb_precision p, int64_t nsys, const int64_t *offsets,
                       const int32_t *parent, const void *u, const void *l, const void *d,
                       void *rhs, const char *fn)
{
    static const char *const name[] = {"offsets", "parent", "u", "l", "d", "rhs"};
    const void *const data[] = {offsets, parent, u, l, d, rhs};
    HB_FORWARD(check_args(ctx, nsys, data, name, 6, fn));
    if (nsys == 0)
        return HB_SUCCESS;
    hb_plan *plan = NULL;
    HB_FORWARD(hb_plan_create_hines(ctx, p, nsys, offsets, parent, NULL, &plan));
    static const hb_array which[] = {HB_ARRAY_U, HB_ARRAY_L, HB_ARRAY_D, HB_ARRAY_RHS};
    return run_plan(plan, which, data + 2, 4, rhs);
}

hb_status hb_dtridiag_solve(hb_context *ctx, int64_t nsys, const int64_t *offsets,
                            const double *a, const double *b, const double *c, double *d)
{
    return tridiag(ctx, HB_DOUBLE, nsys, offsets, a, b, c, d, "hb_dtridiag_solve");
}

hb_status hb_stridiag_solve(hb_context *ctx, int64_t nsys, const int64_t *offsets,
                            const float *a, const float *b, const float *c, float *d)
{
    return tridiag(ctx, HB_FLOAT, nsys, offsets, a, b, c, d, "hb_stridiag_solve");
}

hb_status hb_dhines_solve(hb_context *ctx, int64_t nsys, const int64_t *offsets,
                          const int32_t *parent, const double *u, const double *l,
                          const double *d, double *rhs)
{
    return hines(ctx, HB_DOUBLE, nsys, offsets, parent, u, l, d, rhs, "hb_dhines_solve");
}

hb_status hb_shines_solve(hb_context *ctx, int64_t nsys, const int64_t *offsets,
                          const int32_t *parent, const float *u, const float *l,
                          const float *d, float *rhs)
{
    return hines(ctx, HB_FLOAT, nsys, offsets, parent, u, l, d, rhs, "hb_shines_solve");
}
