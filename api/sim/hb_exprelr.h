/* hb_exprelr.h: x/(exp(x)-1) with its removable singularity handled, for the engine and the host kernels alike. */
#ifndef HB_EXPRELR_H
#define HB_EXPRELR_H

#include <math.h>

/* Near 0 the quotient loses every digit in float; the series
 * 1 - x/2 + x^2/12 is exact to rounding for |x| < 1e-4 in both precisions,
 * as in kernels_cl/sim/membrane.cl. */
static inline double hb__exprelr_d(double x)
{
    if (fabs(x) < 1e-4)
        return 1.0 - x * (0.5 - x * (1.0 / 12.0));
    return x / expm1(x);
}

static inline float hb__exprelr_s(float x)
{
    if (fabsf(x) < 1e-4f)
        return 1.0f - x * (0.5f - x * (1.0f / 12.0f));
    return x / expm1f(x);
}

#endif /* HB_EXPRELR_H */
