/* hines_cell.cl: cell-group Hines solver: one work-group per cell in the flat layout, the cell's u, l, d and rhs in local memory (d and rhs alone where every cell shares one system's couplings), rows eliminated level by level from a plan-time schedule. */
#ifndef HB_PRELUDE_CL
#include "hb_prelude.cl"
#endif

#ifndef HB_COOP_PHASES_CL
#include "solver/hb_coop_phases.cl"
#endif
#ifndef HB_CELL_PHASES_CL
#include "solver/hb_cell_phases.cl"
#endif

/* Group g of a launch of ngroups solves the cell of slot t = cslots[first +
 * g] (rows base[t] .. base[t] + rows[t], stride 1) with its tree's schedule
 * at sched + soff[t]. Local memory: 4 arrays of ld reals (u, l, d, rhs; ld:
 * the largest cell of the launch; the trunk is swept serially, with no
 * PCR rows), then, when staged, the schedule,
 * HB_CELL_SCHED_WORDS(ld) int32 (hb_backend.h's HB_CELL_LAUNCH_BYTES):
 * staged once, so that a level waits on local memory, not on global loads
 * (each level's dependent global loads cost ~0.7 us on an H100: 0.065 ms for
 * 256 CA1 cells); where it does not fit (48 KiB devices) it is read from
 * global memory.
 * The group's cell and the solve: HB_CELL_GROUP and HB_CELL_SOLVE_STAGED
 * (hb_cell_phases.cl), shared with sim/epoch.cl. The staging is a group
 * copy per array (HB_GROUP_COPY: under CUDA, cp.async from sm_80 on, every
 * copy in flight at once), d and rhs first: they need only the cell's rows,
 * not its schedule's header.
 * d is read, never written: the caller's d stays as it was. */

/* Both kernels' arguments. */
#define HB_HINES_CELL_PARAMS                                                                \
    const hb_long ngroups, const hb_long first, const hb_long ld,                           \
        __global const hb_long *cslots, __global const hb_long *base,                       \
        __global const hb_long *rows, __global const hb_long *soff,                         \
        __global const hb_int *sched, __global const real *u, __global const real *l,       \
        __global const real *d, __global real *r,                                           \
        const hb_int staged HB_DYNAMIC_LOCAL_ARG(real, sh)

/* Both kernels' body: ULOC (a constant) 1 stages u and l in local memory,
 * 0 leaves them in global memory; UA and LA read them. */
#define HB_HINES_CELL_BODY(ULOC, UA, LA)                                                    \
    HB_DYNAMIC_LOCAL(real, sh);                                                             \
    HB_CELL_GROUP(0, 0, ULOC);                                                              \
    HB_GROUP_COPY2(sh + oD, d + o, sh + oR, r + o, nr);                                     \
    if (ULOC)                                                                               \
        HB_GROUP_COPY2(sh, u + o, sh + oL, l + o, nr);                                      \
    if (staged)                                                                             \
        HB_GROUP_COPY(si, S, slen);                                                         \
    HB_GROUP_COPY_WAIT();                                                                   \
    barrier(CLK_LOCAL_MEM_FENCE);                                                           \
    HB_CELL_SOLVE_STAGED(2, 0, 0, 0, UA, LA, UA, LA);                                       \
    for (hb_int k = j; k < nr; k += P)                                                      \
        r[o + k] = sh[oR + k];

__kernel void HB_KERNEL(hb_hines_cell)(HB_HINES_CELL_PARAMS)
{
    HB_HINES_CELL_BODY(1, HB_CELL_US, HB_CELL_LS)
}

/* The couplings from global memory: u and l are one system's rows, shared
 * by every cell (hb_layout_dev.ul_shared), so one copy in the cache serves
 * every cell of a compute unit, and local memory holds d and rhs alone (2
 * arrays of ld reals, then the schedule where staged): half the cell-group
 * kernel's, so that more cells fit a compute unit at once. The same
 * operations as hb_hines_cell on the couplings repeated. */
#define HB_CELL_UG(i) u[(i)]
#define HB_CELL_LG(i) l[(i)]
__kernel void HB_KERNEL(hb_hines_cell_ug)(HB_HINES_CELL_PARAMS)
{
    HB_HINES_CELL_BODY(0, HB_CELL_UG, HB_CELL_LG)
}
