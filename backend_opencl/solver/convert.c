/* convert.c: launchers of the flat <-> layout conversion kernels (kernels_cl/solver/convert.cl). */
#include "cl_backend.h"

hb_status hb__cl_to_layout(hb_context *ctx, void *stream, hb_precision p, const hb_layout_dev *lay,
                           const hb_convert_rule *rule, hb_buffer *flat_src, hb_buffer *dst)
{
    cl_long nslots = lay->nslots, stride = lay->stride;
    cl_int zero_first = rule->zero_first, zero_last = rule->zero_last;
    cl_double pad_d = rule->pad_value;
    cl_float pad_s = (cl_float)rule->pad_value;
    const hb_cl_arg args[] = {HB_CL_LONG(nslots),   HB_CL_LONG(stride),     HB_CL_MEM(lay->base),
                              HB_CL_MEM(lay->rows), HB_CL_MEM(lay->nown),   HB_CL_MEM(lay->flat),
                              p == HB_DOUBLE ? (hb_cl_arg){sizeof pad_d, &pad_d}
                                             : (hb_cl_arg){sizeof pad_s, &pad_s},
                              HB_CL_INT(zero_first), HB_CL_INT(zero_last), HB_CL_MEM(flat_src),
                              HB_CL_MEM(dst)};
    return hb__cl_launch(ctx, stream, p, HB_CLK_TO_LAYOUT, args, (int)(sizeof args / sizeof *args),
                         lay->nslots);
}

hb_status hb__cl_to_flat(hb_context *ctx, void *stream, hb_precision p, const hb_layout_dev *lay,
                         hb_buffer *src, hb_buffer *flat_dst)
{
    cl_long nslots = lay->nslots, stride = lay->stride;
    const hb_cl_arg args[] = {HB_CL_LONG(nslots),   HB_CL_LONG(stride), HB_CL_MEM(lay->base),
                              HB_CL_MEM(lay->nown), HB_CL_MEM(lay->flat), HB_CL_MEM(src),
                              HB_CL_MEM(flat_dst)};
    return hb__cl_launch(ctx, stream, p, HB_CLK_TO_FLAT, args, (int)(sizeof args / sizeof *args),
                         lay->nslots);
}
