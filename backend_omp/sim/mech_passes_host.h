/* mech_passes_host.h: the membrane passes of kernels_cl/sim/membrane.cl on the host over a range of cells, each mechanism's loop calling it directly (no dispatch per instance); included once per precision by cl_host.h. */
/* No include guard: cl_host.h includes it with `real` and HB_KERNEL set
 * for double, then for float, each time twice: HB_HOST_PAR 1 gives
 * hb_host_mech_init, hb_host_mech_pass and hb_host_mech_advance (OpenMP
 * loops when par != 0), HB_HOST_PAR 0 the _serial passes for the fused
 * per-cell loop
 * (already inside a thread: an `if (0)` parallel region still costs a team
 * per loop). Needs hb_sim_ops.h (hb_sim_dev). */
/* clang warns (-Wpass-failed) where a loop asked to be a vector loop cannot
 * be (HH's exponentials are library calls); GCC vectorizes what it can. */
#if defined(__clang__)
#define HB_HOST_SIMD_PAR _Pragma("omp parallel for schedule(static) if (par)")
#define HB_HOST_SIMD
#else
#define HB_HOST_SIMD_PAR _Pragma("omp parallel for simd schedule(static) if (par)")
#define HB_HOST_SIMD _Pragma("omp simd")
#endif
#if HB_HOST_PAR
#define HB_HOST_FOR _Pragma("omp parallel for schedule(static) if (par)")
#define HB_HOST_FOR_SIMD HB_HOST_SIMD_PAR
#define HB_HOST_PASS_NAME hb_host_mech_pass
#define HB_HOST_ADVANCE_NAME hb_host_mech_advance
#else
#define HB_HOST_FOR
#define HB_HOST_FOR_SIMD HB_HOST_SIMD
#define HB_HOST_PASS_NAME hb_host_mech_pass_serial
#define HB_HOST_ADVANCE_NAME hb_host_mech_advance_serial
#endif
/* The fused loop's passes (one cell's rows, _serial) get an AVX2 copy too
 * (HB_HOST_CLONES, host_backend.h); the OpenMP ones' outlined loops would not. */
#if HB_HOST_PAR
#define HB_HOST_PASS_CLONES
#else
#define HB_HOST_PASS_CLONES HB_HOST_CLONES
#endif

/* The tables of sd under the names HB_MECH_PASS uses. */
#define HB_HOST_MECH_TABLES(sd)                                                             \
    const hb_long *mtab = (const hb_long *)(sd)->mtab->ptr;                                 \
    const hb_long *inode = (const hb_long *)(sd)->inode->ptr;                               \
    const hb_long *mcell = (const hb_long *)(sd)->mcell->ptr;                               \
    const hb_long *pptr = (const hb_long *)(sd)->pptr->ptr;                                 \
    const hb_int *pmech = (const hb_int *)(sd)->pmech->ptr;                                 \
    const hb_long *pidx = (const hb_long *)(sd)->pidx->ptr;                                 \
    const real *mprm = (const real *)(sd)->mprm->ptr;                                       \
    real *mst = (real *)(sd)->mst->ptr;                                                     \
    real *ion = (real *)(sd)->ion->ptr;                                                     \
    const real *ionk = (const real *)(sd)->ionk->ptr;                                       \
    const real *scale = (const real *)(sd)->scale->ptr;                                     \
    const hb_long *evptr = (const hb_long *)(sd)->evptr->ptr;                               \
    hb_long *evcur = (hb_long *)(sd)->evcur->ptr;                                           \
    const hb_long *evstep = (const hb_long *)(sd)->evstep->ptr;                             \
    const real *evw = (const real *)(sd)->evw->ptr;                                         \
    const real *evt = (const real *)(sd)->evt->ptr;                                         \
    hb_long *selfq = (hb_long *)(sd)->selfq->ptr;                                           \
    const real celsius = (real)(sd)->celsius;                                               \
    (void)mtab, (void)inode, (void)mcell, (void)pptr, (void)pmech, (void)pidx, (void)mprm;   \
    (void)mst, (void)ion, (void)ionk, (void)scale, (void)evptr, (void)evcur, (void)evstep;  \
    (void)evw, (void)evt, (void)selfq, (void)celsius

#if HB_HOST_PAR
/* Every instance's INITIAL at its row's v and t = 0, mechanism after
 * mechanism. */
HB_FN void HB_KERNEL(hb_host_mech_init)(const hb_sim_dev *sd, int par)
{
    HB_HOST_MECH_TABLES(sd);
    const real *v = (const real *)sd->v->ptr;
    const hb_long nrows = sd->nrows;
    (void)par;
    for (hb_int m = 0; m < HB_CAT_NMECH; ++m) {
        const hb_long n = HB_MT_N(m);
        _Pragma("omp parallel for schedule(static) if (par)")
        for (hb_long i = 0; i < n; ++i) {
            const hb_long r = HB_MT_ROW(m, i);
            HB_KERNEL(hb_mech_inst_init)(m, i, r, v[r], (real)0, nrows, HB_MECH_PASS);
        }
    }
}
#endif

/* Cells c0 .. c1 - 1 (rows r0 .. r1 - 1): every mechanism's states over
 * step `step` at the new v (NEURON's nrn_state, at the time the step ends),
 * density mechanisms in catalogue order, then the rows' point processes. */
HB_HOST_PASS_CLONES HB_FN void HB_KERNEL(HB_HOST_ADVANCE_NAME)(const hb_sim_dev *sd, int64_t step,
                                           int64_t c0, int64_t c1, int64_t r0, int64_t r1,
                                           int par)
{
    HB_HOST_MECH_TABLES(sd);
    const real *v = (const real *)sd->v->ptr;
    const real dt = (real)sd->dt;
    const real t = (real)((double)(step + 1) * sd->dt); /* as the on-chip engine's ts_ */
    const hb_long nrows = sd->nrows, NM = HB_CAT_NMECH;
    (void)par;
    /* Each mechanism's factors of celsius alone (its Q10s) once per call, not
     * per instance: _state_tc with them is _state's arithmetic. */
#define HB_HOST_STATE(id, name, flags)                                                     \
    if (!((flags) & HB_CAT_POINT) && ((flags) & HB_CAT_STATE)) {                           \
        const hb_long a = mcell[c0 * NM + (id)], b = mcell[c1 * NM + (id)], n = HB_MT_N(id); \
        const real *pm = HB_MT_PRM(id);                                                    \
        real *sm = HB_MT_ST(id);                                                           \
        const hb_long *nd = inode + mtab[5 * (id) + 3];                                    \
        real tc[HB_CAT_NTC_##name + 1];                                                    \
        HB_KERNEL(hb_cat_##name##_tconst)(celsius, tc);                                    \
        /* and its currents kept again where its SOLVE assigns them (hb_mech_inst_state) */ \
        const int again = ((flags) & HB_CAT_KEEPAFTER) && (HB_MT_FLAGS(id) & HB_MT_KEEPI);  \
        HB_HOST_FOR                                                                        \
        for (hb_long i = a; i < b; ++i) {                                                  \
            HB_KERNEL(hb_cat_##name##_state_tc)(i, n, pm, sm, v[nd[i]], dt, celsius, t,    \
                                                ion, ionk, nrows, nd[i], tc);              \
            if (again)                                                                     \
                HB_KERNEL(hb_cat_##name##_keep)(i, n, pm, sm, i, v[nd[i]], celsius,        \
                                                t - (real)0.5 * dt, ion, ionk, nrows, nd[i]); \
        }                                                                                  \
    }
    HB_CAT_MECHS(HB_HOST_STATE)
#undef HB_HOST_STATE
    if (pptr[r0] != pptr[r1]) {
        HB_HOST_FOR
        for (hb_long r = r0; r < r1; ++r)
            HB_KERNEL(hb_mech_points_advance)(r, v[r], dt, t, nrows, HB_MECH_PASS);
    }
}

/* Cells c0 .. c1 - 1 (rows r0 .. r1 - 1) at step `step`: gmem and imem of
 * their rows get the mechanisms' g and I, in the engine's order (events,
 * currents by mechanism, point currents). */
HB_HOST_PASS_CLONES HB_FN void HB_KERNEL(HB_HOST_PASS_NAME)(const hb_sim_dev *sd, int64_t step,
                                                            int64_t c0, int64_t c1, int64_t r0,
                                                            int64_t r1, int par)
{
    HB_HOST_MECH_TABLES(sd);
    const real *v = (const real *)sd->v->ptr;
    real *gs = (real *)sd->gmem->ptr, *is = (real *)sd->imem->ptr;
    const hb_long nrows = sd->nrows, NM = HB_CAT_NMECH;
    /* The currents at the step's middle (NEURON's nrn_cur), as the on-chip
     * engine's tm_; t = 0 for the probes' pass at t = 0. */
    const real t = (real)hb__sim_current_time(step, sd->dt);
    (void)par;
    /* The rows' events (no point processes: the loop is skipped), the
     * ion currents others read, g and I cleared. */
    const int points = pptr[r0] != pptr[r1];
    if (points) {
        HB_HOST_FOR
        for (hb_long r = r0; r < r1; ++r)
            HB_KERNEL(hb_mech_points_events)(r, step, (real)sd->dt, HB_MECH_PASS);
    }
#if HB_CAT_ANY_READ_CURRENT || HB_CAT_ANY_PROBE_CURRENT
    /* A pass over the rows only where a current is summed (read, or probed). */
    if (HB_KERNEL(hb_mech_zero_any)(ionk)) {
        HB_HOST_FOR
        for (hb_long r = r0; r < r1; ++r)
            HB_KERNEL(hb_mech_row_zero)(r, nrows, ion, ionk);
    }
#endif
    HB_HOST_FOR
    for (hb_long r = r0; r < r1; ++r)
        gs[r] = is[r] = (real)0;
#define HB_HOST_CURRENT_ONE(name, r)                                                       \
    {                                                                                      \
        real g, c;                                                                         \
        HB_KERNEL(hb_cat_##name##_current)(i, n, pm, sm, v[r], celsius, t, ion, ionk,      \
                                           nrows, r, scale[r], &g, &c);                    \
        if (keep) /* a probe records one of its currents */                                \
            HB_KERNEL(hb_cat_##name##_keep)(i, n, pm, sm, i, v[r], celsius, t, ion, ionk,  \
                                            nrows, r);                                     \
        gs[r] = gs[r] + g * scale[r];                                                        \
        is[r] = is[r] + c * scale[r];                                                        \
    }
/* Where the instances sit on a run of consecutive rows (one per row: the
 * usual density mechanism), each touches only its own row and instance, so
 * the loop is a vector loop (the same arithmetic per instance). */
#define HB_HOST_CURRENT(id, name, flags)                                                   \
    if (!((flags) & HB_CAT_POINT)) {                                                       \
        const hb_long a = mcell[c0 * NM + (id)], b = mcell[c1 * NM + (id)], n = HB_MT_N(id); \
        const real *pm = HB_MT_PRM(id);                                                    \
        real *sm = HB_MT_ST(id);                                                           \
        const hb_long *nd = inode + mtab[5 * (id) + 3];                                    \
        const int keep = (HB_MT_FLAGS(id) & HB_MT_KEEPI) != 0;                             \
        if (a < b && nd[b - 1] - nd[a] == b - 1 - a) {                                     \
            const hb_long rb = nd[a] - a;                                                  \
            HB_HOST_FOR_SIMD                                                               \
            for (hb_long i = a; i < b; ++i)                                                \
                HB_HOST_CURRENT_ONE(name, rb + i)                                          \
        } else {                                                                           \
            HB_HOST_FOR                                                                    \
            for (hb_long i = a; i < b; ++i)                                                \
                HB_HOST_CURRENT_ONE(name, nd[i])                                           \
        }                                                                                  \
    }
    HB_CAT_MECHS(HB_HOST_CURRENT)
#undef HB_HOST_CURRENT
#undef HB_HOST_CURRENT_ONE
    if (points) {
        HB_HOST_FOR
        for (hb_long r = r0; r < r1; ++r)
            if (pptr[r] != pptr[r + 1])
                HB_KERNEL(hb_mech_points_current)(r, v[r], t, nrows, HB_MECH_PASS, &gs[r],
                                                  &is[r]);
    }
}
#undef HB_HOST_FOR
#undef HB_HOST_FOR_SIMD
#undef HB_HOST_SIMD_PAR
#undef HB_HOST_SIMD
#undef HB_HOST_PASS_NAME
#undef HB_HOST_ADVANCE_NAME
#undef HB_HOST_PASS_CLONES
