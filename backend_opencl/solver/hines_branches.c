/* hines_branches.c: launchers of the branch-level and fine-tree Hines kernels (kernels_cl/solver/hines_branches.cl). */
#include "cl_backend.h"

/* Branch level: one launch per level and sweep; levels run deepest first on
 * the way up, root first on the way down. The queue is in order, so each
 * launch sees the levels before it. */
hb_status hb__cl_hines_branch_level(hb_context *ctx, void *stream, hb_precision p,
                                    const hb_branch_dev *br, hb_buffer *u, hb_buffer *l,
                                    hb_buffer *d, hb_buffer *rhs)
{
    const int64_t *seg = br->host_seg_ptr;
    cl_long lo = 0, hi = 0;
    const hb_cl_arg up[] = {HB_CL_LONG(lo),       HB_CL_LONG(hi),        HB_CL_MEM(br->pos0),
                            HB_CL_MEM(br->bstride), HB_CL_MEM(br->len),  HB_CL_MEM(br->ppos),
                            HB_CL_MEM(br->chptr), HB_CL_MEM(br->chidx),  HB_CL_MEM(u),
                            HB_CL_MEM(l),         HB_CL_MEM(d),          HB_CL_MEM(rhs)};
    const hb_cl_arg down[] = {HB_CL_LONG(lo),       HB_CL_LONG(hi),      HB_CL_MEM(br->pos0),
                              HB_CL_MEM(br->bstride), HB_CL_MEM(br->len), HB_CL_MEM(br->ppos),
                              HB_CL_MEM(l),         HB_CL_MEM(d),        HB_CL_MEM(rhs)};
    for (int64_t s = br->nsegments - 1; s >= 0; --s) {
        lo = seg[s];
        hi = seg[s + 1];
        HB_FORWARD(hb__cl_launch(ctx, stream, p, HB_CLK_BRANCH_BACKWARD, up,
                                 (int)(sizeof up / sizeof *up), hi - lo));
    }
    for (int64_t s = 0; s < br->nsegments; ++s) {
        lo = seg[s];
        hi = seg[s + 1];
        HB_FORWARD(hb__cl_launch(ctx, stream, p, HB_CLK_BRANCH_FORWARD, down,
                                 (int)(sizeof down / sizeof *down), hi - lo));
    }
    return HB_SUCCESS;
}

/* Fine tree: one work-group per group of cells, all levels in one launch. */
hb_status hb__cl_hines_fine_tree(hb_context *ctx, void *stream, hb_precision p,
                                 const hb_branch_dev *br, hb_buffer *u, hb_buffer *l,
                                 hb_buffer *d, hb_buffer *rhs)
{
    const hb_cl_arg args[] = {HB_CL_MEM(br->grp_ptr), HB_CL_MEM(br->seg_ptr), HB_CL_MEM(br->pos0),
                              HB_CL_MEM(br->bstride), HB_CL_MEM(br->len),     HB_CL_MEM(br->ppos),
                              HB_CL_MEM(br->chptr),   HB_CL_MEM(br->chidx),   HB_CL_MEM(u),
                              HB_CL_MEM(l),           HB_CL_MEM(d),           HB_CL_MEM(rhs)};
    size_t local = br->group_size > 0 ? (size_t)br->group_size : 1;
    return hb__cl_launch_groups(ctx, stream, p, HB_CLK_FINE_TREE, args,
                                (int)(sizeof args / sizeof *args), br->ngroups, local);
}
