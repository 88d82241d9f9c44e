/* thomas.cu: Thomas algorithm on the GPU, one thread per system, compiled from kernels_cl/thomas.cl in both precisions. */
#include "cuda_backend.h"

#include "cl_compat.cuh"

#define HB_CL_FILE "thomas.cl"
#include "cl_both_precisions.cuh"

hb_status hb__cuda_thomas(hb_context *ctx, void *stream, hb_precision p,
                          const hb_layout_dev *lay, hb_buffer *a, hb_buffer *b, hb_buffer *c,
                          hb_buffer *cw, hb_buffer *d)
{
    HB_FORWARD(hb__cuda_use(ctx));
    if (lay->shared_rhs) {
        int ran = 0;
        HB_FORWARD(hb__cuda_thomas_shared(ctx, stream, p, lay, a, b, c, d, &ran));
        if (ran)
            return HB_SUCCESS;
    }
    const unsigned grid = hb__cuda_blocks(lay->nslots, HB_CUDA_THREADS);
    cudaStream_t s = hb__cuda_stream(ctx, stream);
    const hb_long *base = hb__cuda_i64(lay->base), *rows = hb__cuda_i64(lay->rows);
    if (p == HB_DOUBLE) {
        hb_cl_d::hb_thomas_d<<<grid, HB_CUDA_THREADS, 0, s>>>(
            lay->nslots, lay->stride, base, rows, (const double *)a->ptr, (const double *)b->ptr,
            (const double *)c->ptr, (double *)cw->ptr, (double *)d->ptr);
        return hb__cuda_launched("hb_thomas_d", lay->nslots);
    }
    hb_cl_s::hb_thomas_s<<<grid, HB_CUDA_THREADS, 0, s>>>(
        lay->nslots, lay->stride, base, rows, (const float *)a->ptr, (const float *)b->ptr,
        (const float *)c->ptr, (float *)cw->ptr, (float *)d->ptr);
    return hb__cuda_launched("hb_thomas_s", lay->nslots);
}
