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
/* The mechanism tables every simulation kernel takes (HB_MECH_ARGS of
 * kernels_cl/sim/hb_mech_rows.cl), in its order; cel: real_of(celsius). */
#define HB_CL_MECH_ARGS(p, m, cel)                                                         \
    MEM((m)->mtab), MEM((m)->inode), MEM((m)->mcell), MEM((m)->pptr), MEM((m)->pmech),     \
        MEM((m)->pidx), MEM((m)->mprm), MEM((m)->mst), MEM((m)->ion), MEM((m)->ionk),      \
        MEM((m)->scale), MEM((m)->evptr), MEM((m)->evcur), MEM((m)->evstep),               \
        MEM((m)->evw), MEM((m)->evt), MEM((m)->selfq), REAL(p, cel)
/* Flags of the host's mechanism table (hb_sim_dev.mtab_host). */
#define HB_SIM_MT_N(sim, m) ((sim)->mtab_host[5 * (m)])
#define HB_SIM_MT_FLAGS(sim, m) ((sim)->mtab_host[5 * (m) + 4])
#define NARGS(a) ((int)(sizeof(a) / sizeof *(a)))

#endif
