/* test_cuda_plans.c: CUDA backend behaviour: HINESBATCH_DEVICE, caller streams, device buffers across steps, block-shared fit and fallback, out-of-memory. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hb_test_util.h"

/* When the CUDA backend is built (tests/CMakeLists.txt defines
 * HB_TEST_CUDA_ENABLED), the CUDA runtime and its headers come with the
 * library's link interface; the caller-stream checks need them. */
#ifdef HB_TEST_CUDA_ENABLED
#include <cuda_runtime.h>
#define HB_TEST_HAVE_CUDART 1
#endif

/* Checks that need no GPU: a bad HINESBATCH_DEVICE is refused before any
 * device is looked for. */
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
    unsetenv("HINESBATCH_DEVICE");
}

/* Solves a Hines batch on ctx and the oracle; plan options as given. */
static void hines_vs_oracle(hb_context *ctx, hb_context *oracle, hb_precision p,
                            const hb_plan_options *o, int64_t nsys, int64_t lo, int64_t hi,
                            const char *what)
{
    int64_t *off = hb_test_offsets_random(nsys, lo, hi);
    int64_t nrows = off[nsys];
    int32_t *parent = hb_test_xalloc((size_t)nrows * sizeof *parent);
    for (int64_t s = 0; s < nsys; ++s)
        hb_test_tree(parent + off[s], off[s + 1] - off[s],
                     (hb_test_tree_kind)hb_test_range(0, HB_TREE_KINDS - 1));
    void *u = hb_test_alloc(p, nrows), *l = hb_test_alloc(p, nrows), *d = hb_test_alloc(p, nrows);
    void *rhs = hb_test_alloc(p, nrows), *x = hb_test_alloc(p, nrows), *ref = hb_test_alloc(p, nrows);
    hb_test_hines_random(p, nsys, off, parent, u, l, d, rhs, 1.0);
    hb_plan *plan = NULL, *oplan = NULL;
    HB_CHECK_STATUS(hb_plan_create_hines(ctx, p, nsys, off, parent, o, &plan), HB_SUCCESS);
    HB_CHECK_STATUS(hb_plan_create_hines(oracle, p, nsys, off, parent, NULL, &oplan), HB_SUCCESS);
    if (plan && oplan) {
        printf("%s: %s\n", what, hb_plan_describe(plan));
        const hb_array arr[] = {HB_ARRAY_U, HB_ARRAY_L, HB_ARRAY_D, HB_ARRAY_RHS};
        const void *src[] = {u, l, d, rhs};
        for (int i = 0; i < 4; ++i) {
            HB_CHECK_STATUS(hb_plan_set(plan, arr[i], src[i]), HB_SUCCESS);
            HB_CHECK_STATUS(hb_plan_set(oplan, arr[i], src[i]), HB_SUCCESS);
        }
        hb_test_poison(p, x, nrows);
        HB_CHECK_STATUS(hb_plan_solve(plan), HB_SUCCESS);
        HB_CHECK_STATUS(hb_plan_get_solution(plan, x), HB_SUCCESS);
        HB_CHECK_STATUS(hb_plan_solve(oplan), HB_SUCCESS);
        HB_CHECK_STATUS(hb_plan_get_solution(oplan, ref), HB_SUCCESS);
        hb_test_check_ulp(p, nrows, x, ref, what);
        double r = hb_test_hines_ratio(p, nsys, off, parent, u, l, d, x, rhs, NULL);
        HB_CHECK(r < HB_TEST_RATIO_MAX, "%s: residual ratio %g", what, r);
    }
    hb_plan_destroy(plan);
    hb_plan_destroy(oplan);
    free(off), free(parent), free(u), free(l), free(d), free(rhs), free(x), free(ref);
}

static void tridiag_vs_oracle(hb_context *ctx, hb_context *oracle, hb_precision p,
                              const hb_plan_options *o, int64_t nsys, int64_t lo, int64_t hi,
                              const char *what)
{
    int64_t *off = hb_test_offsets_random(nsys, lo, hi);
    int64_t nrows = off[nsys];
    void *a = hb_test_alloc(p, nrows), *b = hb_test_alloc(p, nrows), *c = hb_test_alloc(p, nrows);
    void *rhs = hb_test_alloc(p, nrows), *x = hb_test_alloc(p, nrows), *ref = hb_test_alloc(p, nrows);
    hb_test_tridiag_random(p, nsys, off, a, b, c, rhs, 1.0);
    hb_plan *plan = NULL, *oplan = NULL;
    HB_CHECK_STATUS(hb_plan_create_tridiag(ctx, p, nsys, off, o, &plan), HB_SUCCESS);
    HB_CHECK_STATUS(hb_plan_create_tridiag(oracle, p, nsys, off, NULL, &oplan), HB_SUCCESS);
    if (plan && oplan) {
        printf("%s: %s\n", what, hb_plan_describe(plan));
        const hb_array arr[] = {HB_ARRAY_A, HB_ARRAY_B, HB_ARRAY_C, HB_ARRAY_RHS};
        const void *src[] = {a, b, c, rhs};
        for (int i = 0; i < 4; ++i) {
            HB_CHECK_STATUS(hb_plan_set(plan, arr[i], src[i]), HB_SUCCESS);
            HB_CHECK_STATUS(hb_plan_set(oplan, arr[i], src[i]), HB_SUCCESS);
        }
        hb_test_poison(p, x, nrows);
        HB_CHECK_STATUS(hb_plan_solve(plan), HB_SUCCESS);
        HB_CHECK_STATUS(hb_plan_get_solution(plan, x), HB_SUCCESS);
        HB_CHECK_STATUS(hb_plan_solve(oplan), HB_SUCCESS);
        HB_CHECK_STATUS(hb_plan_get_solution(oplan, ref), HB_SUCCESS);
        hb_test_check_ulp(p, nrows, x, ref, what);
        double r = hb_test_tridiag_ratio(p, nsys, off, a, b, c, x, rhs, NULL);
        HB_CHECK(r < HB_TEST_RATIO_MAX, "%s: residual ratio %g", what, r);
    }
    hb_plan_destroy(plan);
    hb_plan_destroy(oplan);
    free(off), free(a), free(b), free(c), free(rhs), free(x), free(ref);
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
                snprintf(what, sizeof what, "%s %s %s", cases[c].name, pi ? "float" : "double",
                         pad == HB_PADDING_COMPUTE ? "compute" : "skip");
                int64_t nsys = hb_test_range(70, 200);
                hines_vs_oracle(ctx, oracle, (hb_precision)pi, &o, nsys, cases[c].lo,
                                cases[c].hi, what);
                tridiag_vs_oracle(ctx, oracle, (hb_precision)pi, &o, nsys, cases[c].lo,
                                  cases[c].hi, what);
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
    int64_t *off = hb_test_offsets_uniform(nsys, n);
    int64_t nrows = off[nsys];
    int32_t *parent = hb_test_xalloc((size_t)n * sizeof *parent);
    hb_test_tree(parent, n, HB_TREE_RANDOM);
    int32_t *pflat = hb_test_xalloc((size_t)nrows * sizeof *pflat);
    for (int64_t k = 0; k < nrows; ++k)
        pflat[k] = parent[k % n];
    size_t es = hb_test_esize(p);
    void *u = hb_test_alloc(p, nrows), *l = hb_test_alloc(p, nrows), *d = hb_test_alloc(p, nrows);
    void *rhs = hb_test_alloc(p, nrows), *x = hb_test_alloc(p, nrows), *ref = hb_test_alloc(p, nrows);
    hb_plan_options o;
    hb_plan_options_init(&o);
    o.stream = s;
    o.strategy = HB_STRATEGY_PER_SYSTEM; /* hb_plan_index on per-system layouts */
    hb_plan *plan = NULL, *oplan = NULL;
    HB_CHECK_STATUS(hb_plan_create_hines_uniform(ctx, p, nsys, n, parent, &o, &plan), HB_SUCCESS);
    HB_CHECK_STATUS(hb_plan_create_hines(oracle, p, nsys, off, pflat, NULL, &oplan), HB_SUCCESS);
    hb_layout_info info;
    if (plan && oplan && hb_plan_layout_info(plan, &info) == HB_SUCCESS) {
        void *hd0 = NULL, *hr0 = NULL;
        char *lay = hb_test_xalloc((size_t)info.length * es);
        for (int step = 0; step < 3; ++step) {
            hb_test_hines_random(p, nsys, off, pflat, u, l, d, rhs, 1.0);
            /* u and l through hb_plan_set; d and rhs straight into device memory. */
            HB_CHECK_STATUS(hb_plan_set(plan, HB_ARRAY_U, u), HB_SUCCESS);
            HB_CHECK_STATUS(hb_plan_set(plan, HB_ARRAY_L, l), HB_SUCCESS);
            void *hd = NULL, *hr = NULL;
            HB_CHECK_STATUS(hb_plan_buffer(plan, HB_ARRAY_D, &hd), HB_SUCCESS);
            HB_CHECK_STATUS(hb_plan_buffer(plan, HB_ARRAY_RHS, &hr), HB_SUCCESS);
            if (step == 0)
                hd0 = hd, hr0 = hr;
            HB_CHECK(hd == hd0 && hr == hr0, "device buffers stay the same across steps");
            const void *src[2] = {d, rhs};
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
            HB_CHECK_STATUS(hb_plan_solve(plan), HB_SUCCESS);
            HB_CHECK_STATUS(hb_plan_synchronize(plan), HB_SUCCESS);
            hb_test_poison(p, x, nrows);
            HB_CHECK_STATUS(hb_plan_get_solution(plan, x), HB_SUCCESS);
            const hb_array arr[] = {HB_ARRAY_U, HB_ARRAY_L, HB_ARRAY_D, HB_ARRAY_RHS};
            const void *all[] = {u, l, d, rhs};
            for (int i = 0; i < 4; ++i)
                HB_CHECK_STATUS(hb_plan_set(oplan, arr[i], all[i]), HB_SUCCESS);
            HB_CHECK_STATUS(hb_plan_solve(oplan), HB_SUCCESS);
            HB_CHECK_STATUS(hb_plan_get_solution(oplan, ref), HB_SUCCESS);
            char what[96];
            snprintf(what, sizeof what, "caller stream, device buffers, %s, step %d",
                     p == HB_DOUBLE ? "double" : "float", step);
            hb_test_check_ulp(p, nrows, x, ref, what);
        }
        free(lay);
    }
    hb_plan_destroy(plan);
    hb_plan_destroy(oplan);
    cudaStreamDestroy(s);
    free(off), free(parent), free(pflat), free(u), free(l), free(d), free(rhs), free(x), free(ref);
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
    tridiag_vs_oracle(ctx, oracle, HB_DOUBLE, NULL, 10, 5, 9, "after out-of-memory");
}

int main(void)
{
    hb_test_begin("test_cuda_plans");
    if (!hb_backend_compiled(HB_BACKEND_CUDA)) {
        /* A build without CUDA: the backend says so, whatever the environment. */
        hb_context *ctx = NULL;
        setenv("HINESBATCH_DEVICE", "x", 1);
        HB_CHECK_STATUS(hb_context_create(HB_BACKEND_CUDA, &ctx), HB_ERR_BACKEND_UNAVAILABLE);
        HB_CHECK(strstr(hb_last_error(), "not compiled") != NULL, "message: %s", hb_last_error());
        unsetenv("HINESBATCH_DEVICE");
        return hb_test_finish();
    }
    device_env();
    const char *be = getenv("HINESBATCH_BACKEND");
    if (!be || strcmp(be, "cuda") != 0) {
        /* Registered under a CPU backend (or no CUDA in the build): the GPU
         * part runs in this test's cuda registration. */
        hb_context *ctx = NULL;
        hb_status st = hb_context_create(HB_BACKEND_CUDA, &ctx);
        HB_CHECK(st == HB_SUCCESS || st == HB_ERR_BACKEND_UNAVAILABLE,
                 "cuda context: %s (%s)", hb_status_string(st), hb_last_error());
        if (st == HB_ERR_BACKEND_UNAVAILABLE)
            HB_CHECK(strstr(hb_last_error(), "cuda") != NULL, "message says cuda: %s",
                     hb_last_error());
        hb_context_destroy(ctx);
        return hb_test_finish();
    }
    hb_context *ctx = hb_test_context(); /* exits 77 without a device (HB_TEST_ALLOW_SKIP) */
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
        unsetenv("HINESBATCH_DEVICE");
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
    return hb_test_finish();
}
