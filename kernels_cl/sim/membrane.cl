/* membrane.cl: the per-stage simulation kernels: membrane mechanisms (hb_mech_passes.cl over the catalogue), current clamps, matrix assembly, voltage update, spikes and recording. */
#ifndef HB_PRELUDE_CL
#include "hb_prelude.cl"
#endif

#ifndef HB_MECH_PASSES_FUNCS
#include "sim/hb_mech_passes.cl"
#endif
#ifndef HB_AXIAL_CL
#include "sim/hb_axial.cl"
#endif

/* Units (see hb_sim_dev in api/sim/hb_sim_ops.h): mV, ms, uS, nA. Same
 * operations, in the same order, as backend_omp/sim/membrane.c. The
 * membrane stage of a step is three passes (hb_mech_passes.cl): the rows'
 * events with g and I cleared, each density mechanism's currents summed into
 * g and I (one launch per mechanism, in catalogue order), then the point
 * processes' currents; after the solve and the voltage update, the states
 * of each density mechanism (one launch per mechanism) and of the point
 * processes move over the step at the new v (NEURON's nrn_state). The
 * times t the launchers pass (hb_mech_passes.cl): the step's middle for the
 * currents, its end for the states, computed on the host in double. */

/* One work-item per instance of mechanism m: INITIAL at its row's v (t = 0:
 * the engine starts there). */
__kernel void HB_KERNEL(hb_sim_mech_init)(const hb_int m, const hb_long nrows,
                                          __global const real *v, HB_MECH_ARGS)
{
    const hb_long i = (hb_long)get_global_id(0);
    if (i >= HB_MT_N(m))
        return;
    const hb_long r = HB_MT_ROW(m, i);
    HB_KERNEL(hb_mech_inst_init)(m, i, r, v[r], (real)0, nrows, HB_MECH_PASS);
}

/* One work-item per instance of density mechanism m: its states over the
 * step just solved, at the new v. */
__kernel void HB_KERNEL(hb_sim_mech_state)(const hb_int m, const hb_long nrows, const real dt,
                                           const real t, __global const real *v, HB_MECH_ARGS)
{
    const hb_long i = (hb_long)get_global_id(0);
    if (i >= HB_MT_N(m))
        return;
    const hb_long r = HB_MT_ROW(m, i);
    HB_KERNEL(hb_mech_inst_state)(m, i, r, v[r], dt, t, nrows, HB_MECH_PASS);
}

/* One work-item per row: its point processes' states over the step just
 * solved, at the new v. */
__kernel void HB_KERNEL(hb_sim_mech_points_advance)(const hb_long nrows, const real dt,
                                                    const real t, __global const real *v,
                                                    HB_MECH_ARGS)
{
    const hb_long r = (hb_long)get_global_id(0);
    if (r < nrows && pptr[r] != pptr[r + 1])
        HB_KERNEL(hb_mech_points_advance)(r, v[r], dt, t, nrows, HB_MECH_PASS);
}

/* One work-item per row: its point processes' events due at step (of dt),
 * its read ion currents, g and I cleared. */
__kernel void HB_KERNEL(hb_sim_mech_rows_pre)(const hb_long nrows, const hb_long step,
                                              const real dt, HB_MECH_ARGS,
                                              __global real *gmem, __global real *imem)
{
    const hb_long r = (hb_long)get_global_id(0);
    if (r >= nrows)
        return;
    HB_KERNEL(hb_mech_points_events)(r, step, dt, HB_MECH_PASS);
    HB_KERNEL(hb_mech_row_zero)(r, nrows, ion, ionk);
    gmem[r] = (real)0;
    imem[r] = (real)0;
}

/* One work-item per instance of density mechanism m: its conductance and
 * current added to its row's (one instance per row: no conflict). */
__kernel void HB_KERNEL(hb_sim_mech_current)(const hb_int m, const hb_long nrows,
                                             const real t, __global const real *v, HB_MECH_ARGS,
                                             __global real *gmem, __global real *imem)
{
    const hb_long i = (hb_long)get_global_id(0);
    if (i >= HB_MT_N(m))
        return;
    const hb_long r = HB_MT_ROW(m, i);
    real g, c;
    HB_KERNEL(hb_mech_inst_current)(m, i, r, v[r], t, nrows, HB_MECH_PASS, &g, &c);
    gmem[r] = gmem[r] + g;
    imem[r] = imem[r] + c;
}

/* One work-item per row: its point processes' conductances and currents. */
__kernel void HB_KERNEL(hb_sim_mech_rows_post)(const hb_long nrows, const real t,
                                               __global const real *v, HB_MECH_ARGS,
                                               __global real *gmem,
                                               __global real *imem)
{
    const hb_long r = (hb_long)get_global_id(0);
    if (r >= nrows || pptr[r] == pptr[r + 1])
        return;
    real g = gmem[r], c = imem[r];
    HB_KERNEL(hb_mech_points_current)(r, v[r], t, nrows, HB_MECH_PASS, &g, &c);
    gmem[r] = g;
    imem[r] = c;
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

/* Implicit Euler with I linearised about v, for dv = v' - v (NEURON's form):
 *   (C/dt + g) dv_k + sum_j g_kj (dv_k - dv_j) = -I(v) + I_stim + sum_j g_kj (v_j - v_k),
 * the axial currents from voltage differences (hb_axial.cl; the reason is
 * at hb__sim_axial_tables). */
#define HB_SIM_V_AT(dk) v[k + (dk)]
__kernel void HB_KERNEL(hb_sim_assemble)(const hb_long nrows, __global const hb_long *pos,
                                         __global const real *v, __global const real *d0,
                                         __global const real *gmem, __global const real *imem,
                                         __global const hb_long *nbptr,
                                         __global const hb_int *nboff,
                                         __global const real *nbg, __global real *d,
                                         __global real *rhs)
{
    const hb_long k = (hb_long)get_global_id(0);
    if (k >= nrows)
        return;
    const hb_long p = pos[k];
    real ax;
    HB_SIM_AXIAL(ax, nbptr, nboff, nbg, k, HB_SIM_V_AT);
    d[p] = d0[k] + gmem[k];
    rhs[p] = ax - imem[k];
}
#undef HB_SIM_V_AT

/* One work-item per row: the solution dv moves the voltage. */
__kernel void HB_KERNEL(hb_sim_update_v)(const hb_long nrows, __global const hb_long *pos,
                                         __global const real *x, __global real *v)
{
    const hb_long k = (hb_long)get_global_id(0);
    if (k < nrows)
        v[k] = v[k] + x[pos[k]];
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
                                     __global real *rec, __global hb_long *slist,
                                     __global real *stime)
{
    const hb_long c = (hb_long)get_global_id(0);
    if (c >= ncells)
        return;
    const real vn = v[soma[c]], vp = vprev[c];
    if (vp < threshold && vn >= threshold) {
        const hb_long cnt = nspk[c];
        const real ts = t0 + dt * ((threshold - vp) / (vn - vp));
        /* A ring of max_spikes per cell: the host drains it often enough. */
        tspk[c * max_spikes + cnt % max_spikes] = ts;
        nspk[c] = cnt + 1;
        HB_KERNEL(hb_spike_push)(slist, stime, c, ts);
    }
    vprev[c] = vn;
    const hb_long r = recslot[c];
    if (r >= 0)
        rec[rec_row * nrec + r] = vn;
}

/* One work-item per probe (hb_sim_dev.probe: kind, element, row, column):
 * its value at the end of the step, after the states, into row rec_row of
 * rec. */
__kernel void HB_KERNEL(hb_sim_probe)(const hb_long nprobe, const hb_long nrows,
                                      __global const hb_long *probe, __global const real *v,
                                      __global const real *mprm, __global const real *mst,
                                      __global const real *ion, __global const real *ionk,
                                      const hb_long rec_row, const hb_long nrec,
                                      __global real *rec)
{
    const hb_long q = (hb_long)get_global_id(0);
    if (q >= nprobe)
        return;
    __global const hb_long *pq = probe + 4 * q;
    rec[rec_row * nrec + pq[3]] =
        HB_KERNEL(hb_probe_value)(pq[0], pq[1], v[pq[2]], nrows, mprm, mst, ion, ionk);
}
