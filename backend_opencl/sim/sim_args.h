/* sim_args.h: kernel-argument helpers of the simulation launchers (membrane.c, epoch.c): buffers that may be absent and real scalars in the kernel's precision. */
#ifndef HB_CL_SIM_ARGS_H
#define HB_CL_SIM_ARGS_H

#include "cl_backend.h"

/* A buffer argument that may be absent (no clamps, no recorded cells): a
 * NULL cl_mem, which the kernel then never touches. */
static const cl_mem hb__cl_no_mem = NULL;
#define MEM(buf)                                                                           \
    ((hb_cl_arg){sizeof(cl_mem), (buf) ? (const void *)&(buf)->mem : (const void *)&hb__cl_no_mem})

/* A real scalar in the kernel's precision. */
typedef struct {
    cl_double d;
    cl_float s;
} real_arg;
static inline real_arg real_of(double v) { return (real_arg){v, (cl_float)v}; }
#define REAL(p, r) ((p) == HB_DOUBLE ? (hb_cl_arg){sizeof(cl_double), &(r).d} \
                                     : (hb_cl_arg){sizeof(cl_float), &(r).s})
#define NARGS(a) ((int)(sizeof(a) / sizeof *(a)))

#endif
