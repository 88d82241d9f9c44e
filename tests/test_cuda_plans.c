/* test_cuda_plans.c: CUDA backend behaviour: HINESBATCH_DEVICE, caller streams, device buffers across steps, block-shared fit and fallback, out-of-memory. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hb_oracle_runner.h"

/* Registered for the cuda backend only, and built only when the CUDA backend
 * is (tests/CMakeLists.txt, which also defines HB_TEST_CUDA_ENABLED): the
 * CUDA runtime and its headers come with the library's link interface; the
 * caller-stream checks need them. Without a device the test is skipped
 * (HB_TEST_ALLOW_SKIP), after the checks that need none. */
#ifdef HB_TEST_CUDA_ENABLED
#include <cuda_runtime.h>
#define HB_TEST_HAVE_CUDART 1
#endif

/* Checks that need no GPU: a bad HINESBATCH_DEVICE is refused before any
 * device is looked for. */
/* The suite's HINESBATCH_DEVICE (NULL: unset), put back after each change. */
static char *suite_device;

static void restore_device(void)
{
    if (suite_device)
        setenv("HINESBATCH_DEVICE", suite_device, 1);
    else
        unsetenv("HINESBATCH_DEVICE");
}

static void device_env(void)
{
    const char *bad[] = {"x", "-1", "1.5", "0x1", " 2"};
    for (int i = 0; i < 5; ++i) {
        setenv("HINESBATCH_DEVICE", bad[i], 1);
        hb_context *ctx = NULL;
        HB_CHECK_STATUS(hb_context_create(HB_BACKEND_CUDA, &ctx), HB_ERR_INVALID_ARGUMENT);
        HB_CHECK(strstr(hb_last_error(), "HINESBATCH_DEVICE") != NULL,
                 "message names HINESBATCH_DEVICE: %s", hb_last_error());
        HB_CHECK(ctx == NULL, "no context on error");
    }
    restore_device();
}

/* A random batch of kind (nsys systems of lo..hi rows, random tree kinds)
 * solved through a plan with options o on ctx, against the oracle. */
static void vs_oracle(hb_context *ctx, hb_context *oracle, const hb_oracle_kind *kind,
                      hb_precision p, const hb_plan_options *o, int64_t nsys, int64_t lo,
                      int64_t hi, const char *what)
{
    const hb_oracle_shape sh = {what, nsys, lo, hi, HB_TREE_KINDS};
    hb_oracle_batch bt;
    hb_oracle_make(&bt, kind, p, &sh, 1.0);
    char w[300];
    snprintf(w, sizeof w, "%s %s", kind->name, what);
    hb_oracle_reference(&bt, oracle, NULL, w);
    hb_oracle_plan(ctx, &bt, o, 0, NULL, w);
    hb_oracle_free(&bt);
}

/* Block-shared: fits in 48 KiB, needs the opt-in above 48 KiB (double,
 * 64 x 150 x 8 = 75 KiB), and too large for any GPU's shared memory (falls
 * back to the block-interleaved kernel). All against the oracle. */
static void block_shared(hb_context *ctx, hb_context *oracle)
{
    struct { int32_t bs; int64_t lo, hi; const char *name; } cases[] = {
        {64, 20, 60, "block-shared fits"},
        {64, 100, 150, "block-shared opt-in"},
        {64, 3000, 4000, "block-shared fallback"},
        {5, 1, 90, "block-shared odd block"}};
    for (int c = 0; c < 4; ++c)
        for (int pi = 0; pi < 2; ++pi)
            for (int pad = HB_PADDING_COMPUTE; pad <= HB_PADDING_SKIP; ++pad) {
                hb_plan_options o;
                hb_plan_options_init(&o);
                o.layout = HB_LAYOUT_BLOCK_SHARED;
                /* The block-shared kernels belong to the per-system strategy
                 * (auto may pick a branch strategy for few cells on a GPU). */
                o.strategy = HB_STRATEGY_PER_SYSTEM;
                o.block_size = cases[c].bs;
                o.padding = (hb_padding)pad;
                char what[128];
                snprintf(what, sizeof what, "%s %s %s", cases[c].name,
                         hb_test_precision_name((hb_precision)pi), hb_padding_name(o.padding));
                int64_t nsys = hb_test_range(70, 200);
                vs_oracle(ctx, oracle, &hb_oracle_hines, (hb_precision)pi, &o, nsys,
                          cases[c].lo, cases[c].hi, what);
                vs_oracle(ctx, oracle, &hb_oracle_tridiag, (hb_precision)pi, &o, nsys,
                          cases[c].lo, cases[c].hi, what);
            }
}

/* Several time steps through the device pointer of hb_plan_buffer, written
 * with cudaMemcpy in the plan's layout (hb_plan_index), on the caller's
 * non-blocking stream; the handles stay the same across steps. */
#ifdef HB_TEST_HAVE_CUDART
static void device_steps(hb_context *ctx, hb_context *oracle, hb_precision p)
{
    cudaStream_t s = NULL;
    HB_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess,
             "cudaStreamCreateWithFlags");
    const int64_t nsys = hb_test_range(50, 400), n = hb_test_range(2, 120);
    const hb_oracle_shape sh = {"copies of a random tree", nsys, n, n, HB_TREE_RANDOM};
    hb_oracle_batch bt;
    hb_oracle_make(&bt, &hb_oracle_hines, p, &sh, 1.0);
    size_t es = hb_test_esize(p);
    void *x = hb_test_alloc(p, bt.nrows);
    hb_plan_options o;
    hb_plan_options_init(&o);
    o.stream = s;
    o.strategy = HB_STRATEGY_PER_SYSTEM; /* hb_plan_index on per-system layouts */
    hb_plan *plan = NULL;
    hb_layout_info info;
    if (hb_oracle_plan_create(ctx, &bt, &o, 1, &plan) == HB_SUCCESS &&
        hb_plan_layout_info(plan, &info) == HB_SUCCESS) {
        void *hd0 = NULL, *hr0 = NULL;
        char *lay = hb_test_xalloc((size_t)info.length * es);
        for (int step = 0; step < 3; ++step) {
            if (step > 0)
                bt.kind->random(&bt, 1.0);
            /* u and l through hb_plan_set; d and rhs straight into device memory. */
            HB_CHECK_STATUS(hb_plan_set(plan, HB_ARRAY_U, bt.m[0]), HB_SUCCESS);
            HB_CHECK_STATUS(hb_plan_set(plan, HB_ARRAY_L, bt.m[1]), HB_SUCCESS);
            void *hd = NULL, *hr = NULL;
            HB_CHECK_STATUS(hb_plan_buffer(plan, HB_ARRAY_D, &hd), HB_SUCCESS);
            HB_CHECK_STATUS(hb_plan_buffer(plan, HB_ARRAY_RHS, &hr), HB_SUCCESS);
            if (step == 0)
                hd0 = hd, hr0 = hr;
            HB_CHECK(hd == hd0 && hr == hr0, "device buffers stay the same across steps");
            const void *src[2] = {bt.m[2], bt.rhs};
            void *dst[2] = {hd, hr};
            for (int q = 0; q < 2; ++q) {
                memset(lay, 0, (size_t)info.length * es);
                for (int64_t sy = 0; sy < nsys; ++sy)
                    for (int64_t i = 0; i < n; ++i) {
                        int64_t idx = -1;
                        HB_CHECK_STATUS(hb_plan_index(plan, sy, i, &idx), HB_SUCCESS);
                        memcpy(lay + idx * es, (const char *)src[q] + (sy * n + i) * es, es);
                    }
                HB_CHECK(cudaMemcpyAsync(dst[q], lay, (size_t)info.length * es,
                                         cudaMemcpyHostToDevice, s) == cudaSuccess,
                         "cudaMemcpyAsync into the plan");
                /* lay is rewritten next: wait for the copy. */
                HB_CHECK(cudaStreamSynchronize(s) == cudaSuccess, "cudaStreamSynchronize");
            }
            char what[96];
            snprintf(what, sizeof what, "caller stream, device buffers, %s, step %d",
                     hb_test_precision_name(p), step);
            hb_oracle_plan_step(ctx, oracle, NULL, plan, &bt, x, what);
        }
        free(lay);
    }
    hb_plan_destroy(plan);
    cudaStreamDestroy(s);
    free(x);
    hb_oracle_free(&bt);
}
#endif

/* A plan far larger than any GPU: HB_ERR_OUT_OF_MEMORY naming the bytes, and
 * the context still works afterwards. */
static void too_big(hb_context *ctx, hb_context *oracle)
{
    hb_plan *plan = NULL;
    HB_CHECK_STATUS(hb_plan_create_tridiag_uniform(ctx, HB_DOUBLE, 1024,
                                                   (int64_t)1 << 34, NULL, &plan),
                    HB_ERR_OUT_OF_MEMORY);
    HB_CHECK(plan == NULL, "no plan on error");
    HB_CHECK(strstr(hb_last_error(), "bytes") != NULL, "message gives the size: %s",
             hb_last_error());
    vs_oracle(ctx, oracle, &hb_oracle_tridiag, HB_DOUBLE, NULL, 10, 5, 9, "after out-of-memory");
}

int main(void)
{
    hb_test_begin("test_cuda_plans");
    if (getenv("HINESBATCH_DEVICE"))
        suite_device = strdup(getenv("HINESBATCH_DEVICE"));
    device_env(); /* needs no device: before the skip */
    hb_context *ctx = hb_test_backend_context(HB_BACKEND_CUDA); /* 77 without a device */
    hb_context *oracle = hb_test_oracle();
    {
        /* A device index past the list is unavailable, naming the value;
         * index 0 opens the same device as the default. */
        hb_context *c2 = NULL;
        setenv("HINESBATCH_DEVICE", "9999", 1);
        HB_CHECK_STATUS(hb_context_create(HB_BACKEND_CUDA, &c2), HB_ERR_BACKEND_UNAVAILABLE);
        HB_CHECK(strstr(hb_last_error(), "HINESBATCH_DEVICE=9999") != NULL, "message: %s",
                 hb_last_error());
        setenv("HINESBATCH_DEVICE", "0", 1);
        HB_CHECK_STATUS(hb_context_create(HB_BACKEND_CUDA, &c2), HB_SUCCESS);
        if (c2)
            HB_CHECK(strstr(hb_context_describe(c2), "device 0") != NULL, "describe: %s",
                     hb_context_describe(c2));
        hb_context_destroy(c2);
        restore_device();
    }
    block_shared(ctx, oracle);
#ifdef HB_TEST_HAVE_CUDART
    device_steps(ctx, oracle, HB_DOUBLE);
    device_steps(ctx, oracle, HB_FLOAT);
#else
    HB_CHECK(0, "the CUDA backend is built but cuda_runtime.h is not on the test's include path");
#endif
    too_big(ctx, oracle);
    hb_context_destroy(ctx);
    hb_context_destroy(oracle);
    free(suite_device);
    return hb_test_finish();
}
