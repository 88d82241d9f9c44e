/* hines_sweep.h: the Hines sweep of one system on the host, shared by the batch solver (hines.c) and the fused simulation loop (sim/cells.c). */
#ifndef HB_HINES_SWEEP_H
#define HB_HINES_SWEEP_H

#include "host_backend.h"

#include <stdint.h>

/* One system: rows of d and r at base + i*st, of u and l at ub + i*us
 * (base and st, or 0 and 1 where every system reads one system's couplings),
 * parents at par[i]. Same operations, in the same order, as
 * kernels_cl/solver/hines.cl. */
#define HB_DEFINE_HINES_SWEEP(T, SUFFIX)                                                   \
    static inline void hines_##SUFFIX(int64_t n, int64_t base, int64_t st, int64_t ub,     \
                                      int64_t us, const int32_t *par, const T *u,          \
                                      const T *l, T *d, T *r)                              \
    {                                                                                      \
        const T *U = u + ub, *L = l + ub;                                                  \
        T *D = d + base, *R = r + base;                                                    \
        for (int64_t i = n - 1; i >= 1; --i) {                                             \
            int64_t k = i * st, kp = (int64_t)par[i] * st, ku = i * us;                    \
            T f = U[ku] / D[k];                                                            \
            D[kp] -= f * L[ku];                                                            \
            R[kp] -= f * R[k];                                                             \
        }                                                                                  \
        R[0] = R[0] / D[0];                                                                \
        for (int64_t i = 1; i < n; ++i) {                                                  \
            int64_t k = i * st, kp = (int64_t)par[i] * st;                                 \
            R[k] = (R[k] - L[i * us] * R[kp]) / D[k];                                      \
        }                                                                                  \
    } \
    /* w cells of one tree (parents par) side by side in a tile: row i of cell j at   \
     * i * HB_HOST_LANES + j, so w independent chains are in flight (a sweep alone is  \
     * a chain of dependent divisions). The same operations per cell as              \
     * hines_##SUFFIX, so the results are bit-identical. */                           \
    /* Every lane of a full tile (w = HB_HOST_LANES): each row's operands go to local \
     * arrays before any store, so the compiler needs no runtime check that row i and \
     * its parent overlap (they never do: par[i] < i) and keeps every loop a vector   \
     * loop. The same operations as the loop over w below, bit for bit. */           \
    static inline void tile_full_##SUFFIX(int64_t n, const int32_t *par,              \
                                          const T *restrict U, const T *restrict L,   \
                                          T *restrict D, T *restrict R)               \
    {                                                                                  \
        enum { W = HB_HOST_LANES };                                                    \
        for (int64_t i = n - 1; i >= 1; --i) {                                         \
            const T *u = U + i * W, *l = L + i * W, *d = D + i * W, *r = R + i * W;    \
            T *dp = D + (int64_t)par[i] * W, *rp = R + (int64_t)par[i] * W;            \
            T f[W], nd[W], nr[W];                                                      \
            for (int j = 0; j < W; ++j)                                                \
                f[j] = u[j] / d[j];                                                    \
            for (int j = 0; j < W; ++j) {                                              \
                nd[j] = dp[j] - f[j] * l[j];                                           \
                nr[j] = rp[j] - f[j] * r[j];                                           \
            }                                                                          \
            for (int j = 0; j < W; ++j) {                                              \
                dp[j] = nd[j];                                                         \
                rp[j] = nr[j];                                                         \
            }                                                                          \
        }                                                                              \
        for (int j = 0; j < W; ++j)                                                    \
            R[j] = R[j] / D[j];                                                        \
        for (int64_t i = 1; i < n; ++i) {                                              \
            const T *l = L + i * W, *d = D + i * W, *xp = R + (int64_t)par[i] * W;     \
            T *r = R + i * W, x[W];                                                    \
            for (int j = 0; j < W; ++j)                                                \
                x[j] = (r[j] - l[j] * xp[j]) / d[j];                                   \
            for (int j = 0; j < W; ++j)                                                \
                r[j] = x[j];                                                           \
        }                                                                              \
    }

/* Any w <= HB_HOST_LANES of the tile (the batch solver, hines.c; the fused
 * loop sweeps its tiles whole, tile_full_##SUFFIX). Needs HB_DEFINE_HINES_SWEEP. */
#define HB_DEFINE_HINES_TILE(T, SUFFIX)                                                    \
    static inline void tile_##SUFFIX(int64_t w, int64_t n, const int32_t *par, const T *U,   \
                                     const T *L, T *D, T *R)                           \
    {                                                                                  \
        enum { W = HB_HOST_LANES };                                                    \
        if (w == W) {                                                                  \
            tile_full_##SUFFIX(n, par, U, L, D, R);                                    \
            return;                                                                    \
        }                                                                              \
        for (int64_t i = n - 1; i >= 1; --i) {                                         \
            const int64_t k = i * W, kp = (int64_t)par[i] * W;                         \
            for (int64_t j = 0; j < w; ++j) {                                          \
                const T f = U[k + j] / D[k + j];                                       \
                D[kp + j] -= f * L[k + j];                                             \
                R[kp + j] -= f * R[k + j];                                             \
            }                                                                          \
        }                                                                              \
        for (int64_t j = 0; j < w; ++j)                                                \
            R[j] = R[j] / D[j];                                                        \
        for (int64_t i = 1; i < n; ++i) {                                              \
            const int64_t k = i * W, kp = (int64_t)par[i] * W;                         \
            for (int64_t j = 0; j < w; ++j)                                            \
                R[k + j] = (R[k + j] - L[k + j] * R[kp + j]) / D[k + j];               \
        }                                                                              \
    }

#endif
