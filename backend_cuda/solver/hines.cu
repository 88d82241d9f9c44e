/* hines.cu: launcher of the batched Hines kernel on the GPU, one thread per system (kernels_cl/solver/hines.cl). */
#include "cuda_backend.h"

#include "cl_compat.cuh"

#define HB_CL_FILE "solver/hines.cl"
#include "cl_both_precisions.cuh"

hb_status hb__cuda_hines(hb_context *ctx, void *stream, hb_precision p,
                         const hb_layout_dev *lay, hb_buffer *u, hb_buffer *l, hb_buffer *d,
                         hb_buffer *rhs)
{
    HB_FORWARD(hb__cuda_use(ctx));
    return HB_CUDA_LAUNCH(p, hb_hines, lay->nslots,
                          hb__cuda_blocks(lay->nslots, HB_CUDA_THREADS), HB_CUDA_THREADS, 0,
                          hb__cuda_stream(ctx, stream), lay->nslots, lay->stride,
                          hb__dev(lay->base), hb__dev(lay->rows), hb__dev(lay->poff),
                          hb__dev(lay->parent), hb__dev(u), hb__dev(l), hb__dev(d), hb__dev(rhs),
                          (int)lay->ul_shared);
}
