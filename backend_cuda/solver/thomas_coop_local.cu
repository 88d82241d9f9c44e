/* thomas_coop_local.cu: launcher of the resident cooperative Thomas kernel on the GPU, several whole systems in shared memory per thread block (kernels_cl/solver/thomas_coop_local.cl). */
#include "cuda_backend.h"

#include "cl_compat.cuh"

#define HB_CL_FILE "solver/thomas_coop_local.cl"
#include "cl_both_precisions.cuh"

/* The kernel's block limit as compiled (hb_backend_ops.coop_local_limit). */
hb_status hb__cuda_coop_local_limit(hb_context *ctx, hb_precision p, int64_t *max_items)
{
    HB_FORWARD(hb__cuda_use(ctx));
    cudaFuncAttributes fa;
    HB_CUDA_CALL(cudaFuncGetAttributes(&fa, HB_CUDA_KERNEL(p, hb_thomas_coop_local)));
    *max_items = fa.maxThreadsPerBlock;
    return HB_SUCCESS;
}

/* lay->coop_systems systems of lay->coop_group threads per block (fewer
 * systems where the device's block limit is lower: the kernel reads S from
 * its block size); HB_COOP_RESIDENT_REALS of dynamic shared memory: within
 * 48 KiB for several systems per block, up to the device's opt-in limit for
 * one long system alone (hb__coop_resident), where the kernel opts in. */
hb_status hb__cuda_thomas_coop_local(hb_context *ctx, void *stream, hb_precision p,
                                     const hb_layout_dev *lay, hb_buffer *a, hb_buffer *b,
                                     hb_buffer *c, hb_buffer *cw, hb_buffer *d)
{
    (void)cw; /* no scratch: every row stays on chip */
    const hb_cuda_impl *impl = (const hb_cuda_impl *)ctx->impl;
    if (lay->nslots <= 0)
        return HB_SUCCESS;
    HB_FORWARD(hb__cuda_use(ctx));
    const int per = lay->coop_group;
    int systems = lay->coop_systems;
    if (per > impl->max_threads)
        return hb__error(HB_ERR_BACKEND,
                         "CUDA: hb_thomas_coop_local takes at most %d threads per block on this "
                         "device, the plan has %d per system (set a smaller group_size)",
                         impl->max_threads, per);
    if (systems * per > impl->max_threads)
        systems = impl->max_threads / per;
    const size_t smem = HB_COOP_RESIDENT_REALS(systems, per, lay->coop_ld) *
                        (p == HB_DOUBLE ? sizeof(double) : sizeof(float));
    HB_FORWARD(hb__cuda_allow_smem(ctx, HB_CUDA_KERNEL(p, hb_thomas_coop_local), smem));
    const int64_t grid = (lay->nslots + systems - 1) / systems;
    return HB_CUDA_LAUNCH(p, hb_thomas_coop_local, lay->nslots, (unsigned)grid, systems * per,
                          smem, hb__cuda_stream(ctx, stream), lay->nslots, per, lay->coop_ld,
                          hb__dev(lay->base), hb__dev(lay->rows), hb__dev(a), hb__dev(b),
                          hb__dev(c), hb__dev(d));
}
