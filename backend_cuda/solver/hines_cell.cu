/* hines_cell.cu: launcher of the cell-group Hines kernel on the GPU, one thread block per cell (kernels_cl/solver/hines_cell.cl). */
#include "cuda_backend.h"

#include "cl_compat.cuh"

#define HB_CL_FILE "solver/hines_cell.cl"
#include "cl_both_precisions.cuh"

/* The kernel: couplings staged, or shared by every cell and read from
 * global memory. */
#define HB_CELL_KERNEL(p, ul_shared)                                                        \
    ((ul_shared) ? HB_CUDA_KERNEL(p, hb_hines_cell_ug) : HB_CUDA_KERNEL(p, hb_hines_cell))

/* hines_cell blocks of `group` threads and `bytes` of dynamic shared memory
 * one SM holds at once (hb_backend_ops.cell_resident). */
hb_status hb__cuda_cell_resident(hb_context *ctx, hb_precision p, int ul_shared, int64_t group,
                                 size_t bytes, int64_t *per_unit)
{
    HB_FORWARD(hb__cuda_use(ctx));
    return hb__cuda_resident(ctx, HB_CELL_KERNEL(p, ul_shared), group, bytes, per_unit);
}

/* One launch per size class of cells (lay->cell_class); lay->cell_group
 * threads per cell (capped at the device's block limit);
 * HB_CELL_LAUNCH_BYTES of the class's largest cell of dynamic shared memory
 * (u, l, d, rhs: 4 x 728 doubles = 23 KiB for the CA1 cell; d and rhs
 * alone where the cells share one system's couplings), opted in past
 * the default 48 KiB up to the device's limit (the core ran the fine tree
 * instead where the batch's largest cell does not fit: the device's local
 * memory is the opt-in limit). */
hb_status hb__cuda_hines_cell(hb_context *ctx, void *stream, hb_precision p,
                              const hb_layout_dev *lay, hb_buffer *u, hb_buffer *l,
                              hb_buffer *d, hb_buffer *rhs)
{
    const hb_cuda_impl *impl = (const hb_cuda_impl *)ctx->impl;
    HB_FORWARD(hb__cuda_use(ctx));
    int group = lay->cell_group > 0 ? lay->cell_group : 1;
    if (group > impl->max_threads)
        group = impl->max_threads;
    const size_t esize = p == HB_DOUBLE ? sizeof(double) : sizeof(float);
    const int us = lay->ul_shared;
    HB_FORWARD(hb__cuda_allow_smem(ctx, HB_CELL_KERNEL(p, us),
                                   HB_CELL_LAUNCH_BYTES(lay->max_rows, esize, lay->cell_staged, us)));
    cudaStream_t s = hb__cuda_stream(ctx, stream);
    for (int32_t k = 0; k < lay->cell_nclasses; ++k) {
        const long long first = lay->cell_class[3 * k], ngroups = lay->cell_class[3 * k + 1],
                        ld = lay->cell_class[3 * k + 2];
        const size_t smem = HB_CELL_LAUNCH_BYTES(ld, esize, lay->cell_staged, us);
        /* Both kernels take the same arguments. */
#define HB_CELL_LAUNCH(name)                                                                \
    HB_CUDA_LAUNCH(p, name, ngroups, (unsigned)ngroups, group, smem, s, ngroups, first, ld,   \
                   hb__dev(lay->cslots), hb__dev(lay->base), hb__dev(lay->rows),              \
                   hb__dev(lay->soff), hb__dev(lay->sched), hb__dev(u), hb__dev(l),           \
                   hb__dev(d), hb__dev(rhs), (int)lay->cell_staged)
        HB_FORWARD(us ? HB_CELL_LAUNCH(hb_hines_cell_ug) : HB_CELL_LAUNCH(hb_hines_cell));
#undef HB_CELL_LAUNCH
    }
    return HB_SUCCESS;
}
