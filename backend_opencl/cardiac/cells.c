/* cells.c: the cardiac per-cell kernel on OpenCL: the prelude and the cardiac catalogue built for one model (HB_CARD_ONLY) and precision per batch, and its launches. */
#include "cl_backend.h"
#include "hb_card_ops.h"

#include "hb_card_catalogue_info.h"

#include <stdio.h>
#include <stdlib.h>

/* Generated at build time by backend_opencl/embed_cl.cmake. */
extern const char *const hb__card_cl_sources[];
extern const int hb__card_cl_nsources;

static const char *const kernel_names[HB_CARD_NMODELS] = HB_CARD_KERNEL_NAMES;

/* A batch's program and kernel (hb_card_ops' cache). */
typedef struct {
    cl_program program;
    cl_kernel kernel;
    size_t local;
    int32_t model;
    hb_precision p;
} card_prog;

static void release(hb_context *ctx, void *cache)
{
    (void)ctx;
    card_prog *cp = cache;
    if (!cp)
        return;
    if (cp->kernel)
        clReleaseKernel(cp->kernel);
    if (cp->program)
        clReleaseProgram(cp->program);
    free(cp);
}

static hb_status build(hb_context *ctx, hb_precision p, int32_t model, card_prog *cp)
{
    hb_cl *cl = hb__cl(ctx);
    const char *prec = p == HB_DOUBLE ? "double" : "float";
    const char *srcs[8];
    int n = 0;
    srcs[n++] = p == HB_DOUBLE ? "#define HB_DOUBLE 1\n" : "/* float */\n";
    for (int i = 0; i < hb__card_cl_nsources && n < 8; ++i)
        srcs[n++] = hb__card_cl_sources[i];
    cl_int err = CL_SUCCESS;
    cp->program = clCreateProgramWithSource(cl->context, (cl_uint)n, srcs, NULL, &err);
    HB_CL_CHECK(err, "clCreateProgramWithSource", "cardiac");
    /* IEEE division in float too, as the host oracle (the prelude switches
     * off contraction into fma). */
    char opts[160];
    snprintf(opts, sizeof opts, "-cl-std=CL1.2 -DHB_CARD_KERNELS -DHB_CARD_ONLY=%d%s", (int)model,
             p == HB_FLOAT && cl->fp32_div_ok ? " -cl-fp32-correctly-rounded-divide-sqrt" : "");
    err = clBuildProgram(cp->program, 1, &cl->device, opts, NULL, NULL);
    if (err != CL_SUCCESS) {
        char log[640] = "(no build log)";
        clGetProgramBuildInfo(cp->program, cl->device, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log,
                              NULL);
        log[sizeof log - 1] = '\0';
        return hb__error(HB_ERR_BACKEND, "OpenCL: clBuildProgram (%s, %s kernels) failed: %s (%d); "
                         "build log:\n%s", kernel_names[model], prec, hb__cl_error_name(err),
                         (int)err, log);
    }
    cp->kernel = clCreateKernel(cp->program, kernel_names[model], &err);
    HB_CL_CHECK(err, "clCreateKernel", kernel_names[model]);
    size_t kmax = 0, mult = 1;
    HB_CL_CHECK(clGetKernelWorkGroupInfo(cp->kernel, cl->device, CL_KERNEL_WORK_GROUP_SIZE,
                                         sizeof kmax, &kmax, NULL),
                "clGetKernelWorkGroupInfo", kernel_names[model]);
    HB_CL_CHECK(clGetKernelWorkGroupInfo(cp->kernel, cl->device,
                                         CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, sizeof mult,
                                         &mult, NULL),
                "clGetKernelWorkGroupInfo", kernel_names[model]);
    /* One work-item per cell, no local memory: 128 fills a GPU's
     * multiprocessor with few registers' worth of groups; a CPU runs a group
     * as one loop. */
    size_t want = cl->is_gpu ? 128 : 64;
    if (want > kmax)
        want = kmax;
    if (mult > 0 && want >= mult)
        want -= want % mult;
    cp->local = want > 0 ? want : 1;
    cp->model = model;
    cp->p = p;
    hb__log("OpenCL: built the cardiac %s kernel (%s) on %s", kernel_names[model], prec,
            ctx->device);
    return HB_SUCCESS;
}

static hb_status cells(hb_context *ctx, hb_precision p, void **cache, const hb_card_job *j)
{
    hb_cl *cl = hb__cl(ctx);
    if (j->model < 0 || j->model >= HB_CARD_NMODELS)
        return hb__error(HB_ERR_BACKEND, "OpenCL cardiac: model %d not in the catalogue",
                         (int)j->model);
    card_prog *cp = *cache;
    if (cp && (cp->model != j->model || cp->p != p)) {
        release(ctx, cp);
        *cache = cp = NULL;
    }
    if (!cp) {
        cp = calloc(1, sizeof *cp);
        if (!cp)
            return hb__error(HB_ERR_OUT_OF_MEMORY, "OpenCL cardiac: program state");
        hb__mutex_lock(&cl->lock);
        hb_status st = build(ctx, p, j->model, cp);
        hb__mutex_unlock(&cl->lock);
        if (st != HB_SUCCESS) {
            release(ctx, cp);
            return st;
        }
        *cache = cp;
    }
    cl_command_queue q = NULL;
    HB_FORWARD(hb__cl_queue(ctx, NULL, &q));
    cl_long n = j->n, step0 = j->step0, on0 = j->on0, on1 = j->on1, on2 = j->on2;
    cl_long ncol = j->ncol, every = j->rec_every, row0 = j->rec_row0;
    cl_int nsteps = j->nsteps, nrcol = j->nrcol;
    double dtd = j->dt, leveld = j->level;
    float dtf = (float)j->dt, levelf = (float)j->level;
    const size_t rs = p == HB_DOUBLE ? sizeof(double) : sizeof(float);
    const void *dt = p == HB_DOUBLE ? (const void *)&dtd : (const void *)&dtf;
    const void *level = p == HB_DOUBLE ? (const void *)&leveld : (const void *)&levelf;
    const hb_cl_arg args[] = {
        HB_CL_LONG(n), HB_CL_LONG(step0), HB_CL_INT(nsteps), {rs, dt}, HB_CL_LONG(on0),
        HB_CL_LONG(on1), HB_CL_LONG(on2), {rs, level}, HB_CL_MEM(j->state), HB_CL_MEM(j->prm),
        HB_CL_MEM(j->recslot), HB_CL_MEM(j->rcol), HB_CL_INT(nrcol), HB_CL_LONG(ncol),
        HB_CL_LONG(every), HB_CL_LONG(row0), HB_CL_MEM(j->rec)};
    size_t global = (size_t)((j->n + (int64_t)cp->local - 1) / (int64_t)cp->local) * cp->local;
    hb_status st = HB_SUCCESS;
    hb__mutex_lock(&cl->lock);
    for (cl_uint i = 0; i < sizeof args / sizeof args[0] && st == HB_SUCCESS; ++i) {
        cl_int err = clSetKernelArg(cp->kernel, i, args[i].size, args[i].value);
        if (err != CL_SUCCESS)
            st = hb__cl_fail(err, "clSetKernelArg", kernel_names[j->model]);
    }
    if (st == HB_SUCCESS) {
        cl_int err = clEnqueueNDRangeKernel(q, cp->kernel, 1, NULL, &global, &cp->local, 0, NULL,
                                            NULL);
        if (err != CL_SUCCESS)
            st = hb__cl_fail(err, "clEnqueueNDRangeKernel", kernel_names[j->model]);
    }
    hb__mutex_unlock(&cl->lock);
    return st;
}

static const hb_card_ops cl_card_ops = {cells, release};

const hb_card_ops *hb__opencl_card_ops(void) { return &cl_card_ops; }
