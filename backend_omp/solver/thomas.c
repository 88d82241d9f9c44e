/* thomas.c: Thomas algorithm over a batch in any layout: one system at a time (serial oracle) or blocks of systems swept side by side (OpenMP). */
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
    /* HB_HOST_LANES systems (slots t0 .. t0 + w - 1) side by side: the same               \
     * operations per system as thomas_##SUFFIX, so the results are bit-identical,         \
     * but w independent chains of divisions in flight instead of one. Rows go            \
     * through a small row-major tile (row, lane) in the cache, HB_HOST_TILE rows of       \
     * every lane at a time: walking w systems of 2^k rows in lockstep in place would      \
     * map every lane to the same cache sets (measured 6x slower at 512 rows). The         \
     * rows every lane has run together; the rest of a longer system runs alone. */       \
    static void block_##SUFFIX(int64_t w, const int64_t *rows, const int64_t *base,        \
                               int64_t st, const T *a, const T *b, const T *c, T *cw, T *d) \
    {                                                                                      \
        int64_t nmin = rows[0];                                                            \
        for (int64_t k = 1; k < w; ++k)                                                    \
            nmin = rows[k] < nmin ? rows[k] : nmin;                                        \
        if (nmin < 2 || w < 2) { /* nothing to share */                                   \
            for (int64_t k = 0; k < w; ++k)                                                \
                thomas_##SUFFIX(rows[k], base[k], st, a, b, c, cw, d);                     \
            return;                                                                        \
        }                                                                                  \
        T ta[HB_HOST_TILE][HB_HOST_LANES], tb[HB_HOST_TILE][HB_HOST_LANES];                \
        T tc[HB_HOST_TILE][HB_HOST_LANES], td[HB_HOST_TILE][HB_HOST_LANES];                \
        T cp[HB_HOST_LANES], dp[HB_HOST_LANES];                                            \
        for (int64_t i0 = 0; i0 < nmin; i0 += HB_HOST_TILE) {                              \
            const int64_t h = nmin - i0 < HB_HOST_TILE ? nmin - i0 : HB_HOST_TILE;         \
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
                    tc[0][k] = cp[k], td[0][k] = dp[k];                                    \
                }                                                                          \
                i = 1;                                                                     \
            }                                                                              \
            for (; i < h; ++i)                                                             \
                for (int64_t k = 0; k < w; ++k) {                                          \
                    const T m = (T)1 / (tb[i][k] - ta[i][k] * cp[k]);                      \
                    cp[k] = tc[i][k] * m;                                                  \
                    dp[k] = (td[i][k] - ta[i][k] * dp[k]) * m;                             \
                    tc[i][k] = cp[k], td[i][k] = dp[k];                                    \
                }                                                                          \
            for (int64_t k = 0; k < w; ++k)                                                \
                for (int64_t j = 0; j < h; ++j) {                                          \
                    const int64_t q = base[k] + (i0 + j) * st;                             \
                    cw[q] = tc[j][k], d[q] = td[j][k];                                     \
                }                                                                          \
        }                                                                                  \
        for (int64_t k = 0; k < w; ++k) { /* each lane's own rows, down to nmin - 1 */     \
            const int64_t o = base[k];                                                     \
            for (int64_t i = nmin; i < rows[k]; ++i) {                                     \
                const int64_t q = o + i * st;                                              \
                const T m = (T)1 / (b[q] - a[q] * cw[q - st]);                             \
                cw[q] = c[q] * m;                                                          \
                d[q] = (d[q] - a[q] * d[q - st]) * m;                                      \
            }                                                                              \
            T x = d[o + (rows[k] - 1) * st];                                               \
            for (int64_t i = rows[k] - 2; i >= nmin - 1; --i) {                            \
                const int64_t q = o + i * st;                                              \
                x = d[q] - cw[q] * x;                                                      \
                d[q] = x;                                                                  \
            }                                                                              \
            dp[k] = x;                                                                     \
        }                                                                                  \
        /* Back-substitution, tiles descending, from row nmin - 2. */                     \
        for (int64_t i1 = nmin - 1; i1 > 0; i1 -= HB_HOST_TILE) {                          \
            const int64_t h = i1 < HB_HOST_TILE ? i1 : HB_HOST_TILE, i0 = i1 - h;          \
            for (int64_t k = 0; k < w; ++k)                                                \
                for (int64_t i = 0; i < h; ++i) {                                          \
                    const int64_t q = base[k] + (i0 + i) * st;                             \
                    tc[i][k] = cw[q], td[i][k] = d[q];                                     \
                }                                                                          \
            for (int64_t i = h - 1; i >= 0; --i)                                           \
                for (int64_t k = 0; k < w; ++k) {                                          \
                    dp[k] = td[i][k] - tc[i][k] * dp[k];                                   \
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
        if (!par) { /* the oracle: one system after another */                             \
            for (int64_t t = 0; t < lay->nslots; ++t)                                      \
                thomas_##SUFFIX(rows[t], base[t], lay->stride, a, b, c, cw, d);            \
            return;                                                                        \
        }                                                                                  \
        const int64_t nblocks = (lay->nslots + HB_HOST_LANES - 1) / HB_HOST_LANES;         \
        _Pragma("omp parallel for schedule(guided)")                                      \
        for (int64_t g = 0; g < nblocks; ++g) {                                            \
            const int64_t t0 = g * HB_HOST_LANES;                                          \
            const int64_t w = lay->nslots - t0 < HB_HOST_LANES ? lay->nslots - t0          \
                                                               : HB_HOST_LANES;            \
            block_##SUFFIX(w, rows + t0, base + t0, lay->stride, a, b, c, cw, d);          \
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
