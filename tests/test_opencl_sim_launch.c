/* test_opencl_sim_launch.c: the on-chip epoch's launch on OpenCL, which has no occupancy query (api/sim/sim.c epoch_launch): past 15 cells per compute unit a double batch takes stage vx (v in rhs's array) at one work-item per 24 rows, float never does, nor a batch at or under the threshold; a vx batch's run, with cm changed after creation, matches the oracle's. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hb_test_util.h"
#define HB_CORE_INTERNALS /* a white-box test of the core's rule */
#include "hb_backend.h"

enum { N = 600 }; /* rows: the default group (one work-item per 8) exceeds 64 */

/* hb_sim_describe of a simulation of ncells copies of cell in precision p
 * with engine eng, created into out; when run, with cm set to 1.7 uF/cm2
 * (the step for v reads C/dt from hb_sim_dev.cdt, which hb_sim_set_cm
 * rebuilds) and clamps on the first two cells, run for 2 ms, their soma
 * voltages after it in v. */
static hb_status describe(hb_context *ctx, const hb_morph_cell *cell, int64_t ncells,
                          hb_precision p, hb_sim_engine eng, int run, char *out, size_t size,
                          double *v)
{
    const hb_morph_cell **cells = hb_test_xalloc((size_t)ncells * sizeof *cells);
    for (int64_t c = 0; c < ncells; ++c)
        cells[c] = cell;
    hb_sim_params prm;
    hb_sim_params_init(&prm);
    prm.engine = eng;
    prm.precision = p;
    hb_sim *sim = NULL;
    hb_status st = hb_sim_create(ctx, cells, ncells, &prm, &sim);
    if (st == HB_SUCCESS)
        snprintf(out, size, "%s", hb_sim_describe(sim));
    if (st == HB_SUCCESS && run) {
        hb_sim_region every;
        hb_sim_region_init(&every);
        st = hb_sim_set_cm(sim, &every, 1.7);
        for (int64_t c = 0; st == HB_SUCCESS && c < 2; ++c)
            st = hb_sim_add_iclamp(sim, c, -1, 0.2, 1.5, 0.5 + 0.5 * (double)c);
        if (st == HB_SUCCESS)
            st = hb_sim_run(sim, 2.0);
        for (int64_t c = 0; st == HB_SUCCESS && c < 2; ++c) {
            int64_t soma = -1;
            st = hb_sim_soma(sim, c, &soma);
            double *all_v = hb_test_xalloc((size_t)(ncells * N) * sizeof *all_v);
            if (st == HB_SUCCESS)
                st = hb_sim_get_state(sim, HB_SIM_V, all_v);
            if (st == HB_SUCCESS)
                v[c] = all_v[c * N + soma];
            free(all_v);
        }
    }
    hb_sim_destroy(sim);
    free(cells);
    return st;
}

int main(void)
{
    hb_test_begin("test_opencl_sim_launch");
    hb_context *ctx = hb_test_context();
    hb_test_require_sim(ctx);
    const int64_t cu = ctx->traits.compute_units;
    int32_t par[N];
    par[0] = -1;
    for (int k = 1; k < N; ++k)
        par[k] = (int32_t)hb_test_range(k > 8 ? k - 8 : 0, k - 1);
    hb_cable cb;
    hb_cable_init(&cb);
    hb_morph_cell *cell = NULL;
    HB_CHECK_STATUS(hb_morph_cell_from_parent(N, par, 8.0, 1.5, &cb, &cell), HB_SUCCESS);
    printf("compute units %lld, cells of %d rows\n", (long long)cu, N);
    char d[1024];
    double v[2] = {0, 0}, w[2] = {0, 0};
    /* Past the threshold, double: vx at 64 work-items (600 / 24 rows, in
     * whole warps, at least 64). */
    const int64_t many = 15 * cu + 1;
    if (cell && describe(ctx, cell, many, HB_DOUBLE, HB_SIM_ENGINE_CELLS, 0, d, sizeof d, v) == HB_SUCCESS) {
        printf("double, %lld cells: %s\n", (long long)many, d);
        HB_CHECK(strstr(d, "cells on chip") && strstr(d, "v in the right-hand side's array") &&
                     strstr(d, "of 64 work-items"),
                 "double, %lld cells: %s", (long long)many, d);
    } else
        HB_CHECK(0, "double, %lld cells: %s", (long long)many, hb_last_error());
    /* Float past it, and double at it: no vx. */
    const struct {
        hb_precision p;
        int64_t n;
    } no[] = {{HB_FLOAT, many}, {HB_DOUBLE, 15 * cu}};
    for (int i = 0; i < 2 && cell; ++i) {
        const char *pn = no[i].p == HB_DOUBLE ? "double" : "float";
        if (describe(ctx, cell, no[i].n, no[i].p, HB_SIM_ENGINE_CELLS, 0, d, sizeof d, v) == HB_SUCCESS) {
            printf("%s, %lld cells: %s\n", pn, (long long)no[i].n, d);
            HB_CHECK(strstr(d, "cells on chip") && !strstr(d, "right-hand side"), "%s, %lld cells: %s",
                     pn, (long long)no[i].n, d);
        } else
            HB_CHECK(0, "%s, %lld cells: %s", pn, (long long)no[i].n, hb_last_error());
    }
    /* A vx batch runs as the oracle's (the serial backend, stages). */
    hb_context *oracle = hb_test_oracle();
    if (cell && describe(ctx, cell, many, HB_DOUBLE, HB_SIM_ENGINE_CELLS, 1, d, sizeof d, v) == HB_SUCCESS &&
        describe(oracle, cell, many, HB_DOUBLE, HB_SIM_ENGINE_STAGES, 1, d, sizeof d, w) == HB_SUCCESS) {
        for (int c = 0; c < 2; ++c) {
            printf("cell %d soma at 2 ms: %.12g mV, oracle %.12g (bound %g)\n", c, v[c], w[c],
                   HB_TEST_SIM_MV(HB_DOUBLE, 0));
            HB_CHECK(fabs(v[c] - w[c]) <= HB_TEST_SIM_MV(HB_DOUBLE, 0), "cell %d: %g mV, oracle %g",
                     c, v[c], w[c]);
        }
    } else
        HB_CHECK(0, "the runs: %s", hb_last_error());
    hb_context_destroy(oracle);
    hb_morph_cell_destroy(cell);
    hb_context_destroy(ctx);
    return hb_test_finish();
}
