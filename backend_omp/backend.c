/* backend.c: operation tables of the serial (oracle) and OpenMP host backends, and host memory. */
#include "host_backend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* No on-chip memory the kernels could manage: block-shared runs as
 * block-interleaved; one system per core reads flat rows. */
static const hb_device_traits host_traits = {0, 1, 32, 0, 1, 0};

/* The core refuses device and platform for the host backends: opts has
 * nothing for them. */
static hb_status serial_init(hb_context *ctx, const hb_context_options *opts)
{
    (void)opts;
    snprintf(ctx->device, sizeof ctx->device, "host CPU (1 thread)");
    ctx->traits = host_traits;
    return HB_SUCCESS;
}

#ifdef _OPENMP
static hb_status openmp_init(hb_context *ctx, const hb_context_options *opts)
{
    (void)opts;
    snprintf(ctx->device, sizeof ctx->device, "host CPU (%d OpenMP threads)",
             omp_get_max_threads());
    ctx->traits = host_traits;
    return HB_SUCCESS;
}
#endif

static void host_fini(hb_context *ctx) { (void)ctx; }

static hb_status host_alloc(hb_context *ctx, size_t bytes, hb_buffer **out)
{
    (void)ctx;
    hb_buffer *b = malloc(sizeof *b);
    void *p = malloc(bytes ? bytes : 1);
    if (!b || !p) {
        free(b);
        free(p);
        return hb__error(HB_ERR_OUT_OF_MEMORY, "host allocation of %zu bytes failed", bytes);
    }
    b->ptr = p;
    b->bytes = bytes;
    *out = b;
    return HB_SUCCESS;
}

static void host_release(hb_context *ctx, hb_buffer *buf)
{
    (void)ctx;
    if (buf) {
        free(buf->ptr);
        free(buf);
    }
}

/* Copies in 1 MiB chunks split over the OpenMP threads: every core's memory
 * channel takes part, and a fresh buffer's pages are first touched (placed,
 * on NUMA hosts) by the threads whose static schedule solves them. */
static void host_memcpy(const hb_context *ctx, void *dst, const void *src, size_t bytes)
{
    const int par = hb__host_parallel(ctx);
    const size_t chunk = (size_t)1 << 20;
    const int64_t nchunks = (int64_t)((bytes + chunk - 1) / chunk);
    (void)par;
#pragma omp parallel for schedule(static) if (par)
    for (int64_t c = 0; c < nchunks; ++c) {
        size_t off = (size_t)c * chunk, len = bytes - off < chunk ? bytes - off : chunk;
        memcpy((char *)dst + off, (const char *)src + off, len);
    }
}

static hb_status host_write(hb_context *ctx, void *stream, hb_buffer *buf, size_t off,
                            const void *src, size_t bytes)
{
    (void)stream;
    HB_FORWARD(hb__check_span("host", "write", off, bytes, buf->bytes));
    host_memcpy(ctx, (char *)buf->ptr + off, src, bytes);
    return HB_SUCCESS;
}

static hb_status host_read(hb_context *ctx, void *stream, hb_buffer *buf, size_t off, void *dst,
                           size_t bytes)
{
    (void)stream;
    HB_FORWARD(hb__check_span("host", "read", off, bytes, buf->bytes));
    host_memcpy(ctx, dst, (char *)buf->ptr + off, bytes);
    return HB_SUCCESS;
}

static void *host_native(hb_buffer *buf) { return buf->ptr; }

static hb_status host_copy(hb_context *ctx, void *stream, hb_buffer *dst, hb_buffer *src,
                           size_t bytes)
{
    (void)stream;
    HB_FORWARD(hb__check_span("host", "copy from", 0, bytes, src->bytes));
    HB_FORWARD(hb__check_span("host", "copy to", 0, bytes, dst->bytes));
    host_memcpy(ctx, dst->ptr, src->ptr, bytes);
    return HB_SUCCESS;
}

static hb_status host_finish(hb_context *ctx, void *stream)
{
    (void)ctx, (void)stream;
    return HB_SUCCESS;
}

#define HB_HOST_OPS(KIND, NAME, INIT)                                                     \
    {                                                                                     \
        .kind = KIND, .name = NAME, .init = INIT, .fini = host_fini,                      \
        .alloc = host_alloc, .release = host_release,                                     \
        .write = host_write, .read = host_read, .native = host_native,                    \
        .to_layout = hb__host_to_layout, .to_flat = hb__host_to_flat,                     \
        .thomas = hb__host_thomas, .hines = hb__host_hines,                               \
        .map_to_layout = hb__host_map_to_layout, .map_to_flat = hb__host_map_to_flat,     \
        .hines_branch_level = hb__host_hines_branch_level,                                \
        .hines_fine_tree = hb__host_hines_fine_tree, .copy = host_copy,                   \
        .finish = host_finish                                                             \
    }

static const hb_backend_ops serial_ops = HB_HOST_OPS(HB_BACKEND_SERIAL, "serial", serial_init);
const hb_backend_ops *hb__serial_backend(void) { return &serial_ops; }

#ifdef _OPENMP
static const hb_backend_ops openmp_ops = HB_HOST_OPS(HB_BACKEND_OPENMP, "openmp", openmp_init);
const hb_backend_ops *hb__openmp_backend(void) { return &openmp_ops; }
#else
const hb_backend_ops *hb__openmp_backend(void) { return NULL; }
#endif
