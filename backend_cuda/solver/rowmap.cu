/* rowmap.cu: launchers of the row-map conversions of the branch strategies on the GPU (kernels_cl/solver/rowmap.cl). */
#include "cuda_backend.h"

#include "cl_compat.cuh"

#define HB_CL_FILE "solver/rowmap.cl"
#include "cl_both_precisions.cuh"

#define HB_MAP_THREADS 256

hb_status hb__cuda_map_to_layout(hb_context *ctx, void *stream, hb_precision p, int64_t n,
                                 hb_buffer *map, hb_buffer *flat_src, hb_buffer *dst)
{
    HB_FORWARD(hb__cuda_use(ctx));
    if (n <= 0)
        return HB_SUCCESS;
    return HB_CUDA_LAUNCH(p, hb_map_to_layout, n, hb__cuda_blocks(n, HB_MAP_THREADS),
                          HB_MAP_THREADS, 0, hb__cuda_stream(ctx, stream), n, hb__dev(map),
                          hb__dev(flat_src), hb__dev(dst));
}

hb_status hb__cuda_map_to_flat(hb_context *ctx, void *stream, hb_precision p, int64_t n,
                               hb_buffer *map, hb_buffer *src, hb_buffer *flat_dst)
{
    HB_FORWARD(hb__cuda_use(ctx));
    if (n <= 0)
        return HB_SUCCESS;
    return HB_CUDA_LAUNCH(p, hb_map_to_flat, n, hb__cuda_blocks(n, HB_MAP_THREADS),
                          HB_MAP_THREADS, 0, hb__cuda_stream(ctx, stream), n, hb__dev(map),
                          hb__dev(src), hb__dev(flat_dst));
}
