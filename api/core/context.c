/* context.c: backend registry, context options and the AUTO backend order, device lists, and context lifetime (a reference count). */
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

void hb_context_options_init(hb_context_options *opts)
{
    if (!opts)
        return;
    memset(opts, 0, sizeof *opts);
    opts->backend = HB_BACKEND_AUTO;
    opts->device = -1;
    opts->platform = -1;
}

/* Refuses options that no backend could honour, before any device is looked
 * for: values out of range and fields that belong to another backend. */
static hb_status check_options(const hb_context_options *o, const char *fn)
{
    if (o->backend < HB_BACKEND_AUTO || o->backend > HB_BACKEND_CUDA)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: opts->backend = %d is not an hb_backend", fn,
                         (int)o->backend);
    if (o->device < -1)
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "%s: opts->device = %d is not a device index (0, 1, ...) or -1 (the "
                         "default)",
                         fn, (int)o->device);
    if (o->platform < -1)
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "%s: opts->platform = %d is not a platform index (0, 1, ...) or -1 (the "
                         "default)",
                         fn, (int)o->platform);
    const char *bname = hb_backend_name(o->backend);
    const char *cl_field = o->cl_context ? "cl_context"
                           : o->cl_device ? "cl_device"
                           : o->cl_queue  ? "cl_queue"
                                          : NULL;
    if (cl_field && o->backend != HB_BACKEND_OPENCL)
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "%s: opts->%s is an OpenCL object but opts->backend is %s (adopting it "
                         "needs HB_BACKEND_OPENCL)",
                         fn, cl_field, bname);
    if (o->cuda_stream && o->backend != HB_BACKEND_CUDA)
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "%s: opts->cuda_stream is a CUDA stream but opts->backend is %s (adopting "
                         "it needs HB_BACKEND_CUDA)",
                         fn, bname);
    if (o->platform >= 0 && o->backend != HB_BACKEND_OPENCL && o->backend != HB_BACKEND_AUTO)
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "%s: opts->platform = %d is an OpenCL platform but opts->backend is %s", fn,
                         (int)o->platform, bname);
    if (o->device >= 0 && (o->backend == HB_BACKEND_SERIAL || o->backend == HB_BACKEND_OPENMP))
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "%s: opts->device = %d but the %s backend has no devices to choose "
                         "(leave it -1)",
                         fn, (int)o->device, bname);
    /* The handles name the device: an index beside them could only repeat
     * it or contradict it. */
    if (cl_field && (o->device >= 0 || o->platform >= 0))
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "%s: opts->%s = %d beside opts->%s: the OpenCL handles name the device "
                         "(leave it -1)",
                         fn, o->device >= 0 ? "device" : "platform",
                         (int)(o->device >= 0 ? o->device : o->platform), cl_field);
    return HB_SUCCESS;
}

/* Opens one named backend; the error says whether it is missing from the
 * build or found no device. */
static hb_status open_backend(hb_backend b, const hb_context_options *opts, const char *fn,
                              hb_context **out)
{
    const hb_backend_ops *ops = ops_for(b);
    if (!ops)
        return hb__error(HB_ERR_BACKEND_UNAVAILABLE,
                         "backend '%s' was not compiled into this hinesbatch build",
                         hb_backend_name(b));
    context_box *box = calloc(1, sizeof *box);
    if (!box)
        return hb__error(HB_ERR_OUT_OF_MEMORY, "%s: %zu bytes", fn, sizeof *box);
    atomic_init(&box->refs, 1);
    hb_context *ctx = &box->ctx;
    ctx->ops = ops;
    hb_context_options o = *opts;
    o.backend = b;
    size_t cap = 0;
    hb_status st = hb__env_local_mem_limit(&cap);
    if (st != HB_SUCCESS) {
        free(box);
        return st;
    }
    st = ops->init(ctx, &o);
    if (st != HB_SUCCESS) {
        free(box);
        return st;
    }
    if (cap > 0 && ctx->traits.local_mem > cap)
        ctx->traits.local_mem = cap;
    snprintf(ctx->describe, sizeof ctx->describe, "%s on %s", ops->name, ctx->device);
    hb__log("using backend %s", ctx->describe);
    *out = ctx;
    return HB_SUCCESS;
}

/* AUTO's options for backend b: the device index goes to the GPU backends,
 * the platform to OpenCL; the others have no such choice. (Handles never
 * come with AUTO: check_options refuses them.) */
static hb_context_options auto_options(const hb_context_options *o, hb_backend b)
{
    hb_context_options n = *o;
    n.backend = b;
    if (b != HB_BACKEND_OPENCL)
        n.platform = -1;
    if (b == HB_BACKEND_SERIAL || b == HB_BACKEND_OPENMP)
        n.device = -1;
    return n;
}

/* The one way a context is made: hb_context_create and hb_context_create_with
 * both come here (fn names the caller in messages). */
static hb_status create(const hb_context_options *opts, hb_context **ctx, const char *fn)
{
    if (!ctx)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: ctx (output) is NULL", fn);
    hb_context_options defaults;
    hb_context_options_init(&defaults);
    const hb_context_options *o = opts ? opts : &defaults;
    HB_FORWARD(check_options(o, fn));
    hb_context *made = NULL;
    if (o->backend == HB_BACKEND_AUTO) {
        hb_backend named;
        HB_FORWARD(hb__env_backend(&named));
        if (named != HB_BACKEND_AUTO) {
            hb_context_options n = auto_options(o, named);
            HB_FORWARD(open_backend(named, &n, fn, &made));
        } else {
            /* Priority: cuda, an OpenCL GPU, openmp, serial. Failures along the
             * way are expected, so their messages are dropped. The device and
             * platform indices apply to the GPU backends tried. */
            const hb_backend order[] = {HB_BACKEND_CUDA, HB_BACKEND_OPENCL, HB_BACKEND_OPENMP,
                                        HB_BACKEND_SERIAL};
            for (size_t i = 0; i < sizeof order / sizeof order[0] && !made; ++i) {
                if (!ops_for(order[i]))
                    continue;
                hb_context_options n = auto_options(o, order[i]);
                hb_context *c = NULL;
                if (open_backend(order[i], &n, fn, &c) == HB_SUCCESS) {
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
        HB_FORWARD(open_backend(o->backend, o, fn, &made));
    }
    hb__clear_error();
    *ctx = made;
    return HB_SUCCESS;
}

hb_status hb_context_create(hb_backend backend, hb_context **ctx)
{
    /* Checked here too, so the message names this function's argument. */
    if (backend < HB_BACKEND_AUTO || backend > HB_BACKEND_CUDA)
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "hb_context_create: backend = %d is not an hb_backend", (int)backend);
    hb_context_options o;
    hb_context_options_init(&o);
    o.backend = backend;
    return create(&o, ctx, "hb_context_create");
}

hb_status hb_context_create_with(const hb_context_options *opts, hb_context **ctx)
{
    return create(opts, ctx, "hb_context_create_with");
}

hb_status hb_context_get_options(const hb_context *ctx, hb_context_options *opts)
{
    if (!ctx)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "hb_context_get_options: ctx is NULL");
    if (!opts)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "hb_context_get_options: opts (output) is NULL");
    hb_context_options o;
    hb_context_options_init(&o);
    o.backend = ctx->ops->kind;
    if (ctx->ops->get_options)
        ctx->ops->get_options(ctx, &o);
    *opts = o;
    return HB_SUCCESS;
}

/* One device query of either public function: the checks they share, then
 * the backend's list (the host backends: their one device). */
static hb_status device_query(hb_backend backend, int32_t platform, int32_t index,
                              int32_t *count, char *name, size_t size, const char *fn)
{
    if (backend <= HB_BACKEND_AUTO || backend > HB_BACKEND_CUDA)
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "%s: backend = %d is not a backend (HB_BACKEND_AUTO names none)", fn,
                         (int)backend);
    if (platform < -1)
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "%s: platform = %d is not a platform index (0, 1, ...) or -1", fn,
                         (int)platform);
    if (platform >= 0 && backend != HB_BACKEND_OPENCL)
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "%s: platform = %d is an OpenCL platform but backend is %s", fn,
                         (int)platform, hb_backend_name(backend));
    const hb_backend_ops *ops = ops_for(backend);
    if (!ops)
        return hb__error(HB_ERR_BACKEND_UNAVAILABLE,
                         "backend '%s' was not compiled into this hinesbatch build",
                         hb_backend_name(backend));
    if (ops->devices)
        return ops->devices(platform, index, count, name, size);
    *count = 1;
    if (!name)
        return HB_SUCCESS;
    if (index != 0)
        return hb__error(HB_ERR_BACKEND_UNAVAILABLE, "%s: device = %d: the %s backend has one "
                         "device (0), the host", fn, (int)index, hb_backend_name(backend));
    hb_context_options o;
    hb_context_options_init(&o);
    hb_context *c = NULL;
    HB_FORWARD(open_backend(backend, &o, fn, &c));
    snprintf(name, size, "%s", c->device);
    hb_context_destroy(c);
    return HB_SUCCESS;
}

hb_status hb_backend_device_count(hb_backend backend, int32_t platform, int32_t *count)
{
    const char *fn = "hb_backend_device_count";
    if (!count)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: count (output) is NULL", fn);
    int32_t n = 0;
    HB_FORWARD(device_query(backend, platform, 0, &n, NULL, 0, fn));
    *count = n;
    return HB_SUCCESS;
}

hb_status hb_backend_device_name(hb_backend backend, int32_t platform, int32_t device,
                                 char *name, size_t size)
{
    const char *fn = "hb_backend_device_name";
    if (!name || size == 0)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: name (output) is %s", fn,
                         name ? "0 bytes long" : "NULL");
    if (device < 0)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: device = %d is not a device index", fn,
                         (int)device);
    /* Written to a buffer of our own first: name stays untouched on error. */
    char buf[256];
    int32_t n = 0;
    HB_FORWARD(device_query(backend, platform, device, &n, buf, sizeof buf, fn));
    snprintf(name, size, "%s", buf);
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
