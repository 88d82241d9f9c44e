/* rowmap.cu: launchers of the row-map conversions of the branch strategies on the GPU (kernels_cl/solver/rowmap.cl). */
#include "cuda_backend.h"

#include "cl_compat.cuh"

#define HB_CL_FILE "solver/rowmap.cl"
#include "cl_both_precisions.cuh"

#define HB_MAP_THREADS 256

/* One thread per flat row k; to_flat picks the direction. */
static hb_status map_rows(hb_context *ctx, void *stream, hb_precision p, int64_t n, hb_buffer *map,
                          hb_buffer *src, hb_buffer *dst, int to_flat)
{
    HB_FORWARD(hb__cuda_use(ctx));
    if (n <= 0)
        return HB_SUCCESS;
    const unsigned g = hb__cuda_blocks(n, HB_MAP_THREADS);
    cudaStream_t s = hb__cuda_stream(ctx, stream);
    return to_flat ? HB_CUDA_LAUNCH(p, hb_map_to_flat, n, g, HB_MAP_THREADS, 0, s, n, hb__dev(map),
                                    hb__dev(src), hb__dev(dst))
                   : HB_CUDA_LAUNCH(p, hb_map_to_layout, n, g, HB_MAP_THREADS, 0, s, n,
                                    hb__dev(map), hb__dev(src), hb__dev(dst));
}

hb_status hb__cuda_map_to_layout(hb_context *ctx, void *stream, hb_precision p, int64_t n,
                                 hb_buffer *map, hb_buffer *src, hb_buffer *dst)
{
    return map_rows(ctx, stream, p, n, map, src, dst, 0);
}

hb_status hb__cuda_map_to_flat(hb_context *ctx, void *stream, hb_precision p, int64_t n,
                               hb_buffer *map, hb_buffer *src, hb_buffer *dst)
{
    return map_rows(ctx, stream, p, n, map, src, dst, 1);
}
