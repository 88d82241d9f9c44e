/* hb_mech_passes.cl: the engine's mechanism passes over the catalogue in every engine: one density instance (init, state, current), a row's point processes (state, events, current), and the tables' arguments. */
#ifndef HB_CATALOGUE_FUNCS
#include "sim/catalogue/hb_catalogue.cl"
#endif

#ifndef HB_MECH_PASSES_CL
#define HB_MECH_PASSES_CL
/* The mechanism tables every simulation kernel takes (hb_sim_dev in
 * api/sim/hb_sim_ops.h). Mechanism m: mtab[5m] instances, its parameters at
 * mprm + mtab[5m + 1], its state slots at mst + mtab[5m + 2], the rows of
 * its instances at inode + mtab[5m + 3], flags (HB_CAT_POINT, ...) mtab[5m +
 * 4]. Density instances are in row order; those of cells c0 .. c1 - 1 are
 * [mcell[c0 N + m], mcell[c1 N + m]) (N = HB_CAT_NMECH). Row r's point
 * processes are [pptr[r], pptr[r + 1]), each instance pidx[q] of mechanism
 * pmech[q], its events [evptr[q], evptr[q + 1]) at steps evstep[2e] with
 * weights evw and delivery times evt (ms: NET_RECEIVE's t), the next one
 * evcur[q]; evstep[2e + 1] is where the event's connection keeps its values
 * in mst (NET_RECEIVE's arguments after the weight: a flag, then the values),
 * -1 for a mechanism without them. A point whose mechanism sends self-events
 * (HB_CAT_SEND) keeps them at mst + selfq[1 + q] (HB_SELF_CAP says how);
 * selfq[0] counts, in its first 32 bits, those lost to a full queue, which the
 * host reads after each run. The simulation time t each mechanism function gets is NEURON's
 * (docs/mechanisms.md, The simulation time t): 0 for INITIAL, the step's
 * middle (step + 1/2) dt for the currents, its end (step + 1) dt for the
 * states, each computed as (that multiple of dt) * dt in double (the
 * stages engine's host) or in real (the on-chip engine). Ions: slots per
 * row (the catalogue's comment), Nernst factors ionk; scale per row: area
 * um2 x 1e-2 (mA/cm2 to nA, S/cm2 to uS). */
#define HB_MECH_ARGS                                                                        \
    __global const hb_long *mtab, __global const hb_long *inode,                            \
        __global const hb_long *mcell, __global const hb_long *pptr,                        \
        __global const hb_int *pmech, __global const hb_long *pidx,                         \
        __global const real *mprm, __global real *mst, __global real *ion,                  \
        __global const real *ionk, __global const real *scale,                              \
        __global const hb_long *evptr, __global hb_long *evcur,                             \
        __global const hb_long *evstep, __global const real *evw, __global const real *evt, \
        __global hb_long *selfq, const real celsius
#define HB_MECH_PASS                                                                   \
    mtab, inode, mcell, pptr, pmech, pidx, mprm, mst, ion, ionk, scale, evptr, evcur,  \
        evstep, evw, evt, selfq, celsius
#define HB_MT_N(m) mtab[5 * (m)]
#define HB_MT_PRM(m) (mprm + mtab[5 * (m) + 1])
#define HB_MT_ST(m) (mst + mtab[5 * (m) + 2])
#define HB_MT_ROW(m, i) inode[mtab[5 * (m) + 3] + (i)]
#define HB_MT_FLAGS(m) mtab[5 * (m) + 4]
/* A flag the engine adds to a density mechanism's (beside the catalogue's
 * HB_CAT_*; api/sim/sim_model.c sets it, under the same value): every
 * instance has the same parameters, so instance 0's serve all. */
#define HB_MT_UNIFORM 256
/* Another: a probe records one of its currents, so each current pass also
 * keeps them after its state slots (hb_cat_keep). */
#define HB_MT_KEEPI 512
/* Density mechanism m's instances in cells c0 .. c1 - 1. */
#define HB_MT_FIRST(m, c0) mcell[(hb_long)(c0) * HB_CAT_NMECH + (m)]
/* Probes (hb_sim_dev.probe: per probe its kind, element, row and trace
 * column): the row's v; mst[element]; mprm[element]; ion[element]; the
 * reversal potential whose e slot is ion[element] (Nernst where ionk says). */
#define HB_PROBE_V 0
#define HB_PROBE_STATE 1
#define HB_PROBE_PARAM 2
#define HB_PROBE_ION 3
#define HB_PROBE_ION_E 4
/* A point's self-event queue: [0] how many are pending, [1] how many were
 * lost to a full queue, [2] and [3] the place of the point's own connection
 * values (those of INITIAL's self-events), then HB_SELF_CAP entries of
 * HB_SELF_W values in the order sent: delivery time (ms), flag, weight, and
 * the place of the connection's values. A place in mst is kept as place /
 * 2^20 and place mod 2^20 (each exact in float; -1 and 0: none). The engine
 * reserves HB_SELF_HEAD + HB_SELF_CAP HB_SELF_W values per such point
 * (api/sim/sim_model.c). */
#define HB_SELF_CAP 8 /* HB_SIM_SELF_CAP, HB_SIM_SELF_LEN of api/sim/hb_sim_ops.h */
#define HB_SELF_W 5
#define HB_SELF_HEAD 4
/* Deliveries to one point in one step at most (a NET_RECEIVE whose zero
 * delays send each other without end would never return): past it, the
 * rest count as lost. */
#define HB_SELF_ROUNDS 256 /* HB_SIM_SELF_ROUNDS */
#endif

#ifndef HB_MECH_PASSES_FUNCS /* undefined between precisions by the CUDA and host builds */
#define HB_MECH_PASSES_FUNCS
/* Every spike also goes to one list (hb_sim_dev.slist, stime), so the host
 * reads back only the new spikes: the count in slist[0]'s first 32 bits
 * (the order of a step's spikes is the atomics'; the host sorts them),
 * the capacity in slist[1], the cells from slist[2]. Past the capacity (or
 * the count's wrap) the host reads the per-cell rings instead. */
HB_FN void HB_KERNEL(hb_spike_push)(__global hb_long *slist, __global real *stime,
                                    const hb_long c, const real t)
{
    const hb_int k = atomic_inc((volatile __global hb_int *)slist);
    if (k >= 0 && k < slist[1]) {
        slist[2 + k] = c;
        stime[k] = t;
    }
}

#if HB_CAT_ANY_SEND
/* A place in mst kept as hi = place / 2^20 and lo = place mod 2^20 (-1: none). */
HB_FN hb_long HB_KERNEL(hb_self_place)(const real hi, const real lo)
{
    return hi < (real)0 ? -1 : (hb_long)hi * 1048576 + (hb_long)lo;
}

/* A self-event of queue sq lost: counted in sq[1] and in selfq[0]. */
HB_FN void HB_KERNEL(hb_self_lost)(__global real *sq, __global hb_long *selfq)
{
    sq[1] = sq[1] + (real)1;
    atomic_inc((volatile __global hb_int *)selfq);
}

/* Queues the ns self-events of snd[] that were sent (snd[3k] not 0) at
 * times snd[3k + 1] with flags snd[3k + 2], weight w and connection place
 * cs, in order; a full queue counts the rest lost. */
HB_FN void HB_KERNEL(hb_self_queue)(__global real *sq, __global hb_long *selfq, const real *snd,
                                    const hb_int ns, const real w, const hb_long cs)
{
    for (hb_int k = 0; k < ns; ++k) {
        if (snd[3 * k] == (real)0)
            continue;
        const hb_int n = (hb_int)sq[0];
        if (n >= HB_SELF_CAP) {
            HB_KERNEL(hb_self_lost)(sq, selfq);
            continue;
        }
        __global real *x = sq + HB_SELF_HEAD + HB_SELF_W * n;
        x[0] = snd[3 * k + 1];
        x[1] = snd[3 * k + 2];
        x[2] = w;
        x[3] = cs < 0 ? (real)-1 : (real)(cs >> 20);
        x[4] = cs < 0 ? (real)0 : (real)(cs & 1048575);
        sq[0] = (real)(n + 1);
    }
}
#endif

/* Instance i of mechanism m on row r at voltage v and time t: INITIAL; a
 * point's self-events it sends queued with weight 0 and the point's own
 * connection (NEURON gives them no NetCon). */
HB_FN void HB_KERNEL(hb_mech_inst_init)(const hb_int m, const hb_long i, const hb_long r,
                                        const real v, const real t, const hb_long nrows,
                                        HB_MECH_ARGS)
{
    (void)inode, (void)mcell, (void)pptr, (void)pmech, (void)pidx, (void)scale;
    (void)evptr, (void)evcur, (void)evstep, (void)evw, (void)evt, (void)selfq;
#if HB_CAT_ANY_SEND
    real snd[3 * HB_CAT_MAX_SEND];
    const hb_int ns = HB_KERNEL(hb_cat_init)(m, i, HB_MT_N(m), HB_MT_PRM(m), HB_MT_ST(m), v,
                                             celsius, t, ion, ionk, nrows, r, snd);
    for (hb_long q = pptr[r]; ns > 0 && q < pptr[r + 1]; ++q)
        if (pmech[q] == m && pidx[q] == i && selfq[1 + q] >= 0) {
            __global real *sq = mst + selfq[1 + q];
            HB_KERNEL(hb_self_queue)(sq, selfq, snd, ns, (real)0,
                                     HB_KERNEL(hb_self_place)(sq[2], sq[3]));
        }
#else
    HB_KERNEL(hb_cat_init)(m, i, HB_MT_N(m), HB_MT_PRM(m), HB_MT_ST(m), v, celsius, t, ion, ionk,
                           nrows, r, (real *)0);
#endif
}

/* Its states over one step of dt at v, ending at time t; where its SOLVE
 * assigns its currents again (HB_CAT_KEEPAFTER) and a probe records one,
 * they are kept again at v (the new v) and the step's middle time: NEURON
 * records a clamp's current so. Compiled only for a catalogue that has such
 * a mechanism: the on-chip epoch runs this for point processes, and the
 * dispatch alone cost it 12% at 10,000 CA1 cells in double on an H200
 * (docs/benchmarks/h200-2026-11-29-vstep, call 4). */
HB_FN void HB_KERNEL(hb_mech_inst_state)(const hb_int m, const hb_long i, const hb_long r,
                                         const real v, const real dt, const real t,
                                         const hb_long nrows, HB_MECH_ARGS)
{
    (void)inode, (void)mcell, (void)pptr, (void)pmech, (void)pidx, (void)scale;
    (void)evptr, (void)evcur, (void)evstep, (void)evw, (void)evt, (void)selfq;
    HB_KERNEL(hb_cat_state)(m, i, HB_MT_N(m), HB_MT_PRM(m), HB_MT_ST(m), v, dt, celsius, t, ion,
                            ionk, nrows, r);
#if HB_CAT_ANY_KEEPAFTER
    if ((HB_MT_FLAGS(m) & (HB_CAT_KEEPAFTER | HB_MT_KEEPI)) == (HB_CAT_KEEPAFTER | HB_MT_KEEPI))
        HB_KERNEL(hb_cat_keep)(m, i, HB_MT_N(m), HB_MT_PRM(m), HB_MT_ST(m), i, v, celsius,
                               t - (real)0.5 * dt, ion, ionk, nrows, r);
#endif
}

/* Its conductance *g (uS) and current *i (nA) at v and time t: a density
 * mechanism's densities times the row's scale; its currents kept where
 * probed. */
HB_FN void HB_KERNEL(hb_mech_inst_current)(const hb_int m, const hb_long i, const hb_long r,
                                           const real v, const real t, const hb_long nrows,
                                           HB_MECH_ARGS, real *g, real *cur)
{
    (void)inode, (void)mcell, (void)pptr, (void)pmech, (void)pidx;
    (void)evptr, (void)evcur, (void)evstep, (void)evw, (void)evt, (void)selfq;
    const real sc = scale[r];
    real gi = (real)0, ii = (real)0;
    HB_KERNEL(hb_cat_current)(m, i, HB_MT_N(m), HB_MT_PRM(m), HB_MT_ST(m), v, celsius, t, ion,
                              ionk, nrows, r, sc, &gi, &ii);
    if (HB_MT_FLAGS(m) & HB_MT_KEEPI)
        HB_KERNEL(hb_cat_keep)(m, i, HB_MT_N(m), HB_MT_PRM(m), HB_MT_ST(m), i, v, celsius, t,
                               ion, ionk, nrows, r);
    if (HB_MT_FLAGS(m) & HB_CAT_POINT) {
        *g = gi;
        *cur = ii;
    } else {
        *g = gi * sc;
        *cur = ii * sc;
    }
}

/* Row r's point processes: their states over one step of dt at v, ending
 * at time t. */
HB_FN void HB_KERNEL(hb_mech_points_advance)(const hb_long r, const real v, const real dt,
                                             const real t, const hb_long nrows, HB_MECH_ARGS)
{
    for (hb_long q = pptr[r]; q < pptr[r + 1]; ++q)
        HB_KERNEL(hb_mech_inst_state)(pmech[q], pidx[q], r, v, dt, t, nrows, HB_MECH_PASS);
}

#if HB_CAT_ANY_SEND
/* Point q at step `step` when its mechanism sends self-events: its events
 * due and its self-events due (time / dt at most step + 1/2, the host's
 * rule for events, hb__sim_event_step) merged in time order, an event
 * before a self-event of the same time; each NET_RECEIVE's net_sends
 * queued, those of delay 0 delivered in this step too. A self-event
 * carries the weight and connection of the event that sent it (NEURON's
 * self-event keeps the NetCon's weight vector). */
HB_FN void HB_KERNEL(hb_mech_point_events_self)(const hb_long q, const hb_long step,
                                                const real dt, HB_MECH_ARGS)
{
    (void)inode, (void)mcell, (void)pptr, (void)ion, (void)ionk, (void)scale, (void)celsius;
    const hb_int m = pmech[q];
    __global real *sq = mst + selfq[1 + q];
    const real lim = (real)step + (real)0.5 + (real)1e-9;
    const hb_long e1 = evptr[q + 1];
    hb_long e = evcur[q];
    real snd[3 * HB_CAT_MAX_SEND];
    for (hb_int done = 0;; ++done) {
        const int ext = e < e1 && evstep[2 * e] <= step;
        const hb_int n = (hb_int)sq[0];
        hb_int b = -1;
        for (hb_int k = 0; k < n; ++k) {
            const real te = sq[HB_SELF_HEAD + HB_SELF_W * k];
            if (te / dt <= lim && (b < 0 || te < sq[HB_SELF_HEAD + HB_SELF_W * b]))
                b = k;
        }
        if (!ext && b < 0)
            break;
        if (done == HB_SELF_ROUNDS) {
            HB_KERNEL(hb_self_lost)(sq, selfq);
            break;
        }
        real w, t, flag;
        hb_long cs;
        if (ext && (b < 0 || evt[e] <= sq[HB_SELF_HEAD + HB_SELF_W * b])) {
            w = evw[e], t = evt[e], flag = (real)0, cs = evstep[2 * e + 1];
            ++e;
        } else {
            __global real *x = sq + HB_SELF_HEAD + HB_SELF_W * b;
            t = x[0], flag = x[1], w = x[2];
            cs = HB_KERNEL(hb_self_place)(x[3], x[4]);
            for (hb_int k = HB_SELF_W * b; k < HB_SELF_W * (n - 1); ++k) /* keep the order */
                sq[HB_SELF_HEAD + k] = sq[HB_SELF_HEAD + HB_SELF_W + k];
            sq[0] = (real)(n - 1);
        }
        const hb_int ns = HB_KERNEL(hb_cat_net_receive)(m, pidx[q], HB_MT_N(m), HB_MT_PRM(m),
                                                        HB_MT_ST(m), w, t, flag,
                                                        mst + (cs >= 0 ? cs : 0), snd);
        HB_KERNEL(hb_self_queue)(sq, selfq, snd, ns, w, cs);
    }
    evcur[q] = e;
}
#endif

/* Row r's point processes at step `step` (of dt): the events due
 * (NET_RECEIVE, in their order, each at its own delivery time, as NEURON's),
 * and a sender's self-events. */
HB_FN void HB_KERNEL(hb_mech_points_events)(const hb_long r, const hb_long step, const real dt,
                                            HB_MECH_ARGS)
{
    (void)inode, (void)mcell, (void)ion, (void)ionk, (void)scale, (void)celsius, (void)dt;
    (void)selfq;
    for (hb_long q = pptr[r]; q < pptr[r + 1]; ++q) {
#if HB_CAT_ANY_SEND
        if (selfq[1 + q] >= 0) {
            HB_KERNEL(hb_mech_point_events_self)(q, step, dt, HB_MECH_PASS);
            continue;
        }
#endif
        const hb_int m = pmech[q];
        const hb_long e1 = evptr[q + 1];
        hb_long e = evcur[q];
        if (e < e1 && evstep[2 * e] <= step) {
            for (; e < e1 && evstep[2 * e] <= step; ++e) {
                const hb_long cs = evstep[2 * e + 1];
                HB_KERNEL(hb_cat_net_receive)(m, pidx[q], HB_MT_N(m), HB_MT_PRM(m), HB_MT_ST(m),
                                              evw[e], evt[e], (real)0, mst + (cs >= 0 ? cs : 0),
                                              (real *)0);
            }
            evcur[q] = e;
        }
    }
}

/* Row r before the currents: the ion currents that mechanisms read, and
 * those a probe records (flag ionk[HB_CAT_NION + x]), start from 0 (the
 * others are never stored). */
HB_FN void HB_KERNEL(hb_mech_row_zero)(const hb_long r, const hb_long nrows, __global real *ion,
                                       __global const real *ionk)
{
#define HB_MECH_ZERO_ONE(x) ion[(hb_long)(4 * (x) + 3) * nrows + r] = (real)0;
#define HB_MECH_ZERO_PROBED(x)                                                              \
    if (ionk[HB_CAT_NION + (x)] != (real)0)                                                 \
        ion[(hb_long)(4 * (x) + 3) * nrows + r] = (real)0;
    HB_CAT_READ_CURRENTS(HB_MECH_ZERO_ONE)
    HB_CAT_PROBE_CURRENTS(HB_MECH_ZERO_PROBED)
#undef HB_MECH_ZERO_ONE
#undef HB_MECH_ZERO_PROBED
    (void)r, (void)nrows, (void)ion, (void)ionk;
}

/* A probe's value (HB_PROBE_*): element e of its table, v the voltage of its
 * row; a reversal potential as the mechanisms compute it. */
HB_FN real HB_KERNEL(hb_probe_value)(const hb_long kind, const hb_long e, const real v,
                                     const hb_long nrows, __global const real *mprm,
                                     __global const real *mst, __global const real *ion,
                                     __global const real *ionk)
{
    if (kind == HB_PROBE_V)
        return v;
    if (kind == HB_PROBE_STATE)
        return mst[e];
    if (kind == HB_PROBE_PARAM)
        return mprm[e];
    if (kind == HB_PROBE_ION) /* a concentration, or a current summed for probes */
        return ion[e];
    const hb_long x = e / (4 * nrows);
    return ionk[x] != (real)0 ? ionk[x] * log(ion[e + 2 * nrows] / ion[e + nrows]) : ion[e];
}

/* Whether hb_mech_row_zero has anything to clear (a current some mechanism
 * reads, or one a probe asked for): a loop that runs many steps asks once. */
HB_FN int HB_KERNEL(hb_mech_zero_any)(__global const real *ionk)
{
    int z = HB_CAT_ANY_READ_CURRENT;
    for (int x = 0; x < HB_CAT_NION; ++x)
        z |= ionk[HB_CAT_NION + x] != (real)0;
    return z;
}

/* Row r's point processes' conductances and currents at time t added to
 * *g, *cur. */
HB_FN void HB_KERNEL(hb_mech_points_current)(const hb_long r, const real v, const real t,
                                             const hb_long nrows, HB_MECH_ARGS, real *g,
                                             real *cur)
{
    real gs = *g, is = *cur;
    for (hb_long q = pptr[r]; q < pptr[r + 1]; ++q) {
        real gq, iq;
        HB_KERNEL(hb_mech_inst_current)(pmech[q], pidx[q], r, v, t, nrows, HB_MECH_PASS, &gq,
                                        &iq);
        gs = gs + gq;
        is = is + iq;
    }
    *g = gs;
    *cur = is;
}

#endif
