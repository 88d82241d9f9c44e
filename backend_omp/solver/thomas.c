/* thomas.c: Thomas algorithm over a batch in any layout: one system at a time (serial oracle) or blocks of systems swept side by side (OpenMP). */
#include "host_backend.h"

#include <stdlib.h>

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
    /* HB_HOST_LANES systems (slots t0 .. t0 + w - 1) side by side: the same               \
     * operations per system as thomas_##SUFFIX, so the results are bit-identical,         \
     * but w independent chains of divisions in flight instead of one. a, b, c, d          \
     * come through a small row-major tile (row, lane), HB_HOST_TILE rows of every         \
     * lane at a time (w systems of 2^k rows walked in lockstep in place all map to        \
     * the same cache sets: measured 6x slower at 512 rows); c' and d' stay in the         \
     * thread's scratch s (2 x rows x HB_HOST_LANES reals, reused block after block,       \
     * so it stays in the cache): memory sees a, b, c, d read and x written once.          \
     * The rows every lane has run together; the rest of a longer system alone. */        \
    static void block_##SUFFIX(int64_t w, const int64_t *rows, const int64_t *base,        \
                               int64_t st, const T *a, const T *b, const T *c, T *cw, T *d, \
                               T *s, int64_t smax)                                         \
    {                                                                                      \
        enum { W = HB_HOST_LANES, H = HB_HOST_TILE };                                      \
        int64_t nmin = rows[0];                                                            \
        for (int64_t k = 1; k < w; ++k)                                                    \
            nmin = rows[k] < nmin ? rows[k] : nmin;                                        \
        if (nmin < 1) { /* an empty system: nothing to share */                            \
            for (int64_t k = 0; k < w; ++k)                                                \
                thomas_##SUFFIX(rows[k], base[k], st, a, b, c, cw, d);                     \
            return;                                                                        \
        }                                                                                  \
        T *SC = s, *SD = s + smax * W;                                                     \
        T ta[H][W], tb[H][W], tc[H][W], td[H][W];                                          \
        T cp[W], dp[W];                                                                    \
        for (int64_t i0 = 0; i0 < nmin; i0 += H) {                                         \
            const int64_t h = nmin - i0 < H ? nmin - i0 : H;                               \
            for (int64_t k = 0; k < w; ++k)                                                \
                for (int64_t i = 0; i < h; ++i) {                                          \
                    const int64_t q = base[k] + (i0 + i) * st;                             \
                    ta[i][k] = a[q], tb[i][k] = b[q], tc[i][k] = c[q], td[i][k] = d[q];    \
                }                                                                          \
            int64_t i = 0;                                                                 \
            if (i0 == 0) {                                                                 \
                for (int64_t k = 0; k < w; ++k) {                                          \
                    cp[k] = tc[0][k] / tb[0][k];                                           \
                    dp[k] = td[0][k] / tb[0][k];                                           \
                    SC[k] = cp[k], SD[k] = dp[k];                                          \
                }                                                                          \
                i = 1;                                                                     \
            }                                                                              \
            for (; i < h; ++i)                                                             \
                for (int64_t k = 0; k < w; ++k) {                                          \
                    const T m = (T)1 / (tb[i][k] - ta[i][k] * cp[k]);                      \
                    cp[k] = tc[i][k] * m;                                                  \
                    dp[k] = (td[i][k] - ta[i][k] * dp[k]) * m;                             \
                    SC[(i0 + i) * W + k] = cp[k], SD[(i0 + i) * W + k] = dp[k];            \
                }                                                                          \
        }                                                                                  \
        for (int64_t k = 0; k < w; ++k) { /* each lane's own rows, down to nmin - 1 */     \
            const int64_t o = base[k], n = rows[k];                                        \
            for (int64_t i = nmin; i < n; ++i) {                                           \
                const int64_t q = o + i * st, x = i * W + k;                               \
                const T m = (T)1 / (b[q] - a[q] * SC[x - W]);                              \
                SC[x] = c[q] * m;                                                          \
                SD[x] = (d[q] - a[q] * SD[x - W]) * m;                                     \
            }                                                                              \
            T x = SD[(n - 1) * W + k];                                                     \
            if (n > nmin)                                                                  \
                d[o + (n - 1) * st] = x;                                                   \
            for (int64_t i = n - 2; i >= nmin - 1; --i) {                                  \
                x = SD[i * W + k] - SC[i * W + k] * x;                                     \
                d[o + i * st] = x;                                                         \
            }                                                                              \
            dp[k] = x;                                                                     \
        }                                                                                  \
        for (int64_t k = 0; k < w; ++k) /* row nmin - 1: solved alone above, or last */    \
            d[base[k] + (nmin - 1) * st] = dp[k];                                          \
        /* Back-substitution, tiles descending, from row nmin - 2. */                     \
        for (int64_t i1 = nmin - 1; i1 > 0; i1 -= H) {                                     \
            const int64_t h = i1 < H ? i1 : H, i0 = i1 - h;                                \
            for (int64_t i = h - 1; i >= 0; --i)                                           \
                for (int64_t k = 0; k < w; ++k) {                                          \
                    const int64_t x = (i0 + i) * W + k;                                    \
                    dp[k] = SD[x] - SC[x] * dp[k];                                         \
                    td[i][k] = dp[k];                                                      \
                }                                                                          \
            for (int64_t k = 0; k < w; ++k)                                                \
                for (int64_t i = 0; i < h; ++i)                                            \
                    d[base[k] + (i0 + i) * st] = td[i][k];                                 \
        }                                                                                  \
    }                                                                                      \
    static void batch_##SUFFIX(const hb_layout_dev *lay, const T *a, const T *b, const T *c, \
                               T *cw, T *d, int par)                                       \
    {                                                                                      \
        const int64_t *base = HB_I64(lay->base), *rows = HB_I64(lay->rows);                \
        const int64_t n = lay->max_rows;                                                   \
        if (!par) { /* the oracle: one system after another */                             \
            for (int64_t t = 0; t < lay->nslots; ++t)                                      \
                thomas_##SUFFIX(rows[t], base[t], lay->stride, a, b, c, cw, d);            \
            return;                                                                        \
        }                                                                                  \
        _Pragma("omp parallel")                                                           \
        {                                                                                  \
            /* Blocks only where the scratch stays in a core's cache. */                   \
            T *s = (T *)hb__host_tile(n, 2, sizeof(T));                                    \
            const int64_t nblocks = (lay->nslots + HB_HOST_LANES - 1) / HB_HOST_LANES;     \
            _Pragma("omp for schedule(guided)")                                           \
            for (int64_t g = 0; g < nblocks; ++g) {                                        \
                const int64_t t0 = g * HB_HOST_LANES;                                      \
                const int64_t w = lay->nslots - t0 < HB_HOST_LANES ? lay->nslots - t0      \
                                                                   : HB_HOST_LANES;        \
                if (s)                                                                     \
                    block_##SUFFIX(w, rows + t0, base + t0, lay->stride, a, b, c, cw, d, s, n); \
                else                                                                       \
                    for (int64_t t = t0; t < t0 + w; ++t)                                  \
                        thomas_##SUFFIX(rows[t], base[t], lay->stride, a, b, c, cw, d);    \
            }                                                                              \
            free(s);                                                                       \
        }                                                                                  \
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
