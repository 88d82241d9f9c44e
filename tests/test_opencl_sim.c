/* test_opencl_sim.c: the simulation kernels on OpenCL (kernels_cl/membrane.cl) against the serial backend: soma traces and spike times of HH cells with current clamps. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hb_test_util.h"
#include "hinesbatch_morph.h"
#include "hinesbatch_sim.h"

enum { NCELLS = 5 };

/* Runs the batch on ctx; traces (NCELLS x nsamples) and spike times out. */
static int simulate(hb_context *ctx, hb_precision p, hb_morph_cell *const *cells, double tstop,
                    double *traces, int64_t *nsamples, double *spikes, int64_t *counts)
{
    hb_sim_params prm;
    hb_sim_params_init(&prm);
    prm.precision = p;
    prm.hh_everywhere = 1;
    prm.plan.strategy = HB_STRATEGY_PER_SYSTEM;
    hb_sim *sim = NULL;
    hb_status st = hb_sim_create(ctx, (const hb_morph_cell *const *)cells, NCELLS, &prm, &sim);
    HB_CHECK(st == HB_SUCCESS, "hb_sim_create on %s: %s (%s)", hb_context_describe(ctx),
             hb_status_string(st), hb_last_error());
    if (st != HB_SUCCESS)
        return 0;
    for (int c = 0; c < NCELLS; ++c) {
        /* Different drives: some cells fire repeatedly, one stays subthreshold. */
        if (c != 3)
            HB_CHECK_STATUS(hb_sim_add_iclamp(sim, c, -1, 1.0 + c, 30.0, 0.05 + 0.1 * c), HB_SUCCESS);
        HB_CHECK_STATUS(hb_sim_record(sim, c), HB_SUCCESS);
    }
    /* Two runs: the second continues on device state. */
    HB_CHECK_STATUS(hb_sim_run(sim, tstop / 2), HB_SUCCESS);
    HB_CHECK_STATUS(hb_sim_run(sim, tstop), HB_SUCCESS);
    int64_t nrec = 0;
    HB_CHECK_STATUS(hb_sim_trace_count(sim, &nrec, nsamples), HB_SUCCESS);
    HB_CHECK(nrec == NCELLS, "%lld traces", (long long)nrec);
    for (int64_t r = 0; r < nrec && r < NCELLS; ++r) {
        int64_t cell = -1;
        HB_CHECK_STATUS(hb_sim_get_trace(sim, r, &cell, traces + r * *nsamples), HB_SUCCESS);
        HB_CHECK_STATUS(hb_sim_get_spikes(sim, cell, 64, spikes + cell * 64, &counts[cell]),
                        HB_SUCCESS);
    }
    hb_sim_destroy(sim);
    return 1;
}

static void compare(hb_context *ctx, hb_context *oracle, hb_precision p, hb_morph_cell **cells)
{
    const double tstop = 40.0;
    const int64_t cap = 4000;
    double *tr = calloc(NCELLS * cap, sizeof *tr), *trr = calloc(NCELLS * cap, sizeof *trr);
    double sp[NCELLS * 64], spr[NCELLS * 64];
    int64_t cnt[NCELLS] = {0}, cntr[NCELLS] = {0}, ns = 0, nsr = 0;
    if (!tr || !trr || !simulate(ctx, p, cells, tstop, tr, &ns, sp, cnt) ||
        !simulate(oracle, p, cells, tstop, trr, &nsr, spr, cntr)) {
        free(tr), free(trr);
        return;
    }
    HB_CHECK(ns == nsr && ns > 1 && ns <= cap, "samples %lld vs %lld", (long long)ns,
             (long long)nsr);
    /* Bounds: the kernels do the host's operations in its order, but exp and
     * expm1 of the device's libm may differ from the host's in the last bit;
     * HH dynamics keep such differences small over a 40 ms run. */
    const double vtol = p == HB_DOUBLE ? 1e-6 : 0.5, ttol = p == HB_DOUBLE ? 1e-6 : 0.05;
    double worst_v = 0, worst_t = 0;
    int64_t total = 0;
    for (int c = 0; c < NCELLS; ++c) {
        for (int64_t j = 0; j < ns && ns == nsr; ++j) {
            double e = fabs(tr[c * ns + j] - trr[c * ns + j]);
            worst_v = isnan(e) || e > worst_v ? (isnan(e) ? INFINITY : e) : worst_v;
        }
        HB_CHECK(cnt[c] == cntr[c], "%s cell %d: %lld spikes, oracle %lld",
                 p == HB_DOUBLE ? "double" : "float", c, (long long)cnt[c], (long long)cntr[c]);
        for (int64_t k = 0; k < cnt[c] && k < cntr[c] && k < 64; ++k) {
            double e = fabs(sp[c * 64 + k] - spr[c * 64 + k]);
            worst_t = e > worst_t ? e : worst_t;
        }
        total += cntr[c];
    }
    printf("%s: %lld spikes in %d cells; largest difference from the serial backend: %g mV, "
           "%g ms\n",
           p == HB_DOUBLE ? "double" : "float", (long long)total, NCELLS, worst_v, worst_t);
    HB_CHECK(total >= 3, "only %lld spikes: the test would not exercise spike detection",
             (long long)total);
    HB_CHECK(cntr[3] == 0, "the undriven cell fired %lld times", (long long)cntr[3]);
    HB_CHECK(worst_v <= vtol, "%s: trace differs by %g mV > %g", p == HB_DOUBLE ? "double" : "float",
             worst_v, vtol);
    HB_CHECK(worst_t <= ttol, "%s: spike time differs by %g ms > %g",
             p == HB_DOUBLE ? "double" : "float", worst_t, ttol);
    free(tr), free(trr);
}

int main(void)
{
    hb_test_begin("test_opencl_sim");
    hb_context *ctx = NULL;
    hb_status st = hb_context_create(HB_BACKEND_OPENCL, &ctx);
    if (!hb_backend_compiled(HB_BACKEND_OPENCL)) {
        HB_CHECK(st == HB_ERR_BACKEND_UNAVAILABLE, "OpenCL not built: %s", hb_status_string(st));
        return hb_test_finish();
    }
    HB_CHECK(st == HB_SUCCESS, "OpenCL context: %s (%s)", hb_status_string(st), hb_last_error());
    hb_context *oracle = hb_test_oracle();
    hb_cable cable;
    hb_cable_init(&cable);
    hb_morph_cell *cells[NCELLS] = {0};
    for (int c = 0; c < NCELLS; ++c) {
        int64_t n = hb_test_range(5, 60);
        int32_t *parent = hb_test_xalloc((size_t)n * sizeof *parent);
        hb_test_tree(parent, n, c % 2 ? HB_TREE_RANDOM : HB_TREE_NEURON);
        HB_CHECK_STATUS(hb_morph_cell_from_parent(n, parent, 20.0, c == 0 ? 20.0 : 2.0, &cable,
                                                  &cells[c]),
                        HB_SUCCESS);
        free(parent);
    }
    if (ctx)
        for (int p = 0; p < 2; ++p)
            compare(ctx, oracle, (hb_precision)p, cells);
    for (int c = 0; c < NCELLS; ++c)
        hb_morph_cell_destroy(cells[c]);
    hb_context_destroy(ctx);
    hb_context_destroy(oracle);
    return hb_test_finish();
}
