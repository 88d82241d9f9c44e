/* convert.cu: flat <-> layout conversion on the GPU, compiled from kernels_cl/convert.cl in both precisions. */
#include "cuda_backend.h"

#include "cl_compat.cuh"

#define HB_CL_FILE "convert.cl"
#include "cl_both_precisions.cuh"

hb_status hb__cuda_to_layout(hb_context *ctx, void *stream, hb_precision p,
                             const hb_layout_dev *lay, const hb_convert_rule *rule,
                             hb_buffer *flat_src, hb_buffer *dst)
{
    HB_FORWARD(hb__cuda_use(ctx));
    const unsigned grid = hb__cuda_blocks(lay->nslots, HB_CUDA_THREADS);
    cudaStream_t s = hb__cuda_stream(ctx, stream);
    const hb_long *base = hb__cuda_i64(lay->base), *rows = hb__cuda_i64(lay->rows);
    const hb_long *nown = hb__cuda_i64(lay->nown), *flat = hb__cuda_i64(lay->flat);
    if (p == HB_DOUBLE) {
        hb_cl_d::hb_to_layout_d<<<grid, HB_CUDA_THREADS, 0, s>>>(
            lay->nslots, lay->stride, base, rows, nown, flat, (double)rule->pad_value,
            rule->zero_first, rule->zero_last, (const double *)flat_src->ptr, (double *)dst->ptr);
        return hb__cuda_launched("hb_to_layout_d", lay->nslots);
    }
    hb_cl_s::hb_to_layout_s<<<grid, HB_CUDA_THREADS, 0, s>>>(
        lay->nslots, lay->stride, base, rows, nown, flat, (float)rule->pad_value,
        rule->zero_first, rule->zero_last, (const float *)flat_src->ptr, (float *)dst->ptr);
    return hb__cuda_launched("hb_to_layout_s", lay->nslots);
}

hb_status hb__cuda_to_flat(hb_context *ctx, void *stream, hb_precision p,
                           const hb_layout_dev *lay, hb_buffer *src, hb_buffer *flat_dst)
{
    HB_FORWARD(hb__cuda_use(ctx));
    const unsigned grid = hb__cuda_blocks(lay->nslots, HB_CUDA_THREADS);
    cudaStream_t s = hb__cuda_stream(ctx, stream);
    const hb_long *base = hb__cuda_i64(lay->base), *nown = hb__cuda_i64(lay->nown);
    const hb_long *flat = hb__cuda_i64(lay->flat);
    if (p == HB_DOUBLE) {
        hb_cl_d::hb_to_flat_d<<<grid, HB_CUDA_THREADS, 0, s>>>(
            lay->nslots, lay->stride, base, nown, flat, (const double *)src->ptr,
            (double *)flat_dst->ptr);
        return hb__cuda_launched("hb_to_flat_d", lay->nslots);
    }
    hb_cl_s::hb_to_flat_s<<<grid, HB_CUDA_THREADS, 0, s>>>(lay->nslots, lay->stride, base, nown,
                                                          flat, (const float *)src->ptr,
                                                          (float *)flat_dst->ptr);
    return hb__cuda_launched("hb_to_flat_s", lay->nslots);
}
