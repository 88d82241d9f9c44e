/* membrane.c: launchers of the simulation kernels (kernels_cl/sim/membrane.cl): membrane currents, clamps, assembly, voltage update, spikes and probes. */
#include "cl_backend.h"
#include "hb_sim_ops.h"
#include "sim_args.h"


/* Per instance of each mechanism in catalogue order (INITIAL may read
 * what an earlier mechanism wrote: a concentration). */
static hb_status cl_sim_mech_init(hb_context *ctx, void *stream, hb_precision p,
                                 const hb_sim_dev *sim)
{
    cl_long nrows = sim->nrows;
    real_arg cel = real_of(sim->celsius);
    for (cl_int m = 0; m < sim->nmech; ++m) {
        const cl_long n = HB_SIM_MT_N(sim, m);
        const hb_cl_arg args[] = {HB_CL_INT(m), HB_CL_LONG(nrows), MEM(sim->v),
                                  HB_CL_MECH_ARGS(p, sim, cel)};
        if (n > 0)
            HB_FORWARD(hb__cl_launch(ctx, stream, p, HB_CLK_SIM_MECH_INIT, args, NARGS(args), n));
    }
    return HB_SUCCESS;
}

/* The states of every mechanism over step `step` at the new v, at the time
 * it ends: one launch per density mechanism with states, then the rows'
 * point processes. */
static hb_status cl_sim_mech_state(hb_context *ctx, void *stream, hb_precision p,
                                  const hb_sim_dev *sim, int64_t step)
{
    cl_long nrows = sim->nrows;
    real_arg dt = real_of(sim->dt), cel = real_of(sim->celsius);
    real_arg t = real_of((double)(step + 1) * sim->dt);
    for (cl_int m = 0; m < sim->nmech; ++m) {
        const cl_long n = HB_SIM_MT_N(sim, m), fl = HB_SIM_MT_FLAGS(sim, m);
        if (!(fl & 1) && (fl & 2) && n > 0) {
            const hb_cl_arg a[] = {HB_CL_INT(m), HB_CL_LONG(nrows), REAL(p, dt), REAL(p, t),
                                   MEM(sim->v), HB_CL_MECH_ARGS(p, sim, cel)};
            HB_FORWARD(hb__cl_launch(ctx, stream, p, HB_CLK_SIM_MECH_STATE, a, NARGS(a), n));
        }
    }
    if (sim->npoints == 0)
        return HB_SUCCESS;
    const hb_cl_arg a[] = {HB_CL_LONG(nrows), REAL(p, dt), REAL(p, t), MEM(sim->v),
                           HB_CL_MECH_ARGS(p, sim, cel)};
    return hb__cl_launch(ctx, stream, p, HB_CLK_SIM_MECH_POINTS_ADVANCE, a, NARGS(a), nrows);
}

/* The membrane passes of membrane.cl, then the clamps. */
static hb_status cl_sim_membrane(hb_context *ctx, void *stream, hb_precision p,
                              const hb_sim_dev *sim, int64_t step)
{
    cl_long nrows = sim->nrows, ncl = sim->nclamp_rows, st = step;
    real_arg cel = real_of(sim->celsius);
    /* The currents at the step's middle (NEURON's nrn_cur; t = 0 at step -1). */
    real_arg t = real_of(hb__sim_current_time(step, sim->dt)), dt = real_of(sim->dt);
    const hb_cl_arg pre[] = {HB_CL_LONG(nrows), HB_CL_LONG(st), REAL(p, dt),
                             HB_CL_MECH_ARGS(p, sim, cel), MEM(sim->gmem), MEM(sim->imem)};
    HB_FORWARD(hb__cl_launch(ctx, stream, p, HB_CLK_SIM_MECH_ROWS_PRE, pre, NARGS(pre), nrows));
    for (cl_int m = 0; m < sim->nmech; ++m) {
        const cl_long n = HB_SIM_MT_N(sim, m);
        const hb_cl_arg a[] = {HB_CL_INT(m), HB_CL_LONG(nrows), REAL(p, t), MEM(sim->v),
                               HB_CL_MECH_ARGS(p, sim, cel), MEM(sim->gmem), MEM(sim->imem)};
        if (!(HB_SIM_MT_FLAGS(sim, m) & 1) && n > 0)
            HB_FORWARD(hb__cl_launch(ctx, stream, p, HB_CLK_SIM_MECH_CURRENT, a, NARGS(a), n));
    }
    if (sim->npoints > 0) {
        const hb_cl_arg post[] = {HB_CL_LONG(nrows), REAL(p, t), MEM(sim->v),
                                  HB_CL_MECH_ARGS(p, sim, cel), MEM(sim->gmem),
                                  MEM(sim->imem)};
        HB_FORWARD(hb__cl_launch(ctx, stream, p, HB_CLK_SIM_MECH_ROWS_POST, post, NARGS(post),
                                 nrows));
    }
    if (ncl <= 0)
        return HB_SUCCESS;
    const hb_cl_arg cargs[] = {HB_CL_LONG(ncl), HB_CL_LONG(st),   MEM(sim->crow), MEM(sim->cptr),
                               MEM(sim->con),   MEM(sim->coff),  MEM(sim->camp), MEM(sim->imem)};
    return hb__cl_launch(ctx, stream, p, HB_CLK_SIM_CLAMP, cargs, NARGS(cargs), ncl);
}

static hb_status cl_sim_assemble(hb_context *ctx, void *stream, hb_precision p,
                              const hb_sim_dev *sim, hb_buffer *d, hb_buffer *rhs)
{
    cl_long nrows = sim->nrows;
    const hb_cl_arg args[] = {HB_CL_LONG(nrows), MEM(sim->pos),   MEM(sim->v),
                              MEM(sim->d0),      MEM(sim->gmem),  MEM(sim->imem),
                              MEM(sim->nbptr),   MEM(sim->nboff), MEM(sim->nbg),
                              MEM(d),            MEM(rhs)};
    return hb__cl_launch(ctx, stream, p, HB_CLK_SIM_ASSEMBLE, args, NARGS(args), nrows);
}

static hb_status cl_sim_update(hb_context *ctx, void *stream, hb_precision p, const hb_sim_dev *sim,
                            hb_buffer *x, double t0, int64_t rec_row)
{
    cl_long nrows = sim->nrows, ncells = sim->ncells, maxs = sim->max_spikes, row = rec_row,
            nrec = sim->nrec;
    real_arg thr = real_of(sim->threshold), t = real_of(t0), dt = real_of(sim->dt);
    const hb_cl_arg vargs[] = {HB_CL_LONG(nrows), MEM(sim->pos), MEM(x), MEM(sim->v)};
    HB_FORWARD(hb__cl_launch(ctx, stream, p, HB_CLK_SIM_UPDATE_V, vargs, NARGS(vargs), nrows));
    const hb_cl_arg sargs[] = {HB_CL_LONG(ncells),  HB_CL_LONG(maxs),  REAL(p, thr),
                               REAL(p, t),          REAL(p, dt),       HB_CL_LONG(row),
                               HB_CL_LONG(nrec),    MEM(sim->soma),    MEM(sim->vprev),
                               MEM(sim->nspk),      MEM(sim->tspk),    MEM(sim->recslot),
                               MEM(sim->v),         MEM(sim->rec),     MEM(sim->slist),
                               MEM(sim->stime)};
    return hb__cl_launch(ctx, stream, p, HB_CLK_SIM_SOMA, sargs, NARGS(sargs), ncells);
}

/* One work-item per probe: its value at the end of the step into row rec_row. */
static hb_status cl_sim_probe(hb_context *ctx, void *stream, hb_precision p,
                              const hb_sim_dev *sim, int64_t rec_row)
{
    cl_long np = sim->nprobe, nrows = sim->nrows, row = rec_row, nrec = sim->nrec;
    const hb_cl_arg a[] = {HB_CL_LONG(np),  HB_CL_LONG(nrows), MEM(sim->probe), MEM(sim->v),
                           MEM(sim->mprm),  MEM(sim->mst),     MEM(sim->ion),   MEM(sim->ionk),
                           HB_CL_LONG(row), HB_CL_LONG(nrec),  MEM(sim->rec)};
    return np > 0 ? hb__cl_launch(ctx, stream, p, HB_CLK_SIM_PROBE, a, NARGS(a), np)
                  : HB_SUCCESS;
}

/* The on-chip engine (epoch.c). */
hb_status hb__cl_epoch(hb_context *ctx, void *stream, hb_precision p, const hb_sim_dev *m,
                       const hb_sim_epoch *job);
hb_status hb__cl_epoch_group_limit(hb_context *ctx, hb_precision p, int64_t *max_items);

static const hb_sim_ops opencl_sim_ops = {cl_sim_mech_init, cl_sim_mech_state, cl_sim_membrane, cl_sim_assemble, cl_sim_update, NULL,
                                          hb__cl_epoch, hb__cl_epoch_group_limit, cl_sim_probe,
                                          NULL /* no occupancy query in OpenCL */};
const hb_sim_ops *hb__opencl_sim_ops(void) { return &opencl_sim_ops; }
