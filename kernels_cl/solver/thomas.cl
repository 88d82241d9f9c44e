/* thomas.cl: Thomas algorithm, one work-item per tridiagonal system, in any layout (base[t] + i*stride). */
#ifndef HB_PRELUDE_CL
#include "hb_prelude.cl"
#endif
#ifndef HB_SWEEPS_CL
#include "solver/hb_sweeps.cl"
#endif

/* a, b, c are kept; cw receives c'; d holds the right-hand side on entry, x
 * on exit (hb_sweeps.cl). */
__kernel void HB_KERNEL(hb_thomas)(const hb_long nslots, const hb_long stride,
                                   __global const hb_long *base, __global const hb_long *rows,
                                   __global const real *a, __global const real *b,
                                   __global const real *c, __global real *cw, __global real *d)
{
    const hb_long t = (hb_long)get_global_id(0);
    if (t >= nslots)
        return;
    const hb_long o = base[t];
    HB_THOMAS_SWEEP(rows[t], stride, a + o, b + o, c + o, d + o, cw + o, stride);
}
