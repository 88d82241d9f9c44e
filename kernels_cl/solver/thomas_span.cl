/* thomas_span.cl: the cooperative Thomas-PCR solver with each system spanning G work-groups (few long systems): a reduce kernel and a back-substitution kernel around one cooperative solve of the systems' reduced rows. */
#ifndef HB_PRELUDE_CL
#include "hb_prelude.cl"
#endif
#ifndef HB_COOP_PHASES_CL
#include "solver/hb_coop_phases.cl"
#endif

/* Group (s, g) = (gid / G, gid % G) of system s (rows base[s] ..
 * base[s] + rows[s]): the system is cut into Gs = min(G, n / (2P)) (at least
 * 1) contiguous segments of n / Gs rows (one more for the first n % Gs);
 * groups g >= Gs get none and only meet the barriers. With Gs >= 2 every
 * segment has at least 2P rows, so P chunks (q = P): the reduced rows of
 * segment g sit at 2Pg .. 2Pg + 2P - 1 of system s's reduced system (row
 * s * rstride of the reduced arrays); with Gs = 1 the segment is the whole
 * system, cut as hb_thomas_coop cuts it (q = min(P, n/2), at least 1). In
 * both cases a segment's g-th offset is 2qg. Declares the variables the
 * phases use (hb_coop_phases.cl). */
#define HB_SPAN_GEOMETRY()                                                                  \
    const hb_long gid = (hb_long)get_group_id(0);                                           \
    const hb_long s = gid / G, g = gid % G;                                                 \
    const hb_long j = (hb_long)get_local_id(0), P = (hb_long)get_local_size(0);             \
    const hb_long ns = s < nslots ? rows[s] : 0;                                            \
    hb_long Gs = ns / (2 * P);                                                              \
    if (Gs > G)                                                                             \
        Gs = G;                                                                             \
    if (Gs < 1)                                                                             \
        Gs = 1;                                                                             \
    const hb_long sl = ns / Gs, sr = ns - Gs * sl;                                          \
    const hb_long n = g < Gs ? sl + (g < sr ? 1 : 0) : 0;                                   \
    const hb_long o = (s < nslots ? base[s] : 0) + g * sl + (g < sr ? g : sr);              \
    hb_long q = n / 2;                                                                      \
    if (q > P)                                                                              \
        q = P;                                                                              \
    if (q < 1)                                                                              \
        q = 1;                                                                              \
    const hb_long m = n / q, rem = n - q * m;                                               \
    const hb_long Lmax = m + (rem > 0 ? 1 : 0);                                             \
    const hb_long nb = (Lmax + HB_COOP_MB - 1) / HB_COOP_MB;                                \
    const hb_long W = P * HB_COOP_LD;                                                       \
    const hb_long sa = 0, sb = W, sc = 2 * W, sd = 3 * W;                                   \
    __global real *AW = cw + o, *CW = cw + length + o, *D = d + o;                          \
    const hb_long L = j < q ? m + (j < rem ? 1 : 0) : 0;                                    \
    const hb_long lj = j * HB_COOP_LD;                                                      \
    const hb_long ro = s * rstride + 2 * q * g; /* this segment's reduced rows */           \
    (void)sb

/* 1-2 of hb_thomas_coop on each segment, a', c', d' always to cw and d (the
 * back-substitution is another launch), the chunks' reduced rows to ra, rc,
 * rd at ro: the first chunk of a segment after the first keeps its coupling
 * to the segment before, the last chunk of a segment before the last to the
 * segment after, so each system's reduced rows form one tridiagonal system
 * of unit diagonal; rrows[s] gets its size (0 for an empty system). */
__kernel void HB_KERNEL(hb_thomas_span_reduce)(
    const hb_long nslots, const hb_long length, const hb_long G, const hb_long rstride,
    __global const hb_long *base, __global const hb_long *rows, __global const real *a,
    __global const real *b, __global const real *c, __global real *cw, __global real *d,
    __global real *ra, __global real *rc, __global real *rd,
    __global hb_long *rrows HB_DYNAMIC_LOCAL_ARG(real, sh))
{
    HB_DYNAMIC_LOCAL(real, sh);
    /* No early return: every work-item reaches every barrier. */
    HB_SPAN_GEOMETRY();
    __global const real *A = a + o, *B = b + o, *C = c + o;
    if (s < nslots && g == 0 && j == 0)
        rrows[s] = ns == 0 ? 0 : 2 * q * Gs;
    real a0 = (real)0, c0 = (real)0, d0 = (real)0;
    real ap = (real)-1, cp = (real)0, dp = (real)0;
    HB_COOP_FORWARD(1);
    real a2 = (real)0, c2 = (real)-1, d2 = (real)0;
    HB_COOP_BACKWARD();
    HB_COOP_REDUCED_ROWS(ra, ro, rc, ro, rd, ro, g == 0 && j == 0,
                         g == Gs - 1 && j == q - 1);
}

/* 4 of hb_thomas_coop on each segment, from its chunks' end rows solved in
 * x (the reduced systems' solution, laid out as rd above). */
__kernel void HB_KERNEL(hb_thomas_span_back)(const hb_long nslots, const hb_long length,
                                             const hb_long G, const hb_long rstride,
                                             __global const hb_long *base,
                                             __global const hb_long *rows, __global real *cw,
                                             __global real *d, __global const real *x
                                                 HB_DYNAMIC_LOCAL_ARG(real, sh))
{
    HB_DYNAMIC_LOCAL(real, sh);
    HB_SPAN_GEOMETRY();
    real xf = (real)0, xl = (real)0;
    if (L >= 1) {
        xf = x[ro + 2 * j];
        xl = x[ro + 2 * j + 1];
    }
    HB_COOP_BACKSUB(1, xf, xl);
}
