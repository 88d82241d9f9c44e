/* block_shared.cl: block-shared solvers: one work-group per layout block, its c' (Thomas) or rhs (Hines) in local memory (CUDA: dynamic shared memory). */
#ifndef HB_PRELUDE_CL
#include "hb_prelude.cl"
#endif

/* The work-group size is the layout's block size, so work-item j of group g
 * is slot g*BS + j and column j of the block; row i of the block's local
 * array is at i*BS + j (consecutive work-items, consecutive banks). Work-items
 * never read each other's columns, so no barrier is needed. Same operations,
 * in the same order, as thomas.cl and hines.cl. sh holds max_rows*BS reals. */
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
    const hb_long o = base[t], n = rows[t], st = stride;
    __global const real *A = a + o;
    __global const real *B = b + o;
    __global const real *C = c + o;
    __global real *D = d + o;
    real cprev = C[0] / B[0];
    real dprev = D[0] / B[0];
    sh[j] = cprev;
    D[0] = dprev;
    for (hb_long i = 1; i < n; ++i) {
        const hb_long k = i * st;
        const real ak = A[k];
        const real m = (real)1 / (B[k] - ak * cprev);
        cprev = C[k] * m;
        dprev = (D[k] - ak * dprev) * m;
        sh[i * bs + j] = cprev;
        D[k] = dprev;
    }
    real x = dprev;
    for (hb_long i = n - 2; i >= 0; --i) {
        const hb_long k = i * st;
        x = D[k] - sh[i * bs + j] * x;
        D[k] = x;
    }
}

__kernel void HB_KERNEL(hb_hines_shared)(const hb_long nslots, const hb_long stride,
                                         __global const hb_long *base,
                                         __global const hb_long *rows,
                                         __global const hb_long *poff,
                                         __global const hb_int *parent, __global const real *u,
                                         __global const real *l, __global real *d,
                                         __global real *r HB_DYNAMIC_LOCAL_ARG(real, sh))
{
    HB_DYNAMIC_LOCAL(real, sh);
    const hb_long j = (hb_long)get_local_id(0), bs = (hb_long)get_local_size(0);
    const hb_long t = (hb_long)get_group_id(0) * bs + j;
    if (t >= nslots)
        return;
    const hb_long o = base[t], n = rows[t], st = stride;
    __global const hb_int *P = parent + poff[t];
    __global const real *U = u + o;
    __global const real *L = l + o;
    __global real *D = d + o;
    __global real *G = r + o;
    for (hb_long i = 0; i < n; ++i)
        sh[i * bs + j] = G[i * st];
    for (hb_long i = n - 1; i >= 1; --i) {
        const hb_long k = i * st, kp = (hb_long)P[i] * st;
        const hb_long q = i * bs + j, qp = (hb_long)P[i] * bs + j;
        const real f = U[k] / D[k];
        D[kp] -= f * L[k];
        sh[qp] -= f * sh[q];
    }
    sh[j] = sh[j] / D[0];
    for (hb_long i = 1; i < n; ++i) {
        const hb_long k = i * st;
        const hb_long q = i * bs + j, qp = (hb_long)P[i] * bs + j;
        sh[q] = (sh[q] - L[k] * sh[qp]) / D[k];
    }
    for (hb_long i = 0; i < n; ++i)
        G[i * st] = sh[i * bs + j];
}
