/* hinesbatch_sim.h: simulation of a batch of neurons: cable equation, leak and Hodgkin-Huxley channels, current clamps, recording, spikes. */
#ifndef HINESBATCH_SIM_H
#define HINESBATCH_SIM_H

#include "hinesbatch.h"
#include "hinesbatch_morph.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Units: time ms, voltage mV, temperature degC, specific conductances S/cm^2,
 * currents nA. Specific capacitance (uF/cm^2) and axial resistivity (ohm*cm)
 * belong to each cell (hb_cable, NEURON's 1 and 35.4 by default).
 *
 * Each time step, all on the backend, with no host round trip:
 *   membrane: HH gates advanced with the voltage of the last step
 *             (Rush-Larsen / exponential Euler, as NEURON's cnexp), then the
 *             membrane current I(v) and its slope g = dI/dV at fixed gates;
 *             current clamps on at this step added (NEURON's IClamp at
 *             t + dt/2);
 *   assembly: NEURON's current balance, implicit Euler with I linearised:
 *             C/dt (v'-v) + sum_j g_kj (v'_k - v'_j) = -(I(v) + g (v'-v)) + I_stim,
 *             written straight into the plan's D and RHS;
 *   solve:    hb_plan_solve;
 *   update:   the solution becomes v; soma spike detection; recorded cells'
 *             soma voltage into a device buffer read back every
 *             record_chunk steps.
 * HH: hh.mod of NEURON (gates m^3 h and n^4, rates at 6.3 degC scaled by
 * q10 = 3^((celsius - 6.3)/10)), with x/(exp(x)-1) evaluated through a series
 * near its removable singularity so float and double agree. NEURON's hh.mod
 * interpolates its rates in a table by default (usetable_hh = 1); these are
 * the exact functions (usetable_hh = 0).
 *
 * Engines (params.engine) run those stages in one of two ways, with the same
 * arithmetic per compartment:
 *   HB_SIM_ENGINE_STAGES: each stage of each step over every compartment of
 *     the batch (one kernel launch per stage on a GPU, the plan's solve in
 *     between); the serial backend, the oracle, always runs it;
 *   HB_SIM_ENGINE_CELLS: each cell on its own for many steps: on CUDA and
 *     OpenCL one work-group per cell keeps the cell on chip (v and gates in
 *     registers, the matrix and the cell-group solver's schedule in local
 *     memory) for an epoch of steps per launch, writing back only state,
 *     recorded samples and spikes; on OpenMP a fused per-cell loop with the
 *     cell in cache. On a GPU it needs cells that fit local memory and a
 *     plan of strategy auto or cell-group (flat layout); where a cell does
 *     not fit it runs the stages and hb_sim_describe says why;
 *   HB_SIM_ENGINE_AUTO: cells where it runs, else stages.
 * hb_sim_describe names the engine that runs. */
typedef enum {
    HB_SIM_ENGINE_AUTO = 0,
    HB_SIM_ENGINE_STAGES,
    HB_SIM_ENGINE_CELLS
} hb_sim_engine;

typedef struct {
    double       dt;             /* ms (0.025)                                    */
    double       celsius;        /* degC (6.3)                                    */
    double       v_init;         /* mV (-65); gates start at their steady state  */
    double       gnabar;         /* HH sodium, S/cm^2 (0.12)                      */
    double       gkbar;          /* HH potassium, S/cm^2 (0.036)                  */
    double       gl;             /* leak everywhere, S/cm^2 (0.0003)              */
    double       el;             /* leak reversal, mV (-54.3)                     */
    double       ena, ek;        /* mV (50, -77)                                  */
    int          hh_everywhere;  /* 0: HH only in the soma (SWC type 1
                                    compartments, else each cell's row 0)         */
    double       threshold;      /* spike threshold at the soma, mV (-20)         */
    int64_t      max_spikes;     /* spike times kept per cell (256); counts are
                                    exact beyond it                               */
    int64_t      record_chunk;   /* steps recorded on the device between read-backs
                                    (1000)                                        */
    int          timing;         /* 1: wait for the backend after each stage so
                                    hb_sim_get_timing splits the time (slower)   */
    hb_precision precision;      /* HB_DOUBLE                                     */
    hb_plan_options plan;        /* solver plan options (layout, strategy, stream) */
    hb_sim_engine engine;        /* HB_SIM_ENGINE_AUTO                            */
    int64_t      epoch_steps;    /* most steps per on-chip launch (0: no limit
                                    beyond record_chunk and the run's end); the
                                    events of a network will end epochs too      */
} hb_sim_params;

/* Fills params with the defaults above. */
HB_API void hb_sim_params_init(hb_sim_params *params);

typedef struct hb_sim hb_sim;

/* A simulation of ncells cells (the same cell may be given several times; all
 * the same pointer makes a mono-morphology batch that shares its tree). Cells
 * must have cable.gm = 0 (the leak is params->gl). params may be NULL
 * (defaults). A backend without the simulation kernels gives
 * HB_ERR_BACKEND_UNAVAILABLE. The cells may be destroyed after the call. */
HB_API hb_status hb_sim_create(hb_context *ctx, const hb_morph_cell *const *cells, int64_t ncells,
                               const hb_sim_params *params, hb_sim **sim);
HB_API void hb_sim_destroy(hb_sim *sim);                     /* NULL is fine */
/* Plan, batch size and backend in one line. */
HB_API const char *hb_sim_describe(const hb_sim *sim);

/* Compartments of the batch (flat rows) and of cell c; the soma compartment
 * of cell c (local index: the first of SWC type 1, else 0). */
HB_API hb_status hb_sim_rows(const hb_sim *sim, int64_t *nrows);
HB_API hb_status hb_sim_cell_rows(const hb_sim *sim, int64_t cell, int64_t *offset, int64_t *n);
HB_API hb_status hb_sim_soma(const hb_sim *sim, int64_t cell, int64_t *compartment);

/* A current clamp on compartment `compartment` of `cell` (-1: its soma):
 * amp nA (positive depolarises) from onset for dur ms, on in the steps whose
 * midpoint t + dt/2 lies in [onset, onset + dur), as NEURON's IClamp. Add
 * clamps and recordings before the first hb_sim_run. */
HB_API hb_status hb_sim_add_iclamp(hb_sim *sim, int64_t cell, int64_t compartment, double onset,
                                   double dur, double amp);
/* Records the soma voltage of `cell` every step (t = 0, dt, 2 dt, ...). */
HB_API hb_status hb_sim_record(hb_sim *sim, int64_t cell);

/* Advances until t >= tstop - dt/2 (whole steps; t starts at 0). */
HB_API hb_status hb_sim_run(hb_sim *sim, double tstop);
/* Simulated time (ms) and steps taken. */
HB_API hb_status hb_sim_get_time(const hb_sim *sim, double *t, int64_t *steps);

/* Recorded traces: nrec cells (in hb_sim_record order), nsamples each
 * (steps + 1). hb_sim_get_trace copies trace r (cell *cell) into v
 * (nsamples doubles, mV; sample j at t = j*dt). */
HB_API hb_status hb_sim_trace_count(const hb_sim *sim, int64_t *nrec, int64_t *nsamples);
HB_API hb_status hb_sim_get_trace(const hb_sim *sim, int64_t r, int64_t *cell, double *v);

/* Spikes of cell so far: *count all of them; times (ms, interpolated to the
 * threshold crossing) of the first min(count, cap, max_spikes) into times. */
HB_API hb_status hb_sim_get_spikes(hb_sim *sim, int64_t cell, int64_t cap, double *times,
                                   int64_t *count);

/* State of every compartment, flat (hb_sim_cell_rows order), as doubles. */
typedef enum { HB_SIM_V = 0, HB_SIM_M, HB_SIM_H, HB_SIM_N } hb_sim_state;
HB_API hb_status hb_sim_get_state(hb_sim *sim, hb_sim_state which, double *out);

/* Wall time of the runs so far, ms. The stage split is measured only with
 * params.timing = 1 (else the stages are 0 and only total is set). */
typedef struct {
    double  membrane_ms, assembly_ms, solve_ms, update_ms;
    double  readback_ms;          /* recorded samples copied back              */
    double  total_ms;
    int64_t steps;
    int64_t compartment_steps;    /* rows x steps                              */
    double  onchip_ms;            /* inside on-chip epochs (part of total; the
                                     stages are not split there: timing = 1
                                     only waits for each epoch)                 */
    int64_t epochs;               /* on-chip launches (per size class of cells) */
    int64_t compulsory_bytes;     /* the least traffic between device memory and
                                     the chip the engine's design implies, summed
                                     over the runs (docs/simulate.md)           */
} hb_sim_timing;
HB_API hb_status hb_sim_get_timing(const hb_sim *sim, hb_sim_timing *timing);

/* Hodgkin-Huxley rate helper, exposed for tests: x/(exp(x)-1) (1 at 0) in
 * the given precision, computed as the kernels do. */
HB_API double hb_sim_exprelr(hb_precision precision, double x);

#ifdef __cplusplus
}
#endif
#endif /* HINESBATCH_SIM_H */
