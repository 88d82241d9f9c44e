/* hines_cell.cl: cell-group Hines solver: one work-group per cell in the flat layout, the cell's u, l, d and rhs in local memory, rows eliminated level by level from a plan-time schedule. */
#ifndef HB_PRELUDE_CL
#include "hb_prelude.cl"
#endif

#ifndef HB_CELL_PHASES_CL
#include "solver/hb_cell_phases.cl"
#endif

/* Group g of a launch of ngroups solves the cell of slot t = cslots[first +
 * g] (rows base[t] .. base[t] + rows[t], stride 1) with its tree's schedule
 * at sched + soff[t]. Local memory: 4 arrays of ld reals (u, l, d, rhs; ld:
 * the largest cell of the launch), then, when staged, the schedule,
 * HB_CELL_SCHED_WORDS(ld) int32 (hb_backend.h's HB_CELL_LAUNCH_BYTES):
 * staged once, so that a level waits on local memory, not on global loads
 * (each level's dependent global loads cost ~0.7 us on an H100: 0.065 ms for
 * 256 CA1 cells); where it does not fit (48 KiB devices) it is read from
 * global memory.
 * The solve itself: HB_CELL_SOLVE (hb_cell_phases.cl).
 * d is read, never written: the caller's d stays as it was. */
__kernel void HB_KERNEL(hb_hines_cell)(const hb_long ngroups, const hb_long first,
                                       const hb_long ld, __global const hb_long *cslots,
                                       __global const hb_long *base,
                                       __global const hb_long *rows,
                                       __global const hb_long *soff,
                                       __global const hb_int *sched,
                                       __global const real *u, __global const real *l,
                                       __global const real *d, __global real *r,
                                       const hb_int staged HB_DYNAMIC_LOCAL_ARG(real, sh))
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
    for (hb_int k = j; staged && k < slen; k += P)
        si[k] = S[k];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (staged) {
        HB_CELL_TABLES(si);
        HB_CELL_SOLVE(si, 1);
    } else {
        HB_CELL_TABLES(S);
        HB_CELL_SOLVE(S, 1);
    }

    for (hb_int k = j; k < n; k += P)
        r[o + k] = sh[oR + k];
}
