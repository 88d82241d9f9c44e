/* thomas_span.cu: launchers of the span variant of the cooperative Thomas solver on the GPU, G thread blocks per system (kernels_cl/solver/thomas_span.cl). */
#include "cuda_backend.h"

#include "cl_compat.cuh"

#define HB_CL_FILE "solver/thomas_span.cl"
#include "cl_both_precisions.cuh"

/* Three launches on the stream: reduce (nslots x G blocks), the cooperative
 * solve of the reduced systems (hb__cuda_thomas_coop on the span_* buffers,
 * one block each), back-substitution (nslots x G blocks). Both span kernels
 * run with the same block size (they must cut segments alike) and the staged
 * kernel's shared memory, HB_COOP_LOCAL_REALS(group), opting in past the
 * default as hb__cuda_thomas_coop does. */
hb_status hb__cuda_thomas_span(hb_context *ctx, void *stream, hb_precision p,
                               const hb_layout_dev *lay, hb_buffer *a, hb_buffer *b,
                               hb_buffer *c, hb_buffer *cw, hb_buffer *d)
{
    const hb_cuda_impl *impl = (const hb_cuda_impl *)ctx->impl;
    HB_FORWARD(hb__cuda_use(ctx));
    int64_t ngroups = 0;
    if (!hb__mul_i64(lay->nslots, lay->coop_span, &ngroups) || ngroups > 2147483647)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "cuda: %lld systems x %d blocks overflow",
                         (long long)lay->nslots, (int)lay->coop_span);
    int group = lay->coop_group > 0 ? lay->coop_group : 1;
    if (group > impl->max_threads)
        group = impl->max_threads;
    size_t smem = HB_COOP_LOCAL_REALS(group) * (p == HB_DOUBLE ? sizeof(double) : sizeof(float));
    HB_FORWARD(hb__cuda_allow_smem(ctx, HB_CUDA_KERNEL(p, hb_thomas_span_reduce), smem));
    HB_FORWARD(hb__cuda_allow_smem(ctx, HB_CUDA_KERNEL(p, hb_thomas_span_back), smem));
    cudaStream_t st = hb__cuda_stream(ctx, stream);
    const int64_t G = lay->coop_span, rstride = lay->span_stride;
    HB_FORWARD(HB_CUDA_LAUNCH(p, hb_thomas_span_reduce, ngroups, (unsigned)ngroups, group, smem,
                              st, lay->nslots, lay->length, G, rstride, hb__dev(lay->base),
                              hb__dev(lay->rows), hb__dev(a), hb__dev(b), hb__dev(c),
                              hb__dev(cw), hb__dev(d), hb__dev(lay->span_a),
                              hb__dev(lay->span_c), hb__dev(lay->span_d),
                              hb__dev(lay->span_rows)));
    hb_layout_dev rl = *lay;
    rl.coop_span = 1;
    rl.coop_group = lay->span_group;
    rl.length = lay->nslots * lay->span_stride; /* the plan checked the product */
    rl.base = lay->span_base;
    rl.rows = lay->span_rows;
    HB_FORWARD(hb__cuda_thomas_coop(ctx, stream, p, &rl, lay->span_a, lay->span_one,
                                    lay->span_c, lay->span_cw, lay->span_d));
    return HB_CUDA_LAUNCH(p, hb_thomas_span_back, ngroups, (unsigned)ngroups, group, smem, st,
                          lay->nslots, lay->length, G, rstride, hb__dev(lay->base),
                          hb__dev(lay->rows), hb__dev(cw), hb__dev(d), hb__dev(lay->span_d));
}
