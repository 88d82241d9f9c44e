/* test_opencl_queue.c: a caller's cl_command_queue as the plan's stream, and a simulator's path: writing plan arrays on the device through hb_plan_buffer's cl_mem and the layout's index formula. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hb_oracle_runner.h"

#define CL_TARGET_OPENCL_VERSION 120
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
    const hb_oracle_shape sh = {"45 random trees of 1..120 rows", 45, 1, 120, HB_TREE_RANDOM};
    hb_oracle_batch bt;
    hb_oracle_make(&bt, &hb_oracle_hines, p, &sh, 1.0);
    hb_oracle_reference(&bt, oracle, NULL, sh.name);
    void *x = hb_test_alloc(p, bt.nrows);

    /* A first plan on the context's queue tells us the cl_context. */
    hb_plan *probe = NULL;
    void *h = NULL;
    cl_context clctx = NULL;
    cl_device_id dev = NULL;
    if (hb_oracle_plan_create(ctx, &bt, NULL, 0, &probe) == HB_SUCCESS)
        HB_CHECK_STATUS(hb_plan_buffer(probe, HB_ARRAY_U, &h), HB_SUCCESS);
    HB_CHECK(h && context_of((cl_mem)h, &clctx, &dev), "no cl_context behind the plan buffer");
    hb_plan_destroy(probe);
    cl_int err = CL_SUCCESS;
    cl_command_queue q = clctx ? clCreateCommandQueue(clctx, dev, 0, &err) : NULL;
    HB_CHECK(q && err == CL_SUCCESS, "clCreateCommandQueue: %d", (int)err);
    if (!q)
        goto out;

    hb_plan_options o;
    hb_plan_options_init(&o);
    o.layout = layout;
    o.block_size = 8;
    o.padding = HB_PADDING_COMPUTE; /* padded rows are solved: their identity rows matter */
    o.strategy = HB_STRATEGY_PER_SYSTEM;
    o.stream = q;
    hb_plan *plan = NULL;
    if (hb_oracle_plan_create(ctx, &bt, &o, 0, &plan) == HB_SUCCESS) {
        hb_test_check_info(plan, ctx, p, bt.nsys, bt.off, bt.parent, &o, "own queue");
        HB_CHECK_STATUS(hb_plan_set(plan, HB_ARRAY_U, bt.m[0]), HB_SUCCESS);
        HB_CHECK_STATUS(hb_plan_set(plan, HB_ARRAY_L, bt.m[1]), HB_SUCCESS);
        /* D and RHS go straight into the device buffers in the plan's
         * layout, on the caller's queue: no hb_plan_set. */
        hb_layout_info info;
        HB_CHECK_STATUS(hb_plan_layout_info(plan, &info), HB_SUCCESS);
        const hb_array arr[2] = {HB_ARRAY_D, HB_ARRAY_RHS};
        const void *src[2] = {bt.m[2], bt.rhs};
        for (int i = 0; i < 2; ++i) {
            void *lay = to_layout_host(plan, p, bt.nsys, bt.off, src[i], info.length, i ? 0.0 : 1.0);
            void *mem = NULL;
            HB_CHECK_STATUS(hb_plan_buffer(plan, arr[i], &mem), HB_SUCCESS);
            if (mem)
                CL_OK(clEnqueueWriteBuffer(q, (cl_mem)mem, CL_TRUE, 0,
                                           (size_t)info.length * hb_test_esize(p), lay, 0, NULL,
                                           NULL));
            free(lay);
        }
        hb_test_poison(p, x, bt.nrows);
        HB_CHECK_STATUS(hb_plan_solve(plan), HB_SUCCESS);
        CL_OK(clFinish(q));
        HB_CHECK_STATUS(hb_plan_get_solution(plan, x), HB_SUCCESS);
        char what[400];
        snprintf(what, sizeof what, "own queue, device-written d and rhs: %s",
                 hb_plan_describe(plan));
        hb_oracle_plan_check(ctx, plan, &bt, x, what);
    }
    hb_plan_destroy(plan);

    /* A queue of another cl_context is refused with a clear error. */
    cl_context other = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    HB_CHECK(err == CL_SUCCESS, "clCreateContext: %d", (int)err);
    if (err == CL_SUCCESS) {
        cl_command_queue q2 = clCreateCommandQueue(other, dev, 0, &err);
        HB_CHECK(err == CL_SUCCESS, "clCreateCommandQueue on another context: %d", (int)err);
        if (err == CL_SUCCESS) {
            o.stream = q2;
            plan = NULL;
            HB_CHECK_STATUS(hb_plan_create_hines(ctx, p, bt.nsys, bt.off, bt.parent, &o, &plan),
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
    free(x);
    hb_oracle_free(&bt);
}

int main(void)
{
    hb_test_begin("test_opencl_queue");
    hb_context *ctx = hb_test_backend_context(HB_BACKEND_OPENCL), *oracle = hb_test_oracle();
    const hb_layout layouts[] = {HB_LAYOUT_FLAT, HB_LAYOUT_INTERLEAVED,
                                 HB_LAYOUT_BLOCK_INTERLEAVED, HB_LAYOUT_BLOCK_SHARED};
    for (int p = 0; p < 2; ++p)
        for (int li = 0; li < 4; ++li)
            run(ctx, oracle, (hb_precision)p, layouts[li]);
    hb_context_destroy(ctx);
    hb_context_destroy(oracle);
    return hb_test_finish();
}
