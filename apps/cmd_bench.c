/* cmd_bench.c: `hinesbatch bench`: options, backends, the loop over points, serial reference and CSV output. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "cli.h"
#include "cli_opts.h"
#include "cli_out.h"
#include "cli_parse.h"
#include "cli_paths.h"
#include "commands.h"


#define CMD "bench"

/* The shipped neurons' folder (cli_paths.h), this program's own. */
static char morph_dir[4096];

static void usage(FILE *out)
{
    fprintf(out,
        "usage: hinesbatch bench [--suite NAME | --quick] [--csv FILE] [--backend LIST]\n"
        "         [--systems LIST] [--rows LIST] [--precision float,double] [--layout LIST]\n"
        "         [--strategy LIST] [--morphology LIST] [--kind thomas|hines] [--seed S]\n"
        "         [--max-seconds S] [--serial-max-rows N] [--max-rows N] [--morph-dir DIR]\n"
        "         [--ring-mib M] [--max-reps N] [--target-s S] [--wall-cap S]\n"
        "         [--group-size N] [--cell-chain N] [--shared-couplings]\n"
        "Suites: %s (all: every suite but simulate). --quick: a small version of every\n"
        "suite but simulate (or of --suite), a correctness smoke test. Without --suite,\n"
        "the selections give single points (thomas unless --morphology, --strategy or\n"
        "--kind hines).\n"
        "LIST is comma-separated. rows: N or LO-HI (sizes drawn uniformly). layout:\n"
        "auto|flat|interleaved|block[:BS]|block-shared[:BS], optionally /compute or\n"
        "/skip (padding). strategy: auto|per-system|branch-level|fine-tree|cell-group\n"
        "(hines),\n"
        "auto|per-system|cooperative (thomas; single thomas points need --kind thomas).\n"
        "--group-size N: every plan's group_size (cooperative: work-items per system;\n"
        "fine tree: per group; default 0, the library's rule). --cell-chain N: every\n"
        "plan's cell_chain (cell-group: the most nodes of a run one work-item\n"
        "eliminates between barriers; default 0, the library's rule).\n"
        "--shared-couplings: Hines points of one tree (copies of one neuron) set U and L\n"
        "once for every system (hb_plan_options.shared_couplings; strategy auto,\n"
        "per-system or cell-group): compulsory bytes 3 values per row; the strategy\n"
        "column says so.\n"
        "morphology: a shipped neuron (name in --morph-dir, default %s) or an .swc\n"
        "path (NEURON-style sections, d_lambda 0.1), levels:N:L, random:SEED,\n"
        "branchy:N:PERCENT:SEED, mix:real (every shipped neuron, cycled), mix:random\n"
        "(64 random Arbor-style cells, cycled).\n"
        "Backends: default every compiled one that opens; serial is always timed as\n"
        "the reference, once per batch with its own AUTO plan (flat, per system), up\n"
        "to --serial-max-rows rows (default 2^25; beyond, speedup is empty).\n"
        "Time = hb_plan_solve + hb_plan_synchronize on data already in the plan\n"
        "(plan setup is logged on stderr). Reps stop when the timed solves add up to\n"
        "--target-s (0.2) or a backend spent --wall-cap (2) seconds on the point.\n"
        "One CSV row per point and backend. Every item of every LIST is checked\n"
        "before anything runs; a list that the chosen points do not use is an error.\n"
        CLI_EXIT_HELP
        "A failed point (library error, residual ratio >= 30) is a failure (1).\n"
        "--suite simulate: whole simulations (`hinesbatch simulate`'s cell, clamps and\n"
        "parameters; 50 ms at dt 0.025 ms, --quick 5 ms) of --systems cells (200,1000,10000;\n"
        "--quick 8) in --precision (double,float), --morphology a shipped neuron or .swc\n"
        "(nrn__c91662), on each --backend (serial only when named): a warm-up of 5 steps,\n"
        "a timed run (compartment-steps/s) and a run with the stage split; its own CSV\n"
        "columns (docs/benchmarks/README.md).\n",
        bench_suite_names(), morph_dir);
}

/* --backend LIST into want[backend]; 0 after a message. */
static int parse_backends(const char *list, int *want)
{
    char buf[256];
    const char *item[8];
    int n = cli_split(CMD, "--backend", list, ',', buf, sizeof buf, item, 8);
    for (int i = 0; i < n; ++i) {
        hb_backend b;
        if (!cli_backend(CMD, "--backend", item[i], 0, &b)) /* a list names backends: no auto */
            return 0;
        want[b] = 1;
    }
    return n > 0;
}

/* Opens the backends of want (NULL: every compiled one that opens, quietly
 * skipping the rest), and a serial reference when want lacks it. Returns 0
 * when a named backend or the reference does not open; the caller destroys
 * be[0..*nbe) either way. */
static int open_backends(const int *want, bench_backend *be, int *nbe)
{
    *nbe = 0;
    for (int k = HB_BACKEND_SERIAL; k <= HB_BACKEND_CUDA; ++k) {
        int named = want ? want[k] : 0, reference = k == HB_BACKEND_SERIAL;
        if (want && !named && !reference)
            continue;
        if (!want && !hb_backend_compiled((hb_backend)k))
            continue;
        bench_backend *e = &be[*nbe];
        memset(e, 0, sizeof *e);
        e->backend = (hb_backend)k;
        e->print = !want || named;
        hb_status st = hb_context_create(e->backend, &e->ctx);
        if (st != HB_SUCCESS) {
            fprintf(stderr, "hinesbatch bench: backend %s: %s%s\n", hb_backend_name(e->backend),
                    hb_last_error(), named || reference ? "" : " (skipped)");
            if (named || reference)
                return 0;
            continue;
        }
        snprintf(e->device, sizeof e->device, "%s", hb_context_describe(e->ctx));
        bench_clean_field(e->device);
        fprintf(stderr, "bench: %s: %s%s\n", hb_backend_name(e->backend), e->device,
                e->print ? "" : " (reference only)");
        ++*nbe;
    }
    return 1;
}

/* A point's --layout item as the options spell it: NAME[:BS][/PADDING]. */
static const char *layout_item(const bench_point *p, char *buf, size_t size)
{
    int n = snprintf(buf, size, "%s", cli_layout_name(p->layout));
    if (p->block_size > 0 && n > 0 && (size_t)n < size)
        n += snprintf(buf + n, size - (size_t)n, ":%d", (int)p->block_size);
    if (p->padding != HB_PADDING_AUTO && n > 0 && (size_t)n < size)
        snprintf(buf + n, size - (size_t)n, "/%s", hb_padding_name(p->padding));
    return buf;
}

static const char *point_name(const bench_point *p, char *buf, size_t size)
{
    char lay[64];
    layout_item(p, lay, sizeof lay);
    if (p->kind == BENCH_THOMAS && p->rows_hi)
        snprintf(buf, size, "%s thomas %s %lld x %lld-%lld rows, layout %s, strategy %s",
                 p->suite, p->precision == HB_DOUBLE ? "double" : "float",
                 (long long)p->systems, (long long)p->rows_lo, (long long)p->rows_hi, lay,
                 hb_strategy_name(p->strategy));
    else if (p->kind == BENCH_THOMAS)
        snprintf(buf, size, "%s thomas %s %lld x %lld rows, layout %s, strategy %s", p->suite,
                 p->precision == HB_DOUBLE ? "double" : "float", (long long)p->systems,
                 (long long)p->rows, lay, hb_strategy_name(p->strategy));
    else
        snprintf(buf, size, "%s hines %s %lld x %s, layout %s, strategy %s", p->suite,
                 p->precision == HB_DOUBLE ? "double" : "float", (long long)p->systems, p->morph,
                 lay, hb_strategy_name(p->strategy));
    return buf;
}

/* Points that share their batch (same inputs; layout and strategy differ). */
static int same_batch(const bench_point *a, const bench_point *b)
{
    return a->kind == b->kind && a->precision == b->precision && a->systems == b->systems &&
           a->rows == b->rows && a->rows_lo == b->rows_lo && a->rows_hi == b->rows_hi &&
           !strcmp(a->morph, b->morph);
}

/* Runs one backend on a point; returns 1 when a row was measured. */
static int run_one(FILE *csv, const bench_point *pt, const bench_data *data,
                   const bench_config *cfg, bench_backend *be, int reps_cap,
                   const bench_row *serial, bench_row *row, int *failures)
{
    char name[320];
    double t0 = cli_now_s();
    hb_status st = bench_run_point(pt, data, cfg, be, reps_cap, row);
    double wall = cli_now_s() - t0;
    if (st == HB_ERR_BACKEND_UNAVAILABLE) {
        fprintf(stderr, "bench: %s: %s: not offered: %s\n", hb_backend_name(be->backend),
                point_name(pt, name, sizeof name), hb_last_error());
        return 0;
    }
    if (st != HB_SUCCESS) {
        fprintf(stderr, "hinesbatch bench: FAILED %s: %s: %s: %s\n", hb_backend_name(be->backend),
                point_name(pt, name, sizeof name), hb_status_string(st), hb_last_error());
        ++*failures;
        return 0;
    }
    row->speedup = serial ? serial->time_median_ms / row->time_median_ms
                  : be->backend == HB_BACKEND_SERIAL ? 1.0 : NAN;
    if (!(row->max_ratio < 30.0)) {
        fprintf(stderr, "hinesbatch bench: FAILED %s: %s: residual ratio %g >= 30\n",
                hb_backend_name(be->backend), point_name(pt, name, sizeof name), row->max_ratio);
        ++*failures;
    }
    fprintf(stderr, "bench: %-7s %s: setup %.3g ms (plan + first upload), %d plan(s) cycled, "
                    "%lld reps, median %.4g ms; %.1f s in all%s%s%s\n",
            hb_backend_name(be->backend), point_name(pt, name, sizeof name), row->setup_ms,
            row->ring, (long long)row->reps, row->time_median_ms, wall,
            row->variant[0] ? " (" : "", row->variant, row->variant[0] ? ")" : "");
    if (be->print)
        bench_csv_row(csv, pt, data, row);
    return 1;
}

enum {
    OPT_SUITE = 256, OPT_QUICK, OPT_CSV, OPT_BACKEND, OPT_SYSTEMS, OPT_ROWS, OPT_PRECISION,
    OPT_LAYOUT, OPT_STRATEGY, OPT_MORPH, OPT_KIND, OPT_SEED, OPT_MAX_SECONDS, OPT_SERIAL_MAX_ROWS,
    OPT_MAX_ROWS, OPT_MORPH_DIR, OPT_RING_MIB, OPT_MAX_REPS, OPT_TARGET_S, OPT_WALL_CAP,
    OPT_GROUP_SIZE, OPT_SHARED_COUPLINGS, OPT_CELL_CHAIN
};

static const struct option opts[] = {
    {"suite", required_argument, 0, OPT_SUITE},
    {"quick", no_argument, 0, OPT_QUICK},
    {"csv", required_argument, 0, OPT_CSV},
    {"backend", required_argument, 0, OPT_BACKEND},
    {"systems", required_argument, 0, OPT_SYSTEMS},
    {"rows", required_argument, 0, OPT_ROWS},
    {"precision", required_argument, 0, OPT_PRECISION},
    {"layout", required_argument, 0, OPT_LAYOUT},
    {"strategy", required_argument, 0, OPT_STRATEGY},
    {"morphology", required_argument, 0, OPT_MORPH},
    {"kind", required_argument, 0, OPT_KIND},
    {"seed", required_argument, 0, OPT_SEED},
    {"max-seconds", required_argument, 0, OPT_MAX_SECONDS},
    {"serial-max-rows", required_argument, 0, OPT_SERIAL_MAX_ROWS},
    {"max-rows", required_argument, 0, OPT_MAX_ROWS},
    {"morph-dir", required_argument, 0, OPT_MORPH_DIR},
    {"ring-mib", required_argument, 0, OPT_RING_MIB},
    {"max-reps", required_argument, 0, OPT_MAX_REPS},
    {"target-s", required_argument, 0, OPT_TARGET_S},
    {"wall-cap", required_argument, 0, OPT_WALL_CAP},
    {"group-size", required_argument, 0, OPT_GROUP_SIZE},
    {"cell-chain", required_argument, 0, OPT_CELL_CHAIN},
    {"shared-couplings", no_argument, 0, OPT_SHARED_COUPLINGS},
    {"help", no_argument, 0, 'h'},
    {0, 0, 0, 0}};

/* What the options give beyond the selection and the settings. */
typedef struct {
    const char *csv_path;
    int want[BENCH_MAX_BACKENDS + 1], backends_given;
    int64_t ring_mib, max_reps;
    double target_s, wall_cap;
} bench_args;

/* One option; 0 after a message. */
static int take(int c, const cli_opts *a, bench_selection *sel, bench_config *cfg,
                bench_args *x)
{
    static const char *const kinds[] = {"thomas", "hines"};
    static const char *const suites[] = {"thomas", "thomas-vbatch", "hines-layouts",
                                         "hines-morphologies", "multi", "all", "simulate"};
    const char *f = a->flag;
    char *v = (char *)a->value; /* the lists of bench_selection are not const */
    int i = 0;
    switch (c) {
    case OPT_SUITE:
        return cli_choice(CMD, f, v, suites, 7, &i) && (sel->suite = v);
    case OPT_QUICK:
        return sel->quick = 1;
    case OPT_CSV:
        return (x->csv_path = v) != NULL;
    case OPT_BACKEND:
        memset(x->want, 0, sizeof x->want);
        return x->backends_given = parse_backends(v, x->want);
    case OPT_SYSTEMS:
        return (sel->systems = v) != NULL; /* lists: bench_selection_check */
    case OPT_ROWS:
        return (sel->rows = v) != NULL;
    case OPT_PRECISION:
        return (sel->precision = v) != NULL;
    case OPT_LAYOUT:
        return (sel->layout = v) != NULL;
    case OPT_STRATEGY:
        return (sel->strategy = v) != NULL;
    case OPT_MORPH:
        return (sel->morph = v) != NULL;
    case OPT_KIND:
        return cli_choice(CMD, f, v, kinds, 2, &i) && (sel->kind = v);
    case OPT_SEED:
        return cli_u64(CMD, f, v, &cfg->seed);
    case OPT_MAX_SECONDS: /* 0: no budget */
        return cli_real(CMD, f, v, 0, INFINITY, CLI_LO_CLOSED, &cfg->max_seconds);
    case OPT_SERIAL_MAX_ROWS:
        return cli_int(CMD, f, v, 0, (int64_t)1 << 62, &cfg->serial_max_rows);
    case OPT_MAX_ROWS:
        return cli_int(CMD, f, v, 1, (int64_t)1 << 62, &cfg->max_rows);
    case OPT_MORPH_DIR:
        return (cfg->morph_dir = v) != NULL;
    case OPT_RING_MIB:
        return cli_int(CMD, f, v, 1, 1 << 20, &x->ring_mib);
    case OPT_MAX_REPS:
        return cli_int(CMD, f, v, 1, 1000000, &x->max_reps);
    case OPT_TARGET_S:
        return cli_real(CMD, f, v, 0, 1e6, CLI_LO_OPEN, &x->target_s);
    case OPT_WALL_CAP:
        return cli_real(CMD, f, v, 0, 1e6, CLI_LO_OPEN, &x->wall_cap);
    case OPT_GROUP_SIZE: /* 0: the library's rule */
        return cli_int(CMD, f, v, 0, INT32_MAX, &cfg->group_size);
    case OPT_CELL_CHAIN: /* 0: the library's rule */
        return cli_int(CMD, f, v, 0, INT32_MAX, &cfg->cell_chain);
    case OPT_SHARED_COUPLINGS:
        return cfg->shared_couplings = 1;
    default:
        return 0;
    }
}

/* Lists that a run would not use are usage errors, not silently dropped. */
/* 1 when the --strategy list names a strategy only Hines plans have. */
static int hines_only_strategy(const char *list)
{
    char item[64];
    for (const char *s = list; s && *s;) {
        size_t n = strcspn(s, ",");
        snprintf(item, sizeof item, "%.*s", (int)(n < sizeof item ? n : sizeof item - 1), s);
        hb_strategy st;
        if (hb_strategy_from_name(item, &st) == HB_SUCCESS &&
            (st == HB_STRATEGY_BRANCH_LEVEL || st == HB_STRATEGY_FINE_TREE ||
             st == HB_STRATEGY_CELL_GROUP))
            return 1;
        s += n + (s[n] == ',');
    }
    return 0;
}

static int check_combination(const bench_selection *sel, const bench_config *cfg)
{
    const char *why = NULL;
    const char *s = sel->suite;
    int thomas_suite = s && (!strcmp(s, "thomas") || !strcmp(s, "thomas-vbatch"));
    int sim_suite = s && !strcmp(s, "simulate");
    int hines_suite = s && !thomas_suite && !sim_suite && strcmp(s, "all");
    int single = !s && !sel->quick;
    int hines = sel->kind ? !strcmp(sel->kind, "hines") : sel->morph || sel->strategy;
    if (sel->kind && !single)
        why = "--kind chooses single points; it does not apply with --suite or --quick";
    else if (sim_suite)
        why = sel->rows || sel->layout || sel->strategy || cfg->group_size ||
                      cfg->shared_couplings
                  ? "--suite simulate takes --systems (cells), --precision and --morphology; "
                    "--rows, --layout, --strategy, --group-size and --shared-couplings do not "
                    "apply (a simulation sets every cell's couplings)"
                  : NULL;
    else if ((single && hines) || hines_suite)
        why = sel->rows ? "--rows applies to thomas points (Hines cells set their rows)" : NULL;
    else if (single || thomas_suite)
        why = sel->morph ? "--morphology applies to hines points"
              : hines_only_strategy(sel->strategy)
                  ? "--strategy applies to hines points, except auto, per-system and "
                    "cooperative"
              : cfg->shared_couplings
                  ? "--shared-couplings applies to hines points (copies of one tree)"
                  : NULL;
    if (why)
        fprintf(stderr, "hinesbatch bench: %s\n", why);
    return !why;
}

int hb_cmd_bench(int argc, char **argv)
{
    bench_selection sel;
    memset(&sel, 0, sizeof sel);
    bench_config cfg = {.min_reps = 5, .max_reps = 200, .target_s = 0.2, .wall_cap_s = 2.0,
                        .serial_max_rows = (int64_t)1 << 25, .max_rows = (int64_t)1 << 28,
                        .ring_bytes = (size_t)128 << 20, .max_ring = 256, .max_seconds = 0,
                        .seed = (uint64_t)time(NULL), .morph_dir = morph_dir};
    if (!cli_data_dir(CLI_DATA_MORPHOLOGIES, morph_dir, sizeof morph_dir, NULL)) {
        fprintf(stderr, "hinesbatch bench: the path of the shipped neurons is too long\n");
        return CLI_EXIT_FAIL;
    }
    bench_args x;
    memset(&x, 0, sizeof x);
    cli_opts a;
    cli_opts_init(&a, CMD, argc, argv, opts);
    for (int c; (c = cli_opts_next(&a)) != CLI_OPTS_END;) {
        if (c == 'h') {
            usage(stdout);
            return CLI_EXIT_OK;
        }
        if (c == CLI_OPTS_BAD || !take(c, &a, &sel, &cfg, &x))
            return CLI_EXIT_USAGE;
    }
    char **rest;
    if (cli_opts_operands(&a, &rest, 0) < 0 || !bench_selection_check(&sel) ||
        !check_combination(&sel, &cfg))
        return CLI_EXIT_USAGE;
    if (!sel.suite && !sel.quick && !sel.systems && !sel.rows && !sel.precision && !sel.layout &&
        !sel.strategy && !sel.morph && !sel.kind) {
        fprintf(stderr, "hinesbatch bench: nothing to run: give --suite, --quick or a point\n");
        usage(stderr);
        return CLI_EXIT_USAGE;
    }
    cfg.quick = sel.quick;
    if (sel.quick) /* a smoke test: few reps, small rings, little time per point */
        cfg.min_reps = 3, cfg.max_reps = 20, cfg.target_s = 0.02, cfg.wall_cap_s = 0.25,
        cfg.ring_bytes = (size_t)4 << 20, cfg.max_ring = 8;
    if (x.ring_mib > 0)
        cfg.ring_bytes = (size_t)x.ring_mib << 20;
    if (x.max_reps > 0)
        cfg.max_reps = (int)x.max_reps,
        cfg.min_reps = cfg.min_reps < cfg.max_reps ? cfg.min_reps : cfg.max_reps;
    if (x.target_s > 0)
        cfg.target_s = x.target_s;
    if (x.wall_cap > 0)
        cfg.wall_cap_s = x.wall_cap;
    int serial_reps = sel.quick ? 3 : 10;
    if (x.csv_path && !cli_output_check(CMD, "--csv", x.csv_path))
        return CLI_EXIT_FAIL;

    /* From here every exit goes through done:, which frees what was made. */
    int rc = CLI_EXIT_FAIL, nbe = 0;
    bench_point *points = NULL;
    int64_t npoints = 0;
    bench_backend be[BENCH_MAX_BACKENDS];
    FILE *csv = NULL;
    bench_data data;
    memset(&data, 0, sizeof data);
    hb_status st = bench_suite_points(&sel, &cfg, &points, &npoints);
    if (st != HB_SUCCESS) {
        rc = st == HB_ERR_INVALID_ARGUMENT ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
        if (st != HB_ERR_INVALID_ARGUMENT)
            fprintf(stderr, "hinesbatch bench: %s\n", hb_status_string(st));
        goto done;
    }
    if (!open_backends(x.backends_given ? x.want : NULL, be, &nbe))
        goto done;
    csv = x.csv_path ? cli_output_open(CMD, "--csv", x.csv_path) : stdout;
    if (!csv)
        goto done;
    fprintf(stderr, "bench: seed %llu, %lld points\n", (unsigned long long)cfg.seed,
            (long long)npoints);
    if (sel.suite && !strcmp(sel.suite, "simulate")) {
        int fails = 0;
        double t0 = cli_now_s();
        int n = bench_sim_suite(points, npoints, &cfg, sel.quick ? 5.0 : 50.0, be, nbe, csv,
                                &fails);
        fprintf(stderr, "bench: %d rows in %.1f s; %d failures\n", n, cli_now_s() - t0, fails);
        rc = fails || n == 0 ? CLI_EXIT_FAIL : CLI_EXIT_OK;
        goto done;
    }
    bench_csv_header(csv);
    int failures = 0, rows_out = 0;
    int64_t skipped_big = 0, skipped_time = 0;
    double start = cli_now_s();
    const bench_point *batch = NULL; /* the point whose batch data holds */
    bench_row serial;
    int have_serial = 0;
    for (int64_t p = 0; p < npoints; ++p) {
        const bench_point *pt = &points[p];
        char name[320];
        if (cfg.max_seconds > 0 && cli_now_s() - start > cfg.max_seconds) {
            fprintf(stderr, "bench: time budget spent, skipped: %s\n",
                    point_name(pt, name, sizeof name));
            ++skipped_time;
            continue;
        }
        int new_batch = !batch || !same_batch(batch, pt);
        if (new_batch) {
            bench_data_free(&data);
            batch = NULL;
            have_serial = 0;
            double t0 = cli_now_s();
            st = bench_data_make(pt, &cfg, &data);
            if (st != HB_SUCCESS) {
                fprintf(stderr, "hinesbatch bench: FAILED inputs of %s: %s: %s\n",
                        point_name(pt, name, sizeof name), hb_status_string(st), hb_last_error());
                ++failures;
                continue;
            }
            batch = pt;
            if (data.m0 && cli_now_s() - t0 > 1.0) /* where the time of big points goes */
                fprintf(stderr, "bench: inputs of %s: %.1f s\n", point_name(pt, name, sizeof name),
                        cli_now_s() - t0);
        }
        if (!data.m0) {
            fprintf(stderr, "bench: skipped %s: %lld rows > --max-rows %lld\n",
                    point_name(pt, name, sizeof name), (long long)data.nrows,
                    (long long)cfg.max_rows);
            ++skipped_big;
            continue;
        }
        /* The serial reference, once per batch, with the serial backend's own
         * plan (AUTO layout and strategy: flat, per system): the baseline a
         * user of one CPU core would have, whatever layout the point tries. */
        for (int k = 0; k < nbe && new_batch; ++k) {
            if (be[k].backend != HB_BACKEND_SERIAL)
                continue;
            if (data.nrows > cfg.serial_max_rows) {
                fprintf(stderr, "bench: serial skipped on %s: %lld rows > --serial-max-rows\n",
                        point_name(pt, name, sizeof name), (long long)data.nrows);
                continue;
            }
            bench_point ref = *pt;
            ref.layout = HB_LAYOUT_AUTO, ref.block_size = 0, ref.padding = HB_PADDING_AUTO;
            ref.strategy = HB_STRATEGY_AUTO;
            have_serial = run_one(csv, &ref, &data, &cfg, &be[k], serial_reps, NULL, &serial,
                                  &failures);
            rows_out += have_serial && be[k].print;
        }
        bench_row row, cuda_row;
        int have_cuda = 0;
        bench_backend *cuda = NULL;
        for (int k = 0; k < nbe; ++k) {
            if (be[k].backend == HB_BACKEND_SERIAL)
                continue;
            int ok = run_one(csv, pt, &data, &cfg, &be[k], 0, have_serial ? &serial : NULL, &row,
                             &failures);
            rows_out += ok;
            if (be[k].backend == HB_BACKEND_CUDA) {
                cuda = &be[k];
                if (ok)
                    cuda_row = row, have_cuda = 1;
            }
        }
        if (new_batch) /* cuSPARSE has no layouts or strategies: once per batch */
            rows_out += bench_cusparse_rows(csv, pt, &data, &cfg, cuda,
                                            have_cuda ? &cuda_row : NULL,
                                            have_serial ? &serial : NULL, &failures);
    }
    fprintf(stderr, "bench: %d rows in %.1f s; %d failures; skipped %lld points over --max-rows, "
                    "%lld over --max-seconds\n",
            rows_out, cli_now_s() - start, failures, (long long)skipped_big,
            (long long)skipped_time);
    rc = failures ? CLI_EXIT_FAIL : CLI_EXIT_OK;
done:
    bench_data_free(&data);
    if (csv && csv != stdout && !cli_output_close(CMD, "--csv", x.csv_path, csv))
        rc = CLI_EXIT_FAIL;
    for (int k = 0; k < nbe; ++k)
        hb_context_destroy(be[k].ctx);
    free(points);
    return rc;
}
