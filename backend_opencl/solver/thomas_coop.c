/* thomas_coop.c: launcher of the cooperative Thomas kernel (kernels_cl/solver/thomas_coop.cl), one work-group per system. */
#include "cl_backend.h"

/* One group of lay->coop_group work-items (fewer where the kernel's limit is
 * lower: the kernel reads its group size) per system; HB_COOP_LOCAL_REALS
 * (4 x (HB_COOP_MB + 1) reals per work-item) of local memory, sized for the
 * group asked (the core kept it within the device's local memory). With
 * lay->coop_span > 1, the span variant (thomas_span.c) instead. */
hb_status hb__cl_thomas_coop(hb_context *ctx, void *stream, hb_precision p,
                             const hb_layout_dev *lay, hb_buffer *a, hb_buffer *b, hb_buffer *c,
                             hb_buffer *cw, hb_buffer *d)
{
    if (lay->coop_span > 1)
        return hb__cl_thomas_span(ctx, stream, p, lay, a, b, c, cw, d);
    cl_long nslots = lay->nslots, length = lay->length;
    const size_t group = lay->coop_group > 0 ? (size_t)lay->coop_group : 1;
    const size_t bytes = HB_COOP_LOCAL_REALS(group) * (p == HB_DOUBLE ? sizeof(cl_double) : sizeof(cl_float));
    const hb_cl_arg args[] = {HB_CL_LONG(nslots), HB_CL_LONG(length), HB_CL_MEM(lay->base),
                              HB_CL_MEM(lay->rows), HB_CL_MEM(a),       HB_CL_MEM(b),
                              HB_CL_MEM(c),         HB_CL_MEM(cw),      HB_CL_MEM(d),
                              (hb_cl_arg){bytes, NULL}};
    return hb__cl_launch_groups(ctx, stream, p, HB_CLK_THOMAS_COOP, args,
                                (int)(sizeof args / sizeof *args), lay->nslots, group);
}
