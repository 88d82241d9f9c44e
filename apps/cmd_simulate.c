/* cmd_simulate.c: `hinesbatch simulate`: options, the batch of neurons with HH channels on the chosen backend, and the run. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_opts.h"
#include "cli_out.h"
#include "cli_parse.h"
#include "commands.h"
#include "simulate.h"

#define DEFAULT_SWC "data/morphologies/nrn__c91662.swc"
#define CMD SIM_CMD

static void usage(void)
{
    printf(
        "usage: hinesbatch simulate [--swc FILE ...|--synthetic N [--mix]] [--cells N]\n"
        "         [--tstop MS] [--dt MS] [--celsius C] [--iclamp ONSET,DUR,AMP] [--hh-everywhere]\n"
        "         [--precision float|double] [--record K] [--csv FILE] [--plot FILE.png]\n"
        "         [--spikes FILE] [--policy sample|section [--nseg N]] [--no-split]\n"
        "         [--layout auto|flat|interleaved|block|block-shared] [--seed S]\n"
        "         [--dump-cell FILE] [--amp-spread F] [--max-compartments N]\n"
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
        "plot of the traces to --plot (python3 with matplotlib, apps/plot_traces.py;\n"
        "without them the run still succeeds and says why the plot was not written).\n"
        "--policy section cuts NEURON-style sections by the d_lambda rule, or into N\n"
        "compartments each with --nseg N; a cell of more than --max-compartments N\n"
        "(1000000) is refused. --dump-cell writes cell 0's compartments (for\n"
        "ci/neuron-check.sh).\n"
        CLI_EXIT_HELP,
        200);
}

/* --iclamp ONSET,DUR,AMP: three finite numbers, onset and duration >= 0. */
static int parse_clamp(const char *text, sim_options *o)
{
    char buf[256];
    const char *item[3];
    int n = cli_split(CMD, "--iclamp", text, ',', buf, sizeof buf, item, 3);
    if (n == 0) /* the message is out */
        return 0;
    if (n != 3)
        return cli_bad_value(CMD, "--iclamp", text, "is not ONSET,DUR,AMP (ms,ms,nA)");
    return cli_real(CMD, "--iclamp ONSET", item[0], 0, INFINITY, CLI_LO_CLOSED, &o->onset) &&
           cli_real(CMD, "--iclamp DUR", item[1], 0, INFINITY, CLI_LO_CLOSED, &o->dur) &&
           cli_real(CMD, "--iclamp AMP", item[2], -INFINITY, INFINITY, CLI_LO_CLOSED, &o->amp);
}

enum {
    OPT_SWC = 256, OPT_SYNTHETIC, OPT_CELLS, OPT_MIX, OPT_TSTOP, OPT_DT, OPT_CELSIUS, OPT_ICLAMP,
    OPT_HH, OPT_PRECISION, OPT_RECORD, OPT_CSV, OPT_PLOT, OPT_SPIKES, OPT_POLICY, OPT_NSEG,
    OPT_NOSPLIT, OPT_LAYOUT, OPT_SEED, OPT_DUMP, OPT_SPREAD, OPT_MAXCOMP
};

static const struct option opts[] = {
    {"swc", required_argument, 0, OPT_SWC},         {"synthetic", required_argument, 0, OPT_SYNTHETIC},
    {"cells", required_argument, 0, OPT_CELLS},     {"mix", no_argument, 0, OPT_MIX},
    {"tstop", required_argument, 0, OPT_TSTOP},     {"dt", required_argument, 0, OPT_DT},
    {"celsius", required_argument, 0, OPT_CELSIUS}, {"iclamp", required_argument, 0, OPT_ICLAMP},
    {"hh-everywhere", no_argument, 0, OPT_HH},      {"precision", required_argument, 0, OPT_PRECISION},
    {"record", required_argument, 0, OPT_RECORD},   {"csv", required_argument, 0, OPT_CSV},
    {"plot", required_argument, 0, OPT_PLOT},       {"spikes", required_argument, 0, OPT_SPIKES},
    {"policy", required_argument, 0, OPT_POLICY},   {"nseg", required_argument, 0, OPT_NSEG},
    {"no-split", no_argument, 0, OPT_NOSPLIT},      {"layout", required_argument, 0, OPT_LAYOUT},
    {"seed", required_argument, 0, OPT_SEED},       {"dump-cell", required_argument, 0, OPT_DUMP},
    {"amp-spread", required_argument, 0, OPT_SPREAD}, {"help", no_argument, 0, 'h'},
    {"max-compartments", required_argument, 0, OPT_MAXCOMP},
    {0, 0, 0, 0}};

/* One option into o; 0 after a message. */
static int take(int c, const cli_opts *a, sim_options *o)
{
    static const char *const policies[] = {"sample", "section"};
    const char *f = a->flag, *v = a->value;
    switch (c) {
    case OPT_SWC:
        if (o->nswc == SIM_MAX_FILES) {
            fprintf(stderr, "hinesbatch " CMD ": --swc: at most %d files\n", SIM_MAX_FILES);
            return 0;
        }
        o->swc[o->nswc++] = v;
        return 1;
    case OPT_SYNTHETIC:
        return cli_int(CMD, f, v, 1, INT32_MAX, &o->synthetic);
    case OPT_CELLS:
        return cli_int(CMD, f, v, 1, INT32_MAX, &o->ncells);
    case OPT_TSTOP: /* a count of steps past 2^62 is the library's to refuse */
        return cli_real(CMD, f, v, 0, INFINITY, CLI_LO_CLOSED, &o->tstop);
    case OPT_DT:
        return cli_real(CMD, f, v, 0, INFINITY, CLI_LO_OPEN, &o->prm.dt);
    case OPT_CELSIUS:
        return cli_real(CMD, f, v, -273.15, 1000, CLI_LO_CLOSED, &o->prm.celsius);
    case OPT_ICLAMP:
        return parse_clamp(v, o);
    case OPT_PRECISION:
        return cli_precision(CMD, f, v, &o->prm.precision);
    case OPT_RECORD:
        return cli_int(CMD, f, v, 0, INT32_MAX, &o->record);
    case OPT_POLICY:
        return cli_choice(CMD, f, v, policies, 2, &o->policy);
    case OPT_NSEG:
        o->nseg_given = 1;
        return cli_int32(CMD, f, v, 0, 1000000, &o->nseg);
    case OPT_LAYOUT:
        return cli_layout(CMD, f, v, &o->prm.plan.layout);
    case OPT_SEED:
        return cli_u64(CMD, f, v, &o->seed);
    case OPT_SPREAD:
        return cli_real(CMD, f, v, 0, 1, CLI_LO_CLOSED, &o->spread);
    case OPT_MAXCOMP:
        return cli_int(CMD, f, v, 1, INT32_MAX, &o->max_compartments);
    case OPT_CSV: /* paths: checked by check_outputs once all options are read */
        o->csv = v;
        return 1;
    case OPT_PLOT:
        o->plot = v;
        return 1;
    case OPT_SPIKES:
        o->spikes = v;
        return 1;
    case OPT_DUMP:
        o->dump = v;
        return 1;
    case OPT_MIX:
        o->mix = 1;
        return 1;
    case OPT_HH:
        o->prm.hh_everywhere = 1;
        return 1;
    case OPT_NOSPLIT:
        o->prm.timing = 0;
        return 1;
    default: return 0;
    }
}

static int conflict(const char *what)
{
    fprintf(stderr, "hinesbatch " CMD ": %s\n", what);
    return CLI_EXIT_USAGE;
}

/* Options that contradict each other or would be ignored: usage errors,
 * never a silent choice. */
static int check_combination(const sim_options *o)
{
    if (o->synthetic > 0 && o->nswc > 0)
        return conflict("--swc and --synthetic exclude each other");
    if (o->mix && o->synthetic == 0)
        return conflict("--mix needs --synthetic N");
    if (o->synthetic > 0 && (o->policy >= 0 || o->nseg_given))
        return conflict("--policy and --nseg apply to SWC cells, not to --synthetic");
    if (o->nseg_given && o->policy != 1)
        return conflict("--nseg needs --policy section");
    if ((o->csv || o->plot) && o->record == 0)
        return conflict("--csv and --plot need --record K with K >= 1");
    return CLI_EXIT_OK;
}

/* Output paths checked before the run, so that a typo costs a second. */
static int check_outputs(const sim_options *o)
{
    const char *flags[] = {"--csv", "--plot", "--spikes", "--dump-cell"};
    const char *paths[] = {o->csv, o->plot, o->spikes, o->dump};
    for (int i = 0; i < 4; ++i)
        if (paths[i] && !cli_output_check(CMD, flags[i], paths[i]))
            return 0;
    return 1;
}

/* The distinct cells of the batch; cells[c] points into them. */
static hb_status make_cells(const sim_options *o, hb_morph_cell **uniq, int64_t *nuniq,
                            const hb_morph_cell **cells)
{
    hb_synth_geometry geo;
    hb_synth_geometry_init(&geo);
    hb_discretize_options dopt;
    hb_discretize_options_init(&dopt);
    dopt.max_compartments = o->max_compartments; /* 0: the library's default */
    if (o->policy == 1) {
        dopt.policy = HB_POLICY_SECTION;
        dopt.nseg = o->nseg; /* 0 unless --nseg: the d_lambda rule */
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

static void print_performance(const sim_options *o, hb_sim *sim)
{
    hb_sim_timing tm;
    hb_sim_get_timing(sim, &tm);
    double rate = tm.total_ms > 0 ? (double)tm.compartment_steps / (tm.total_ms * 1e-3) : 0;
    printf("performance: %.3g compartment-steps/s (%lld compartments x %lld steps in %.3f s)",
           rate, (long long)(tm.steps ? tm.compartment_steps / tm.steps : 0), (long long)tm.steps,
           tm.total_ms * 1e-3);
    if (o->prm.timing)
        printf("; membrane %.1f ms, assembly %.1f ms, solve %.1f ms, update %.1f ms, "
               "read-back %.1f ms\n",
               tm.membrane_ms, tm.assembly_ms, tm.solve_ms, tm.update_ms, tm.readback_ms);
    else
        printf("; stage split not measured (--no-split)\n");
}

/* Traces (to --csv, or to a temporary CSV next to the plot) and the plot. */
static int write_traces_and_plot(const sim_options *o, hb_sim *sim)
{
    if (!o->csv && !o->plot)
        return 1;
    char *tmp = NULL;
    const char *csv = o->csv, *flag = "--csv";
    if (!csv) { /* the plot needs a CSV: a temporary one next to it */
        size_t len = strlen(o->plot) + 5;
        if (!(tmp = malloc(len))) {
            fprintf(stderr, "hinesbatch " CMD ": --plot: out of memory\n");
            return 0;
        }
        snprintf(tmp, len, "%s.csv", o->plot);
        csv = tmp, flag = "--plot";
    }
    int ok = sim_write_traces(flag, csv, sim, o->prm.dt);
    if (ok && o->csv)
        printf("traces: %s\n", csv);
    if (ok && o->plot)
        sim_plot(csv, o->plot, o->spikes);
    if (tmp)
        remove(tmp);
    free(tmp);
    return ok;
}

int hb_cmd_simulate(int argc, char **argv)
{
    sim_options o;
    memset(&o, 0, sizeof o);
    o.ncells = 200;
    o.spread = 0.5;
    o.tstop = 50.0;
    o.onset = 5.0, o.dur = 40.0, o.amp = 1.0;
    o.record = 4;
    o.seed = 1;
    o.policy = -1;
    hb_sim_params_init(&o.prm);
    o.prm.timing = 1;
    cli_opts a;
    cli_opts_init(&a, CMD, argc, argv, opts);
    for (int c; (c = cli_opts_next(&a)) != CLI_OPTS_END;) {
        if (c == 'h') {
            usage();
            return CLI_EXIT_OK;
        }
        if (c == CLI_OPTS_BAD || !take(c, &a, &o))
            return CLI_EXIT_USAGE;
    }
    char **rest;
    int rc = cli_opts_operands(&a, &rest, 0) < 0 ? CLI_EXIT_USAGE : check_combination(&o);
    if (rc != CLI_EXIT_OK)
        return rc;
    if (!check_outputs(&o))
        return CLI_EXIT_FAIL;
    if (o.synthetic == 0 && o.nswc == 0)
        o.swc[o.nswc++] = DEFAULT_SWC;

    rc = CLI_EXIT_FAIL;
    hb_context *ctx = NULL;
    hb_sim *sim = NULL;
    int64_t nuniq = 0, nu_max = o.synthetic > 0 && o.mix ? o.ncells : (o.nswc > 0 ? o.nswc : 1);
    hb_morph_cell **uniq = calloc((size_t)nu_max, sizeof *uniq);
    const hb_morph_cell **cells = calloc((size_t)o.ncells, sizeof *cells);
    hb_status st = HB_SUCCESS;
    if (!uniq || !cells) {
        fprintf(stderr, "hinesbatch " CMD ": out of memory for %lld cells\n", (long long)o.ncells);
        goto done;
    }
    st = make_cells(&o, uniq, &nuniq, cells);
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
    if (st != HB_SUCCESS)
        goto done;
    printf("%s\n", hb_sim_describe(sim));
    if (o.spread != 0 && o.ncells > 1)
        printf("stimulus: %g to %g nA", o.amp * (1 - o.spread), o.amp * (1 + o.spread));
    else
        printf("stimulus: %g nA", o.amp);
    printf(" at every soma from %g ms for %g ms; tstop %g ms, %s precision\n", o.onset, o.dur,
           o.tstop, o.prm.precision == HB_DOUBLE ? "double" : "float");
    if (o.dump && !sim_dump_cell(o.dump, cells[0], sim, o.prm.hh_everywhere))
        goto done;
    if ((st = hb_sim_run(sim, o.tstop)) != HB_SUCCESS)
        goto done;
    print_performance(&o, sim);
    if (sim_write_spikes(&o, sim) && write_traces_and_plot(&o, sim))
        rc = CLI_EXIT_OK;
done:
    if (st != HB_SUCCESS)
        fprintf(stderr, "hinesbatch " CMD ": %s: %s\n", hb_status_string(st), hb_last_error());
    hb_sim_destroy(sim);
    hb_context_destroy(ctx);
    for (int64_t u = 0; uniq && u < nuniq; ++u)
        hb_morph_cell_destroy(uniq[u]);
    free(uniq);
    free(cells);
    return rc;
}
