/* hb_coop_phases.cl: the phases of the cooperative Thomas-PCR solver (staging, forward and backward reduction of chunks, reduced rows, PCR row, back-substitution) as macros shared by thomas_coop.cl and thomas_span.cl (the PCR row also by thomas_coop_local.cl). */
#ifndef HB_COOP_PHASES_CL
#define HB_COOP_PHASES_CL

/* Macros, not functions: OpenCL C 1.2 has no generic address space and the
 * phases work on both global arrays and the local array sh (CUDA's
 * __shared__ cannot qualify a pointer either, so local arrays are offsets
 * into sh). Each phase reads and assigns the caller's variables, named as in
 * hb_thomas_coop: j, P (work-item, group size), q, m, rem (chunks, rows per
 * chunk, chunks with one more), L (this chunk's rows), lj (its offset in a
 * staged array), nb (blocks), sa, sb, sc, sd (staged arrays in sh), A, B, C
 * (the system's coefficients), AW, CW (a', c' scratch), D (rhs in, x out). */

/* One PCR step for reduced row I of type IT (stride S, N rows, in the local
 * array sh): the new sub-diagonal, super-diagonal and right-hand side,
 * divided by the new diagonal, into NA, NC, ND. RA(i), RC(i), RD(i) give the
 * offsets in sh of row i's sub-diagonal, super-diagonal and right-hand side
 * (the staged kernel keeps them in three arrays, the resident one in slots
 * its chunks no longer need; the cell-group solve's trunk, hb_cell_phases.cl,
 * in two copies of three). */
#define HB_PCR_ROW(IT, I, S, N, RA, RC, RD, NA, NC, ND)                                     \
    do {                                                                                    \
        const IT hb_i = (I), hb_ps = (S), hb_pn = (N);                                      \
        const real hb_a = sh[RA(hb_i)], hb_c = sh[RC(hb_i)];                                \
        real hb_b = (real)1, hb_d = sh[RD(hb_i)], hb_an = (real)0, hb_cn = (real)0;         \
        if (hb_i - hb_ps >= 0) {                                                            \
            const IT hb_k = hb_i - hb_ps;                                                   \
            hb_b -= hb_a * sh[RC(hb_k)];                                                    \
            hb_d -= hb_a * sh[RD(hb_k)];                                                    \
            hb_an = -hb_a * sh[RA(hb_k)];                                                   \
        }                                                                                   \
        if (hb_i + hb_ps < hb_pn) {                                                         \
            const IT hb_k = hb_i + hb_ps;                                                   \
            hb_b -= hb_c * sh[RA(hb_k)];                                                    \
            hb_d -= hb_c * sh[RD(hb_k)];                                                    \
            hb_cn = -hb_c * sh[RC(hb_k)];                                                   \
        }                                                                                   \
        const real hb_r = (real)1 / hb_b;                                                   \
        (NA) = hb_an * hb_r;                                                                \
        (NC) = hb_cn * hb_r;                                                                \
        (ND) = hb_d * hb_r;                                                                 \
    } while (0)

/* The staged kernel's reduced system: three arrays in sh at oa, oc, od. */
#define HB_COOP_RA_(i) (oa + (i))
#define HB_COOP_RC_(i) (oc + (i))
#define HB_COOP_RD_(i) (od + (i))
#define HB_COOP_PCR_ROW(I, NA, NC, ND)                                                      \
    HB_PCR_ROW(hb_long, I, s, N, HB_COOP_RA_, HB_COOP_RC_, HB_COOP_RD_, NA, NC, ND)

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

/* 1. Forward (blocks ascending), into the caller's a0, c0, d0 (row 0 over
 * b0) and ap, cp, dp (the chunk's last row so far): every row i >= 1 as
 *   a'_i x_0 + x_i + c'_i x_{i+1} = d'_i     (x_0: the chunk's first row).
 * a', c', d' go to AW, CW, D except when KEEP is 0 and the chunk fits one
 * block (nb == 1): then they stay in local memory for phases 2 and 4. */
#define HB_COOP_FORWARD(KEEP)                                                               \
    do {                                                                                    \
        for (hb_long jb = 0; jb < nb; ++jb) {                                               \
            barrier(CLK_LOCAL_MEM_FENCE);                                                   \
            HB_COOP_LOAD(A, sa);                                                            \
            HB_COOP_LOAD(B, sb);                                                            \
            HB_COOP_LOAD(C, sc);                                                            \
            HB_COOP_LOAD(D, sd);                                                            \
            barrier(CLK_LOCAL_MEM_FENCE);                                                   \
            const hb_long hb_i0 = jb * HB_COOP_MB;                                          \
            hb_long hb_i1 = hb_i0 + HB_COOP_MB;                                             \
            if (hb_i1 > L)                                                                  \
                hb_i1 = L;                                                                  \
            for (hb_long hb_i = hb_i0; hb_i < hb_i1; ++hb_i) {                              \
                const hb_long l = lj + hb_i - hb_i0;                                        \
                const real hb_ak = sh[sa + l];                                              \
                if (hb_i == 0) {                                                            \
                    const real hb_r = (real)1 / sh[sb + l];                                 \
                    a0 = hb_ak * hb_r;                                                      \
                    c0 = sh[sc + l] * hb_r;                                                 \
                    d0 = sh[sd + l] * hb_r;                                                 \
                    sh[sd + l] = d0;                                                        \
                } else {                                                                    \
                    const real hb_r = (real)1 / (sh[sb + l] - hb_ak * cp);                  \
                    ap = -hb_ak * ap * hb_r;                                                \
                    cp = sh[sc + l] * hb_r;                                                 \
                    dp = (sh[sd + l] - hb_ak * dp) * hb_r;                                  \
                    sh[sa + l] = ap;                                                        \
                    sh[sc + l] = cp;                                                        \
                    sh[sd + l] = dp;                                                        \
                }                                                                           \
            }                                                                               \
            if (nb > 1 || (KEEP)) {                                                         \
                barrier(CLK_LOCAL_MEM_FENCE);                                               \
                HB_COOP_STORE(AW, sa);                                                      \
                HB_COOP_STORE(CW, sc);                                                      \
                HB_COOP_STORE(D, sd);                                                       \
            }                                                                               \
        }                                                                                   \
    } while (0)

/* 2. Backward (blocks descending; the last block is still in local memory),
 * over rows L-2 .. 1 into the caller's a2, c2, d2 (from 0, -1, 0):
 * x_1 = d2 - a2 x_0 - c2 x_{L-1}. Reads only. */
#define HB_COOP_BACKWARD()                                                                  \
    do {                                                                                    \
        for (hb_long jb = nb - 1; jb >= 0; --jb) {                                          \
            if (jb != nb - 1) {                                                             \
                barrier(CLK_LOCAL_MEM_FENCE);                                               \
                HB_COOP_LOAD(AW, sa);                                                       \
                HB_COOP_LOAD(CW, sc);                                                       \
                HB_COOP_LOAD(D, sd);                                                        \
            }                                                                               \
            barrier(CLK_LOCAL_MEM_FENCE);                                                   \
            const hb_long hb_i0 = jb * HB_COOP_MB;                                          \
            hb_long hb_i1 = hb_i0 + HB_COOP_MB;                                             \
            if (hb_i1 > L - 1)                                                              \
                hb_i1 = L - 1;                                                              \
            for (hb_long hb_i = hb_i1 - 1; hb_i >= hb_i0 && hb_i >= 1; --hb_i) {            \
                const hb_long l = lj + hb_i - hb_i0;                                        \
                const real hb_ci = sh[sc + l];                                              \
                a2 = sh[sa + l] - hb_ci * a2;                                               \
                c2 = -hb_ci * c2;                                                           \
                d2 = sh[sd + l] - hb_ci * d2;                                               \
            }                                                                               \
        }                                                                                   \
    } while (0)

/* The chunk's two rows of the reduced system (unit diagonal), at positions
 * 2j (first) and 2j + 1 (last) of arrays RA, RC, RD from offsets OA, OC, OD:
 * the last row a' x_first + x_last + c' x_{next first} = d', the first row
 * with x_1 = d2 - a2 x_first - c2 x_last put in. CUT_FIRST drops the first
 * row's coupling to the row before (the system's first chunk), CUT_LAST the
 * last row's to the row after. A one-row chunk (n = 1) gives two copies of
 * its row, coupled to nothing. */
#define HB_COOP_REDUCED_ROWS(RA, OA, RC, OC, RD, OD, CUT_FIRST, CUT_LAST)                   \
    do {                                                                                    \
        if (L == 1) {                                                                       \
            (RA)[(OA) + 2 * j] = (RA)[(OA) + 2 * j + 1] = (real)0;                          \
            (RC)[(OC) + 2 * j] = (RC)[(OC) + 2 * j + 1] = (real)0;                          \
            (RD)[(OD) + 2 * j] = (RD)[(OD) + 2 * j + 1] = d0;                               \
        } else if (L >= 2) {                                                                \
            (RA)[(OA) + 2 * j + 1] = ap;                                                    \
            (RC)[(OC) + 2 * j + 1] = (CUT_LAST) ? (real)0 : cp;                             \
            (RD)[(OD) + 2 * j + 1] = dp;                                                    \
            const real hb_r = (real)1 / ((real)1 - c0 * a2);                                \
            (RA)[(OA) + 2 * j] = (CUT_FIRST) ? (real)0 : a0 * hb_r;                         \
            (RC)[(OC) + 2 * j] = -c0 * c2 * hb_r;                                           \
            (RD)[(OD) + 2 * j] = (d0 - c0 * d2) * hb_r;                                     \
        }                                                                                   \
    } while (0)

/* 4. Back-substitution (blocks descending) from the chunk's solved end rows
 * XF, XL: x_i = d'_i - a'_i x_0 - c'_i x_{i+1}, written to D through local
 * memory. a', c', d' are read back from AW, CW, D unless KEEP is 0 and the
 * chunk fits one block (then they are still in local memory). */
#define HB_COOP_BACKSUB(KEEP, XF, XL)                                                       \
    do {                                                                                    \
        const real hb_xf = (XF), hb_xl = (XL);                                              \
        real hb_xn = hb_xl;                                                                 \
        for (hb_long jb = nb - 1; jb >= 0; --jb) {                                          \
            barrier(CLK_LOCAL_MEM_FENCE);                                                   \
            if (nb > 1 || (KEEP)) {                                                         \
                HB_COOP_LOAD(AW, sa);                                                       \
                HB_COOP_LOAD(CW, sc);                                                       \
                HB_COOP_LOAD(D, sd);                                                        \
                barrier(CLK_LOCAL_MEM_FENCE);                                               \
            }                                                                               \
            const hb_long hb_i0 = jb * HB_COOP_MB;                                          \
            hb_long hb_i1 = hb_i0 + HB_COOP_MB;                                             \
            if (hb_i1 > L)                                                                  \
                hb_i1 = L;                                                                  \
            for (hb_long hb_i = hb_i1 - 1; hb_i >= hb_i0; --hb_i) {                         \
                const hb_long l = lj + hb_i - hb_i0;                                        \
                real hb_x;                                                                  \
                if (hb_i == L - 1)                                                          \
                    hb_x = hb_xl;                                                           \
                else if (hb_i == 0)                                                         \
                    hb_x = hb_xf;                                                           \
                else                                                                        \
                    hb_x = sh[sd + l] - sh[sa + l] * hb_xf - sh[sc + l] * hb_xn;            \
                sh[sd + l] = hb_x;                                                          \
                hb_xn = hb_x;                                                               \
            }                                                                               \
            barrier(CLK_LOCAL_MEM_FENCE);                                                   \
            HB_COOP_STORE(D, sd);                                                           \
        }                                                                                   \
    } while (0)

#endif /* HB_COOP_PHASES_CL */
