/* cl_host.h: the simulation's kernel functions (kernels_cl/sim/hb_mech_passes.cl and the catalogue) and the host's mechanism passes over them (mech_passes_host.h) compiled as C11 for the host backends, once per precision (names _d and _s). */
#ifndef HB_CL_HOST_H
#define HB_CL_HOST_H

#include "hb_sim_ops.h"
#include "host_backend.h"

#include <stdint.h>
#include <tgmath.h> /* exp of a float is expf, as in OpenCL C and CUDA */

/* What the kernel text needs beyond C11 (kernels_cl/hb_prelude.cl has the
 * OpenCL versions): 64- and 32-bit integers, no address spaces. */
typedef int64_t hb_long;
typedef int32_t hb_int;
#define __global
#define HB_FN static inline
#define atomic_inc(p) __atomic_fetch_add((int *)(p), 1, __ATOMIC_RELAXED)
#define HB_CL_HOST_CAT_(a, b) a##b
#define HB_CL_HOST_CAT(a, b) HB_CL_HOST_CAT_(a, b)

/* Double: hb_mech_inst_state_d, hb_cat_hh_state_d, ... */
#define real double
#define HB_DOUBLE 1
#define HB_KERNEL(name) HB_CL_HOST_CAT(name, _d)
#include "sim/hb_mech_passes.cl"
#define HB_HOST_PAR 1
#include "mech_passes_host.h"
#undef HB_HOST_PAR
#define HB_HOST_PAR 0
#include "mech_passes_host.h"
#undef HB_HOST_PAR
#undef HB_KERNEL
#undef HB_DOUBLE
#undef real
#undef HB_CATALOGUE_FUNCS
#undef HB_MECH_PASSES_FUNCS

/* Float: the same text, names ending _s. */
#define real float
#define HB_KERNEL(name) HB_CL_HOST_CAT(name, _s)
#include "sim/hb_mech_passes.cl"
#define HB_HOST_PAR 1
#include "mech_passes_host.h"
#undef HB_HOST_PAR
#define HB_HOST_PAR 0
#include "mech_passes_host.h"
#undef HB_HOST_PAR
#undef HB_KERNEL
#undef real

#undef __global
#endif
