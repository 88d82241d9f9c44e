/* stp_net.c: the per-connection half of ci/t-compare.sh: stp.mod's StpSyn (or pulse.mod's PulseSyn, whose self-events carry their connection), whose NET_RECEIVE keeps values per connection, in a network; each connection must keep its own, so the conductance of a synapse with two connections equals the sum of two synapses with one each, and one with two connections from the same cell twice the one with one; and the values read back (hb_net_get_values) must be those the connection's events made, from values set before the run (hb_net_set_values). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TCHECK_NAME "stp_net"
#include "tcheck_cell.h"
#include "hinesbatch_net.h"

/* StpSyn's values (x, u, tlast) after events at times t[0 .. n - 1], as
 * its NET_RECEIVE and INITIAL (x = 1, u = u0, tlast = 0) make them with the
 * default parameters. */
static void stp_expected(const double *t, int64_t n, double out[3])
{
    const double tau_rec = 40, tau_facil = 15, U = 0.3, u0 = 0.1;
    double x = 1, u = u0, tlast = 0;
    for (int64_t k = 0; k < n; ++k) {
        const double gap = t[k] - tlast;
        x = 1 - (1 - x) * exp(-gap / tau_rec);
        u = u0 + (u - u0) * exp(-gap / tau_facil);
        u = u + U * (1 - u);
        x = x - u * x;
        tlast = t[k];
    }
    out[0] = x, out[1] = u, out[2] = tlast;
}

/* Usage: stp_net SOMA.SWC ENGINE(0 auto, 1 stages, 2 cells) PRECISION(0 double, 1 float) TAG
 * [NAME VALUE] (default StpSyn g; PulseSyn wsum, the conductance its open
 * pulses give, which its self-events take off by their connection's values)
 * Cells 0 and 1 (HH, driven at two rates) are the sources; NAME a on cell 2
 * takes both, b on cell 3 cell 0's, c on cell 4 cell 1's, d on cell 2 cell
 * 0's twice, e on cell 2 cell 0's with values set before the run; every
 * cell has HH, and VALUE does not depend on v. Prints one row: the sources'
 * spikes, the largest |g_a - g_b - g_c| and |g_d - 2 g_b| over the run
 * relative to the largest g (g: VALUE), the largest error of the values read
 * back (relative to the largest value), and whether all are within the
 * precision's bound (1e-12 double, 1e-5 float). The values expected: StpSyn's
 * (x, u, tlast) recomputed from the events' times (NET_RECEIVE's t: the end
 * of the source's crossing step plus the delay; those whose step is before
 * the run's end), e's alike (its INITIAL replaces the values set); PulseSyn's
 * count, the number of events (e's plus the 4 set), and nopen and given
 * not negative. */
int main(int argc, char **argv)
{
    if (argc != 5 && argc != 7) {
        fprintf(stderr, "usage: stp_net SOMA.SWC ENGINE PRECISION TAG [NAME VALUE]\n");
        return 2;
    }
    const char *name = argc == 7 ? argv[5] : "StpSyn", *value = argc == 7 ? argv[6] : "g";
    hb_morph_cell *cell = NULL;
    CHECK(tcheck_cell(argv[1], &cell));
    hb_context *ctx = NULL;
    CHECK(hb_context_create(HB_BACKEND_AUTO, &ctx));
    const hb_sim_params p = tcheck_params(argv[2], argv[3]);
    const int is_float = p.precision == HB_FLOAT;
    const hb_morph_cell *cells[5] = {cell, cell, cell, cell, cell};
    hb_sim *sim = NULL;
    CHECK(hb_sim_create(ctx, cells, 5, &p, &sim));
    CHECK(hb_sim_insert(sim, "hh", NULL));
    CHECK(hb_sim_add_iclamp(sim, 0, -1, 2.0, 40.0, 1.0));
    CHECK(hb_sim_add_iclamp(sim, 1, -1, 5.0, 40.0, 0.6));
    int64_t syn[5], probe[4];
    const int64_t on[5] = {2, 3, 4, 2, 2};
    for (int k = 0; k < 5; ++k) {
        CHECK(hb_sim_add_point(sim, name, on[k], -1, &syn[k]));
        if (k < 4)
            CHECK(hb_sim_probe_point(sim, syn[k], value, &probe[k]));
    }
    hb_net *net = NULL;
    CHECK(hb_net_create(NULL, HB_NET_STEP_END, &net));
    const int64_t gids[5] = {0, 1, 2, 3, 4};
    int32_t part = 0;
    CHECK(hb_net_add_part(net, sim, gids, &part));
    const double w = 0.002, delay = 1.0;
    CHECK(hb_net_connect(net, 0, part, syn[0], w, delay));
    CHECK(hb_net_connect(net, 1, part, syn[0], w, delay));
    CHECK(hb_net_connect(net, 0, part, syn[1], w, delay));
    CHECK(hb_net_connect(net, 1, part, syn[2], w, delay));
    CHECK(hb_net_connect(net, 0, part, syn[3], w, delay));
    CHECK(hb_net_connect(net, 0, part, syn[3], w, delay));
    CHECK(hb_net_connect(net, 0, part, syn[4], w, delay));
    /* Connection 6 (into e) starts from set values; 0 .. 5 from 0. */
    const int is_stp = strcmp(name, "StpSyn") == 0;
    const double preset[3] = {is_stp ? 0.5 : 4.0, is_stp ? 0.9 : 0.0, is_stp ? 3.0 : 0.0};
    double got[7][3];
    int32_t nv = 0;
    /* Calls interleaved over two connections, then undone: a later call
     * wins value by value, a shorter one keeps the values past its count, and
     * each connection reads back only its own. */
    const double other[3] = {7.0, 8.0, 9.0}, one = 6.0, zeros[3] = {0, 0, 0};
    CHECK(hb_net_set_values(net, 6, 3, other));
    CHECK(hb_net_set_values(net, 5, 2, other));
    CHECK(hb_net_set_values(net, 6, 1, &one));
    CHECK(hb_net_get_values(net, 6, 3, got[6], &nv));
    if (nv != 3 || got[6][0] != one || got[6][1] != other[1] || got[6][2] != other[2]) {
        fprintf(stderr, "stp_net: values after a shorter call: %d (%g %g %g)\n", (int)nv,
                got[6][0], got[6][1], got[6][2]);
        return 1;
    }
    CHECK(hb_net_get_values(net, 5, 3, got[5], &nv));
    if (got[5][0] != other[0] || got[5][1] != other[1] || got[5][2] != 0) {
        fprintf(stderr, "stp_net: connection 5's values: %g %g %g\n", got[5][0], got[5][1],
                got[5][2]);
        return 1;
    }
    CHECK(hb_net_set_values(net, 5, 3, zeros));
    CHECK(hb_net_set_values(net, 6, 3, preset));
    CHECK(hb_net_get_values(net, 6, 3, got[6], &nv));
    if (nv != 3 || got[6][0] != preset[0] || got[6][1] != preset[1] || got[6][2] != preset[2]) {
        fprintf(stderr, "stp_net: values before the run: %d (%g %g %g)\n", (int)nv, got[6][0],
                got[6][1], got[6][2]);
        return 1;
    }
    const double tstop = 50.0;
    CHECK(hb_net_run(net, tstop));
    hb_net_spike sp[512];
    int64_t nsp = 0, from[2] = {0, 0};
    CHECK(hb_net_spikes(net, 0, 512, sp, &nsp));
    for (int64_t k = 0; k < nsp && k < 512; ++k)
        if (sp[k].gid < 2)
            from[sp[k].gid]++;
    int64_t nrec = 0, ns = 0, c = 0;
    CHECK(hb_sim_trace_count(sim, &nrec, &ns));
    double *g[4];
    for (int k = 0; k < 4; ++k) {
        g[k] = malloc((size_t)ns * sizeof *g[k]);
        if (!g[k])
            return 1;
        CHECK(hb_sim_get_trace(sim, probe[k], &c, g[k]));
    }
    double gmax = 0, sum = 0, twice = 0;
    for (int64_t j = 0; j < ns; ++j) {
        gmax = fmax(gmax, fabs(g[0][j]));
        sum = fmax(sum, fabs(g[0][j] - g[1][j] - g[2][j]));
        twice = fmax(twice, fabs(g[3][j] - 2 * g[1][j]));
    }
    sum /= gmax > 0 ? gmax : 1;
    twice /= gmax > 0 ? gmax : 1;
    /* Each connection's event times (HB_NET_STEP_END: the end of the
     * crossing's step plus the delay), those delivered before tstop. */
    const double dt = p.dt;
    double tev[2][512];
    int64_t nev[2] = {0, 0};
    for (int64_t k = 0; k < nsp && k < 512; ++k) {
        if (sp[k].gid > 1)
            continue;
        const double due = ceil(sp[k].t / dt - 1e-9) * dt + delay;
        if (ceil(due / dt - 0.5 - 1e-9) < floor(tstop / dt + 0.5))
            tev[sp[k].gid][nev[sp[k].gid]++] = due;
    }
    const int64_t srcof[7] = {0, 1, 0, 1, 0, 0, 0};
    double verr = 0, vmax = 0;
    for (int64_t k = 0; k < 7; ++k) {
        CHECK(hb_net_get_values(net, k, 3, got[k], &nv));
        double want[3];
        if (is_stp) {
            stp_expected(tev[srcof[k]], nev[srcof[k]], want);
        } else {
            want[0] = (double)nev[srcof[k]] + (k == 6 ? preset[0] : 0);
            want[1] = got[k][1] >= 0 ? got[k][1] : 0; /* open pulses: not negative */
            want[2] = got[k][2] >= 0 ? got[k][2] : 0;
        }
        for (int q = 0; q < 3; ++q) {
            verr = fmax(verr, fabs(got[k][q] - want[q]));
            vmax = fmax(vmax, fabs(want[q]));
        }
        if (nv != 3)
            verr = INFINITY;
    }
    verr /= vmax > 0 ? vmax : 1;
    const double bound = is_float ? 1e-5 : 1e-12;
    /* Both sources must fire several times: facilitation and depression
     * are what tell a connection's own values from a shared set. */
    const int ok = from[0] >= 3 && from[1] >= 3 && gmax > 0 && sum <= bound && twice <= bound &&
                   verr <= bound;
    printf("| %s | %lld + %lld spikes | %.3g | %.3g | %.3g | %s |\n", argv[4], (long long)from[0],
           (long long)from[1], sum, twice, verr, ok ? "yes" : "NO");
    for (int k = 0; k < 4; ++k)
        free(g[k]);
    hb_net_destroy(net);
    hb_sim_destroy(sim);
    hb_context_destroy(ctx);
    hb_morph_cell_destroy(cell);
    return ok ? 0 : 1;
}
