/* hinesbatch_cardiac.h: batches of cardiac cells (0-D: one ODE system per cell) of the generated cardiac catalogue, on any backend. */
#ifndef HINESBATCH_CARDIAC_H
#define HINESBATCH_CARDIAC_H

#include "hinesbatch.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The catalogue: the models translated at build time (docs/cardiac.md;
 * the built-in Beeler-Reuter 1977 and those of HINESBATCH_CARDIAC_MODELS).
 * Models are numbered 0 .. count - 1; names are those of the catalogue
 * (a model file's base name, or NAME of NAME=FILE). */
typedef struct {
    const char *name;
    int32_t     nstate;   /* states, the membrane potential V first (mV)    */
    int32_t     nparam;   /* parameters: every literal constant of the file  */
    const char *stimulus; /* the parameter beside pace in the stimulus
                             current (its amplitude), or NULL               */
    double      protocol[3]; /* the file's own pace protocol (start, duration,
                             period, ms; a .mmt [[protocol]] or CellML's
                             embedded stimulus); duration 0: none           */
} hb_cardiac_model_info;

HB_API int32_t   hb_cardiac_model_count(void);
/* HB_ERR_INVALID_ARGUMENT for an unknown name (*model untouched). */
HB_API hb_status hb_cardiac_model_find(const char *name, int32_t *model);
HB_API hb_status hb_cardiac_model_get_info(int32_t model, hb_cardiac_model_info *info);
/* Name of state / parameter k of a model (*name untouched on error). */
HB_API hb_status hb_cardiac_model_state_name(int32_t model, int32_t k, const char **name);
HB_API hb_status hb_cardiac_model_param_name(int32_t model, int32_t k, const char **name);
/* The file's value of parameter k / initial value of state k (*value untouched on error). */
HB_API hb_status hb_cardiac_model_param_default(int32_t model, int32_t k, double *value);
HB_API hb_status hb_cardiac_model_state_init(int32_t model, int32_t k, double *value);

/* A batch of ncells independent cells of one model, on ctx's backend, in
 * one precision, with a fixed time step dt (ms). Every cell starts at the
 * model's initial values with its default parameters, time 0, no stimulus.
 * The batch keeps ctx (retained) until it is destroyed. A batch is used by
 * one thread at a time. */
typedef struct hb_cardiac hb_cardiac;

HB_API hb_status hb_cardiac_create(hb_context *ctx, int32_t model, int64_t ncells,
                                   hb_precision precision, double dt, hb_cardiac **out);
HB_API void      hb_cardiac_destroy(hb_cardiac *c); /* NULL is fine */

/* Parameter `name` of every cell set to value, or of cell i to values[i]
 * (ncells values). Names as in the catalogue (component_variable). */
HB_API hb_status hb_cardiac_set_param(hb_cardiac *c, const char *name, double value);
HB_API hb_status hb_cardiac_set_param_cells(hb_cardiac *c, const char *name, const double *values);
/* State `name` of every cell read into out[ncells], or set from values[ncells]. */
HB_API hb_status hb_cardiac_get_state(hb_cardiac *c, const char *name, double *out);
HB_API hb_status hb_cardiac_set_state(hb_cardiac *c, const char *name, const double *values);

/* The stimulus, as Myokit's periodic pace: pace = level during
 * [start + k period, start + k period + duration) for k = 0, 1, ...
 * (period 0: once), else 0; the model's stimulus current is pace times
 * its amplitude parameter. start, duration and period are whole numbers of
 * steps (within 1e-9 of one), duration > 0, period 0 or >= duration. */
HB_API hb_status hb_cardiac_set_protocol(hb_cardiac *c, double level, double start,
                                         double duration, double period);

/* Record the listed states of the listed cells every `every` steps (from
 * the next run on; replaces an earlier choice; ncells_rec 0 records
 * nothing). Row r holds the values after step (r + 1) every since the
 * choice, cell by cell, state by state. */
HB_API hb_status hb_cardiac_record(hb_cardiac *c, int64_t ncells_rec, const int64_t *cells,
                                   int32_t nstates, const char *const *states, int64_t every);
/* Couples the cells into fibers (the monodomain cable equation): cells
 * f nnodes .. (f + 1) nnodes - 1 are fiber f's nodes, dx cm apart, with
 * diffusion D = sigma / (chi cm) (sigma mS/cm, chi 1/cm, cm uF/cm^2: D in
 * cm^2/ms) and no flux through the ends. Each step is split: first the
 * implicit diffusion of V over dt (one tridiagonal system per fiber, solved
 * by the library's own tridiagonal plan in the flat layout, on the device), then
 * the cell models' step. ncells must be a multiple of nnodes (>= 2). The
 * stimulus reaches every cell whose stimulus amplitude parameter is not 0:
 * set it to 0 beyond the stimulated end (hb_cardiac_set_param_cells). */
HB_API hb_status hb_cardiac_set_fiber(hb_cardiac *c, int64_t nnodes, double sigma, double chi,
                                      double cm, double dx);
/* Advances every cell by nsteps steps. */
HB_API hb_status hb_cardiac_run(hb_cardiac *c, int64_t nsteps);
/* Steps taken so far (time = steps x dt). */
HB_API int64_t   hb_cardiac_steps(const hb_cardiac *c);
/* The recorded rows so far: *nrows, *ncols (ncells_rec x nstates); with
 * out not NULL, min(rows, capacity / ncols) rows copied into out. */
HB_API hb_status hb_cardiac_get_recording(const hb_cardiac *c, double *out, size_t capacity,
                                          int64_t *nrows, int64_t *ncols);

#ifdef __cplusplus
}
#endif
#endif
