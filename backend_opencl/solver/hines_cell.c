/* hines_cell.c: launcher of the cell-group Hines kernel (kernels_cl/solver/hines_cell.cl), one work-group per cell. */
#include "cl_backend.h"

/* One launch per size class of cells (lay->cell_class), one group of
 * lay->cell_group work-items (fewer where the kernel's limit is lower: the
 * kernel strides by its group size) per cell, HB_CELL_LAUNCH_BYTES of the
 * class's largest cell of local memory (the core kept the batch's largest
 * within the device's); hb_hines_cell_ug where the cells share one system's
 * couplings. */
hb_status hb__cl_hines_cell(hb_context *ctx, void *stream, hb_precision p,
                            const hb_layout_dev *lay, hb_buffer *u, hb_buffer *l, hb_buffer *d,
                            hb_buffer *rhs)
{
    const size_t group = lay->cell_group > 0 ? (size_t)lay->cell_group : 1;
    const size_t esize = p == HB_DOUBLE ? sizeof(cl_double) : sizeof(cl_float);
    for (int32_t k = 0; k < lay->cell_nclasses; ++k) {
        cl_long ngroups = lay->cell_class[3 * k + 1], first = lay->cell_class[3 * k],
                ld = lay->cell_class[3 * k + 2];
        const size_t bytes = HB_CELL_LAUNCH_BYTES(ld, esize, lay->cell_staged, lay->ul_shared);
        cl_int staged = lay->cell_staged;
        const hb_cl_arg args[] = {HB_CL_LONG(ngroups),   HB_CL_LONG(first),    HB_CL_LONG(ld),
                                  HB_CL_MEM(lay->cslots), HB_CL_MEM(lay->base), HB_CL_MEM(lay->rows),
                                  HB_CL_MEM(lay->soff),  HB_CL_MEM(lay->sched), HB_CL_MEM(u),
                                  HB_CL_MEM(l),          HB_CL_MEM(d),         HB_CL_MEM(rhs),
                                  HB_CL_INT(staged),     (hb_cl_arg){bytes, NULL}};
        HB_FORWARD(hb__cl_launch_groups(ctx, stream, p,
                                        lay->ul_shared ? HB_CLK_HINES_CELL_UG : HB_CLK_HINES_CELL,
                                        args,
                                        (int)(sizeof args / sizeof *args), ngroups, group));
    }
    return HB_SUCCESS;
}

/* Cells of `group` work-items and `bytes` of local memory that a compute
 * unit holds at once (hb_backend_ops.cell_resident), of the kernel that
 * runs them; an estimate (occupancy.c), on NVIDIA's devices alone. */
hb_status hb__cl_cell_resident(hb_context *ctx, hb_precision p, int ul_shared, int64_t group,
                               size_t bytes, int64_t *per_unit)
{
    return hb__cl_resident(ctx, p, ul_shared ? HB_CLK_HINES_CELL_UG : HB_CLK_HINES_CELL, group,
                           bytes, per_unit);
}
