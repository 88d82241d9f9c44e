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
#endif

#endif
