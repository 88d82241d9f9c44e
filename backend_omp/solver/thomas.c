/* thomas.c: Thomas algorithm over a batch in any layout, one system per iteration (serial / OpenMP). */
#include "host_backend.h"

/* One system: rows at base + i*stride. Same operations, in the same order,
 * as kernels_cl/solver/thomas.cl. */
#define HB_DEFINE_THOMAS(T, SUFFIX)                                                        \
    static void thomas_##SUFFIX(int64_t n, int64_t base, int64_t st, const T *a,           \
                                const T *b, const T *c, T *cw, T *d)                       \
    {                                                                                      \
        const T *A = a + base, *B = b + base, *C = c + base;                               \
        T *CW = cw + base, *D = d + base;                                                  \
        CW[0] = C[0] / B[0];                                                               \
        D[0] = D[0] / B[0];                                                                \
        for (int64_t i = 1; i < n; ++i) {                                                  \
            int64_t k = i * st, km = k - st;                                               \
            T m = (T)1 / (B[k] - A[k] * CW[km]);                                           \
            CW[k] = C[k] * m;                                                              \
            D[k] = (D[k] - A[k] * D[km]) * m;                                              \
        }                                                                                  \
        for (int64_t i = n - 2; i >= 0; --i) {                                             \
            int64_t k = i * st;                                                            \
            D[k] = D[k] - CW[k] * D[k + st];                                               \
        }                                                                                  \
    }                                                                                      \
    static void batch_##SUFFIX(const hb_layout_dev *lay, const T *a, const T *b, const T *c, \
                               T *cw, T *d, int par)                                       \
    {                                                                                      \
        const int64_t *base = HB_I64(lay->base), *rows = HB_I64(lay->rows);                \
        (void)par;                                                                         \
        _Pragma("omp parallel for schedule(guided) if (par)")                             \
        for (int64_t t = 0; t < lay->nslots; ++t)                                          \
            thomas_##SUFFIX(rows[t], base[t], lay->stride, a, b, c, cw, d);                \
    }

HB_DEFINE_THOMAS(double, d)
HB_DEFINE_THOMAS(float, s)

hb_status hb__host_thomas(hb_context *ctx, void *stream, hb_precision p,
                          const hb_layout_dev *lay, hb_buffer *a, hb_buffer *b, hb_buffer *c,
                          hb_buffer *cw, hb_buffer *d)
{
    (void)stream;
    HB_HOST_RUN(p, batch, lay, a->ptr, b->ptr, c->ptr, cw->ptr, d->ptr, hb__host_parallel(ctx));
    return HB_SUCCESS;
}
