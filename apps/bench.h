/* bench.h: types shared by the files of `hinesbatch bench` (points, host data, settings, CSV rows). */
#ifndef HB_APPS_BENCH_H
#define HB_APPS_BENCH_H

#include <stdint.h>
#include <stdio.h>

#include "hinesbatch.h"

#define BENCH_MAX_BACKENDS 4
#define BENCH_RHS_SETS 2 /* right-hand sides cycled so a stale input cannot pass the check */

/* BENCH_SIM: a whole simulation (the simulate suite, bench_sim.c). */
typedef enum { BENCH_THOMAS = 0, BENCH_HINES = 1, BENCH_SIM = 2 } bench_kind;

/* One point of a suite: a batch shape, a precision and the plan options. */
typedef struct {
    const char  *suite;
    bench_kind   kind;
    hb_precision precision;
    int64_t      systems;     /* simulate: cells                                */
    int64_t      rows;        /* thomas: rows per system when rows_hi == 0    */
    int64_t      rows_lo;     /* thomas variable batch: sizes drawn in [lo, hi] */
    int64_t      rows_hi;
    char         morph[160];  /* hines: a morphology or mix (see bench_morph.h);
                                 simulate: a shipped neuron or .swc path        */
    hb_layout    layout;
    int32_t      block_size;
    hb_padding   padding;
    hb_strategy  strategy;
} bench_point;

/* Host data of a point, flat layout, in the point's precision. */
typedef struct {
    bench_kind   kind;
    hb_precision precision;
    size_t       esize;
    int64_t      nsys, nrows, rows_min, rows_max;
    int64_t      n_uniform;   /* rows per system when all are equal, else 0    */
    int64_t     *offsets;     /* nsys + 1                                       */
    int          mono;        /* hines: one tree for every system               */
    int32_t     *tree;        /* hines mono: parent of the one tree (n_uniform) */
    int32_t     *parent;      /* hines: nrows entries                           */
    void        *m0, *m1, *m2;/* thomas a, b, c; hines u, l, d                  */
    void        *rhs[BENCH_RHS_SETS];
    void        *x;           /* solution read back                             */
} bench_data;

/* Run settings (command-line options and their --quick defaults). */
typedef struct {
    int     quick;
    int     min_reps, max_reps;
    double  target_s;         /* stop when timed solves add up to this          */
    double  wall_cap_s;       /* ... or this much wall time went into the point */
    int64_t serial_max_rows;  /* serial reference skipped above this            */
    int64_t max_rows;         /* points with more rows are skipped              */
    size_t  ring_bytes;       /* plans cycled until their data exceeds this     */
    int     max_ring;
    double  max_seconds;      /* whole-run budget; remaining points skipped     */
    uint64_t seed;
    const char *morph_dir;
    int64_t group_size;       /* hb_plan_options.group_size of every plan (0:
                                 the library's rule)                           */
    int64_t cell_chain;       /* hb_plan_options.cell_chain of every plan (0:
                                 the library's rule)                           */
    int     shared_couplings; /* Hines points of one tree, strategy auto or
                                 per-system: hb_plan_options.shared_couplings  */
} bench_config;

/* One open backend. */
typedef struct {
    hb_backend  backend;
    hb_context *ctx;
    char        device[200];  /* describe string, commas removed for the CSV   */
    int         print;        /* selected with --backend (else reference only) */
} bench_backend;

/* One measured CSV row. Empty fields are NaN. */
typedef struct {
    char    backend[32], device[200], strategy[48], layout[64];
    int64_t reps;
    double  time_median_ms, time_min_ms, gbps, copy_gbps, fraction, speedup, max_ratio;
    double  setup_ms;         /* logged on stderr, not a column                 */
    int     ring;             /* plans cycled                                   */
    char    variant[96];      /* cooperative, cell-group: kernel and groups (logged) */
} bench_row;

/* bench_data.c (Hines cells from bench_morph.c, which knows nothing of batches) */
hb_status bench_data_make(const bench_point *pt, const bench_config *cfg, bench_data *data);
void      bench_data_free(bench_data *data);
size_t    bench_data_bytes(const bench_data *data); /* compulsory: 5 values per row */
double    bench_data_residual(const bench_data *data, int set, hb_status *st);

/* bench_run.c: 1 when the point's plans share their couplings (cfg and the
 * batch allow it); its compulsory bytes are then 3 values per row and one
 * system's couplings. */
int       bench_shares_couplings(const bench_point *pt, const bench_data *data,
                                 const bench_config *cfg);
/* bench_run.c: times one point on one backend. Returns HB_SUCCESS, or the
 * failure; HB_ERR_BACKEND_UNAVAILABLE means "not offered here" (skipped). */
hb_status bench_run_point(const bench_point *pt, const bench_data *data, const bench_config *cfg,
                          bench_backend *be, int reps_cap, bench_row *row);
/* The device-copy yardstick: GB/s of copies of bytes on the backend
 * (traffic 2 * bytes per copy; best of three medians; cached per size). */
hb_status bench_copy_gbps(bench_backend *be, size_t bytes, const bench_config *cfg, double *gbps);

/* bench_sim.c: the simulate suite. Every point (kind BENCH_SIM) on every
 * backend selected for printing, tstop ms after a warm-up, one CSV (its own
 * columns, header included) to csv. Returns the rows written; failures
 * counted in *failures. */
int  bench_sim_suite(const bench_point *points, int64_t npoints, const bench_config *cfg,
                     double tstop, bench_backend *be, int nbe, FILE *csv, int *failures);
/* A --morphology item the simulate suite takes (no synthetic kinds); 0 after
 * a message. */
int  bench_sim_morph_check(const char *spec);

/* bench_suites.c: points of a named suite, with user selections applied. */
typedef struct {
    const char *suite;        /* NULL: one point from the selections            */
    int         quick;
    char       *systems, *rows, *precision, *layout, *strategy, *morph; /* lists */
    const char *kind;
} bench_selection;
hb_status bench_suite_points(const bench_selection *sel, const bench_config *cfg,
                             bench_point **points, int64_t *npoints);
const char *bench_suite_names(void);
/* Every item of every list the user gave, checked (even those a suite does
 * not use); 0 after a message naming the option. */
int bench_selection_check(const bench_selection *sel);

/* bench_csv.c */
void bench_csv_header(FILE *out);
void bench_csv_row(FILE *out, const bench_point *pt, const bench_data *data, const bench_row *row);
void bench_clean_field(char *s);   /* commas, quotes and newlines -> safe characters */

/* bench_cusparse.c: cuSPARSE rows for thomas points (CUDA builds only). */
int bench_cusparse_rows(FILE *out, const bench_point *pt, const bench_data *data,
                        const bench_config *cfg, const bench_backend *cuda,
                        const bench_row *cuda_row, const bench_row *serial, int *failures);

#endif
