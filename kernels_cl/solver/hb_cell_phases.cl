/* hb_cell_phases.cl: the cell-group Hines elimination, trunk PCR and back-substitution in local memory, as macros shared by the cell-group solver (solver/hines_cell.cl) and the simulation's on-chip epoch (sim/epoch.cl); they use hb_coop_phases.cl's HB_PCR_ROW, which their includers include. */
#ifndef HB_CELL_PHASES_CL
#define HB_CELL_PHASES_CL

/* Indices of a schedule's header: must match HB_CELL_* in
 * api/core/hb_backend.h (the schedule's layout is described there). */
#define HB_CELL_K_NE 1
#define HB_CELL_K_NC 2
#define HB_CELL_K_EORDER 3
#define HB_CELL_K_EFIRST 4
#define HB_CELL_K_ECS 5
#define HB_CELL_K_CIDX 6
#define HB_CELL_K_CPTR 7
#define HB_CELL_K_CPAR 8
#define HB_CELL_K_NT 9
#define HB_CELL_K_CONTIG 10
#define HB_CELL_K_HDR 11
/* The longest trunk solved by PCR: HB_CELL_TRUNK_MAX in hb_backend.h. Its
 * rows live in two copies of three arrays (sub-diagonal, super-diagonal,
 * right-hand side, over a unit diagonal) after rhs's array: a PCR step reads
 * one copy and writes the other, so one barrier per step. */
#define HB_CELL_K_TRUNK_MAX 64
#define HB_CELL_K_TRUNK_REALS (6 * HB_CELL_K_TRUNK_MAX)

/* Macros, not functions: the phases work on the local array sh, and CUDA's
 * __shared__ cannot qualify a pointer (arrays are offsets into sh). They read
 * the caller's variables: sh (reals: u at 0 where staged, l at oL, d at oD,
 * rhs at oR),
 * j and P (work-item, group size), valid (this group has a cell); SI is the
 * schedule (int32): the copy staged in local memory where it fits (each
 * level then waits on local memory only), else the global one (read through
 * the cache: one schedule serves every copy of a cell). */

/* The cell of this work-group in a cell-group launch (solver/hines_cell.cl,
 * sim/epoch.cl; no early return: every work-item must reach every barrier,
 * and a launch has exactly ngroups groups): slot t = cslots[first + g], its
 * first row o in the plan's arrays, its nr rows, its schedule S and that
 * schedule's words slen (its last table, bpar, has a row per node off the
 * trunk). The arrays are offsets into sh, not __local pointers (CUDA's
 * __shared__ cannot qualify a pointer variable): u at 0, l at oL, d at oD,
 * rhs at oR, the trunk's PCR rows at oT (TR reals: HB_CELL_K_TRUNK_REALS
 * where the solve runs PCR, else 0); the staged schedule si is an int32
 * view after them. SYM (a constant) 1: the matrix is symmetric (l = u, the
 * simulation's: both are minus the axial conductances), so l is u's array
 * (oL = 0) and the cell takes one array of rows less. ULOC 0: u is not in sh
 * at all (the epoch reads it from global memory, one copy shared by every
 * copy of a cell: SYM only), and d starts at 0. Reads the kernel's
 * arguments ngroups, first, ld, cslots, base, rows, soff and sched. */
#define HB_CELL_GROUP(TR, SYM, ULOC)                                                        \
    const hb_long g = (hb_long)get_group_id(0);                                             \
    const int valid = g < ngroups;                                                          \
    const hb_long t = valid ? cslots[first + g] : 0;                                        \
    const hb_int j = (hb_int)get_local_id(0), P = (hb_int)get_local_size(0);                \
    const hb_long o = valid ? base[t] : 0;                                                  \
    __global const hb_int *S = sched + (valid ? soff[t] : 0);                               \
    const hb_int nr = valid ? (hb_int)rows[t] : 0;                                          \
    const hb_int slen = valid ? S[HB_CELL_K_CPAR] + S[HB_CELL_K_NC] : 0;                    \
    const hb_int oL = (SYM) ? 0 : (hb_int)ld, oD = (ULOC) ? oL + (hb_int)ld : 0;            \
    const hb_int oR = oD + (hb_int)ld;                                                      \
    const hb_int oT = oR + (hb_int)ld;                                                      \
    HB_LOCAL_VIEW(hb_int, si, sh, (hb_long)oT + (TR))

/* Stages u and l (the global arrays U and L from row o; l only where it
 * has an array of its own) and, when staged, the schedule; coalesced:
 * consecutive work-items on consecutive rows and words. The caller puts a
 * barrier before their first use. (The solver's kernels copy with
 * HB_GROUP_COPY instead, solver/hines_cell.cl.) */
#define HB_CELL_STAGE(U, L)                                                                 \
    do {                                                                                    \
        for (hb_int hb_k = j; hb_k < nr; hb_k += P) {                                       \
            sh[hb_k] = (U)[o + hb_k];                                                       \
            if (oL != 0)                                                                    \
                sh[oL + hb_k] = (L)[o + hb_k];                                              \
        }                                                                                   \
        for (hb_int hb_k = j; staged && hb_k < slen; hb_k += P)                             \
            si[hb_k] = S[hb_k];                                                             \
    } while (0)

/* The couplings as the solve reads them: UA(i) is u_i and LA(i) is l_i.
 * HB_CELL_US and HB_CELL_LS read the staged copies in sh; the epoch passes
 * its own reading u (= l) from global memory where it does not stage it. */
#define HB_CELL_US(i) sh[(i)]
#define HB_CELL_LS(i) sh[oL + (i)]

/* The schedule's level and chain counts and table offsets into si, read
 * once after the staging barrier; the trunk's nt entries start at entry
 * xET. STEP (a constant) 1: where the schedule's chains are consecutive
 * rows (ctg), the walks step to the next row with no table load (the
 * simulation's epoch: 10,000 CA1 cells in double 3.16-3.19e10
 * compartment-steps/s against 2.96-2.98e10 on an H200); 0: they load it
 * (the solver, whose 2,560 CA1 cells in double took 0.138 ms stepping
 * against 0.119-0.122 loading, and in float 0.098 against 0.102-0.103;
 * docs/benchmarks/h200-2026-11-30-chains, call 4). */
#define HB_CELL_TABLES(SI, STEP)                                                             \
    const hb_int ne = valid ? SI[HB_CELL_K_NE] : 0;                                        \
    const hb_int nc = valid ? SI[HB_CELL_K_NC] : 0;                                        \
    const hb_int xEP = HB_CELL_K_HDR, xEO = valid ? SI[HB_CELL_K_EORDER] : 0;              \
    const hb_int xEF = valid ? SI[HB_CELL_K_EFIRST] : 0, xEC = valid ? SI[HB_CELL_K_ECS] : 0; \
    const hb_int xCI = valid ? SI[HB_CELL_K_CIDX] : 0, xCP = valid ? SI[HB_CELL_K_CPTR] : 0; \
    const hb_int xCA = valid ? SI[HB_CELL_K_CPAR] : 0;                                     \
    const int ctg = (STEP) && valid && SI[HB_CELL_K_CONTIG];                               \
    const hb_int nt = valid ? SI[HB_CELL_K_NT] : 0, xET = valid ? SI[xCP + nc] : 0

/* A work-item's entry hb_q: node, first child, its children's range. */
#define HB_CELL_E_FETCH(SI)                                                                 \
    do {                                                                                    \
        hb_p = SI[xEO + hb_q];                                                              \
        hb_c0 = SI[xEF + hb_q];                                                             \
        hb_cb = SI[xEC + hb_q];                                                             \
        hb_ce = SI[xEC + hb_q + 1];                                                         \
    } while (0)

/* The elimination factor U / D, where INV is 1 / D: EXACT 1 divides
 * (correctly rounded, a second Newton sequence beside the reciprocal's); 2
 * corrects U x INV by one residual step, U - f D exact through fma: the
 * correctly rounded quotient in all but rare ties, in three dependent
 * operations after the reciprocal; 0 takes U x INV (within about 1.5 ulp). */
#define HB_CELL_FACTOR(EXACT, U, D, INV)                                                    \
    ((EXACT) == 1   ? (U) / (D)                                                             \
     : (EXACT) == 2 ? fma(fma(-(U) * (INV), (D), (U)), (INV), (U) * (INV))                  \
                    : (U) * (INV))

/* Eliminates child hb_c (its d' hb_dc, r' hb_rc, v hb_vc, couplings hb_lc
 * and hb_uc: the caller's variables) into its parent's hb_dp and hb_rp
 * (hb_vp the parent's v where VOFF). The child is final then, and read by
 * the parent's work-item alone, which also stores what back-substitution
 * needs in the child's own d and rhs slots (dead from then on): r'_c / d'_c
 * in rhs, l_c / d'_c in d, from one reciprocal 1/d'_c. EXACT (a constant)
 * chooses the factor u_c/d'_c on the critical path (HB_CELL_FACTOR): 1
 * divides and 2 corrects the reciprocal's product by one fma step, so d'
 * and r' round as the serial sweep's (the solver takes 2: its results stay
 * within the oracle tests' normwise bounds on the shipped neurons'
 * matrices, and 256 CA1 cells solve 7-20% faster than dividing, on an
 * H200, docs/benchmarks/h200-2026-12-01-cellug); 0 multiplies by the
 * reciprocal alone (the
 * simulation's on-chip engine, checked on traces: 25% faster on the H100,
 * docs/benchmarks/h100-2026-11-24-sim). VOFF (a constant 0: none) is where
 * the simulation's epoch keeps v in sh: the edge's axial current then joins
 * its two rows' rhs as the edge is eliminated (the step for dv:
 * hb_sim_assemble in kernels_cl/sim/membrane.cl; the assembly leaves rhs =
 * -I): the child's l_c (v_c - v_p) and the parent's -u_c (v_c - v_p), with
 * no table or global load (u_c = l_c = -g_c, staged or cached). */
#define HB_CELL_ELIM_ONE(EXACT, VOFF)                                                       \
    do {                                                                                    \
        if (VOFF) {                                                                         \
            const real hb_dv = hb_vc - hb_vp;                                               \
            hb_rc = hb_rc + hb_lc * hb_dv;                                                  \
            hb_rp = hb_rp - hb_uc * hb_dv;                                                  \
        }                                                                                   \
        const real hb_inv = (real)1 / hb_dc;                                                \
        const real hb_f = HB_CELL_FACTOR(EXACT, hb_uc, hb_dc, hb_inv);                      \
        hb_dp -= hb_f * hb_lc;                                                              \
        hb_rp -= hb_f * hb_rc;                                                              \
        sh[oR + hb_c] = hb_rc * hb_inv;                                                     \
        sh[oD + hb_c] = hb_lc * hb_inv;                                                     \
    } while (0)

/* The children hb_cb .. hb_ce of entry node hb_p (hb_c0 the first), final
 * in sh, gathered into the caller's hb_dp and hb_rp in the order the serial
 * sweep applies them (highest child first) by HB_CELL_ELIM_ONE. UA and LA
 * read u and l. */
#define HB_CELL_GATHER(SI, EXACT, VOFF, UA, LA)                                             \
    do {                                                                                    \
        for (hb_int hb_m = hb_cb; hb_m < hb_ce; ++hb_m) {                                   \
            const hb_int hb_c = hb_m == hb_cb ? hb_c0 : SI[xCI + hb_m];                     \
            const real hb_dc = sh[oD + hb_c], hb_lc = LA(hb_c), hb_uc = UA(hb_c);           \
            const real hb_vc = (VOFF) ? sh[(VOFF) + hb_c] : (real)0;                        \
            real hb_rc = sh[oR + hb_c];                                                     \
            HB_CELL_ELIM_ONE(EXACT, VOFF);                                                  \
        }                                                                                   \
    } while (0)

/* Eliminates chain hb_k (hb_backend.h) by one work-item, from its bottom up
 * (the caller's hb_q, hb_p, hb_c0, hb_cb and hb_ce its scratch),
 * leaving its top's d' and r' in sh: the bottom gathers its children from sh
 * (HB_CELL_GATHER), each node after it its one child, the node before, whose
 * d', r' and v stay in registers. The next node's index and the child's
 * couplings are read a node ahead: they do not wait on the arithmetic. The
 * first node's reads are written out again in the loop: as shared macros
 * they cost the main job 3% on an H200 (1.33-1.35e10 against 1.37-1.38e10,
 * docs/benchmarks/h200-2026-11-30-ompcache, call 6). */
#define HB_CELL_CHAIN_ELIM(SI, EXACT, VOFF, UA, LA)                                         \
    do {                                                                                    \
        hb_q = SI[xCP + hb_k];                                                              \
        const hb_int hb_qe = SI[xCP + hb_k + 1];                                            \
        HB_CELL_E_FETCH(SI);                                                                \
        hb_int hb_pn = hb_q + 1 < hb_qe ? (ctg ? hb_p - 1 : SI[xEO + hb_q + 1]) : 0;        \
        real hb_un = UA(hb_p), hb_ln = LA(hb_p);                                            \
        real hb_dp = sh[oD + hb_p], hb_rp = sh[oR + hb_p];                                  \
        real hb_vp = (VOFF) ? sh[(VOFF) + hb_p] : (real)0;                                  \
        HB_CELL_GATHER(SI, EXACT, VOFF, UA, LA);                                            \
        for (++hb_q; hb_q < hb_qe; ++hb_q) {                                                \
            const hb_int hb_c = hb_p;                                                       \
            const real hb_dc = hb_dp, hb_vc = hb_vp, hb_uc = hb_un, hb_lc = hb_ln;          \
            real hb_rc = hb_rp;                                                             \
            hb_p = hb_pn;                                                                   \
            hb_pn = hb_q + 1 < hb_qe ? (ctg ? hb_p - 1 : SI[xEO + hb_q + 1]) : 0;           \
            hb_dp = sh[oD + hb_p];                                                          \
            hb_rp = sh[oR + hb_p];                                                          \
            hb_vp = (VOFF) ? sh[(VOFF) + hb_p] : (real)0;                                   \
            hb_un = UA(hb_p);                                                               \
            hb_ln = LA(hb_p);                                                               \
            HB_CELL_ELIM_ONE(EXACT, VOFF);                                                  \
        }                                                                                   \
        sh[oD + hb_p] = hb_dp;                                                              \
        sh[oR + hb_p] = hb_rp;                                                              \
    } while (0)

/* Trunk row i's PCR values in copy F (0 or 3 x HB_CELL_K_TRUNK_MAX) at oT:
 * sub-diagonal (the edge to its parent, row i - 1), super-diagonal (to its
 * trunk child, row i + 1) and right-hand side, over a unit diagonal. */
#define HB_CELL_TA(F, i) (oT + (F) + (i))
#define HB_CELL_TC(F, i) (oT + (F) + HB_CELL_K_TRUNK_MAX + (i))
#define HB_CELL_TD(F, i) (oT + (F) + 2 * HB_CELL_K_TRUNK_MAX + (i))
#define HB_CELL_TA0(i) HB_CELL_TA(hb_from, i)
#define HB_CELL_TC0(i) HB_CELL_TC(hb_from, i)
#define HB_CELL_TD0(i) HB_CELL_TD(hb_from, i)

/* One Hines solve of the staged cell; x ends in the rhs array; u and l are
 * kept (so a cell staged once can be solved again with a new d and rhs).
 * Starts and ends at a barrier's state: the caller's writes to d and rhs
 * must be behind a barrier, and the last barrier covers x.
 * 1. Elimination of the nodes off the trunk, chain level by chain level:
 *    each chain's work-item walks it from its bottom up (HB_CELL_CHAIN_ELIM);
 *    no two work-items write one node, and a chain's nodes need no barrier
 *    between them (the CA1 cell: 9 levels where node heights took 38).
 * 2. The trunk (the path from the root down which each height holds one
 *    node, hb_backend.h): each of its rows gathers its children off it and
 *    takes its trunk edges' axial currents; with nothing else left below
 *    them the trunk's rows are a tridiagonal system, where levels would
 *    take nt steps each way (the CA1 cell: 44 trunk nodes of its 82
 *    levels). PCR (a constant) 1 solves it by PCR in log2(nt) steps, its x
 *    into rhs at the last step: the simulation's epoch, whose traces stay
 *    within the oracle's and NEURON's bounds. PCR 0 runs the serial sweep
 *    along it in one work-item, with no barrier between rows: the solver,
 *    backward stable for any matrix, where PCR's residual grows as 1 /
 *    (the rows' diagonal margin): 200-700 x the serial sweep's on a
 *    steady-state cable (test_morph_cable).
 * 3. Back-substitution of the nodes off the trunk, chain level by chain
 *    level from the highest, each chain from its top down: x_i = r'_i/d'_i -
 *    (l_i/d'_i) x_parent, one multiply-add per node instead of the serial
 *    sweep's (r'_i - l_i x_parent) / d'_i (a dependent division per node):
 *    the same solution up to rounding.
 * A barrier closes each level and step. */
#define HB_CELL_SOLVE(SI, EXACT, VOFF, PCR, UA, LA)                                         \
    do {                                                                                    \
        hb_int hb_q = 0, hb_p = 0, hb_c0 = 0, hb_cb = 0, hb_ce = 0;                         \
        for (hb_int hb_e = 0; hb_e < ne; ++hb_e) {                                          \
            const hb_int hb_k1 = SI[xEP + hb_e + 1];                                        \
            for (hb_int hb_k = SI[xEP + hb_e] + j; hb_k < hb_k1; hb_k += P)                 \
                HB_CELL_CHAIN_ELIM(SI, EXACT, VOFF, UA, LA);                                \
            barrier(CLK_LOCAL_MEM_FENCE);                                                   \
        }                                                                                   \
        /* The trunk's rows, from the root (row 0) down. */                                 \
        for (hb_int hb_t = j; hb_t < nt; hb_t += P) {                                       \
            hb_q = xET + hb_t;                                                              \
            HB_CELL_E_FETCH(SI);                                                            \
            real hb_dp = sh[oD + hb_p], hb_rp = sh[oR + hb_p];                              \
            const real hb_vp = (VOFF) ? sh[(VOFF) + hb_p] : (real)0;                        \
            HB_CELL_GATHER(SI, EXACT, VOFF, UA, LA);                                        \
            real hb_ta = (real)0, hb_tc = (real)0;                                          \
            if (hb_t > 0) {                                                                 \
                hb_ta = LA(hb_p);                                                           \
                if (VOFF)                                                                   \
                    hb_rp = hb_rp + hb_ta * (hb_vp - sh[(VOFF) + SI[xEO + hb_q - 1]]);      \
            }                                                                               \
            if (hb_t + 1 < nt) {                                                            \
                const hb_int hb_k = SI[xEO + hb_q + 1];                                     \
                hb_tc = UA(hb_k);                                                           \
                if (VOFF)                                                                   \
                    hb_rp = hb_rp - hb_tc * (sh[(VOFF) + hb_k] - hb_vp);                    \
            }                                                                               \
            if (PCR) {                                                                      \
                const real hb_inv = (real)1 / hb_dp;                                        \
                sh[HB_CELL_TA(0, hb_t)] = hb_ta * hb_inv;                                   \
                sh[HB_CELL_TC(0, hb_t)] = hb_tc * hb_inv;                                   \
                sh[HB_CELL_TD(0, hb_t)] = hb_rp * hb_inv;                                   \
                if (nt == 1)                                                                \
                    sh[oR + hb_p] = hb_rp / hb_dp;                                          \
            } else {                                                                        \
                sh[oD + hb_p] = hb_dp;                                                      \
                sh[oR + hb_p] = hb_rp;                                                      \
            }                                                                               \
        }                                                                                   \
        barrier(CLK_LOCAL_MEM_FENCE);                                                       \
        if (!(PCR)) {                                                                       \
            /* The serial sweep along the trunk by one work-item, from its    \
             * deepest row up (d and r carried in registers), then down. */   \
            if (j == 0 && nt > 0) {                                                         \
                hb_int hb_k = SI[xEO + xET + nt - 1];                                       \
                real hb_dk = sh[oD + hb_k], hb_rk = sh[oR + hb_k];                          \
                for (hb_int hb_t = nt - 1; hb_t >= 1; --hb_t) {                             \
                    const hb_int hb_pk = SI[xEO + xET + hb_t - 1];                          \
                    const real hb_uk = UA(hb_k), hb_lk = LA(hb_k);                          \
                    const real hb_inv = (real)1 / hb_dk;                                    \
                    const real hb_f = HB_CELL_FACTOR(EXACT, hb_uk, hb_dk, hb_inv);          \
                    sh[oR + hb_k] = hb_rk * hb_inv;                                         \
                    sh[oD + hb_k] = hb_lk * hb_inv;                                         \
                    hb_dk = sh[oD + hb_pk] - hb_f * hb_lk;                                  \
                    hb_rk = sh[oR + hb_pk] - hb_f * hb_rk;                                  \
                    hb_k = hb_pk;                                                           \
                }                                                                           \
                real hb_x = hb_rk / hb_dk;                                                  \
                sh[oR + hb_k] = hb_x;                                                       \
                for (hb_int hb_t = 1; hb_t < nt; ++hb_t) {                                  \
                    hb_k = SI[xEO + xET + hb_t];                                            \
                    hb_x = sh[oR + hb_k] - sh[oD + hb_k] * hb_x;                            \
                    sh[oR + hb_k] = hb_x;                                                   \
                }                                                                           \
            }                                                                               \
            barrier(CLK_LOCAL_MEM_FENCE);                                                   \
        }                                                                                   \
        for (hb_int hb_s = 1, hb_from = 0; (PCR) && hb_s < nt;                              \
             hb_s *= 2, hb_from = 3 * HB_CELL_K_TRUNK_MAX - hb_from) {                        \
            const hb_int hb_to = 3 * HB_CELL_K_TRUNK_MAX - hb_from;                           \
            for (hb_int hb_t = j; hb_t < nt; hb_t += P) {                                   \
                real hb_na, hb_nc, hb_nd;                                                   \
                HB_PCR_ROW(hb_int, hb_t, hb_s, nt, HB_CELL_TA0, HB_CELL_TC0, HB_CELL_TD0,   \
                           hb_na, hb_nc, hb_nd);                                            \
                sh[HB_CELL_TA(hb_to, hb_t)] = hb_na;                                        \
                sh[HB_CELL_TC(hb_to, hb_t)] = hb_nc;                                        \
                sh[HB_CELL_TD(hb_to, hb_t)] = hb_nd;                                        \
                if (2 * hb_s >= nt)                                                         \
                    sh[oR + SI[xEO + xET + hb_t]] = hb_nd;                                   \
            }                                                                               \
            barrier(CLK_LOCAL_MEM_FENCE);                                                   \
        }                                                                                   \
        /* Back-substitution, chain levels from the highest: a chain's         \
         * work-item walks it from its top (its parent's x final behind the    \
         * last barrier) down, x in registers. */                              \
        for (hb_int hb_e = ne - 1; hb_e >= 0; --hb_e) {                                     \
            const hb_int hb_k1 = SI[xEP + hb_e + 1];                                        \
            for (hb_int hb_k = SI[xEP + hb_e] + j; hb_k < hb_k1; hb_k += P) {               \
                const hb_int hb_qb = SI[xCP + hb_k];                                        \
                hb_int hb_qi = SI[xCP + hb_k + 1] - 1;                                      \
                real hb_x = sh[oR + SI[xCA + hb_k]];                                        \
                hb_int hb_i = SI[xEO + hb_qi];                                              \
                for (; hb_qi >= hb_qb; --hb_qi) {                                           \
                    const hb_int hb_in =                                                    \
                        hb_qi > hb_qb ? (ctg ? hb_i + 1 : SI[xEO + hb_qi - 1]) : 0;          \
                    hb_x = sh[oR + hb_i] - sh[oD + hb_i] * hb_x;                            \
                    sh[oR + hb_i] = hb_x;                                                   \
                    hb_i = hb_in;                                                           \
                }                                                                           \
            }                                                                               \
            barrier(CLK_LOCAL_MEM_FENCE);                                                   \
        }                                                                                   \
    } while (0)

/* The solve from the staged schedule, the couplings read through US and
 * LS, or, where the schedule did not fit, the global schedule (the kernel's
 * argument staged) and the couplings through UG and LG (the same as US and
 * LS where the couplings stay staged); STEP as in HB_CELL_TABLES. */
#define HB_CELL_SOLVE_STAGED(EXACT, VOFF, PCR, STEP, US, LS, UG, LG)                        \
    do {                                                                                    \
        if (staged) {                                                                       \
            HB_CELL_TABLES(si, STEP);                                                       \
            HB_CELL_SOLVE(si, EXACT, VOFF, PCR, US, LS);                                    \
        } else {                                                                            \
            HB_CELL_TABLES(S, STEP);                                                        \
            HB_CELL_SOLVE(S, EXACT, VOFF, PCR, UG, LG);                                     \
        }                                                                                   \
    } while (0)

#endif
