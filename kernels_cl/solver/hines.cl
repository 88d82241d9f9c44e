/* hines.cl: Hines elimination, one work-item per system, in any layout (base[t] + i*stride). */
#ifndef HB_PRELUDE_CL
#include "hb_prelude.cl"
#endif

/* Same operations, in the same order, as backend_omp/hines.c. parent holds
 * local indices; slot t's run starts at poff[t] (0 for every slot when the
 * batch shares one tree). d is overwritten by the elimination; r holds the
 * right-hand side on entry and x on exit. */
__kernel void HB_KERNEL(hb_hines)(const hb_long nslots, const hb_long stride,
                                  __global const hb_long *base, __global const hb_long *rows,
                                  __global const hb_long *poff, __global const hb_int *parent,
                                  __global const real *u, __global const real *l,
                                  __global real *d, __global real *r)
{
    const hb_long t = (hb_long)get_global_id(0);
    if (t >= nslots)
        return;
    const hb_long o = base[t], n = rows[t], st = stride;
    __global const hb_int *P = parent + poff[t];
    __global const real *U = u + o;
    __global const real *L = l + o;
    __global real *D = d + o;
    __global real *R = r + o;
    for (hb_long i = n - 1; i >= 1; --i) {
        const hb_long k = i * st, kp = (hb_long)P[i] * st;
        const real f = U[k] / D[k];
        D[kp] -= f * L[k];
        R[kp] -= f * R[k];
    }
    R[0] = R[0] / D[0];
    for (hb_long i = 1; i < n; ++i) {
        const hb_long k = i * st, kp = (hb_long)P[i] * st;
        R[k] = (R[k] - L[k] * R[kp]) / D[k];
    }
}
