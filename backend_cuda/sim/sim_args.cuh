/* sim_args.cuh: kernel-argument helpers of the CUDA simulation launchers (membrane.cu, epoch.cu). */
#ifndef HB_CUDA_SIM_ARGS_CUH
#define HB_CUDA_SIM_ARGS_CUH

#include "cuda_backend.h"
#include "hb_sim_ops.h"

/* The mechanism tables every simulation kernel takes (HB_MECH_ARGS of
 * kernels_cl/sim/hb_mech_rows.cl), in its order. */
#define HB_CUDA_MECH_ARGS(m)                                                              \
    hb__dev((m)->mtab), hb__dev((m)->inode), hb__dev((m)->mcell), hb__dev((m)->pptr),     \
        hb__dev((m)->pmech), hb__dev((m)->pidx), hb__dev((m)->mprm), hb__dev((m)->mst),   \
        hb__dev((m)->ion), hb__dev((m)->ionk), hb__dev((m)->scale), hb__dev((m)->evptr),  \
        hb__dev((m)->evcur), hb__dev((m)->evstep), hb__dev((m)->evw), hb__dev((m)->evt),  \
        hb__dev((m)->selfq), hb__real((m)->celsius)

#endif
