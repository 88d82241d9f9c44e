/* thomas_coop_local.c: launcher of the resident cooperative Thomas kernel (kernels_cl/solver/thomas_coop_local.cl), several whole systems in local memory per work-group. */
#include "cl_backend.h"

/* The kernel's work-group limit on the device (hb_backend_ops.coop_local_limit). */
hb_status hb__cl_coop_local_limit(hb_context *ctx, hb_precision p, int64_t *max_items)
{
    size_t kmax = 0;
    HB_FORWARD(hb__cl_kernel_max(ctx, p, HB_CLK_THOMAS_COOP_LOCAL, &kmax));
    *max_items = kmax > (size_t)INT64_MAX ? INT64_MAX : (int64_t)kmax;
    return HB_SUCCESS;
}

/* lay->coop_systems systems of lay->coop_group work-items per group, fewer
 * systems where the kernel's work-group limit is lower (the kernel reads S
 * from its group size); HB_COOP_RESIDENT_REALS of local memory for the
 * systems launched (the core kept it within the device's local memory). */
hb_status hb__cl_thomas_coop_local(hb_context *ctx, void *stream, hb_precision p,
                                   const hb_layout_dev *lay, hb_buffer *a, hb_buffer *b,
                                   hb_buffer *c, hb_buffer *cw, hb_buffer *d)
{
    (void)cw; /* no scratch: every row stays on chip */
    if (lay->nslots <= 0)
        return HB_SUCCESS;
    size_t kmax = 0;
    HB_FORWARD(hb__cl_kernel_max(ctx, p, HB_CLK_THOMAS_COOP_LOCAL, &kmax));
    const size_t per = (size_t)lay->coop_group;
    size_t systems = (size_t)lay->coop_systems;
    if (per > kmax)
        return hb__error(HB_ERR_BACKEND,
                         "OpenCL: hb_thomas_coop_local takes at most %zu work-items per group "
                         "on this device, the plan has %zu per system (set a smaller group_size)",
                         kmax, per);
    if (systems * per > kmax)
        systems = kmax / per;
    const size_t esize = p == HB_DOUBLE ? sizeof(cl_double) : sizeof(cl_float);
    const size_t bytes = HB_COOP_RESIDENT_REALS(systems, per, lay->coop_ld) * esize;
    cl_long nslots = lay->nslots;
    cl_int pper = lay->coop_group, ld = lay->coop_ld;
    const hb_cl_arg args[] = {HB_CL_LONG(nslots), HB_CL_INT(pper),     HB_CL_INT(ld),
                              HB_CL_MEM(lay->base), HB_CL_MEM(lay->rows), HB_CL_MEM(a),
                              HB_CL_MEM(b),         HB_CL_MEM(c),        HB_CL_MEM(d),
                              (hb_cl_arg){bytes, NULL}};
    const int64_t ngroups = (lay->nslots + (int64_t)systems - 1) / (int64_t)systems;
    return hb__cl_launch_groups(ctx, stream, p, HB_CLK_THOMAS_COOP_LOCAL, args,
                                (int)(sizeof args / sizeof *args), ngroups, systems * per);
}
