/* hines.cl: Hines elimination, one work-item per system, in any layout (base[t] + i*stride). */
#ifndef HB_PRELUDE_CL
#include "hb_prelude.cl"
#endif
#ifndef HB_SWEEPS_CL
#include "solver/hb_sweeps.cl"
#endif

/* The sweep is hb_sweeps.cl's. parent holds
 * local indices; slot t's run starts at poff[t] (0 for every slot when the
 * batch shares one tree). d is overwritten by the elimination; r holds the
 * right-hand side on entry and x on exit. ushared: u and l are one system's
 * rows in row order, read by every slot (the work-items of a warp load the
 * same address: one transaction for all of them). */
__kernel void HB_KERNEL(hb_hines)(const hb_long nslots, const hb_long stride,
                                  __global const hb_long *base, __global const hb_long *rows,
                                  __global const hb_long *poff, __global const hb_int *parent,
                                  __global const real *u, __global const real *l,
                                  __global real *d, __global real *r, const hb_int ushared)
{
    const hb_long t = (hb_long)get_global_id(0);
    if (t >= nslots)
        return;
    const hb_long o = base[t], ou = ushared ? 0 : o, us = ushared ? 1 : stride;
    __global const hb_int *P = parent + poff[t]; /* loaded once, not per row */
    HB_HINES_SWEEP(rows[t], stride, P, u + ou, l + ou, us, d + o, r + o, stride);
}
