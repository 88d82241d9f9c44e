/* hb_mech_rows.cl: one compartment's membrane in every engine: the catalogue's mechanism instances on the row (state, events, current), its ions, and the instance table's arguments. */
#ifndef HB_CATALOGUE_FUNCS
#include "sim/catalogue/hb_catalogue.cl"
#endif

#ifndef HB_MECH_ROWS_CL
#define HB_MECH_ROWS_CL
/* The mechanism tables every simulation kernel takes (hb_sim_dev in
 * api/sim/hb_sim_ops.h): the row's instances [iptr[row], iptr[row + 1]),
 * each of mechanism imech[q], index iidx[q] in it; per mechanism m, mtab[3m]
 * instances, its parameters at mprm + mtab[3m + 1], its state slots at
 * mst + mtab[3m + 2]; ion slots per row; Nernst factors per ion (0: fixed);
 * scale per row (area um2 x 1e-2: mA/cm2 to nA); events of instance q
 * [evptr[q], evptr[q + 1]) at steps evstep, weights evw, the next one
 * evcur[q]. */
#define HB_MECH_ARGS                                                                          \
    __global const hb_long *iptr, __global const hb_int *imech, __global const hb_long *iidx, \
        __global const hb_long *mtab, __global const real *mprm, __global real *mst,          \
        __global real *ion, __global const real *ionk, __global const real *scale,            \
        __global const hb_long *evptr, __global hb_long *evcur,                               \
        __global const hb_long *evstep, __global const real *evw, const real celsius
#define HB_MECH_PASS                                                                     \
    iptr, imech, iidx, mtab, mprm, mst, ion, ionk, scale, evptr, evcur, evstep, evw, celsius
#endif

#ifndef HB_MECH_ROWS_FUNCS /* undefined between precisions by the CUDA and host builds */
#define HB_MECH_ROWS_FUNCS

/* Reversal potentials of the ions with a Nernst factor k = 1e3 R T / (z F)
 * (mV): e = k log(co / ci), from the row's concentrations. */
HB_FN void HB_KERNEL(hb_mech_row_nernst)(const hb_long row, const hb_long nrows,
                                         __global real *ion, __global const real *ionk)
{
    for (int x = 0; x < HB_CAT_NION; ++x) {
        const real k = ionk[x];
        if (k != (real)0)
            ion[(hb_long)(4 * x) * nrows + row] =
                k * log(ion[(hb_long)(4 * x + 2) * nrows + row] /
                        ion[(hb_long)(4 * x + 1) * nrows + row]);
    }
}

/* Every instance's INITIAL at v (ion currents of the row zeroed first). */
HB_FN void HB_KERNEL(hb_mech_row_init)(const hb_long row, const hb_long nrows, const real v,
                                       HB_MECH_ARGS)
{
    (void)scale, (void)evptr, (void)evcur, (void)evstep, (void)evw;
    HB_KERNEL(hb_mech_row_nernst)(row, nrows, ion, ionk);
    for (int x = 0; x < HB_CAT_NION; ++x)
        ion[(hb_long)(4 * x + 3) * nrows + row] = (real)0;
    for (hb_long q = iptr[row]; q < iptr[row + 1]; ++q) {
        const hb_int m = imech[q];
        HB_KERNEL(hb_cat_init)(m, iidx[q], mtab[3 * m], mprm + mtab[3 * m + 1],
                               mst + mtab[3 * m + 2], v, celsius, ion, nrows, row);
    }
}

/* Step `step` of row `row` at voltage v, in NEURON's order for the step that
 * starts at t = step dt: the states move over the last step with the v it
 * produced (advance = 0 at step 0: INITIAL set them), in instance order, the
 * events due at this step reach their instances (NET_RECEIVE, in their
 * order), then every instance adds its conductance *g (uS) and current *i
 * (nA), the ion currents summed afresh. */
HB_FN void HB_KERNEL(hb_mech_row)(const hb_long row, const hb_long nrows, const real v,
                                  const real dt, const hb_int advance, const hb_long step,
                                  HB_MECH_ARGS, real *g, real *i)
{
    const hb_long q0 = iptr[row], q1 = iptr[row + 1];
    if (advance) {
        HB_KERNEL(hb_mech_row_nernst)(row, nrows, ion, ionk);
        for (hb_long q = q0; q < q1; ++q) {
            const hb_int m = imech[q];
            HB_KERNEL(hb_cat_state)(m, iidx[q], mtab[3 * m], mprm + mtab[3 * m + 1],
                                    mst + mtab[3 * m + 2], v, dt, celsius, ion, nrows, row);
        }
    }
    for (hb_long q = q0; q < q1; ++q) {
        const hb_long e1 = evptr[q + 1];
        hb_long e = evcur[q];
        if (e < e1 && evstep[e] <= step) {
            const hb_int m = imech[q];
            for (; e < e1 && evstep[e] <= step; ++e)
                HB_KERNEL(hb_cat_net_receive)(m, iidx[q], mtab[3 * m], mprm + mtab[3 * m + 1],
                                              mst + mtab[3 * m + 2], evw[e]);
            evcur[q] = e;
        }
    }
    for (int x = 0; x < HB_CAT_NION; ++x)
        ion[(hb_long)(4 * x + 3) * nrows + row] = (real)0;
    real gs = (real)0, is = (real)0;
    const real sc = scale[row];
    for (hb_long q = q0; q < q1; ++q) {
        const hb_int m = imech[q];
        HB_KERNEL(hb_cat_current)(m, iidx[q], mtab[3 * m], mprm + mtab[3 * m + 1],
                                  mst + mtab[3 * m + 2], v, celsius, ion, nrows, row, sc, &gs,
                                  &is);
    }
    *g = gs;
    *i = is;
}

#endif
