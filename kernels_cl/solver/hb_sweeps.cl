/* hb_sweeps.cl: the Thomas and Hines sweeps of one system, written once for the kernels that keep c' or the right-hand side in global or in local memory. */
#ifndef HB_SWEEPS_CL
#define HB_SWEEPS_CL

/* Macros, not functions: OpenCL C 1.2 has no generic address space, so one
 * function cannot take both a __global and a __local array. Rows of the
 * global arrays are i*st apart; CW and R are indexed i*cs and i*rs, so the
 * same text serves a global array (cs = st) and a block's local array
 * (cs = the block size). Same operations, in the same order, as the host
 * oracle (backend_omp/solver/thomas.c and hines.c). */

/* Thomas: A, B, C kept; CW receives c'; D: right-hand side in, x out. */
#define HB_THOMAS_SWEEP(n, st, A, B, C, D, CW, cs)                                          \
    do {                                                                                    \
        real cprev = (C)[0] / (B)[0];                                                       \
        real dprev = (D)[0] / (B)[0];                                                       \
        (CW)[0] = cprev;                                                                    \
        (D)[0] = dprev;                                                                     \
        for (hb_long i = 1; i < (n); ++i) {                                                 \
            const hb_long k = i * (st);                                                     \
            const real ak = (A)[k];                                                         \
            const real m = (real)1 / ((B)[k] - ak * cprev);                                 \
            cprev = (C)[k] * m;                                                             \
            dprev = ((D)[k] - ak * dprev) * m;                                              \
            (CW)[i * (cs)] = cprev;                                                         \
            (D)[k] = dprev;                                                                 \
        }                                                                                   \
        real x = dprev;                                                                     \
        for (hb_long i = (n)-2; i >= 0; --i) {                                              \
            const hb_long k = i * (st);                                                     \
            x = (D)[k] - (CW)[i * (cs)] * x;                                                \
            (D)[k] = x;                                                                     \
        }                                                                                   \
    } while (0)

/* Hines: P local parents, U and L kept, D overwritten by the elimination,
 * R: right-hand side in, x out. */
#define HB_HINES_SWEEP(n, st, P, U, L, D, R, rs)                                            \
    do {                                                                                    \
        for (hb_long i = (n)-1; i >= 1; --i) {                                              \
            const hb_long k = i * (st), kp = (hb_long)(P)[i] * (st);                        \
            const real f = (U)[k] / (D)[k];                                                 \
            (D)[kp] -= f * (L)[k];                                                          \
            (R)[(hb_long)(P)[i] * (rs)] -= f * (R)[i * (rs)];                               \
        }                                                                                   \
        (R)[0] = (R)[0] / (D)[0];                                                           \
        for (hb_long i = 1; i < (n); ++i) {                                                 \
            const hb_long k = i * (st);                                                     \
            (R)[i * (rs)] = ((R)[i * (rs)] - (L)[k] * (R)[(hb_long)(P)[i] * (rs)]) / (D)[k]; \
        }                                                                                   \
    } while (0)

#endif
