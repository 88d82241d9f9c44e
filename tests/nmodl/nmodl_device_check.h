/* nmodl_device_check.h: inputs and checks shared by the device tests of generated mechanisms (OpenCL, CUDA): what the test kernels get and what the host says they must give. */
#ifndef NMODL_DEVICE_CHECK_H
#define NMODL_DEVICE_CHECK_H

#include <stddef.h>

#include "hb_mech_table.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Device against host in the same precision: only the two libm's exp,
 * expm1, log and pow differ (OpenCL allows 3-4 ulp), relative to
 * max(|host|, floor) with the floors of test_nmodl_generated.c (states
 * 1e-2, currents |g| * 1 mV). */
#define HB_NMODL_DEV_REL_DOUBLE 1e-12 /* seen on PoCL 3.1: 1e-14 */
#define HB_NMODL_DEV_REL_FLOAT 2e-5   /* seen on PoCL 3.1: 1.5e-6 */
#define HB_NMODL_DEV_NPTS 2048

/* A random value for an ion input, by its name: reversal potentials e<ion>
 * in [-100, 140] mV, concentrations <ion>i log-uniform in [1e-5, 200] mM and
 * <ion>o in [0.1, 200] mM, currents i<ion> in [-0.01, 0.01] mA/cm2. */
double hb_nmodl_ion_input(const char *name);

/* Array lengths (elements) of the test kernels' arguments for m. */
typedef struct {
    size_t in, prm, st, out;
    int nin, ns, no;
} hb_nmodl_dev_sizes;
hb_nmodl_dev_sizes hb_nmodl_dev_sizes_of(const hb_mech_entry *m, int npts);

/* The host table of precision dbl (1: double) and m's entry in it. */
const hb_mech_entry *hb_nmodl_host_entry(int dbl, const char *name);

/* Fills in (v over -100..60 mV, HH's 0/0 voltages first; dt; celsius; ion
 * inputs; t in [0, 1000] ms), prm (defaults) and st0 (random states; kept values from init),
 * in the precision dbl; poisons st_init, out and st_step with NaN. */
void hb_nmodl_dev_inputs(int dbl, const hb_mech_entry *m, int npts, void *in, void *prm, void *st0,
                         void *st_init, void *out, void *st_step);

/* Checks the device's st_init, out and st_step against the host functions
 * of the same precision; returns the largest relative difference seen. */
double hb_nmodl_dev_compare(int dbl, const hb_mech_entry *m, int npts, const void *in,
                            const void *st0, const void *st_init, const void *out,
                            const void *st_step);

#ifdef __cplusplus
}
#endif

#endif
