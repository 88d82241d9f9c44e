/* thomas.c: launcher of the batched Thomas kernel (kernels_cl/solver/thomas.cl), one work-item per system. */
#include "cl_backend.h"

hb_status hb__cl_thomas(hb_context *ctx, void *stream, hb_precision p, const hb_layout_dev *lay,
                        hb_buffer *a, hb_buffer *b, hb_buffer *c, hb_buffer *cw, hb_buffer *d)
{
    cl_long nslots = lay->nslots, stride = lay->stride;
    const hb_cl_arg args[] = {HB_CL_LONG(nslots), HB_CL_LONG(stride), HB_CL_MEM(lay->base),
                              HB_CL_MEM(lay->rows), HB_CL_MEM(a),     HB_CL_MEM(b),
                              HB_CL_MEM(c),         HB_CL_MEM(cw),    HB_CL_MEM(d)};
    return hb__cl_launch(ctx, stream, p, HB_CLK_THOMAS, args, (int)(sizeof args / sizeof *args),
                         lay->nslots);
}
