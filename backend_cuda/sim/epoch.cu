/* epoch.cu: launcher of the on-chip simulation engine on the GPU (kernels_cl/sim/epoch.cl), one thread block per cell for many steps. */
#include "cuda_backend.h"
#include "hb_sim_ops.h"
#include "sim_args.cuh"

#include <limits.h>

#include "cl_compat.cuh"

/* Registers per thread of the kernels for u in global memory (stages none
 * and vx), at most (toolkits from 12.4, which have __maxnreg__; a build may
 * set others): they run where many cells share an SM (AUTO's launch in
 * api/sim/sim.c; with vx, 8 CA1 cells of 64 threads in double). An
 * SM's four quarters each hold 16,384 registers for whole warps: the CA1
 * cell (1,508 rows) in double, 96 threads (3 warps) and 39 KiB of shared
 * memory (5 fit), needs at most 128 for 5 blocks (4 warps a quarter; 136
 * gave 4); in float, 64 threads and 20 KiB: 96 lets 10 share an SM (and
 * spills nothing). H200, 10,000 CA1 cells in float
 * (docs/benchmarks/h200-2026-11-25-ucopy): 2.91e10 compartment-steps/s
 * capped, 2.30e10 not (144 registers, 7 per SM). */
#if defined(__CUDACC_VER_MAJOR__) &&                                                         \
    (__CUDACC_VER_MAJOR__ > 12 || (__CUDACC_VER_MAJOR__ == 12 && __CUDACC_VER_MINOR__ >= 4))
#ifndef HB_EPOCH_NREG_d
#define HB_EPOCH_NREG_d 128
#endif
#ifndef HB_EPOCH_NREG_s
#define HB_EPOCH_NREG_s 96
#endif
#define HB_EPOCH_UG_ATTR __maxnreg__(HB_CAT(HB_EPOCH_NREG, HB_SUFFIX))
#endif

#define HB_CL_FILE "sim/epoch.cl"
#include "cl_both_precisions.cuh"

/* The kernel of a stage: u in shared memory (stage 1 or 2), or not (0), or
 * not and v in rhs's array (-1). */
#define HB_EPOCH_KERNEL(p, stage)                                                            \
    ((stage) == HB_EPOCH_STAGE_VX     ? HB_CUDA_KERNEL(p, hb_sim_epoch_ugv)                 \
     : (stage) == HB_EPOCH_STAGE_NONE ? HB_CUDA_KERNEL(p, hb_sim_epoch_ug)                  \
                                      : HB_CUDA_KERNEL(p, hb_sim_epoch))

/* The block limit of the kernels as compiled, the lowest of the three (their
 * registers can lower it below the device's). */
hb_status hb__cuda_epoch_group_limit(hb_context *ctx, hb_precision p, int64_t *max_items)
{
    HB_FORWARD(hb__cuda_use(ctx));
    int lim = INT_MAX;
    for (int s = HB_EPOCH_STAGE_VX; s <= HB_EPOCH_STAGE_U; ++s) {
        cudaFuncAttributes fa;
        HB_CUDA_CALL(cudaFuncGetAttributes(&fa, HB_EPOCH_KERNEL(p, s)));
        lim = fa.maxThreadsPerBlock < lim ? fa.maxThreadsPerBlock : lim;
    }
    *max_items = lim;
    return HB_SUCCESS;
}

/* Epoch blocks of stage `stage`, `group` threads and `bytes` of dynamic
 * shared memory one SM holds at once. */
hb_status hb__cuda_epoch_resident(hb_context *ctx, hb_precision p, int stage, int64_t group,
                                  size_t bytes, int64_t *per_unit)
{
    HB_FORWARD(hb__cuda_use(ctx));
    return hb__cuda_resident(ctx, HB_EPOCH_KERNEL(p, stage), group, bytes, per_unit);
}

/* One launch per size class of cells (lay->cell_class), as the cell-group
 * solver's; hb__epoch_group threads per cell (the core checked it against
 * the limit above); HB_EPOCH_LAUNCH_BYTES (what the stage keeps on chip) of
 * the class's largest cell of dynamic shared memory, opted in past the
 * default 48 KiB. */
hb_status hb__cuda_epoch(hb_context *ctx, void *stream, hb_precision p, const hb_sim_dev *m,
                         const hb_sim_epoch *job)
{
    const hb_layout_dev *lay = job->lay;
    HB_FORWARD(hb__cuda_use(ctx));
    const size_t esize = p == HB_DOUBLE ? sizeof(double) : sizeof(float);
    const int stage = job->stage, pcr = job->pcr;
    HB_FORWARD(hb__cuda_allow_smem(ctx, HB_EPOCH_KERNEL(p, stage),
                                   HB_EPOCH_LAUNCH_BYTES(lay->max_rows, esize, stage, pcr)));
    cudaStream_t s = hb__cuda_stream(ctx, stream);
    for (int32_t k = 0; k < lay->cell_nclasses; ++k) {
        const long long first = lay->cell_class[3 * k], ngroups = lay->cell_class[3 * k + 1],
                        ld = lay->cell_class[3 * k + 2];
        const int group = (int)hb__epoch_group(lay->cell_group, ld, job->group);
        const size_t smem = HB_EPOCH_LAUNCH_BYTES(ld, esize, stage, pcr);
#define HB_EPOCH_LAUNCH(name)                                                                  \
    HB_CUDA_LAUNCH(                                                                            \
        p, name, ngroups, (unsigned)ngroups, group, smem, s, ngroups, first, ld,               \
        (long long)job->step0, (long long)job->nsteps, hb__dev(lay->cslots),                   \
        hb__dev(lay->base), hb__dev(lay->rows), hb__dev(lay->soff), hb__dev(lay->sched),       \
        hb__dev(m->cellof), hb__dev(m->rowoff), hb__dev(m->ucopy), hb__dev(job->u),            \
        hb__dev(job->l), (long long)m->nrows, hb__real(m->dt), hb__real(m->threshold),         \
        hb__dev(m->v), HB_CUDA_MECH_ARGS(m), hb__dev(m->d0), hb__dev(m->cdt),                  \
        hb__dev(m->dmap),                                                                      \
        hb__dev(m->crowof), hb__dev(m->cptr), hb__dev(m->con), hb__dev(m->coff),               \
        hb__dev(m->camp), (long long)m->max_spikes, hb__dev(m->soma), hb__dev(m->vprev),       \
        hb__dev(m->nspk), hb__dev(m->tspk), (long long)m->nrec, (long long)job->rec_row0,      \
        hb__dev(m->recslot), hb__dev(m->rec), hb__dev(m->slist), hb__dev(m->stime),            \
        hb__dev(m->probe), hb__dev(m->prbcell), stage, pcr)
        if (stage == HB_EPOCH_STAGE_VX)
            HB_FORWARD(HB_EPOCH_LAUNCH(hb_sim_epoch_ugv));
        else if (stage == HB_EPOCH_STAGE_NONE)
            HB_FORWARD(HB_EPOCH_LAUNCH(hb_sim_epoch_ug));
        else
            HB_FORWARD(HB_EPOCH_LAUNCH(hb_sim_epoch));
#undef HB_EPOCH_LAUNCH
    }
    return HB_SUCCESS;
}
