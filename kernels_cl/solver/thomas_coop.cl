/* thomas_coop.cl: cooperative Thomas (the Thomas-PCR hybrid): one work-group per tridiagonal system in the flat layout, each work-item a chunk of rows, the chunks' end rows solved together by PCR in local memory. */
#ifndef HB_PRELUDE_CL
#include "hb_prelude.cl"
#endif

#ifndef HB_COOP_PHASES_CL
#include "solver/hb_coop_phases.cl"
#endif

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
    HB_COOP_FORWARD(0);

    /* 2. Backward over rows L-2 .. 1: x_1 = d2 - a2 x_0 - c2 x_{L-1}
     * (starting from a2 = d2 = 0, c2 = -1 at row L-1). */
    real a2 = (real)0, c2 = (real)-1, d2 = (real)0;
    HB_COOP_BACKWARD();
    barrier(CLK_LOCAL_MEM_FENCE);
    HB_COOP_REDUCED_ROWS(sh, oa, sh, oc, sh, od, j == 0, j == q - 1);
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
    HB_COOP_BACKSUB(0, xf, xl);
}
