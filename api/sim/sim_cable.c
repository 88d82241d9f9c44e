/* sim_cable.c: specific capacitance by region (hb_sim_set_cm): C/dt and the diagonal rebuilt from the cells' axial conductances. */
#include "sim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* C/dt and the diagonal of rows [r0, r1) (whole cells) with capacitance cm,
 * in the order hb_morph_cell_cdt and hb_morph_cell_matrix add their terms,
 * so that the result is the one a cell built with that cm gives, bit for bit. */
static void rebuild(const hb_sim *sim, const double *cm, int64_t r0, int64_t r1, double *cdt,
                    double *d0)
{
    const double dt = sim->prm.dt;
    const double *area = sim->model.area;
    for (int64_t k = r0; k < r1; ++k) {
        cdt[k] = isinf(dt) ? 0.0 : 1e-5 * cm[k] * area[k] / dt;
        d0[k] = cdt[k] + sim->gax[k]; /* gm is 0 in a simulation's cells */
    }
    for (int64_t c = 0; c < sim->ncells; ++c) {
        const int64_t o = sim->offsets[c];
        if (sim->offsets[c + 1] <= r0 || o >= r1)
            continue;
        for (int64_t k = o + 1; k < sim->offsets[c + 1]; ++k)
            d0[o + sim->lparent[k]] += sim->gax[k];
    }
}

static hb_status set_cm(hb_sim *sim, const hb_sim_region *w, double cm)
{
    const char *fn = "hb_sim_set_cm";
    HB_FORWARD(hb__sim_check_open(sim, fn));
    if (!isfinite(cm) || cm < 0)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: cm = %g uF/cm^2 (must be finite, >= 0)",
                         fn, cm);
    HB_FORWARD(hb__sim_check_region(sim, w, fn));
    const int64_t R = sim->nrows;
    int64_t r0, r1;
    hb__sim_region_rows(sim, w, &r0, &r1);
    int64_t hit = 0;
    for (int64_t k = r0; k < r1; ++k)
        hit += hb__sim_in_region(sim, w, k);
    if (!hit)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: no compartment in where", fn);
    /* New tables first; the simulation changes only once all of them exist. */
    double *cmn = hb__malloc_n(R, sizeof *cmn), *cdt = hb__malloc_n(R, sizeof *cdt),
           *d0 = hb__malloc_n(R, sizeof *d0);
    hb_buffer *bc = NULL, *bd = NULL;
    hb_status st = HB_SUCCESS;
    if (!cmn || !cdt || !d0)
        st = hb__error(HB_ERR_OUT_OF_MEMORY, "%s: tables of %lld rows", fn, (long long)R);
    if (st == HB_SUCCESS) {
        memcpy(cmn, sim->cm, (size_t)R * sizeof *cmn);
        for (int64_t k = r0; k < r1; ++k)
            if (hb__sim_in_region(sim, w, k))
                cmn[k] = cm;
        rebuild(sim, cmn, 0, R, cdt, d0);
        if (!(st = hb__sim_alloc_real(sim, &bc, R, cdt)))
            st = hb__sim_alloc_real(sim, &bd, R, d0);
    }
    hb_context *ctx = sim->ctx;
    if (st == HB_SUCCESS) {
        ctx->ops->release(ctx, sim->dev.cdt);
        ctx->ops->release(ctx, sim->dev.d0);
        sim->dev.cdt = bc, sim->dev.d0 = bd;
        free(sim->cm);
        sim->cm = cmn, cmn = NULL;
    } else {
        if (bc)
            ctx->ops->release(ctx, bc);
        if (bd)
            ctx->ops->release(ctx, bd);
    }
    free(cmn), free(cdt), free(d0);
    return st;
}

hb_status hb_sim_set_cm(hb_sim *sim, const hb_sim_region *where, double cm)
{
    HB_SIM_GUARDED(sim, "hb_sim_set_cm", set_cm(sim, where, cm));
}
