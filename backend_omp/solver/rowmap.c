/* rowmap.c: row-map conversions between flat arrays and the branch layout on the host (serial / OpenMP), as kernels_cl/solver/rowmap.cl. */
#include "host_backend.h"

/* Row-map conversions for the branch strategies. */
#define HB_DEFINE_MAP(T, SUFFIX)                                                           \
    static void map_in_##SUFFIX(int64_t n, const int64_t *map, const T *src, T *dst, int par) \
    {                                                                                      \
        (void)par;                                                                         \
        _Pragma("omp parallel for schedule(static) if (par)")                             \
        for (int64_t k = 0; k < n; ++k)                                                    \
            if (map[k] >= 0)                                                               \
                dst[map[k]] = src[k];                                                      \
    }                                                                                      \
    static void map_out_##SUFFIX(int64_t n, const int64_t *map, const T *src, T *dst, int par) \
    {                                                                                      \
        (void)par;                                                                         \
        _Pragma("omp parallel for schedule(static) if (par)")                             \
        for (int64_t k = 0; k < n; ++k)                                                    \
            dst[k] = src[map[k]];                                                          \
    }

HB_DEFINE_MAP(double, d)
HB_DEFINE_MAP(float, s)

hb_status hb__host_map_to_layout(hb_context *ctx, void *stream, hb_precision p, int64_t n,
                                 hb_buffer *map, hb_buffer *flat_src, hb_buffer *dst)
{
    (void)stream;
    HB_HOST_RUN(p, map_in, n, HB_I64(map), flat_src->ptr, dst->ptr, hb__host_parallel(ctx));
    return HB_SUCCESS;
}

hb_status hb__host_map_to_flat(hb_context *ctx, void *stream, hb_precision p, int64_t n,
                               hb_buffer *map, hb_buffer *src, hb_buffer *flat_dst)
{
    (void)stream;
    HB_HOST_RUN(p, map_out, n, HB_I64(map), src->ptr, flat_dst->ptr, hb__host_parallel(ctx));
    return HB_SUCCESS;
}
