/* hb_mech.cl: the membrane-mechanism interface of the simulation kernels, and the math helpers mechanisms share (x/(exp(x)-1) with its removable singularity). */
#ifndef HB_MECH_CL
#define HB_MECH_CL

#ifndef HB_PRELUDE_CL
#include "hb_prelude.cl"
#endif

/* Helper functions: plain inline in OpenCL; the CUDA build defines HB_FN as
 * __device__ inline. */
#ifndef HB_FN
#define HB_FN inline
#endif

/* A mechanism NAME is a set of device functions over ONE instance (one
 * compartment that carries it), called by every simulation kernel (the
 * per-stage kernels of membrane.cl and the on-chip epoch of epoch.cl), so
 * that a mechanism is written once for every engine (docs/simulate.md,
 * Mechanisms):
 *   hb_mech_NAME_state(v, dt, q10, <state...>)         advances its state by
 *       one step of dt ms at membrane voltage v (mV); the state is the
 *       caller's private copy (registers), passed by pointer;
 *   hb_mech_NAME_current(v, <state...>, <parameters...>, real *g, real *i)
 *       adds its conductance dI/dV at fixed state (uS) to *g and its outward
 *       current (nA) to *i.
 * Parameters are per instance (already scaled by the compartment's area) or
 * per simulation (reversal potentials, q10). The engine owns the storage:
 * state per instance in device arrays, loaded into registers for a whole
 * epoch by the on-chip engine. */

/* x / (exp(x) - 1), with its removable singularity at 0: the series
 * 1 - x/2 + x^2/12 (next term x^4/720, below 1e-19 for |x| < 1e-4) near 0,
 * expm1 (no cancellation) elsewhere, so float and double agree. */
HB_FN real HB_KERNEL(hb_exprelr)(const real x)
{
    if (fabs(x) < (real)1e-4)
        return (real)1 - x * ((real)0.5 - x * ((real)1 / (real)12));
    return x / expm1(x);
}

#endif
