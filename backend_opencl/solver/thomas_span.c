/* thomas_span.c: launchers of the span variant of the cooperative Thomas solver (kernels_cl/solver/thomas_span.cl), G work-groups per system. */
#include "cl_backend.h"

/* The largest group both span kernels take, at most want: the reduce and
 * back-substitution kernels must cut segments into the same chunks, so they
 * run with the same group size (the launch would otherwise cap each at its
 * own kernel limit). */
static hb_status span_local(hb_context *ctx, hb_precision p, size_t want, size_t *group)
{
    const int which[2] = {HB_CLK_THOMAS_SPAN_REDUCE, HB_CLK_THOMAS_SPAN_BACK};
    size_t g = want > 0 ? want : 1;
    for (int i = 0; i < 2; ++i) {
        size_t kmax = 0;
        HB_FORWARD(hb__cl_kernel_max(ctx, p, which[i], &kmax));
        if (kmax > 0 && kmax < g)
            g = kmax;
    }
    *group = g;
    return HB_SUCCESS;
}

/* Three launches in queue order: reduce (nslots x G groups), the
 * cooperative solve of the reduced systems (hb__cl_thomas_coop on the
 * span_* buffers, one group each), back-substitution (nslots x G groups).
 * Local memory as the staged kernel's: HB_COOP_LOCAL_REALS(group). */
hb_status hb__cl_thomas_span(hb_context *ctx, void *stream, hb_precision p,
                             const hb_layout_dev *lay, hb_buffer *a, hb_buffer *b, hb_buffer *c,
                             hb_buffer *cw, hb_buffer *d)
{
    cl_long nslots = lay->nslots, length = lay->length, G = lay->coop_span,
            rstride = lay->span_stride;
    int64_t ngroups = 0;
    if (!hb__mul_i64(lay->nslots, lay->coop_span, &ngroups))
        return hb__error(HB_ERR_INVALID_ARGUMENT, "opencl: %lld systems x %d groups overflow",
                         (long long)lay->nslots, (int)lay->coop_span);
    size_t group = 1;
    HB_FORWARD(span_local(ctx, p, lay->coop_group > 0 ? (size_t)lay->coop_group : 1, &group));
    const size_t bytes =
        HB_COOP_LOCAL_REALS(group) * (p == HB_DOUBLE ? sizeof(cl_double) : sizeof(cl_float));
    const hb_cl_arg red[] = {HB_CL_LONG(nslots),    HB_CL_LONG(length),    HB_CL_LONG(G),
                             HB_CL_LONG(rstride),   HB_CL_MEM(lay->base),  HB_CL_MEM(lay->rows),
                             HB_CL_MEM(a),          HB_CL_MEM(b),          HB_CL_MEM(c),
                             HB_CL_MEM(cw),         HB_CL_MEM(d),          HB_CL_MEM(lay->span_a),
                             HB_CL_MEM(lay->span_c), HB_CL_MEM(lay->span_d),
                             HB_CL_MEM(lay->span_rows), (hb_cl_arg){bytes, NULL}};
    HB_FORWARD(hb__cl_launch_groups(ctx, stream, p, HB_CLK_THOMAS_SPAN_REDUCE, red,
                                    (int)(sizeof red / sizeof *red), ngroups, group));
    hb_layout_dev rl = *lay;
    rl.coop_span = 1;
    rl.coop_group = lay->span_group;
    rl.length = lay->nslots * lay->span_stride; /* the plan checked the product */
    rl.base = lay->span_base;
    rl.rows = lay->span_rows;
    HB_FORWARD(hb__cl_thomas_coop(ctx, stream, p, &rl, lay->span_a, lay->span_one, lay->span_c,
                                  lay->span_cw, lay->span_d));
    const hb_cl_arg back[] = {HB_CL_LONG(nslots),   HB_CL_LONG(length),   HB_CL_LONG(G),
                              HB_CL_LONG(rstride),  HB_CL_MEM(lay->base), HB_CL_MEM(lay->rows),
                              HB_CL_MEM(cw),        HB_CL_MEM(d),         HB_CL_MEM(lay->span_d),
                              (hb_cl_arg){bytes, NULL}};
    return hb__cl_launch_groups(ctx, stream, p, HB_CLK_THOMAS_SPAN_BACK, back,
                                (int)(sizeof back / sizeof *back), ngroups, group);
}
