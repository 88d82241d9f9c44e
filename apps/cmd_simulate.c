/* cmd_simulate.c: `hinesbatch simulate`: a batch of neurons with HH channels on the chosen backend; traces, spikes, plot, performance. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "hinesbatch_sim.h"

#define MAX_FILES 64
#define DEFAULT_SWC "data/morphologies/nrn__c91662.swc"

typedef struct {
    const char *swc[MAX_FILES];
    int nswc;
    int64_t synthetic;       /* compartments of synthetic cells, 0 = SWC      */
    int64_t ncells;
    int mix;
    double tstop;
    double onset, dur, amp;
    double spread;           /* amplitudes from amp*(1-spread) to amp*(1+spread) */
    int64_t record;
    const char *csv, *plot, *spikes, *dump;
    int policy_section;
    int32_t nseg;
    int64_t max_compartments; /* per cell; 0: the library's default */
    uint64_t seed;
    hb_sim_params prm;
} options;

static void usage(void)
{
    printf(
        "usage: hinesbatch simulate [--swc FILE ...|--synthetic N] [--cells N] [--mix]\n"
        "         [--tstop MS] [--dt MS] [--celsius C] [--iclamp ONSET,DUR,AMP] [--hh-everywhere]\n"
        "         [--precision float|double] [--record K] [--csv FILE] [--plot FILE.png]\n"
        "         [--spikes FILE] [--policy sample|section] [--nseg N] [--no-split]\n"
        "         [--layout auto|flat|interleaved|block] [--seed S] [--dump-cell FILE]\n"
        "         [--amp-spread F] [--max-compartments N]\n"
        "Simulates N neurons (default: %d copies of " DEFAULT_SWC ") with a passive\n"
        "leak everywhere and Hodgkin-Huxley channels in the soma (everywhere with\n"
        "--hh-everywhere), a current clamp at every soma (default 5,40,1: onset ms,\n"
        "duration ms, amplitude nA; with --amp-spread F (0.5) the amplitudes run from\n"
        "amp*(1-F) at cell 0 to amp*(1+F) at the last cell), for tstop ms (50) in steps of dt (0.025 ms), on the\n"
        "backend chosen by HINESBATCH_BACKEND. Several --swc files are used in turn;\n"
        "--synthetic N uses synthetic cells of N compartments (with --mix each cell a\n"
        "different random tree). Prints the performance line (compartment-steps per\n"
        "second, time split into membrane, assembly, solve and update; --no-split skips\n"
        "the waits that split needs), spike counts, and writes the soma voltage of the\n"
        "first K recorded cells (4) to --csv, spike times of every cell to --spikes, a\n"
        "plot of the traces to --plot (python3 with matplotlib, apps/plot_traces.py).\n"
        "--dump-cell writes cell 0's compartments (for ci/neuron-check.sh).\n"
        "An SWC cell of more than --max-compartments N compartments (default 1000000) is\n"
        "refused.\n",
        200);
}

static int parse_clamp(const char *s, options *o)
{
    char *end;
    o->onset = strtod(s, &end);
    if (*end != ',')
        return 0;
    o->dur = strtod(end + 1, &end);
    if (*end != ',')
        return 0;
    o->amp = strtod(end + 1, &end);
    return *end == '\0';
}

static int parse_args(int argc, char **argv, options *o)
{
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int used = 1;
        if (!strcmp(a, "--mix"))
            o->mix = 1, used = 0;
        else if (!strcmp(a, "--hh-everywhere"))
            o->prm.hh_everywhere = 1, used = 0;
        else if (!strcmp(a, "--no-split"))
            o->prm.timing = 0, used = 0;
        else if (!v) {
            fprintf(stderr, "simulate: %s needs a value (see --help)\n", a);
            return 0;
        } else if (!strcmp(a, "--swc")) {
            if (o->nswc == MAX_FILES) {
                fprintf(stderr, "simulate: at most %d --swc files\n", MAX_FILES);
                return 0;
            }
            o->swc[o->nswc++] = v;
        } else if (!strcmp(a, "--synthetic"))
            o->synthetic = strtoll(v, NULL, 10);
        else if (!strcmp(a, "--cells"))
            o->ncells = strtoll(v, NULL, 10);
        else if (!strcmp(a, "--tstop"))
            o->tstop = strtod(v, NULL);
        else if (!strcmp(a, "--dt"))
            o->prm.dt = strtod(v, NULL);
        else if (!strcmp(a, "--celsius"))
            o->prm.celsius = strtod(v, NULL);
        else if (!strcmp(a, "--iclamp")) {
            if (!parse_clamp(v, o)) {
                fprintf(stderr, "simulate: --iclamp wants ONSET,DUR,AMP (ms,ms,nA), got '%s'\n", v);
                return 0;
            }
        } else if (!strcmp(a, "--precision")) {
            if (strcmp(v, "float") && strcmp(v, "double")) {
                fprintf(stderr, "simulate: --precision is float or double, got '%s'\n", v);
                return 0;
            }
            o->prm.precision = !strcmp(v, "float") ? HB_FLOAT : HB_DOUBLE;
        } else if (!strcmp(a, "--record"))
            o->record = strtoll(v, NULL, 10);
        else if (!strcmp(a, "--csv"))
            o->csv = v;
        else if (!strcmp(a, "--plot"))
            o->plot = v;
        else if (!strcmp(a, "--spikes"))
            o->spikes = v;
        else if (!strcmp(a, "--amp-spread"))
            o->spread = strtod(v, NULL);
        else if (!strcmp(a, "--dump-cell"))
            o->dump = v;
        else if (!strcmp(a, "--seed"))
            o->seed = strtoull(v, NULL, 10);
        else if (!strcmp(a, "--nseg"))
            o->nseg = (int32_t)strtol(v, NULL, 10);
        else if (!strcmp(a, "--max-compartments"))
            o->max_compartments = strtoll(v, NULL, 10);
        else if (!strcmp(a, "--policy")) {
            if (strcmp(v, "sample") && strcmp(v, "section")) {
                fprintf(stderr, "simulate: --policy is sample or section, got '%s'\n", v);
                return 0;
            }
            o->policy_section = !strcmp(v, "section");
        } else if (!strcmp(a, "--layout")) {
            if (cli_layout_from_name(v, &o->prm.plan.layout) != HB_SUCCESS) {
                fprintf(stderr, "simulate: unknown --layout '%s'\n", v);
                return 0;
            }
        } else {
            fprintf(stderr, "simulate: unknown option '%s' (see --help)\n", a);
            return 0;
        }
        i += used;
    }
    if (o->ncells < 1 || o->record < 0 || !(o->tstop >= 0) || o->synthetic < 0 ||
        !(o->spread >= 0 && o->spread <= 1)) {
        fprintf(stderr, "simulate: --cells must be >= 1, --record >= 0, --tstop >= 0, "
                        "--amp-spread in [0, 1]\n");
        return 0;
    }
    return 1;
}

/* The distinct cells of the batch; cells[c] points into them. */
static hb_status make_cells(const options *o, hb_morph_cell **uniq, int64_t *nuniq,
                            const hb_morph_cell **cells)
{
    hb_synth_geometry geo;
    hb_synth_geometry_init(&geo);
    hb_discretize_options dopt;
    hb_discretize_options_init(&dopt);
    dopt.max_compartments = o->max_compartments; /* checked by the library */
    if (o->policy_section) {
        dopt.policy = HB_POLICY_SECTION;
        dopt.nseg = o->nseg;
    }
    hb_cable cable;
    hb_cable_init(&cable);
    int64_t nu = o->synthetic > 0 ? (o->mix ? o->ncells : 1) : o->nswc;
    hb_status st = HB_SUCCESS;
    for (int64_t u = 0; u < nu && st == HB_SUCCESS; ++u) {
        if (o->synthetic > 0 && o->mix) {
            /* Arbor-style random branching, about `synthetic` compartments. */
            hb_synth_random_params rp = {6, 1.0, 0.3, 200.0, 50.0, o->seed + (uint64_t)u};
            geo.length = 10.0;
            st = hb_morph_synth_random(&rp, &geo, &uniq[u]);
        } else if (o->synthetic > 0) {
            int32_t levels = 4;
            st = hb_morph_synth_levels(o->synthetic, levels, &geo, &uniq[u]);
        } else {
            hb_morph *m = NULL;
            st = hb_morph_read_swc(o->swc[u], NULL, &m);
            if (st == HB_SUCCESS)
                st = hb_morph_cell_create(m, &dopt, &cable, &uniq[u]);
            hb_morph_destroy(m);
        }
        *nuniq = u + 1;
    }
    for (int64_t c = 0; c < o->ncells && st == HB_SUCCESS; ++c)
        cells[c] = uniq[c % nu];
    return st;
}

static int write_csv(const char *path, hb_sim *sim, double dt)
{
    int64_t nrec, ns;
    hb_sim_trace_count(sim, &nrec, &ns);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "simulate: cannot write %s: %s\n", path, strerror(errno));
        return 0;
    }
    double *v = malloc((size_t)(nrec * ns) * sizeof *v + 1);
    fprintf(f, "t_ms");
    for (int64_t r = 0; r < nrec; ++r) {
        int64_t cell;
        hb_sim_get_trace(sim, r, &cell, v + r * ns);
        fprintf(f, ",cell%lld_soma_mV", (long long)cell);
    }
    fprintf(f, "\n");
    for (int64_t j = 0; j < ns; ++j) {
        fprintf(f, "%.6f", (double)j * dt);
        for (int64_t r = 0; r < nrec; ++r)
            fprintf(f, ",%.9g", v[r * ns + j]);
        fprintf(f, "\n");
    }
    free(v);
    int ok = fclose(f) == 0;
    if (!ok)
        fprintf(stderr, "simulate: error writing %s\n", path);
    return ok;
}

/* Compartments of cell 0: what ci/neuron-check.sh rebuilds in NEURON. */
static int dump_cell(const char *path, const hb_morph_cell *cell, hb_sim *sim, int hh_all)
{
    hb_morph_cell_view v;
    int64_t soma;
    if (hb_morph_cell_get_view(cell, &v) != HB_SUCCESS || hb_sim_soma(sim, 0, &soma) != HB_SUCCESS)
        return 0;
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "simulate: cannot write %s: %s\n", path, strerror(errno));
        return 0;
    }
    int any_soma = 0;
    for (int64_t k = 0; k < v.n; ++k)
        any_soma |= v.type[k] == 1;
    fprintf(f, "index,parent,area_um2,g_axial_uS,type,hh,soma\n");
    for (int64_t k = 0; k < v.n; ++k)
        fprintf(f, "%lld,%d,%.17g,%.17g,%d,%d,%d\n", (long long)k, (int)v.parent[k], v.area[k],
                v.g_axial[k], (int)v.type[k], hh_all || v.type[k] == 1 || (!any_soma && k == 0),
                k == soma);
    return fclose(f) == 0;
}

/* Runs apps/plot_traces.py next to this source file, or from the current
 * directory. */
static void plot(const char *csv, const char *png, const char *spikes)
{
    char script[4096];
    const char *src = __FILE__, *slash = strrchr(src, '/');
    if (slash)
        snprintf(script, sizeof script, "%.*s/plot_traces.py", (int)(slash - src), src);
    else
        snprintf(script, sizeof script, "apps/plot_traces.py");
    FILE *probe = fopen(script, "r");
    if (!probe)
        snprintf(script, sizeof script, "apps/plot_traces.py");
    else
        fclose(probe);
    char cmd[12288];
    snprintf(cmd, sizeof cmd, "python3 '%s' '%s' '%s'%s%s%s", script, csv, png,
             spikes ? " --spikes '" : "", spikes ? spikes : "", spikes ? "'" : "");
    fflush(stdout); /* our lines first, then the script's */
    int rc = system(cmd);
    if (rc == 0)
        printf("plot: %s\n", png);
    else
        printf("plot: not written (python3 with matplotlib needed; '%s' returned %d)\n", cmd, rc);
}

int hb_cmd_simulate(int argc, char **argv)
{
    options o;
    memset(&o, 0, sizeof o);
    o.ncells = 200;
    o.spread = 0.5;
    o.tstop = 50.0;
    o.onset = 5.0, o.dur = 40.0, o.amp = 1.0;
    o.record = 4;
    o.seed = 1;
    hb_sim_params_init(&o.prm);
    o.prm.timing = 1;
    for (int i = 1; i < argc; ++i)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage();
            return 0;
        }
    if (!parse_args(argc, argv, &o))
        return 2;
    if (o.synthetic == 0 && o.nswc == 0)
        o.swc[o.nswc++] = DEFAULT_SWC;

    int rc = 1;
    hb_context *ctx = NULL;
    hb_sim *sim = NULL;
    int64_t nuniq = 0, nu_max = o.synthetic > 0 && o.mix ? o.ncells : (o.nswc > 0 ? o.nswc : 1);
    hb_morph_cell **uniq = calloc((size_t)nu_max, sizeof *uniq);
    const hb_morph_cell **cells = calloc((size_t)o.ncells, sizeof *cells);
    char *csv_tmp = NULL;
    if (!uniq || !cells) {
        fprintf(stderr, "simulate: out of memory for %lld cells\n", (long long)o.ncells);
        goto done;
    }
    hb_status st = make_cells(&o, uniq, &nuniq, cells);
    if (st == HB_SUCCESS)
        st = hb_context_create(HB_BACKEND_AUTO, &ctx);
    if (st == HB_SUCCESS)
        st = hb_sim_create(ctx, cells, o.ncells, &o.prm, &sim);
    for (int64_t c = 0; c < o.ncells && st == HB_SUCCESS; ++c) {
        double f = o.ncells > 1 ? (double)c / (double)(o.ncells - 1) : 0.5;
        st = hb_sim_add_iclamp(sim, c, -1, o.onset, o.dur, o.amp * (1 + o.spread * (2 * f - 1)));
    }
    for (int64_t c = 0; c < o.record && c < o.ncells && st == HB_SUCCESS; ++c)
        st = hb_sim_record(sim, c * (o.ncells / (o.record < o.ncells ? o.record : o.ncells)));
    if (st != HB_SUCCESS) {
        fprintf(stderr, "simulate: %s: %s\n", hb_status_string(st), hb_last_error());
        goto done;
    }
    printf("%s\n", hb_sim_describe(sim));
    if (o.spread != 0 && o.ncells > 1)
        printf("stimulus: %g to %g nA", o.amp * (1 - o.spread), o.amp * (1 + o.spread));
    else
        printf("stimulus: %g nA", o.amp);
    printf(" at every soma from %g ms for %g ms; tstop %g ms, %s precision\n", o.onset, o.dur,
           o.tstop, o.prm.precision == HB_DOUBLE ? "double" : "float");
    if (o.dump && !dump_cell(o.dump, cells[0], sim, o.prm.hh_everywhere))
        goto done;
    if ((st = hb_sim_run(sim, o.tstop)) != HB_SUCCESS) {
        fprintf(stderr, "simulate: %s: %s\n", hb_status_string(st), hb_last_error());
        goto done;
    }
    hb_sim_timing tm;
    hb_sim_get_timing(sim, &tm);
    double rate = tm.total_ms > 0 ? (double)tm.compartment_steps / (tm.total_ms * 1e-3) : 0;
    printf("performance: %.3g compartment-steps/s (%lld compartments x %lld steps in %.3f s)",
           rate, (long long)(tm.steps ? tm.compartment_steps / tm.steps : 0), (long long)tm.steps,
           tm.total_ms * 1e-3);
    if (o.prm.timing)
        printf("; membrane %.1f ms, assembly %.1f ms, solve %.1f ms, update %.1f ms, "
               "read-back %.1f ms\n",
               tm.membrane_ms, tm.assembly_ms, tm.solve_ms, tm.update_ms, tm.readback_ms);
    else
        printf("; stage split not measured (--no-split)\n");

    /* Spikes of every cell. */
    int64_t total = 0, spiking = 0, cap = 4096;
    double *times = malloc((size_t)cap * sizeof *times);
    FILE *sf = o.spikes ? fopen(o.spikes, "w") : NULL;
    if (o.spikes && !sf)
        fprintf(stderr, "simulate: cannot write %s: %s\n", o.spikes, strerror(errno));
    if (sf)
        fprintf(sf, "cell,spike_ms\n");
    for (int64_t c = 0; c < o.ncells && times; ++c) {
        int64_t n = 0;
        if ((st = hb_sim_get_spikes(sim, c, cap, times, &n)) != HB_SUCCESS)
            break;
        total += n;
        spiking += n > 0;
        for (int64_t j = 0; sf && j < n && j < cap; ++j)
            fprintf(sf, "%lld,%.6f\n", (long long)c, times[j]);
        if (c == 0) {
            printf("spikes of cell 0: %lld at", (long long)n);
            for (int64_t j = 0; j < n && j < 12; ++j)
                printf(" %.3f", times[j]);
            printf("%s ms\n", n > 12 ? " ..." : "");
        }
    }
    free(times);
    if (sf && fclose(sf) == 0)
        printf("spike times: %s\n", o.spikes);
    printf("spikes: %lld in %lld of %lld cells (threshold %g mV at the soma)\n", (long long)total,
           (long long)spiking, (long long)o.ncells, o.prm.threshold);
    if (st != HB_SUCCESS) {
        fprintf(stderr, "simulate: %s: %s\n", hb_status_string(st), hb_last_error());
        goto done;
    }
    const char *csv = o.csv;
    if (!csv && o.plot) { /* the plot needs a CSV: a temporary one next to it */
        size_t len = strlen(o.plot) + 8;
        csv_tmp = malloc(len);
        if (csv_tmp)
            snprintf(csv_tmp, len, "%s.csv", o.plot);
        csv = csv_tmp;
    }
    if (csv && o.record > 0) {
        if (!write_csv(csv, sim, o.prm.dt))
            goto done;
        if (o.csv)
            printf("traces: %s\n", csv);
        if (o.plot)
            plot(csv, o.plot, o.spikes);
        if (csv_tmp)
            remove(csv_tmp);
    }
    rc = 0;
done:
    hb_sim_destroy(sim);
    hb_context_destroy(ctx);
    for (int64_t u = 0; uniq && u < nuniq; ++u)
        hb_morph_cell_destroy(uniq[u]);
    free(uniq);
    free(cells);
    free(csv_tmp);
    return rc;
}
