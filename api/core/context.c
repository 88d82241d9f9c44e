/* context.c: backend registry, the AUTO backend order and context lifetime (a reference count). */
#include "hb_env.h"
#include "hb_plan.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A context and the number of its holders: the caller of hb_context_create
 * until hb_context_destroy, and every plan and simulation made on it, so the
 * backend closes when the last of them lets go, whatever the order. The
 * count lives here, not in struct hb_context, which C++ (the CUDA backend)
 * also compiles; the context is the first member, so the two pointers are
 * one. */
typedef struct {
    hb_context ctx;
    atomic_long refs;
} context_box;

static context_box *box_of(hb_context *ctx) { return (context_box *)ctx; }

void hb__context_retain(hb_context *ctx)
{
    /* Taken by a holder that already has the context: no ordering needed. */
    atomic_fetch_add_explicit(&box_of(ctx)->refs, 1, memory_order_relaxed);
}

void hb__context_release(hb_context *ctx)
{
    if (!ctx)
        return;
    context_box *box = box_of(ctx);
    /* acq_rel: the last holder sees every other holder's work before it
     * closes the backend. */
    if (atomic_fetch_sub_explicit(&box->refs, 1, memory_order_acq_rel) != 1)
        return;
    if (ctx->ops && ctx->ops->fini)
        ctx->ops->fini(ctx);
    free(box);
}

static const hb_backend_ops *ops_for(hb_backend b)
{
    switch (b) {
    case HB_BACKEND_SERIAL: return hb__serial_backend();
    case HB_BACKEND_OPENMP: return hb__openmp_backend();
    case HB_BACKEND_OPENCL: return hb__opencl_backend();
    case HB_BACKEND_CUDA: return hb__cuda_backend();
    default: return NULL;
    }
}

int hb_backend_compiled(hb_backend b) { return ops_for(b) != NULL; }

/* Opens one named backend; the error says whether it is missing from the
 * build or found no device. */
static hb_status open_backend(hb_backend b, hb_context **out)
{
    const hb_backend_ops *ops = ops_for(b);
    if (!ops)
        return hb__error(HB_ERR_BACKEND_UNAVAILABLE,
                         "backend '%s' was not compiled into this hinesbatch build",
                         hb_backend_name(b));
    context_box *box = calloc(1, sizeof *box);
    if (!box)
        return hb__error(HB_ERR_OUT_OF_MEMORY, "hb_context_create: %zu bytes", sizeof *box);
    atomic_init(&box->refs, 1);
    hb_context *ctx = &box->ctx;
    ctx->ops = ops;
    hb_status st = ops->init(ctx);
    if (st != HB_SUCCESS) {
        free(box);
        return st;
    }
    snprintf(ctx->describe, sizeof ctx->describe, "%s on %s", ops->name, ctx->device);
    hb__log("using backend %s", ctx->describe);
    *out = ctx;
    return HB_SUCCESS;
}

hb_status hb_context_create(hb_backend backend, hb_context **ctx)
{
    if (!ctx)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "hb_context_create: ctx (output) is NULL");
    if (backend < HB_BACKEND_AUTO || backend > HB_BACKEND_CUDA)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "hb_context_create: backend = %d is not an hb_backend",
                         (int)backend);
    hb_context *made = NULL;
    if (backend == HB_BACKEND_AUTO) {
        hb_backend named;
        HB_FORWARD(hb__env_backend(&named));
        if (named != HB_BACKEND_AUTO) {
            HB_FORWARD(open_backend(named, &made));
        } else {
            /* Priority: cuda, an OpenCL GPU, openmp, serial. Failures along the
             * way are expected, so their messages are dropped. */
            const hb_backend order[] = {HB_BACKEND_CUDA, HB_BACKEND_OPENCL, HB_BACKEND_OPENMP,
                                        HB_BACKEND_SERIAL};
            for (size_t i = 0; i < sizeof order / sizeof order[0] && !made; ++i) {
                if (!ops_for(order[i]))
                    continue;
                hb_context *c = NULL;
                if (open_backend(order[i], &c) == HB_SUCCESS) {
                    /* auto takes OpenCL only on a GPU: on a CPU openmp is faster. */
                    if (order[i] == HB_BACKEND_OPENCL && !c->traits.is_gpu) {
                        hb_context_destroy(c);
                        continue;
                    }
                    made = c;
                }
            }
            if (!made)
                return hb__error(HB_ERR_BACKEND_UNAVAILABLE, "no backend could be opened");
        }
    } else {
        HB_FORWARD(open_backend(backend, &made));
    }
    hb__clear_error();
    *ctx = made;
    return HB_SUCCESS;
}

/* Drops the caller's reference; plans and simulations keep theirs. */
void hb_context_destroy(hb_context *ctx) { hb__context_release(ctx); }

hb_backend hb_context_backend(const hb_context *ctx)
{
    return ctx ? ctx->ops->kind : HB_BACKEND_AUTO;
}

const char *hb_context_describe(const hb_context *ctx)
{
    return ctx ? ctx->describe : "(null context)";
}
