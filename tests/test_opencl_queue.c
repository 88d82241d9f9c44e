/* test_opencl_queue.c: a caller's cl_command_queue as the plan's stream, and a simulator's path: writing plan arrays on the device through hb_plan_buffer's cl_mem and the layout's index formula. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hb_test_util.h"

#ifdef HB_BUILT_WITH_OPENCL
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#ifdef __APPLE__
#include <OpenCL/opencl.h>
#else
#include <CL/cl.h>
#endif

#define CL_OK(call) HB_CHECK((call) == CL_SUCCESS, "%s failed", #call)

/* The cl_context and device behind a plan buffer. */
static int context_of(cl_mem mem, cl_context *c, cl_device_id *d)
{
    if (clGetMemObjectInfo(mem, CL_MEM_CONTEXT, sizeof *c, c, NULL) != CL_SUCCESS)
        return 0;
    return clGetContextInfo(*c, CL_CONTEXT_DEVICES, sizeof *d, d, NULL) == CL_SUCCESS;
}

/* Builds host arrays in the plan's layout (via hb_plan_index) for the
 * caller's flat values: what a simulator keeps on the device. Positions no
 * system owns (padding) get pad: identity rows have d = 1, rhs = 0. */
static void *to_layout_host(hb_plan *plan, hb_precision p, int64_t nsys, const int64_t *off,
                            const void *flat, int64_t length, double pad)
{
    void *lay = hb_test_alloc(p, length);
    for (int64_t k = 0; k < length; ++k)
        hb_test_put(p, lay, k, pad);
    for (int64_t s = 0; s < nsys; ++s)
        for (int64_t i = 0; i < off[s + 1] - off[s]; ++i) {
            int64_t at = -1;
            HB_CHECK_STATUS(hb_plan_index(plan, s, i, &at), HB_SUCCESS);
            if (at >= 0 && at < length)
                hb_test_put(p, lay, at, hb_test_get(p, flat, off[s] + i));
        }
    return lay;
}

static void run(hb_context *ctx, hb_context *oracle, hb_precision p, hb_layout layout)
{
    const int64_t nsys = 45;
    int64_t *off = hb_test_offsets_random(nsys, 1, 120);
    int64_t nrows = off[nsys];
    int32_t *parent = hb_test_xalloc((size_t)nrows * sizeof *parent);
    for (int64_t s = 0; s < nsys; ++s)
        hb_test_tree(parent + off[s], off[s + 1] - off[s], HB_TREE_RANDOM);
    void *u = hb_test_alloc(p, nrows), *l = hb_test_alloc(p, nrows), *d = hb_test_alloc(p, nrows);
    void *r = hb_test_alloc(p, nrows), *x = hb_test_alloc(p, nrows), *xr = hb_test_alloc(p, nrows);
    hb_test_hines_random(p, nsys, off, parent, u, l, d, r, 1.0);

    /* A first plan on the context's queue tells us the cl_context. */
    hb_plan *probe = NULL;
    HB_CHECK_STATUS(hb_plan_create_hines(ctx, p, nsys, off, parent, NULL, &probe), HB_SUCCESS);
    void *h = NULL;
    cl_context clctx = NULL;
    cl_device_id dev = NULL;
    if (probe)
        HB_CHECK_STATUS(hb_plan_buffer(probe, HB_ARRAY_U, &h), HB_SUCCESS);
    HB_CHECK(h && context_of((cl_mem)h, &clctx, &dev), "no cl_context behind the plan buffer");
    hb_plan_destroy(probe);
    if (!clctx)
        goto out;
    cl_int err = CL_SUCCESS;
    cl_command_queue q = clCreateCommandQueue(clctx, dev, 0, &err);
    HB_CHECK(err == CL_SUCCESS, "clCreateCommandQueue: %d", (int)err);
    if (err != CL_SUCCESS)
        goto out;

    hb_plan_options o;
    hb_plan_options_init(&o);
    o.layout = layout;
    o.block_size = 8;
    o.padding = HB_PADDING_COMPUTE; /* padded rows are solved: their identity rows matter */
    o.strategy = HB_STRATEGY_PER_SYSTEM;
    o.stream = q;
    hb_plan *plan = NULL, *ref = NULL;
    HB_CHECK_STATUS(hb_plan_create_hines(ctx, p, nsys, off, parent, &o, &plan), HB_SUCCESS);
    HB_CHECK_STATUS(hb_plan_create_hines(oracle, p, nsys, off, parent, NULL, &ref), HB_SUCCESS);
    if (plan && ref) {
        const hb_array arr[] = {HB_ARRAY_U, HB_ARRAY_L, HB_ARRAY_D, HB_ARRAY_RHS};
        const void *src[] = {u, l, d, r};
        for (int i = 0; i < 4; ++i) {
            HB_CHECK_STATUS(hb_plan_set(ref, arr[i], src[i]), HB_SUCCESS);
            if (i < 2)
                HB_CHECK_STATUS(hb_plan_set(plan, arr[i], src[i]), HB_SUCCESS);
        }
        /* D and RHS go straight into the device buffers in the plan's
         * layout, on the caller's queue: no hb_plan_set. */
        hb_layout_info info;
        HB_CHECK_STATUS(hb_plan_layout_info(plan, &info), HB_SUCCESS);
        size_t es = hb_test_esize(p);
        for (int i = 2; i < 4; ++i) {
            void *lay = to_layout_host(plan, p, nsys, off, src[i], info.length, i == 2 ? 1.0 : 0.0);
            void *mem = NULL;
            HB_CHECK_STATUS(hb_plan_buffer(plan, arr[i], &mem), HB_SUCCESS);
            if (mem)
                CL_OK(clEnqueueWriteBuffer(q, (cl_mem)mem, CL_TRUE, 0, (size_t)info.length * es,
                                           lay, 0, NULL, NULL));
            free(lay);
        }
        hb_test_poison(p, x, nrows);
        HB_CHECK_STATUS(hb_plan_solve(plan), HB_SUCCESS);
        CL_OK(clFinish(q));
        HB_CHECK_STATUS(hb_plan_solve(ref), HB_SUCCESS);
        HB_CHECK_STATUS(hb_plan_get_solution(plan, x), HB_SUCCESS);
        HB_CHECK_STATUS(hb_plan_get_solution(ref, xr), HB_SUCCESS);
        double diff = hb_test_max_rel_diff(p, nsys, off, x, xr);
        HB_CHECK(diff <= hb_test_diff_bound(p), "%s own queue, device-written d/rhs: %g from oracle",
                 hb_plan_describe(plan), diff);
        printf("%s: own queue, device-written d and rhs: rel diff %g from the oracle\n",
               hb_plan_describe(plan), diff);
    }
    hb_plan_destroy(plan);
    hb_plan_destroy(ref);

    /* A queue of another cl_context is refused with a clear error. */
    cl_context other = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    if (err == CL_SUCCESS) {
        cl_command_queue q2 = clCreateCommandQueue(other, dev, 0, &err);
        if (err == CL_SUCCESS) {
            o.stream = q2;
            plan = NULL;
            HB_CHECK_STATUS(hb_plan_create_hines(ctx, p, nsys, off, parent, &o, &plan),
                            HB_ERR_INVALID_ARGUMENT);
            HB_CHECK(strstr(hb_last_error(), "another cl_context") != NULL, "message: %s",
                     hb_last_error());
            hb_plan_destroy(plan);
            clReleaseCommandQueue(q2);
        }
        clReleaseContext(other);
    }
    clReleaseCommandQueue(q);
out:
    free(u), free(l), free(d), free(r), free(x), free(xr), free(off), free(parent);
}
#endif

int main(void)
{
    hb_test_begin("test_opencl_queue");
#ifdef HB_BUILT_WITH_OPENCL
    hb_context *oracle = hb_test_oracle();
    hb_context *ctx = NULL;
    hb_status st = hb_context_create(HB_BACKEND_OPENCL, &ctx);
    HB_CHECK(st == HB_SUCCESS, "OpenCL context: %s (%s)", hb_status_string(st), hb_last_error());
    if (ctx) {
        const hb_layout layouts[] = {HB_LAYOUT_FLAT, HB_LAYOUT_INTERLEAVED,
                                     HB_LAYOUT_BLOCK_INTERLEAVED, HB_LAYOUT_BLOCK_SHARED};
        for (int p = 0; p < 2; ++p)
            for (int li = 0; li < 4; ++li)
                run(ctx, oracle, (hb_precision)p, layouts[li]);
    }
    hb_context_destroy(ctx);
    hb_context_destroy(oracle);
#else
    /* Built without OpenCL: asking for it must say so. */
    hb_context *ctx = NULL;
    HB_CHECK_STATUS(hb_context_create(HB_BACKEND_OPENCL, &ctx), HB_ERR_BACKEND_UNAVAILABLE);
#endif
    return hb_test_finish();
}
