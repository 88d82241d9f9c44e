/* convert.c: flat <-> layout conversion on the host (serial / OpenMP). */
#include "host_backend.h"

#define HB_DEFINE_CONVERT(T, SUFFIX)                                                       \
    static void to_layout_##SUFFIX(const hb_layout_dev *lay, const hb_convert_rule *rule,  \
                                   const T *src, T *dst, int par)                          \
    {                                                                                      \
        const int64_t *base = HB_I64(lay->base), *rows = HB_I64(lay->rows);                \
        const int64_t *nown = HB_I64(lay->nown), *flat = HB_I64(lay->flat);                \
        const int64_t st = lay->stride;                                                    \
        const T pad = (T)rule->pad_value;                                                  \
        (void)par;                                                                         \
        _Pragma("omp parallel for schedule(guided) if (par)")                             \
        for (int64_t t = 0; t < lay->nslots; ++t) {                                        \
            const T *s = src + flat[t];                                                    \
            T *o = dst + base[t];                                                          \
            int64_t n = nown[t];                                                           \
            for (int64_t i = 0; i < rows[t]; ++i)                                          \
                o[i * st] = i >= n                                 ? pad                   \
                            : (rule->zero_first && i == 0) ||                              \
                                      (rule->zero_last && i == n - 1)                      \
                                ? (T)0                                                     \
                                : s[i];                                                    \
        }                                                                                  \
    }                                                                                      \
    static void to_flat_##SUFFIX(const hb_layout_dev *lay, const T *src, T *dst, int par)  \
    {                                                                                      \
        const int64_t *base = HB_I64(lay->base), *nown = HB_I64(lay->nown);                \
        const int64_t *flat = HB_I64(lay->flat);                                           \
        const int64_t st = lay->stride;                                                    \
        (void)par;                                                                         \
        _Pragma("omp parallel for schedule(guided) if (par)")                             \
        for (int64_t t = 0; t < lay->nslots; ++t) {                                        \
            const T *s = src + base[t];                                                    \
            T *o = dst + flat[t];                                                          \
            for (int64_t i = 0; i < nown[t]; ++i)                                          \
                o[i] = s[i * st];                                                          \
        }                                                                                  \
    }

HB_DEFINE_CONVERT(double, d)
HB_DEFINE_CONVERT(float, s)

hb_status hb__host_to_layout(hb_context *ctx, void *stream, hb_precision p,
                             const hb_layout_dev *lay, const hb_convert_rule *rule,
                             hb_buffer *flat_src, hb_buffer *dst)
{
    (void)stream;
    HB_HOST_RUN(p, to_layout, lay, rule, flat_src->ptr, dst->ptr, hb__host_parallel(ctx));
    return HB_SUCCESS;
}

hb_status hb__host_to_flat(hb_context *ctx, void *stream, hb_precision p,
                           const hb_layout_dev *lay, hb_buffer *src, hb_buffer *flat_dst)
{
    (void)stream;
    HB_HOST_RUN(p, to_flat, lay, src->ptr, flat_dst->ptr, hb__host_parallel(ctx));
    return HB_SUCCESS;
}
