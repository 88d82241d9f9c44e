/* convert.cu: launchers of flat <-> layout conversion on the GPU (kernels_cl/solver/convert.cl). */
#include "cuda_backend.h"

#include "cl_compat.cuh"

#define HB_CL_FILE "solver/convert.cl"
#include "cl_both_precisions.cuh"

hb_status hb__cuda_to_layout(hb_context *ctx, void *stream, hb_precision p,
                             const hb_layout_dev *lay, const hb_convert_rule *rule,
                             hb_buffer *flat_src, hb_buffer *dst)
{
    HB_FORWARD(hb__cuda_use(ctx));
    return HB_CUDA_LAUNCH(p, hb_to_layout, lay->nslots,
                          hb__cuda_blocks(lay->nslots, HB_CUDA_THREADS), HB_CUDA_THREADS, 0,
                          hb__cuda_stream(ctx, stream), lay->nslots, lay->stride,
                          hb__dev(lay->base), hb__dev(lay->rows), hb__dev(lay->nown),
                          hb__dev(lay->flat), hb__real(rule->pad_value), rule->zero_first,
                          rule->zero_last, hb__dev(flat_src), hb__dev(dst));
}

hb_status hb__cuda_to_flat(hb_context *ctx, void *stream, hb_precision p,
                           const hb_layout_dev *lay, hb_buffer *src, hb_buffer *flat_dst)
{
    HB_FORWARD(hb__cuda_use(ctx));
    return HB_CUDA_LAUNCH(p, hb_to_flat, lay->nslots,
                          hb__cuda_blocks(lay->nslots, HB_CUDA_THREADS), HB_CUDA_THREADS, 0,
                          hb__cuda_stream(ctx, stream), lay->nslots, lay->stride,
                          hb__dev(lay->base), hb__dev(lay->nown), hb__dev(lay->flat),
                          hb__dev(src), hb__dev(flat_dst));
}
