/* test_sim_float.c: float follows double on real neurons with HH everywhere over 300 ms (spike times within 0.01 ms, voltage within 0.25 mV away from spikes), on each engine of the backend; double against the serial oracle (where the on-chip epoch keeps HH's state in registers). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hb_test_util.h"

#define MAX_SPIKES 256

typedef struct {
    double *v;
    int64_t ns;
    double t[MAX_SPIKES];
    int64_t nspk;
    char describe[512];
} run_out;

/* The clamp: from CLAMP_DELAY to clamp_end(tstop) = tstop - CLAMP_DELAY. */
#define CLAMP_DELAY 10.0
static double clamp_end(double tstop)
{
    return tstop - CLAMP_DELAY;
}

/* One cell with HH everywhere, a clamp of amp nA at the soma from
 * CLAMP_DELAY to clamp_end(tstop); the soma's trace and spikes. Returns 0
 * when the backend has no such engine. */
static int run_cell(hb_context *ctx, const hb_morph_cell *cell, hb_precision p,
                    hb_sim_engine engine, double amp, double tstop, run_out *o)
{
    hb_sim_params prm;
    hb_sim_params_init(&prm);
    prm.precision = p;
    prm.engine = engine;
    prm.max_spikes = MAX_SPIKES;
    hb_sim *sim = NULL;
    const hb_morph_cell *cells[1] = {cell};
    hb_status st = hb_sim_create(ctx, cells, 1, &prm, &sim);
    if (st == HB_ERR_BACKEND_UNAVAILABLE)
        return 0;
    HB_CHECK_STATUS(st, HB_SUCCESS);
    if (!sim)
        return 0;
    HB_CHECK_STATUS(hb_sim_insert(sim, "hh", NULL), HB_SUCCESS);
    HB_CHECK_STATUS(hb_sim_add_iclamp(sim, 0, -1, CLAMP_DELAY, clamp_end(tstop) - CLAMP_DELAY, amp),
                    HB_SUCCESS);
    HB_CHECK_STATUS(hb_sim_record(sim, 0), HB_SUCCESS);
    HB_CHECK_STATUS(hb_sim_run(sim, tstop), HB_SUCCESS);
    snprintf(o->describe, sizeof o->describe, "%s", hb_sim_describe(sim));
    hb_sim_trace_count(sim, NULL, &o->ns);
    o->v = hb_test_xalloc((size_t)(o->ns > 0 ? o->ns : 1) * sizeof *o->v);
    hb_test_poison(HB_DOUBLE, o->v, o->ns);
    hb_test_poison(HB_DOUBLE, o->t, MAX_SPIKES);
    HB_CHECK_STATUS(hb_sim_get_trace(sim, 0, NULL, o->v), HB_SUCCESS);
    HB_CHECK_STATUS(hb_sim_get_spikes(sim, 0, MAX_SPIKES, o->t, &o->nspk), HB_SUCCESS);
    hb_sim_destroy(sim);
    return 1;
}

/* Spikes of o up to time t_end. */
static int64_t spikes_until(const run_out *o, double t_end)
{
    int64_t n = 0;
    while (n < o->nspk && n < MAX_SPIKES && o->t[n] <= t_end)
        ++n;
    return n;
}

/* Float against double of the same backend and engine while the clamp
 * drives the cell (up to t_end, its end): the same spikes within 0.01 ms,
 * the soma voltage within 0.25 mV more than 2 ms from any of double's
 * spikes: a fifth of issue 19's bounds (0.05 ms, 1 mV). The step for dv
 * gives 1.2e-4 ms and 5e-3 mV on the CA1 cell (serial); the step that
 * solved for v itself gave 0.038 ms and 1.6 mV (it fails). After the clamp
 * ends, a spike it leaves on the edge of threshold is not compared: its
 * timing amplifies rounding without bound (jaxley__morph_ca1_n120 at
 * 2.319 nA, seed 3815727050100: 0.019 ms at 294.2 ms, 4 ms after the
 * clamp, where every spike before it agreed within 3e-4 ms). */
static void compare(const char *what, const run_out *d, const run_out *f, double dt,
                    double t_end)
{
    const int64_t nd = spikes_until(d, t_end), nf = spikes_until(f, t_end);
    HB_CHECK(nd == nf, "%s: float %lld spikes up to %g ms, double %lld", what, (long long)nf,
             t_end, (long long)nd);
    double dts = 0, dv = 0, at = 0;
    for (int64_t j = 0; j < nd && j < nf; ++j)
        dts = fmax(dts, fabs(d->t[j] - f->t[j]));
    HB_CHECK(d->ns == f->ns, "%s: %lld and %lld samples", what, (long long)d->ns,
             (long long)f->ns);
    for (int64_t k = 0; k < d->ns && k < f->ns; ++k) {
        const double t = (double)(k + 1) * dt;
        if (t > t_end)
            break;
        int away = 1;
        for (int64_t j = 0; j < d->nspk && j < MAX_SPIKES && away; ++j)
            away = fabs(t - d->t[j]) > 2.0;
        const double e = fabs(d->v[k] - f->v[k]);
        if (away && !(e <= dv))
            dv = e, at = t;
    }
    printf("%s: %lld spikes up to %g ms, float - double: spike times %.3g ms, voltage %.3g mV "
           "(at %.1f ms) away from spikes (bounds 0.01 ms, 0.25 mV)\n",
           what, (long long)nd, t_end, dts, dv, at);
    HB_CHECK(dts <= 0.01, "%s: spike times differ by %g ms (bound 0.01)", what, dts);
    HB_CHECK(dv <= 0.25, "%s: voltage differs by %g mV at %g ms (bound 0.25)", what, dv, at);
    HB_CHECK(nd >= 3, "%s: %lld spikes: the protocol should fire repeatedly", what,
             (long long)nd);
}

/* Double against the serial oracle's double: the same spikes within
 * HB_TEST_SIM_MS, every sample within HB_TEST_SIM_MV (another summation
 * order: the epoch adds the axial currents inside its elimination). */
static void against_oracle(const char *what, const run_out *d, const run_out *ref)
{
    HB_CHECK(d->nspk == ref->nspk, "%s: %lld spikes, the oracle %lld", what,
             (long long)d->nspk, (long long)ref->nspk);
    double dts = 0, dv = 0;
    for (int64_t j = 0; j < d->nspk && j < ref->nspk && j < MAX_SPIKES; ++j)
        dts = fmax(dts, fabs(d->t[j] - ref->t[j]));
    for (int64_t k = 0; k < d->ns && k < ref->ns; ++k) {
        const double e = fabs(d->v[k] - ref->v[k]);
        dv = e <= dv ? dv : e;
    }
    printf("%s: double against the serial oracle: spike times %.3g ms, voltage %.3g mV "
           "(bounds %g, %g)\n", what, dts, dv, HB_TEST_SIM_MS(HB_DOUBLE, 0),
           HB_TEST_SIM_MV(HB_DOUBLE, 0));
    HB_CHECK(d->ns == ref->ns && dts <= HB_TEST_SIM_MS(HB_DOUBLE, 0) &&
                 dv <= HB_TEST_SIM_MV(HB_DOUBLE, 0),
             "%s: against the oracle: %lld and %lld samples, spikes %g ms, voltage %g mV", what,
             (long long)d->ns, (long long)ref->ns, dts, dv);
}

int main(void)
{
    hb_test_begin("test_sim_float");
    hb_context *ctx = hb_test_context();
    hb_test_require_sim(ctx);
    /* Each neuron as NEURON-style sections (3 compartments each) under a
     * clamp drawn from a range that fires it repeatedly, for 300 ms: the
     * drift of a step that solves for v itself in float (terms of C/dt v,
     * rounded relative to |v|) grows with time. */
    struct {
        const char *swc;
        double amp_lo, amp_hi;
    } cases[] = {
        {"jaxley__morph_ca1_n120.swc", 1.5, 2.5},
        {"netpyne__BS0284.swc", 1.4, 2.0},
    };
    const double tstop = 300.0;
    hb_context *oracle = hb_test_oracle();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        hb_morph_cell *cell = hb_test_load_sections(cases[i].swc, 3);
        const double amp =
            cases[i].amp_lo + (cases[i].amp_hi - cases[i].amp_lo) * hb_test_unit();
        run_out ref;
        memset(&ref, 0, sizeof ref);
        if (!run_cell(oracle, cell, HB_DOUBLE, HB_SIM_ENGINE_STAGES, amp, tstop, &ref)) {
            HB_CHECK(0, "%s: the serial oracle did not run", cases[i].swc);
            hb_morph_cell_destroy(cell);
            continue;
        }
        for (int e = 0; e < 2; ++e) {
            const hb_sim_engine eng = e ? HB_SIM_ENGINE_CELLS : HB_SIM_ENGINE_STAGES;
            run_out d, f;
            memset(&d, 0, sizeof d), memset(&f, 0, sizeof f);
            if (!run_cell(ctx, cell, HB_DOUBLE, eng, amp, tstop, &d) ||
                !run_cell(ctx, cell, HB_FLOAT, eng, amp, tstop, &f)) {
                printf("%s, engine %s: not on this backend\n", cases[i].swc,
                       e ? "cells" : "stages");
                free(d.v), free(f.v);
                continue;
            }
            char what[256];
            snprintf(what, sizeof what, "%s (HH everywhere, %.3f nA, %.0f ms), engine %s",
                     cases[i].swc, amp, tstop, e ? "cells" : "stages");
            printf("%s: %s\n", what, f.describe);
            compare(what, &d, &f, 0.025, clamp_end(tstop));
            against_oracle(what, &d, &ref);
            free(d.v), free(f.v);
        }
        free(ref.v);
        hb_morph_cell_destroy(cell);
    }
    hb_context_destroy(oracle);
    hb_context_destroy(ctx);
    return hb_test_finish();
}
