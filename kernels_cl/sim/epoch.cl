/* epoch.cl: the on-chip simulation engine: one work-group per cell runs many time steps (membrane mechanisms, clamps, assembly, the cell-group Hines solve, voltage update, spikes and recording) with the cell in local memory and registers. */
#ifndef HB_PRELUDE_CL
#include "hb_prelude.cl"
#endif

#ifndef HB_MECH_ROWS_FUNCS
#include "sim/hb_mech_rows.cl"
#endif
#ifndef HB_CELL_PHASES_CL
#include "solver/hb_cell_phases.cl"
#endif

/* Group g of a launch of ngroups runs the cell in slot t = cslots[first + g]
 * of the solver plan (cell c = cellof[t], its matrix rows base[t] ..
 * base[t] + rows[t] in u and l, its state rows rowoff[c] .. in the
 * simulation's arrays) for steps step0 .. step0 + nsteps - 1, doing per step
 * what the per-stage kernels of membrane.cl and the plan's solve do, in the
 * same order per row:
 *   membrane: hb_mech_row (hb_mech_rows.cl): the row's mechanism states
 *     advanced with the last step's v (not at step 0), its events due, then
 *     the mechanisms' conductance g and current I;
 *   clamps: a clamped row's (crowof: its index in the clamp tables, -1
 *     none) on at this step, summed in their fixed order by the row's own
 *     work-item, subtracted from I (no barrier);
 *   assembly: d = d0 + g, rhs = (C/dt + g) v - I, in local memory;
 *   solve: HB_CELL_SOLVE (hb_cell_phases.cl), x in local memory;
 *   update: v = x; the soma's work-item detects an upward threshold crossing
 *     (time interpolated in the step) and records the soma voltage into row
 *     rec_row0 + s of rec for recorded cells.
 * Work-item j owns rows j, j + P, ...: v lives in the rhs/x array of local
 * memory for the whole launch (the solution of one step is the voltage the
 * next one reads, and only the row's owner writes its rhs); u, l and, where
 * it fits (staged), the schedule are staged in local memory once (else the
 * schedule is read from global memory: one copy serves every copy of a
 * cell). Mechanism state and per-row constants (C/dt, d0) are read from
 * global memory each step (cached: a cell's are small and only its group
 * touches them). Only v, mechanism state, the soma's last voltage, spike
 * counts and times, and recorded samples are written back. Local memory as
 * hines_cell.cl's: HB_CELL_LAUNCH_BYTES(ld, esize, staged). */
__kernel void HB_KERNEL(hb_sim_epoch)(
    const hb_long ngroups, const hb_long first, const hb_long ld, const hb_long step0,
    const hb_long nsteps, __global const hb_long *cslots, __global const hb_long *base,
    __global const hb_long *rows, __global const hb_long *soff, __global const hb_int *sched,
    __global const hb_long *cellof, __global const hb_long *rowoff, __global const real *u,
    __global const real *l, const hb_long nrows_all, const real dt, const real threshold,
    __global real *v, HB_MECH_ARGS, __global const real *cdt, __global const real *d0,
    __global const hb_long *crowof, __global const hb_long *cptr,
    __global const hb_long *con, __global const hb_long *coff, __global const real *camp,
    const hb_long max_spikes, __global const hb_long *soma, __global real *vprev,
    __global hb_long *nspk, __global real *tspk, const hb_long nrec, const hb_long rec_row0,
    __global const hb_long *recslot, __global real *rec,
    const hb_int staged HB_DYNAMIC_LOCAL_ARG(real, sh))
{
    HB_DYNAMIC_LOCAL(real, sh);
    HB_CELL_GROUP();
    const hb_long c = valid ? cellof[t] : 0, ro = valid ? rowoff[c] : 0;
    HB_CELL_STAGE(u, l);
    for (hb_int k = j; k < nr; k += P)
        sh[oR + k] = v[ro + k];
    /* The soma's work-item keeps the cell's spike bookkeeping. */
    const hb_int ks = valid ? (hb_int)(soma[c] - ro) : -1;
    const int is_soma = valid && ks % P == j;
    real vp = is_soma ? vprev[c] : (real)0;
    hb_long cnt = is_soma ? nspk[c] : 0;
    const hb_long rslot = is_soma ? recslot[c] : -1;
    barrier(CLK_LOCAL_MEM_FENCE);

    for (hb_long s = 0; s < nsteps; ++s) {
        const hb_long step = step0 + s;
        for (hb_int k = j; k < nr; k += P) {
            const hb_long kk = ro + k;
            const real vk = sh[oR + k];
            real gk_, ik;
            HB_KERNEL(hb_mech_row)(kk, nrows_all, vk, dt, step > 0, step, HB_MECH_PASS, &gk_,
                                   &ik);
            /* The row's clamps on at this step, in their fixed order. */
            const hb_long q = crowof[kk];
            if (q >= 0) {
                real sum = (real)0;
                for (hb_long a = cptr[q]; a < cptr[q + 1]; ++a)
                    if (step >= con[a] && step < coff[a])
                        sum = sum + camp[a];
                ik = ik - sum;
            }
            sh[oD + k] = d0[kk] + gk_;
            sh[oR + k] = (cdt[kk] + gk_) * vk - ik;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        HB_CELL_SOLVE_STAGED(0);
        if (is_soma) {
            const real vn = sh[oR + ks];
            if (vp < threshold && vn >= threshold) {
                if (cnt < max_spikes)
                    tspk[c * max_spikes + cnt] =
                        (real)step * dt + dt * ((threshold - vp) / (vn - vp));
                cnt = cnt + 1;
            }
            vp = vn;
            if (rslot >= 0)
                rec[(rec_row0 + s) * nrec + rslot] = vn;
        }
        /* The next step's writes to d and rhs touch only this work-item's
         * own rows, which no one reads after the solve's last barrier. */
    }

    for (hb_int k = j; k < nr; k += P)
        v[ro + k] = sh[oR + k];
    if (is_soma) {
        vprev[c] = vp;
        nspk[c] = cnt;
    }
}
