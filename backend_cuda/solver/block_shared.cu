/* block_shared.cu: launchers of the block-shared solvers on the GPU, one thread block per layout block with c' or rhs in dynamic shared memory (kernels_cl/solver/block_shared.cl). */
#include "cuda_backend.h"

#include "cl_compat.cuh"

#define HB_CL_FILE "solver/block_shared.cl"
#include "cl_both_precisions.cuh"

/* Dynamic shared memory of one block by the core's rule (0: it does not
 * fit); raises the kernel's limit past the default 48 KiB where needed. The
 * limit is process-wide state of the kernel: it is raised to the device's
 * whole opt-in, the same value from every thread, so a plan on another thread
 * setting its own smaller need can never lower it under this launch. */
static hb_status shared_bytes(const hb_context *ctx, const hb_layout_dev *lay, hb_precision p,
                              const void *kernel, size_t *bytes)
{
    const hb_cuda_impl *impl = (const hb_cuda_impl *)ctx->impl;
    *bytes = hb__block_shared_bytes(ctx, lay, p == HB_DOUBLE ? sizeof(double) : sizeof(float), 0,
                                    (size_t)impl->max_threads);
    return hb__cuda_allow_smem(ctx, kernel, *bytes);
}

/* Both kernels take the layout tables, then four arrays: a, b, c, d
 * (Thomas) or, after the parent tables, u, l, d, rhs and whether u and l are
 * shared (Hines). */
static hb_status launch(hb_context *ctx, void *stream, hb_precision p, const hb_layout_dev *lay,
                        int hines, hb_buffer *x0, hb_buffer *x1, hb_buffer *x2, hb_buffer *x3,
                        int *ran)
{
    size_t smem = 0;
    *ran = 0;
    HB_FORWARD(hb__cuda_use(ctx));
    HB_FORWARD(shared_bytes(ctx, lay, p,
                            hines ? HB_CUDA_KERNEL(p, hb_hines_shared)
                                  : HB_CUDA_KERNEL(p, hb_thomas_shared),
                            &smem));
    if (!smem)
        return HB_SUCCESS;
    *ran = 1;
    const unsigned g = hb__cuda_blocks(lay->nslots, lay->block_size);
    const int bs = lay->block_size;
    cudaStream_t s = hb__cuda_stream(ctx, stream);
    if (hines)
        return HB_CUDA_LAUNCH(p, hb_hines_shared, lay->nslots, g, bs, smem, s, lay->nslots,
                              lay->stride, hb__dev(lay->base), hb__dev(lay->rows),
                              hb__dev(lay->poff), hb__dev(lay->parent), hb__dev(x0), hb__dev(x1),
                              hb__dev(x2), hb__dev(x3), (int)lay->ul_shared);
    return HB_CUDA_LAUNCH(p, hb_thomas_shared, lay->nslots, g, bs, smem, s, lay->nslots,
                          lay->stride, hb__dev(lay->base), hb__dev(lay->rows), hb__dev(x0),
                          hb__dev(x1), hb__dev(x2), hb__dev(x3));
}

hb_status hb__cuda_thomas_shared(hb_context *ctx, void *stream, hb_precision p,
                                 const hb_layout_dev *lay, hb_buffer *a, hb_buffer *b,
                                 hb_buffer *c, hb_buffer *d, int *ran)
{
    return launch(ctx, stream, p, lay, 0, a, b, c, d, ran);
}

hb_status hb__cuda_hines_shared(hb_context *ctx, void *stream, hb_precision p,
                                const hb_layout_dev *lay, hb_buffer *u, hb_buffer *l,
                                hb_buffer *d, hb_buffer *rhs, int *ran)
{
    return launch(ctx, stream, p, lay, 1, u, l, d, rhs, ran);
}
