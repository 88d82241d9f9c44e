/* hines.c: Hines elimination over a batch in any layout, one system per iteration (serial / OpenMP). */
#include "host_backend.h"

/* One system: rows at base + i*stride, parents at par[i]. Same operations,
 * in the same order, as kernels_cl/solver/hines.cl. */
#define HB_DEFINE_HINES(T, SUFFIX)                                                         \
    static void hines_##SUFFIX(int64_t n, int64_t base, int64_t st, const int32_t *par,    \
                               const T *u, const T *l, T *d, T *r)                         \
    {                                                                                      \
        const T *U = u + base, *L = l + base;                                              \
        T *D = d + base, *R = r + base;                                                    \
        for (int64_t i = n - 1; i >= 1; --i) {                                             \
            int64_t k = i * st, kp = (int64_t)par[i] * st;                                 \
            T f = U[k] / D[k];                                                             \
            D[kp] -= f * L[k];                                                             \
            R[kp] -= f * R[k];                                                             \
        }                                                                                  \
        R[0] = R[0] / D[0];                                                                \
        for (int64_t i = 1; i < n; ++i) {                                                  \
            int64_t k = i * st, kp = (int64_t)par[i] * st;                                 \
            R[k] = (R[k] - L[k] * R[kp]) / D[k];                                           \
        }                                                                                  \
    }                                                                                      \
    static void batch_##SUFFIX(const hb_layout_dev *lay, const T *u, const T *l, T *d, T *r, \
                               int par)                                                    \
    {                                                                                      \
        const int64_t *base = HB_I64(lay->base), *rows = HB_I64(lay->rows);                \
        const int64_t *poff = HB_I64(lay->poff);                                           \
        const int32_t *parent = (const int32_t *)lay->parent->ptr;                         \
        (void)par;                                                                         \
        _Pragma("omp parallel for schedule(guided) if (par)")                             \
        for (int64_t t = 0; t < lay->nslots; ++t)                                          \
            hines_##SUFFIX(rows[t], base[t], lay->stride, parent + poff[t], u, l, d, r);   \
    }

HB_DEFINE_HINES(double, d)
HB_DEFINE_HINES(float, s)

hb_status hb__host_hines(hb_context *ctx, void *stream, hb_precision p,
                         const hb_layout_dev *lay, hb_buffer *u, hb_buffer *l, hb_buffer *d,
                         hb_buffer *rhs)
{
    (void)stream;
    HB_HOST_RUN(p, batch, lay, u->ptr, l->ptr, d->ptr, rhs->ptr, hb__host_parallel(ctx));
    return HB_SUCCESS;
}
