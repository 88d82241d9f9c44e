/* backend.c: the OpenCL backend's operation table, context lifetime, queues and device memory. */
#include "cl_backend.h"

#include <stdlib.h>
#include <string.h>

static void cl_fini(hb_context *ctx)
{
    hb_cl *cl = hb__cl(ctx);
    if (!cl)
        return;
    hb__cl_release_programs(cl);
    hb__cl_close_device(cl);
    if (cl->lock_ready)
        hb__mutex_destroy(&cl->lock);
    free(cl);
    ctx->impl = NULL;
}

static hb_status cl_init(hb_context *ctx, const hb_context_options *opts)
{
    hb_cl *cl = calloc(1, sizeof *cl);
    if (!cl)
        return hb__error(HB_ERR_OUT_OF_MEMORY, "OpenCL: %zu bytes of context state", sizeof *cl);
    ctx->impl = cl;
    int err = hb__mutex_init(&cl->lock);
    if (err != 0) {
        cl_fini(ctx);
        return hb__error(HB_ERR_OUT_OF_MEMORY, "OpenCL: the context's lock: error %d", err);
    }
    cl->lock_ready = 1;
    hb_status st = hb__cl_open_device(cl, opts, ctx->device, sizeof ctx->device);
    if (st != HB_SUCCESS) {
        cl_fini(ctx);
        return st;
    }
    /* One warp (NVIDIA) per block: every load of a row is one 128-byte line
     * in float. */
    ctx->traits = (hb_device_traits){cl->is_gpu, cl->has_fp64, 32, (size_t)cl->local_mem,
                                     cl->max_wg, (int32_t)cl->compute_units};
    return HB_SUCCESS;
}

/* The context's own objects, borrowed: another context made with them
 * shares this one's queue (and so its order). */
static void cl_get_options(const hb_context *ctx, hb_context_options *opts)
{
    const hb_cl *cl = hb__cl(ctx);
    opts->cl_context = cl->context;
    opts->cl_device = cl->device;
    opts->cl_queue = cl->queue;
}

static hb_status cl_alloc(hb_context *ctx, size_t bytes, hb_buffer **out)
{
    hb_cl *cl = hb__cl(ctx);
    if ((cl_ulong)bytes > cl->max_alloc)
        return hb__error(HB_ERR_OUT_OF_MEMORY,
                         "OpenCL: a buffer of %zu bytes exceeds the largest allocation of %s "
                         "(CL_DEVICE_MAX_MEM_ALLOC_SIZE = %llu bytes)",
                         bytes, ctx->device, (unsigned long long)cl->max_alloc);
    hb_buffer *b = malloc(sizeof *b);
    if (!b)
        return hb__error(HB_ERR_OUT_OF_MEMORY, "OpenCL: %zu bytes of buffer record", sizeof *b);
    cl_int err = CL_SUCCESS;
    /* OpenCL rejects empty buffers; an empty request gets one byte. */
    b->mem = clCreateBuffer(cl->context, CL_MEM_READ_WRITE, bytes ? bytes : 1, NULL, &err);
    b->bytes = bytes;
    if (err != CL_SUCCESS) {
        free(b);
        hb_status st = hb__cl_fail(err, "clCreateBuffer", "device buffer");
        if (st == HB_ERR_OUT_OF_MEMORY || err == CL_OUT_OF_RESOURCES ||
            err == CL_INVALID_BUFFER_SIZE)
            return hb__error(HB_ERR_OUT_OF_MEMORY,
                             "OpenCL: allocating %zu bytes on %s failed: %s", bytes, ctx->device,
                             hb__cl_error_name(err));
        return st;
    }
    *out = b;
    return HB_SUCCESS;
}

static void cl_release(hb_context *ctx, hb_buffer *buf)
{
    (void)ctx;
    if (buf) {
        clReleaseMemObject(buf->mem);
        free(buf);
    }
}

/* Blocking, after the work queued before it: the caller's host array may be
 * reused (write) or read (read) as soon as this returns. */
static hb_status cl_transfer(hb_context *ctx, void *stream, hb_buffer *buf, size_t off,
                             void *host, size_t bytes, int to_device)
{
    HB_FORWARD(hb__check_span("OpenCL", to_device ? "write" : "read", off, bytes, buf->bytes));
    if (bytes == 0)
        return HB_SUCCESS;
    cl_command_queue q = NULL;
    HB_FORWARD(hb__cl_queue(ctx, stream, &q));
    cl_int err = to_device
                     ? clEnqueueWriteBuffer(q, buf->mem, CL_TRUE, off, bytes, host, 0, NULL, NULL)
                     : clEnqueueReadBuffer(q, buf->mem, CL_TRUE, off, bytes, host, 0, NULL, NULL);
    HB_CL_CHECK(err, to_device ? "clEnqueueWriteBuffer" : "clEnqueueReadBuffer",
                to_device ? "host to device" : "device to host");
    return HB_SUCCESS;
}

static hb_status cl_write(hb_context *ctx, void *stream, hb_buffer *buf, size_t off,
                          const void *src, size_t bytes)
{
    return cl_transfer(ctx, stream, buf, off, (void *)src, bytes, 1);
}

static hb_status cl_read(hb_context *ctx, void *stream, hb_buffer *buf, size_t off, void *dst,
                         size_t bytes)
{
    return cl_transfer(ctx, stream, buf, off, dst, bytes, 0);
}

static void *cl_native(hb_buffer *buf) { return (void *)buf->mem; }

static hb_status cl_copy(hb_context *ctx, void *stream, hb_buffer *dst, hb_buffer *src,
                         size_t bytes)
{
    HB_FORWARD(hb__check_span("OpenCL", "copy from", 0, bytes, src->bytes));
    HB_FORWARD(hb__check_span("OpenCL", "copy to", 0, bytes, dst->bytes));
    if (bytes == 0)
        return HB_SUCCESS;
    cl_command_queue q = NULL;
    HB_FORWARD(hb__cl_queue(ctx, stream, &q));
    HB_CL_CHECK(clEnqueueCopyBuffer(q, src->mem, dst->mem, 0, 0, bytes, 0, NULL, NULL),
                "clEnqueueCopyBuffer", "device to device");
    return HB_SUCCESS;
}

static hb_status cl_finish(hb_context *ctx, void *stream)
{
    cl_command_queue q = NULL;
    HB_FORWARD(hb__cl_queue(ctx, stream, &q));
    HB_CL_CHECK(clFinish(q), "clFinish", ctx->device);
    return HB_SUCCESS;
}

/* OpenCL 1.2 has no free-memory query: the device's global memory is the
 * bound (a request past it can never be served). */
static hb_status cl_mem_available(hb_context *ctx, uint64_t *bytes)
{
    cl_ulong total = 0;
    HB_CL_CHECK(clGetDeviceInfo(hb__cl(ctx)->device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof total,
                                &total, NULL),
                "clGetDeviceInfo", "CL_DEVICE_GLOBAL_MEM_SIZE");
    *bytes = total;
    return HB_SUCCESS;
}

static const hb_backend_ops opencl_ops = {
    .kind = HB_BACKEND_OPENCL,
    .name = "opencl",
    .init = cl_init,
    .fini = cl_fini,
    .get_options = cl_get_options,
    .devices = hb__cl_devices,
    .alloc = cl_alloc,
    .release = cl_release,
    .write = cl_write,
    .read = cl_read,
    .native = cl_native,
    .to_layout = hb__cl_to_layout,
    .to_flat = hb__cl_to_flat,
    .thomas = hb__cl_thomas,
    .hines = hb__cl_hines,
    .thomas_shared = hb__cl_thomas_shared,
    .hines_shared = hb__cl_hines_shared,
    .map_to_layout = hb__cl_map_to_layout,
    .map_to_flat = hb__cl_map_to_flat,
    .hines_branch_level = hb__cl_hines_branch_level,
    .hines_fine_tree = hb__cl_hines_fine_tree,
    .thomas_coop = hb__cl_thomas_coop,
    .thomas_coop_local = hb__cl_thomas_coop_local,
    .coop_local_limit = hb__cl_coop_local_limit,
    .hines_cell = hb__cl_hines_cell,
    .cell_resident = hb__cl_cell_resident,
    .copy = cl_copy,
    .finish = cl_finish,
    .mem_available = cl_mem_available,
    .check_stream = hb__cl_check_stream,
};

const hb_backend_ops *hb__opencl_backend(void) { return &opencl_ops; }
