/* test_opencl_plans.c: OpenCL plan behaviour: float-only devices, buffer reuse across time steps, plans taking turns on one kernel, zero-sized batches, allocation failure, and the stated bound against the oracle. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hb_oracle_runner.h"

/* Registered for the opencl backend only (tests/CMakeLists.txt); the serial
 * backend is the oracle. */

/* Several time steps of one Hines plan: new coefficients each step, the
 * same cl_mem handles throughout, each step against the oracle running the
 * same strategy (AUTO may pick a branch strategy on a GPU and per-system on
 * the host; the same strategy on both sides is the policy's "same order"). */
static void reuse_hines(hb_context *ctx, hb_context *oracle, hb_precision p, hb_layout layout,
                        hb_strategy strategy)
{
    const hb_oracle_shape sh = {"70 trees of 1..300 rows", 70, 1, 300, HB_TREE_KINDS};
    hb_oracle_batch bt;
    hb_oracle_make(&bt, &hb_oracle_hines, p, &sh, 1.0);
    hb_plan_options o, ro;
    hb_plan_options_init(&o);
    o.layout = layout;
    o.block_size = 16;
    o.strategy = strategy;
    hb_plan_options_init(&ro);
    /* The serial oracle lacks cell-group: per-system is its reference. */
    ro.strategy = strategy == HB_STRATEGY_CELL_GROUP ? HB_STRATEGY_PER_SYSTEM : strategy;
    hb_plan *plan = NULL;
    hb_oracle_plan_create(ctx, &bt, &o, 0, &plan);
    void *x = hb_test_alloc(p, bt.nrows), *first[4] = {0};
    for (int step = 0; plan && step < 4; ++step) {
        if (step > 0)
            bt.kind->random(&bt, 1.0);
        char what[400];
        snprintf(what, sizeof what, "hines %s step %d %s", hb_test_precision_name(p), step,
                 hb_plan_describe(plan));
        hb_oracle_plan_set(plan, &bt);
        /* Asking for D and RHS marks them set, so ask before the solve. */
        const hb_array arr[] = {HB_ARRAY_U, HB_ARRAY_L, HB_ARRAY_D, HB_ARRAY_RHS};
        for (int i = 0; i < 4; ++i) {
            void *h = NULL;
            HB_CHECK_STATUS(hb_plan_buffer(plan, arr[i], &h), HB_SUCCESS);
            if (step == 0)
                first[i] = h;
            HB_CHECK(h && h == first[i], "step %d: array %d handle changed (%p, was %p)", step,
                     (int)arr[i], h, first[i]);
        }
        hb_oracle_plan_step(ctx, oracle, &ro, plan, &bt, x, what);
        /* A second solve without new rhs and d must be refused. */
        HB_CHECK_STATUS(hb_plan_solve(plan), HB_ERR_INVALID_ARGUMENT);
    }
    hb_plan_destroy(plan);
    free(x);
    hb_oracle_free(&bt);
}

/* Tridiagonal time steps with A, B, C set once and only RHS renewed. */
static void reuse_tridiag(hb_context *ctx, hb_context *oracle, hb_precision p, hb_layout layout)
{
    const hb_oracle_shape sh = {"130 systems of 97 rows", 130, 97, 97, 0};
    hb_oracle_batch bt;
    hb_oracle_make(&bt, &hb_oracle_tridiag, p, &sh, 1.0);
    hb_plan_options o;
    hb_plan_options_init(&o);
    o.layout = layout;
    hb_plan *plan = NULL;
    if (hb_oracle_plan_create(ctx, &bt, &o, 1, &plan) == HB_SUCCESS)
        for (int i = 0; i < 3; ++i)
            HB_CHECK_STATUS(hb_plan_set(plan, bt.kind->arrays[i], bt.m[i]), HB_SUCCESS);
    void *x = hb_test_alloc(p, bt.nrows);
    for (int step = 0; plan && step < 4; ++step) {
        for (int64_t k = 0; k < bt.nrows; ++k)
            hb_test_put(p, bt.rhs, k, 2 * hb_test_unit() - 1);
        char what[400];
        snprintf(what, sizeof what, "tridiag %s step %d %s", hb_test_precision_name(p), step,
                 hb_plan_describe(plan));
        HB_CHECK_STATUS(hb_plan_set(plan, HB_ARRAY_RHS, bt.rhs), HB_SUCCESS);
        hb_oracle_plan_step(ctx, oracle, NULL, plan, &bt, x, what);
    }
    hb_plan_destroy(plan);
    free(x);
    hb_oracle_free(&bt);
}

/* Plans taking turns on one kernel. A cl_kernel keeps the arguments of its
 * last launch (shared by every plan of the context), so each plan's solve
 * must set and see its own buffers and sizes: A, B, A again with new data,
 * then B destroyed and C made in its place (its buffers may get B's freed
 * handles back), C, and A once more; each against the oracle. */
static void take_turn(hb_context *ctx, hb_context *oracle, const hb_plan_options *ro,
                      hb_plan *plan, hb_oracle_batch *bt, void *x, const char *label)
{
    if (!plan)
        return;
    char what[400];
    snprintf(what, sizeof what, "%s %s in turn, plan %s: %s", bt->kind->name,
             hb_test_precision_name(bt->p), label, hb_plan_describe(plan));
    hb_oracle_plan_set(plan, bt);
    hb_oracle_plan_step(ctx, oracle, ro, plan, bt, x, what);
}

static void plans_in_turn(hb_context *ctx, hb_context *oracle, const hb_oracle_kind *kind,
                          hb_precision p, hb_strategy strategy)
{
    const hb_oracle_shape sa = {"60 systems of 33 rows", 60, 33, 33, HB_TREE_KINDS};
    const hb_oracle_shape sb = {"90 systems of 20..140 rows", 90, 20, 140, HB_TREE_KINDS};
    hb_oracle_batch ba, bb, bc;
    hb_oracle_make(&ba, kind, p, &sa, 1.0);
    hb_oracle_make(&bb, kind, p, &sb, 1.0);
    hb_oracle_make(&bc, kind, p, &sb, 1.0);
    hb_plan_options o, ro;
    hb_plan_options_init(&o);
    o.strategy = strategy;
    hb_plan_options_init(&ro); /* the oracle's AUTO: per-system */
    hb_plan *pa = NULL, *pb = NULL, *pc = NULL;
    hb_oracle_plan_create(ctx, &ba, &o, 0, &pa);
    hb_oracle_plan_create(ctx, &bb, &o, 0, &pb);
    int64_t most = ba.nrows > bb.nrows ? ba.nrows : bb.nrows;
    void *x = hb_test_alloc(p, most > bc.nrows ? most : bc.nrows);
    take_turn(ctx, oracle, &ro, pa, &ba, x, "A");
    take_turn(ctx, oracle, &ro, pb, &bb, x, "B");
    ba.kind->random(&ba, 1.0);
    take_turn(ctx, oracle, &ro, pa, &ba, x, "A");
    hb_plan_destroy(pb);
    hb_oracle_plan_create(ctx, &bc, &o, 0, &pc);
    take_turn(ctx, oracle, &ro, pc, &bc, x, "C");
    ba.kind->random(&ba, 1.0);
    take_turn(ctx, oracle, &ro, pa, &ba, x, "A");
    hb_plan_destroy(pa);
    hb_plan_destroy(pc);
    free(x);
    hb_oracle_free(&ba);
    hb_oracle_free(&bb);
    hb_oracle_free(&bc);
}

/* A device without cl_khr_fp64 (simulated): double plans and one-shot
 * solves fail clearly and touch nothing; float still works. */
static void no_fp64(hb_context *oracle)
{
    setenv("HINESBATCH_OPENCL_DISABLE_FP64", "1", 1);
    hb_context *ctx = NULL;
    HB_CHECK_STATUS(hb_context_create(HB_BACKEND_OPENCL, &ctx), HB_SUCCESS);
    unsetenv("HINESBATCH_OPENCL_DISABLE_FP64");
    if (!ctx)
        return;
    hb_plan *plan = NULL;
    HB_CHECK_STATUS(hb_plan_create_tridiag_uniform(ctx, HB_DOUBLE, 4, 8, NULL, &plan),
                    HB_ERR_BACKEND_UNAVAILABLE);
    HB_CHECK(strstr(hb_last_error(), "cl_khr_fp64") != NULL, "message: %s", hb_last_error());
    HB_CHECK(plan == NULL, "a failed create left a plan");
    int64_t off[3] = {0, 3, 5};
    double a[5] = {0, 1, 1, 0, 1}, b[5] = {4, 4, 4, 4, 4}, c[5] = {1, 1, 0, 1, 0};
    double d[5] = {1, 2, 3, 4, 5}, keep[5];
    memcpy(keep, d, sizeof d);
    HB_CHECK_STATUS(hb_dtridiag_solve(ctx, 2, off, a, b, c, d), HB_ERR_BACKEND_UNAVAILABLE);
    HB_CHECK(!memcmp(d, keep, sizeof d), "a refused double solve wrote its output");
    reuse_tridiag(ctx, oracle, HB_FLOAT, HB_LAYOUT_INTERLEAVED);
    hb_context_destroy(ctx);
}

/* nsys == 0: every call is a successful no-op that never reaches OpenCL. A
 * bogus stream proves it: any cl* call on it would fail or crash. */
static void zero_sized(hb_context *ctx)
{
    static const char not_a_queue[256];
    hb_plan_options o;
    hb_plan_options_init(&o);
    o.stream = (void *)not_a_queue;
    int64_t off[1] = {0};
    int32_t par[1] = {-1};
    float dummy[1] = {1};
    hb_plan *t = NULL, *h = NULL;
    HB_CHECK_STATUS(hb_plan_create_tridiag(ctx, HB_FLOAT, 0, off, &o, &t), HB_SUCCESS);
    HB_CHECK_STATUS(hb_plan_create_hines_uniform(ctx, HB_FLOAT, 0, 1, par, &o, &h), HB_SUCCESS);
    if (t && h) {
        const hb_array ta[] = {HB_ARRAY_A, HB_ARRAY_B, HB_ARRAY_C, HB_ARRAY_RHS};
        const hb_array ha[] = {HB_ARRAY_U, HB_ARRAY_L, HB_ARRAY_D, HB_ARRAY_RHS};
        for (int i = 0; i < 4; ++i) {
            HB_CHECK_STATUS(hb_plan_set(t, ta[i], dummy), HB_SUCCESS);
            HB_CHECK_STATUS(hb_plan_set(h, ha[i], dummy), HB_SUCCESS);
        }
        HB_CHECK_STATUS(hb_plan_solve(t), HB_SUCCESS);
        HB_CHECK_STATUS(hb_plan_solve(h), HB_SUCCESS);
        HB_CHECK_STATUS(hb_plan_synchronize(t), HB_SUCCESS);
        HB_CHECK_STATUS(hb_plan_get_solution(t, dummy), HB_SUCCESS);
        HB_CHECK_STATUS(hb_plan_get_solution(h, dummy), HB_SUCCESS);
        void *handle = NULL;
        HB_CHECK_STATUS(hb_plan_buffer(t, HB_ARRAY_RHS, &handle), HB_ERR_INVALID_ARGUMENT);
    }
    hb_plan_destroy(t);
    hb_plan_destroy(h);
    HB_CHECK_STATUS(hb_stridiag_solve(ctx, 0, off, dummy, dummy, dummy, dummy), HB_SUCCESS);
    HB_CHECK_STATUS(hb_shines_solve(ctx, 0, off, par, dummy, dummy, dummy, dummy), HB_SUCCESS);
}

/* More than the device has: out of memory, naming the size needed. */
static void too_big(hb_context *ctx)
{
    const int64_t n = (int64_t)1 << 40; /* 2^43 bytes of double per array */
    hb_plan *plan = NULL;
    HB_CHECK_STATUS(hb_plan_create_tridiag_uniform(ctx, HB_DOUBLE, 1, n, NULL, &plan),
                    HB_ERR_OUT_OF_MEMORY);
    HB_CHECK(plan == NULL, "a failed create left a plan");
    /* Refused before allocating: 5 arrays of 2^43 bytes and the tables. */
    HB_CHECK(strstr(hb_last_error(), "needs 43980465111080 bytes") != NULL &&
                 strstr(hb_last_error(), "of device memory") != NULL,
             "message does not name the size: %s", hb_last_error());
    double ms = 0;
    HB_CHECK_STATUS(hb_context_copy_time(ctx, (size_t)1 << 50, 1, &ms), HB_ERR_OUT_OF_MEMORY);
}

int main(void)
{
    hb_test_begin("test_opencl_plans");
    hb_context *ctx = hb_test_backend_context(HB_BACKEND_OPENCL), *oracle = hb_test_oracle();
    printf("OpenCL context: %s\n", hb_context_describe(ctx)); /* ci/gpu.sh reads the device */
    const hb_layout layouts[] = {HB_LAYOUT_FLAT, HB_LAYOUT_INTERLEAVED,
                                 HB_LAYOUT_BLOCK_INTERLEAVED, HB_LAYOUT_BLOCK_SHARED};
    for (int p = 0; p < 2; ++p) {
        for (int li = 0; li < 4; ++li) {
            reuse_hines(ctx, oracle, (hb_precision)p, layouts[li], HB_STRATEGY_PER_SYSTEM);
            reuse_tridiag(ctx, oracle, (hb_precision)p, layouts[li]);
        }
        /* The branch strategies keep rows by branch, whatever the layout. */
        reuse_hines(ctx, oracle, (hb_precision)p, HB_LAYOUT_AUTO, HB_STRATEGY_BRANCH_LEVEL);
        reuse_hines(ctx, oracle, (hb_precision)p, HB_LAYOUT_AUTO, HB_STRATEGY_FINE_TREE);
        /* One work-group per cell, flat. */
        reuse_hines(ctx, oracle, (hb_precision)p, HB_LAYOUT_AUTO, HB_STRATEGY_CELL_GROUP);
        plans_in_turn(ctx, oracle, &hb_oracle_tridiag, (hb_precision)p, HB_STRATEGY_AUTO);
        plans_in_turn(ctx, oracle, &hb_oracle_tridiag, (hb_precision)p,
                      HB_STRATEGY_COOPERATIVE);
        plans_in_turn(ctx, oracle, &hb_oracle_hines, (hb_precision)p, HB_STRATEGY_AUTO);
        plans_in_turn(ctx, oracle, &hb_oracle_hines, (hb_precision)p, HB_STRATEGY_CELL_GROUP);
    }
    no_fp64(oracle);
    zero_sized(ctx);
    too_big(ctx);
    hb_context_destroy(ctx);
    hb_context_destroy(oracle);
    return hb_test_finish();
}
