/* hb_prelude.cl: types and names shared by every kernel file, in OpenCL C 1.2 and, through backend_cuda/cl_compat.cuh, in CUDA. */
#ifndef HB_PRELUDE_CL
#define HB_PRELUDE_CL

/* The host prepends "#define HB_DOUBLE 1" for double programs. */
#ifdef HB_DOUBLE
#ifndef __CUDACC__
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
typedef double real;
#else
typedef float real;
#endif

#ifndef __CUDACC__
/* No contraction into fma: with correctly rounded division the kernels then
 * round exactly as the host oracle does (backend_omp/ is built without fma). */
#pragma OPENCL FP_CONTRACT OFF
typedef long hb_long; /* 64-bit in OpenCL C: batch offsets overflow 32 bits */
typedef int hb_int;
/* OpenCL programs are built per precision, so names need no suffix; the CUDA
 * build compiles every file twice and appends _d or _s. */
#define HB_KERNEL(name) name
/* Dynamic local memory: a __local argument whose size the host sets (under
 * CUDA, cl_compat.cuh makes it the block's dynamic shared memory). Write
 * HB_DYNAMIC_LOCAL_ARG(type, name) last in the parameter list and
 * HB_DYNAMIC_LOCAL(type, name); first in the body. */
#define HB_DYNAMIC_LOCAL_ARG(T, name) , __local T *name
#define HB_DYNAMIC_LOCAL(T, name)
/* A view of type T2 of the dynamic local array from element off on (a
 * schedule of ints beside reals): one spelling for OpenCL and CUDA. */
#define HB_LOCAL_VIEW(T2, name, src, off) __local T2 *name = (__local T2 *)((src) + (off))
/* A work-group's copy of N elements from global memory (SRC) into local
 * memory (DST), every work-item taking every local-size-th element;
 * HB_GROUP_COPY2 copies two arrays of N at once (two loads in flight per
 * step); HB_GROUP_COPY_WAIT, then a barrier, before the group reads them.
 * Under CUDA (cl_compat.cuh) they are cp.async copies. A loop, not
 * async_work_group_copy: on NVIDIA's OpenCL (H200, driver 580) the
 * cell-group kernel staged with that was slower, 256 CA1 cells in double
 * 0.052-0.059 ms against 0.039-0.047, 25,600 0.97 against 0.77
 * (docs/benchmarks/h200-2026-12-01-prof, call 2). */
#define HB_GROUP_COPY(DST, SRC, N)                                                          \
    do {                                                                                    \
        for (hb_int hb_gc = (hb_int)get_local_id(0); hb_gc < (hb_int)(N);                   \
             hb_gc += (hb_int)get_local_size(0))                                            \
            (DST)[hb_gc] = (SRC)[hb_gc];                                                    \
    } while (0)
#define HB_GROUP_COPY2(D1, S1, D2, S2, N)                                                   \
    do {                                                                                    \
        for (hb_int hb_gc = (hb_int)get_local_id(0); hb_gc < (hb_int)(N);                   \
             hb_gc += (hb_int)get_local_size(0)) {                                          \
            (D1)[hb_gc] = (S1)[hb_gc];                                                      \
            (D2)[hb_gc] = (S2)[hb_gc];                                                      \
        }                                                                                   \
    } while (0)
#define HB_GROUP_COPY_WAIT() ((void)0)
#endif

#endif
