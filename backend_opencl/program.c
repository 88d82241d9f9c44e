/* program.c: the embedded kernels_cl sources, built once per context and precision, with their kernels cached. */
#include "cl_backend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Generated at build time by backend_opencl/embed_cl.cmake (hb_prelude.cl first). */
extern const char *const hb__cl_sources[];
extern const char *const hb__cl_source_names[];
extern const int hb__cl_nsources;

static const char *const kernel_names[HB_CLK_COUNT] = {
    "hb_to_layout",       "hb_to_flat",        "hb_thomas",   "hb_hines", "hb_map_to_layout",
    "hb_map_to_flat",     "hb_branch_backward", "hb_branch_forward", "hb_fine_tree",
    "hb_thomas_shared",   "hb_hines_shared",   "hb_sim_membrane", "hb_sim_clamp",
    "hb_sim_assemble",    "hb_sim_update_v",   "hb_sim_soma",  "hb_thomas_coop",
    "hb_thomas_coop_local", "hb_thomas_span_reduce", "hb_thomas_span_back", "hb_hines_cell",
    "hb_hines_cell_ug",
    "hb_sim_epoch", "hb_sim_epoch_ug", "hb_sim_epoch_ugv", "hb_sim_mech_init", "hb_sim_mech_state", "hb_sim_mech_rows_pre",
    "hb_sim_mech_current", "hb_sim_mech_rows_post", "hb_sim_mech_points_advance",
    "hb_sim_probe"};

/* Work-items per group wanted on each kind of device: enough to fill a GPU
 * multiprocessor's warps; on a CPU one group runs as one loop on one core. */
#define HB_CL_GPU_GROUP 128
#define HB_CL_CPU_GROUP 64

static hb_status build_failed(hb_cl *cl, cl_program prog, cl_int err, const char *prec)
{
    size_t size = 0;
    char log[640] = "(no build log)";
    if (clGetProgramBuildInfo(prog, cl->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size) ==
            CL_SUCCESS &&
        size > 1) {
        char *full = malloc(size + 1);
        if (full && clGetProgramBuildInfo(prog, cl->device, CL_PROGRAM_BUILD_LOG, size, full,
                                          NULL) == CL_SUCCESS) {
            full[size] = '\0';
            /* The first lines name the first error (file:line); keep those. */
            snprintf(log, sizeof log, "%s", full);
        }
        free(full);
    }
    clReleaseProgram(prog);
    return hb__error(HB_ERR_BACKEND, "OpenCL: clBuildProgram (%s kernels) failed: %s (%d); build log:\n%s",
                     prec, hb__cl_error_name(err), (int)err, log);
}

/* The work-group size of a kernel: the device's and kernel's limit, capped
 * at the wanted size and rounded down to the preferred multiple. */
static hb_status choose_local(hb_cl *cl, cl_kernel k, const char *name, size_t *local,
                              size_t *kmax_out)
{
    size_t kmax = 0, mult = 1;
    HB_CL_CHECK(clGetKernelWorkGroupInfo(k, cl->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof kmax,
                                         &kmax, NULL),
                "clGetKernelWorkGroupInfo", name);
    *kmax_out = kmax;
    HB_CL_CHECK(clGetKernelWorkGroupInfo(k, cl->device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                         sizeof mult, &mult, NULL),
                "clGetKernelWorkGroupInfo", name);
    size_t want = cl->is_gpu ? HB_CL_GPU_GROUP : HB_CL_CPU_GROUP;
    if (want > kmax)
        want = kmax;
    if (want > cl->max_wg)
        want = cl->max_wg;
    if (mult > 0 && want >= mult)
        want -= want % mult;
    *local = want > 0 ? want : 1;
    return HB_SUCCESS;
}

/* Each kernel's registers from the build log of -cl-nv-verbose (0 where
 * the log does not say, as for a program from the driver's cache; the
 * estimate of resident groups then assumes a count, occupancy.c). */
static void read_registers(hb_cl *cl, hb_precision p)
{
    size_t size = 0;
    for (int k = 0; k < HB_CLK_COUNT; ++k)
        cl->kregs[p][k] = 0;
    if (clGetProgramBuildInfo(cl->program[p], cl->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size) !=
            CL_SUCCESS ||
        size < 2)
        return;
    char *log = malloc(size + 1);
    if (log && clGetProgramBuildInfo(cl->program[p], cl->device, CL_PROGRAM_BUILD_LOG, size, log,
                                     NULL) == CL_SUCCESS) {
        log[size] = '\0';
        for (int k = 0; k < HB_CLK_COUNT; ++k)
            cl->kregs[p][k] = hb__cl_nv_registers(log, kernel_names[k]);
    }
    free(log);
}

static hb_status build(hb_context *ctx, hb_precision p)
{
    hb_cl *cl = hb__cl(ctx);
    const char *prec = p == HB_DOUBLE ? "double" : "float";
    /* Precision is a prepended define; every embedded file follows, each
     * starting with its own #line so build logs name the real file. */
    const char *srcs[64];
    int n = 0;
    srcs[n++] = p == HB_DOUBLE ? "#define HB_DOUBLE 1\n" : "/* float */\n";
    for (int i = 0; i < hb__cl_nsources && n < 64; ++i)
        srcs[n++] = hb__cl_sources[i];
    cl_int err = CL_SUCCESS;
    cl_program prog = clCreateProgramWithSource(cl->context, (cl_uint)n, srcs, NULL, &err);
    HB_CL_CHECK(err, "clCreateProgramWithSource", prec);
    /* Same results as the host oracle: IEEE division in float too (the
     * kernels switch off contraction into fma themselves). On NVIDIA's
     * devices ptxas writes each kernel's registers into the build log
     * (-cl-nv-verbose, cl_nv_compiler_options), the one count of them that
     * OpenCL gives (occupancy.c). */
    char opts[128];
    snprintf(opts, sizeof opts, "-cl-std=CL1.2%s%s",
             p == HB_FLOAT && cl->fp32_div_ok ? " -cl-fp32-correctly-rounded-divide-sqrt" : "",
             cl->nv_cc > 0 ? " -cl-nv-verbose" : "");
    err = clBuildProgram(prog, 1, &cl->device, opts, NULL, NULL);
    if (err != CL_SUCCESS)
        return build_failed(cl, prog, err, prec);
    cl->program[p] = prog;
    if (cl->nv_cc > 0)
        read_registers(cl, p);
    hb__log("OpenCL: built the %s kernels (%d files) on %s", prec, hb__cl_nsources, ctx->device);
    return HB_SUCCESS;
}

/* Kernels are made on first use, so a kernel missing from the sources
 * fails only the operation that needs it. The caller holds cl->lock. */
static hb_status kernel_locked(hb_context *ctx, hb_precision p, int which, cl_kernel *k,
                               size_t *local)
{
    hb_cl *cl = hb__cl(ctx);
    if (!cl->program[p]) {
        hb_status st = build(ctx, p);
        if (st != HB_SUCCESS)
            return st;
    }
    if (!cl->kernel[p][which]) {
        cl_int err = CL_SUCCESS;
        cl_kernel made = clCreateKernel(cl->program[p], kernel_names[which], &err);
        HB_CL_CHECK(err, "clCreateKernel", kernel_names[which]);
        hb_status st = choose_local(cl, made, kernel_names[which], &cl->local[p][which],
                                    &cl->kmax[p][which]);
        if (st != HB_SUCCESS) {
            clReleaseKernel(made);
            return st;
        }
        cl->kernel[p][which] = made;
    }
    *k = cl->kernel[p][which];
    *local = cl->local[p][which];
    return HB_SUCCESS;
}

hb_status hb__cl_kernel(hb_context *ctx, hb_precision p, int which, cl_kernel *k, size_t *local)
{
    hb_cl *cl = hb__cl(ctx);
    hb__mutex_lock(&cl->lock);
    hb_status st = kernel_locked(ctx, p, which, k, local);
    hb__mutex_unlock(&cl->lock);
    return st;
}

/* The kernel's work-group limit on the device, queried once when the kernel
 * is made (it is fixed for a kernel and device): launchers ask for it on
 * every solve, where a driver query each time would add to small solves. */
hb_status hb__cl_kernel_max(hb_context *ctx, hb_precision p, int which, size_t *kmax)
{
    cl_kernel k = NULL;
    size_t local = 0;
    *kmax = 0;
    hb_cl *cl = hb__cl(ctx);
    hb__mutex_lock(&cl->lock);
    hb_status st = kernel_locked(ctx, p, which, &k, &local);
    if (st == HB_SUCCESS)
        *kmax = cl->kmax[p][which];
    hb__mutex_unlock(&cl->lock);
    return st;
}

static void release_program(hb_cl *cl, int p)
{
    for (int k = 0; k < HB_CLK_COUNT; ++k) {
        if (cl->kernel[p][k])
            clReleaseKernel(cl->kernel[p][k]);
        cl->kernel[p][k] = NULL;
    }
    if (cl->program[p])
        clReleaseProgram(cl->program[p]);
    cl->program[p] = NULL;
}

void hb__cl_release_programs(hb_cl *cl)
{
    release_program(cl, HB_DOUBLE);
    release_program(cl, HB_FLOAT);
}

/* Sets the arguments and enqueues global work-items in groups of local; the
 * caller holds cl->lock (the kernel keeps the arguments until the enqueue). */
static hb_status launch_locked(hb_context *ctx, cl_command_queue q, hb_precision p, int which,
                               const hb_cl_arg *args, int nargs, int64_t nitems, int64_t ngroups,
                               size_t local_want)
{
    cl_kernel k = NULL;
    size_t local = 1;
    HB_FORWARD(kernel_locked(ctx, p, which, &k, &local));
    for (int i = 0; i < nargs; ++i) {
        cl_int err = clSetKernelArg(k, (cl_uint)i, args[i].size, args[i].value);
        if (err != CL_SUCCESS) {
            char what[64];
            snprintf(what, sizeof what, "%s argument %d", kernel_names[which], i);
            return hb__cl_fail(err, "clSetKernelArg", what);
        }
    }
    if (ngroups > 0) {
        /* Per-group kernels stride over their work: fewer work-items than
         * wanted (the kernel's limit) stay correct. */
        const size_t kmax = hb__cl(ctx)->kmax[p][which];
        local = local_want < kmax ? local_want : kmax;
        if (local == 0)
            local = 1;
        nitems = ngroups * (int64_t)local;
    }
    size_t global = (size_t)((nitems + (int64_t)local - 1) / (int64_t)local) * local;
    HB_CL_CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL),
                "clEnqueueNDRangeKernel", kernel_names[which]);
    return HB_SUCCESS;
}

static hb_status launch(hb_context *ctx, void *stream, hb_precision p, int which,
                        const hb_cl_arg *args, int nargs, int64_t nitems, int64_t ngroups,
                        size_t local_want)
{
    hb_cl *cl = hb__cl(ctx);
    cl_command_queue q = NULL;
    HB_FORWARD(hb__cl_queue(ctx, stream, &q));
    hb__mutex_lock(&cl->lock);
    hb_status st = launch_locked(ctx, q, p, which, args, nargs, nitems, ngroups, local_want);
    hb__mutex_unlock(&cl->lock);
    return st;
}

hb_status hb__cl_launch(hb_context *ctx, void *stream, hb_precision p, int which,
                        const hb_cl_arg *args, int nargs, int64_t nitems)
{
    if (nitems <= 0)
        return HB_SUCCESS; /* zero-sized launches never reach OpenCL */
    return launch(ctx, stream, p, which, args, nargs, nitems, 0, 0);
}

hb_status hb__cl_launch_groups(hb_context *ctx, void *stream, hb_precision p, int which,
                               const hb_cl_arg *args, int nargs, int64_t ngroups, size_t local)
{
    if (ngroups <= 0)
        return HB_SUCCESS;
    return launch(ctx, stream, p, which, args, nargs, 0, ngroups, local);
}
