/* fuzz_cell_solve.c: libFuzzer target: SWC bytes -> cell (small cap) -> batch -> plan and one-shot solves on the serial backend; every accepted input must give a solution whose residual ratio is under LAPACK's 30. */
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hinesbatch_morph.h"

/* Every shipped neuron fits one per sample; refinements past it are refused. */
#define FUZZ_MAX_COMPARTMENTS 20000
#define FUZZ_NSYS 2

#define REQUIRE(cond, ...)                                                    \
    do {                                                                      \
        if (!(cond)) {                                                        \
            fprintf(stderr, "fuzz_cell_solve: %s: ", #cond);                  \
            fprintf(stderr, __VA_ARGS__);                                     \
            fputc('\n', stderr);                                              \
            abort();                                                          \
        }                                                                     \
    } while (0)

/* ||b - A x||_inf / (||A||_inf ||x||_inf eps) of one Hines system, in long
 * double, written here so the check does not trust the library. */
static double hines_ratio(int64_t n, const int32_t *parent, const double *u, const double *l,
                          const double *d, const double *x, const double *b)
{
    long double *r = calloc((size_t)n, sizeof *r), *rowsum = calloc((size_t)n, sizeof *rowsum);
    REQUIRE(r && rowsum, "out of memory");
    for (int64_t i = 0; i < n; ++i) {
        r[i] += (long double)b[i] - (long double)d[i] * x[i];
        rowsum[i] += fabsl((long double)d[i]);
        if (parent[i] >= 0) {
            int64_t p = parent[i];
            r[i] -= (long double)l[i] * x[p], rowsum[i] += fabsl((long double)l[i]);
            r[p] -= (long double)u[i] * x[i], rowsum[p] += fabsl((long double)u[i]);
        }
    }
    long double rn = 0, an = 0, xn = 0;
    for (int64_t i = 0; i < n; ++i) {
        rn = fmaxl(rn, fabsl(r[i])), an = fmaxl(an, rowsum[i]);
        xn = fmaxl(xn, fabsl((long double)x[i]));
    }
    free(r), free(rowsum);
    if (rn == 0)
        return 0;
    return (double)(rn / (an * xn * DBL_EPSILON));
}

static hb_context *serial(void)
{
    static hb_context *ctx;
    if (!ctx)
        REQUIRE(hb_context_create(HB_BACKEND_SERIAL, &ctx) == HB_SUCCESS, "%s", hb_last_error());
    return ctx;
}

/* A solve may fail only as a numerical failure (a pivot or solution that is
 * not finite); a success must be a solution. */
static void check_solve(hb_status st, const hb_morph_batch_view *v, const double *d,
                        const double *x, const double *rhs, const char *how)
{
    if (st != HB_SUCCESS) {
        REQUIRE(st == HB_ERR_NUMERICAL, "%s: %s: %s", how, hb_status_string(st), hb_last_error());
        return;
    }
    for (int64_t s = 0; s < v->nsys; ++s) {
        int64_t o = v->offsets[s], n = v->offsets[s + 1] - o;
        double ratio = hines_ratio(n, v->parent + o, v->u + o, v->l + o, d + o, x + o, rhs + o);
        REQUIRE(ratio < 30, "%s: system %lld of %lld rows: residual ratio %g", how, (long long)s,
                (long long)n, ratio);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* The file is everything up to the last line end; up to two bytes after
     * it choose the options (none: the defaults), so every SWC file is a seed
     * as it is and the fuzzer reaches the options by appending. */
    size_t len = size;
    while (len > 0 && data[len - 1] != '\n')
        --len;
    uint8_t a = size > len ? data[len] : 0, b = size > len + 1 ? data[len + 1] : 0;
    hb_swc_options so;
    hb_swc_options_init(&so);
    so.repair_radii = a & 1;
    double scale[4] = {1, 1e-3, 1e150, 1e-150}; /* geometry at the edges of double */
    so.scale = scale[b >> 6];
    hb_morph *m = NULL;
    if (hb_morph_parse_swc((const char *)data, len, "fuzz", &so, &m) != HB_SUCCESS)
        return 0;
    hb_discretize_options o;
    hb_discretize_options_init(&o);
    o.policy = (a >> 1) & 1 ? HB_POLICY_SECTION : HB_POLICY_SAMPLE;
    o.nseg = (a >> 2) & 3; /* 0: the d_lambda rule */
    double dl[4] = {0.1, 0.02, 0.5, 1e-3};
    o.d_lambda = dl[(a >> 4) & 3];
    o.reroot = (a >> 6) & 1;
    if ((a >> 7) & 1) /* NEURON's conventions (Import3d's cell): sections only */
        o.conventions = HB_CONVENTIONS_NEURON, o.policy = HB_POLICY_SECTION;
    o.max_compartments = FUZZ_MAX_COMPARTMENTS;
    hb_cable cab;
    hb_cable_init(&cab);
    double ra[4] = {35.4, 100, 1, 1e4}, gm[4] = {0, 1e-4, 1e-2, 3e-5};
    cab.ra = ra[b & 3], cab.gm = gm[(b >> 2) & 3];
    double dts[4] = {0.025, 1, 1e-4, INFINITY};
    double dt = dts[(b >> 4) & 3];
    if (isinf(dt) && cab.gm == 0)
        dt = 0.025; /* the steady state needs a leak, or the matrix is singular */
    hb_morph_cell *sentinel = (hb_morph_cell *)&o, *cell = sentinel;
    hb_status st = hb_morph_cell_create(m, &o, &cab, &cell);
    hb_morph_destroy(m);
    if (st != HB_SUCCESS) {
        REQUIRE(st == HB_ERR_INVALID_ARGUMENT || st == HB_ERR_OUT_OF_MEMORY, "cell: %s: %s",
                hb_status_string(st), hb_last_error());
        REQUIRE(cell == sentinel, "cell written on error");
        return 0;
    }
    hb_morph_cell_view cv;
    REQUIRE(hb_morph_cell_get_view(cell, &cv) == HB_SUCCESS, "%s", hb_last_error());
    REQUIRE(cv.n >= 1 && cv.n <= FUZZ_MAX_COMPARTMENTS, "%lld compartments", (long long)cv.n);
    for (int64_t k = 0; k < cv.n; ++k)
        REQUIRE((k == 0 ? cv.parent[k] == -1 : cv.parent[k] >= 0 && cv.parent[k] < k) &&
                    isfinite(cv.area[k]) && cv.area[k] >= 0 && isfinite(cv.distance[k]) &&
                    (k == 0 || (cv.g_axial[k] > 0 && isfinite(cv.g_axial[k]))),
                "compartment %lld: parent %d, area %g, g %g, distance %g", (long long)k,
                (int)cv.parent[k], cv.area[k], cv.g_axial[k], cv.distance[k]);

    hb_morph_batch *batch = NULL;
    st = hb_morph_batch_mono(cell, FUZZ_NSYS, dt, &batch);
    if (st != HB_SUCCESS) {
        REQUIRE(st == HB_ERR_INVALID_ARGUMENT, "batch: %s: %s", hb_status_string(st),
                hb_last_error());
        hb_morph_cell_destroy(cell);
        return 0;
    }
    hb_morph_batch_view v;
    REQUIRE(hb_morph_batch_get_view(batch, &v) == HB_SUCCESS, "%s", hb_last_error());
    size_t bytes = (size_t)v.rows * sizeof(double);
    double *rhs = malloc(bytes), *x = malloc(bytes), *d = malloc(bytes);
    REQUIRE(rhs && x && d, "out of memory");
    /* Resting cells with a current into each root (and, in steady state, only
     * that); at -1 mV where C/dt is so large (areas near 1e308) that
     * -65 C/dt would not be finite. */
    double vrest = -65.0;
    for (int64_t k = 0; k < v.rows; ++k) {
        REQUIRE(isfinite(v.d[k]) && isfinite(v.u[k]) && isfinite(v.l[k]) && isfinite(v.cdt[k]),
                "matrix row %lld not finite", (long long)k);
        if (!isfinite(v.cdt[k] * vrest))
            vrest = -1.0;
    }
    for (int64_t k = 0; k < v.rows; ++k)
        rhs[k] = v.cdt[k] * vrest;
    for (int64_t s = 0; s < v.nsys; ++s)
        rhs[v.offsets[s]] += 0.1 * (double)(s + 1);

    /* Through a plan (the simulator's path) ... */
    hb_plan *plan = NULL;
    st = hb_plan_create_hines_uniform(serial(), HB_DOUBLE, v.nsys, v.n, v.parent, NULL, &plan);
    REQUIRE(st == HB_SUCCESS, "plan: %s", hb_last_error());
    st = hb_plan_set(plan, HB_ARRAY_U, v.u);
    if (st == HB_SUCCESS)
        st = hb_plan_set(plan, HB_ARRAY_L, v.l);
    if (st == HB_SUCCESS)
        st = hb_plan_set(plan, HB_ARRAY_D, v.d);
    if (st == HB_SUCCESS)
        st = hb_plan_set(plan, HB_ARRAY_RHS, rhs);
    REQUIRE(st == HB_SUCCESS, "plan_set: %s", hb_last_error());
    st = hb_plan_solve(plan);
    if (st == HB_SUCCESS)
        st = hb_plan_get_solution(plan, x);
    check_solve(st, &v, v.d, x, rhs, "plan");
    hb_plan_destroy(plan);

    /* ... and one-shot. */
    memcpy(x, rhs, bytes), memcpy(d, v.d, bytes);
    st = hb_dhines_solve(serial(), v.nsys, v.offsets, v.parent, v.u, v.l, d, x);
    check_solve(st, &v, v.d, x, rhs, "one-shot");

    free(rhs), free(x), free(d);
    hb_morph_batch_destroy(batch);
    hb_morph_cell_destroy(cell);
    return 0;
}
