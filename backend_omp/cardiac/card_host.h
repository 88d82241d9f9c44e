/* card_host.h: the cardiac catalogue's kernel text (kernels_cl/cardiac/catalogue/hb_card_catalogue.cl) compiled as C11 for the host backends, once per precision (names _d and _s). */
#ifndef HB_CARD_HOST_H
#define HB_CARD_HOST_H

#include <stdint.h>
#include <tgmath.h> /* exp of a float is expf, as in OpenCL C and CUDA */

/* What the kernel text needs beyond C11 (kernels_cl/hb_prelude.cl has the
 * OpenCL versions): 64- and 32-bit integers, no address spaces. */
typedef int64_t hb_long;
typedef int32_t hb_int;
#define __global
#define HB_FN static inline
#define HB_CARD_HOST_CAT_(a, b) a##b
#define HB_CARD_HOST_CAT(a, b) HB_CARD_HOST_CAT_(a, b)

#define real double
#define HB_DOUBLE 1
#define HB_KERNEL(name) HB_CARD_HOST_CAT(name, _d)
#include "cardiac/catalogue/hb_card_catalogue.cl"
#undef HB_CARD_CATALOGUE_CL
#undef HB_KERNEL
#undef HB_DOUBLE
#undef real

#define real float
#define HB_KERNEL(name) HB_CARD_HOST_CAT(name, _s)
#include "cardiac/catalogue/hb_card_catalogue.cl"
#undef HB_KERNEL
#undef real

#undef __global
#endif
