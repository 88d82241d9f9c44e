/* membrane.cl: simulation kernels: HH and leak currents, current clamps, matrix assembly, voltage update, spikes and recording. */
#ifndef HB_PRELUDE_CL
#include "hb_prelude.cl"
#endif

/* Helper functions: plain inline in OpenCL; the CUDA build defines HB_FN as
 * __device__ inline. */
#ifndef HB_FN
#define HB_FN inline
#endif

/* Units (see hb_sim_dev in api/sim/hb_sim_ops.h): mV, ms, uS, nA. Same
 * operations, in the same order, as backend_omp/sim/membrane.c. */

/* x / (exp(x) - 1), with its removable singularity at 0: the series
 * 1 - x/2 + x^2/12 (next term x^4/720, below 1e-19 for |x| < 1e-4) near 0,
 * expm1 (no cancellation) elsewhere, so float and double agree. */
HB_FN real HB_KERNEL(hb_exprelr)(const real x)
{
    if (fabs(x) < (real)1e-4)
        return (real)1 - x * ((real)0.5 - x * ((real)1 / (real)12));
    return x / expm1(x);
}

/* Hodgkin-Huxley rates (hh.mod of NEURON, ms^-1 at 6.3 degC), scaled by
 * q10: steady state and exp(-dt/tau) factor for m, h and n. */
HB_FN void HB_KERNEL(hb_hh_gate)(const real alpha, const real beta, const real dt,
                                 const real q10, real *x)
{
    const real sum = alpha + beta;
    const real inf = alpha / sum;
    /* Rush-Larsen / exponential Euler: x += (1 - exp(-dt/tau)) (inf - x),
     * with 1/tau = q10*sum; -expm1 keeps small steps exact in float. */
    *x = *x + (-expm1(-dt * q10 * sum)) * (inf - *x);
}

HB_FN void HB_KERNEL(hb_hh_advance)(const real v, const real dt, const real q10, real *m,
                                    real *h, real *n)
{
    /* alpha_m = 0.1 * vtrap(-(v+40), 10) = exprelr(-(v+40)/10) */
    const real am = HB_KERNEL(hb_exprelr)(-(v + (real)40) / (real)10);
    const real bm = (real)4 * exp(-(v + (real)65) / (real)18);
    const real ah = (real)0.07 * exp(-(v + (real)65) / (real)20);
    const real bh = (real)1 / (exp(-(v + (real)35) / (real)10) + (real)1);
    /* alpha_n = 0.01 * vtrap(-(v+55), 10) = 0.1 * exprelr(-(v+55)/10) */
    const real an = (real)0.1 * HB_KERNEL(hb_exprelr)(-(v + (real)55) / (real)10);
    const real bn = (real)0.125 * exp(-(v + (real)65) / (real)80);
    HB_KERNEL(hb_hh_gate)(am, bm, dt, q10, m);
    HB_KERNEL(hb_hh_gate)(ah, bh, dt, q10, h);
    HB_KERNEL(hb_hh_gate)(an, bn, dt, q10, n);
}

/* One work-item per row: gates (when advance), then the membrane current
 * I = gl (v - el) + gna m^3 h (v - ena) + gk n^4 (v - ek) and its slope
 * dI/dV at fixed gates. Rows with gna = gk = 0 have no HH channels. */
__kernel void HB_KERNEL(hb_sim_membrane)(const hb_long nrows, const hb_int advance,
                                         const real dt, const real q10, const real ena,
                                         const real ek, const real el, __global const real *v,
                                         __global real *m, __global real *h, __global real *n,
                                         __global const real *gna, __global const real *gk,
                                         __global const real *gl, __global real *gmem,
                                         __global real *imem)
{
    const hb_long k = (hb_long)get_global_id(0);
    if (k >= nrows)
        return;
    const real vk = v[k];
    real g = gl[k];
    real i = g * (vk - el);
    const real gnak = gna[k], gkk = gk[k];
    if (gnak != (real)0 || gkk != (real)0) {
        real mk = m[k], hk = h[k], nk = n[k];
        if (advance) {
            HB_KERNEL(hb_hh_advance)(vk, dt, q10, &mk, &hk, &nk);
            m[k] = mk;
            h[k] = hk;
            n[k] = nk;
        }
        const real gn = gnak * mk * mk * mk * hk;
        const real n2 = nk * nk;
        const real gp = gkk * n2 * n2;
        g = g + gn + gp;
        i = i + gn * (vk - ena) + gp * (vk - ek);
    }
    gmem[k] = g;
    imem[k] = i;
}

/* One work-item per clamped row: the clamps that are on at this step (on
 * for con <= step < coff), summed in a fixed order, enter as inward current. */
__kernel void HB_KERNEL(hb_sim_clamp)(const hb_long nclamp_rows, const hb_long step,
                                      __global const hb_long *crow,
                                      __global const hb_long *cptr,
                                      __global const hb_long *con,
                                      __global const hb_long *coff,
                                      __global const real *camp, __global real *imem)
{
    const hb_long j = (hb_long)get_global_id(0);
    if (j >= nclamp_rows)
        return;
    real s = (real)0;
    for (hb_long c = cptr[j]; c < cptr[j + 1]; ++c)
        if (step >= con[c] && step < coff[c])
            s = s + camp[c];
    imem[crow[j]] = imem[crow[j]] - s;
}

/* Implicit Euler for v itself, with I linearised about v:
 *   (C/dt + g) v' + sum_j g_kj (v' - v_j') = C/dt v + g v - I(v) + I_stim. */
__kernel void HB_KERNEL(hb_sim_assemble)(const hb_long nrows, __global const hb_long *pos,
                                         __global const real *v, __global const real *cdt,
                                         __global const real *d0, __global const real *gmem,
                                         __global const real *imem, __global real *d,
                                         __global real *rhs)
{
    const hb_long k = (hb_long)get_global_id(0);
    if (k >= nrows)
        return;
    const hb_long p = pos[k];
    const real g = gmem[k];
    d[p] = d0[k] + g;
    rhs[p] = (cdt[k] + g) * v[k] - imem[k];
}

/* One work-item per row: the solution becomes the new voltage. */
__kernel void HB_KERNEL(hb_sim_update_v)(const hb_long nrows, __global const hb_long *pos,
                                         __global const real *x, __global real *v)
{
    const hb_long k = (hb_long)get_global_id(0);
    if (k < nrows)
        v[k] = x[pos[k]];
}

/* One work-item per cell: an upward crossing of threshold by the soma
 * voltage is a spike, timed by linear interpolation within the step that
 * started at t0; recorded cells write their soma voltage to row rec_row. */
__kernel void HB_KERNEL(hb_sim_soma)(const hb_long ncells, const hb_long max_spikes,
                                     const real threshold, const real t0, const real dt,
                                     const hb_long rec_row, const hb_long nrec,
                                     __global const hb_long *soma, __global real *vprev,
                                     __global hb_long *nspk, __global real *tspk,
                                     __global const hb_long *recslot, __global const real *v,
                                     __global real *rec)
{
    const hb_long c = (hb_long)get_global_id(0);
    if (c >= ncells)
        return;
    const real vn = v[soma[c]], vp = vprev[c];
    if (vp < threshold && vn >= threshold) {
        const hb_long cnt = nspk[c];
        if (cnt < max_spikes)
            tspk[c * max_spikes + cnt] = t0 + dt * ((threshold - vp) / (vn - vp));
        nspk[c] = cnt + 1;
    }
    vprev[c] = vn;
    const hb_long r = recslot[c];
    if (r >= 0)
        rec[rec_row * nrec + r] = vn;
}
