/* hines.c: launcher of the batched Hines kernel (kernels_cl/solver/hines.cl), one work-item per system. */
#include "cl_backend.h"

hb_status hb__cl_hines(hb_context *ctx, void *stream, hb_precision p, const hb_layout_dev *lay,
                       hb_buffer *u, hb_buffer *l, hb_buffer *d, hb_buffer *rhs)
{
    cl_long nslots = lay->nslots, stride = lay->stride;
    cl_int ushared = lay->ul_shared;
    const hb_cl_arg args[] = {HB_CL_LONG(nslots),   HB_CL_LONG(stride),     HB_CL_MEM(lay->base),
                              HB_CL_MEM(lay->rows), HB_CL_MEM(lay->poff),   HB_CL_MEM(lay->parent),
                              HB_CL_MEM(u),         HB_CL_MEM(l),           HB_CL_MEM(d),
                              HB_CL_MEM(rhs),       HB_CL_INT(ushared)};
    return hb__cl_launch(ctx, stream, p, HB_CLK_HINES, args, (int)(sizeof args / sizeof *args),
                         lay->nslots);
}
