/* hines.c: Hines elimination over a batch in any layout: one cell at a time (serial oracle) or, for cells of one tree, blocks of cells swept side by side (OpenMP). */
#include "hines_sweep.h"
#include "host_backend.h"

#include <stdlib.h>

#define HB_DEFINE_HINES(T, SUFFIX)                                                         \
    HB_DEFINE_HINES_SWEEP(T, SUFFIX)                                                       \
    HB_DEFINE_HINES_TILE(T, SUFFIX)                                                        \
    /* HB_HOST_LANES cells of one tree (slots t0 .. t0 + w - 1, a shared parent               \
     * table) side by side in the scratch tile s (4 x n x HB_HOST_LANES reals, row             \
     * i of cell j at i * HB_HOST_LANES + j): w independent chains in flight, each             \
     * row of the w cells one cache line. The cells are gathered first: in place,              \
     * w cells of 2^k rows in lockstep all map to the same cache sets (measured 2x             \
     * slower than one cell at a time at 512 rows). Same operations per cell as                \
     * hines_##SUFFIX, so the results are bit-identical. */                                   \
    static void block_##SUFFIX(int64_t w, int64_t n, const int64_t *base, int64_t st,      \
                               int ushared, const int32_t *par, const T *u, const T *l,    \
                               T *d, T *r, T *s)                                           \
    {                                                                                      \
        enum { W = HB_HOST_LANES };                                                        \
        T *U = s, *L = s + n * W, *D = s + 2 * n * W, *R = s + 3 * n * W;                  \
        for (int64_t j = 0; j < w; ++j)                                                    \
            for (int64_t i = 0; i < n; ++i) {                                              \
                const int64_t q = base[j] + i * st, x = i * W + j;                         \
                const int64_t qu = ushared ? i : q;                                        \
                U[x] = u[qu], L[x] = l[qu], D[x] = d[q], R[x] = r[q];                      \
            }                                                                              \
        tile_##SUFFIX(w, n, par, U, L, D, R);                                              \
        for (int64_t j = 0; j < w; ++j)                                                    \
            for (int64_t i = 0; i < n; ++i) {                                              \
                const int64_t q = base[j] + i * st, x = i * W + j;                         \
                d[q] = D[x], r[q] = R[x];                                                  \
            }                                                                              \
    }                                                                                      \
    static void batch_##SUFFIX(const hb_layout_dev *lay, const T *u, const T *l, T *d, T *r, \
                               int par)                                                    \
    {                                                                                      \
        const int64_t *base = HB_I64(lay->base), *rows = HB_I64(lay->rows);                \
        const int64_t *poff = HB_I64(lay->poff);                                           \
        const int32_t *parent = (const int32_t *)lay->parent->ptr;                         \
        const int64_t n = lay->max_rows, st = lay->stride;                                 \
        /* Shared couplings: one system's rows, row i at i (hb_layout_dev.ul_shared). */   \
        const int us = lay->ul_shared;                                                     \
        /* One tile per thread; cells of one tree only, and only where a tile stays        \
         * in a core's cache (larger ones gain nothing over one cell at a time). */        \
        const int tiled = lay->mono;                                                       \
        if (!par) { /* the oracle: one cell after another */                               \
            for (int64_t t = 0; t < lay->nslots; ++t)                                      \
                hines_##SUFFIX(rows[t], base[t], st, us ? 0 : base[t], us ? 1 : st,          \
                               parent + poff[t], u, l, d, r);                              \
            return;                                                                        \
        }                                                                                  \
        _Pragma("omp parallel")                                                           \
        {                                                                                  \
            T *s = tiled ? (T *)hb__host_tile(n, 4, sizeof(T)) : NULL;                     \
            const int64_t nblocks = (lay->nslots + HB_HOST_LANES - 1) / HB_HOST_LANES;     \
            _Pragma("omp for schedule(guided)")                                           \
            for (int64_t g = 0; g < nblocks; ++g) {                                        \
                const int64_t t0 = g * HB_HOST_LANES;                                      \
                const int64_t w = lay->nslots - t0 < HB_HOST_LANES ? lay->nslots - t0      \
                                                                   : HB_HOST_LANES;        \
                if (s)                                                                     \
                    block_##SUFFIX(w, n, base + t0, st, us, parent, u, l, d, r, s);        \
                else                                                                       \
                    for (int64_t t = t0; t < t0 + w; ++t)                                  \
                        hines_##SUFFIX(rows[t], base[t], st, us ? 0 : base[t], us ? 1 : st, \
                                       parent + poff[t], u, l, d, r);                      \
            }                                                                              \
            free(s);                                                                       \
        }                                                                                  \
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
