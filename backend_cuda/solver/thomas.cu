/* thomas.cu: launcher of the batched Thomas kernel on the GPU, one thread per system (kernels_cl/solver/thomas.cl). */
#include "cuda_backend.h"

#include "cl_compat.cuh"

#define HB_CL_FILE "solver/thomas.cl"
#include "cl_both_precisions.cuh"

hb_status hb__cuda_thomas(hb_context *ctx, void *stream, hb_precision p,
                          const hb_layout_dev *lay, hb_buffer *a, hb_buffer *b, hb_buffer *c,
                          hb_buffer *cw, hb_buffer *d)
{
    HB_FORWARD(hb__cuda_use(ctx));
    return HB_CUDA_LAUNCH(p, hb_thomas, lay->nslots,
                          hb__cuda_blocks(lay->nslots, HB_CUDA_THREADS), HB_CUDA_THREADS, 0,
                          hb__cuda_stream(ctx, stream), lay->nslots, lay->stride,
                          hb__dev(lay->base), hb__dev(lay->rows), hb__dev(a), hb__dev(b),
                          hb__dev(c), hb__dev(cw), hb__dev(d));
}
