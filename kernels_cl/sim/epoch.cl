/* epoch.cl: the on-chip simulation engine: one work-group per cell runs many time steps (membrane mechanisms, clamps, assembly, the cell-group Hines solve, voltage update, spikes and recording) with the cell in local memory and registers. */
#ifndef HB_PRELUDE_CL
#include "hb_prelude.cl"
#endif

#ifndef HB_MECH_PASSES_FUNCS
#include "sim/hb_mech_passes.cl"
#endif
#ifndef HB_COOP_PHASES_CL
#include "solver/hb_coop_phases.cl"
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
 *   membrane, clamps and assembly, one pass by each row's work-item: the
 *     row's events, then each density mechanism's conductance and current
 *     (in the catalogue's order, found through dmap) summed into g and I in
 *     registers, then its point processes', then its clamps on at this step
 *     (crowof: its index in the clamp tables, -1 none) in their fixed order
 *     subtracted from I; then the step for dv (membrane.cl's
 *     hb_sim_assemble): d = d0 + g, rhs = -I, in local memory (the same
 *     arithmetic in the same order per row as membrane.cl's passes);
 *   solve: HB_CELL_SOLVE (hb_cell_phases.cl), which adds the axial
 *     currents (from v in local memory) to rhs as it eliminates each edge,
 *     dv in local memory (no table load: gathering hb_axial.cl's table
 *     from global memory in the assembly ran the main job 1.5% slower on
 *     the H100);
 *   update: v = v + dv, by the row's work-item at the start of the next
 *     step's row pass (or at the epoch's end); right after the solve the
 *     soma's work-item detects an upward threshold crossing of its v + dv
 *     (time interpolated in the step) and records it into row rec_row0 + s
 *     of rec for recorded cells;
 *   probes: the cell's probes (prbcell[2c] .. prbcell[2c + 2] of probe) once
 *     the step's states have moved (at the next step's start, and after the
 *     epoch's last states pass);
 *   states: each mechanism's over the step at the new v, row by row (in
 *     the next step's row pass, each mechanism's with its current, where
 *     HB_EPOCH_CAN_FUSE and no probe needs them apart; else in a pass of
 *     their own before it, which also keeps again the probed currents that
 *     a SOLVE assigns again, HB_CAT_KEEPAFTER; and after the epoch's last
 *     step).
 * Work-item j owns rows j, j + P, ...: v lives in a local array of its own
 * for the whole launch (only the row's owner writes it, behind a barrier
 * before anyone reads it); u (one array serves as l: the simulation's
 * matrix is symmetric) and the schedule are staged in local memory once, or
 * u alone, or neither (stage); what is not is read from global memory, one
 * copy serving every copy of a cell (ucopy, the schedule's soff), and the
 * cell takes less local memory, so more cells share a compute unit.
 * Mechanism state and per-row constants (d0, scale) are read from global
 * memory each step (cached: a cell's are small and only its group touches
 * them). Only v, mechanism state, the soma's last voltage, spike
 * counts and times, and recorded samples are written back. Local memory:
 * HB_EPOCH_LAUNCH_BYTES(ld, esize, stage, pcr) (d, rhs, v, the trunk's
 * rows where pcr, and u and the schedule as staged). */
/* Row k's instance of a density mechanism with n instances in the cell from
 * a, on rows lo .. hi - 1 of it and no others (-1: none): a + k - lo where
 * they are every row of that span (every row of the cell, or a region in
 * one piece), with no table load; else from its dmap column at the cell's
 * first row (hb_sim_dev.dmap). */
HB_FN hb_long HB_KERNEL(hb_epoch_inst)(const hb_int n, const hb_int lo, const hb_int hi,
                                       const hb_long a, __global const hb_int *col,
                                       const hb_int k)
{
    if (k < lo || k >= hi)
        return -1;
    if (n == hi - lo)
        return a + (k - lo);
    const hb_int q = col[k];
    return q < 0 ? (hb_long)-1 : a + q;
}
#define HB_EPOCH_INST(ID, k)                                                                \
    HB_KERNEL(hb_epoch_inst)(mn[ID], mlo[ID], mhi[ID], ma[ID], dmap + mcol[ID], k)

/* The passes go row by row: row k's work-item runs each of its density
 * mechanisms in the catalogue's order (HB_CAT_MECHS: the id and flags are
 * constants, so each call is the mechanism's own function with no dispatch
 * and those without a SOLVE vanish from the states pass), then its point
 * processes. A density mechanism touches only its row (its ion slots
 * included), so this is the per-mechanism passes' arithmetic in the same
 * order per row, with one barrier per pass instead of one per mechanism. */
#define HB_EPOCH_STATE_ONE(ID, NAME, FLAGS)                                                 \
    if (((FLAGS) & HB_CAT_STATE) && !((FLAGS) & HB_CAT_POINT)) {                            \
        const hb_long i_ = HB_EPOCH_INST(ID, k);                                            \
        if (i_ >= 0) {                                                                      \
            HB_KERNEL(hb_cat_##NAME##_state_tc)(i_, HB_MT_N(ID), HB_MT_PRM(ID), HB_MT_ST(ID), \
                                                vk, dt, celsius, ts_, ion, ionk, nrows_all, \
                                                ro + k, tc_##NAME);                         \
            if (((FLAGS) & HB_CAT_KEEPAFTER) && (mfl[ID] & HB_MT_KEEPI))                    \
                HB_KERNEL(hb_cat_##NAME##_keep)(i_, HB_MT_N(ID), HB_MT_PRM(ID), HB_MT_ST(ID), \
                                                (mfl[ID] & HB_MT_UNIFORM) ? 0 : i_, vk,     \
                                                celsius, ts_ - (real)0.5 * dt, ion, ionk,   \
                                                nrows_all, ro + k);                         \
        }                                                                                   \
    }
/* Every density mechanism through hb_cat_NAME_state_current: with SC set, a
 * mechanism with a SOLVE moves its states first in the same call (its
 * state and parameters loaded once); the parameters are instance 0's where
 * every instance has the same (HB_MT_UNIFORM: one address per warp), else
 * the row's instance's; with keep, its currents kept where a probe records
 * one (HB_MT_KEEPI). */
#define HB_EPOCH_CURRENT_ONE(ID, NAME, FLAGS)                                               \
    if (!((FLAGS) & HB_CAT_POINT)) {                                                        \
        const hb_long i_ = HB_EPOCH_INST(ID, k);                                            \
        if (i_ >= 0) {                                                                      \
            real g_ = (real)0, c_ = (real)0;                                                \
            HB_KERNEL(hb_cat_##NAME##_state_current)(                                       \
                i_, HB_MT_N(ID), HB_MT_PRM(ID), HB_MT_ST(ID),                               \
                (mfl[ID] & HB_MT_UNIFORM) ? 0 : i_, ((FLAGS) & HB_CAT_STATE) && sc, vk, dt, \
                celsius, ts_, tm_, ion, ionk, nrows_all, kk, scl, &g_, &c_, tc_##NAME);     \
            if (keep && (mfl[ID] & HB_MT_KEEPI))                                            \
                HB_KERNEL(hb_cat_##NAME##_keep)(i_, HB_MT_N(ID), HB_MT_PRM(ID), HB_MT_ST(ID), \
                                                (mfl[ID] & HB_MT_UNIFORM) ? 0 : i_, vk,     \
                                                celsius, tm_, ion, ionk, nrows_all, kk);    \
            gk_ = gk_ + g_ * scl;                                                           \
            ik = ik + c_ * scl;                                                             \
        }                                                                                   \
    }

/* Each mechanism's factors of celsius alone (its Q10s: a pow in double is
 * hundreds of instructions), computed once per launch into tc_NAME. */
#define HB_EPOCH_TCONST(ID, NAME, FLAGS)                                                    \
    real tc_##NAME[HB_CAT_NTC_##NAME + 1];                                                  \
    HB_KERNEL(hb_cat_##NAME##_tconst)(celsius, tc_##NAME);

/* Whether a row's states may move inside its current pass (mechanism by
 * mechanism, each one's state then its current): when no mechanism writes a
 * concentration (which a mechanism before it in the catalogue could read in
 * its current) and none reads an ion current (which the states must see
 * summed over the step before). A compile-time constant (kept in can_fuse:
 * HB_CAT_MECHS does not expand inside its own expansion). */
#define HB_EPOCH_CONC_ONE(ID, NAME, FLAGS) | ((FLAGS) & HB_CAT_CONC)
#define HB_EPOCH_CAN_FUSE (!HB_CAT_ANY_READ_CURRENT && !(0 HB_CAT_MECHS(HB_EPOCH_CONC_ONE)))

/* The states of every mechanism of the cell over one step at the voltage in
 * v's local array (NEURON's nrn_state), row by row by the rows' work-items,
 * with no barrier; ts_ in scope: the time the step ends at. */
#define HB_EPOCH_STATES_ROWS()                                                              \
    do {                                                                                    \
        for (hb_int k = j; k < nr; k += P) {                                                \
            const real vk = sh[oV + k];                                                     \
            HB_CAT_MECHS(HB_EPOCH_STATE_ONE)                                                \
            if (points)                                                                     \
                HB_KERNEL(hb_mech_points_advance)(ro + k, vk, dt, ts_, nrows_all,           \
                                                  HB_MECH_PASS);                            \
        }                                                                                   \
    } while (0)

/* Row k's pass, by its work-item (with KEEP, the currents that probes record
 * kept too: only a cell with owner-only probes reads them, and that cell's
 * steps run the unfused pass, so the fused one, a constant 0, has no such
 * code): with UPD the step before's update first,
 * v = v + dv (dv still in rhs's array from the solve); with SC
 * (HB_EPOCH_CAN_FUSE) its states over the step before (point processes',
 * then each density mechanism's with its current); its events; its ion
 * currents cleared; its density mechanisms' conductances and currents
 * (scaled to the row), its point processes', its clamps on at this step (in
 * their fixed order); the step for dv: d = d0 + g, rhs = -I (membrane.cl's
 * hb_sim_assemble), or with vx (a constant: v in rhs's array, where the
 * solve left the new v and no update is due) the step for v: d = d0 + g,
 * rhs = (C/dt + g) v - I over v's slot (the same matrix times v + dv: the
 * axial terms cancel, so a row needs no neighbour's v). ts_ and tm_ in
 * scope: the times the step before ended at (its states) and this step's
 * middle (the currents). */
#define HB_EPOCH_ROW_PASS(SC, UPD, KEEP)                                                    \
    do {                                                                                    \
        const int sc = can_fuse && (SC), upd = (UPD), keep = (KEEP);                        \
        for (hb_int k = j; k < nr; k += P) {                                                \
            const hb_long kk = ro + k;                                                      \
            /* The row's constants first: their loads then wait beside the                  \
             * mechanisms' work, not after it (nothing here writes them; H200,              \
             * 10,000 CA1 cells: 2-3% in double, 6% in float, docs/benchmarks/              \
             * h200-2026-11-30-counts). */                                                  \
            const real scl = scale[kk], d0k = d0[kk], cdtk = vx ? cdt[kk] : (real)0;        \
            const real vk = upd ? sh[oV + k] + sh[oR + k] : sh[oV + k];                     \
            if (upd)                                                                        \
                sh[oV + k] = vk;                                                            \
            if (sc && points)                                                               \
                HB_KERNEL(hb_mech_points_advance)(kk, vk, dt, ts_, nrows_all, HB_MECH_PASS); \
            if (points)                                                                     \
                HB_KERNEL(hb_mech_points_events)(kk, step, dt, HB_MECH_PASS);               \
            if (zero_ion)                                                                   \
                HB_KERNEL(hb_mech_row_zero)(kk, nrows_all, ion, ionk);                      \
            real gk_ = (real)0, ik = (real)0;                                               \
            HB_CAT_MECHS(HB_EPOCH_CURRENT_ONE)                                              \
            if (points)                                                                     \
                HB_KERNEL(hb_mech_points_current)(kk, vk, tm_, nrows_all, HB_MECH_PASS,     \
                                                  &gk_, &ik);                               \
            const hb_long q = k >= clo && k <= chi ? crowof[kk] : -1;                       \
            if (q >= 0) {                                                                   \
                real sum = (real)0;                                                         \
                for (hb_long a = cptr[q]; a < cptr[q + 1]; ++a)                             \
                    if (step >= con[a] && step < coff[a])                                   \
                        sum = sum + camp[a];                                                \
                ik = ik - sum;                                                              \
            }                                                                               \
            sh[oD + k] = d0k + gk_;                                                         \
            sh[oR + k] = vx ? (cdtk + gk_) * vk - ik : -ik;                                 \
        }                                                                                   \
    } while (0)

/* The cell's probes (hb_sim_dev.probe) into row ROW of rec, with no barrier
 * added: those of [q0, q1) (v, density states, parameters, concentrations,
 * reversal potentials: final and visible after the barrier that follows
 * the states)
 * spread over the group; those of [q1, q2) (a point process's state, which
 * the row's work-item advanced just before, and an ion current, which it
 * clears next) each by the work-item that owns its row. v of the cell is in sh
 * at oV. */
#define HB_EPOCH_PROBE_ONE(ROW, q)                                                           \
    do {                                                                                     \
        __global const hb_long *pq = probe + 4 * (q);                                        \
        const hb_int k = (hb_int)(pq[2] - ro);                                               \
        if ((q) < q1 || k % P == j)                                                          \
            rec[(ROW) * nrec + pq[3]] = HB_KERNEL(hb_probe_value)(                           \
                pq[0], pq[1], sh[oV + k], nrows_all, mprm, mst, ion, ionk);                 \
    } while (0)
#define HB_EPOCH_PROBES(ROW)                                                                 \
    do {                                                                                     \
        for (hb_long q = q0 + j; q < q1; q += P)                                             \
            HB_EPOCH_PROBE_ONE(ROW, q);                                                      \
        for (hb_long q = q1; q < q2; ++q)                                                    \
            HB_EPOCH_PROBE_ONE(ROW, q);                                                      \
    } while (0)

/* u (= l) read from global memory (cached) where the launch stages neither
 * it nor the schedule. */
#define HB_EPOCH_UG(i) ug[(i)]

/* The epoch's arguments, the same for both kernels below. */
#define HB_EPOCH_PARAMS                                                                        \
                                                                                               \
    const hb_long ngroups, const hb_long first, const hb_long ld, const hb_long step0,         \
    const hb_long nsteps, __global const hb_long *cslots, __global const hb_long *base,        \
    __global const hb_long *rows, __global const hb_long *soff, __global const hb_int *sched,  \
    __global const hb_long *cellof, __global const hb_long *rowoff,                            \
    __global const hb_long *ucopy, __global const real *u,                                     \
    __global const real *l, const hb_long nrows_all, const real dt, const real threshold,      \
    __global real *v, HB_MECH_ARGS, __global const real *d0, __global const real *cdt,        \
    __global const hb_int *dmap,                                                               \
    __global const hb_long *crowof, __global const hb_long *cptr,                              \
    __global const hb_long *con, __global const hb_long *coff, __global const real *camp,      \
    const hb_long max_spikes, __global const hb_long *soma, __global real *vprev,              \
    __global hb_long *nspk, __global real *tspk, const hb_long nrec, const hb_long rec_row0,   \
    __global const hb_long *recslot, __global real *rec, __global hb_long *slist,              \
    __global real *stime, __global const hb_long *probe, __global const hb_long *prbcell,      \
    const hb_int stage, const hb_int pcr HB_DYNAMIC_LOCAL_ARG(real, sh)

/* The epoch's body: USH (a constant) 1 for launches that keep u in local
 * memory (stage 1 or 2), 0 for those that read u and the schedule from
 * global memory (stage 0). Two kernels, not one with both paths: in one,
 * the three solves' code cost CUDA 26 more registers per work-item (140 in
 * float, 164 in double), so fewer cells per SM. VX (a constant, with USH 0:
 * stage -1) keeps v in rhs's array, one array of rows less: each step
 * solves for the new v (HB_EPOCH_ROW_PASS), so the solve reads no old v
 * and the update v = v + dv goes; probes that read v while the rows' pass
 * has put rhs there are recorded before it. */
#define HB_EPOCH_BODY(USH, VX)                                                                 \
    HB_DYNAMIC_LOCAL(real, sh);                                                                \
    const int vx = (VX);                                                                       \
    /* stage (HB_EPOCH_STAGE_* in api/sim/hb_sim_ops.h): 2 u and the                           \
     * schedule in local memory, 1 u alone, 0 neither (the kernel with USH                     \
     * 0). */                                                                                  \
    const hb_int staged = (USH) && stage >= 2, ush = (USH);                                    \
    /* pcr 0: no room for the trunk's PCR rows (48 KiB devices in double):                     \
     * one work-item sweeps the trunk (the solver's way), the rows go. */                      \
    const hb_int trunk = pcr ? HB_CELL_K_TRUNK_REALS : 0;                                      \
    HB_CELL_GROUP(trunk, 1, ush);                                                              \
    const hb_long c = valid ? cellof[t] : 0, ro = valid ? rowoff[c] : 0;                       \
    /* u (which is l: the simulation's matrix is symmetric) where staged                       \
     * (ush), d, rhs, the trunk's rows, the schedule where staged, then v:                     \
     * three or four arrays of rows. Unstaged, u is read from global memory                    \
     * at ucopy[c], the first row of the first cell with this cell's tree and                  \
     * conductances: one cached copy serves every copy of a cell, as the                       \
     * schedule's does. Each array of rows in sh lowers the cells resident                     \
     * per SM (the membrane current stays in registers). */                                    \
    __global const real *ug = u + (valid && !ush ? ucopy[c] : 0);                              \
    const hb_int oV = vx ? oR                                                                  \
                         : (hb_int)(oT + trunk +                                               \
                                    (staged ? (8 * ld + 16) * 4 / (hb_long)sizeof(real)        \
                                            : 0)); /* HB_CELL_SCHED_WORDS(ld) int32 */         \
    if (ush)                                                                                   \
        HB_CELL_STAGE(u, l);                                                                   \
    for (hb_int k = j; k < nr; k += P)                                                         \
        sh[oV + k] = v[ro + k];                                                                \
    /* The soma's work-item keeps the cell's spike bookkeeping. */                             \
    const hb_int ks = valid ? (hb_int)(soma[c] - ro) : -1;                                     \
    const int is_soma = valid && ks % P == j;                                                  \
    real vp = is_soma ? vprev[c] : (real)0;                                                    \
    hb_long cnt = is_soma ? nspk[c] : 0;                                                       \
    const hb_long rslot = is_soma ? recslot[c] : -1;                                           \
    /* Whether the cell has point processes (their row passes are skipped                      \
     * otherwise). */                                                                          \
    const int points = valid && pptr[ro + nr] != pptr[ro];                                     \
    /* The cell's probes (none: an empty loop). */                                             \
    const hb_long q0 = valid ? prbcell[2 * c] : 0, q1 = valid ? prbcell[2 * c + 1] : 0,        \
                  q2 = valid ? prbcell[2 * c + 2] : 0;                                         \
    /* The cell's density instances of each mechanism: mn of them from ma                      \
     * (none for point processes), on its rows mlo .. mhi - 1 (the first                       \
     * and the last instance's); where they are not every row of that                          \
     * span, the mechanism's dmap column at the cell's first row. Read once:                   \
     * every pass of every step starts from them. */                                           \
    hb_long ma[HB_CAT_NMECH], mcol[HB_CAT_NMECH];                                              \
    hb_int mn[HB_CAT_NMECH], mlo[HB_CAT_NMECH], mhi[HB_CAT_NMECH], mfl[HB_CAT_NMECH];          \
    for (hb_int m = 0; m < HB_CAT_NMECH; ++m) {                                                \
        const int dens = valid && !(HB_MT_FLAGS(m) & HB_CAT_POINT);                            \
        mfl[m] = (hb_int)HB_MT_FLAGS(m);                                                       \
        ma[m] = dens ? HB_MT_FIRST(m, c) : 0;                                                  \
        mn[m] = dens ? (hb_int)(HB_MT_FIRST(m, c + 1) - ma[m]) : 0;                            \
        mlo[m] = mn[m] > 0 ? (hb_int)(HB_MT_ROW(m, ma[m]) - ro) : 0;                           \
        mhi[m] = mn[m] > 0 ? (hb_int)(HB_MT_ROW(m, ma[m] + mn[m] - 1) - ro) + 1 : 0;           \
        mcol[m] = HB_CAT_NMECH + (hb_long)(dmap[m] < 0 ? 0 : dmap[m]) * nrows_all + ro;        \
    }                                                                                          \
    /* The first and last of this work-item's rows with clamps (none: clo >                    \
     * chi): the others skip the clamp table's load every step. */                             \
    hb_int clo = nr, chi = -1;                                                                 \
    for (hb_int k = j; k < nr; k += P)                                                         \
        if (crowof[ro + k] >= 0) {                                                             \
            clo = k < clo ? k : clo;                                                           \
            chi = k;                                                                           \
        }                                                                                      \
    const int can_fuse = HB_EPOCH_CAN_FUSE;                                                    \
    HB_CAT_MECHS(HB_EPOCH_TCONST)                                                              \
    /* Ion currents to clear each step (none: the call is skipped). */                         \
    const int zero_ion = HB_KERNEL(hb_mech_zero_any)(ionk);                                    \
    barrier(CLK_LOCAL_MEM_FENCE);                                                              \
                                                                                               \
    for (hb_long s = 0; s < nsteps; ++s) {                                                     \
        const hb_long step = step0 + s;                                                        \
        /* NEURON's times (hb_mech_passes.cl): the step before's states end at                 \
         * step dt, this step's currents are at its middle; in real (the same                  \
         * bits as the host's double in double). */                                            \
        const real ts_ = (real)step * dt, tm_ = ((real)step + (real)0.5) * dt;                 \
        /* The step before's update (v = v + dv, dv from the solve, whose                      \
         * last barrier made it visible: no barrier here), its states                          \
         * (NEURON's order: right after its solve; the previous epoch, or                      \
         * INITIAL, did them for step0 - 1) and this step's currents and                       \
         * assembly, by each row's work-item: in one pass where the catalogue                  \
         * allows and the cell has no probe that must see the states between                   \
         * (a point process's state, an ion current); else the update and                      \
         * the states in a pass of their own, the work-item's probes of the                    \
         * step before, then the rows' pass. */                                                \
        const int on = s > 0;                                                                  \
        if (can_fuse && q2 == q1 && (!vx || q1 == q0)) {                                       \
            HB_EPOCH_ROW_PASS(on, on && !vx, 0);                                               \
        } else {                                                                               \
            if (on) {                                                                          \
                if (!vx)                                                                       \
                    for (hb_int k = j; k < nr; k += P)                                         \
                        sh[oV + k] = sh[oV + k] + sh[oR + k];                                  \
                HB_EPOCH_STATES_ROWS();                                                        \
                for (hb_long q = q1; q < q2; ++q)                                              \
                    HB_EPOCH_PROBE_ONE(rec_row0 + s - 1, q);                                   \
            }                                                                                  \
            if (vx && on && q1 > q0) {                                                         \
                /* v's slots take rhs in the rows' pass: the group's probes                    \
                 * first, once the states are visible. */                                      \
                barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);                           \
                for (hb_long q = q0 + j; q < q1; q += P)                                       \
                    HB_EPOCH_PROBE_ONE(rec_row0 + s - 1, q);                                   \
                barrier(CLK_LOCAL_MEM_FENCE);                                                  \
            }                                                                                  \
            HB_EPOCH_ROW_PASS(0, 0, 1);                                                        \
        }                                                                                      \
        /* Every row's v, d and rhs before the solve reads them. */                            \
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);                                   \
        /* The step before, complete: its probes that any work-item records                    \
         * (the rows' pass changed none of what they read but v, now the                       \
         * step's start). */                                                                   \
        if (on && !vx)                                                                         \
            for (hb_long q = q0 + j; q < q1; q += P)                                           \
                HB_EPOCH_PROBE_ONE(rec_row0 + s - 1, q);                                       \
        /* The axial currents join rhs inside the elimination (oV); dv in                      \
         * rhs's array after it. Each solve reads u and the schedule from                      \
         * one place (ush is a constant: one of the two is compiled). */                       \
        if (ush) {                                                                             \
            HB_CELL_SOLVE_STAGED(0, oV, pcr, 1, HB_CELL_US, HB_CELL_US, HB_CELL_US,         \
                                 HB_CELL_US);                                              \
        } else {                                                                               \
            HB_CELL_TABLES(S, 1);                                                              \
            HB_CELL_SOLVE(S, 0, (VX) ? 0 : oV, pcr, HB_EPOCH_UG, HB_EPOCH_UG);                 \
        }                                                                                      \
        if (is_soma) {                                                                         \
            const real vn = vx ? sh[oR + ks] : sh[oV + ks] + sh[oR + ks];                      \
            if (vp < threshold && vn >= threshold) {                                           \
                const real ts = (real)step * dt + dt * ((threshold - vp) / (vn - vp));         \
                tspk[c * max_spikes + cnt % max_spikes] = ts;                                  \
                HB_KERNEL(hb_spike_push)(slist, stime, c, ts);                                 \
                cnt = cnt + 1;                                                                 \
            }                                                                                  \
            vp = vn;                                                                           \
            if (rslot >= 0)                                                                    \
                rec[(rec_row0 + s) * nrec + rslot] = vn;                                       \
        }                                                                                      \
    }                                                                                          \
                                                                                               \
    /* And the last step's update and states, so the state is the one at the                   \
     * epoch's end. */                                                                         \
    if (nsteps > 0 && !vx)                                                                     \
        for (hb_int k = j; k < nr; k += P)                                                     \
            sh[oV + k] = sh[oV + k] + sh[oR + k];                                              \
    {                                                                                          \
        const real ts_ = (real)(step0 + nsteps) * dt;                                          \
        HB_EPOCH_STATES_ROWS();                                                                \
    }                                                                                          \
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);                                       \
    HB_EPOCH_PROBES(rec_row0 + nsteps - 1);                                                    \
    for (hb_int k = j; k < nr; k += P)                                                         \
        v[ro + k] = sh[oV + k];                                                                \
    if (is_soma) {                                                                             \
        vprev[c] = vp;                                                                         \
        nspk[c] = cnt;                                                                         \
    }

/* CUDA caps the registers of the kernel for u in global memory per
 * precision (backend_cuda/sim/epoch.cu): it runs where many cells share a
 * compute unit. Nothing in OpenCL. */
#ifndef HB_EPOCH_UG_ATTR
#define HB_EPOCH_UG_ATTR
#endif
__kernel void HB_KERNEL(hb_sim_epoch)(HB_EPOCH_PARAMS) { HB_EPOCH_BODY(1, 0) }
__kernel void HB_EPOCH_UG_ATTR HB_KERNEL(hb_sim_epoch_ug)(HB_EPOCH_PARAMS) { HB_EPOCH_BODY(0, 0) }
__kernel void HB_EPOCH_UG_ATTR HB_KERNEL(hb_sim_epoch_ugv)(HB_EPOCH_PARAMS) { HB_EPOCH_BODY(0, 1) }
