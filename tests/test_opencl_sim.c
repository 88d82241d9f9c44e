/* test_opencl_sim.c: the simulation kernels on OpenCL (kernels_cl/sim/membrane.cl) against the serial backend: soma traces and spike times of HH cells with current clamps. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hb_test_util.h"

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
    /* The kernels do the host's operations in its order (per-system plans),
     * but exp and expm1 of the device's libm may differ from the host's in the
     * last bit: the simulation bounds of hb_test_util.h. */
    hb_sim_params prm;
    hb_sim_params_init(&prm); /* simulate() keeps its dt */
    const hb_test_sim_run x = {NCELLS, ns, 64, prm.dt, tr, sp, cnt, prm.threshold};
    const hb_test_sim_run ref = {NCELLS, nsr, 64, prm.dt, trr, spr, cntr, prm.threshold};
    char what[64];
    snprintf(what, sizeof what, "%s, %d cells", hb_test_precision_name(p), NCELLS);
    hb_test_compare_sim(hb_context_backend(ctx), 1, p, &x, &ref, what);
    int64_t total = 0;
    for (int c = 0; c < NCELLS; ++c)
        total += cntr[c];
    printf("%s: %lld spikes\n", what, (long long)total);
    HB_CHECK(total >= 3, "only %lld spikes: the test would not exercise spike detection",
             (long long)total);
    HB_CHECK(cntr[3] == 0, "the undriven cell fired %lld times", (long long)cntr[3]);
    free(tr), free(trr);
}

int main(void)
{
    hb_test_begin("test_opencl_sim");
    hb_context *ctx = hb_test_backend_context(HB_BACKEND_OPENCL);
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
    for (int p = 0; p < 2; ++p)
        compare(ctx, oracle, (hb_precision)p, cells);
    for (int c = 0; c < NCELLS; ++c)
        hb_morph_cell_destroy(cells[c]);
    hb_context_destroy(ctx);
    hb_context_destroy(oracle);
    return hb_test_finish();
}
