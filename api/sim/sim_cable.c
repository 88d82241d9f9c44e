/* sim_cable.c: the cable's tables: each row's axial neighbours (the right-hand side of the step for dv) and specific capacitance by region (hb_sim_set_cm: the diagonal rebuilt from C/dt and the cells' axial conductances). */
#include "sim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Each row's axial neighbours, for the step's right-hand side
 * -I_k + sum_j g_kj (v_j - v_k) (hb_sim_dev.nbptr): its parent first, then
 * its children in row order; offsets relative to the row (int32: within a
 * cell), conductances in the simulation's precision. Why the step solves for
 * dv and not for v: the axial currents are then computed from voltage
 * differences, and the solve's rounding is relative to dv; solving for v
 * directly sums terms (C/dt + g) v and g_axial v whose rounding is relative
 * to |v| (~70 mV) while a step moves v by micro- to millivolts: in float it
 * moved the L5PC's fifth spike by 0.24 ms (0.03 ms for dv). */
hb_status hb__sim_axial_tables(hb_sim *sim)
{
    const int64_t R = sim->nrows;
    int64_t n = 0;
    int64_t *ptr = hb__malloc_n(R + 1, sizeof *ptr);
    int32_t *off = NULL;
    double *g = NULL;
    hb_status st = HB_SUCCESS;
    if (!ptr)
        return hb__error(HB_ERR_OUT_OF_MEMORY, "hb_sim_create: axial tables of %lld rows",
                         (long long)R);
    /* Counts: one parent per non-root row, one child entry at its parent. */
    for (int64_t k = 0; k <= R; ++k)
        ptr[k] = 0;
    for (int64_t c = 0; c < sim->ncells; ++c)
        for (int64_t k = sim->offsets[c] + 1; k < sim->offsets[c + 1]; ++k) {
            ++ptr[k + 1];
            ++ptr[sim->offsets[c] + sim->lparent[k] + 1];
        }
    for (int64_t k = 0; k < R; ++k)
        ptr[k + 1] += ptr[k];
    n = ptr[R];
    off = hb__malloc_n(n > 0 ? n : 1, sizeof *off);
    g = hb__malloc_n(n > 0 ? n : 1, sizeof *g);
    int64_t *fill = hb__malloc_n(R > 0 ? R : 1, sizeof *fill);
    if (!off || !g || !fill)
        st = hb__error(HB_ERR_OUT_OF_MEMORY, "hb_sim_create: axial tables of %lld entries",
                       (long long)n);
    if (st == HB_SUCCESS) {
        for (int64_t k = 0; k < R; ++k)
            fill[k] = ptr[k];
        /* Parents first: every row's parent entry before any child entry
         * (children come later in row order, and a parent's row is before
         * its children's). */
        for (int64_t c = 0; c < sim->ncells; ++c) {
            const int64_t o = sim->offsets[c];
            for (int64_t k = o + 1; k < sim->offsets[c + 1]; ++k) {
                const int64_t p = o + sim->lparent[k];
                off[fill[k]] = (int32_t)(p - k), g[fill[k]++] = sim->gax[k];
                off[fill[p]] = (int32_t)(k - p), g[fill[p]++] = sim->gax[k];
            }
        }
        hb_sim_dev *d = &sim->dev;
        if (!(st = hb__sim_alloc(sim, &d->nbptr, sizeof(int64_t), R + 1, ptr)) &&
            !(st = hb__sim_alloc(sim, &d->nboff, sizeof(int32_t), n, off)))
            st = hb__sim_alloc_real(sim, &d->nbg, n, g);
    }
    free(ptr), free(off), free(g), free(fill);
    return st;
}

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

/* sim->dev.cdt from sim->cm (hb_sim_create; the on-chip epoch's step for
 * v, HB_EPOCH_STAGE_VX), the buffer replaced only once the new one holds;
 * none on a backend without the on-chip engine. */
hb_status hb__sim_cdt_table(hb_sim *sim)
{
    if (!sim->ops->epoch)
        return HB_SUCCESS;
    const int64_t R = sim->nrows;
    double *cdt = hb__malloc_n(R > 0 ? R : 1, sizeof *cdt),
           *d0 = hb__malloc_n(R > 0 ? R : 1, sizeof *d0);
    hb_buffer *b = NULL;
    hb_status st = HB_SUCCESS;
    if (!cdt || !d0)
        st = hb__error(HB_ERR_OUT_OF_MEMORY, "hb_sim_create: C/dt of %lld rows", (long long)R);
    else {
        rebuild(sim, sim->cm, 0, R, cdt, d0);
        st = hb__sim_alloc_real(sim, &b, R, cdt);
    }
    if (st == HB_SUCCESS) {
        if (sim->dev.cdt)
            sim->ctx->ops->release(sim->ctx, sim->dev.cdt);
        sim->dev.cdt = b;
    }
    free(cdt), free(d0);
    return st;
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
    hb_buffer *bd = NULL, *bc = NULL;
    hb_status st = HB_SUCCESS;
    if (!cmn || !cdt || !d0)
        st = hb__error(HB_ERR_OUT_OF_MEMORY, "%s: tables of %lld rows", fn, (long long)R);
    if (st == HB_SUCCESS) {
        memcpy(cmn, sim->cm, (size_t)R * sizeof *cmn);
        for (int64_t k = r0; k < r1; ++k)
            if (hb__sim_in_region(sim, w, k))
                cmn[k] = cm;
        rebuild(sim, cmn, 0, R, cdt, d0);
        st = hb__sim_alloc_real(sim, &bd, R, d0);
    }
    if (st == HB_SUCCESS && sim->ops->epoch &&
        (st = hb__sim_alloc_real(sim, &bc, R, cdt)) != HB_SUCCESS) {
        sim->ctx->ops->release(sim->ctx, bd);
        bd = NULL;
    }
    if (st == HB_SUCCESS) {
        /* The step for dv needs only the diagonal (C/dt is in it); the
         * on-chip step for v, C/dt too. */
        sim->ctx->ops->release(sim->ctx, sim->dev.d0);
        sim->dev.d0 = bd;
        if (bc) {
            if (sim->dev.cdt)
                sim->ctx->ops->release(sim->ctx, sim->dev.cdt);
            sim->dev.cdt = bc;
        }
        free(sim->cm);
        sim->cm = cmn, cmn = NULL;
    }
    free(cmn), free(cdt), free(d0);
    return st;
}

hb_status hb_sim_set_cm(hb_sim *sim, const hb_sim_region *where, double cm)
{
    HB_SIM_GUARDED(sim, "hb_sim_set_cm", set_cm(sim, where, cm));
}
