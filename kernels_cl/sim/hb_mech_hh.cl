/* hb_mech_hh.cl: the Hodgkin-Huxley mechanism (squid axon sodium and potassium channels) in the interface of hb_mech.cl. */
#ifndef HB_MECH_HH_CL
#define HB_MECH_HH_CL

#ifndef HB_MECH_CL
#include "sim/hb_mech.cl"
#endif

/* Gate x towards alpha/(alpha+beta) with time constant 1/(q10 (alpha+beta)):
 * Rush-Larsen / exponential Euler, x += (1 - exp(-dt/tau)) (inf - x);
 * -expm1 keeps small steps exact in float. */
HB_FN void HB_KERNEL(hb_mech_hh_gate)(const real alpha, const real beta, const real dt,
                                      const real q10, real *x)
{
    const real sum = alpha + beta;
    const real inf = alpha / sum;
    *x = *x + (-expm1(-dt * q10 * sum)) * (inf - *x);
}

/* State m, h, n. Rates of Hodgkin and Huxley (1952) in the modern sign
 * convention (ms^-1 at 6.3 degC, v in mV), scaled by q10. */
HB_FN void HB_KERNEL(hb_mech_hh_state)(const real v, const real dt, const real q10, real *m,
                                       real *h, real *n)
{
    /* alpha_m = 0.1 (v+40) / (1 - exp(-(v+40)/10)) = exprelr(-(v+40)/10) */
    const real am = HB_KERNEL(hb_exprelr)(-(v + (real)40) / (real)10);
    const real bm = (real)4 * exp(-(v + (real)65) / (real)18);
    const real ah = (real)0.07 * exp(-(v + (real)65) / (real)20);
    const real bh = (real)1 / (exp(-(v + (real)35) / (real)10) + (real)1);
    /* alpha_n = 0.01 (v+55) / (1 - exp(-(v+55)/10)) = 0.1 exprelr(-(v+55)/10) */
    const real an = (real)0.1 * HB_KERNEL(hb_exprelr)(-(v + (real)55) / (real)10);
    const real bn = (real)0.125 * exp(-(v + (real)65) / (real)80);
    HB_KERNEL(hb_mech_hh_gate)(am, bm, dt, q10, m);
    HB_KERNEL(hb_mech_hh_gate)(ah, bh, dt, q10, h);
    HB_KERNEL(hb_mech_hh_gate)(an, bn, dt, q10, n);
}

/* gna m^3 h (v - ena) + gk n^4 (v - ek), maximal conductances in uS. */
HB_FN void HB_KERNEL(hb_mech_hh_current)(const real v, const real m, const real h, const real n,
                                         const real gna, const real gk, const real ena,
                                         const real ek, real *g, real *i)
{
    const real gn = gna * m * m * m * h;
    const real n2 = n * n;
    const real gp = gk * n2 * n2;
    *g = *g + gn + gp;
    *i = *i + gn * (v - ena) + gp * (v - ek);
}

#endif
