/* test_sim_cable.c: hb_sim_set_cm: a region covering everything equals a cell built with that cm (bit for bit), regions that tile the cell equal one call, a passive ball decays with tau = cm/g, bad calls refused without a change. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hb_test_util.h"

#ifndef HB_DATA_DIR
#define HB_DATA_DIR "data"
#endif

static hb_morph_cell *load_swc(const char *name, double cm)
{
    char path[512];
    snprintf(path, sizeof path, "%s/morphologies/%s", HB_DATA_DIR, name);
    hb_morph *m = NULL;
    hb_morph_cell *c = NULL;
    hb_discretize_options o;
    hb_discretize_options_init(&o);
    o.policy = HB_POLICY_SECTION;
    o.nseg = 3;
    hb_cable cab;
    hb_cable_init(&cab);
    cab.cm = cm;
    if (hb_morph_read_swc(path, NULL, &m) != HB_SUCCESS ||
        hb_morph_cell_create(m, &o, &cab, &c) != HB_SUCCESS) {
        fprintf(stderr, "cannot load %s: %s\n", path, hb_last_error());
        exit(1);
    }
    hb_morph_destroy(m);
    return c;
}

/* How the capacitance is given: by the cell (0), hb_sim_set_cm everywhere
 * (1), or in two regions: the soma and what is beyond `split` um, then the
 * rest (2). */
static double *run_cell(hb_context *ctx, hb_precision p, const hb_morph_cell *cell, int how,
                        double cm, double split, int64_t *ns)
{
    hb_sim_params prm;
    hb_sim_params_init(&prm);
    prm.precision = p;
    hb_sim *sim = NULL;
    const hb_morph_cell *cells[1] = {cell};
    HB_CHECK_STATUS(hb_sim_create(ctx, cells, 1, &prm, &sim), HB_SUCCESS);
    if (!sim)
        return NULL;
    HB_CHECK_STATUS(hb_sim_insert(sim, "pas", NULL), HB_SUCCESS);
    HB_CHECK_STATUS(hb_sim_insert(sim, "hh", NULL), HB_SUCCESS);
    HB_CHECK_STATUS(hb_sim_set_param(sim, "hh", "gl", NULL, 0.0), HB_SUCCESS);
    if (how == 1)
        HB_CHECK_STATUS(hb_sim_set_cm(sim, NULL, cm), HB_SUCCESS);
    if (how == 2) {
        hb_sim_region r;
        hb_sim_region_init(&r);
        r.types = HB_SIM_TYPE(1);
        HB_CHECK_STATUS(hb_sim_set_cm(sim, &r, 0.5 * cm), HB_SUCCESS);
        HB_CHECK_STATUS(hb_sim_set_cm(sim, &r, cm), HB_SUCCESS); /* later calls override */
        hb_sim_region_init(&r);
        r.dist_min = split;
        HB_CHECK_STATUS(hb_sim_set_cm(sim, NULL, 3.0 * cm), HB_SUCCESS);
        if (hb_sim_set_cm(sim, &r, cm) != HB_SUCCESS) /* nothing that far: fine */
            printf("(nothing beyond %g um)\n", split);
        hb_sim_region_init(&r);
        r.types = ~HB_SIM_TYPE(1);
        HB_CHECK_STATUS(hb_sim_set_cm(sim, &r, cm), HB_SUCCESS);
        r.types = HB_SIM_TYPE(1);
        HB_CHECK_STATUS(hb_sim_set_cm(sim, &r, cm), HB_SUCCESS);
    }
    HB_CHECK_STATUS(hb_sim_add_iclamp(sim, 0, -1, 1.0, 12.0, 0.3), HB_SUCCESS);
    HB_CHECK_STATUS(hb_sim_record(sim, 0), HB_SUCCESS);
    HB_CHECK_STATUS(hb_sim_run(sim, 15.0), HB_SUCCESS);
    hb_sim_trace_count(sim, NULL, ns);
    double *tr = hb_test_xalloc((size_t)*ns * sizeof(double));
    hb_test_poison(HB_DOUBLE, tr, *ns);
    HB_CHECK_STATUS(hb_sim_get_trace(sim, 0, NULL, tr), HB_SUCCESS);
    hb_sim_destroy(sim);
    return tr;
}

static void equals_cell(hb_context *ctx, hb_precision p)
{
    const double cm = 0.5 + 2.5 * hb_test_unit();
    hb_morph_cell *one = load_swc("jaxley__morph_minimal.swc", 1.0);
    hb_morph_cell *built = load_swc("jaxley__morph_minimal.swc", cm);
    int64_t n[3] = {0, 0, 0};
    double *tr[3];
    tr[0] = run_cell(ctx, p, built, 0, cm, 0, &n[0]);
    tr[1] = run_cell(ctx, p, one, 1, cm, 0, &n[1]);
    tr[2] = run_cell(ctx, p, one, 2, cm, 5 + 50 * hb_test_unit(), &n[2]);
    double peak = -INFINITY;
    for (int64_t k = 0; tr[0] && k < n[0]; ++k)
        peak = fmax(peak, tr[0][k]);
    printf("%s: cm %g: %lld samples, peak %.3f mV\n", hb_test_precision_name(p), cm,
           (long long)n[0], peak);
    HB_CHECK(peak > 0, "the test cell fires (peak %g mV)", peak);
    for (int w = 1; w < 3; ++w)
        HB_CHECK(tr[0] && tr[w] && n[w] == n[0] &&
                     hb_test_bitequal(tr[0], tr[w], (size_t)n[0] * sizeof(double)),
                 "%s: cm %g by %s differs from a cell built with it", hb_test_precision_name(p),
                 cm, w == 1 ? "one call" : "two regions");
    for (int w = 0; w < 3; ++w)
        free(tr[w]);
    hb_morph_cell_destroy(one);
    hb_morph_cell_destroy(built);
}

/* A passive ball from v_init to e: backward Euler's exact sequence
 * e + (v0 - e) (1 + dt/tau)^-n, and within dt/tau of the analytic
 * exponential, tau = cm / g. */
static void ball_tau(hb_context *ctx, hb_precision p)
{
    int32_t root = -1;
    hb_morph_cell *ball = NULL;
    HB_CHECK_STATUS(hb_morph_cell_from_parent(1, &root, 20.0, 20.0, NULL, &ball), HB_SUCCESS);
    hb_sim_params prm;
    hb_sim_params_init(&prm);
    prm.precision = p;
    const double cm = 0.5 + 3 * hb_test_unit(), g = 5e-5 + 2e-4 * hb_test_unit();
    const double e = -70.0, v0 = prm.v_init, tau = cm / g * 1e-3; /* uF/S = 1e-3 ms */
    hb_sim *sim = NULL;
    const hb_morph_cell *cells[1] = {ball};
    HB_CHECK_STATUS(hb_sim_create(ctx, cells, 1, &prm, &sim), HB_SUCCESS);
    if (!sim)
        return;
    HB_CHECK_STATUS(hb_sim_insert(sim, "pas", NULL), HB_SUCCESS);
    HB_CHECK_STATUS(hb_sim_set_param(sim, "pas", "g", NULL, g), HB_SUCCESS);
    HB_CHECK_STATUS(hb_sim_set_param(sim, "pas", "e", NULL, e), HB_SUCCESS);
    HB_CHECK_STATUS(hb_sim_set_cm(sim, NULL, cm), HB_SUCCESS);
    HB_CHECK_STATUS(hb_sim_record(sim, 0), HB_SUCCESS);
    HB_CHECK_STATUS(hb_sim_run(sim, 2 * tau), HB_SUCCESS);
    int64_t ns = 0;
    hb_sim_trace_count(sim, NULL, &ns);
    double *tr = hb_test_xalloc((size_t)(ns > 0 ? ns : 1) * sizeof(double));
    hb_test_poison(HB_DOUBLE, tr, ns);
    HB_CHECK_STATUS(hb_sim_get_trace(sim, 0, NULL, tr), HB_SUCCESS);
    double worst_be = 0, worst_an = 0;
    for (int64_t k = 0; k < ns; ++k) {
        const double be = e + (v0 - e) * pow(1 + prm.dt / tau, -(double)k);
        const double an = e + (v0 - e) * exp(-(double)k * prm.dt / tau);
        worst_be = fmax(worst_be, isnan(tr[k]) ? INFINITY : fabs(tr[k] - be));
        worst_an = fmax(worst_an, isnan(tr[k]) ? INFINITY : fabs(tr[k] - an));
    }
    /* Backward Euler's error against the exponential is at most about
     * |v0 - e| dt / (2 e tau); float rounds each step at ~6e-8 of 70 mV. */
    const double bound_be = p == HB_DOUBLE ? 1e-9 : 2e-3;
    const double bound_an = fabs(v0 - e) * prm.dt / tau + bound_be;
    printf("%s ball: cm %g, g %g, tau %g ms, %lld samples: %.3g mV from backward Euler "
           "(bound %g), %.3g mV from exp(-t/tau) (bound %.3g)\n",
           hb_test_precision_name(p), cm, g, tau, (long long)ns, worst_be, bound_be, worst_an,
           bound_an);
    HB_CHECK(ns > 10 && worst_be <= bound_be, "ball: %g mV from backward Euler", worst_be);
    HB_CHECK(worst_an <= bound_an, "ball: %g mV from the exponential", worst_an);
    free(tr);
    hb_sim_destroy(sim);
    hb_morph_cell_destroy(ball);
}

/* Bad calls: the right code; a good run after them equals a fresh one. */
static void refusals(hb_context *ctx)
{
    hb_morph_cell *cell = load_swc("jaxley__morph_minimal.swc", 1.0);
    const hb_morph_cell *cells[1] = {cell};
    const hb_status E = HB_ERR_INVALID_ARGUMENT;
    hb_sim *sim = NULL;
    HB_CHECK_STATUS(hb_sim_create(ctx, cells, 1, NULL, &sim), HB_SUCCESS);
    if (!sim)
        return;
    hb_sim_region r;
    hb_sim_region_init(&r);
    HB_CHECK_STATUS(hb_sim_set_cm(NULL, NULL, 1.0), E);
    HB_CHECK_STATUS(hb_sim_set_cm(sim, NULL, NAN), E);
    HB_CHECK(strstr(hb_last_error(), "cm") != NULL, "the message names cm: %s", hb_last_error());
    HB_CHECK_STATUS(hb_sim_set_cm(sim, NULL, -1.0), E);
    HB_CHECK_STATUS(hb_sim_set_cm(sim, NULL, INFINITY), E);
    r.cell = 1;
    HB_CHECK_STATUS(hb_sim_set_cm(sim, &r, 2.0), E);
    HB_CHECK(strstr(hb_last_error(), "where->cell") != NULL, "names where->cell: %s",
             hb_last_error());
    r.cell = -1, r.dist_max = NAN;
    HB_CHECK_STATUS(hb_sim_set_cm(sim, &r, 2.0), E);
    r.dist_max = -1; /* no compartment */
    HB_CHECK_STATUS(hb_sim_set_cm(sim, &r, 2.0), E);
    HB_CHECK_STATUS(hb_sim_record(sim, 0), HB_SUCCESS);
    HB_CHECK_STATUS(hb_sim_run(sim, 5.0), HB_SUCCESS);
    HB_CHECK_STATUS(hb_sim_set_cm(sim, NULL, 2.0), E); /* after the first run */
    int64_t ns = 0;
    hb_sim_trace_count(sim, NULL, &ns);
    double *a = hb_test_xalloc((size_t)ns * sizeof(double));
    double *b = hb_test_xalloc((size_t)ns * sizeof(double));
    hb_test_poison(HB_DOUBLE, a, ns), hb_test_poison(HB_DOUBLE, b, ns);
    HB_CHECK_STATUS(hb_sim_get_trace(sim, 0, NULL, a), HB_SUCCESS);
    hb_sim_destroy(sim);
    sim = NULL;
    HB_CHECK_STATUS(hb_sim_create(ctx, cells, 1, NULL, &sim), HB_SUCCESS);
    if (sim) {
        HB_CHECK_STATUS(hb_sim_record(sim, 0), HB_SUCCESS);
        HB_CHECK_STATUS(hb_sim_run(sim, 5.0), HB_SUCCESS);
        HB_CHECK_STATUS(hb_sim_get_trace(sim, 0, NULL, b), HB_SUCCESS);
        HB_CHECK(hb_test_bitequal(a, b, (size_t)ns * sizeof(double)),
                 "refused hb_sim_set_cm calls changed the simulation");
    }
    hb_sim_destroy(sim);
    free(a), free(b);
    hb_morph_cell_destroy(cell);
}

int main(void)
{
    hb_test_begin("test_sim_cable");
    hb_context *ctx = hb_test_context();
    hb_test_require_sim(ctx);
    for (int p = 0; p < 2; ++p) {
        hb_precision prec = p ? HB_FLOAT : HB_DOUBLE;
        equals_cell(ctx, prec);
        ball_tau(ctx, prec);
    }
    refusals(ctx);
    hb_context_destroy(ctx);
    return hb_test_finish();
}
