/* hines.cu: Hines elimination on the GPU, one thread per system, compiled from kernels_cl/hines.cl in both precisions. */
#include "cuda_backend.h"

#include "cl_compat.cuh"

#define HB_CL_FILE "hines.cl"
#include "cl_both_precisions.cuh"

hb_status hb__cuda_hines(hb_context *ctx, void *stream, hb_precision p,
                         const hb_layout_dev *lay, hb_buffer *u, hb_buffer *l, hb_buffer *d,
                         hb_buffer *rhs)
{
    HB_FORWARD(hb__cuda_use(ctx));
    if (lay->shared_rhs) {
        int ran = 0;
        HB_FORWARD(hb__cuda_hines_shared(ctx, stream, p, lay, u, l, d, rhs, &ran));
        if (ran)
            return HB_SUCCESS;
    }
    const unsigned grid = hb__cuda_blocks(lay->nslots, HB_CUDA_THREADS);
    cudaStream_t s = hb__cuda_stream(ctx, stream);
    const hb_long *base = hb__cuda_i64(lay->base), *rows = hb__cuda_i64(lay->rows);
    const hb_long *poff = hb__cuda_i64(lay->poff);
    const hb_int *parent = (const hb_int *)lay->parent->ptr;
    if (p == HB_DOUBLE) {
        hb_cl_d::hb_hines_d<<<grid, HB_CUDA_THREADS, 0, s>>>(
            lay->nslots, lay->stride, base, rows, poff, parent, (const double *)u->ptr,
            (const double *)l->ptr, (double *)d->ptr, (double *)rhs->ptr);
        return hb__cuda_launched("hb_hines_d", lay->nslots);
    }
    hb_cl_s::hb_hines_s<<<grid, HB_CUDA_THREADS, 0, s>>>(
        lay->nslots, lay->stride, base, rows, poff, parent, (const float *)u->ptr,
        (const float *)l->ptr, (float *)d->ptr, (float *)rhs->ptr);
    return hb__cuda_launched("hb_hines_s", lay->nslots);
}
