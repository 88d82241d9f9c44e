/* thomas_coop_local.cl: resident cooperative Thomas (the Thomas hybrid with whole systems in local memory: chunks reduced by Thomas, their end rows by cyclic reduction): one work-group per S consecutive systems of the flat layout, Pper work-items per system. */
#ifndef HB_PRELUDE_CL
#include "hb_prelude.cl"
#endif
#ifndef HB_COOP_PHASES_CL
#include "solver/hb_coop_phases.cl"
#endif

/* Local offsets of reduced row I's sub-diagonal, super-diagonal and
 * right-hand side (system arrays at sa, sc, sd; chunks ld apart; chunk J has
 * m + 1 rows if J < rem, else m). Row 2j (chunk j's first row) lives in the
 * chunk's row-0 slots, row 2j+1 (its last) in its row-(L-1) slots: neither
 * is read again once the backward pass is done (both end rows are
 * back-substituted from the reduced solution), so the reduced system needs no
 * local memory of its own. A one-row chunk (n = 1) maps both to one slot,
 * where they hold the same row; an empty slot (n = 0) has none. */
#define HB_COOPL_ROW_(I) (((I) >> 1) * ld + (((I) & 1) ? m - 1 + (((I) >> 1) < rem ? 1 : 0) : 0))
#define HB_COOPL_RA(I) (sa + HB_COOPL_ROW_(I))
#define HB_COOPL_RC(I) (sc + HB_COOPL_ROW_(I))
#define HB_COOPL_RD(I) (sd + HB_COOPL_ROW_(I))

/* One PCR step for reduced row I over this file's row addresses
 * (hb_coop_phases.cl's HB_PCR_ROW, the staged kernel's step): cyclic
 * reduction's elimination of a row's two neighbours. */
#define HB_COOPL_PCR_ROW(I, NA, NC, ND)                                                     \
    HB_PCR_ROW(hb_int, I, s, N, HB_COOPL_RA, HB_COOPL_RC, HB_COOPL_RD, NA, NC, ND)

/* Rows each work-item loads at once (a constant: the loops over them unroll
 * into registers; -DHB_COOPL_BATCH=4 at build time for a comparison). */
#ifndef HB_COOPL_BATCH
#define HB_COOPL_BATCH 2
#endif

/* Global row g of the system (0 .. n-1) as local index chunk * ld + row: the
 * first rem chunks have m + 1 rows, the others m (32-bit arithmetic: local
 * memory is small). */
#define HB_COOPL_LOCAL_ROW(g)                                                               \
    ((g) < split ? ((g) / (m + 1)) * ld + (g) % (m + 1)                                     \
                 : (rem + ((g) - split) / m) * ld + ((g) - split) % m)

/* Group g solves slots g*S .. g*S + S-1 (S = local size / pper, the host
 * launches a multiple of pper), pper work-items per system; ld is the local
 * stride of a chunk (odd, >= the longest chunk). The host sizes local memory
 * as 3 x S x pper x ld reals (HB_COOP_RESIDENT_REALS).
 *
 * Each system of n rows is cut into q = min(pper, n/2) chunks (n = 1: one
 * chunk of one row), m = n/q rows each, one more for the first n - q*m; the
 * system's work-item j < q owns chunk j. Local memory is array-major: array
 * X (a, c, d) of system k at X*S*W + k*W (W = pper*ld), chunk j at j*ld
 * within it, so the S*pper work-items of a group walking their chunks side by
 * side read addresses ld apart: ld odd puts them in different banks, for
 * float (one bank per real) and double (two).
 *
 * 1. Load each row divided by its diagonal, a/b, c/b, d/b: the system's
 *    work-items stride over its rows (coalesced, contiguous in the flat
 *    layout). The unit diagonal needs no local array, so a long system fits
 *    where four arrays would not (8,192 doubles: 192 KiB and the strides'
 *    padding).
 * 2. Forward: every row i >= 1 of the chunk as a'_i x_0 + x_i + c'_i x_{i+1}
 *    = d'_i (x_0: the chunk's first row), over a, c, d in local memory.
 * 3. Backward over rows L-2 .. 1: the first row then couples only to the
 *    previous chunk's last row and to x_{L-1}. The two end rows of every chunk
 *    form the reduced system of 2q rows (unit diagonal).
 * 4. Cyclic reduction on it, log2(2 pper) steps down and up for every
 *    system of the group (a system with fewer chunks has no rows in the
 *    last ones).
 * 5. Back-substitution x_i = d'_i - a'_i x_0 - c'_i x_{i+1} in local memory,
 *    then a coalesced store of x to d.
 * Global traffic: a, b, c, d read once, x written once; no scratch.
 *
 * No early return and every barrier reached by every work-item (PoCL): slots
 * past the batch and work-items past their system's chunks run with no rows.
 * No pivoting, like Thomas: for diagonally dominant systems (a zero diagonal
 * fails at the load where Thomas would fail at that row, unless the rows
 * before it made it nonzero). */
__kernel void HB_KERNEL(hb_thomas_coop_local)(const hb_long nslots, const hb_int pper,
                                              const hb_int ld, __global const hb_long *base,
                                              __global const hb_long *rows,
                                              __global const real *a, __global const real *b,
                                              __global const real *c, __global real *d
                                                  HB_DYNAMIC_LOCAL_ARG(real, sh))
{
    HB_DYNAMIC_LOCAL(real, sh);
    const hb_int lid = (hb_int)get_local_id(0);
    const hb_int S = (hb_int)get_local_size(0) / pper;
    const hb_int k = lid / pper, j = lid - k * pper;
    const hb_long t = (hb_long)get_group_id(0) * S + k;
    const int on = k < S; /* a work-item past S x pper (never launched) idles */
    const hb_long o = on && t < nslots ? base[t] : 0;
    const hb_int n = on && t < nslots ? (hb_int)rows[t] : 0;
    hb_int q = n / 2;
    if (q > pper)
        q = pper;
    if (q < 1)
        q = 1;
    const hb_int N = 2 * q, m = n / q, rem = n - q * m, split = rem * (m + 1);
    const hb_int W = pper * ld, kk = on ? k : 0;
    const hb_int sa = kk * W, sc = (S + kk) * W, sd = (2 * S + kk) * W;
    const hb_int L = j < q ? m + (j < rem ? 1 : 0) : 0;
    const hb_int lj = j * ld; /* this chunk's rows within an array */
    __global const real *A = a + o, *B = b + o, *C = c + o;
    __global real *D = d + o;

    /* 1. Load, each row over its diagonal, HB_COOPL_BATCH rows per
     * work-item at a time: their loads are all issued before the first
     * division waits on one (a loop that divides as it loads waits out a
     * memory latency per row, which small batches feel). */
    for (hb_int g0 = j; g0 < n; g0 += HB_COOPL_BATCH * pper) {
        real ra[HB_COOPL_BATCH], rb[HB_COOPL_BATCH], rc[HB_COOPL_BATCH], rd[HB_COOPL_BATCH];
        for (int u = 0; u < HB_COOPL_BATCH; ++u) {
            const hb_int g = g0 + u * pper;
            const int ok = g < n;
            ra[u] = ok ? A[g] : (real)0;
            rb[u] = ok ? B[g] : (real)1;
            rc[u] = ok ? C[g] : (real)0;
            rd[u] = ok ? D[g] : (real)0;
        }
        for (int u = 0; u < HB_COOPL_BATCH; ++u) {
            const hb_int g = g0 + u * pper;
            if (g < n) {
                const hb_int l = HB_COOPL_LOCAL_ROW(g);
                const real r = (real)1 / rb[u];
                sh[sa + l] = ra[u] * r;
                sh[sc + l] = rc[u] * r;
                sh[sd + l] = rd[u] * r;
            }
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    /* 2. Forward. Row 0 is kept as x_0 (a0, c0, d0); row 1 starts from
     * ap = -1, cp = dp = 0, which gives a'_1 = a_1. */
    real a0 = (real)0, c0 = (real)0, d0 = (real)0;
    real ap = (real)-1, cp = (real)0, dp = (real)0;
    if (L >= 1) {
        a0 = sh[sa + lj];
        c0 = sh[sc + lj];
        d0 = sh[sd + lj];
    }
    for (hb_int i = 1; i < L; ++i) {
        const hb_int l = lj + i;
        const real ak = sh[sa + l];
        const real r = (real)1 / ((real)1 - ak * cp);
        ap = -ak * ap * r;
        cp = sh[sc + l] * r;
        dp = (sh[sd + l] - ak * dp) * r;
        sh[sa + l] = ap;
        sh[sc + l] = cp;
        sh[sd + l] = dp;
    }

    /* 3. Backward over rows L-2 .. 1: x_1 = d2 - a2 x_0 - c2 x_{L-1}
     * (starting from a2 = d2 = 0, c2 = -1 at row L-1). */
    real a2 = (real)0, c2 = (real)-1, d2 = (real)0;
    for (hb_int i = L - 2; i >= 1; --i) {
        const hb_int l = lj + i;
        const real ci = sh[sc + l];
        a2 = sh[sa + l] - ci * a2;
        c2 = -ci * c2;
        d2 = sh[sd + l] - ci * d2;
    }
    /* The chunk's two reduced rows, into slots only this work-item used. */
    if (n > 0 && j < q) {
        real ra0 = (real)0, rc0 = (real)0, rd0 = d0, ra1 = (real)0, rc1 = (real)0, rd1 = d0;
        if (L >= 2) {
            /* The first row with x_1 = d2 - a2 x_first - c2 x_last put in. */
            const real r = (real)1 / ((real)1 - c0 * a2);
            ra0 = j == 0 ? (real)0 : a0 * r;
            rc0 = -c0 * c2 * r;
            rd0 = (d0 - c0 * d2) * r;
            /* The last row: a' x_first + x_last + c' x_{next first} = d'. */
            ra1 = ap;
            rc1 = j == q - 1 ? (real)0 : cp;
            rd1 = dp;
        } /* else n <= 1: both reduced rows are the one row (or identity rows) */
        sh[HB_COOPL_RA(2 * j)] = ra0;
        sh[HB_COOPL_RC(2 * j)] = rc0;
        sh[HB_COOPL_RD(2 * j)] = rd0;
        sh[HB_COOPL_RA(2 * j + 1)] = ra1;
        sh[HB_COOPL_RC(2 * j + 1)] = rc1;
        sh[HB_COOPL_RD(2 * j + 1)] = rd1;
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    /* 4. Cyclic reduction of the reduced system (N = 2q rows, unit
     * diagonal). Forward, step s = 1, 2, 4, ...: the rows I = 2s-1 mod 2s
     * eliminate their neighbours I - s and I + s (one PCR row each, in
     * place: the rows a step reads are never the rows it writes), leaving
     * couplings to I - 2s and I + 2s; a row with neither neighbour is then
     * solved (x in its d). Backward, s from the last step down: the rows I =
     * s-1 mod 2s take x_I = d_I - a_I x_{I-s} - c_I x_{I+s} from rows solved
     * before. About 3N row updates where PCR makes N log2(N): the reduced
     * system's traffic was half of the local memory's (256,000 x 512 double,
     * Nsight Compute), and local memory bounds a full device. Work-item j
     * takes the step's row j; the step counts are the group's (2 pper rows at
     * most), uniform. */
    hb_int top = 1;
    for (hb_int s = 1; s < 2 * pper; s *= 2) {
        const hb_int I = 2 * s * j + 2 * s - 1;
        if (n > 0 && I < N) {
            real na, nc, nd;
            HB_COOPL_PCR_ROW(I, na, nc, nd);
            sh[HB_COOPL_RA(I)] = na;
            sh[HB_COOPL_RC(I)] = nc;
            sh[HB_COOPL_RD(I)] = nd;
        }
        top = s;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    for (hb_int s = top; s >= 1; s /= 2) {
        const hb_int I = 2 * s * j + s - 1;
        if (n > 0 && I < N) {
            real x = sh[HB_COOPL_RD(I)];
            if (I - s >= 0)
                x -= sh[HB_COOPL_RA(I)] * sh[HB_COOPL_RD(I - s)];
            if (I + s < N)
                x -= sh[HB_COOPL_RC(I)] * sh[HB_COOPL_RD(I + s)];
            sh[HB_COOPL_RD(I)] = x;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    /* 5. Back-substitution over this chunk (its end rows from the reduced
     * solution, whose slots are rows 0 and L-1, written last), then the
     * store. */
    if (L >= 1) {
        const real xf = sh[HB_COOPL_RD(2 * j)], xl = sh[HB_COOPL_RD(2 * j + 1)];
        real xn = xl;
        for (hb_int i = L - 2; i >= 1; --i) {
            const hb_int l = lj + i;
            xn = sh[sd + l] - sh[sa + l] * xf - sh[sc + l] * xn;
            sh[sd + l] = xn;
        }
        sh[sd + lj + L - 1] = xl;
        sh[sd + lj] = xf;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (hb_int g = j; g < n; g += pper)
        D[g] = sh[sd + HB_COOPL_LOCAL_ROW(g)];
}
