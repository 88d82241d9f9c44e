/* test_cuda_adopt.c: a simulator's own cudaStream_t adopted by hb_context_create_with: plans solved on it against the serial oracle, the solve seen queued behind the caller's work on that stream, the stream left alive and usable when hinesbatch lets go, the default streams, and a stream of another device refused. */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv, strdup, nanosleep */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hb_oracle_runner.h"

/* Registered for the cuda backend only, and built only when the CUDA backend
 * is (tests/CMakeLists.txt, which defines HB_TEST_CUDA_ENABLED; the CUDA
 * runtime comes with the library's link interface, as in test_cuda_plans).
 * Without a device the test is skipped (exit 77) after the checks that need
 * none. */
#ifdef HB_TEST_CUDA_ENABLED
#include <cuda_runtime.h>
#endif

/* Needs no device: a stream is CUDA's, refused with another backend before
 * anything is touched (the pointer is a dummy). */
static void no_device_checks(void)
{
    int dummy = 0;
    hb_context_options o;
    hb_context_options_init(&o);
    o.cuda_stream = &dummy;
    const hb_backend others[] = {HB_BACKEND_AUTO, HB_BACKEND_SERIAL, HB_BACKEND_OPENMP,
                                 HB_BACKEND_OPENCL};
    for (int i = 0; i < 4; ++i) {
        o.backend = others[i];
        hb_context *c = NULL;
        HB_CHECK_STATUS(hb_context_create_with(&o, &c), HB_ERR_INVALID_ARGUMENT);
        HB_CHECK(c == NULL && strstr(hb_last_error(), "cuda_stream") != NULL, "%s: %s",
                 hb_backend_name(others[i]), hb_last_error());
    }
    /* And OpenCL handles with CUDA. */
    hb_context_options_init(&o);
    o.backend = HB_BACKEND_CUDA;
    o.cl_queue = &dummy;
    hb_context *c = NULL;
    HB_CHECK_STATUS(hb_context_create_with(&o, &c), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK(c == NULL && strstr(hb_last_error(), "cl_queue") != NULL, "message: %s",
             hb_last_error());
}

#ifdef HB_TEST_CUDA_ENABLED
#define CUDA_OK(call)                                                                        \
    do {                                                                                     \
        cudaError_t e_ = (call);                                                             \
        HB_CHECK(e_ == cudaSuccess, "%s failed: %s", #call, cudaGetErrorString(e_));        \
    } while (0)

static hb_context *adopt(cudaStream_t s)
{
    hb_context_options o;
    hb_context_options_init(&o);
    o.backend = HB_BACKEND_CUDA;
    o.cuda_stream = (void *)s;
    hb_context *c = NULL;
    HB_CHECK_STATUS(hb_context_create_with(&o, &c), HB_SUCCESS);
    return c;
}

/* Plans of both kinds and precisions in three layouts on ctx (whose stream
 * is the adopted one), against the oracle. */
static void solve_on(hb_context *ctx, hb_context *oracle, const char *what)
{
    const hb_layout layouts[] = {HB_LAYOUT_FLAT, HB_LAYOUT_INTERLEAVED, HB_LAYOUT_BLOCK_SHARED};
    for (int k = 0; k < 2; ++k)
        for (int p = 0; p < 2; ++p)
            for (int li = 0; li < 3; ++li) {
                const hb_oracle_shape sh = {what, 200, 1, 150, HB_TREE_KINDS};
                hb_oracle_batch bt;
                hb_oracle_make(&bt, k ? &hb_oracle_hines : &hb_oracle_tridiag, (hb_precision)p,
                               &sh, 1.0);
                char w[200];
                snprintf(w, sizeof w, "%s, %s", what, hb_layout_name(layouts[li]));
                hb_oracle_reference(&bt, oracle, NULL, w);
                hb_plan_options o;
                hb_plan_options_init(&o);
                o.layout = layouts[li];
                o.strategy = HB_STRATEGY_PER_SYSTEM;
                hb_oracle_plan(ctx, &bt, &o, 0, NULL, w);
                /* AUTO as well: a branch strategy where it picks one. */
                hb_oracle_plan(ctx, &bt, NULL, 0, NULL, w);
                hb_oracle_free(&bt);
            }
}

/* Holds a stream until *open is set, or 10 s pass (so a wrong library
 * fails the test instead of hanging it). A host function may not call
 * CUDA; it only waits. */
static void CUDART_CB hold_stream(void *arg)
{
    atomic_int *open = (atomic_int *)arg;
    double until = hb_test_seconds() + 10.0;
    while (!atomic_load(open) && hb_test_seconds() < until) {
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
}

/* The solve goes to the caller's stream: with that stream held by a host
 * function, the solve is queued but cannot run, so a copy of the right-hand
 * side on another stream still reads it unsolved; released, the stream runs
 * it. */
static void work_on_callers_stream(hb_context *ctx, hb_context *oracle, cudaStream_t s)
{
    const hb_oracle_shape sh = {"held stream", 300, 5, 60, HB_TREE_RANDOM};
    hb_oracle_batch bt;
    hb_oracle_make(&bt, &hb_oracle_hines, HB_DOUBLE, &sh, 1.0);
    hb_oracle_reference(&bt, oracle, NULL, sh.name);
    hb_plan_options o;
    hb_plan_options_init(&o);
    o.layout = HB_LAYOUT_FLAT;
    o.strategy = HB_STRATEGY_PER_SYSTEM;
    hb_plan *plan = NULL;
    size_t bytes = (size_t)bt.nrows * sizeof(double);
    double *before = NULL, *held = NULL, *after = NULL;
    /* Pinned: copies on the second stream are truly asynchronous. */
    CUDA_OK(cudaMallocHost((void **)&before, bytes));
    CUDA_OK(cudaMallocHost((void **)&held, bytes));
    CUDA_OK(cudaMallocHost((void **)&after, bytes));
    cudaStream_t other = NULL;
    CUDA_OK(cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking));
    void *x = hb_test_alloc(HB_DOUBLE, bt.nrows);
    if (before && held && after && other &&
        hb_oracle_plan_create(ctx, &bt, &o, 0, &plan) == HB_SUCCESS) {
        void *rhs = NULL;
        HB_CHECK_STATUS(hb_plan_buffer(plan, HB_ARRAY_RHS, &rhs), HB_SUCCESS);
        hb_oracle_plan_set(plan, &bt);
        CUDA_OK(cudaStreamSynchronize(s)); /* the uploads are done */
        CUDA_OK(cudaMemcpyAsync(before, rhs, bytes, cudaMemcpyDeviceToHost, other));
        CUDA_OK(cudaStreamSynchronize(other));
        atomic_int open;
        atomic_init(&open, 0);
        CUDA_OK(cudaLaunchHostFunc(s, hold_stream, &open));
        double t0 = hb_test_seconds();
        HB_CHECK_STATUS(hb_plan_solve(plan), HB_SUCCESS); /* queued behind the host function */
        memset(held, 0, bytes);
        CUDA_OK(cudaMemcpyAsync(held, rhs, bytes, cudaMemcpyDeviceToHost, other));
        CUDA_OK(cudaStreamSynchronize(other));
        HB_CHECK(hb_test_seconds() - t0 < 5.0, "hb_plan_solve or the copy waited for the held "
                                               "stream");
        HB_CHECK(hb_test_bitequal(before, held, bytes),
                 "the solve ran although the caller's stream was held: not queued there");
        atomic_store(&open, 1);
        CUDA_OK(cudaStreamSynchronize(s));
        CUDA_OK(cudaMemcpyAsync(after, rhs, bytes, cudaMemcpyDeviceToHost, other));
        CUDA_OK(cudaStreamSynchronize(other));
        HB_CHECK(!hb_test_bitequal(before, after, bytes), "no solve after the stream was released");
        hb_test_poison(HB_DOUBLE, x, bt.nrows);
        HB_CHECK_STATUS(hb_plan_get_solution(plan, x), HB_SUCCESS);
        hb_oracle_plan_check(ctx, plan, &bt, x, sh.name);
    }
    hb_plan_destroy(plan);
    if (other)
        cudaStreamDestroy(other);
    cudaFreeHost(before);
    cudaFreeHost(held);
    cudaFreeHost(after);
    free(x);
    hb_oracle_free(&bt);
}

/* hinesbatch never destroys an adopted stream: after the context and a plan
 * that outlived it are gone, the stream still runs the caller's work. */
static void lifetimes(hb_context *oracle, cudaStream_t s, const hb_context *kind)
{
    hb_context *ctx = adopt(s);
    if (!ctx)
        return;
    const hb_oracle_shape sh = {"plan outliving its adopting context", 100, 1, 80, HB_TREE_KINDS};
    hb_oracle_batch bt;
    hb_oracle_make(&bt, &hb_oracle_hines, HB_DOUBLE, &sh, 1.0);
    hb_oracle_reference(&bt, oracle, NULL, sh.name);
    hb_plan *plan = NULL;
    void *x = hb_test_alloc(bt.p, bt.nrows);
    HB_CHECK_STATUS(hb_oracle_plan_create(ctx, &bt, NULL, 0, &plan), HB_SUCCESS);
    hb_context_destroy(ctx); /* the plan keeps the context */
    if (plan) {
        hb_oracle_plan_set(plan, &bt);
        hb_oracle_plan_finish(plan, &bt, x);
        hb_oracle_plan_check(kind, plan, &bt, x, sh.name); /* kind: the tolerance tier */
    }
    hb_plan_destroy(plan);
    /* The stream is still the caller's. */
    CUDA_OK(cudaStreamQuery(s));
    void *d = NULL;
    int back = 0;
    CUDA_OK(cudaMalloc(&d, sizeof back));
    if (d) {
        CUDA_OK(cudaMemsetAsync(d, 0x7f, sizeof back, s));
        CUDA_OK(cudaMemcpyAsync(&back, d, sizeof back, cudaMemcpyDeviceToHost, s));
        CUDA_OK(cudaStreamSynchronize(s));
        HB_CHECK(back == 0x7f7f7f7f, "the caller's stream after hinesbatch let go: %x", back);
        cudaFree(d);
    }
    free(x);
    hb_oracle_free(&bt);
}

/* The stream decides the device: HINESBATCH_DEVICE is not read (a malformed
 * value does not matter); a device index that is not the stream's is
 * refused (CUDA 12.8 and newer tell a stream's device; older runtimes take
 * the index, which is past the list here). */
static void device_choice(cudaStream_t s, int dev)
{
    hb_test_env_save();
    setenv("HINESBATCH_DEVICE", "x", 1);
    hb_context *c = adopt(s);
    hb_context_destroy(c);
    hb_test_env_restore();
    hb_test_env_free();

    int count = 0;
    CUDA_OK(cudaGetDeviceCount(&count));
    hb_context_options o;
    hb_context_options_init(&o);
    o.backend = HB_BACKEND_CUDA;
    o.cuda_stream = (void *)s;
    o.device = dev;
    c = NULL;
    HB_CHECK_STATUS(hb_context_create_with(&o, &c), HB_SUCCESS);
    hb_context_destroy(c);
    o.device = count;
    c = NULL;
#if CUDART_VERSION >= 12080
    HB_CHECK_STATUS(hb_context_create_with(&o, &c), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK(strstr(hb_last_error(), "cuda_stream") != NULL, "message: %s", hb_last_error());
#else
    HB_CHECK_STATUS(hb_context_create_with(&o, &c), HB_ERR_BACKEND_UNAVAILABLE);
    HB_CHECK(strstr(hb_last_error(), "hb_context_options.device") != NULL, "message: %s",
             hb_last_error());
#endif
    HB_CHECK(c == NULL, "no context on error");
}

static void run(hb_context *probe, hb_context *oracle)
{
    hb_context_options po;
    HB_CHECK_STATUS(hb_context_get_options(probe, &po), HB_SUCCESS);
    int dev = po.device;
    CUDA_OK(cudaSetDevice(dev));
    cudaStream_t s = NULL;
    CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    if (!s)
        return;
    hb_context *ctx = adopt(s);
    if (ctx) {
        printf("adopted: %s\n", hb_context_describe(ctx));
        HB_CHECK(strstr(hb_context_describe(ctx), "the caller's stream") != NULL,
                 "description: %s", hb_context_describe(ctx));
        hb_context_options got;
        HB_CHECK_STATUS(hb_context_get_options(ctx, &got), HB_SUCCESS);
        HB_CHECK(got.backend == HB_BACKEND_CUDA && got.cuda_stream == (void *)s &&
                     got.device == dev,
                 "get_options: stream %p (want %p), device %d (want %d)", got.cuda_stream,
                 (void *)s, (int)got.device, dev);
        solve_on(ctx, oracle, "adopted stream");
        work_on_callers_stream(ctx, oracle, s);
        /* The probe's own stream is not touched by adoption. */
        HB_CHECK_STATUS(hb_context_get_options(probe, &got), HB_SUCCESS);
        HB_CHECK(got.cuda_stream != (void *)s, "the probe context's stream changed");
    }
    hb_context_destroy(ctx);
    lifetimes(oracle, s, probe);
    device_choice(s, dev);
    /* The default streams, by their special handles. */
    cudaStream_t defaults[2] = {cudaStreamLegacy, cudaStreamPerThread};
    const char *names[2] = {"cudaStreamLegacy", "cudaStreamPerThread"};
    for (int i = 0; i < 2; ++i) {
        hb_context *c = adopt(defaults[i]);
        if (c)
            solve_on(c, oracle, names[i]);
        hb_context_destroy(c);
    }
    CUDA_OK(cudaStreamDestroy(s));
}
#endif

int main(void)
{
    hb_test_begin("test_cuda_adopt");
    no_device_checks(); /* before the skip */
    hb_context *probe = hb_test_backend_context(HB_BACKEND_CUDA); /* 77 without a device */
    hb_context *oracle = hb_test_oracle();
#ifdef HB_TEST_CUDA_ENABLED
    run(probe, oracle);
#else
    HB_CHECK(0, "the CUDA backend is built but cuda_runtime.h is not on the test's include path");
#endif
    hb_context_destroy(probe);
    hb_context_destroy(oracle);
    return hb_test_finish();
}
