/* hines_cell.cl: cell-group Hines solver: one work-group per cell in the flat layout, the cell's u, l, d and rhs in local memory, rows eliminated level by level from a plan-time schedule. */
#ifndef HB_PRELUDE_CL
#include "hb_prelude.cl"
#endif

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

/* Group g of a launch of ngroups solves the cell of slot t = cslots[first +
 * g] (rows base[t] .. base[t] + rows[t], stride 1) with its tree's schedule
 * at sched + soff[t]. Local memory: 4 arrays of ld reals (u, l, d, rhs; ld:
 * the largest cell of the launch), then the schedule, HB_CELL_SCHED_WORDS(ld)
 * int32 (hb_backend.h's HB_CELL_LOCAL_BYTES): staged once, so that a level
 * waits on local memory, not on global loads (each level's dependent global
 * loads cost ~0.7 us on an H100: 0.065 ms for 256 CA1 cells).
 * Elimination, level by level: each entry's work-item gathers the updates of
 * its node p's children in the order the serial sweep applies them (highest
 * child first), so d' and r' round exactly as the per-system sweep's; no two
 * work-items write one node. A child c is final then, and read by p's
 * work-item alone, which also stores what back-substitution needs in c's
 * dead slots: r'_c / d'_c in u's, l_c / d'_c in l's (divisions off the
 * critical path, beside the gather's own).
 * Back-substitution, level by level by depth: x_i = r'_i/d'_i - (l_i/d'_i)
 * x_parent, one multiply-add per level instead of the serial sweep's
 * (r'_i - l_i x_parent) / d'_i (a dependent division per level): the same
 * solution up to rounding.
 * d is read, never written: the caller's d stays as it was. */
__kernel void HB_KERNEL(hb_hines_cell)(const hb_long ngroups, const hb_long first,
                                       const hb_long ld, __global const hb_long *cslots,
                                       __global const hb_long *base,
                                       __global const hb_long *rows,
                                       __global const hb_long *soff,
                                       __global const hb_int *sched,
                                       __global const real *u, __global const real *l,
                                       __global const real *d, __global real *r
                                       HB_DYNAMIC_LOCAL_ARG(real, sh))
{
    HB_DYNAMIC_LOCAL(real, sh);
    /* No early return: every work-item must reach every barrier (PoCL's
     * work-group loops require it). The launch has exactly ngroups groups. */
    const hb_long g = (hb_long)get_group_id(0);
    const int valid = g < ngroups;
    const hb_long t = valid ? cslots[first + g] : 0;
    const hb_int j = (hb_int)get_local_id(0), P = (hb_int)get_local_size(0);
    const hb_long o = valid ? base[t] : 0;
    __global const hb_int *S = sched + (valid ? soff[t] : 0);
    const hb_int n = valid ? (hb_int)rows[t] : 0;
    /* The schedule's words: its last table, bpar, has n - 1. */
    const hb_int slen = valid ? S[HB_CELL_K_BPAR] + (n > 0 ? n - 1 : 0) : 0;
    /* The four arrays as offsets into sh, not __local pointers (CUDA's
     * __shared__ cannot qualify a pointer variable); the schedule after
     * them, as int32 (si, a view of the same local memory). */
    const hb_int oL = (hb_int)ld, oD = 2 * (hb_int)ld, oR = 3 * (hb_int)ld;
    HB_LOCAL_VIEW(hb_int, si, sh, 4 * ld);

    /* Coalesced: consecutive work-items on consecutive rows and words. */
    for (hb_int k = j; k < n; k += P) {
        sh[k] = u[o + k];
        sh[oL + k] = l[o + k];
        sh[oD + k] = d[o + k];
        sh[oR + k] = r[o + k];
    }
    for (hb_int k = j; k < slen; k += P)
        si[k] = S[k];
    barrier(CLK_LOCAL_MEM_FENCE);
    /* The tables' offsets into si (schedule layout: hb_backend.h). */
    const hb_int ne = valid ? si[HB_CELL_K_NE] : 0;
    const hb_int nb = valid ? si[HB_CELL_K_NB] : 0;
    const hb_int xEP = HB_CELL_K_HDR, xEO = valid ? si[HB_CELL_K_EORDER] : 0;
    const hb_int xEF = valid ? si[HB_CELL_K_EFIRST] : 0, xEC = valid ? si[HB_CELL_K_ECS] : 0;
    const hb_int xCI = valid ? si[HB_CELL_K_CIDX] : 0, xBP = valid ? si[HB_CELL_K_BPTR] : 0;
    const hb_int xBO = valid ? si[HB_CELL_K_BORDER] : 0, xBA = valid ? si[HB_CELL_K_BPAR] : 0;

    /* Elimination by height: a node's children are final before its level.
     * The root is alone in the last level; its work-item also solves x_0.
     * A work-item's next entry (and the next level's bounds) are read
     * before the barrier. */
    hb_int lo = 0, hi = ne > 0 ? si[xEP + 1] : 0;
    hb_int q = j, p = 0, c0 = 0, cbeg = 0, cend = 0;
    if (q < hi) {
        p = si[xEO + q];
        c0 = si[xEF + q];
        cbeg = si[xEC + q];
        cend = si[xEC + q + 1];
    }
    for (hb_int e = 0; e < ne; ++e) {
        const hb_int nhi = e + 2 <= ne ? si[xEP + e + 2] : hi;
        while (q < hi) {
            real dp = sh[oD + p], rp = sh[oR + p];
            for (hb_int m = cbeg; m < cend; ++m) {
                const hb_int c = m == cbeg ? c0 : si[xCI + m];
                const real dc = sh[oD + c], rc = sh[oR + c], lc = sh[oL + c];
                const real f = sh[c] / dc;
                dp -= f * lc;
                rp -= f * rc;
                sh[c] = rc / dc;
                sh[oL + c] = lc / dc;
            }
            if (p == 0)
                rp = rp / dp;
            sh[oD + p] = dp;
            sh[oR + p] = rp;
            q += P;
            if (q < hi) {
                p = si[xEO + q];
                c0 = si[xEF + q];
                cbeg = si[xEC + q];
                cend = si[xEC + q + 1];
            }
        }
        lo = hi;
        hi = nhi;
        q = lo + j;
        if (q < hi) {
            p = si[xEO + q];
            c0 = si[xEF + q];
            cbeg = si[xEC + q];
            cend = si[xEC + q + 1];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    /* Back-substitution by depth from the root's children; x in the rhs
     * array. Prefetched as above. */
    hi = nb > 0 ? si[xBP + 1] : 0;
    q = j;
    hb_int i = 0, pa = 0;
    if (q < hi) {
        i = si[xBO + q];
        pa = si[xBA + q];
    }
    for (hb_int b = 0; b < nb; ++b) {
        const hb_int nhi = b + 2 <= nb ? si[xBP + b + 2] : hi;
        while (q < hi) {
            sh[oR + i] = sh[i] - sh[oL + i] * sh[oR + pa];
            q += P;
            if (q < hi) {
                i = si[xBO + q];
                pa = si[xBA + q];
            }
        }
        lo = hi;
        hi = nhi;
        q = lo + j;
        if (q < hi) {
            i = si[xBO + q];
            pa = si[xBA + q];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    for (hb_int k = j; k < n; k += P)
        r[o + k] = sh[oR + k];
}
