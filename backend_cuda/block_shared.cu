/* block_shared.cu: CUDA-only block-shared solvers: one thread block per layout block, its rhs (Hines) or c' (Thomas) on chip. */
#include "cuda_backend.h"

/* blockDim.x == the layout's block size, so thread j of block g is slot
 * g*BS + j and column j of the block; row i of the block's on-chip array is
 * at i*BS + j (consecutive threads, consecutive banks). Threads never read
 * each other's columns, so no barrier is needed. Same operations, in the same
 * order, as kernels_cl/thomas.cl and kernels_cl/hines.cl. */

template <typename T>
__global__ void hb_thomas_shared(long long nslots, long long stride, const long long *base,
                                 const long long *rows, const T *a, const T *b, const T *c, T *d)
{
    extern __shared__ __align__(16) unsigned char hb_smem[];
    T *cw = reinterpret_cast<T *>(hb_smem);
    const int j = threadIdx.x, bs = blockDim.x;
    const long long t = (long long)blockIdx.x * bs + j;
    if (t >= nslots)
        return;
    const long long o = base[t], n = rows[t], st = stride;
    const T *A = a + o, *B = b + o, *C = c + o;
    T *D = d + o;
    T cprev = C[0] / B[0];
    T dprev = D[0] / B[0];
    cw[j] = cprev;
    D[0] = dprev;
    for (long long i = 1; i < n; ++i) {
        const long long k = i * st;
        const T ak = A[k];
        const T m = (T)1 / (B[k] - ak * cprev);
        cprev = C[k] * m;
        dprev = (D[k] - ak * dprev) * m;
        cw[i * bs + j] = cprev;
        D[k] = dprev;
    }
    T x = dprev;
    for (long long i = n - 2; i >= 0; --i) {
        const long long k = i * st;
        x = D[k] - cw[i * bs + j] * x;
        D[k] = x;
    }
}

template <typename T>
__global__ void hb_hines_shared(long long nslots, long long stride, const long long *base,
                                const long long *rows, const long long *poff, const int *parent,
                                const T *u, const T *l, T *d, T *r)
{
    extern __shared__ __align__(16) unsigned char hb_smem[];
    T *R = reinterpret_cast<T *>(hb_smem);
    const int j = threadIdx.x, bs = blockDim.x;
    const long long t = (long long)blockIdx.x * bs + j;
    if (t >= nslots)
        return;
    const long long o = base[t], n = rows[t], st = stride;
    const int *P = parent + poff[t];
    const T *U = u + o, *L = l + o;
    T *D = d + o, *G = r + o;
    for (long long i = 0; i < n; ++i)
        R[i * bs + j] = G[i * st];
    for (long long i = n - 1; i >= 1; --i) {
        const long long k = i * st, kp = (long long)P[i] * st;
        const long long q = i * bs + j, qp = (long long)P[i] * bs + j;
        const T f = U[k] / D[k];
        D[kp] -= f * L[k];
        R[qp] -= f * R[q];
    }
    R[j] = R[j] / D[0];
    for (long long i = 1; i < n; ++i) {
        const long long k = i * st;
        const long long q = i * bs + j, qp = (long long)P[i] * bs + j;
        R[q] = (R[q] - L[k] * R[qp]) / D[k];
    }
    for (long long i = 0; i < n; ++i)
        G[i * st] = R[i * bs + j];
}

/* Dynamic shared memory for one block (0 when it cannot fit, or the block is
 * larger than a thread block may be); raises the kernel's limit past the
 * default 48 KiB where the device allows it. */
static hb_status shared_bytes(const hb_context *ctx, const hb_layout_dev *lay, size_t esize,
                              const void *kernel, size_t *bytes)
{
    const hb_cuda_impl *impl = (const hb_cuda_impl *)ctx->impl;
    *bytes = 0;
    if (lay->block_size <= 0 || lay->block_size > impl->max_threads ||
        lay->stride != lay->block_size)
        return HB_SUCCESS;
    const double need = (double)lay->max_rows * lay->block_size * (double)esize;
    if (need > (double)impl->smem_optin)
        return HB_SUCCESS;
    size_t b = (size_t)need;
    if (b > impl->smem_block)
        HB_CUDA_CALL(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          (int)b));
    *bytes = b;
    return HB_SUCCESS;
}

template <typename T>
static hb_status thomas_shared(hb_context *ctx, void *stream, const hb_layout_dev *lay,
                               hb_buffer *a, hb_buffer *b, hb_buffer *c, hb_buffer *d, int *ran,
                               const char *name)
{
    size_t smem = 0;
    HB_FORWARD(shared_bytes(ctx, lay, sizeof(T), (const void *)hb_thomas_shared<T>, &smem));
    if (!smem)
        return HB_SUCCESS;
    const unsigned grid = hb__cuda_blocks(lay->nslots, lay->block_size);
    hb_thomas_shared<T><<<grid, lay->block_size, smem, hb__cuda_stream(ctx, stream)>>>(
        lay->nslots, lay->stride, hb__cuda_i64(lay->base), hb__cuda_i64(lay->rows),
        (const T *)a->ptr, (const T *)b->ptr, (const T *)c->ptr, (T *)d->ptr);
    *ran = 1;
    return hb__cuda_launched(name, lay->nslots);
}

template <typename T>
static hb_status hines_shared(hb_context *ctx, void *stream, const hb_layout_dev *lay,
                              hb_buffer *u, hb_buffer *l, hb_buffer *d, hb_buffer *rhs, int *ran,
                              const char *name)
{
    size_t smem = 0;
    HB_FORWARD(shared_bytes(ctx, lay, sizeof(T), (const void *)hb_hines_shared<T>, &smem));
    if (!smem)
        return HB_SUCCESS;
    const unsigned grid = hb__cuda_blocks(lay->nslots, lay->block_size);
    hb_hines_shared<T><<<grid, lay->block_size, smem, hb__cuda_stream(ctx, stream)>>>(
        lay->nslots, lay->stride, hb__cuda_i64(lay->base), hb__cuda_i64(lay->rows),
        hb__cuda_i64(lay->poff), (const int *)lay->parent->ptr, (const T *)u->ptr,
        (const T *)l->ptr, (T *)d->ptr, (T *)rhs->ptr);
    *ran = 1;
    return hb__cuda_launched(name, lay->nslots);
}

hb_status hb__cuda_thomas_shared(hb_context *ctx, void *stream, hb_precision p,
                                 const hb_layout_dev *lay, hb_buffer *a, hb_buffer *b,
                                 hb_buffer *c, hb_buffer *d, int *ran)
{
    *ran = 0;
    return p == HB_DOUBLE
               ? thomas_shared<double>(ctx, stream, lay, a, b, c, d, ran, "hb_thomas_shared<double>")
               : thomas_shared<float>(ctx, stream, lay, a, b, c, d, ran, "hb_thomas_shared<float>");
}

hb_status hb__cuda_hines_shared(hb_context *ctx, void *stream, hb_precision p,
                                const hb_layout_dev *lay, hb_buffer *u, hb_buffer *l,
                                hb_buffer *d, hb_buffer *rhs, int *ran)
{
    *ran = 0;
    return p == HB_DOUBLE
               ? hines_shared<double>(ctx, stream, lay, u, l, d, rhs, ran, "hb_hines_shared<double>")
               : hines_shared<float>(ctx, stream, lay, u, l, d, rhs, ran, "hb_hines_shared<float>");
}
