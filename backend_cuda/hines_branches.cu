/* hines_branches.cu: Hines by branches on the GPU (branch-level and fine tree), compiled from kernels_cl/hines_branches.cl in both precisions. */
#include "cuda_backend.h"

#include "cl_compat.cuh"

#define HB_CL_FILE "hines_branches.cl"
#include "cl_both_precisions.cuh"

#define HB_LEVEL_THREADS 128

/* One kernel template per precision pair, so the launch code is written once. */
template <typename T> struct hb_branch_kernels;
template <> struct hb_branch_kernels<double> {
    static constexpr const char *backward = "hb_branch_backward_d";
    static constexpr const char *forward = "hb_branch_forward_d";
    static constexpr const char *fine = "hb_fine_tree_d";
};
template <> struct hb_branch_kernels<float> {
    static constexpr const char *backward = "hb_branch_backward_s";
    static constexpr const char *forward = "hb_branch_forward_s";
    static constexpr const char *fine = "hb_fine_tree_s";
};

static void backward(cudaStream_t s, unsigned g, long long lo, long long hi,
                     const hb_branch_dev *br, const double *u, const double *l, double *d,
                     double *r)
{
    hb_cl_d::hb_branch_backward_d<<<g, HB_LEVEL_THREADS, 0, s>>>(
        lo, hi, hb__cuda_i64(br->pos0), hb__cuda_i64(br->bstride), hb__cuda_i64(br->len),
        hb__cuda_i64(br->ppos), hb__cuda_i64(br->chptr), hb__cuda_i64(br->chidx), u, l, d, r);
}
static void backward(cudaStream_t s, unsigned g, long long lo, long long hi,
                     const hb_branch_dev *br, const float *u, const float *l, float *d, float *r)
{
    hb_cl_s::hb_branch_backward_s<<<g, HB_LEVEL_THREADS, 0, s>>>(
        lo, hi, hb__cuda_i64(br->pos0), hb__cuda_i64(br->bstride), hb__cuda_i64(br->len),
        hb__cuda_i64(br->ppos), hb__cuda_i64(br->chptr), hb__cuda_i64(br->chidx), u, l, d, r);
}
static void forward(cudaStream_t s, unsigned g, long long lo, long long hi,
                    const hb_branch_dev *br, const double *l, const double *d, double *r)
{
    hb_cl_d::hb_branch_forward_d<<<g, HB_LEVEL_THREADS, 0, s>>>(
        lo, hi, hb__cuda_i64(br->pos0), hb__cuda_i64(br->bstride), hb__cuda_i64(br->len),
        hb__cuda_i64(br->ppos), l, d, r);
}
static void forward(cudaStream_t s, unsigned g, long long lo, long long hi,
                    const hb_branch_dev *br, const float *l, const float *d, float *r)
{
    hb_cl_s::hb_branch_forward_s<<<g, HB_LEVEL_THREADS, 0, s>>>(
        lo, hi, hb__cuda_i64(br->pos0), hb__cuda_i64(br->bstride), hb__cuda_i64(br->len),
        hb__cuda_i64(br->ppos), l, d, r);
}
static void fine(cudaStream_t s, const hb_branch_dev *br, const double *u, const double *l,
                 double *d, double *r)
{
    hb_cl_d::hb_fine_tree_d<<<(unsigned)br->ngroups, br->group_size, 0, s>>>(
        hb__cuda_i64(br->grp_ptr), hb__cuda_i64(br->seg_ptr), hb__cuda_i64(br->pos0),
        hb__cuda_i64(br->bstride), hb__cuda_i64(br->len), hb__cuda_i64(br->ppos),
        hb__cuda_i64(br->chptr), hb__cuda_i64(br->chidx), u, l, d, r);
}
static void fine(cudaStream_t s, const hb_branch_dev *br, const float *u, const float *l,
                 float *d, float *r)
{
    hb_cl_s::hb_fine_tree_s<<<(unsigned)br->ngroups, br->group_size, 0, s>>>(
        hb__cuda_i64(br->grp_ptr), hb__cuda_i64(br->seg_ptr), hb__cuda_i64(br->pos0),
        hb__cuda_i64(br->bstride), hb__cuda_i64(br->len), hb__cuda_i64(br->ppos),
        hb__cuda_i64(br->chptr), hb__cuda_i64(br->chidx), u, l, d, r);
}

/* One launch per level: deepest level first going up, then back down. */
template <typename T>
static hb_status level(hb_context *ctx, void *stream, const hb_branch_dev *br, hb_buffer *u,
                       hb_buffer *l, hb_buffer *d, hb_buffer *rhs)
{
    HB_FORWARD(hb__cuda_use(ctx));
    cudaStream_t s = hb__cuda_stream(ctx, stream);
    const int64_t *seg = br->host_seg_ptr;
    const T *U = (const T *)u->ptr, *L = (const T *)l->ptr;
    T *D = (T *)d->ptr, *R = (T *)rhs->ptr;
    for (int64_t q = br->nsegments - 1; q >= 0; --q) {
        if (seg[q + 1] <= seg[q])
            continue;
        backward(s, hb__cuda_blocks(seg[q + 1] - seg[q], HB_LEVEL_THREADS), seg[q], seg[q + 1],
                 br, U, L, D, R);
        HB_FORWARD(hb__cuda_launched(hb_branch_kernels<T>::backward, seg[q + 1] - seg[q]));
    }
    for (int64_t q = 0; q < br->nsegments; ++q) {
        if (seg[q + 1] <= seg[q])
            continue;
        forward(s, hb__cuda_blocks(seg[q + 1] - seg[q], HB_LEVEL_THREADS), seg[q], seg[q + 1],
                br, L, (const T *)D, R);
        HB_FORWARD(hb__cuda_launched(hb_branch_kernels<T>::forward, seg[q + 1] - seg[q]));
    }
    return HB_SUCCESS;
}

template <typename T>
static hb_status fine_tree(hb_context *ctx, void *stream, const hb_branch_dev *br, hb_buffer *u,
                           hb_buffer *l, hb_buffer *d, hb_buffer *rhs)
{
    HB_FORWARD(hb__cuda_use(ctx));
    const hb_cuda_impl *impl = (const hb_cuda_impl *)ctx->impl;
    if (br->group_size <= 0 || br->group_size > impl->max_threads)
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "cuda: fine tree group size %d not in [1, %d] threads per block",
                         (int)br->group_size, impl->max_threads);
    if (br->ngroups <= 0)
        return HB_SUCCESS;
    fine(hb__cuda_stream(ctx, stream), br, (const T *)u->ptr, (const T *)l->ptr, (T *)d->ptr,
         (T *)rhs->ptr);
    return hb__cuda_launched(hb_branch_kernels<T>::fine, br->ngroups);
}

hb_status hb__cuda_hines_branch_level(hb_context *ctx, void *stream, hb_precision p,
                                      const hb_branch_dev *br, hb_buffer *u, hb_buffer *l,
                                      hb_buffer *d, hb_buffer *rhs)
{
    return p == HB_DOUBLE ? level<double>(ctx, stream, br, u, l, d, rhs)
                          : level<float>(ctx, stream, br, u, l, d, rhs);
}

hb_status hb__cuda_hines_fine_tree(hb_context *ctx, void *stream, hb_precision p,
                                   const hb_branch_dev *br, hb_buffer *u, hb_buffer *l,
                                   hb_buffer *d, hb_buffer *rhs)
{
    return p == HB_DOUBLE ? fine_tree<double>(ctx, stream, br, u, l, d, rhs)
                          : fine_tree<float>(ctx, stream, br, u, l, d, rhs);
}
