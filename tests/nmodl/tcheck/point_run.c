/* point_run.c: the point-process halves of ci/t-compare.sh: one compartment (soma.swc) with pas and one point process of the catalogue at its defaults (tests/nmodl/mod/tpulse.mod's TPulse, vstep.mod's VStep: ELECTRODE_CURRENTs; stp.mod's StpSyn, pulse.mod's PulseSyn and train.mod's TrainSyn, with events), 10 ms, its v and NAME.i written as CSV; the CLI has no point processes, so this small program drives the library. */
#include <stdio.h>
#include <stdlib.h>

#define TCHECK_NAME "point_run"
#include "tcheck_cell.h"

/* Usage: point_run SOMA.SWC ENGINE(0 auto, 1 stages, 2 cells) PRECISION(0 double, 1 float)
 * OUT.CSV NAME [EVENTS]; EVENTS W:T1,T2,... gives NAME an event of weight W
 * at each Tk ms (hb_sim_add_events: one connection, as NEURON's NetCon). */
int main(int argc, char **argv)
{
    if (argc != 6 && argc != 7) {
        fprintf(stderr, "usage: point_run SOMA.SWC ENGINE PRECISION OUT.CSV NAME [W:T1,T2,...]\n");
        return 2;
    }
    double weight = 0, times[64];
    int64_t nev = 0;
    if (argc == 7) {
        char *end = NULL, *at = argv[6];
        weight = strtod(at, &end);
        while (end && *end == (nev == 0 ? ':' : ',') && nev < 64) {
            at = end + 1;
            times[nev++] = strtod(at, &end);
        }
        if (!end || *end != '\0' || nev == 0) {
            fprintf(stderr, "point_run: EVENTS %s is not W:T1,T2,...\n", argv[6]);
            return 2;
        }
    }
    hb_morph_cell *cell = NULL;
    CHECK(tcheck_cell(argv[1], &cell));
    hb_context *ctx = NULL;
    CHECK(hb_context_create(HB_BACKEND_AUTO, &ctx));
    hb_sim_params p = tcheck_params(argv[2], argv[3]);
    p.v_init = -65;
    const hb_morph_cell *cells[1] = {cell};
    hb_sim *sim = NULL;
    CHECK(hb_sim_create(ctx, cells, 1, &p, &sim));
    CHECK(hb_sim_insert(sim, "pas", NULL));
    CHECK(hb_sim_set_param(sim, "pas", "g", NULL, 1e-4));
    CHECK(hb_sim_set_param(sim, "pas", "e", NULL, -65));
    int64_t pp, rv, ri;
    CHECK(hb_sim_add_point(sim, argv[5], 0, -1, &pp));
    if (nev > 0)
        CHECK(hb_sim_add_events(sim, pp, nev, times, weight));
    CHECK(hb_sim_probe(sim, 0, 0, "v", &rv));
    CHECK(hb_sim_probe_point(sim, pp, "i", &ri));
    CHECK(hb_sim_run(sim, 10));
    int64_t nrec, ns, c;
    CHECK(hb_sim_trace_count(sim, &nrec, &ns));
    double *v = malloc((size_t)ns * sizeof *v), *i = malloc((size_t)ns * sizeof *i);
    if (!v || !i)
        return 1;
    CHECK(hb_sim_get_trace(sim, rv, &c, v));
    CHECK(hb_sim_get_trace(sim, ri, &c, i));
    FILE *f = fopen(argv[4], "w");
    if (!f) {
        fprintf(stderr, "point_run: cannot write %s\n", argv[4]);
        return 1;
    }
    fprintf(f, "t_ms,v_mV,%s.i\n", argv[5]);
    for (int64_t k = 0; k < ns; ++k)
        fprintf(f, "%.6f,%.17g,%.17g\n", (double)k * p.dt, v[k], i[k]);
    free(v), free(i);
    if (fclose(f) != 0)
        return 1;
    hb_sim_destroy(sim);
    hb_context_destroy(ctx);
    hb_morph_cell_destroy(cell);
    return 0;
}
