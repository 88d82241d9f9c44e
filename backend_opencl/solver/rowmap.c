/* rowmap.c: launchers of the row-map conversions between flat arrays and the branch layout (kernels_cl/solver/rowmap.cl). */
#include "cl_backend.h"

hb_status hb__cl_map_to_layout(hb_context *ctx, void *stream, hb_precision p, int64_t n,
                               hb_buffer *map, hb_buffer *flat_src, hb_buffer *dst)
{
    cl_long nn = n;
    const hb_cl_arg args[] = {HB_CL_LONG(nn), HB_CL_MEM(map), HB_CL_MEM(flat_src), HB_CL_MEM(dst)};
    return hb__cl_launch(ctx, stream, p, HB_CLK_MAP_TO_LAYOUT, args, 4, n);
}

hb_status hb__cl_map_to_flat(hb_context *ctx, void *stream, hb_precision p, int64_t n,
                             hb_buffer *map, hb_buffer *src, hb_buffer *flat_dst)
{
    cl_long nn = n;
    const hb_cl_arg args[] = {HB_CL_LONG(nn), HB_CL_MEM(map), HB_CL_MEM(src), HB_CL_MEM(flat_dst)};
    return hb__cl_launch(ctx, stream, p, HB_CLK_MAP_TO_FLAT, args, 4, n);
}
