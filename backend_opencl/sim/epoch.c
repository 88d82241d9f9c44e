/* epoch.c: launcher of the on-chip simulation engine (kernels_cl/sim/epoch.cl), one work-group per cell for many steps. */
#include "cl_backend.h"
#include "hb_sim_ops.h"
#include "sim_args.h"

#include <stdint.h>

/* The kernel of a stage (HB_EPOCH_STAGE_*): u in local memory, or not, or
 * not and v in rhs's array. */
static int epoch_kernel(int stage)
{
    return stage == HB_EPOCH_STAGE_VX     ? HB_CLK_SIM_EPOCH_UGV
           : stage == HB_EPOCH_STAGE_NONE ? HB_CLK_SIM_EPOCH_UG
                                          : HB_CLK_SIM_EPOCH;
}

/* The kernels' own work-group limit on the device, the lowest of the three
 * (their registers or private arrays can make it lower than the device's). */
hb_status hb__cl_epoch_group_limit(hb_context *ctx, hb_precision p, int64_t *max_items)
{
    size_t lim = SIZE_MAX;
    for (int s = HB_EPOCH_STAGE_VX; s <= HB_EPOCH_STAGE_U; ++s) {
        size_t a = 0;
        HB_FORWARD(hb__cl_kernel_max(ctx, p, epoch_kernel(s), &a));
        lim = a < lim ? a : lim;
    }
    *max_items = (int64_t)lim;
    return HB_SUCCESS;
}

/* One launch per size class of cells (lay->cell_class), hb__epoch_group
 * work-items per cell (within the limit above: the core checked), and
 * HB_EPOCH_LAUNCH_BYTES (what the stage keeps on chip) of the class's largest
 * cell of local memory. */
hb_status hb__cl_epoch(hb_context *ctx, void *stream, hb_precision p, const hb_sim_dev *m,
                       const hb_sim_epoch *job)
{
    const hb_layout_dev *lay = job->lay;
    const size_t esize = p == HB_DOUBLE ? sizeof(cl_double) : sizeof(cl_float);
    cl_int stage = job->stage, pcr = job->pcr;
    cl_long step0 = job->step0, nsteps = job->nsteps, maxs = m->max_spikes, nrec = m->nrec,
            row0 = job->rec_row0;
    cl_long nrows = m->nrows;
    real_arg dt = real_of(m->dt), thr = real_of(m->threshold), cel = real_of(m->celsius);
    for (int32_t k = 0; k < lay->cell_nclasses; ++k) {
        cl_long ngroups = lay->cell_class[3 * k + 1], first = lay->cell_class[3 * k],
                ld = lay->cell_class[3 * k + 2];
        const size_t group = (size_t)hb__epoch_group(lay->cell_group, ld, job->group);
        const size_t bytes = HB_EPOCH_LAUNCH_BYTES(ld, esize, stage, pcr);
        const hb_cl_arg args[] = {
            HB_CL_LONG(ngroups), HB_CL_LONG(first),  HB_CL_LONG(ld),     HB_CL_LONG(step0),
            HB_CL_LONG(nsteps),  MEM(lay->cslots),   MEM(lay->base),     MEM(lay->rows),
            MEM(lay->soff),      MEM(lay->sched),    MEM(m->cellof),     MEM(m->rowoff),
            MEM(m->ucopy),       MEM(job->u),        MEM(job->l),        HB_CL_LONG(nrows),
            REAL(p, dt),         REAL(p, thr),       MEM(m->v),          HB_CL_MECH_ARGS(p, m, cel),
            MEM(m->d0),          MEM(m->cdt),        MEM(m->dmap),       MEM(m->crowof),     MEM(m->cptr),
            MEM(m->con),         MEM(m->coff),       MEM(m->camp),       HB_CL_LONG(maxs),
            MEM(m->soma),        MEM(m->vprev),      MEM(m->nspk),       MEM(m->tspk),
            HB_CL_LONG(nrec),    HB_CL_LONG(row0),   MEM(m->recslot),    MEM(m->rec),
            MEM(m->slist),       MEM(m->stime),      MEM(m->probe),      MEM(m->prbcell),
            HB_CL_INT(stage),    HB_CL_INT(pcr),     (hb_cl_arg){bytes, NULL}};
        HB_FORWARD(hb__cl_launch_groups(ctx, stream, p, epoch_kernel(stage), args,
                                        (int)(sizeof args / sizeof *args), ngroups, group));
    }
    return HB_SUCCESS;
}
