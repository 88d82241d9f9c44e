/* thomas_coop_async.cu: launcher of the resident cooperative Thomas kernel whose rows are copied asynchronously into four shared arrays (kernels_cl/solver/thomas_coop_local.cl under HB_COOPL_ASYNC; cp.async, sm_80 and later). */
#include "cuda_backend.h"

#include "cl_compat.cuh"

#define HB_COOPL_ASYNC 1
#define HB_CL_FILE "solver/thomas_coop_local.cl"
#include "cl_both_precisions.cuh"

hb_status hb__cuda_coop_async_limit(hb_context *ctx, hb_precision p, int64_t *max_items)
{
    HB_FORWARD(hb__cuda_use(ctx));
    cudaFuncAttributes fa;
    HB_CUDA_CALL(cudaFuncGetAttributes(&fa, HB_CUDA_KERNEL(p, hb_thomas_coop_async)));
    *max_items = fa.maxThreadsPerBlock;
    return HB_SUCCESS;
}

/* hb__cuda_thomas_coop_local's launch (which checked the block and chose
 * `systems`) with HB_COOP_ASYNC_REALS of dynamic shared memory: the plan
 * took this variant only where that fits the device's opt-in limit. */
hb_status hb__cuda_thomas_coop_async(hb_context *ctx, cudaStream_t stream, hb_precision p,
                                     const hb_layout_dev *lay, int systems, hb_buffer *a,
                                     hb_buffer *b, hb_buffer *c, hb_buffer *d)
{
    const int per = lay->coop_group;
    const size_t smem = HB_COOP_ASYNC_REALS(systems, per, lay->coop_ld) *
                        (p == HB_DOUBLE ? sizeof(double) : sizeof(float));
    HB_FORWARD(hb__cuda_allow_smem(ctx, HB_CUDA_KERNEL(p, hb_thomas_coop_async), smem));
    const int64_t grid = (lay->nslots + systems - 1) / systems;
    return HB_CUDA_LAUNCH(p, hb_thomas_coop_async, lay->nslots, (unsigned)grid, systems * per, smem,
                          stream, lay->nslots, per, lay->coop_ld, hb__dev(lay->base),
                          hb__dev(lay->rows), hb__dev(a), hb__dev(b), hb__dev(c), hb__dev(d));
}
