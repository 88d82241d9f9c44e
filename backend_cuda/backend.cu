/* backend.cu: the CUDA backend's operations table: device choice (options, environment, an adopted stream), the device list, streams, device memory and transfers. */
#include "cuda_backend.h"
#include "hb_env.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The device count, or HB_ERR_BACKEND_UNAVAILABLE without a driver or a
 * device (CUDA's own text). */
static hb_status device_count(int *count)
{
    *count = 0;
    cudaError_t err = cudaGetDeviceCount(count);
    if (err != cudaSuccess) {
        (void)cudaGetLastError();
        return hb__error(HB_ERR_BACKEND_UNAVAILABLE, "cuda: no usable device: %s (%s)",
                         cudaGetErrorString(err), cudaGetErrorName(err));
    }
    if (*count == 0)
        return hb__error(HB_ERR_BACKEND_UNAVAILABLE, "cuda: the driver reports no CUDA device");
    return HB_SUCCESS;
}

/* "NVIDIA H100 (sm_90, device 0)": contexts and the device list name
 * devices alike. */
static void device_label(const cudaDeviceProp &prop, int dev, char *name, size_t size)
{
    snprintf(name, size, "%.150s (sm_%d%d, device %d)", prop.name, prop.major, prop.minor, dev);
}

/* `want` when given (>= 0), else the calling thread's current device. */
static hb_status wanted_or_current(int want, int *dev)
{
    if (want >= 0) {
        *dev = want;
        return HB_SUCCESS;
    }
    cudaError_t err = cudaGetDevice(dev);
    if (err != cudaSuccess) {
        (void)cudaGetLastError();
        return hb__error(HB_ERR_BACKEND, "cuda: cudaGetDevice: %s (%s)", cudaGetErrorString(err),
                         cudaGetErrorName(err));
    }
    return HB_SUCCESS;
}

/* The device of an adopted stream, checked to be a stream. The default
 * streams (cudaStreamLegacy, cudaStreamPerThread) exist on every device:
 * `device`, else the current one. CUDA 12.8 tells another stream's device
 * (and `device`, when given, must be it); older runtimes cannot, and take
 * `device`, else the current device. */
static hb_status stream_device(cudaStream_t s, int want, int *dev)
{
    if (s == cudaStreamLegacy || s == cudaStreamPerThread)
        return wanted_or_current(want, dev);
    unsigned flags = 0;
    cudaError_t err = cudaStreamGetFlags(s, &flags);
    if (err != cudaSuccess) {
        (void)cudaGetLastError();
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "hb_context_options.cuda_stream is not a CUDA stream: %s (%s)",
                         cudaGetErrorString(err), cudaGetErrorName(err));
    }
#if CUDART_VERSION >= 12080
    int sdev = -1;
    err = cudaStreamGetDevice(s, &sdev);
    if (err != cudaSuccess) {
        (void)cudaGetLastError();
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "hb_context_options.cuda_stream: its device is unknown: %s (%s)",
                         cudaGetErrorString(err), cudaGetErrorName(err));
    }
    if (want >= 0 && sdev != want)
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "hb_context_options.cuda_stream is a stream of device %d but "
                         "hb_context_options.device = %d",
                         sdev, want);
    *dev = sdev;
    return HB_SUCCESS;
#else
    return wanted_or_current(want, dev);
#endif
}

static hb_status cuda_init(hb_context *ctx, const hb_context_options *opts)
{
    /* The device: opts->device, else HINESBATCH_DEVICE (read only then: the
     * API over the environment), else 0; an adopted stream brings its own. */
    int dev = opts->device;
    char what[64] = "";
    cudaStream_t adopted = (cudaStream_t)opts->cuda_stream;
    if (dev >= 0) {
        snprintf(what, sizeof what, "hb_context_options.device = %d", dev);
    } else if (!adopted) {
        const char *dev_text = NULL;
        HB_FORWARD(hb__env_device(&dev, &dev_text));
        if (dev >= 0)
            snprintf(what, sizeof what, "HINESBATCH_DEVICE=%d", dev);
    }
    int count = 0;
    HB_FORWARD(device_count(&count));
    if (adopted)
        HB_FORWARD(stream_device(adopted, opts->device, &dev));
    if (dev < 0)
        dev = 0; /* nothing given: the first device */
    /* A well-formed index past the list names a device this machine lacks:
     * unavailable, as in the OpenCL backend (never a fallback to device 0). */
    if (dev >= count)
        return hb__error(HB_ERR_BACKEND_UNAVAILABLE, "%s but only %d CUDA device%s (0..%d)",
                         what[0] ? what : "the adopted stream's device", count,
                         count == 1 ? " is present" : "s are present", count - 1);
    cudaDeviceProp prop;
    cudaError_t err = cudaGetDeviceProperties(&prop, dev);
    if (err == cudaSuccess)
        err = cudaSetDevice(dev);
    if (err != cudaSuccess) {
        (void)cudaGetLastError();
        return hb__error(HB_ERR_BACKEND_UNAVAILABLE, "cuda: device %d cannot be opened: %s (%s)",
                         dev, cudaGetErrorString(err), cudaGetErrorName(err));
    }
    hb_cuda_impl *impl = (hb_cuda_impl *)calloc(1, sizeof *impl);
    if (!impl)
        return hb__error(HB_ERR_OUT_OF_MEMORY, "cuda: context state of %zu bytes", sizeof *impl);
    impl->device = dev;
    impl->smem_block = prop.sharedMemPerBlock;
    impl->smem_optin = prop.sharedMemPerBlockOptin > prop.sharedMemPerBlock
                           ? prop.sharedMemPerBlockOptin
                           : prop.sharedMemPerBlock;
    impl->max_threads = prop.maxThreadsPerBlock;
    if (adopted) {
        /* The caller's: used, never synchronised or destroyed by us. */
        impl->stream = adopted;
        impl->adopted = 1;
    } else {
        /* A blocking stream: it orders with the legacy default stream, so a
         * caller's plain cudaMemcpy into a plan buffer is seen by the next
         * solve. */
        err = cudaStreamCreate(&impl->stream);
        if (err != cudaSuccess) {
            free(impl);
            (void)cudaGetLastError();
            return hb__error(HB_ERR_BACKEND_UNAVAILABLE, "cuda: cudaStreamCreate on device %d: %s",
                             dev, cudaGetErrorString(err));
        }
    }
    ctx->impl = impl;
    /* Two warps per block: 512-byte rows in double, and a block-shared block
     * of 64 threads. */
    ctx->traits = hb_device_traits{1, 1, 64, impl->smem_optin, (size_t)impl->max_threads,
                                   prop.multiProcessorCount};
    device_label(prop, dev, ctx->device, sizeof ctx->device);
    if (adopted) {
        size_t len = strlen(ctx->device);
        snprintf(ctx->device + len, sizeof ctx->device - len, ", the caller's stream");
    }
    return HB_SUCCESS;
}

static void cuda_fini(hb_context *ctx)
{
    hb_cuda_impl *impl = (hb_cuda_impl *)ctx->impl;
    if (!impl)
        return;
    /* An adopted stream is left as it is: the caller may have work of its
     * own queued there, and every plan buffer was freed (cudaFree waits for
     * the work using it) before the last reference let go. */
    if (!impl->adopted && cudaSetDevice(impl->device) == cudaSuccess) {
        cudaStreamSynchronize(impl->stream);
        cudaStreamDestroy(impl->stream);
    }
    (void)cudaGetLastError();
    free(impl);
    ctx->impl = NULL;
}

static void cuda_get_options(const hb_context *ctx, hb_context_options *opts)
{
    const hb_cuda_impl *impl = (const hb_cuda_impl *)ctx->impl;
    opts->device = impl->device;
    opts->cuda_stream = (void *)impl->stream;
}

static hb_status cuda_devices(int32_t platform, int32_t index, int32_t *count, char *name,
                              size_t size)
{
    (void)platform; /* the core refuses platforms for CUDA */
    int n = 0;
    HB_FORWARD(device_count(&n));
    *count = n;
    if (!name)
        return HB_SUCCESS;
    if (index >= n)
        return hb__error(HB_ERR_BACKEND_UNAVAILABLE,
                         "hb_backend_device_name: device = %d but only %d CUDA device%s (0..%d)",
                         (int)index, n, n == 1 ? " is present" : "s are present", n - 1);
    cudaDeviceProp prop;
    cudaError_t err = cudaGetDeviceProperties(&prop, index);
    if (err != cudaSuccess) {
        (void)cudaGetLastError();
        return hb__error(HB_ERR_BACKEND_UNAVAILABLE, "cuda: device %d cannot be queried: %s (%s)",
                         (int)index, cudaGetErrorString(err), cudaGetErrorName(err));
    }
    device_label(prop, index, name, size);
    return HB_SUCCESS;
}

static hb_status cuda_alloc(hb_context *ctx, size_t bytes, hb_buffer **out)
{
    HB_FORWARD(hb__cuda_use(ctx));
    hb_buffer *b = (hb_buffer *)calloc(1, sizeof *b);
    if (!b)
        return hb__error(HB_ERR_OUT_OF_MEMORY, "cuda: host descriptor of a %zu-byte buffer", bytes);
    cudaError_t err = cudaMalloc(&b->ptr, bytes ? bytes : 1);
    if (err != cudaSuccess) {
        free(b);
        (void)cudaGetLastError();
        size_t free_b = 0, total_b = 0;
        cudaMemGetInfo(&free_b, &total_b);
        (void)cudaGetLastError();
        return hb__error(err == cudaErrorMemoryAllocation ? HB_ERR_OUT_OF_MEMORY : HB_ERR_BACKEND,
                         "cuda: cudaMalloc of %zu bytes failed: %s (%zu of %zu bytes free)", bytes,
                         cudaGetErrorString(err), free_b, total_b);
    }
    b->bytes = bytes;
    *out = b;
    return HB_SUCCESS;
}

static void cuda_release(hb_context *ctx, hb_buffer *buf)
{
    if (!buf)
        return;
    /* cudaFree waits for work using the buffer; errors here have no caller to go to. */
    if (hb__cuda_use(ctx) == HB_SUCCESS)
        cudaFree(buf->ptr);
    (void)cudaGetLastError();
    free(buf);
}

static hb_status cuda_write(hb_context *ctx, void *stream, hb_buffer *buf, size_t off,
                            const void *src, size_t bytes)
{
    HB_FORWARD(hb__check_span("cuda", "write", off, bytes, buf->bytes));
    HB_FORWARD(hb__cuda_use(ctx));
    /* From pageable memory the call returns once src has been staged, so the
     * caller may free src at once. */
    HB_CUDA_CALL(cudaMemcpyAsync((char *)buf->ptr + off, src, bytes, cudaMemcpyHostToDevice,
                                 hb__cuda_stream(ctx, stream)));
    return HB_SUCCESS;
}

static hb_status cuda_read(hb_context *ctx, void *stream, hb_buffer *buf, size_t off, void *dst,
                           size_t bytes)
{
    HB_FORWARD(hb__check_span("cuda", "read", off, bytes, buf->bytes));
    HB_FORWARD(hb__cuda_use(ctx));
    cudaStream_t s = hb__cuda_stream(ctx, stream);
    HB_CUDA_CALL(cudaMemcpyAsync(dst, (const char *)buf->ptr + off, bytes, cudaMemcpyDeviceToHost,
                                 s));
    HB_CUDA_CALL(cudaStreamSynchronize(s));
    return HB_SUCCESS;
}

static void *cuda_native(hb_buffer *buf) { return buf->ptr; }

static hb_status cuda_copy(hb_context *ctx, void *stream, hb_buffer *dst, hb_buffer *src,
                           size_t bytes)
{
    HB_FORWARD(hb__check_span("cuda", "copy from", 0, bytes, src->bytes));
    HB_FORWARD(hb__check_span("cuda", "copy to", 0, bytes, dst->bytes));
    HB_FORWARD(hb__cuda_use(ctx));
    HB_CUDA_CALL(cudaMemcpyAsync(dst->ptr, src->ptr, bytes, cudaMemcpyDeviceToDevice,
                                 hb__cuda_stream(ctx, stream)));
    return HB_SUCCESS;
}

static hb_status cuda_finish(hb_context *ctx, void *stream)
{
    HB_FORWARD(hb__cuda_use(ctx));
    /* Kernel faults (an illegal address, say) surface here. */
    HB_CUDA_CALL(cudaStreamSynchronize(hb__cuda_stream(ctx, stream)));
    return HB_SUCCESS;
}

static hb_status cuda_mem_available(hb_context *ctx, uint64_t *bytes)
{
    HB_FORWARD(hb__cuda_use(ctx));
    size_t free_bytes = 0, total = 0;
    HB_CUDA_CALL(cudaMemGetInfo(&free_bytes, &total));
    *bytes = free_bytes;
    return HB_SUCCESS;
}

/* Filled by name, so a member added to the table stays NULL ("not
 * available") until this backend implements it. */
static hb_backend_ops make_ops(void)
{
    hb_backend_ops o;
    memset(&o, 0, sizeof o);
    o.kind = HB_BACKEND_CUDA;
    o.name = "cuda";
    o.init = cuda_init;
    o.fini = cuda_fini;
    o.get_options = cuda_get_options;
    o.devices = cuda_devices;
    o.alloc = cuda_alloc;
    o.release = cuda_release;
    o.write = cuda_write;
    o.read = cuda_read;
    o.native = cuda_native;
    o.to_layout = hb__cuda_to_layout;
    o.to_flat = hb__cuda_to_flat;
    o.map_to_layout = hb__cuda_map_to_layout;
    o.map_to_flat = hb__cuda_map_to_flat;
    o.thomas = hb__cuda_thomas;
    o.hines = hb__cuda_hines;
    o.thomas_shared = hb__cuda_thomas_shared;
    o.hines_shared = hb__cuda_hines_shared;
    o.hines_branch_level = hb__cuda_hines_branch_level;
    o.hines_fine_tree = hb__cuda_hines_fine_tree;
    o.thomas_coop = hb__cuda_thomas_coop;
    o.thomas_coop_local = hb__cuda_thomas_coop_local;
    o.coop_local_limit = hb__cuda_coop_local_limit;
    o.thomas_coop_warp = hb__cuda_thomas_coop_warp;
    o.hines_cell = hb__cuda_hines_cell;
    o.cell_resident = hb__cuda_cell_resident;
    o.copy = cuda_copy;
    o.finish = cuda_finish;
    o.mem_available = cuda_mem_available;
    return o;
}

const hb_backend_ops *hb__cuda_backend(void)
{
    static const hb_backend_ops ops = make_ops(); /* thread-safe once (C++11) */
    return &ops;
}
