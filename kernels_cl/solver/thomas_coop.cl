/* thomas_coop.cl: cooperative Thomas (the Thomas-PCR hybrid): one work-group per tridiagonal system in the flat layout, each work-item a chunk of rows, the chunks' end rows solved together by PCR in local memory. */
#ifndef HB_PRELUDE_CL
#include "hb_prelude.cl"
#endif

/* One PCR step for reduced row I (stride s, N rows, arrays in sh at 0, oc,
 * od): the new sub-diagonal, super-diagonal and right-hand side, divided by
 * the new diagonal, into NA, NC, ND. */
#define HB_COOP_PCR_ROW(I, NA, NC, ND)                                                      \
    do {                                                                                    \
        const hb_long hb_i = (I);                                                           \
        const real hb_a = sh[hb_i], hb_c = sh[oc + hb_i];                                   \
        real hb_b = (real)1, hb_d = sh[od + hb_i], hb_an = (real)0, hb_cn = (real)0;        \
        if (hb_i - s >= 0) {                                                                \
            hb_b -= hb_a * sh[oc + hb_i - s];                                               \
            hb_d -= hb_a * sh[od + hb_i - s];                                               \
            hb_an = -hb_a * sh[hb_i - s];                                                   \
        }                                                                                   \
        if (hb_i + s < N) {                                                                 \
            hb_b -= hb_c * sh[hb_i + s];                                                    \
            hb_d -= hb_c * sh[od + hb_i + s];                                               \
            hb_cn = -hb_c * sh[oc + hb_i + s];                                              \
        }                                                                                   \
        const real hb_r = (real)1 / hb_b;                                                   \
        (NA) = hb_an * hb_r;                                                                \
        (NC) = hb_cn * hb_r;                                                                \
        (ND) = hb_d * hb_r;                                                                 \
    } while (0)

/* Group t solves system t (rows base[t] .. base[t] + rows[t], stride 1) with
 * P = get_local_size(0) work-items. The system is cut into q = min(P, n/2)
 * chunks of floor or ceil(n/q) >= 2 rows (n = 1: one chunk of one row);
 * work-item j < q owns chunk j, rows [j*n/q, (j+1)*n/q).
 *
 * 1. Each work-item eliminates its chunk (Laszlo, Giles and Appleyard,
 *    tridsolver): a forward pass writes every row i >= 1 as
 *      a'_i x_0 + x_i + c'_i x_{i+1} = d'_i     (x_0: the chunk's first row)
 *    and a backward pass rewrites rows 1 .. L-2 as
 *      x_i = d''_i - a''_i x_0 - c''_i x_{L-1}.
 *    a'' goes to cw[k], c'' to cw[length + k], d'' to d[k]. The first and last
 *    rows, in terms of the neighbouring chunks' end rows, are two rows of the
 *    reduced system: 2q unknowns (first_0, last_0, first_1, ...), tridiagonal
 *    with a unit diagonal, in local memory.
 * 2. PCR on the reduced system, log2(2q) steps, each work-item two rows.
 * 3. Each work-item writes its end rows and, from them, its interior rows.
 *
 * No pivoting, like Thomas: for diagonally dominant systems. sh holds 6P
 * reals: sub-diagonal, super-diagonal and right-hand side of 2P rows. */
__kernel void HB_KERNEL(hb_thomas_coop)(const hb_long nslots, const hb_long length,
                                        __global const hb_long *base,
                                        __global const hb_long *rows, __global const real *a,
                                        __global const real *b, __global const real *c,
                                        __global real *cw, __global real *d
                                            HB_DYNAMIC_LOCAL_ARG(real, sh))
{
    HB_DYNAMIC_LOCAL(real, sh);
    /* No early return: every work-item must reach every barrier (PoCL's
     * work-group loops fail on a return before one). A group past the batch
     * (none is launched) would solve 0 rows. */
    const hb_long t = (hb_long)get_group_id(0);
    const hb_long j = (hb_long)get_local_id(0), P = (hb_long)get_local_size(0);
    const hb_long o = t < nslots ? base[t] : 0, n = t < nslots ? rows[t] : 0;
    hb_long q = n / 2;
    if (q > P)
        q = P;
    if (q < 1)
        q = 1;
    const hb_long N = 2 * q;
    /* Reduced system in sh: sub-diagonal at 0, super-diagonal at oc, rhs at od
     * (offsets, not __local pointers: CUDA's __shared__ cannot qualify one). */
    const hb_long oc = 2 * P, od = 4 * P;
    __global const real *A = a + o, *B = b + o, *C = c + o;
    __global real *AW = cw + o, *CW = cw + length + o, *D = d + o;
    hb_long r0 = 0, L = 0;
    if (j < q) {
        r0 = j * n / q;
        L = (j + 1) * n / q - r0;
    }

    /* 1. Chunk elimination. */
    if (L == 1) { /* n == 1: both reduced rows are the one row */
        const real x = D[r0] / B[r0];
        sh[0] = sh[1] = (real)0;
        sh[oc + 0] = sh[oc + 1] = (real)0;
        sh[od + 0] = sh[od + 1] = x;
    } else if (L >= 2) {
        const hb_long k0 = r0;
        real r = (real)1 / B[k0];
        const real a0 = A[k0] * r, c0 = C[k0] * r, d0 = D[k0] * r;
        hb_long k = r0 + 1;
        r = (real)1 / B[k];
        real ap = A[k] * r, cp = C[k] * r, dp = D[k] * r;
        AW[k] = ap;
        CW[k] = cp;
        D[k] = dp;
        for (hb_long i = 2; i < L; ++i) {
            k = r0 + i;
            const real ak = A[k];
            r = (real)1 / (B[k] - ak * cp);
            ap = -ak * ap * r;
            cp = C[k] * r;
            dp = (D[k] - ak * dp) * r;
            AW[k] = ap;
            CW[k] = cp;
            D[k] = dp;
        }
        /* The last row: a' x_first + x_last + c' x_{next first} = d'. */
        sh[2 * j + 1] = ap;
        sh[oc + 2 * j + 1] = j == q - 1 ? (real)0 : cp;
        sh[od + 2 * j + 1] = dp;
        real ra = a0, rc = c0, rd = d0;
        if (L >= 3) {
            /* Backward from row L-2 (already in x_first, x_last form). */
            k = r0 + L - 2;
            real a2 = AW[k], c2 = CW[k], d2 = D[k];
            for (hb_long i = L - 3; i >= 1; --i) {
                k = r0 + i;
                const real ci = CW[k];
                a2 = AW[k] - ci * a2;
                c2 = -ci * c2;
                d2 = D[k] - ci * d2;
                AW[k] = a2;
                CW[k] = c2;
                D[k] = d2;
            }
            /* The first row with x_1 = d2 - a2 x_first - c2 x_last put in. */
            r = (real)1 / ((real)1 - c0 * a2);
            ra = a0 * r;
            rc = -c0 * c2 * r;
            rd = (d0 - c0 * d2) * r;
        }
        sh[2 * j] = j == 0 ? (real)0 : ra;
        sh[oc + 2 * j] = rc;
        sh[od + 2 * j] = rd;
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    /* 2. PCR: row i keeps a unit diagonal and couples to i - s and i + s;
     * work-item j computes rows j and j + P, and all write after all read. */
    for (hb_long s = 1; s < N; s *= 2) {
        real na0 = (real)0, nc0 = (real)0, nd0 = (real)0;
        real na1 = (real)0, nc1 = (real)0, nd1 = (real)0;
        if (j < N)
            HB_COOP_PCR_ROW(j, na0, nc0, nd0);
        if (j + P < N)
            HB_COOP_PCR_ROW(j + P, na1, nc1, nd1);
        barrier(CLK_LOCAL_MEM_FENCE);
        if (j < N) {
            sh[j] = na0;
            sh[oc + j] = nc0;
            sh[od + j] = nd0;
        }
        if (j + P < N) {
            sh[j + P] = na1;
            sh[oc + j + P] = nc1;
            sh[od + j + P] = nd1;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    /* 3. Back-substitution of the chunk from its end rows. */
    if (L >= 1) {
        const real xf = sh[od + 2 * j], xl = sh[od + 2 * j + 1];
        for (hb_long i = 1; i + 1 < L; ++i) {
            const hb_long k = r0 + i;
            D[k] = D[k] - AW[k] * xf - CW[k] * xl;
        }
        D[r0] = xf;
        D[r0 + L - 1] = xl;
    }
}
