/* hines_sweep.h: the Hines sweep of one system on the host, shared by the batch solver (hines.c) and the fused simulation loop (sim/cells.c). */
#ifndef HB_HINES_SWEEP_H
#define HB_HINES_SWEEP_H

#include <stdint.h>

/* One system: rows at base + i*stride, parents at par[i]. Same operations,
 * in the same order, as kernels_cl/solver/hines.cl. */
#define HB_DEFINE_HINES_SWEEP(T, SUFFIX)                                                         \
    static inline void hines_##SUFFIX(int64_t n, int64_t base, int64_t st, const int32_t *par,    \
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
    }

#endif
