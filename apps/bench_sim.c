/* bench_sim.c: the simulate suite of `hinesbatch bench`: whole simulations of a shipped neuron per backend: rate, stage split, share of a device copy. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bench_morph.h"
#include "cli.h"
#include "hinesbatch_sim.h"

#define WARM_STEPS 5    /* untimed steps first: kernels built, caches and pages warm */
#define MAX_RECORD 4    /* soma traces recorded, as `hinesbatch simulate` does */
#define AMP_NA 1.0      /* clamp amplitudes amp*(1-spread) .. amp*(1+spread), as simulate's */
#define AMP_SPREAD 0.5

/* Values per compartment per step that a streaming engine (state through
 * device memory every step) must move: state v, m, h, n read and written,
 * parameters gna, gk, gl, d0, the axial table (two conductances and two
 * int32 offsets per row, about three values) and matrix u, l read. */
#define STREAM_VALUES (4 * 2 + 4 + 3 + 2)

/* What one simulation (one sim object, one params.timing) measured, over the
 * timed run only (the warm-up subtracted). */
typedef struct {
    double  total_ms, membrane_ms, assembly_ms, solve_ms, update_ms, readback_ms;
    double  onchip_ms;    /* inside on-chip epochs (hb_sim_timing.onchip_ms)            */
    int64_t steps, csteps, rows, spikes;
    double  bytes;        /* compulsory bytes of the timed run                  */
    int     engine_bytes; /* bytes from hb_sim_timing (else the streaming count) */
    char    engine[512];  /* hb_sim_describe                                    */
} sim_measure;

/* One CSV row. Empty fields are NaN. */
typedef struct {
    sim_measure run, split;
    double rate, bytes_per_step, gbps, copy_gbps, fraction, speedup;
} sim_row;

static void csv_header(FILE *out)
{
    fprintf(out, "backend,device,engine,morphology,precision,cells,compartments,steps,time_s,"
                 "compartment_steps_per_s,split_time_s,membrane_share,assembly_share,solve_share,"
                 "update_share,readback_share,onchip_share,bytes_per_step,bytes_source,"
                 "gbps_compulsory,copy_gbps,fraction_of_copy,spikes,speedup_vs_serial\n");
}

static void num(FILE *out, const char *fmt, double v)
{
    fputc(',', out);
    if (!isnan(v))
        fprintf(out, fmt, v);
}

static void csv_row(FILE *out, const bench_backend *be, const bench_point *pt, const sim_row *r)
{
    char engine[512], morph[160];
    snprintf(engine, sizeof engine, "%s", r->run.engine);
    snprintf(morph, sizeof morph, "%s", pt->morph);
    bench_clean_field(engine);
    bench_clean_field(morph);
    double split = r->split.total_ms > 0 ? r->split.total_ms : NAN;
    fprintf(out, "%s,%s,%s,%s,%s,%lld,%lld,%lld", hb_backend_name(be->backend), be->device, engine,
            morph, pt->precision == HB_DOUBLE ? "double" : "float", (long long)pt->systems,
            (long long)r->run.rows, (long long)r->run.steps);
    num(out, "%.6g", r->run.total_ms * 1e-3);
    num(out, "%.6g", r->rate);
    num(out, "%.6g", split * 1e-3);
    num(out, "%.4f", r->split.membrane_ms / split);
    num(out, "%.4f", r->split.assembly_ms / split);
    num(out, "%.4f", r->split.solve_ms / split);
    num(out, "%.4f", r->split.update_ms / split);
    num(out, "%.4f", r->split.readback_ms / split);
    num(out, "%.4f", r->split.onchip_ms / split);
    num(out, "%.6g", r->bytes_per_step);
    fprintf(out, ",%s", r->run.engine_bytes ? "engine" : "streaming-count");
    num(out, "%.6g", r->gbps);
    num(out, "%.6g", r->copy_gbps);
    num(out, "%.4g", r->fraction);
    fprintf(out, ",%lld", (long long)r->run.spikes);
    num(out, "%.4g", r->speedup);
    fputc('\n', out);
    fflush(out);
}

/* Adds sign x a simulation's timing so far into m: -1 before the timed run,
 * +1 after it, so m holds the timed run alone. */
static void take_timing(const hb_sim_timing *t, sim_measure *m, double sign)
{
    m->total_ms += sign * t->total_ms;
    m->membrane_ms += sign * t->membrane_ms;
    m->assembly_ms += sign * t->assembly_ms;
    m->solve_ms += sign * t->solve_ms;
    m->update_ms += sign * t->update_ms;
    m->readback_ms += sign * t->readback_ms;
    m->steps += (int64_t)sign * t->steps;
    m->csteps += (int64_t)sign * t->compartment_steps;
    m->onchip_ms += sign * t->onchip_ms;
    m->bytes += sign * (double)t->compulsory_bytes;
    m->engine_bytes = 1;
}

/* One simulation of the point's cells on a backend: clamps as `hinesbatch
 * simulate` sets them (scaled to tstop), a warm-up of WARM_STEPS steps, then
 * tstop ms timed. */
static hb_status simulate(const bench_point *pt, const hb_morph_cell *const *cells, double tstop,
                          int timing, bench_backend *be, sim_measure *m)
{
    hb_sim_params prm;
    hb_sim_params_init(&prm);
    prm.precision = pt->precision;
    prm.timing = timing;
    hb_sim *sim = NULL;
    int64_t n = pt->systems;
    double warm = WARM_STEPS * prm.dt, onset = warm + 0.1 * tstop, dur = 0.8 * tstop;
    hb_sim_timing t;
    memset(m, 0, sizeof *m);
    hb_status st = hb_sim_create(be->ctx, cells, n, &prm, &sim);
    for (int64_t c = 0; c < n && st == HB_SUCCESS; ++c) {
        double f = n > 1 ? (double)c / (double)(n - 1) : 0.5;
        st = hb_sim_add_iclamp(sim, c, -1, onset, dur, AMP_NA * (1 + AMP_SPREAD * (2 * f - 1)));
    }
    int64_t nrec = n < MAX_RECORD ? n : MAX_RECORD;
    for (int64_t r = 0; r < nrec && st == HB_SUCCESS; ++r)
        st = hb_sim_record(sim, r * (n / nrec));
    if (st == HB_SUCCESS)
        st = hb_sim_run(sim, warm);
    if (st == HB_SUCCESS && (st = hb_sim_get_timing(sim, &t)) == HB_SUCCESS)
        take_timing(&t, m, -1);
    if (st == HB_SUCCESS)
        st = hb_sim_run(sim, warm + tstop);
    if (st == HB_SUCCESS && (st = hb_sim_get_timing(sim, &t)) == HB_SUCCESS)
        take_timing(&t, m, +1);
    if (st == HB_SUCCESS)
        st = hb_sim_rows(sim, &m->rows);
    for (int64_t c = 0; c < n && st == HB_SUCCESS; ++c) {
        int64_t k = 0;
        st = hb_sim_get_spikes(sim, c, 0, NULL, &k);
        m->spikes += k;
    }
    if (st == HB_SUCCESS)
        snprintf(m->engine, sizeof m->engine, "%s", hb_sim_describe(sim));
    hb_sim_destroy(sim);
    return st;
}

/* The neuron of a point as `hinesbatch simulate` builds it (its default
 * reading and discretisation: one compartment per SWC sample): a shipped
 * name from dir or an .swc path. */
static hb_status load_cell(const char *spec, const char *dir, hb_morph_cell **cell)
{
    char path[4096];
    bench_morph_path(spec, dir, path, sizeof path);
    hb_swc_options so;
    hb_swc_options_init(&so);
    hb_discretize_options o;
    hb_discretize_options_init(&o);
    hb_cable cable;
    hb_cable_init(&cable);
    hb_morph *m = NULL;
    hb_status st = hb_morph_read_swc(path, &so, &m);
    if (st == HB_SUCCESS)
        st = hb_morph_cell_create(m, &o, &cable, cell);
    hb_morph_destroy(m);
    return st;
}

int bench_sim_morph_check(const char *spec)
{
    static const char *const synthetic[] = {"mix:", "levels:", "random:", "branchy:"};
    for (size_t i = 0; i < sizeof synthetic / sizeof synthetic[0]; ++i)
        if (!strncmp(spec, synthetic[i], strlen(synthetic[i]))) {
            fprintf(stderr, "hinesbatch bench: --morphology: '%s': the simulate suite takes a "
                            "shipped neuron's name or an .swc path\n", spec);
            return 0;
        }
    return 1;
}

static const char *point_name(const bench_point *p, double tstop, char *buf, size_t size)
{
    snprintf(buf, size, "simulate %s %lld x %s, %g ms",
             p->precision == HB_DOUBLE ? "double" : "float", (long long)p->systems, p->morph, tstop);
    return buf;
}

/* Both simulations of a point on one backend, and the derived columns. */
static hb_status measure(const bench_point *pt, const hb_morph_cell *const *cells, double tstop,
                         const bench_config *cfg, bench_backend *be, sim_row *r)
{
    memset(r, 0, sizeof *r);
    hb_status st = simulate(pt, cells, tstop, 0, be, &r->run);
    if (st == HB_SUCCESS)
        st = simulate(pt, cells, tstop, 1, be, &r->split);
    if (st != HB_SUCCESS)
        return st;
    size_t esize = pt->precision == HB_DOUBLE ? sizeof(double) : sizeof(float);
    /* The copy yardstick moves one step's streaming bytes, whatever the engine. */
    double stream_step = (double)STREAM_VALUES * (double)esize * (double)r->run.rows;
    if (!r->run.engine_bytes)
        r->run.bytes = stream_step * (double)r->run.steps;
    double s = r->run.total_ms * 1e-3;
    r->rate = s > 0 ? (double)r->run.csteps / s : NAN;
    r->bytes_per_step = r->run.steps > 0 ? r->run.bytes / (double)r->run.steps : NAN;
    r->gbps = s > 0 ? r->run.bytes / s / 1e9 : NAN;
    st = bench_copy_gbps(be, (size_t)stream_step, cfg, &r->copy_gbps);
    r->fraction = st == HB_SUCCESS ? r->gbps / r->copy_gbps : NAN;
    r->speedup = NAN;
    return st;
}

int bench_sim_suite(const bench_point *points, int64_t npoints, const bench_config *cfg,
                    double tstop, bench_backend *be, int nbe, FILE *csv, int *failures)
{
    int rows_out = 0;
    double start = cli_now_s();
    hb_morph_cell *cell = NULL;
    const hb_morph_cell **cells = NULL;
    const char *loaded = NULL; /* the morphology cell holds */
    csv_header(csv);
    for (int64_t p = 0; p < npoints; ++p) {
        const bench_point *pt = &points[p];
        char name[320];
        point_name(pt, tstop, name, sizeof name);
        if (cfg->max_seconds > 0 && cli_now_s() - start > cfg->max_seconds) {
            fprintf(stderr, "bench: time budget spent, skipped: %s\n", name);
            continue;
        }
        hb_status st = HB_SUCCESS;
        if (!loaded || strcmp(loaded, pt->morph)) {
            hb_morph_cell_destroy(cell);
            cell = NULL, loaded = NULL;
            st = load_cell(pt->morph, cfg->morph_dir, &cell);
            if (st != HB_SUCCESS) {
                fprintf(stderr, "hinesbatch bench: FAILED %s: %s: %s\n", name,
                        hb_status_string(st), hb_last_error());
                ++*failures;
                continue;
            }
            loaded = pt->morph;
        }
        /* The batch meets the machine before a pointer per cell is written
         * (a lower bound, as simulate's: 100 bytes per row, 40 per cell). */
        hb_morph_cell_view cv;
        char what[96];
        uint64_t rows = cli_mul_sat((uint64_t)pt->systems,
                                    hb_morph_cell_get_view(cell, &cv) == HB_SUCCESS ? (uint64_t)cv.n : 0);
        snprintf(what, sizeof what, "--systems %lld (%llu compartments in all)",
                 (long long)pt->systems, (unsigned long long)rows);
        if (!cli_memory_fits("bench", what,
                             cli_add_sat(cli_mul_sat(rows, 100),
                                         cli_mul_sat((uint64_t)pt->systems, 40)))) {
            fprintf(stderr, "hinesbatch bench: FAILED %s: out of memory\n", name);
            ++*failures;
            continue;
        }
        /* Every cell the same pointer: one tree for the batch, as simulate's. */
        const hb_morph_cell **c = (uint64_t)pt->systems <= SIZE_MAX / sizeof *c
                                      ? realloc(cells, (size_t)pt->systems * sizeof *c)
                                      : NULL;
        if (!c) {
            fprintf(stderr, "hinesbatch bench: FAILED %s: out of memory\n", name);
            ++*failures;
            continue;
        }
        cells = c;
        for (int64_t k = 0; k < pt->systems; ++k)
            cells[k] = cell;
        double serial_s = NAN;
        int64_t first_spikes = -1;
        for (int k = 0; k < nbe; ++k) {
            if (!be[k].print) /* the serial reference of the solver suites: not here */
                continue;
            sim_row r;
            double t0 = cli_now_s();
            st = measure(pt, cells, tstop, cfg, &be[k], &r);
            if (st == HB_ERR_BACKEND_UNAVAILABLE) {
                fprintf(stderr, "bench: %s: %s: not offered: %s\n", hb_backend_name(be[k].backend),
                        name, hb_last_error());
                continue;
            }
            if (st != HB_SUCCESS) {
                fprintf(stderr, "hinesbatch bench: FAILED %s: %s: %s: %s\n",
                        hb_backend_name(be[k].backend), name, hb_status_string(st),
                        hb_last_error());
                ++*failures;
                continue;
            }
            if (be[k].backend == HB_BACKEND_SERIAL)
                serial_s = r.run.total_ms * 1e-3;
            r.speedup = serial_s / (r.run.total_ms * 1e-3);
            fprintf(stderr, "bench: %-7s %s: %s\n", hb_backend_name(be[k].backend), name,
                    r.run.engine);
            fprintf(stderr, "bench: %-7s %s: %.3g compartment-steps/s (%lld x %lld in %.3f s); "
                            "split run %.3f s: membrane %.0f%%, assembly %.0f%%, solve %.0f%%, "
                            "update %.0f%%, read-back %.0f%%, on chip %.0f%%; %.3g GB/s of %s "
                            "bytes, %.3g of a "
                            "%.3g GB/s copy; %lld spikes; %.1f s in all\n",
                    hb_backend_name(be[k].backend), name, r.rate, (long long)r.run.rows,
                    (long long)r.run.steps, r.run.total_ms * 1e-3, r.split.total_ms * 1e-3,
                    100 * r.split.membrane_ms / r.split.total_ms,
                    100 * r.split.assembly_ms / r.split.total_ms,
                    100 * r.split.solve_ms / r.split.total_ms,
                    100 * r.split.update_ms / r.split.total_ms,
                    100 * r.split.readback_ms / r.split.total_ms,
                    100 * r.split.onchip_ms / r.split.total_ms, r.gbps,
                    r.run.engine_bytes ? "the engine's" : "streaming", r.fraction, r.copy_gbps,
                    (long long)r.run.spikes, cli_now_s() - t0);
            /* Same cells and clamps: backends of one precision spike alike. */
            if (first_spikes < 0)
                first_spikes = r.run.spikes;
            else if (llabs(r.run.spikes - first_spikes) > first_spikes / 100)
                fprintf(stderr, "bench: warning: %s: %s gave %lld spikes, the first backend %lld\n",
                        name, hb_backend_name(be[k].backend), (long long)r.run.spikes,
                        (long long)first_spikes);
            csv_row(csv, &be[k], pt, &r);
            ++rows_out;
        }
    }
    hb_morph_cell_destroy(cell);
    free(cells);
    return rows_out;
}
