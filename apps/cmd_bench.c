/* cmd_bench.c: `hinesbatch bench`: options, backends, the loop over points, serial reference and CSV output. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "cli.h"
#include "commands.h"

#ifndef HB_BENCH_DATA_DIR
#define HB_BENCH_DATA_DIR "data/morphologies"
#endif

static void usage(FILE *out)
{
    fprintf(out,
        "usage: hinesbatch bench [--suite NAME | --quick] [--csv FILE] [--backend LIST]\n"
        "         [--systems LIST] [--rows LIST] [--precision float,double] [--layout LIST]\n"
        "         [--strategy LIST] [--morphology LIST] [--kind thomas|hines] [--seed S]\n"
        "         [--max-seconds S] [--serial-max-rows N] [--max-rows N] [--morph-dir DIR]\n"
        "         [--ring-mib M] [--max-reps N] [--target-s S] [--wall-cap S]\n"
        "Suites: %s (all: every suite). --quick: a small version of every suite\n"
        "(or of --suite), a correctness smoke test. Without --suite, the selections\n"
        "give single points (thomas unless --morphology, --strategy or --kind hines).\n"
        "LIST is comma-separated. rows: N or LO-HI (sizes drawn uniformly). layout:\n"
        "auto|flat|interleaved|block[:BS]|block-shared[:BS], optionally /compute or\n"
        "/skip (padding). strategy: auto|per-system|branch-level|fine-tree.\n"
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
        "One CSV row per point and backend.\n",
        bench_suite_names(), HB_BENCH_DATA_DIR);
}

/* Opens the listed backends (NULL: every compiled one that opens, quietly
 * skipping the rest), and a serial reference when the list lacks it. */
static int open_backends(const char *list, bench_backend *be, int *nbe)
{
    *nbe = 0;
    int want[BENCH_MAX_BACKENDS + 1] = {0};
    if (list) {
        char buf[256];
        snprintf(buf, sizeof buf, "%s", list);
        for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
            hb_backend b = HB_BACKEND_AUTO; /* a list names backends, and auto is none */
            if (hb_backend_from_name(tok, &b) != HB_SUCCESS || b == HB_BACKEND_AUTO) {
                fprintf(stderr, "hinesbatch bench: unknown backend '%s'\n", tok);
                return 0;
            }
            want[b] = 1;
        }
    }
    for (int k = HB_BACKEND_SERIAL; k <= HB_BACKEND_CUDA; ++k) {
        int named = list ? want[k] : 0, reference = k == HB_BACKEND_SERIAL;
        if (list && !named && !reference)
            continue;
        if (!list && !hb_backend_compiled((hb_backend)k))
            continue;
        bench_backend *e = &be[*nbe];
        memset(e, 0, sizeof *e);
        e->backend = (hb_backend)k;
        e->print = !list || named;
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
        snprintf(buf, size, "%s thomas %s %lld x %lld-%lld rows, layout %s", p->suite,
                 p->precision == HB_DOUBLE ? "double" : "float", (long long)p->systems,
                 (long long)p->rows_lo, (long long)p->rows_hi, lay);
    else if (p->kind == BENCH_THOMAS)
        snprintf(buf, size, "%s thomas %s %lld x %lld rows, layout %s", p->suite,
                 p->precision == HB_DOUBLE ? "double" : "float", (long long)p->systems,
                 (long long)p->rows, lay);
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
                    "%lld reps, median %.4g ms; %.1f s in all\n",
            hb_backend_name(be->backend), point_name(pt, name, sizeof name), row->setup_ms,
            row->ring, (long long)row->reps, row->time_median_ms, wall);
    if (be->print)
        bench_csv_row(csv, pt, data, row);
    return 1;
}

int hb_cmd_bench(int argc, char **argv)
{
    bench_selection sel;
    memset(&sel, 0, sizeof sel);
    bench_config cfg = {.min_reps = 5, .max_reps = 200, .target_s = 0.2, .wall_cap_s = 2.0,
                        .serial_max_rows = (int64_t)1 << 25, .max_rows = (int64_t)1 << 28,
                        .ring_bytes = (size_t)128 << 20, .max_ring = 256, .max_seconds = 0,
                        .seed = (uint64_t)time(NULL), .morph_dir = HB_BENCH_DATA_DIR};
    const char *csv_path = NULL, *backends = NULL;
    int ring_mib = -1, max_reps = -1;
    double target_s = -1, wall_cap = -1;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        char **lists[] = {&sel.systems, &sel.rows, &sel.precision, &sel.layout, &sel.strategy,
                          &sel.morph};
        const char *list_names[] = {"--systems", "--rows", "--precision", "--layout",
                                    "--strategy", "--morphology"};
        int done = 0;
        for (int k = 0; k < 6 && v; ++k)
            if (!strcmp(a, list_names[k]))
                *lists[k] = argv[++i], done = 1;
        if (done)
            continue;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--quick")) {
            sel.quick = 1;
        } else if (v && !strcmp(a, "--suite")) {
            sel.suite = argv[++i];
        } else if (v && !strcmp(a, "--kind")) {
            sel.kind = argv[++i];
        } else if (v && !strcmp(a, "--csv")) {
            csv_path = argv[++i];
        } else if (v && !strcmp(a, "--backend")) {
            backends = argv[++i];
        } else if (v && !strcmp(a, "--seed")) {
            cfg.seed = strtoull(argv[++i], NULL, 10);
        } else if (v && !strcmp(a, "--max-seconds")) {
            cfg.max_seconds = atof(argv[++i]);
        } else if (v && !strcmp(a, "--serial-max-rows")) {
            cfg.serial_max_rows = atoll(argv[++i]);
        } else if (v && !strcmp(a, "--max-rows")) {
            cfg.max_rows = atoll(argv[++i]);
        } else if (v && !strcmp(a, "--morph-dir")) {
            cfg.morph_dir = argv[++i];
        } else if (v && !strcmp(a, "--ring-mib")) {
            ring_mib = atoi(argv[++i]);
        } else if (v && !strcmp(a, "--target-s")) {
            target_s = atof(argv[++i]);
        } else if (v && !strcmp(a, "--wall-cap")) {
            wall_cap = atof(argv[++i]);
        } else if (v && !strcmp(a, "--max-reps")) {
            max_reps = atoi(argv[++i]);
        } else {
            fprintf(stderr, "hinesbatch bench: unknown or incomplete option '%s'\n\n", a);
            usage(stderr);
            return 2;
        }
    }
    if (sel.kind && strcmp(sel.kind, "thomas") && strcmp(sel.kind, "hines")) {
        fprintf(stderr, "hinesbatch bench: --kind must be thomas or hines\n");
        return 2;
    }
    if (!sel.suite && !sel.quick && !sel.systems && !sel.rows && !sel.precision && !sel.layout &&
        !sel.strategy && !sel.morph && !sel.kind) {
        usage(stderr);
        return 2;
    }
    if (sel.quick) /* a smoke test: few reps, small rings, little time per point */
        cfg.min_reps = 3, cfg.max_reps = 20, cfg.target_s = 0.02, cfg.wall_cap_s = 0.25,
        cfg.ring_bytes = (size_t)4 << 20, cfg.max_ring = 8;
    if (ring_mib >= 0)
        cfg.ring_bytes = (size_t)(ring_mib > 0 ? ring_mib : 1) << 20;
    if (max_reps > 0)
        cfg.max_reps = max_reps, cfg.min_reps = cfg.min_reps < max_reps ? cfg.min_reps : max_reps;
    if (target_s > 0)
        cfg.target_s = target_s;
    if (wall_cap > 0)
        cfg.wall_cap_s = wall_cap;
    int serial_reps = sel.quick ? 3 : 10;

    bench_point *points = NULL;
    int64_t npoints = 0;
    if (bench_suite_points(&sel, &cfg, &points, &npoints) != HB_SUCCESS) {
        fprintf(stderr, "hinesbatch bench: see --help\n");
        return 2;
    }
    bench_backend be[BENCH_MAX_BACKENDS];
    int nbe = 0;
    if (!open_backends(backends, be, &nbe)) {
        for (int k = 0; k < nbe; ++k)
            hb_context_destroy(be[k].ctx);
        free(points);
        return 1;
    }
    FILE *csv = csv_path ? fopen(csv_path, "w") : stdout;
    if (!csv) {
        fprintf(stderr, "hinesbatch bench: cannot write %s\n", csv_path);
        free(points);
        return 1;
    }
    fprintf(stderr, "bench: seed %llu, %lld points\n", (unsigned long long)cfg.seed,
            (long long)npoints);
    bench_csv_header(csv);
    int failures = 0, rows_out = 0;
    int64_t skipped_big = 0, skipped_time = 0;
    double start = cli_now_s();
    bench_data data;
    memset(&data, 0, sizeof data);
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
            hb_status st = bench_data_make(pt, &cfg, &data);
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
    bench_data_free(&data);
    fprintf(stderr, "bench: %d rows in %.1f s; %d failures; skipped %lld points over --max-rows, "
                    "%lld over --max-seconds\n",
            rows_out, cli_now_s() - start, failures, (long long)skipped_big,
            (long long)skipped_time);
    if (csv != stdout)
        fclose(csv);
    for (int k = 0; k < nbe; ++k)
        hb_context_destroy(be[k].ctx);
    free(points);
    return failures ? 1 : 0;
}
