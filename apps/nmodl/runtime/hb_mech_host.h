/* hb_mech_host.h: what generated mechanism text needs to compile as C11 on the host: `real`, HB_FN, HB_KERNEL (with _d/_s as under CUDA). */
#ifndef HB_MECH_HOST_H
#define HB_MECH_HOST_H

/* Define HB_DOUBLE to 1 before including for double; float otherwise. A
 * program wanting both compiles the mechanisms in two translation units;
 * the names carry _d or _s, as the CUDA build's do. */
#include <tgmath.h> /* exp of a float is expf, as in OpenCL C */

#ifdef HB_DOUBLE
typedef double real;
#define HB_SUFFIX _d
#else
typedef float real;
#define HB_SUFFIX _s
#endif

#define HB_FN static inline
#define HB_MECH_CAT_(a, b) a##b
#define HB_MECH_CAT(a, b) HB_MECH_CAT_(a, b)
#define HB_KERNEL(name) HB_MECH_CAT(name, HB_SUFFIX)

#endif
