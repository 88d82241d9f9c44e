/* cmd_simulate.c: `hinesbatch simulate`: options, the batch of neurons with HH channels on the chosen backend, and the run. */
#define _POSIX_C_SOURCE 200809L /* access */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_opts.h"
#include "cli_out.h"
#include "cli_parse.h"
#include "cli_paths.h"
#include "commands.h"
#include "model_file.h"
#include "simulate.h"

#define DEFAULT_SWC "nrn__c91662.swc" /* in the shipped neurons' folder (cli_paths.h) */
#define CMD SIM_CMD

static void usage(void)
{
    char dir[4096], script[4096];
    cli_python py;
    cli_python_find(&py);
    if (!cli_data_dir(CLI_DATA_MORPHOLOGIES, dir, sizeof dir, NULL))
        snprintf(dir, sizeof dir, "(path too long)");
    if (!cli_data_file(CLI_DATA_SCRIPTS, "plot_traces.py", script, sizeof script, NULL))
        snprintf(script, sizeof script, "(path too long)");
    printf(
        "usage: hinesbatch simulate [--swc FILE ...|--synthetic N [--mix]] [--cells N]\n"
        "         [--tstop MS] [--dt MS] [--celsius C] [--iclamp ONSET,DUR,AMP] [--amp-spread F]\n"
        "         [--hh-everywhere] [--precision float|double] [--record K] [--csv FILE]\n"
        "         [--plot FILE.png] [--spikes FILE] [--no-split] [--seed S] [--dump-cell FILE]\n"
        "         [--layout auto|flat|interleaved|block|block-shared]\n"
        "         [--engine auto|stages|cells] [--epoch STEPS] [--group-size N]\n"
        "         [--cell-chain N]\n"
        "  model: [--model FILE.json]\n"
        "  SWC:   [--policy sample|section [--nseg N | --d-lambda X | --seg-length UM]]\n"
        "         [--scale S]\n"
        "         [--repair-radii] [--reroot] [--max-compartments N] [--neuron-conventions]\n"
        "  cable: [--ra OHM_CM] [--cm UF_CM2]\n"
        "  HH:    [--gnabar S_CM2] [--gkbar S_CM2] [--gl S_CM2] [--el MV] [--ena MV] [--ek MV]\n"
        "         [--v-init MV] [--threshold MV]\n"
        "Simulates N neurons (default: %d copies of the shipped " DEFAULT_SWC ") with a\n"
        "passive leak everywhere and Hodgkin-Huxley channels in the soma (everywhere\n"
        "with --hh-everywhere), a current clamp at every soma (default 5,40,1:\n"
        "onset ms, duration ms, amplitude nA; with --amp-spread F (0.5) the amplitudes run\n"
        "from amp*(1-F) at cell 0 to amp*(1+F) at the last cell), for tstop ms (50) in\n"
        "steps of dt (0.025 ms), on the backend chosen by HINESBATCH_BACKEND. Several --swc\n"
        "files are used in turn; --synthetic N uses synthetic cells of N compartments\n"
        "(with --mix each cell a different random tree). Prints the performance line\n"
        "(compartment-steps per second, time split into membrane, assembly, solve and\n"
        "update; --no-split skips the waits that split needs) and spike counts; writes\n"
        "the soma voltage of K recorded cells (4) and a --model file's \"probes\" to --csv,\n"
        "spike times of every cell to --spikes, and to --plot a figure of both (a spike\n"
        "raster of every cell and the recorded soma traces; apps/plot_traces.py, run by a\n"
        "Python with matplotlib: the one found when hinesbatch was configured;\n"
        "HINESBATCH_PYTHON overrides).\n"
        "SWC cells: --policy section cuts NEURON-style sections, into N compartments\n"
        "each (--nseg N), by the d_lambda rule (--nseg 0, or --d-lambda X: 0.1), or\n"
        "1 + 2 floor(L / UM) each, L the section's length (--seg-length UM: Hay's rule);\n"
        "--scale multiplies coordinates and radii (1e-3 for files in nm); --repair-radii\n"
        "gives a radius <= 0 its parent's; --reroot re-roots at the compartment that\n"
        "minimises the depth; a cell of more than --max-compartments N (1000000) is\n"
        "refused; --neuron-conventions builds the cells as NEURON's Import3d does (implies\n"
        "--policy section; docs/morphology.md). Cable (every cell): --ra axial resistivity (35.4 ohm*cm), --cm\n"
        "membrane capacitance (1 uF/cm2). Channels (NEURON's hh.mod): --gnabar 0.12,\n"
        "--gkbar 0.036, --gl 0.0003 (S/cm2, in [0, 1000]); --el -54.3, --ena 50, --ek -77,\n"
        "--v-init -65, --threshold -20 (spike threshold at the soma) (mV, in [-1000,\n"
        "1000]); --celsius 6.3. --engine: stages runs each stage of a step over the\n"
        "whole batch, cells runs each cell on its own for many steps (on a GPU, on chip:\n"
        "a work-group per cell), auto (default) cells where they fit; --epoch caps the\n"
        "steps of one on-chip launch (0: no cap); --group-size sets the work-items per cell\n"
        "on chip (the solver plan's group_size; 0: chosen from the cell and the device);\n"
        "--cell-chain N the most nodes of a run one work-item eliminates between barriers\n"
        "on chip (the plan's cell_chain; 0: whole runs).\n"
        "--dump-cell writes cell 0's compartments (for\n"
        "ci/neuron-check.sh).\n"
        "--model FILE.json: the cells, mechanisms, ions, capacitances, celsius and v_init\n"
        "of a model description file (docs/mechanisms.md; NEURON's conventions, the file's\n"
        "discretization); --celsius, --v-init and --seg-length given still override;\n"
        "the default model's options (--swc, --synthetic, --policy, --nseg, --d-lambda,\n"
        "--ra, --cm, --reroot, --hh-everywhere, HH's) do not apply with it.\n"
        CLI_EXIT_HELP
        "A --plot that cannot be made (no Python, no matplotlib, no script) is a failure\n"
        "(1), after the other outputs are written.\n"
        "Shipped neurons: %s\n"
        "Plot script:     %s\n"
        "run by:          %s (%s)\n",
        200, dir, script, py.path, py.origin);
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
    OPT_NOSPLIT, OPT_LAYOUT, OPT_SEED, OPT_DUMP, OPT_SPREAD, OPT_MAXCOMP, OPT_DLAMBDA, OPT_SCALE,
    OPT_REPAIR, OPT_REROOT, OPT_RA, OPT_CM, OPT_GNABAR, OPT_GKBAR, OPT_GL, OPT_EL, OPT_ENA, OPT_EK,
    OPT_VINIT, OPT_THRESHOLD, OPT_ENGINE, OPT_EPOCH, OPT_GROUP, OPT_CHAIN, OPT_NRNCONV, OPT_MODEL, OPT_SEGLEN
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
    {"d-lambda", required_argument, 0, OPT_DLAMBDA}, {"scale", required_argument, 0, OPT_SCALE},
    {"repair-radii", no_argument, 0, OPT_REPAIR},   {"reroot", no_argument, 0, OPT_REROOT},
    {"ra", required_argument, 0, OPT_RA},           {"cm", required_argument, 0, OPT_CM},
    {"gnabar", required_argument, 0, OPT_GNABAR},   {"gkbar", required_argument, 0, OPT_GKBAR},
    {"gl", required_argument, 0, OPT_GL},           {"el", required_argument, 0, OPT_EL},
    {"ena", required_argument, 0, OPT_ENA},         {"ek", required_argument, 0, OPT_EK},
    {"v-init", required_argument, 0, OPT_VINIT},    {"threshold", required_argument, 0, OPT_THRESHOLD},
    {"engine", required_argument, 0, OPT_ENGINE},   {"epoch", required_argument, 0, OPT_EPOCH},
    {"group-size", required_argument, 0, OPT_GROUP},
    {"cell-chain", required_argument, 0, OPT_CHAIN},
    {"neuron-conventions", no_argument, 0, OPT_NRNCONV},
    {"model", required_argument, 0, OPT_MODEL}, {"seg-length", required_argument, 0, OPT_SEGLEN},
    {0, 0, 0, 0}};

/* Ranges of the cell parameters: wide enough for any cell, narrow enough that
 * a value in the wrong unit far off (a conductance in pS/um2 as S/cm2 is
 * 1e4 times too large) is refused by name rather than blowing up. */
#define SIM_G_MAX 1000.0   /* S/cm^2 */
#define SIM_V_MAX 1000.0   /* mV, either sign */

/* One option into o; 0 after a message. */
static int take(int c, const cli_opts *a, sim_options *o)
{
    static const char *const policies[] = {"sample", "section"};
    const char *f = a->flag, *v = a->value;
    if (c == OPT_GNABAR || c == OPT_GKBAR || c == OPT_GL || c == OPT_EL || c == OPT_ENA ||
        c == OPT_EK)
        o->hh_given = 1;
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
        o->celsius_given = 1;
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
    case OPT_ENGINE: {
        static const char *const engines[] = {"auto", "stages", "cells"};
        int i = 0;
        if (!cli_choice(CMD, f, v, engines, 3, &i))
            return 0;
        o->prm.engine = (hb_sim_engine)i;
        return 1;
    }
    case OPT_EPOCH:
        return cli_int(CMD, f, v, 0, INT64_MAX, &o->prm.epoch_steps);
    case OPT_GROUP:
        return cli_int32(CMD, f, v, 0, 1024, &o->prm.plan.group_size);
    case OPT_CHAIN:
        return cli_int32(CMD, f, v, 0, INT32_MAX, &o->prm.plan.cell_chain);
    case OPT_SEED:
        return cli_u64(CMD, f, v, &o->seed);
    case OPT_SPREAD:
        return cli_real(CMD, f, v, 0, 1, CLI_LO_CLOSED, &o->spread);
    case OPT_MAXCOMP:
        return cli_int(CMD, f, v, 1, INT32_MAX, &o->max_compartments);
    case OPT_DLAMBDA: /* as morph's */
        o->swc_only_given = 1;
        return cli_real(CMD, f, v, 0, 1e6, CLI_LO_OPEN, &o->d_lambda);
    case OPT_SCALE:
        o->swc_only_given = 1;
        return cli_real(CMD, f, v, 0, 1e9, CLI_LO_OPEN, &o->swc_opts.scale);
    case OPT_REPAIR:
        o->swc_only_given = 1;
        o->swc_opts.repair_radii = 1;
        return 1;
    case OPT_REROOT:
        o->swc_only_given = 1;
        o->reroot = 1;
        return 1;
    case OPT_NRNCONV:
        o->swc_only_given = 1;
        o->neuron_conventions = 1;
        return 1;
    case OPT_MODEL:
        o->model = v;
        return 1;
    case OPT_SEGLEN:
        return cli_real(CMD, f, v, 0, 1e9, CLI_LO_OPEN, &o->seg_length);
    case OPT_RA:
        o->cable_given = 1;
        return cli_real(CMD, f, v, 0, 1e12, CLI_LO_OPEN, &o->cable.ra);
    case OPT_CM:
        o->cable_given = 1;
        return cli_real(CMD, f, v, 0, 1e12, CLI_LO_OPEN, &o->cable.cm);
    case OPT_GNABAR:
        return cli_real(CMD, f, v, 0, SIM_G_MAX, CLI_LO_CLOSED, &o->prm.gnabar);
    case OPT_GKBAR:
        return cli_real(CMD, f, v, 0, SIM_G_MAX, CLI_LO_CLOSED, &o->prm.gkbar);
    case OPT_GL:
        return cli_real(CMD, f, v, 0, SIM_G_MAX, CLI_LO_CLOSED, &o->prm.gl);
    case OPT_EL:
        return cli_real(CMD, f, v, -SIM_V_MAX, SIM_V_MAX, CLI_LO_CLOSED, &o->prm.el);
    case OPT_ENA:
        return cli_real(CMD, f, v, -SIM_V_MAX, SIM_V_MAX, CLI_LO_CLOSED, &o->prm.ena);
    case OPT_EK:
        return cli_real(CMD, f, v, -SIM_V_MAX, SIM_V_MAX, CLI_LO_CLOSED, &o->prm.ek);
    case OPT_VINIT:
        o->vinit_given = 1;
        return cli_real(CMD, f, v, -SIM_V_MAX, SIM_V_MAX, CLI_LO_CLOSED, &o->prm.v_init);
    case OPT_THRESHOLD:
        return cli_real(CMD, f, v, -SIM_V_MAX, SIM_V_MAX, CLI_LO_CLOSED, &o->prm.threshold);
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
    if (o->synthetic > 0 && o->swc_only_given)
        return conflict("--scale, --repair-radii, --reroot, --d-lambda and --neuron-conventions "
                        "apply to SWC cells, not to --synthetic");
    if (o->neuron_conventions && o->policy == 0)
        return conflict("--neuron-conventions needs --policy section (or no --policy)");
    if (o->nseg_given && o->policy != 1 && !o->neuron_conventions)
        return conflict("--nseg needs --policy section");
    if (o->d_lambda > 0 && o->policy != 1 && !o->neuron_conventions)
        return conflict("--d-lambda needs --policy section");
    if (o->d_lambda > 0 && o->nseg_given && o->nseg > 0)
        return conflict("--d-lambda and --nseg N (N > 0) exclude each other");
    if (o->model && (o->nswc || o->synthetic || o->mix || o->policy >= 0 || o->nseg_given ||
                     o->d_lambda > 0 || o->cable_given || o->prm.hh_everywhere ||
                     o->hh_given || o->reroot))
        return conflict("--model gives the cells and their mechanisms: --swc, --synthetic, "
                        "--mix, --policy, --nseg, --d-lambda, --ra, --cm, --reroot, "
                        "--hh-everywhere and the HH options do not apply with it");
    if (o->seg_length > 0 && !o->model && o->policy != 1 && !o->neuron_conventions)
        return conflict("--seg-length needs --policy section (or --model)");
    if (o->seg_length > 0 && (o->d_lambda > 0 || (o->nseg_given && o->nseg > 0)))
        return conflict("--seg-length, --d-lambda and --nseg N (N > 0) exclude each other");
    if ((o->csv || o->plot) && o->record == 0)
        return conflict("--csv and --plot need --record K with K >= 1");
    if (o->prm.epoch_steps > 0 && o->prm.engine == HB_SIM_ENGINE_STAGES)
        return conflict("--epoch applies to the cells engine (--engine cells or auto), not to "
                        "--engine stages");
    /* The cap SWC cells have holds for synthetic ones too: a count near 2^31
     * would build a cell of tens of gigabytes before anything else failed. */
    int64_t cap = o->max_compartments > 0 ? o->max_compartments : HB_DEFAULT_MAX_COMPARTMENTS;
    if (o->synthetic > cap) {
        fprintf(stderr, "hinesbatch " CMD ": --synthetic %lld: more than --max-compartments %lld "
                        "compartments per cell (%s)\n",
                (long long)o->synthetic, (long long)cap,
                o->max_compartments > 0 ? "as given" : "the default");
        return CLI_EXIT_USAGE;
    }
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

/* 0 after a message when o->ncells cells of `rows` compartments in all
 * cannot fit in this machine's memory. */
static int cells_fit(const sim_options *o, uint64_t rows)
{
    char what[128];
    snprintf(what, sizeof what, "--cells %lld (%llu compartments in all)", (long long)o->ncells,
             (unsigned long long)rows);
    return cli_memory_fits(CMD, what,
                           cli_add_sat(cli_mul_sat((uint64_t)o->ncells, CLI_SIM_CELL_BYTES),
                                       cli_mul_sat(rows, CLI_SIM_ROW_BYTES)));
}

/* The distinct cells of the batch (*nuniq of them). */
static hb_status make_cells(const sim_options *o, hb_morph_cell **uniq, int64_t *nuniq)
{
    hb_synth_geometry geo;
    hb_synth_geometry_init(&geo);
    hb_discretize_options dopt;
    hb_discretize_options_init(&dopt);
    dopt.max_compartments = o->max_compartments; /* 0: the library's default */
    dopt.reroot = o->reroot;
    if (o->policy == 1 || o->neuron_conventions) {
        dopt.policy = HB_POLICY_SECTION;
        dopt.nseg = o->nseg; /* 0 unless --nseg: the d_lambda rule */
        if (o->d_lambda > 0)
            dopt.d_lambda = o->d_lambda;
        dopt.seg_length = o->seg_length;
        if (o->neuron_conventions)
            dopt.conventions = HB_CONVENTIONS_NEURON;
    }
    geo.cable = o->cable;
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
            st = hb_morph_read_swc(o->swc[u], &o->swc_opts, &m);
            if (st == HB_SUCCESS)
                st = hb_morph_cell_create(m, &dopt, &o->cable, &uniq[u]);
            hb_morph_destroy(m);
        }
        *nuniq = u + 1;
    }
    return st;
}

/* Compartments of the batch, cell c being uniq[c % nu] (saturated). */
static uint64_t batch_rows(const sim_options *o, hb_morph_cell *const *uniq, int64_t nu)
{
    uint64_t round = 0, rest = 0;
    for (int64_t u = 0; u < nu; ++u) {
        hb_morph_cell_view v;
        uint64_t n = hb_morph_cell_get_view(uniq[u], &v) == HB_SUCCESS ? (uint64_t)v.n : 0;
        round = cli_add_sat(round, n);
        if (u < o->ncells % nu)
            rest = cli_add_sat(rest, n);
    }
    return cli_add_sat(cli_mul_sat((uint64_t)(o->ncells / nu), round), rest);
}

static void print_performance(const sim_options *o, hb_sim *sim)
{
    hb_sim_timing tm;
    hb_sim_get_timing(sim, &tm);
    double rate = tm.total_ms > 0 ? (double)tm.compartment_steps / (tm.total_ms * 1e-3) : 0;
    printf("performance: %.3g compartment-steps/s (%lld compartments x %lld steps in %.3f s)",
           rate, (long long)(tm.steps ? tm.compartment_steps / tm.steps : 0), (long long)tm.steps,
           tm.total_ms * 1e-3);
    if (tm.epochs > 0 && o->prm.timing)
        printf("; on chip %.1f ms in %lld epochs (stages not split there), read-back %.1f ms",
               tm.onchip_ms, (long long)tm.epochs, tm.readback_ms);
    else if (o->prm.timing)
        printf("; membrane %.1f ms, assembly %.1f ms, solve %.1f ms, update %.1f ms, "
               "read-back %.1f ms",
               tm.membrane_ms, tm.assembly_ms, tm.solve_ms, tm.update_ms, tm.readback_ms);
    else
        printf("; stage split not measured (--no-split)");
    printf("; compulsory traffic %.3g GB/s\n",
           tm.total_ms > 0 ? (double)tm.compulsory_bytes / (tm.total_ms * 1e6) : 0.0);
}

double sim_amp(const sim_options *o, int64_t c)
{
    double f = o->ncells > 1 ? (double)c / (double)(o->ncells - 1) : 0.5;
    return o->amp * (1 + o->spread * (2 * f - 1));
}

/* The last part of a path. */
static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash && slash[1] ? slash + 1 : path;
}

/* printf into buf at *at, as much as fits (a title may be cut, never overrun). */
static void add(char *buf, size_t size, size_t *at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + *at, size - *at, fmt, ap);
    va_end(ap);
    if (n > 0)
        *at = *at + (size_t)n < size ? *at + (size_t)n : size - 1;
}

/* The plot's title: what was simulated, then where and how ("\xc3\x97" is
 * the multiplication sign, "\xc2\xb0" the degree sign, in UTF-8). */
static void describe_run(const sim_options *o, hb_sim *sim, hb_context *ctx, char *buf,
                         size_t size)
{
    int64_t off = 0, n = 0, rows = 0;
    size_t at = 0;
    hb_sim_cell_rows(sim, 0, &off, &n);
    hb_sim_rows(sim, &rows);
    buf[0] = '\0';
    if (o->synthetic > 0 && o->mix)
        add(buf, size, &at, "%lld random synthetic cells (%lld compartments in all)",
            (long long)o->ncells, (long long)rows);
    else if (o->synthetic > 0)
        add(buf, size, &at, "%lld \xc3\x97 synthetic cell (%lld compartments)",
            (long long)o->ncells, (long long)n);
    else if (o->nswc == 1)
        add(buf, size, &at, "%lld \xc3\x97 %s (%lld compartments)", (long long)o->ncells,
            base_name(o->swc[0]), (long long)n);
    else {
        add(buf, size, &at, "%lld cells of %d morphologies (", (long long)o->ncells, o->nswc);
        for (int i = 0; i < o->nswc && i < 3; ++i)
            add(buf, size, &at, "%s%s", i ? ", " : "", base_name(o->swc[i]));
        add(buf, size, &at, "%s; %lld compartments in all)", o->nswc > 3 ? ", ..." : "",
            (long long)rows);
    }
    add(buf, size, &at, ", HH %s\n%s, dt %g ms, %g \xc2\xb0" "C, %s precision",
        o->prm.hh_everywhere ? "everywhere" : "in the soma", hb_context_describe(ctx), o->prm.dt,
        o->prm.celsius, o->prm.precision == HB_DOUBLE ? "double" : "float");
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
    hb_swc_options_init(&o.swc_opts);
    hb_cable_init(&o.cable);
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
    model_file mf;
    memset(&mf, 0, sizeof mf);
    if (o.model) {
        /* The file's cells: its morphology under NEURON's conventions, its
         * discretization and Ra; its celsius and v_init unless given. */
        if (!model_file_load(CMD, o.model, &mf))
            return CLI_EXIT_FAIL;
        o.swc[o.nswc++] = mf.morphology;
        o.policy = 1, o.neuron_conventions = 1;
        if (o.seg_length == 0)
            o.seg_length = mf.seg_length;
        o.cable.ra = mf.ra;
        if (!o.celsius_given && !isnan(mf.celsius))
            o.prm.celsius = mf.celsius;
        if (!o.vinit_given && !isnan(mf.v_init))
            o.prm.v_init = mf.v_init;
    }
    if (o.synthetic == 0 && o.nswc == 0) { /* the shipped neuron, wherever the program runs */
        const char *from;
        if (!cli_data_file(CLI_DATA_MORPHOLOGIES, DEFAULT_SWC, o.default_swc, sizeof o.default_swc,
                           &from) || access(o.default_swc, R_OK) != 0) {
            fprintf(stderr, "hinesbatch " CMD ": the default neuron '%s' cannot be read: %s "
                    "(%s; HINESBATCH_DATA_DIR=DIR reads DIR/morphologies; or give --swc FILE)\n",
                    o.default_swc, strerror(errno), from);
            return CLI_EXIT_FAIL;
        }
        o.swc[o.nswc++] = o.default_swc;
    }

    rc = CLI_EXIT_FAIL;
    hb_context *ctx = NULL;
    hb_sim *sim = NULL;
    int64_t nuniq = 0, nu_max = o.synthetic > 0 && o.mix ? o.ncells : (o.nswc > 0 ? o.nswc : 1);
    hb_morph_cell **uniq = NULL;
    const hb_morph_cell **cells = NULL;
    hb_status st = HB_SUCCESS;
    /* Counts meet the machine before anything is sized from them: a random
     * cell per cell (--mix) is at least a compartment each; other batches
     * are copies of a few cells, whose sizes are known once they are made. */
    if (nu_max == o.ncells && !cells_fit(&o, (uint64_t)o.ncells))
        goto done;
    if (!(uniq = calloc((size_t)nu_max, sizeof *uniq))) {
        fprintf(stderr, "hinesbatch " CMD ": out of memory for %lld cells\n", (long long)o.ncells);
        goto done;
    }
    if ((st = make_cells(&o, uniq, &nuniq)) != HB_SUCCESS)
        goto done;
    if (!cells_fit(&o, batch_rows(&o, uniq, nuniq)))
        goto done;
    if (!(cells = calloc((size_t)o.ncells, sizeof *cells))) {
        fprintf(stderr, "hinesbatch " CMD ": out of memory for %lld cells\n", (long long)o.ncells);
        goto done;
    }
    for (int64_t c = 0; c < o.ncells; ++c)
        cells[c] = uniq[c % nuniq];
    if (st == HB_SUCCESS)
        st = hb_context_create(HB_BACKEND_AUTO, &ctx);
    if (st == HB_SUCCESS)
        st = hb_sim_create(ctx, cells, o.ncells, &o.prm, &sim);
    if (st == HB_SUCCESS && o.model && !model_file_apply(CMD, &mf, sim, cells[0]))
        goto done;
    for (int64_t c = 0; c < o.ncells && st == HB_SUCCESS; ++c)
        st = hb_sim_add_iclamp(sim, c, -1, o.onset, o.dur, sim_amp(&o, c));
    for (int64_t c = 0; c < o.record && c < o.ncells && st == HB_SUCCESS; ++c)
        st = hb_sim_record(sim, c * (o.ncells / (o.record < o.ncells ? o.record : o.ncells)));
    if (st != HB_SUCCESS)
        goto done;
    if (o.model && !model_file_probes(CMD, &mf, sim, cells[0], o.ncells))
        goto done;
    /* A state read sets the model up, where AUTO takes its last look at the
     * engine: the line names the one that runs, and the mechanisms. */
    int64_t nrows = 0;
    if ((st = hb_sim_rows(sim, &nrows)) != HB_SUCCESS)
        goto done;
    double *v0 = malloc((size_t)(nrows > 0 ? nrows : 1) * sizeof *v0);
    if (!v0) {
        fprintf(stderr, "hinesbatch " CMD ": out of memory for %lld rows\n", (long long)nrows);
        goto done;
    }
    st = hb_sim_get_state(sim, HB_SIM_V, v0);
    free(v0);
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
    char title[1024];
    describe_run(&o, sim, ctx, title, sizeof title);
    if (sim_write_outputs(&o, sim, title))
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
    model_file_free(&mf);
    return rc;
}
