/* test_openmp_sim_fused.c: the OpenMP backend's fused per-cell simulation loop: bit-identical to the serial oracle in one run or many (epochs), at any thread count (registered with OMP_NUM_THREADS 1, 2, 3). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hb_test_util.h"

#define NC 7  /* cells: more than threads, not a multiple of 2 or 3 */
#define MAXS 64

typedef struct {
    int64_t cell, comp;
    double onset, dur, amp;
} clamp;

typedef struct {
    const hb_morph_cell *cells[NC];
    clamp clamps[3 * NC];
    int64_t nclamps;
    hb_sim_params prm;
    double tstops[8]; /* the run calls' tstop, the last the end */
    int ncalls;
} scenario;

typedef struct {
    int64_t nrows, nsamples, count[NC];
    double *trace, *state[4], times[NC][MAXS];
    char describe[1024];
    hb_sim_timing tm;
} result;

/* Runs the scenario with the given run calls (tstops[0 .. ncalls-1]). */
static void simulate(hb_context *ctx, const scenario *sc, const double *tstops, int ncalls,
                     result *r)
{
    memset(r, 0, sizeof *r);
    hb_sim *sim = NULL;
    HB_CHECK_STATUS(hb_sim_create(ctx, sc->cells, NC, &sc->prm, &sim), HB_SUCCESS);
    if (!sim)
        return;
    for (int64_t i = 0; i < sc->nclamps; ++i)
        HB_CHECK_STATUS(hb_sim_add_iclamp(sim, sc->clamps[i].cell, sc->clamps[i].comp,
                                          sc->clamps[i].onset, sc->clamps[i].dur,
                                          sc->clamps[i].amp),
                        HB_SUCCESS);
    for (int64_t c = 0; c < NC; ++c)
        HB_CHECK_STATUS(hb_sim_record(sim, c), HB_SUCCESS);
    for (int k = 0; k < ncalls; ++k)
        HB_CHECK_STATUS(hb_sim_run(sim, tstops[k]), HB_SUCCESS);
    snprintf(r->describe, sizeof r->describe, "%s", hb_sim_describe(sim));
    hb_sim_rows(sim, &r->nrows);
    hb_sim_trace_count(sim, NULL, &r->nsamples);
    r->trace = hb_test_xalloc((size_t)(NC * r->nsamples) * sizeof(double));
    hb_test_poison(HB_DOUBLE, r->trace, NC * r->nsamples);
    for (int64_t c = 0; c < NC; ++c)
        HB_CHECK_STATUS(hb_sim_get_trace(sim, c, NULL, r->trace + c * r->nsamples), HB_SUCCESS);
    for (int w = 0; w < 4; ++w) {
        r->state[w] = hb_test_xalloc((size_t)r->nrows * sizeof(double));
        hb_test_poison(HB_DOUBLE, r->state[w], r->nrows);
        HB_CHECK_STATUS(hb_sim_get_state(sim, (hb_sim_state)w, r->state[w]), HB_SUCCESS);
    }
    for (int64_t c = 0; c < NC; ++c) {
        hb_test_poison(HB_DOUBLE, r->times[c], MAXS);
        HB_CHECK_STATUS(hb_sim_get_spikes(sim, c, MAXS, r->times[c], &r->count[c]), HB_SUCCESS);
    }
    hb_sim_get_timing(sim, &r->tm);
    hb_sim_destroy(sim);
}

static void result_free(result *r)
{
    free(r->trace);
    for (int w = 0; w < 4; ++w)
        free(r->state[w]);
}

/* Traces, spikes and final state bit for bit. */
static void same(const result *x, const result *ref, const char *what)
{
    HB_CHECK(x->nrows == ref->nrows && x->nsamples == ref->nsamples,
             "%s: %lld rows x %lld samples, oracle %lld x %lld", what, (long long)x->nrows,
             (long long)x->nsamples, (long long)ref->nrows, (long long)ref->nsamples);
    if (x->nrows != ref->nrows || x->nsamples != ref->nsamples)
        return;
    HB_CHECK(hb_test_bitequal(x->trace, ref->trace, (size_t)(NC * x->nsamples) * sizeof(double)),
             "%s: traces not bit-identical", what);
    for (int w = 0; w < 4; ++w)
        HB_CHECK(hb_test_bitequal(x->state[w], ref->state[w], (size_t)x->nrows * sizeof(double)),
                 "%s: state %d not bit-identical", what, w);
    for (int64_t c = 0; c < NC; ++c) {
        HB_CHECK(x->count[c] == ref->count[c], "%s: cell %lld: %lld spikes, oracle %lld", what,
                 (long long)c, (long long)x->count[c], (long long)ref->count[c]);
        HB_CHECK(hb_test_bitequal(x->times[c], ref->times[c], MAXS * sizeof(double)),
                 "%s: cell %lld: spike times differ", what, (long long)c);
    }
}

int main(void)
{
    hb_test_begin("test_openmp_sim_fused");
    hb_context *ctx = hb_test_context();
    hb_test_require_sim(ctx);
    hb_context *oracle = hb_test_oracle();
    const char *threads = getenv("OMP_NUM_THREADS");
    printf("OMP_NUM_THREADS=%s\n", threads ? threads : "(unset)");
    hb_morph_cell *pool[2] = {hb_test_load_swc("jaxley__morph_ca1_n120_250.swc", NULL),
                              hb_test_load_swc("nrn__c91662.swc", NULL)};
    for (int p = 0; p < 2; ++p) {
        for (int mono = 0; mono < 2; ++mono) {
            scenario sc;
            memset(&sc, 0, sizeof sc);
            hb_sim_params_init(&sc.prm);
            sc.prm.precision = p ? HB_FLOAT : HB_DOUBLE;
            sc.prm.hh_everywhere = (int)hb_test_range(0, 1);
            sc.prm.celsius = 6.3 + 20.0 * hb_test_unit();
            sc.prm.record_chunk = hb_test_range(1, 300);
            sc.prm.timing = (int)hb_test_range(0, 1);
            sc.prm.max_spikes = hb_test_range(1, 8);
            for (int64_t c = 0; c < NC; ++c)
                sc.cells[c] = pool[mono ? 0 : hb_test_range(0, 1)];
            /* Strong clamps on some cells (they fire), two on one row of some,
             * none on others; onsets inside the run so that epochs cut them. */
            for (int64_t c = 0; c < NC; ++c) {
                int k = (int)hb_test_range(0, 2);
                int64_t comp = (int64_t)hb_test_range(0, 3);
                for (int i = 0; i < k; ++i)
                    sc.clamps[sc.nclamps++] = (clamp){c, i ? comp : -1, 0.5 + 5 * hb_test_unit(),
                                                      2 + 10 * hb_test_unit(),
                                                      0.3 + 1.5 * hb_test_unit()};
            }
            /* Epochs: increasing stops, one repeated (a call of no steps). */
            double tend = 15.0;
            sc.ncalls = (int)hb_test_range(2, 7);
            for (int k = 0; k < sc.ncalls - 1; ++k)
                sc.tstops[k] = tend * (k + hb_test_unit()) / sc.ncalls;
            sc.tstops[sc.ncalls - 1] = tend;
            sc.tstops[sc.ncalls] = tend; /* the repeated call */
            char what[200];
            snprintf(what, sizeof what, "%s %s, chunk %lld, %d calls", p ? "float" : "double",
                     mono ? "mono" : "mixed", (long long)sc.prm.record_chunk, sc.ncalls + 1);
            result ref, one, many;
            simulate(oracle, &sc, &tend, 1, &ref);
            simulate(ctx, &sc, &tend, 1, &one);
            simulate(ctx, &sc, sc.tstops, sc.ncalls + 1, &many);
            HB_CHECK(strstr(one.describe, "fused per-cell loop") != NULL,
                     "%s: the fused loop did not run: %s", what, one.describe);
            HB_CHECK(strstr(ref.describe, "one launch per stage") != NULL,
                     "%s: the oracle should run per stage: %s", what, ref.describe);
            same(&one, &ref, what);
            same(&many, &ref, what);
            /* With timing the stages split the run (each thread's time, averaged). */
            if (sc.prm.timing) {
                double split = one.tm.membrane_ms + one.tm.assembly_ms + one.tm.solve_ms +
                               one.tm.update_ms;
                HB_CHECK(one.tm.membrane_ms > 0 && one.tm.solve_ms > 0 &&
                             split <= one.tm.total_ms * 1.01 + 0.1,
                         "%s: stages %g ms of %g ms", what, split, one.tm.total_ms);
            }
            int64_t spikes = 0;
            for (int64_t c = 0; c < NC; ++c)
                spikes += ref.count[c];
            printf("%s: %lld compartments, %lld samples, %lld spikes: bit-identical\n", what,
                   (long long)ref.nrows, (long long)ref.nsamples, (long long)spikes);
            result_free(&ref), result_free(&one), result_free(&many);
        }
    }
    hb_morph_cell_destroy(pool[0]);
    hb_morph_cell_destroy(pool[1]);
    hb_context_destroy(oracle);
    hb_context_destroy(ctx);
    return hb_test_finish();
}
