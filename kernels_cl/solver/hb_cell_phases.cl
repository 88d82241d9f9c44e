/* hb_cell_phases.cl: the cell-group Hines elimination and back-substitution in local memory, as macros shared by the cell-group solver (solver/hines_cell.cl) and the simulation's on-chip epoch (sim/epoch.cl). */
#ifndef HB_CELL_PHASES_CL
#define HB_CELL_PHASES_CL

/* Indices of a schedule's header: must match HB_CELL_* in
 * api/core/hb_backend.h (the schedule's layout is described there). */
#define HB_CELL_K_NE 1
#define HB_CELL_K_NB 2
#define HB_CELL_K_EORDER 3
#define HB_CELL_K_EFIRST 4
#define HB_CELL_K_ECS 5
#define HB_CELL_K_CIDX 6
#define HB_CELL_K_BPTR 7
#define HB_CELL_K_BORDER 8
#define HB_CELL_K_BPAR 9
#define HB_CELL_K_HDR 10

/* Macros, not functions: the phases work on the local array sh, and CUDA's
 * __shared__ cannot qualify a pointer (arrays are offsets into sh). They read
 * the caller's variables: sh (reals: u at 0, l at oL, d at oD, rhs at oR),
 * j and P (work-item, group size), valid (this group has a cell); SI is the
 * schedule (int32): the copy staged in local memory where it fits (each
 * level then waits on local memory only), else the global one (read through
 * the cache: one schedule serves every copy of a cell). */

/* The schedule's level counts and table offsets into si, read once after
 * the staging barrier. */
#define HB_CELL_TABLES(SI)                                                                   \
    const hb_int ne = valid ? SI[HB_CELL_K_NE] : 0;                                        \
    const hb_int nb = valid ? SI[HB_CELL_K_NB] : 0;                                        \
    const hb_int xEP = HB_CELL_K_HDR, xEO = valid ? SI[HB_CELL_K_EORDER] : 0;              \
    const hb_int xEF = valid ? SI[HB_CELL_K_EFIRST] : 0, xEC = valid ? SI[HB_CELL_K_ECS] : 0; \
    const hb_int xCI = valid ? SI[HB_CELL_K_CIDX] : 0, xBP = valid ? SI[HB_CELL_K_BPTR] : 0; \
    const hb_int xBO = valid ? SI[HB_CELL_K_BORDER] : 0, xBA = valid ? SI[HB_CELL_K_BPAR] : 0

/* One Hines solve of the staged cell; x ends in the rhs array; u and l are
 * kept (so a cell staged once can be solved again with a new d and rhs).
 * Starts and ends at a barrier's state: the caller's writes to d and rhs
 * must be behind a barrier, and the last level's barrier covers x.
 * Elimination, level by level by node height: each entry's work-item
 * gathers the updates of its node p's children in the order the serial
 * sweep applies them (highest child first); no two work-items write one
 * node. One reciprocal 1/d'_c per child gives the back-substitution factors
 * r'_c/d'_c and l_c/d'_c by products. EXACT (a constant) chooses the factor
 * u_c/d'_c on the critical path: 1 divides, so d' and r' round as the serial
 * sweep's (the solver: its results stay within the oracle tests' normwise
 * bounds on the shipped neurons' matrices); 0 multiplies by the reciprocal,
 * one division less per level (the simulation's on-chip engine, checked on
 * traces: 25% faster on the H100, docs/benchmarks/h100-2026-11-24-sim). A child c is
 * final then, and read by p's work-item alone, which also stores what
 * back-substitution needs in c's own d and rhs slots (dead from then on):
 * r'_c / d'_c in rhs, l_c / d'_c in d. The root is alone in the last level; its
 * work-item also solves x_0. A work-item's next entry (and the next level's
 * bounds) are read before the barrier.
 * Back-substitution, level by level by depth: x_i = r'_i/d'_i - (l_i/d'_i)
 * x_parent, one multiply-add per level instead of the serial sweep's
 * (r'_i - l_i x_parent) / d'_i (a dependent division per level): the same
 * solution up to rounding. */
#define HB_CELL_SOLVE(SI, EXACT)                                                                     \
    do {                                                                                    \
        hb_int hb_lo = 0, hb_hi = ne > 0 ? SI[xEP + 1] : 0;                                 \
        hb_int hb_q = j, hb_p = 0, hb_c0 = 0, hb_cb = 0, hb_ce = 0;                         \
        if (hb_q < hb_hi) {                                                                 \
            hb_p = SI[xEO + hb_q];                                                          \
            hb_c0 = SI[xEF + hb_q];                                                         \
            hb_cb = SI[xEC + hb_q];                                                         \
            hb_ce = SI[xEC + hb_q + 1];                                                     \
        }                                                                                   \
        for (hb_int hb_e = 0; hb_e < ne; ++hb_e) {                                          \
            const hb_int hb_nhi = hb_e + 2 <= ne ? SI[xEP + hb_e + 2] : hb_hi;              \
            while (hb_q < hb_hi) {                                                          \
                real hb_dp = sh[oD + hb_p], hb_rp = sh[oR + hb_p];                          \
                for (hb_int hb_m = hb_cb; hb_m < hb_ce; ++hb_m) {                           \
                    const hb_int hb_c = hb_m == hb_cb ? hb_c0 : SI[xCI + hb_m];             \
                    const real hb_dc = sh[oD + hb_c], hb_rc = sh[oR + hb_c];                \
                    const real hb_lc = sh[oL + hb_c];                                       \
                    const real hb_inv = (real)1 / hb_dc;                                    \
                    const real hb_f = (EXACT) ? sh[hb_c] / hb_dc : sh[hb_c] * hb_inv;       \
                    hb_dp -= hb_f * hb_lc;                                                  \
                    hb_rp -= hb_f * hb_rc;                                                  \
                    sh[oR + hb_c] = hb_rc * hb_inv;                                         \
                    sh[oD + hb_c] = hb_lc * hb_inv;                                         \
                }                                                                           \
                if (hb_p == 0)                                                              \
                    hb_rp = hb_rp / hb_dp;                                                  \
                sh[oD + hb_p] = hb_dp;                                                      \
                sh[oR + hb_p] = hb_rp;                                                      \
                hb_q += P;                                                                  \
                if (hb_q < hb_hi) {                                                         \
                    hb_p = SI[xEO + hb_q];                                                  \
                    hb_c0 = SI[xEF + hb_q];                                                 \
                    hb_cb = SI[xEC + hb_q];                                                 \
                    hb_ce = SI[xEC + hb_q + 1];                                             \
                }                                                                           \
            }                                                                               \
            hb_lo = hb_hi;                                                                  \
            hb_hi = hb_nhi;                                                                 \
            hb_q = hb_lo + j;                                                               \
            if (hb_q < hb_hi) {                                                             \
                hb_p = SI[xEO + hb_q];                                                      \
                hb_c0 = SI[xEF + hb_q];                                                     \
                hb_cb = SI[xEC + hb_q];                                                     \
                hb_ce = SI[xEC + hb_q + 1];                                                 \
            }                                                                               \
            barrier(CLK_LOCAL_MEM_FENCE);                                                   \
        }                                                                                   \
        /* Back-substitution by depth from the root's children. */                         \
        hb_hi = nb > 0 ? SI[xBP + 1] : 0;                                                   \
        hb_q = j;                                                                           \
        hb_int hb_i = 0, hb_pa = 0;                                                         \
        if (hb_q < hb_hi) {                                                                 \
            hb_i = SI[xBO + hb_q];                                                          \
            hb_pa = SI[xBA + hb_q];                                                         \
        }                                                                                   \
        for (hb_int hb_b = 0; hb_b < nb; ++hb_b) {                                          \
            const hb_int hb_nhi = hb_b + 2 <= nb ? SI[xBP + hb_b + 2] : hb_hi;              \
            while (hb_q < hb_hi) {                                                          \
                sh[oR + hb_i] = sh[oR + hb_i] - sh[oD + hb_i] * sh[oR + hb_pa];             \
                hb_q += P;                                                                  \
                if (hb_q < hb_hi) {                                                         \
                    hb_i = SI[xBO + hb_q];                                                  \
                    hb_pa = SI[xBA + hb_q];                                                 \
                }                                                                           \
            }                                                                               \
            hb_lo = hb_hi;                                                                  \
            hb_hi = hb_nhi;                                                                 \
            hb_q = hb_lo + j;                                                               \
            if (hb_q < hb_hi) {                                                             \
                hb_i = SI[xBO + hb_q];                                                      \
                hb_pa = SI[xBA + hb_q];                                                     \
            }                                                                               \
            barrier(CLK_LOCAL_MEM_FENCE);                                                   \
        }                                                                                   \
    } while (0)

#endif
