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

/* Both kernels take the layout tables, then four arrays: a, b, c, d
 * (Thomas) or, after the parent tables, u, l, d, rhs and whether u and l are
 * shared (Hines); the local array comes last. */
static hb_status launch(hb_context *ctx, void *stream, hb_precision p, const hb_layout_dev *lay,
                        int hines, hb_buffer *x0, hb_buffer *x1, hb_buffer *x2, hb_buffer *x3,
                        int *ran)
{
    const int which = hines ? HB_CLK_HINES_SHARED : HB_CLK_THOMAS_SHARED;
    size_t bytes;
    *ran = 0;
    HB_FORWARD(shared_bytes(ctx, p, lay, which, &bytes));
    if (!bytes)
        return HB_SUCCESS;
    cl_long nslots = lay->nslots, stride = lay->stride;
    cl_int ushared = lay->ul_shared;
    hb_cl_arg args[12] = {HB_CL_LONG(nslots), HB_CL_LONG(stride), HB_CL_MEM(lay->base),
                          HB_CL_MEM(lay->rows)};
    int n = 4;
    if (hines) {
        args[n++] = HB_CL_MEM(lay->poff);
        args[n++] = HB_CL_MEM(lay->parent);
    }
    args[n++] = HB_CL_MEM(x0);
    args[n++] = HB_CL_MEM(x1);
    args[n++] = HB_CL_MEM(x2);
    args[n++] = HB_CL_MEM(x3);
    if (hines)
        args[n++] = HB_CL_INT(ushared);
    args[n++] = (hb_cl_arg){bytes, NULL};
    const int64_t nblocks = (lay->nslots + lay->block_size - 1) / lay->block_size;
    HB_FORWARD(hb__cl_launch_groups(ctx, stream, p, which, args, n, nblocks,
                                    (size_t)lay->block_size));
    *ran = 1;
    return HB_SUCCESS;
}

hb_status hb__cl_thomas_shared(hb_context *ctx, void *stream, hb_precision p,
                               const hb_layout_dev *lay, hb_buffer *a, hb_buffer *b, hb_buffer *c,
                               hb_buffer *d, int *ran)
{
    return launch(ctx, stream, p, lay, 0, a, b, c, d, ran);
}

hb_status hb__cl_hines_shared(hb_context *ctx, void *stream, hb_precision p,
                              const hb_layout_dev *lay, hb_buffer *u, hb_buffer *l, hb_buffer *d,
                              hb_buffer *rhs, int *ran)
{
    return launch(ctx, stream, p, lay, 1, u, l, d, rhs, ran);
}
