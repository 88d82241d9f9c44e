/* cuda_backend.h: the CUDA backend's buffer, context state, error helpers and kernel launchers. */
#ifndef HB_CUDA_BACKEND_H
#define HB_CUDA_BACKEND_H

#include "hb_backend.h"

#include <cuda_runtime.h>

struct hb_buffer {
    void  *ptr;   /* device pointer (cudaMalloc) */
    size_t bytes;
};

typedef struct {
    int          device;
    cudaStream_t stream;          /* the context's stream: plans without one use it */
    int          adopted;         /* stream is the caller's (hb_context_options):
                                     never synchronised or destroyed by fini     */
    size_t       smem_block;      /* shared memory per block without opt-in          */
    size_t       smem_optin;      /* largest dynamic shared memory per block         */
    int          max_threads;     /* per block                                        */
} hb_cuda_impl;

/* Plan stream (a cudaStream_t) or the context's own. */
static inline cudaStream_t hb__cuda_stream(const hb_context *ctx, void *stream)
{
    return stream ? (cudaStream_t)stream : ((const hb_cuda_impl *)ctx->impl)->stream;
}

/* A buffer's device pointer, converting to whatever pointer type the kernel
 * parameter has (real of either precision, hb_long tables), so one launcher
 * line serves both precisions. An absent buffer (NULL) gives a null pointer,
 * which kernels with optional arrays never touch. */
struct hb_cuda_ptr {
    void *p;
    template <typename T> operator T *() const { return static_cast<T *>(p); }
};
static inline hb_cuda_ptr hb__dev(const hb_buffer *b) { return hb_cuda_ptr{b ? b->ptr : nullptr}; }
/* A real scalar argument in the kernel's precision. */
struct hb_cuda_real {
    double v;
    operator double() const { return v; }
    operator float() const { return (float)v; }
};
static inline hb_cuda_real hb__real(double v) { return hb_cuda_real{v}; }

/* hb__error for a failed CUDA call: names the call and gives CUDA's text. */
hb_status hb__cuda_fail(cudaError_t err, const char *call);
/* Makes the context's device current (contexts on several GPUs in one thread). */
hb_status hb__cuda_use(const hb_context *ctx);
/* Lets `kernel` use `bytes` of dynamic shared memory: past the default per
 * block (smem_block, 48 KiB) a kernel must opt in, up to the device's
 * smem_optin (the core keeps plans within it). */
hb_status hb__cuda_allow_smem(const hb_context *ctx, const void *kernel, size_t bytes);
/* Thread blocks of the kernel with `group` threads and `bytes` of dynamic
 * shared memory that one SM holds at once (the occupancy calculator:
 * registers, shared memory, threads). */
hb_status hb__cuda_resident(const hb_context *ctx, const void *kernel, int64_t group, size_t bytes,
                            int64_t *per_unit);
/* After a launch: reports a launch error, naming the kernel. */
hb_status hb__cuda_launched(const char *kernel, hb_precision p, int64_t n);

/* Launches kernel `name` of kernels_cl/ (compiled in namespaces hb_cl_d and
 * hb_cl_s by cl_both_precisions.cuh) in precision p over n items, and gives
 * the launch's status. */
#define HB_CUDA_LAUNCH(p, name, n, grid, block, smem, stream, ...)                       \
    (((p) == HB_DOUBLE                                                                    \
          ? hb_cl_d::HB_CAT(name, _d)<<<(grid), (block), (smem), (stream)>>>(__VA_ARGS__) \
          : hb_cl_s::HB_CAT(name, _s)<<<(grid), (block), (smem), (stream)>>>(__VA_ARGS__)), \
     hb__cuda_launched(#name, (p), (n)))
/* The kernel itself, for attributes (cudaFuncSetAttribute). */
#define HB_CUDA_KERNEL(p, name)                                                         \
    ((p) == HB_DOUBLE ? (const void *)hb_cl_d::HB_CAT(name, _d)                           \
                      : (const void *)hb_cl_s::HB_CAT(name, _s))

#define HB_CUDA_CALL(call)                                            \
    do {                                                              \
        cudaError_t hb__e_ = (call);                                  \
        if (hb__e_ != cudaSuccess)                                    \
            return hb__cuda_fail(hb__e_, #call);                      \
    } while (0)

/* Threads per block of the per-system kernels. */
#define HB_CUDA_THREADS 128

static inline unsigned hb__cuda_blocks(int64_t n, int64_t threads)
{
    return (unsigned)((n + threads - 1) / threads);
}

/* The launchers (the .cu files of solver/): the hb_backend_ops entries. */
hb_to_layout_fn hb__cuda_to_layout;
hb_to_flat_fn hb__cuda_to_flat;
hb_map_fn hb__cuda_map_to_layout;
hb_map_fn hb__cuda_map_to_flat;
hb_thomas_fn hb__cuda_thomas;
hb_hines_fn hb__cuda_hines;
hb_block_shared_fn hb__cuda_thomas_shared;
hb_block_shared_fn hb__cuda_hines_shared;
hb_thomas_fn hb__cuda_thomas_coop;
hb_thomas_fn hb__cuda_thomas_coop_local;
hb_thomas_fn hb__cuda_thomas_coop_warp;
hb_status hb__cuda_coop_local_limit(hb_context *ctx, hb_precision p, int64_t *max_items);
/* solver/thomas_span.cu: the span variant, called by hb__cuda_thomas_coop
 * when lay->coop_span > 1 (same arguments). */
hb_thomas_fn hb__cuda_thomas_span;
hb_hines_fn hb__cuda_hines_cell;
hb_status hb__cuda_cell_resident(hb_context *ctx, hb_precision p, int ul_shared, int64_t group,
                                 size_t bytes, int64_t *per_unit);
hb_hines_branches_fn hb__cuda_hines_branch_level;
hb_hines_branches_fn hb__cuda_hines_fine_tree;

#endif
