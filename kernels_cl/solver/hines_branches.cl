/* hines_branches.cl: Hines by branches: branch-level kernels (one launch per level) and the fine-tree kernel (one launch). */
#ifndef HB_PRELUDE_CL
#include "hb_prelude.cl"
#endif

/* Helper functions: plain inline in OpenCL; the CUDA build defines HB_FN as
 * __device__ inline. */
#ifndef HB_FN
#define HB_FN inline
#endif

/* Branch b (see hb_branch_dev in api/core/hb_backend.h): row j at
 * pos0[b] + j*bstride[b]; its head's parent node at ppos[b] (-1 at a root);
 * child branches chidx[chptr[b] .. chptr[b+1]). Same operations, in the same
 * order, as backend_omp/solver/hines_branches.c. */
/* A branch's tables (hb_branch_dev): its rows' start, stride and count, and
 * its head's parent position. */
#define HB_BRANCH_TABLES                                                       \
    __global const hb_long *pos0, __global const hb_long *bstride,             \
        __global const hb_long *len, __global const hb_long *ppos
#define HB_BRANCH_TABLE_ARGS pos0, bstride, len, ppos

/* Row k eliminated into its parent row kp. */
HB_FN void HB_KERNEL(hb_eliminate)(const hb_long k, const hb_long kp, __global const real *u,
                                   __global const real *l, __global real *d, __global real *r)
{
    const real f = u[k] / d[k];
    d[kp] -= f * l[k];
    r[kp] -= f * r[k];
}

HB_FN void HB_KERNEL(hb_branch_backward_one)(const hb_long b, HB_BRANCH_TABLES,
                                             __global const hb_long *chptr,
                                             __global const hb_long *chidx,
                                             __global const real *u, __global const real *l,
                                             __global real *d, __global real *r)
{
    /* Junctions first, in the child list's fixed order: one work-item owns
     * every update of its branch's nodes, so no atomics and a deterministic sum. */
    for (hb_long q = chptr[b]; q < chptr[b + 1]; ++q) {
        const hb_long c = chidx[q];
        HB_KERNEL(hb_eliminate)(pos0[c], ppos[c], u, l, d, r);
    }
    const hb_long o = pos0[b], st = bstride[b];
    for (hb_long j = len[b] - 1; j >= 1; --j) {
        const hb_long k = o + j * st;
        HB_KERNEL(hb_eliminate)(k, k - st, u, l, d, r);
    }
    if (ppos[b] < 0)
        r[o] = r[o] / d[o];
}

HB_FN void HB_KERNEL(hb_branch_forward_one)(const hb_long b, HB_BRANCH_TABLES,
                                            __global const real *l, __global const real *d,
                                            __global real *r)
{
    const hb_long o = pos0[b], st = bstride[b], P = ppos[b];
    if (P >= 0)
        r[o] = (r[o] - l[o] * r[P]) / d[o];
    for (hb_long j = 1; j < len[b]; ++j) {
        const hb_long k = o + j * st;
        r[k] = (r[k] - l[k] * r[k - st]) / d[k];
    }
}

/* Branch level: branches [lo, hi) are one level of the whole batch. */
__kernel void HB_KERNEL(hb_branch_backward)(const hb_long lo, const hb_long hi,
                                            HB_BRANCH_TABLES,
                                            __global const hb_long *chptr,
                                            __global const hb_long *chidx,
                                            __global const real *u, __global const real *l,
                                            __global real *d, __global real *r)
{
    const hb_long b = lo + (hb_long)get_global_id(0);
    if (b < hi)
        HB_KERNEL(hb_branch_backward_one)(b, HB_BRANCH_TABLE_ARGS, chptr, chidx, u, l, d, r);
}

__kernel void HB_KERNEL(hb_branch_forward)(const hb_long lo, const hb_long hi,
                                           HB_BRANCH_TABLES,
                                           __global const real *l, __global const real *d,
                                           __global real *r)
{
    const hb_long b = lo + (hb_long)get_global_id(0);
    if (b < hi)
        HB_KERNEL(hb_branch_forward_one)(b, HB_BRANCH_TABLE_ARGS, l, d, r);
}

/* Fine tree: work-group g solves its cells alone: segments (levels) from
 * deepest to the root, then back, separated by barriers; work-items stride
 * over a level's branches when it has more than the group. */
__kernel void HB_KERNEL(hb_fine_tree)(__global const hb_long *grp_ptr,
                                      __global const hb_long *seg_ptr,
                                      HB_BRANCH_TABLES,
                                      __global const hb_long *chptr,
                                      __global const hb_long *chidx, __global const real *u,
                                      __global const real *l, __global real *d,
                                      __global real *r)
{
    const hb_long g = (hb_long)get_group_id(0);
    const hb_long lid = (hb_long)get_local_id(0), gs = (hb_long)get_local_size(0);
    const hb_long s0 = grp_ptr[g], s1 = grp_ptr[g + 1];
    for (hb_long s = s1 - 1; s >= s0; --s) {
        for (hb_long b = seg_ptr[s] + lid; b < seg_ptr[s + 1]; b += gs)
            HB_KERNEL(hb_branch_backward_one)(b, HB_BRANCH_TABLE_ARGS, chptr, chidx, u, l, d,
                                              r);
        barrier(CLK_GLOBAL_MEM_FENCE);
    }
    for (hb_long s = s0; s < s1; ++s) {
        for (hb_long b = seg_ptr[s] + lid; b < seg_ptr[s + 1]; b += gs)
            HB_KERNEL(hb_branch_forward_one)(b, HB_BRANCH_TABLE_ARGS, l, d, r);
        barrier(CLK_GLOBAL_MEM_FENCE);
    }
}
