/* block_shared.c: launchers of the block-shared kernels (kernels_cl/solver/block_shared.cl): one work-group per block, on-chip c' or rhs. */
#include "cl_backend.h"

/* Local bytes of one block, or 0 when it does not fit (the core's rule,
 * given this kernel's own work-group and local memory limits). */
static hb_status shared_bytes(hb_context *ctx, hb_precision p, const hb_layout_dev *lay, int which,
                              size_t *bytes)
{
    hb_cl *cl = hb__cl(ctx);
    cl_kernel k;
    size_t local, kmax = 0;
    cl_ulong own = 0;
    *bytes = 0;
    HB_FORWARD(hb__cl_kernel(ctx, p, which, &k, &local));
    HB_CL_CHECK(clGetKernelWorkGroupInfo(k, cl->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof kmax,
                                         &kmax, NULL),
                "clGetKernelWorkGroupInfo", "block-shared work-group size");
    HB_CL_CHECK(clGetKernelWorkGroupInfo(k, cl->device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof own, &own,
                                         NULL),
                "clGetKernelWorkGroupInfo", "block-shared local memory");
    *bytes = hb__block_shared_bytes(ctx, lay, p == HB_DOUBLE ? sizeof(cl_double) : sizeof(cl_float),
                                    (size_t)own, kmax);
    return HB_SUCCESS;
}

static int64_t nblocks(const hb_layout_dev *lay)
{
    return (lay->nslots + lay->block_size - 1) / lay->block_size;
}

hb_status hb__cl_thomas_shared(hb_context *ctx, void *stream, hb_precision p,
                               const hb_layout_dev *lay, hb_buffer *a, hb_buffer *b, hb_buffer *c,
                               hb_buffer *d, int *ran)
{
    size_t bytes;
    *ran = 0;
    HB_FORWARD(shared_bytes(ctx, p, lay, HB_CLK_THOMAS_SHARED, &bytes));
    if (!bytes)
        return HB_SUCCESS;
    cl_long nslots = lay->nslots, stride = lay->stride;
    const hb_cl_arg args[] = {HB_CL_LONG(nslots), HB_CL_LONG(stride), HB_CL_MEM(lay->base),
                              HB_CL_MEM(lay->rows), HB_CL_MEM(a),     HB_CL_MEM(b),
                              HB_CL_MEM(c),         HB_CL_MEM(d),     {bytes, NULL}};
    HB_FORWARD(hb__cl_launch_groups(ctx, stream, p, HB_CLK_THOMAS_SHARED, args,
                                    (int)(sizeof args / sizeof *args), nblocks(lay),
                                    (size_t)lay->block_size));
    *ran = 1;
    return HB_SUCCESS;
}

hb_status hb__cl_hines_shared(hb_context *ctx, void *stream, hb_precision p,
                              const hb_layout_dev *lay, hb_buffer *u, hb_buffer *l, hb_buffer *d,
                              hb_buffer *rhs, int *ran)
{
    size_t bytes;
    *ran = 0;
    HB_FORWARD(shared_bytes(ctx, p, lay, HB_CLK_HINES_SHARED, &bytes));
    if (!bytes)
        return HB_SUCCESS;
    cl_long nslots = lay->nslots, stride = lay->stride;
    const hb_cl_arg args[] = {HB_CL_LONG(nslots),   HB_CL_LONG(stride),   HB_CL_MEM(lay->base),
                              HB_CL_MEM(lay->rows), HB_CL_MEM(lay->poff), HB_CL_MEM(lay->parent),
                              HB_CL_MEM(u),         HB_CL_MEM(l),         HB_CL_MEM(d),
                              HB_CL_MEM(rhs),       {bytes, NULL}};
    HB_FORWARD(hb__cl_launch_groups(ctx, stream, p, HB_CLK_HINES_SHARED, args,
                                    (int)(sizeof args / sizeof *args), nblocks(lay),
                                    (size_t)lay->block_size));
    *ran = 1;
    return HB_SUCCESS;
}
