/* rowmap.cu: row-map conversions of the branch strategies on the GPU, compiled from kernels_cl/rowmap.cl in both precisions. */
#include "cuda_backend.h"

#include "cl_compat.cuh"

#define HB_CL_FILE "rowmap.cl"
#include "cl_both_precisions.cuh"

#define HB_MAP_THREADS 256

hb_status hb__cuda_map_to_layout(hb_context *ctx, void *stream, hb_precision p, int64_t n,
                                 hb_buffer *map, hb_buffer *flat_src, hb_buffer *dst)
{
    HB_FORWARD(hb__cuda_use(ctx));
    if (n <= 0)
        return HB_SUCCESS;
    const unsigned grid = hb__cuda_blocks(n, HB_MAP_THREADS);
    cudaStream_t s = hb__cuda_stream(ctx, stream);
    if (p == HB_DOUBLE) {
        hb_cl_d::hb_map_to_layout_d<<<grid, HB_MAP_THREADS, 0, s>>>(
            n, hb__cuda_i64(map), (const double *)flat_src->ptr, (double *)dst->ptr);
        return hb__cuda_launched("hb_map_to_layout_d", n);
    }
    hb_cl_s::hb_map_to_layout_s<<<grid, HB_MAP_THREADS, 0, s>>>(
        n, hb__cuda_i64(map), (const float *)flat_src->ptr, (float *)dst->ptr);
    return hb__cuda_launched("hb_map_to_layout_s", n);
}

hb_status hb__cuda_map_to_flat(hb_context *ctx, void *stream, hb_precision p, int64_t n,
                               hb_buffer *map, hb_buffer *src, hb_buffer *flat_dst)
{
    HB_FORWARD(hb__cuda_use(ctx));
    if (n <= 0)
        return HB_SUCCESS;
    const unsigned grid = hb__cuda_blocks(n, HB_MAP_THREADS);
    cudaStream_t s = hb__cuda_stream(ctx, stream);
    if (p == HB_DOUBLE) {
        hb_cl_d::hb_map_to_flat_d<<<grid, HB_MAP_THREADS, 0, s>>>(
            n, hb__cuda_i64(map), (const double *)src->ptr, (double *)flat_dst->ptr);
        return hb__cuda_launched("hb_map_to_flat_d", n);
    }
    hb_cl_s::hb_map_to_flat_s<<<grid, HB_MAP_THREADS, 0, s>>>(
        n, hb__cuda_i64(map), (const float *)src->ptr, (float *)flat_dst->ptr);
    return hb__cuda_launched("hb_map_to_flat_s", n);
}
