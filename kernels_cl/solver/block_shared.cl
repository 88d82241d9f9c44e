/* block_shared.cl: block-shared solvers: one work-group per layout block, its c' (Thomas) or rhs (Hines) in local memory (CUDA: dynamic shared memory). */
#ifndef HB_PRELUDE_CL
#include "hb_prelude.cl"
#endif
#ifndef HB_SWEEPS_CL
#include "solver/hb_sweeps.cl"
#endif

/* The work-group size is the layout's block size, so work-item j of group g
 * is slot g*BS + j and column j of the block; row i of the block's local
 * array is at i*BS + j (consecutive work-items, consecutive banks). Work-items
 * never read each other's columns, so no barrier is needed. The sweeps are
 * those of thomas.cl and hines.cl (hb_sweeps.cl). sh holds max_rows*BS reals. */
__kernel void HB_KERNEL(hb_thomas_shared)(const hb_long nslots, const hb_long stride,
                                          __global const hb_long *base,
                                          __global const hb_long *rows, __global const real *a,
                                          __global const real *b, __global const real *c,
                                          __global real *d HB_DYNAMIC_LOCAL_ARG(real, sh))
{
    HB_DYNAMIC_LOCAL(real, sh);
    const hb_long j = (hb_long)get_local_id(0), bs = (hb_long)get_local_size(0);
    const hb_long t = (hb_long)get_group_id(0) * bs + j;
    if (t >= nslots)
        return;
    const hb_long o = base[t];
    HB_THOMAS_SWEEP(rows[t], stride, a + o, b + o, c + o, d + o, sh + j, bs);
}

/* The right-hand side moves on chip before the sweep and back after it;
 * ushared as in hines.cl. */
__kernel void HB_KERNEL(hb_hines_shared)(const hb_long nslots, const hb_long stride,
                                         __global const hb_long *base,
                                         __global const hb_long *rows,
                                         __global const hb_long *poff,
                                         __global const hb_int *parent, __global const real *u,
                                         __global const real *l, __global real *d,
                                         __global real *r, const hb_int ushared
                                             HB_DYNAMIC_LOCAL_ARG(real, sh))
{
    HB_DYNAMIC_LOCAL(real, sh);
    const hb_long j = (hb_long)get_local_id(0), bs = (hb_long)get_local_size(0);
    const hb_long t = (hb_long)get_group_id(0) * bs + j;
    if (t >= nslots)
        return;
    const hb_long o = base[t], n = rows[t], ou = ushared ? 0 : o, us = ushared ? 1 : stride;
    __global real *G = r + o;
    for (hb_long i = 0; i < n; ++i)
        sh[i * bs + j] = G[i * stride];
    __global const hb_int *P = parent + poff[t]; /* loaded once, not per row */
    HB_HINES_SWEEP(n, stride, P, u + ou, l + ou, us, d + o, sh + j, bs);
    for (hb_long i = 0; i < n; ++i)
        G[i * stride] = sh[i * bs + j];
}
