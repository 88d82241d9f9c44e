/* thomas_coop.cu: launcher of the cooperative Thomas kernel on the GPU, one thread block per system (kernels_cl/solver/thomas_coop.cl). */
#include "cuda_backend.h"

#include "cl_compat.cuh"

#define HB_CL_FILE "solver/thomas_coop.cl"
#include "cl_both_precisions.cuh"

/* lay->coop_group threads per system (capped at the device's block limit);
 * HB_COOP_LOCAL_REALS (4 x (HB_COOP_MB + 1) reals per thread) of dynamic
 * shared memory: 256 x 36 doubles = 72 KiB, past the default 48 KiB, so the
 * kernel opts in up to the device's limit (the core kept the group within it:
 * the device's local memory is the opt-in limit). With lay->coop_span > 1,
 * the span variant (thomas_span.cu) instead. */
hb_status hb__cuda_thomas_coop(hb_context *ctx, void *stream, hb_precision p,
                               const hb_layout_dev *lay, hb_buffer *a, hb_buffer *b,
                               hb_buffer *c, hb_buffer *cw, hb_buffer *d)
{
    if (lay->coop_span > 1)
        return hb__cuda_thomas_span(ctx, stream, p, lay, a, b, c, cw, d);
    const hb_cuda_impl *impl = (const hb_cuda_impl *)ctx->impl;
    HB_FORWARD(hb__cuda_use(ctx));
    int group = lay->coop_group > 0 ? lay->coop_group : 1;
    if (group > impl->max_threads)
        group = impl->max_threads;
    size_t smem = HB_COOP_LOCAL_REALS(group) * (p == HB_DOUBLE ? sizeof(double) : sizeof(float));
    HB_FORWARD(hb__cuda_allow_smem(ctx, HB_CUDA_KERNEL(p, hb_thomas_coop), smem));
    return HB_CUDA_LAUNCH(p, hb_thomas_coop, lay->nslots, (unsigned)lay->nslots, group, smem,
                          hb__cuda_stream(ctx, stream), lay->nslots, lay->length,
                          hb__dev(lay->base), hb__dev(lay->rows), hb__dev(a), hb__dev(b),
                          hb__dev(c), hb__dev(cw), hb__dev(d));
}
