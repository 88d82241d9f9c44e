/* cuda_backend.h: the CUDA backend's buffer, context state, error helpers and kernel launchers. */
#ifndef HB_CUDA_BACKEND_H
#define HB_CUDA_BACKEND_H

#include "hb_internal.h"

#include <cuda_runtime.h>

struct hb_buffer {
    void  *ptr;   /* device pointer (cudaMalloc) */
    size_t bytes;
};

typedef struct {
    int          device;
    cudaStream_t stream;          /* the context's stream: plans without one use it */
    size_t       smem_block;      /* shared memory per block without opt-in          */
    size_t       smem_optin;      /* largest dynamic shared memory per block         */
    int          max_threads;     /* per block                                        */
} hb_cuda_impl;

/* Plan stream (a cudaStream_t) or the context's own. */
static inline cudaStream_t hb__cuda_stream(const hb_context *ctx, void *stream)
{
    return stream ? (cudaStream_t)stream : ((const hb_cuda_impl *)ctx->impl)->stream;
}

/* Device tables are int64_t; the kernels' hb_long is long long (same size). */
static inline const long long *hb__cuda_i64(const hb_buffer *b)
{
    return (const long long *)b->ptr;
}

/* hb__error for a failed CUDA call: names the call and gives CUDA's text. */
hb_status hb__cuda_fail(cudaError_t err, const char *call);
/* Makes the context's device current (contexts on several GPUs in one thread). */
hb_status hb__cuda_use(const hb_context *ctx);
/* After a launch: reports a launch error, naming the kernel. */
hb_status hb__cuda_launched(const char *kernel, int64_t nslots);

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

hb_status hb__cuda_to_layout(hb_context *ctx, void *stream, hb_precision p,
                             const hb_layout_dev *lay, const hb_convert_rule *rule,
                             hb_buffer *flat_src, hb_buffer *dst);
hb_status hb__cuda_to_flat(hb_context *ctx, void *stream, hb_precision p,
                           const hb_layout_dev *lay, hb_buffer *src, hb_buffer *flat_dst);
hb_status hb__cuda_map_to_layout(hb_context *ctx, void *stream, hb_precision p, int64_t n,
                                 hb_buffer *map, hb_buffer *flat_src, hb_buffer *dst);
hb_status hb__cuda_map_to_flat(hb_context *ctx, void *stream, hb_precision p, int64_t n,
                               hb_buffer *map, hb_buffer *src, hb_buffer *flat_dst);
hb_status hb__cuda_thomas(hb_context *ctx, void *stream, hb_precision p,
                          const hb_layout_dev *lay, hb_buffer *a, hb_buffer *b, hb_buffer *c,
                          hb_buffer *cw, hb_buffer *d);
hb_status hb__cuda_hines(hb_context *ctx, void *stream, hb_precision p,
                         const hb_layout_dev *lay, hb_buffer *u, hb_buffer *l, hb_buffer *d,
                         hb_buffer *rhs);
hb_status hb__cuda_hines_branch_level(hb_context *ctx, void *stream, hb_precision p,
                                      const hb_branch_dev *br, hb_buffer *u, hb_buffer *l,
                                      hb_buffer *d, hb_buffer *rhs);
hb_status hb__cuda_hines_fine_tree(hb_context *ctx, void *stream, hb_precision p,
                                   const hb_branch_dev *br, hb_buffer *u, hb_buffer *l,
                                   hb_buffer *d, hb_buffer *rhs);
hb_status hb__cuda_sim_membrane(hb_context *ctx, void *stream, hb_precision p,
                                const hb_sim_dev *sim, int advance, int64_t step);
hb_status hb__cuda_sim_assemble(hb_context *ctx, void *stream, hb_precision p,
                                const hb_sim_dev *sim, hb_buffer *d, hb_buffer *rhs);
hb_status hb__cuda_sim_update(hb_context *ctx, void *stream, hb_precision p,
                              const hb_sim_dev *sim, hb_buffer *x, double t0, int64_t rec_row);
/* Block-shared variants (block_shared.cu): 1 in *ran when they ran, 0 when
 * the block's data does not fit on chip and the caller must fall back. */
hb_status hb__cuda_thomas_shared(hb_context *ctx, void *stream, hb_precision p,
                                 const hb_layout_dev *lay, hb_buffer *a, hb_buffer *b,
                                 hb_buffer *c, hb_buffer *d, int *ran);
hb_status hb__cuda_hines_shared(hb_context *ctx, void *stream, hb_precision p,
                                const hb_layout_dev *lay, hb_buffer *u, hb_buffer *l,
                                hb_buffer *d, hb_buffer *rhs, int *ran);

#endif
