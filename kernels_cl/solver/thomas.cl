/* thomas.cl: Thomas algorithm, one work-item per tridiagonal system, in any layout (base[t] + i*stride). */
#ifndef HB_PRELUDE_CL
#include "hb_prelude.cl"
#endif

/* Same operations, in the same order, as backend_omp/thomas.c. a, b, c are
 * kept; cw receives c'; d holds the right-hand side on entry, x on exit. */
__kernel void HB_KERNEL(hb_thomas)(const hb_long nslots, const hb_long stride,
                                   __global const hb_long *base, __global const hb_long *rows,
                                   __global const real *a, __global const real *b,
                                   __global const real *c, __global real *cw, __global real *d)
{
    const hb_long t = (hb_long)get_global_id(0);
    if (t >= nslots)
        return;
    const hb_long o = base[t], n = rows[t], st = stride;
    __global const real *A = a + o;
    __global const real *B = b + o;
    __global const real *C = c + o;
    __global real *CW = cw + o;
    __global real *D = d + o;
    real cprev = C[0] / B[0];
    real dprev = D[0] / B[0];
    CW[0] = cprev;
    D[0] = dprev;
    for (hb_long i = 1; i < n; ++i) {
        const hb_long k = i * st;
        const real ak = A[k];
        const real m = (real)1 / (B[k] - ak * cprev);
        cprev = C[k] * m;
        dprev = (D[k] - ak * dprev) * m;
        CW[k] = cprev;
        D[k] = dprev;
    }
    real x = dprev;
    for (hb_long i = n - 2; i >= 0; --i) {
        const hb_long k = i * st;
        x = D[k] - CW[k] * x;
        D[k] = x;
    }
}
