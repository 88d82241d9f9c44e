/* thomas_coop_regs.cu: launcher of the resident cooperative Thomas kernel that keeps each thread's chunk of rows in registers (kernels_cl/solver/thomas_coop_local.cl under HB_COOPL_REGS). */
#include "cuda_backend.h"

#include "cl_compat.cuh"

#define HB_COOPL_REGS HB_COOP_REGS_ROWS
#define HB_CL_FILE "solver/thomas_coop_local.cl"
#include "cl_both_precisions.cuh"

hb_status hb__cuda_coop_regs_limit(hb_context *ctx, hb_precision p, int64_t *max_items)
{
    HB_FORWARD(hb__cuda_use(ctx));
    cudaFuncAttributes fa;
    HB_CUDA_CALL(cudaFuncGetAttributes(&fa, HB_CUDA_KERNEL(p, hb_thomas_coop_regs)));
    *max_items = fa.maxThreadsPerBlock;
    return HB_SUCCESS;
}

/* hb__cuda_thomas_coop_local's launch (which checked the block and chose
 * `systems`), the same shared memory: the plan took this variant only where
 * every chunk has at most HB_COOP_REGS_ROWS rows. */
hb_status hb__cuda_thomas_coop_regs(hb_context *ctx, cudaStream_t stream, hb_precision p,
                                     const hb_layout_dev *lay, int systems, hb_buffer *a,
                                     hb_buffer *b, hb_buffer *c, hb_buffer *d)
{
    const int per = lay->coop_group;
    const size_t smem = HB_COOP_RESIDENT_REALS(systems, per, lay->coop_ld) *
                        (p == HB_DOUBLE ? sizeof(double) : sizeof(float));
    HB_FORWARD(hb__cuda_allow_smem(ctx, HB_CUDA_KERNEL(p, hb_thomas_coop_regs), smem));
    const int64_t grid = (lay->nslots + systems - 1) / systems;
    return HB_CUDA_LAUNCH(p, hb_thomas_coop_regs, lay->nslots, (unsigned)grid, systems * per, smem,
                          stream, lay->nslots, per, lay->coop_ld, hb__dev(lay->base),
                          hb__dev(lay->rows), hb__dev(a), hb__dev(b), hb__dev(c), hb__dev(d));
}
