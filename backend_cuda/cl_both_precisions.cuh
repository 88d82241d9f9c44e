/* cl_both_precisions.cuh: compiles the OpenCL kernel file named by HB_CL_FILE twice, as namespaces hb_cl_d (double) and hb_cl_s (float). */
/* No include guard: each .cu includes it once, after defining HB_CL_FILE. */
#ifndef HB_CL_FILE
#error "define HB_CL_FILE (the kernels_cl file) before including cl_both_precisions.cuh"
#endif

namespace hb_cl_d {
#define HB_DOUBLE 1
#define HB_SUFFIX _d
#include HB_CL_FILE
#undef HB_SUFFIX
#undef HB_DOUBLE
#undef HB_PRELUDE_CL
#include "cl_function_guards.cuh"
} // namespace hb_cl_d

namespace hb_cl_s {
#define HB_SUFFIX _s
#include HB_CL_FILE
#undef HB_SUFFIX
#undef HB_PRELUDE_CL
#include "cl_function_guards.cuh"
} // namespace hb_cl_s

#undef HB_CL_FILE
