/* hinesbatch_sim.h: simulation of a batch of neurons: cable equation, membrane mechanisms from NMODL (the catalogue), ions, synapses and spike trains, current clamps, recording, spikes. */
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
 *   membrane: per compartment, its mechanism instances (NMODL files
 *             translated at build time into the catalogue: pas, hh, ExpSyn,
 *             Exp2Syn and any added with HINESBATCH_MECHANISMS; see
 *             docs/mechanisms.md): events due at this step delivered
 *             (NET_RECEIVE), then the membrane current I(v) and its slope
 *             g = dI/dV at fixed states; current clamps on at this step
 *             added (NEURON's IClamp at t + dt/2);
 *   assembly: NEURON's current balance, implicit Euler with I linearised:
 *             C/dt (v'-v) + sum_j g_kj (v'_k - v'_j) = -(I(v) + g (v'-v)) + I_stim,
 *             written straight into the plan's D and RHS;
 *   solve:    hb_plan_solve;
 *   update:   the solution becomes v; soma spike detection; recorded cells'
 *             soma voltage into a device buffer read back every
 *             record_chunk steps;
 *   states:   every mechanism's states over the step at the new v (cnexp:
 *             Rush-Larsen; derivimplicit: backward Euler), NEURON's
 *             nrn_state: after a run, v and states are both at t.
 * The model: mechanisms inserted by region (hb_sim_insert), parameters by
 * region and path distance (hb_sim_set_param, hb_sim_set_param_profile),
 * ions (hb_sim_set_ion), point processes at compartments (hb_sim_add_point)
 * with events and spike trains; all before the first hb_sim_run or state
 * read, except events, which may also come between runs (a network's do).
 * A simulation with no density mechanism inserted (point processes do not
 * count) runs the default model of
 * the parameters below: pas everywhere (g = params.gl, e = params.el) and hh
 * (gnabar, gkbar, its own leak off) in the soma or everywhere, ena and ek
 * from params. hh is NEURON's hh.mod with the exact rate functions
 * (usetable_hh = 0), x/(exp(x)-1) through a series near its removable
 * singularity so float and double agree.
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
 *   HB_SIM_ENGINE_AUTO: cells where it runs, else stages; on a GPU also the
 *     stages for 50,000 or more cells of at most 8 compartments (a
 *     work-item per compartment beats a work-group per cell there), and,
 *     decided when the model is set up (the first hb_sim_run or state
 *     read), for a membrane heavier than the on-chip engine runs well
 *     (density instances times 1 + their STATEs above 6.5 per compartment:
 *     the L5PC model; HH everywhere is 5).
 * hb_sim_describe names the engine that runs (after the model's setup, the
 * one that will). */
typedef enum {
    HB_SIM_ENGINE_AUTO = 0,
    HB_SIM_ENGINE_STAGES,
    HB_SIM_ENGINE_CELLS
} hb_sim_engine;

typedef struct {
    double       dt;             /* ms (0.025)                                    */
    double       celsius;        /* degC (6.3)                                    */
    double       v_init;         /* mV (-65); gates start at their steady state  */
    /* The default model (used when no mechanism is inserted): */
    double       gnabar;         /* HH sodium, S/cm^2 (0.12)                      */
    double       gkbar;          /* HH potassium, S/cm^2 (0.036)                  */
    double       gl;             /* leak everywhere, S/cm^2 (0.0003)              */
    double       el;             /* leak reversal, mV (-54.3)                     */
    double       ena, ek;        /* mV (50, -77): also every model's default ena, ek */
    int          hh_everywhere;  /* 0: HH only in the soma (SWC type 1
                                    compartments, else each cell's row 0)         */
    double       threshold;      /* spike threshold at each cell's detector (the
                                    soma unless moved), mV (-20)                  */
    int64_t      max_spikes;     /* each cell's ring of spike times on the device
                                    (256): the engine reads them back at least
                                    every max_spikes steps, so every spike is kept */
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
 * must have cable.gm = 0 (leaks are mechanisms: pas). params may be NULL
 * (defaults). A backend without the simulation kernels gives
 * HB_ERR_BACKEND_UNAVAILABLE. The cells may be destroyed after the call. */
HB_API hb_status hb_sim_create(hb_context *ctx, const hb_morph_cell *const *cells, int64_t ncells,
                               const hb_sim_params *params, hb_sim **sim);
HB_API void hb_sim_destroy(hb_sim *sim);                     /* NULL is fine */
/* Plan, batch size, engine and backend in one line; after the model's setup
 * also its mechanisms and their load per compartment. */
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
/* ---- The model: mechanisms, parameters, ions, point processes, events -----
 * All of it before the first hb_sim_run (or hb_sim_get_state /
 * hb_sim_get_mech_state, which set the model up); later calls give
 * HB_ERR_INVALID_ARGUMENT. Names are the NMODL ones: the mechanism's SUFFIX
 * or POINT_PROCESS name, a PARAMETER's name; an unknown one is
 * HB_ERR_INVALID_ARGUMENT naming it and the catalogue. */

/* The catalogue compiled into this library, by index 0 .. count - 1. */
typedef struct {
    const char *name;             /* SUFFIX or POINT_PROCESS name                */
    int         point;            /* 1: point process (nA, uS); 0: density       */
    int         nparam, nstate;   /* PARAMETERs; state slots (STATEs first)       */
    int         net_receive;      /* 1: takes events                              */
    const char *const *param_names;
    const double *param_defaults;
    const char *const *state_names;
    int         ncurrent;         /* its currents a probe records ("MECH.I")      */
    const char *const *current_names; /* ion currents it writes, then nonspecific */
} hb_mech_desc;
HB_API int64_t hb_mech_count(void);
HB_API hb_status hb_mech_describe(int64_t index, hb_mech_desc *desc);

/* Compartments a call applies to: of cell `cell` (-1: every cell), of an SWC
 * type whose bit is set in `types` (bit t for type t: 1 soma, 2 axon, 3
 * basal, 4 apical; 0: every type), whose centre's path distance from the
 * cell's root (the soma's centre) is in [dist_min, dist_max) um. A NULL
 * region is every compartment. */
typedef struct {
    int64_t  cell;
    uint32_t types;
    double   dist_min, dist_max;
} hb_sim_region;
#define HB_SIM_TYPE(t) (1u << (t))
HB_API void hb_sim_region_init(hb_sim_region *where); /* every compartment */

/* Inserts density mechanism `mech` in the region's compartments (again on a
 * compartment that has it: no change), parameters at their defaults. */
HB_API hb_status hb_sim_insert(hb_sim *sim, const char *mech, const hb_sim_region *where);
/* Sets PARAMETER `param` of `mech` in the region's compartments that carry
 * it (none: HB_ERR_INVALID_ARGUMENT): to value, or to the profile
 * a + b d + c exp(k d) of the compartment's path distance d (um). Later calls
 * override earlier ones where they overlap. A parameter named diam (NMODL's
 * `diam`) is the compartment's mean diameter, filled where the mechanism goes
 * (hb_morph_cell_view.diam): setting it is HB_ERR_INVALID_ARGUMENT. */
typedef struct {
    double a, b, c, k;
} hb_sim_profile;
HB_API hb_status hb_sim_set_param(hb_sim *sim, const char *mech, const char *param,
                                  const hb_sim_region *where, double value);
HB_API hb_status hb_sim_set_param_profile(hb_sim *sim, const char *mech, const char *param,
                                          const hb_sim_region *where,
                                          const hb_sim_profile *profile);

/* Ion `ion` ("na", "k", "ca", or another the catalogue names) in the region:
 * reversal potential e (mV), inside and outside concentrations ci, co (mM);
 * a NaN leaves that value as it is. Defaults (NEURON's): na 50 mV, 10, 140;
 * k -77 mV, 54.4, 2.5 (ena, ek from params); ca 132.458 mV, 5e-5, 2; other
 * ions 0 mV, 1, 1. With nernst != 0 the ion's reversal potential is
 * computed from the concentrations every step (Nernst, at params.celsius),
 * everywhere, as NEURON does for an ion whose concentration a mechanism
 * writes. */
HB_API hb_status hb_sim_set_ion(hb_sim *sim, const char *ion, const hb_sim_region *where,
                                double e, double ci, double co);
HB_API hb_status hb_sim_set_ion_nernst(hb_sim *sim, const char *ion, int nernst);

/* Specific membrane capacitance cm (uF/cm^2, finite, >= 0) of the region's
 * compartments, in place of their cell's cable.cm: C/dt and the matrix
 * diagonal are rebuilt as a cell made with that cm would have them. Later
 * calls override earlier ones where they overlap. */
HB_API hb_status hb_sim_set_cm(hb_sim *sim, const hb_sim_region *where, double cm);

/* A point process `mech` (ExpSyn, Exp2Syn, ...) on compartment `compartment`
 * of `cell` (-1: its soma); *id numbers it (0, 1, ... in order of calls).
 * Parameters at their defaults until set. */
HB_API hb_status hb_sim_add_point(hb_sim *sim, const char *mech, int64_t cell,
                                  int64_t compartment, int64_t *id);
HB_API hb_status hb_sim_set_point_param(hb_sim *sim, int64_t id, const char *param, double value);

/* Events to point process id (it must have a NET_RECEIVE block): each of the
 * n times (ms, >= 0) delivers `weight` at the first step whose midpoint
 * t + dt/2 is at or after it, before that step's currents (NEURON's fixed
 * step delivery). Events of one step arrive in the order they were added.
 * Where its NET_RECEIVE keeps values per connection (arguments after the
 * weight), these events share the point's one connection.
 * Allowed between runs too, for times not before the step the simulation is
 * at (each run uploads the events due before its end). */
HB_API hb_status hb_sim_add_events(hb_sim *sim, int64_t id, int64_t n, const double *times,
                                   double weight);
/* A spike train into point process id: regular (one event every `interval`
 * ms from start) or Poisson (rate in Hz, exponential intervals drawn from
 * `seed`: the same seed gives the same train on every backend and run), in
 * [start, stop) ms, each event of weight `weight`. */
typedef enum { HB_TRAIN_REGULAR = 0, HB_TRAIN_POISSON } hb_train_kind;
typedef struct {
    hb_train_kind kind;
    double        start, stop;   /* ms                                  */
    double        interval;      /* ms (regular)                        */
    double        rate;          /* Hz (Poisson)                        */
    uint64_t      seed;          /* Poisson                             */
    double        weight;        /* NET_RECEIVE's weight (uS for ExpSyn) */
} hb_spike_train;
HB_API hb_status hb_sim_add_spike_train(hb_sim *sim, int64_t id, const hb_spike_train *train);

/* Records the voltage of `cell` at its spike detector (its soma unless
 * hb_sim_set_spike_detector moved it) every step (t = 0, dt, 2 dt, ...). */
HB_API hb_status hb_sim_record(hb_sim *sim, int64_t cell);
/* Moves the spike detector of `cell` (the upward crossing of
 * params.threshold that hb_sim_get_spikes and networks count) from its soma
 * to `compartment` (-1: back to the soma), e.g. the axon's initial segment;
 * before the first hb_sim_run. */
HB_API hb_status hb_sim_set_spike_detector(hb_sim *sim, int64_t cell, int64_t compartment);

/* Probes: any value of a compartment or point process recorded every step as
 * a trace, beside hb_sim_record's (trace r is the r-th hb_sim_record or probe
 * call; *id is that r). Sample j is the value at the end of step j (t = j
 * dt), after the step's states moved: sample 0 after INITIAL. `what` at
 * compartment `compartment` of `cell` (-1: its soma):
 *   "v":        membrane voltage, mV;
 *   "MECH.VAR": a state slot (STATE or a value the mechanism keeps; its
 *               hb_mech_desc.state_names) or PARAMETER of density mechanism
 *               MECH, in its NMODL units ("hh.m", "hh.gnabar"), or one of
 *               its currents, mA/cm2: a NONSPECIFIC_CURRENT ("pas.i",
 *               "hh.il") or its share of an ion current it writes
 *               ("hh.ina"); MECH must be in that compartment when the call is
 *               made (inserted, or the default model's pas and hh when
 *               nothing was inserted);
 *   "iX":       ion X's total current, mA/cm2 ("ina": every mechanism's);
 *   "Xi", "Xo": ion X's inside and outside concentration, mM ("cai");
 *   "eX":       its reversal potential, mV (Nernst where the ion is).
 * A current's sample j (j >= 1) is the one the step that ends at it used,
 * computed from the values at the step's start (sample j - 1), and sample 0
 * the one at the state after INITIAL: NEURON's recording convention.
 * hb_sim_probe_point records `var` (a state slot or PARAMETER, e.g. ExpSyn's
 * "g", uS, or a current, nA: ExpSyn's "i") of point process point_id. All
 * before the first hb_sim_run, and a mechanism's current before the model is
 * set up (the first run or state read: its slots are made then); bad input
 * (cell, compartment, names, a mechanism not there, NULL, a current probed
 * too late) is HB_ERR_INVALID_ARGUMENT naming it, the cell and the
 * compartment, with no probe added. */
HB_API hb_status hb_sim_probe(hb_sim *sim, int64_t cell, int64_t compartment, const char *what,
                              int64_t *id);
HB_API hb_status hb_sim_probe_point(hb_sim *sim, int64_t point_id, const char *var,
                                    int64_t *id);
/* What trace r records: its cell, local compartment, point process (-1: none),
 * whether it is a probe (0: hb_sim_record) and `what` ("v" for hb_sim_record
 * and v probes, "hh.m", "cai", "ina", "ExpSyn.g"). */
typedef struct {
    int64_t cell, compartment, point;
    int     probe;
    char    what[64];
} hb_sim_trace_desc;
HB_API hb_status hb_sim_get_trace_info(const hb_sim *sim, int64_t r, hb_sim_trace_desc *info);

/* Advances until t >= tstop - dt/2 (whole steps; t starts at 0). */
HB_API hb_status hb_sim_run(hb_sim *sim, double tstop);
/* Simulated time (ms) and steps taken. */
HB_API hb_status hb_sim_get_time(const hb_sim *sim, double *t, int64_t *steps);

/* Recorded traces: nrec (hb_sim_record and probe calls, in call order),
 * nsamples each (steps + 1). hb_sim_get_trace copies trace r (of cell
 * *cell) into v (nsamples doubles, sample j at t = j*dt; mV for
 * hb_sim_record, the probe's units for a probe). */
HB_API hb_status hb_sim_trace_count(const hb_sim *sim, int64_t *nrec, int64_t *nsamples);
HB_API hb_status hb_sim_get_trace(const hb_sim *sim, int64_t r, int64_t *cell, double *v);

/* Spikes of cell so far: *count all of them; times (ms, interpolated to the
 * threshold crossing) of the first min(count, cap) into times. */
HB_API hb_status hb_sim_get_spikes(hb_sim *sim, int64_t cell, int64_t cap, double *times,
                                   int64_t *count);

/* State of every compartment, flat (hb_sim_cell_rows order), as doubles:
 * v, or the gates of hh (0 where there is no hh). */
typedef enum { HB_SIM_V = 0, HB_SIM_M, HB_SIM_H, HB_SIM_N } hb_sim_state;
HB_API hb_status hb_sim_get_state(hb_sim *sim, hb_sim_state which, double *out);
/* State slot or PARAMETER `var` of density mechanism `mech` in every
 * compartment, flat (NaN where the mechanism is not inserted); of a point
 * process, one value per point process of that mechanism, in id order
 * (*n: how many values were written; out must hold the larger of
 * hb_sim_rows and the number of point processes of mech). */
HB_API hb_status hb_sim_get_mech_state(hb_sim *sim, const char *mech, const char *var,
                                       double *out, int64_t *n);

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
