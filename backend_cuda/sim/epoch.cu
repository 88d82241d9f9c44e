/* epoch.cu: launcher of the on-chip simulation engine on the GPU (kernels_cl/sim/epoch.cl), one thread block per cell for many steps. */
#include "cuda_backend.h"
#include "hb_sim_ops.h"
#include "sim_args.cuh"

#include "cl_compat.cuh"

/* Registers per thread, at most (toolkits from 12.4, which have
 * __maxnreg__; a build may set others), for more cells per SM where many
 * share it (AUTO's launch in api/sim/sim.c): the CA1 cell (1,508 rows) in
 * double, 96 threads and u from global memory (39 KiB of shared memory, 5
 * fit): 65,536 / (5 x 96) in whole 8s is 136 (the kernel took 138 without
 * a cap, 162 since it may read u from either place); in float, 64 threads:
 * 96 (144 without a cap; 96 spills nothing) lets 10 cells share an SM,
 * as many as 20 KiB of shared memory each allow. H200, 10,000 CA1 cells in
 * float (docs/benchmarks/h200-2026-11-25-ucopy): 2.91e10
 * compartment-steps/s capped, 2.30e10 not (7 per SM). */
#if defined(__CUDACC_VER_MAJOR__) &&                                                         \
    (__CUDACC_VER_MAJOR__ > 12 || (__CUDACC_VER_MAJOR__ == 12 && __CUDACC_VER_MINOR__ >= 4))
#ifndef HB_EPOCH_NREG_d
#define HB_EPOCH_NREG_d 136
#endif
#ifndef HB_EPOCH_NREG_s
#define HB_EPOCH_NREG_s 96
#endif
#define HB_EPOCH_ATTR __maxnreg__(HB_CAT(HB_EPOCH_NREG, HB_SUFFIX))
#endif

#define HB_CL_FILE "sim/epoch.cl"
#include "cl_both_precisions.cuh"

/* The block limit of the kernel as compiled (its registers can lower it
 * below the device's). */
hb_status hb__cuda_epoch_group_limit(hb_context *ctx, hb_precision p, int64_t *max_items)
{
    HB_FORWARD(hb__cuda_use(ctx));
    cudaFuncAttributes fa;
    HB_CUDA_CALL(cudaFuncGetAttributes(&fa, HB_CUDA_KERNEL(p, hb_sim_epoch)));
    *max_items = fa.maxThreadsPerBlock;
    return HB_SUCCESS;
}

/* Epoch blocks of `group` threads and `bytes` of dynamic shared memory one
 * SM holds at once. */
hb_status hb__cuda_epoch_resident(hb_context *ctx, hb_precision p, int64_t group, size_t bytes,
                                  int64_t *per_unit)
{
    HB_FORWARD(hb__cuda_use(ctx));
    return hb__cuda_resident(ctx, HB_CUDA_KERNEL(p, hb_sim_epoch), group, bytes, per_unit);
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
    HB_FORWARD(hb__cuda_allow_smem(ctx, HB_CUDA_KERNEL(p, hb_sim_epoch),
                                   HB_EPOCH_LAUNCH_BYTES(lay->max_rows, esize, stage, pcr)));
    cudaStream_t s = hb__cuda_stream(ctx, stream);
    for (int32_t k = 0; k < lay->cell_nclasses; ++k) {
        const long long first = lay->cell_class[3 * k], ngroups = lay->cell_class[3 * k + 1],
                        ld = lay->cell_class[3 * k + 2];
        const int group = (int)hb__epoch_group(lay->cell_group, ld, job->group);
        const size_t smem = HB_EPOCH_LAUNCH_BYTES(ld, esize, stage, pcr);
        HB_FORWARD(HB_CUDA_LAUNCH(
            p, hb_sim_epoch, ngroups, (unsigned)ngroups, group, smem, s, ngroups, first, ld,
            (long long)job->step0, (long long)job->nsteps, hb__dev(lay->cslots),
            hb__dev(lay->base), hb__dev(lay->rows), hb__dev(lay->soff), hb__dev(lay->sched),
            hb__dev(m->cellof), hb__dev(m->rowoff), hb__dev(m->ucopy), hb__dev(job->u), hb__dev(job->l),
            (long long)m->nrows, hb__real(m->dt), hb__real(m->threshold), hb__dev(m->v),
            HB_CUDA_MECH_ARGS(m), hb__dev(m->d0), hb__dev(m->dmap), hb__dev(m->crowof),
            hb__dev(m->cptr), hb__dev(m->con), hb__dev(m->coff), hb__dev(m->camp),
            (long long)m->max_spikes, hb__dev(m->soma), hb__dev(m->vprev), hb__dev(m->nspk),
            hb__dev(m->tspk), (long long)m->nrec, (long long)job->rec_row0,
            hb__dev(m->recslot), hb__dev(m->rec), hb__dev(m->slist), hb__dev(m->stime),
            hb__dev(m->probe), hb__dev(m->prbcell),
            stage, pcr));
    }
    return HB_SUCCESS;
}
