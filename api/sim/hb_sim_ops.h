/* hb_sim_ops.h: the contract between the simulation engine and the backends: device state of a simulation and one operations table per backend. */
#ifndef HB_SIM_OPS_H
#define HB_SIM_OPS_H

#include "hb_backend.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Flags the engine adds to a mechanism's in mtab (kernels_cl/sim/
 * hb_mech_passes.cl's HB_MT_UNIFORM and HB_MT_KEEPI): every instance has the
 * same parameters; a probe records one of its currents (kept after its state
 * slots, which have room for them). */
#define HB_SIM_MT_UNIFORM 256
#define HB_SIM_MT_KEEPI 512
/* A self-event sender's queue in mst (kernels_cl/sim/hb_mech_passes.cl's
 * HB_SELF_CAP entries of HB_SELF_W values, after a head of HB_SELF_HEAD: a
 * count of those pending, one of those lost, and the place of the point's
 * own connection values as place / 2^20 and place mod 2^20): its length. */
#define HB_SIM_SELF_CAP 8
#define HB_SIM_SELF_LEN (4 + HB_SIM_SELF_CAP * 5)
#define HB_SIM_SELF_ROUNDS 256 /* HB_SELF_ROUNDS: deliveries to a point in a step */

/* Device-side state of a simulation (api/sim/; kernels in
 * kernels_cl/sim/membrane.cl, host loops in backend_omp/sim/membrane.c). Per-row
 * arrays are flat (row k of the batch) in the plan's precision; pos maps a
 * flat row to its place in the plan's D and RHS. Conductances uS, currents
 * nA, voltages mV, times ms. */
typedef struct {
    int64_t    nrows, ncells;
    int64_t    nclamp_rows;   /* rows with at least one current clamp          */
    int64_t    nrec;          /* recorded cells (columns of rec)               */
    int64_t    max_spikes;    /* spike times kept per cell                     */
    double     dt, celsius, threshold;
    hb_buffer *pos;           /* int64[nrows]: flat row -> plan array position  */
    hb_buffer *v;             /* real[nrows] membrane voltage                  */
    /* Mechanisms (kernels_cl/sim/hb_mech_passes.cl says how the tables are
     * read; the catalogue is kernels_cl/sim/catalogue/hb_catalogue.cl).
     * mtab_host: the host's copy of mtab (nmech x 5: instances, parameter,
     * state and row offsets, flags HB_CAT_POINT 1, STATE 2, CONC 4, NET 8). */
    int64_t        nmech;
    int64_t        npoints;   /* point processes (entries of pptr)             */
    const int64_t *mtab_host;
    hb_buffer *mtab;          /* int64[5 nmech]; the device's flags add
                                 HB_SIM_MT_UNIFORM where every instance has
                                 the same parameters; both HB_SIM_MT_KEEPI   */
    hb_buffer *inode;         /* int64: the row of each instance               */
    hb_buffer *mcell;         /* int64[(ncells + 1) nmech]: first instance per cell */
    /* Density mechanism m's instance on a row, for the on-chip engine's
     * passes by row: dmap[m] is m's column, or -1 where in every cell m's
     * instances are every row from its first to its last (instance first +
     * row - first row); the column's entry for row k of cell c,
     * dmap[nmech + column nrows + k], is the index of k's instance among c's
     * (-1: none). */
    hb_buffer *dmap;          /* int32[nmech + columns nrows]                   */
    hb_buffer *pptr;          /* int64[nrows + 1]: point processes per row     */
    hb_buffer *pmech;         /* int32: their mechanism                        */
    hb_buffer *pidx;          /* int64: their index in it                      */
    hb_buffer *mprm, *mst;    /* real: parameters, state slots                 */
    hb_buffer *ion;           /* real[4 nion nrows]: per ion e, ci, co, current  */
    hb_buffer *ionk;          /* real[2 nion]: 1e3 R T / (z F) mV for Nernst ions, else 0;
                                 then per ion 1 where a probe records its current
                                 (summed only then unless a mechanism reads it) */
    hb_buffer *scale;         /* real[nrows]: area um2 x 1e-2 (mA/cm2 -> nA)    */
    hb_buffer *evptr;         /* int64[npoints + 1]: events of point entry q     */
    hb_buffer *evcur;         /* int64[npoints]: its next event                  */
    hb_buffer *evstep;        /* int64[2 nev]: the step an event arrives at, and  *
                               * its connection's values in mst (-1: none)        */
    hb_buffer *evw;           /* real[nev]: its weight                           */
    hb_buffer *evt;           /* real[nev]: its delivery time, ms (NET_RECEIVE's t) */
    hb_buffer *selfq;         /* int64[1 + npoints]: [0] self-events lost (an
                                 int32 in its first half, incremented
                                 atomically), then per point entry the place
                                 of its self-event queue in mst (-1: its
                                 mechanism sends none) */
    hb_buffer *d0;            /* real[nrows] the matrix diagonal C/dt + axial, uS */
    hb_buffer *cdt;           /* real[nrows] its C/dt alone, uS (the on-chip
                                 epoch's step for v, HB_EPOCH_STAGE_VX; NULL
                                 where ops->epoch is)                        */
    /* Row k's axial neighbours (its parent, then its children in row order):
     * entries nbptr[k] .. nbptr[k + 1] of nboff (the neighbour's row minus
     * k) and nbg (the conductance between them, uS); api/sim/sim_cable.c. */
    hb_buffer *nbptr;         /* int64[nrows + 1]                               */
    hb_buffer *nboff;         /* int32[2 (nrows - ncells)]                      */
    hb_buffer *nbg;           /* real[2 (nrows - ncells)]                       */
    hb_buffer *gmem, *imem;   /* real[nrows] this step's dI/dV (uS), I (nA)     */
    hb_buffer *crow, *cptr;   /* int64: clamped row j, its clamps [cptr[j], cptr[j+1]) */
    hb_buffer *con, *coff;    /* int64[nclamps]: on for steps con <= step < coff */
    hb_buffer *camp;          /* real[nclamps]: amplitude, nA (inward +)         */
    hb_buffer *soma;          /* int64[ncells]: flat row of each cell's soma     */
    hb_buffer *vprev;         /* real[ncells]: soma voltage before the step       */
    hb_buffer *nspk;          /* int64[ncells]: spikes detected                  */
    hb_buffer *tspk;          /* real[ncells*max_spikes]: rings of their times   */
    hb_buffer *slist;         /* int64[2 + cap]: the new spikes' list: [0] their
                                 count (an int32 in its first half, incremented
                                 atomically), [1] cap, then their cells        */
    hb_buffer *stime;         /* real[cap]: their times                          */
    hb_buffer *recslot;       /* int64[ncells]: column in rec, or -1             */
    hb_buffer *rec;           /* real[chunk*nrec]: recorded soma voltages and probes */
    /* Probes (api/sim/sim_probe.c; HB_PROBE_* in kernels_cl/sim/hb_mech_passes.cl):
     * nprobe entries of kind, element, flat row, column in rec, by cell; the
     * probes of cell c are prbcell[2c] .. prbcell[2c + 2]: first those any
     * thread may read after the states (v, density states, parameters, ion
     * concentrations and reversals), from prbcell[2c + 1] those only the
     * row's own may (a point process's state, an ion current, a mechanism's
     * kept current). */
    int64_t    nprobe;
    hb_buffer *probe;         /* int64[4 nprobe]                                 */
    hb_buffer *prbcell;       /* int64[2 ncells + 1]                             */
    /* The on-chip engine's tables (NULL for the per-stage engine). */
    hb_buffer *cellof;        /* int64[nslots]: cell in the plan's slot t        */
    hb_buffer *rowoff;        /* int64[ncells]: the cell's first flat row         */
    hb_buffer *crowof;        /* int64[nrows]: the row's index j in crow/cptr
                                 (its clamps cptr[j] .. cptr[j+1]), -1: none     */
    hb_buffer *ucopy;         /* int64[ncells]: the first row (flat layout) of
                                 the first cell with the same tree and axial
                                 conductances, whose u an unstaged epoch reads */
} hb_sim_dev;

/* The on-chip engine (kernels_cl/sim/epoch.cl) runs a cell with a
 * work-group of the cell-group solver's size or one work-item per 8 rows
 * (in whole warps), whichever is larger: on the H100 the CA1 cell (1,508
 * rows) ran 5% faster with 192 than with the plan's 128, and 1.7x slower
 * with 384 (docs/benchmarks/h100-2026-11-24-mech/); params.plan.group_size
 * (> 0) sets it instead. Every row's state lives in local or global memory,
 * so any size holds any cell. Local memory: d, rhs and v (the membrane
 * current is summed in rhs), the trunk's PCR rows where it solves the trunk
 * by PCR (pcr 1; else one work-item sweeps it: 3 KiB less in double), and
 * by the stage (HB_EPOCH_STAGE_*): u (l is the same array: the
 * simulation's matrix is symmetric, hb_sim_create checks) and the schedule
 * (4 arrays of rows, as the solver's u, l, d and rhs, and the schedule),
 * u alone (4 arrays: the CA1 cell of 1,508 rows takes 48 KiB in double
 * with the trunk swept), or neither (3 arrays, 39 KiB with the trunk's PCR
 * rows): what is not staged is read from global memory, one cached copy
 * per distinct cell (the schedule's soff, hb_sim_dev.ucopy), so that more
 * cells share a compute unit. Below none, vx (-1) keeps v in rhs's array
 * too (2 arrays): each step solves for the new v instead of dv, with the
 * right-hand side (C/dt + g) v - I of the row's own values alone
 * (hb_sim_dev.cdt), so that nothing in the solve reads the old v. */
enum {
    HB_EPOCH_STAGE_VX = -1,
    HB_EPOCH_STAGE_NONE = 0,
    HB_EPOCH_STAGE_U = 1,
    HB_EPOCH_STAGE_ALL = 2
};
#define HB_EPOCH_LAUNCH_BYTES(max_rows, esize, stage, pcr)                                  \
    (((stage) >= HB_EPOCH_STAGE_ALL                                                         \
          ? HB_CELL_LOCAL_BYTES(max_rows, esize)                                            \
          : (HB_CELL_LOCAL_REALS(max_rows) -                                                \
             (size_t)((stage) >= HB_EPOCH_STAGE_U ? 0 : (stage) >= HB_EPOCH_STAGE_NONE ? 1 : 2) * \
                 (size_t)(max_rows)) *                                                      \
                (esize)) +                                                                  \
     ((pcr) ? HB_CELL_TRUNK_REALS * (esize) : 0))
/* One work-item per rows_per_item rows of max_rows, in whole warps of 32. */
static inline int64_t hb__epoch_items(int64_t max_rows, int64_t rows_per_item)
{
    return ((max_rows + rows_per_item - 1) / rows_per_item + 31) / 32 * 32;
}
/* Work-items per cell of max_rows rows: requested where > 0, else as above. */
static inline int64_t hb__epoch_group(int64_t cell_group, int64_t max_rows, int32_t requested)
{
    if (requested > 0)
        return requested;
    const int64_t need = hb__epoch_items(max_rows, 8);
    return cell_group > need ? cell_group : need;
}

/* One launch of the on-chip engine: steps step0 .. step0 + nsteps - 1 of
 * every cell of the plan's cell-group layout lay (one work-group per cell,
 * one launch per size class), recording into rows rec_row0 .. of rec. */
typedef struct {
    const hb_layout_dev *lay;
    hb_buffer           *u, *l;   /* the plan's coupling arrays (kept)          */
    int64_t              step0, nsteps, rec_row0;
    int32_t              group;   /* work-items per cell asked for (0: AUTO,
                                     hb__epoch_group)                            */
    int                  stage;   /* HB_EPOCH_STAGE_*: what is in local memory  */
    int                  pcr;     /* 1: the trunk by PCR, its rows in local
                                     memory; 0: swept by one work-item        */
} hb_sim_epoch;

/* A segment of time steps for the fused loop (backend_omp/sim/cells.c): each
 * cell runs steps step0 .. step0 + nsteps - 1 on its own (membrane, clamps,
 * assembly, its Hines sweep in the plan's layout, update, spikes, recording
 * into rows rec_row0 .. of rec), cells split over the threads in contiguous
 * chunks inside one parallel region; the same operations per cell and step, in
 * the same order, as the per-step ops, so the results are bit-identical. Cells
 * are independent: nothing couples them within a segment. */
typedef struct {
    const int64_t     *offsets;  /* host int64[ncells + 1]: flat rows of each cell */
    const int64_t     *slot;     /* host int64[ncells]: the plan's slot of each cell */
    const hb_layout_dev *lay;    /* the plan's layout (base, stride, rows, parent) */
    hb_buffer         *u, *l, *d, *rhs; /* the plan's arrays                      */
    int64_t            step0, nsteps, rec_row0;
    int                timing;   /* 1: time the stages inside each thread          */
    double             stage_ms[4]; /* out (timing): membrane, assembly, solve,
                                       update; each thread's time, averaged      */
} hb_sim_cells;

/* The engine's steps on one backend (sim/membrane in every backend).
 * mech_init: every mechanism instance's INITIAL at its row's v, mechanism
 *   after mechanism in catalogue order.
 * membrane: the passes of kernels_cl/sim/membrane.cl: the events due at
 *   `step`, then gmem = dI/dV and imem = I(v) summed mechanism by mechanism
 *   in catalogue order, then point processes; then subtract the clamps
 *   that are on at this step from imem of their rows.
 * mech_state: after the update, every mechanism's states over step `step`
 *   at the new v (density mechanisms in catalogue order, then point
 *   processes): NEURON's nrn_state, at t = (step + 1) dt. membrane's
 *   currents are at t = (step + 1/2) dt (hb__sim_current_time), mech_init's
 *   INITIAL at t = 0 (each time computed in double, then rounded to the
 *   precision).
 * assemble: the step solves for dv = v' - v (NEURON's form):
 *   d[pos[k]] = d0 + gmem,
 *   rhs[pos[k]] = -imem + sum over k's neighbours j of nbg (v_j - v_k), the
 *   sum in the table's order (hb_sim_axial in kernels_cl/sim/membrane.cl).
 * update: v[k] = v[k] + x[pos[k]]; per cell: upward threshold crossing of the soma
 *   voltage (time t0 + dt*fraction), and the recorded cells' soma voltage
 *   into row rec_row of rec.
 * The fused loop and the epoch write the probes of a cell after its states,
 * as `probe` does after mech_state. */
/* The time membrane's currents see at `step`: the step's middle (NEURON's
 * nrn_cur during fadvance), and t = 0 for step -1, the pass that gives the
 * probes their currents at t = 0 after INITIAL (NEURON's finitialize
 * evaluates its BREAKPOINT at t = 0). */
static inline double hb__sim_current_time(int64_t step, double dt)
{
    return step < 0 ? 0.0 : ((double)step + 0.5) * dt;
}

typedef struct {
    hb_status (*mech_init)(hb_context *ctx, void *stream, hb_precision p, const hb_sim_dev *sim);
    hb_status (*mech_state)(hb_context *ctx, void *stream, hb_precision p,
                            const hb_sim_dev *sim, int64_t step);
    hb_status (*membrane)(hb_context *ctx, void *stream, hb_precision p, const hb_sim_dev *sim,
                          int64_t step);
    hb_status (*assemble)(hb_context *ctx, void *stream, hb_precision p, const hb_sim_dev *sim,
                          hb_buffer *d, hb_buffer *rhs);
    hb_status (*update)(hb_context *ctx, void *stream, hb_precision p, const hb_sim_dev *sim,
                        hb_buffer *x, double t0, int64_t rec_row);
    /* Optional (NULL: the engine calls the three steps above and the plan's
     * solve once per step): the fused per-cell loop of a host backend, see
     * hb_sim_cells. */
    hb_status (*step_cells)(hb_context *ctx, hb_precision p, const hb_sim_dev *sim,
                            hb_sim_cells *job);
    /* Optional (NULL: no on-chip engine): the GPU backends' epoch, see
     * hb_sim_epoch; and the largest work-group its kernel runs on the
     * context's device in precision p (registers can make it smaller than
     * the device's limit). */
    hb_status (*epoch)(hb_context *ctx, void *stream, hb_precision p, const hb_sim_dev *sim,
                       const hb_sim_epoch *job);
    hb_status (*epoch_group_limit)(hb_context *ctx, hb_precision p, int64_t *max_items);
    /* Every probe's value (after mech_state: the end of the step) into row
     * rec_row of rec; called only when there are probes. */
    hb_status (*probe)(hb_context *ctx, void *stream, hb_precision p, const hb_sim_dev *sim,
                       int64_t rec_row);
    /* Optional (NULL or 0: unknown): how many work-groups of the epoch's
     * kernel for stage `stage` (HB_EPOCH_STAGE_*: the kernels differ in
     * registers) with `group` work-items and `bytes` of local memory one compute
     * unit holds at once (its registers and local memory both limit it);
     * AUTO's launch of the epoch maximises it where cells outnumber what
     * the device holds at once (epoch_launch in api/sim/sim.c). */
    hb_status (*epoch_resident)(hb_context *ctx, hb_precision p, int stage, int64_t group,
                                size_t bytes, int64_t *per_unit);
} hb_sim_ops;

/* Each returns its table, or NULL when the backend was not compiled in. */
const hb_sim_ops *hb__serial_sim_ops(void);
const hb_sim_ops *hb__openmp_sim_ops(void);
const hb_sim_ops *hb__opencl_sim_ops(void);
const hb_sim_ops *hb__cuda_sim_ops(void);

#ifdef __cplusplus
}
#endif
#endif /* HB_SIM_OPS_H */
