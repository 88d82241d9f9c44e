/* cl_compat.cuh: lets nvcc compile the OpenCL C kernels of kernels_cl/ (as CLBlast's opencl_to_cuda.h does). */
#ifndef HB_CL_COMPAT_CUH
#define HB_CL_COMPAT_CUH

#include <cuda_runtime.h>
#include <stddef.h>

/* Include this after every CUDA and system header: the OpenCL qualifiers
 * become plain CUDA (global memory is the default address space). */
#define __kernel __global__
#define __global
#define __local __shared__
#define CLK_LOCAL_MEM_FENCE 1
#define CLK_GLOBAL_MEM_FENCE 2
#define barrier(flags) __syncthreads() /* orders global and shared memory in a block */
#define atomic_inc(p) atomicAdd((int *)(p), 1) /* the old value, as OpenCL's */
#define HB_FN __device__ static inline          /* helper functions of the .cl files */

typedef long long hb_long; /* 64-bit, like OpenCL's long */
typedef int hb_int;

__device__ static inline size_t get_local_id(int d)
{
    return d == 0 ? threadIdx.x : d == 1 ? threadIdx.y : threadIdx.z;
}
__device__ static inline size_t get_group_id(int d)
{
    return d == 0 ? blockIdx.x : d == 1 ? blockIdx.y : blockIdx.z;
}
__device__ static inline size_t get_local_size(int d)
{
    return d == 0 ? blockDim.x : d == 1 ? blockDim.y : blockDim.z;
}
/* size_t arithmetic: grids of more than 2^32 threads stay correct. */
__device__ static inline size_t get_global_id(int d)
{
    return get_group_id(d) * get_local_size(d) + get_local_id(d);
}

/* Dynamic local memory (hb_prelude.cl): no argument; the launch's dynamic
 * shared memory, aligned for doubles. */
#define HB_DYNAMIC_LOCAL_ARG(T, name)
#define HB_DYNAMIC_LOCAL(T, name)                                        \
    extern __shared__ __align__(16) unsigned char hb_dynamic_local_[]; \
    T *name = reinterpret_cast<T *>(hb_dynamic_local_)
#define HB_LOCAL_VIEW(T2, name, src, off) T2 *name = reinterpret_cast<T2 *>((src) + (off))

/* A work-group's copy of N elements from global into local memory
 * (hb_prelude.cl's HB_GROUP_COPY; HB_GROUP_COPY_WAIT, then the kernel's
 * next barrier, shares it with the group): from sm_80 on, cp.async copies
 * global memory into shared memory with no register in between, so every
 * element of every copy of a group is in flight at once, where a loop's
 * load, store, load... waited on each load in turn (256 CA1 cells: staging
 * took 23% of the cell-group kernel's stall samples;
 * docs/benchmarks/h200-2026-12-01-prof). Older GPUs copy with loads and
 * stores. */
template <typename T>
__device__ static inline void hb_group_copy(T *dst, const T *src, size_t n)
{
    for (size_t i = threadIdx.x; i < n; i += blockDim.x) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
        asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(
                         (unsigned)__cvta_generic_to_shared(dst + i)),
                     "l"(src + i), "n"(sizeof(T)));
#else
        dst[i] = src[i];
#endif
    }
}
#define HB_GROUP_COPY(DST, SRC, N) hb_group_copy((DST), (SRC), (size_t)(N))
#define HB_GROUP_COPY2(D1, S1, D2, S2, N)                                                   \
    do {                                                                                    \
        hb_group_copy((D1), (S1), (size_t)(N));                                             \
        hb_group_copy((D2), (S2), (size_t)(N));                                             \
    } while (0)
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define HB_GROUP_COPY_WAIT() asm volatile("cp.async.wait_all;\n" ::: "memory")
#else
#define HB_GROUP_COPY_WAIT() ((void)0)
#endif

/* Every .cu includes its .cl twice, in namespaces hb_cl_d and hb_cl_s, with
 * HB_SUFFIX set to _d or _s: kernel names get the precision appended. */
#define HB_CAT_(a, b) a##b
#define HB_CAT(a, b) HB_CAT_(a, b)
#define HB_KERNEL(name) HB_CAT(name, HB_SUFFIX)

#endif
