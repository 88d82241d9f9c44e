/* thomas_coop.cl: cooperative Thomas (the Thomas-PCR hybrid): one work-group per tridiagonal system in the flat layout, each work-item a chunk of rows, the chunks' end rows solved together by PCR in local memory. */
#ifndef HB_PRELUDE_CL
#include "hb_prelude.cl"
#endif

/* One PCR step for reduced row I (stride s, N rows, arrays in sh at oa, oc,
 * od): the new sub-diagonal, super-diagonal and right-hand side, divided by
 * the new diagonal, into NA, NC, ND. */
#define HB_COOP_PCR_ROW(I, NA, NC, ND)                                                      \
    do {                                                                                    \
        const hb_long hb_i = (I);                                                           \
        const real hb_a = sh[oa + hb_i], hb_c = sh[oc + hb_i];                                   \
        real hb_b = (real)1, hb_d = sh[od + hb_i], hb_an = (real)0, hb_cn = (real)0;        \
        if (hb_i - s >= 0) {                                                                \
            hb_b -= hb_a * sh[oc + hb_i - s];                                               \
            hb_d -= hb_a * sh[od + hb_i - s];                                               \
            hb_an = -hb_a * sh[oa + hb_i - s];                                                   \
        }                                                                                   \
        if (hb_i + s < N) {                                                                 \
            hb_b -= hb_c * sh[oa + hb_i + s];                                                    \
            hb_d -= hb_c * sh[od + hb_i + s];                                               \
            hb_cn = -hb_c * sh[oc + hb_i + s];                                              \
        }                                                                                   \
        const real hb_r = (real)1 / hb_b;                                                   \
        (NA) = hb_an * hb_r;                                                                \
        (NC) = hb_cn * hb_r;                                                                \
        (ND) = hb_d * hb_r;                                                                 \
    } while (0)

/* Rows of each chunk staged per block through local memory: must match
 * HB_COOP_MB in api/core/hb_backend.h (the launchers size local memory by
 * it). Each staged array holds P chunks x HB_COOP_LD reals (one pad real per
 * chunk: work-items walking their chunks side by side hit different banks). */
#ifndef HB_COOP_MB
#define HB_COOP_MB 8
#endif
#define HB_COOP_LD (HB_COOP_MB + 1)

/* Block jb (rows jb*MB .. jb*MB + MB-1 of every chunk) between global array G
 * and local offset OFF (STMT: the copy, with hb_g the global index and hb_l
 * the local one): flattened (chunk, row) index f = j + P*i, so consecutive
 * work-items touch consecutive rows of one chunk. */
#define HB_COOP_STAGE_(STMT)                                                                \
    do {                                                                                    \
        for (hb_long hb_f = j; hb_f < q * HB_COOP_MB; hb_f += P) {                          \
            const hb_long hb_cc = hb_f / HB_COOP_MB, hb_t = hb_f % HB_COOP_MB;              \
            const hb_long hb_r = jb * HB_COOP_MB + hb_t;                                    \
            if (hb_r < m + (hb_cc < rem ? 1 : 0)) {                                         \
                const hb_long hb_g = hb_cc * m + (hb_cc < rem ? hb_cc : rem) + hb_r;        \
                const hb_long hb_l = hb_cc * HB_COOP_LD + hb_t;                             \
                STMT;                                                                       \
            }                                                                               \
        }                                                                                   \
    } while (0)
#define HB_COOP_LOAD(G, OFF) HB_COOP_STAGE_(sh[(OFF) + hb_l] = (G)[hb_g])
#define HB_COOP_STORE(G, OFF) HB_COOP_STAGE_((G)[hb_g] = sh[(OFF) + hb_l])

/* Group t solves system t (rows base[t] .. base[t] + rows[t], stride 1) with
 * P = get_local_size(0) work-items. The system is cut into q = min(P, n/2)
 * chunks (n = 1: one chunk of one row): m = n/q rows each, one more for the
 * first n - q*m; work-item j < q owns chunk j.
 *
 * All global reads and writes go through local memory a block of
 * MB = HB_COOP_MB rows of every chunk at a time (HB_COOP_LOAD, HB_COOP_STORE), coalesced;
 * each work-item walks its chunk's rows of the block in local memory.
 *
 * 1. Forward (blocks ascending): every row i >= 1 of the chunk as
 *      a'_i x_0 + x_i + c'_i x_{i+1} = d'_i     (x_0: the chunk's first row)
 *    (Laszlo, Giles and Appleyard, tridsolver). a' to cw[k], c' to
 *    cw[length + k], d' to d[k], except with a single block (chunks of at
 *    most MB rows), which stays in local memory. The last row is one row of
 *    the reduced system.
 * 2. Backward (blocks descending; the last block is still in local memory):
 *    rows L-2 .. 1 folded into the first row, which then couples x_0 only to
 *    the previous chunk's last row and to x_{L-1}: the other reduced row.
 *    Reads only.
 * 3. PCR on the reduced system of 2q unknowns (first_0, last_0, first_1, ...),
 *    tridiagonal with a unit diagonal, log2(2q) steps, each work-item two
 *    rows, in local memory over the staged b (not needed after 1).
 * 4. Back-substitution (blocks descending): x_i = d'_i - a'_i x_0 -
 *    c'_i x_{i+1}, written to d through local memory.
 *
 * No pivoting, like Thomas: for diagonally dominant systems. sh holds
 * 4 x P x (MB + 1) reals (HB_COOP_LOCAL_REALS): a, b, c, d of one block. */
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
    const hb_long N = 2 * q, m = n / q, rem = n - q * m;
    const hb_long Lmax = m + (rem > 0 ? 1 : 0);
    const hb_long nb = (Lmax + HB_COOP_MB - 1) / HB_COOP_MB;
    /* Staged arrays (offsets, not __local pointers: CUDA's __shared__ cannot
     * qualify one) and, over the staged b, the reduced system's sub-diagonal,
     * super-diagonal and right-hand side (6P <= P x HB_COOP_LD reals). */
    const hb_long W = P * HB_COOP_LD;
    const hb_long sa = 0, sb = W, sc = 2 * W, sd = 3 * W;
    const hb_long oa = sb, oc = sb + 2 * P, od = sb + 4 * P;
    __global const real *A = a + o, *B = b + o, *C = c + o;
    __global real *AW = cw + o, *CW = cw + length + o, *D = d + o;
    const hb_long L = j < q ? m + (j < rem ? 1 : 0) : 0;
    const hb_long lj = j * HB_COOP_LD; /* this chunk's rows in a staged array */

    /* 1. Forward. Row 0 is kept as x_0 (a0, c0, d0: it over b0); row 1 starts
     * from ap = -1, cp = dp = 0, which gives a'_1 = a_1/b_1. */
    real a0 = (real)0, c0 = (real)0, d0 = (real)0;
    real ap = (real)-1, cp = (real)0, dp = (real)0;
    for (hb_long jb = 0; jb < nb; ++jb) {
        barrier(CLK_LOCAL_MEM_FENCE);
        HB_COOP_LOAD(A, sa);
        HB_COOP_LOAD(B, sb);
        HB_COOP_LOAD(C, sc);
        HB_COOP_LOAD(D, sd);
        barrier(CLK_LOCAL_MEM_FENCE);
        const hb_long i0 = jb * HB_COOP_MB;
        hb_long i1 = i0 + HB_COOP_MB;
        if (i1 > L)
            i1 = L;
        for (hb_long i = i0; i < i1; ++i) {
            const hb_long l = lj + i - i0;
            const real ak = sh[sa + l];
            if (i == 0) {
                const real r = (real)1 / sh[sb + l];
                a0 = ak * r;
                c0 = sh[sc + l] * r;
                d0 = sh[sd + l] * r;
                sh[sd + l] = d0;
            } else {
                const real r = (real)1 / (sh[sb + l] - ak * cp);
                ap = -ak * ap * r;
                cp = sh[sc + l] * r;
                dp = (sh[sd + l] - ak * dp) * r;
                sh[sa + l] = ap;
                sh[sc + l] = cp;
                sh[sd + l] = dp;
            }
        }
        if (nb > 1) {
            barrier(CLK_LOCAL_MEM_FENCE);
            HB_COOP_STORE(AW, sa);
            HB_COOP_STORE(CW, sc);
            HB_COOP_STORE(D, sd);
        }
    }

    /* 2. Backward over rows L-2 .. 1: x_1 = d2 - a2 x_0 - c2 x_{L-1}
     * (starting from a2 = d2 = 0, c2 = -1 at row L-1). */
    real a2 = (real)0, c2 = (real)-1, d2 = (real)0;
    for (hb_long jb = nb - 1; jb >= 0; --jb) {
        if (jb != nb - 1) {
            barrier(CLK_LOCAL_MEM_FENCE);
            HB_COOP_LOAD(AW, sa);
            HB_COOP_LOAD(CW, sc);
            HB_COOP_LOAD(D, sd);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        const hb_long i0 = jb * HB_COOP_MB;
        hb_long i1 = i0 + HB_COOP_MB;
        if (i1 > L - 1)
            i1 = L - 1;
        for (hb_long i = i1 - 1; i >= i0 && i >= 1; --i) {
            const hb_long l = lj + i - i0;
            const real ci = sh[sc + l];
            a2 = sh[sa + l] - ci * a2;
            c2 = -ci * c2;
            d2 = sh[sd + l] - ci * d2;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (L == 1) { /* n == 1: both reduced rows are the one row */
        sh[oa + 0] = sh[oa + 1] = (real)0;
        sh[oc + 0] = sh[oc + 1] = (real)0;
        sh[od + 0] = sh[od + 1] = d0;
    } else if (L >= 2) {
        /* The last row: a' x_first + x_last + c' x_{next first} = d'. */
        sh[oa + 2 * j + 1] = ap;
        sh[oc + 2 * j + 1] = j == q - 1 ? (real)0 : cp;
        sh[od + 2 * j + 1] = dp;
        /* The first row with x_1 = d2 - a2 x_first - c2 x_last put in. */
        const real r = (real)1 / ((real)1 - c0 * a2);
        sh[oa + 2 * j] = j == 0 ? (real)0 : a0 * r;
        sh[oc + 2 * j] = -c0 * c2 * r;
        sh[od + 2 * j] = (d0 - c0 * d2) * r;
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    /* 3. PCR: row i keeps a unit diagonal and couples to i - s and i + s;
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
            sh[oa + j] = na0;
            sh[oc + j] = nc0;
            sh[od + j] = nd0;
        }
        if (j + P < N) {
            sh[oa + j + P] = na1;
            sh[oc + j + P] = nc1;
            sh[od + j + P] = nd1;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    /* 4. Back-substitution, blocks descending. */
    real xf = (real)0, xl = (real)0;
    if (L >= 1) {
        xf = sh[od + 2 * j];
        xl = sh[od + 2 * j + 1];
    }
    real xn = xl;
    for (hb_long jb = nb - 1; jb >= 0; --jb) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (nb > 1) {
            HB_COOP_LOAD(AW, sa);
            HB_COOP_LOAD(CW, sc);
            HB_COOP_LOAD(D, sd);
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        const hb_long i0 = jb * HB_COOP_MB;
        hb_long i1 = i0 + HB_COOP_MB;
        if (i1 > L)
            i1 = L;
        for (hb_long i = i1 - 1; i >= i0; --i) {
            const hb_long l = lj + i - i0;
            real x;
            if (i == L - 1)
                x = xl;
            else if (i == 0)
                x = xf;
            else
                x = sh[sd + l] - sh[sa + l] * xf - sh[sc + l] * xn;
            sh[sd + l] = x;
            xn = x;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        HB_COOP_STORE(D, sd);
    }
}
