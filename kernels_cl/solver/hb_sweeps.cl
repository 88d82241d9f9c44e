/* hb_sweeps.cl: the Thomas and Hines sweeps of one system, written once for the kernels that keep c' or the right-hand side in global or in local memory. */
#ifndef HB_SWEEPS_CL
#define HB_SWEEPS_CL

/* Macros, not functions: OpenCL C 1.2 has no generic address space, so one
 * function cannot take both a __global and a __local array. Rows of the
 * global arrays are i*st apart; CW and R are indexed i*cs and i*rs, so the
 * same text serves a global array (cs = st) and a block's local array
 * (cs = the block size). Same operations, in the same order, as the host
 * oracle (backend_omp/solver/thomas.c and hines.c). */

/* Thomas: A, B, C kept; CW receives c'; D: right-hand side in, x out. The
 * sizes are read once into locals: an expression such as rows[t] would
 * otherwise be loaded again on every row (the compiler cannot prove that the
 * stores to D leave it unchanged); for the same reason callers pass arrays as
 * locals or as base + a local offset, never through a table lookup. Measured
 * on an H100: re-reading rows[t] and poff[t] per row cost 4-7%. */
#define HB_THOMAS_SWEEP(n, st, A, B, C, D, CW, cs)                                          \
    do {                                                                                    \
        const hb_long hb_n = (n), hb_st = (st), hb_cs = (cs);                               \
        real hb_cprev = (C)[0] / (B)[0];                                                    \
        real hb_dprev = (D)[0] / (B)[0];                                                    \
        (CW)[0] = hb_cprev;                                                                 \
        (D)[0] = hb_dprev;                                                                  \
        for (hb_long hb_i = 1; hb_i < hb_n; ++hb_i) {                                       \
            const hb_long hb_k = hb_i * hb_st;                                              \
            const real hb_ak = (A)[hb_k];                                                   \
            const real hb_m = (real)1 / ((B)[hb_k] - hb_ak * hb_cprev);                     \
            hb_cprev = (C)[hb_k] * hb_m;                                                    \
            hb_dprev = ((D)[hb_k] - hb_ak * hb_dprev) * hb_m;                               \
            (CW)[hb_i * hb_cs] = hb_cprev;                                                  \
            (D)[hb_k] = hb_dprev;                                                           \
        }                                                                                   \
        real hb_x = hb_dprev;                                                               \
        for (hb_long hb_i = hb_n - 2; hb_i >= 0; --hb_i) {                                  \
            const hb_long hb_k = hb_i * hb_st;                                              \
            hb_x = (D)[hb_k] - (CW)[hb_i * hb_cs] * hb_x;                                   \
            (D)[hb_k] = hb_x;                                                               \
        }                                                                                   \
    } while (0)

/* Hines: P local parents, U and L kept (rows us apart: st, or 1 where every
 * system reads one system's couplings), D overwritten by the elimination,
 * R: right-hand side in, x out. Each row's parent is loaded once. */
#define HB_HINES_SWEEP(n, st, P, U, L, us, D, R, rs)                                        \
    do {                                                                                    \
        const hb_long hb_n = (n), hb_st = (st), hb_us = (us), hb_rs = (rs);                 \
        for (hb_long hb_i = hb_n - 1; hb_i >= 1; --hb_i) {                                  \
            const hb_long hb_p = (hb_long)(P)[hb_i], hb_k = hb_i * hb_st;                   \
            const hb_long hb_kp = hb_p * hb_st, hb_ku = hb_i * hb_us;                       \
            const real hb_f = (U)[hb_ku] / (D)[hb_k];                                       \
            (D)[hb_kp] -= hb_f * (L)[hb_ku];                                                \
            (R)[hb_p * hb_rs] -= hb_f * (R)[hb_i * hb_rs];                                  \
        }                                                                                   \
        (R)[0] = (R)[0] / (D)[0];                                                           \
        for (hb_long hb_i = 1; hb_i < hb_n; ++hb_i) {                                       \
            const hb_long hb_p = (hb_long)(P)[hb_i], hb_k = hb_i * hb_st;                   \
            (R)[hb_i * hb_rs] =                                                             \
                ((R)[hb_i * hb_rs] - (L)[hb_i * hb_us] * (R)[hb_p * hb_rs]) / (D)[hb_k];    \
        }                                                                                   \
    } while (0)

#endif
