/* error.cu: the CUDA backend's error reports, device selection and dynamic shared-memory opt-in, shared by its launchers. */
#include "cuda_backend.h"

hb_status hb__cuda_fail(cudaError_t err, const char *call)
{
    /* Clears a non-sticky error so the next call does not report it again. */
    (void)cudaGetLastError();
    return hb__error(err == cudaErrorMemoryAllocation ? HB_ERR_OUT_OF_MEMORY : HB_ERR_BACKEND,
                     "cuda: %s failed: %s (%s)", call, cudaGetErrorString(err),
                     cudaGetErrorName(err));
}

hb_status hb__cuda_use(const hb_context *ctx)
{
    HB_CUDA_CALL(cudaSetDevice(((const hb_cuda_impl *)ctx->impl)->device));
    return HB_SUCCESS;
}

hb_status hb__cuda_allow_smem(const hb_context *ctx, const void *kernel, size_t bytes)
{
    const hb_cuda_impl *impl = (const hb_cuda_impl *)ctx->impl;
    if (bytes > impl->smem_block)
        HB_CUDA_CALL(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          (int)impl->smem_optin));
    return HB_SUCCESS;
}

hb_status hb__cuda_resident(const hb_context *ctx, const void *kernel, int64_t group, size_t bytes,
                            int64_t *per_unit)
{
    HB_FORWARD(hb__cuda_allow_smem(ctx, kernel, bytes));
    int n = 0;
    HB_CUDA_CALL(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, kernel, (int)group, bytes));
    *per_unit = n;
    return HB_SUCCESS;
}

hb_status hb__cuda_launched(const char *kernel, hb_precision p, int64_t n)
{
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess)
        return hb__error(HB_ERR_BACKEND, "cuda: launch of %s_%s over %lld items failed: %s (%s)",
                         kernel, p == HB_DOUBLE ? "d" : "s", (long long)n,
                         cudaGetErrorString(err), cudaGetErrorName(err));
    return HB_SUCCESS;
}
