/* timing.c: plan synchronisation and the device-copy yardstick for benchmarks. */
#define _POSIX_C_SOURCE 200809L
#include "hb_plan.h"

#include <stdlib.h>
#include <time.h>

hb_status hb_plan_synchronize(hb_plan *plan)
{
    if (!plan)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "hb_plan_synchronize: plan is NULL");
    if (plan->nsys == 0)
        return HB_SUCCESS;
    HB_FORWARD(hb__plan_enter(plan, "hb_plan_synchronize"));
    hb_status st = plan->ctx->ops->finish(plan->ctx, plan->stream);
    hb__plan_leave(plan);
    return st;
}

double hb__now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

hb_status hb_context_copy_time(hb_context *ctx, size_t bytes, int reps, double *ms_median)
{
    if (!ctx)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "hb_context_copy_time: ctx is NULL");
    if (bytes == 0)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "hb_context_copy_time: bytes is 0");
    if (reps < 1)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "hb_context_copy_time: reps = %d < 1", reps);
    if (!ms_median)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "hb_context_copy_time: ms_median is NULL");
    const hb_backend_ops *ops = ctx->ops;
    hb_buffer *src = NULL, *dst = NULL;
    double *t = hb__malloc_n(reps, sizeof *t);
    hb_status st = t ? ops->alloc(ctx, bytes, &src) : hb__error(HB_ERR_OUT_OF_MEMORY, "timings");
    if (st == HB_SUCCESS)
        st = ops->alloc(ctx, bytes, &dst);
    /* Fill the source so no backend can take a shortcut on untouched pages;
     * through one chunk of at most 64 MiB, so a copy of gigabytes does not
     * also cost gigabytes of fresh host memory. */
    if (st == HB_SUCCESS) {
        size_t chunk = bytes < ((size_t)64 << 20) ? bytes : (size_t)64 << 20;
        unsigned char *fill = malloc(chunk);
        if (!fill)
            st = hb__error(HB_ERR_OUT_OF_MEMORY, "hb_context_copy_time: %zu bytes", chunk);
        for (size_t i = 0; fill && i < chunk; ++i)
            fill[i] = (unsigned char)(i * 131u + 7u);
        for (size_t off = 0; st == HB_SUCCESS && off < bytes; off += chunk)
            st = ops->write(ctx, NULL, src, off, fill, bytes - off < chunk ? bytes - off : chunk);
        if (st == HB_SUCCESS)
            st = ops->finish(ctx, NULL); /* the writes read fill until they end */
        free(fill);
    }
    if (st == HB_SUCCESS)
        st = ops->copy(ctx, NULL, dst, src, bytes); /* warm-up */
    if (st == HB_SUCCESS)
        st = ops->finish(ctx, NULL);
    for (int r = 0; r < reps && st == HB_SUCCESS; ++r) {
        double t0 = hb__now_ms();
        st = ops->copy(ctx, NULL, dst, src, bytes);
        if (st == HB_SUCCESS)
            st = ops->finish(ctx, NULL);
        t[r] = hb__now_ms() - t0;
    }
    if (st == HB_SUCCESS) {
        qsort(t, (size_t)reps, sizeof *t, cmp_double);
        *ms_median = t[reps / 2];
    }
    if (src)
        ops->release(ctx, src);
    if (dst)
        ops->release(ctx, dst);
    free(t);
    return st;
}
