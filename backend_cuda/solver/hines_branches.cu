/* hines_branches.cu: launchers of Hines by branches on the GPU, branch-level and fine tree (kernels_cl/solver/hines_branches.cl). */
#include "cuda_backend.h"

#include "cl_compat.cuh"

#define HB_CL_FILE "solver/hines_branches.cl"
#include "cl_both_precisions.cuh"

#define HB_LEVEL_THREADS 128

/* One launch per level: deepest level first going up (backward), then back
 * down (forward). */
hb_status hb__cuda_hines_branch_level(hb_context *ctx, void *stream, hb_precision p,
                                      const hb_branch_dev *br, hb_buffer *u, hb_buffer *l,
                                      hb_buffer *d, hb_buffer *rhs)
{
    HB_FORWARD(hb__cuda_use(ctx));
    cudaStream_t s = hb__cuda_stream(ctx, stream);
    const int64_t *seg = br->host_seg_ptr, nseg = br->nsegments;
    for (int64_t k = 0; k < 2 * nseg; ++k) {
        const int up = k < nseg;
        const int64_t q = up ? nseg - 1 - k : k - nseg, n = seg[q + 1] - seg[q];
        const unsigned g = hb__cuda_blocks(n, HB_LEVEL_THREADS);
        if (n <= 0)
            continue;
        if (up)
            HB_FORWARD(HB_CUDA_LAUNCH(p, hb_branch_backward, n, g, HB_LEVEL_THREADS, 0, s, seg[q],
                                      seg[q + 1], hb__dev(br->pos0), hb__dev(br->bstride),
                                      hb__dev(br->len), hb__dev(br->ppos), hb__dev(br->chptr),
                                      hb__dev(br->chidx), hb__dev(u), hb__dev(l), hb__dev(d),
                                      hb__dev(rhs)));
        else
            HB_FORWARD(HB_CUDA_LAUNCH(p, hb_branch_forward, n, g, HB_LEVEL_THREADS, 0, s, seg[q],
                                      seg[q + 1], hb__dev(br->pos0), hb__dev(br->bstride),
                                      hb__dev(br->len), hb__dev(br->ppos), hb__dev(l),
                                      hb__dev(d), hb__dev(rhs)));
    }
    return HB_SUCCESS;
}

/* One launch, one thread block per group of cells. */
hb_status hb__cuda_hines_fine_tree(hb_context *ctx, void *stream, hb_precision p,
                                   const hb_branch_dev *br, hb_buffer *u, hb_buffer *l,
                                   hb_buffer *d, hb_buffer *rhs)
{
    HB_FORWARD(hb__cuda_use(ctx));
    const hb_cuda_impl *impl = (const hb_cuda_impl *)ctx->impl;
    if (br->group_size <= 0 || br->group_size > impl->max_threads)
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "cuda: fine tree group size %d not in [1, %d] threads per block",
                         (int)br->group_size, impl->max_threads);
    if (br->ngroups <= 0)
        return HB_SUCCESS;
    return HB_CUDA_LAUNCH(p, hb_fine_tree, br->ngroups, (unsigned)br->ngroups, br->group_size, 0,
                          hb__cuda_stream(ctx, stream), hb__dev(br->grp_ptr),
                          hb__dev(br->seg_ptr), hb__dev(br->pos0), hb__dev(br->bstride),
                          hb__dev(br->len), hb__dev(br->ppos), hb__dev(br->chptr),
                          hb__dev(br->chidx), hb__dev(u), hb__dev(l), hb__dev(d), hb__dev(rhs));
}
