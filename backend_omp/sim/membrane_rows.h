/* membrane_rows.h: the simulation's per-row and per-cell operations on the host, shared by the per-step loops (membrane.c) and the fused per-cell loop (cells.c). */
#ifndef HB_MEMBRANE_ROWS_H
#define HB_MEMBRANE_ROWS_H

#include "cl_host.h"
#include "hb_sim_ops.h"
#include "host_backend.h"
#include "sim/hb_axial.cl"

#include <math.h>

/* Same operations, in the same order, as kernels_cl/sim/membrane.cl and
 * epoch.cl (the mechanisms are the same text: cl_host.h compiles
 * kernels_cl/sim/hb_mech_passes.cl and the host's passes over it,
 * mech_passes_host.h); T is the precision. Written once so that the
 * per-step loops and the fused loop do bit for bit the same arithmetic per
 * row. */
#define HB_HOST_V_AT(dk) v[k + (dk)]
#define HB_DEFINE_MEMBRANE_ROWS(T, S)                                                      \
    /* Clamped row j: the clamps on at this step, summed in their fixed order. */          \
    static inline T clamp_sum_##S(const hb_sim_dev *sd, int64_t j, int64_t step)           \
    {                                                                                      \
        const int64_t *cptr = HB_I64(sd->cptr);                                            \
        const int64_t *con = HB_I64(sd->con), *coff = HB_I64(sd->coff);                    \
        const T *camp = sd->camp->ptr;                                                     \
        T s = (T)0;                                                                        \
        for (int64_t c = cptr[j]; c < cptr[j + 1]; ++c)                                    \
            if (step >= con[c] && step < coff[c])                                          \
                s = s + camp[c];                                                           \
        return s;                                                                          \
    }                                                                                      \
    static inline void clamp_row_##S(const hb_sim_dev *sd, int64_t j, int64_t step)        \
    {                                                                                      \
        const int64_t *crow = HB_I64(sd->crow);                                            \
        T *imem = sd->imem->ptr;                                                           \
        imem[crow[j]] = imem[crow[j]] - clamp_sum_##S(sd, j, step);                        \
    }                                                                                      \
    /* Row k's matrix entries from its conductance g and current i: the step for dv     \
     * (hb_sim_assemble in kernels_cl/sim/membrane.cl). */                                 \
    static inline void assemble_gi_##S(const hb_sim_dev *sd, int64_t k, T g, T i, T *dk,   \
                                       T *rk)                                              \
    {                                                                                      \
        const T *v = sd->v->ptr, *d0 = sd->d0->ptr, *nbg = sd->nbg->ptr;                   \
        const int64_t *nbptr = HB_I64(sd->nbptr);                                          \
        const int32_t *nboff = (const int32_t *)sd->nboff->ptr;                            \
        T ax;                                                                              \
        HB_SIM_AXIAL(ax, nbptr, nboff, nbg, k, HB_HOST_V_AT);                              \
        *dk = d0[k] + g;                                                                   \
        *rk = ax - i;                                                                      \
    }                                                                                      \
    /* The fused loop's assembly of rows k0 .. k1 - 1 of a cell after its mechanism passes \
     * (hb_host_mech_pass_serial): the clamped rows from *jj on (below j1; crow sorted, one \
     * per row), then each row's entries; row k's go to d[(k - k0) * ds], r likewise. */  \
    static inline void mem_rows_##S(const hb_sim_dev *sd, int64_t step, int64_t k0,        \
                                    int64_t k1, int64_t *jj, int64_t j1, T *d, T *r,       \
                                    int64_t ds)                                            \
    {                                                                                      \
        const int64_t *crow = HB_I64(sd->crow);                                            \
        const T *gmem = sd->gmem->ptr, *imem = sd->imem->ptr;                              \
        int64_t j = *jj;                                                                   \
        for (int64_t k = k0; k < k1; ++k) {                                                \
            T g = gmem[k], i = imem[k];                                                    \
            if (j < j1 && crow[j] == k)                                                    \
                i = i - clamp_sum_##S(sd, j++, step);                                      \
            assemble_gi_##S(sd, k, g, i, &d[(k - k0) * ds], &r[(k - k0) * ds]);            \
        }                                                                                  \
        *jj = j;                                                                           \
    }                                                                                      \
    /* The fused loop's pass over cell c (rows r0 .. r1 - 1, clamped rows j0 .. j1 - 1): the \
     * mechanism passes and assembly. */                                                   \
    static inline void mem_assemble_##S(const hb_sim_dev *sd, int64_t step,                \
                                        int64_t c, int64_t r0, int64_t r1, int64_t j0,     \
                                        int64_t j1, T *d, T *r, int64_t ds)                \
    {                                                                                      \
        hb_host_mech_pass_serial_##S(sd, step, c, c + 1, r0, r1, 0);                       \
        mem_rows_##S(sd, step, r0, r1, &j0, j1, d, r, ds);                                 \
    }                                                                                      \
    /* Row k's diagonal and right-hand side at its place in the plan's d and rhs. */      \
    static inline void assemble_row_##S(const hb_sim_dev *sd, T *d, T *rhs, int64_t k)     \
    {                                                                                      \
        const int64_t p = HB_I64(sd->pos)[k];                                              \
        const T *gmem = sd->gmem->ptr, *imem = sd->imem->ptr;                              \
        assemble_gi_##S(sd, k, gmem[k], imem[k], &d[p], &rhs[p]);                          \
    }                                                                                      \
    /* Cell c after its voltages moved: an upward threshold crossing of the soma           \
     * (time t0 + dt * fraction), and its recorded soma voltage into row rec_row. */       \
    static inline void spike_cell_##S(const hb_sim_dev *sd, int64_t c, T t0, int64_t rec_row) \
    {                                                                                      \
        const int64_t *soma = HB_I64(sd->soma), *recslot = HB_I64(sd->recslot);            \
        int64_t *nspk = (int64_t *)sd->nspk->ptr;                                          \
        const T *v = sd->v->ptr;                                                           \
        T *vprev = sd->vprev->ptr, *tspk = sd->tspk->ptr, *rec = sd->rec->ptr;             \
        const T thr = (T)sd->threshold, dt = (T)sd->dt;                                    \
        const int64_t maxs = sd->max_spikes, nrec = sd->nrec;                              \
        const T vn = v[soma[c]], vp = vprev[c];                                            \
        if (vp < thr && vn >= thr) {                                                       \
            const int64_t cnt = nspk[c];                                                   \
            const T ts = t0 + dt * ((thr - vp) / (vn - vp));                               \
            tspk[c * maxs + cnt % maxs] = ts;                                              \
            nspk[c] = cnt + 1;                                                             \
            /* The list of new spikes, as hb_spike_push (hb_mech_passes.cl). */            \
            int64_t *sl = (int64_t *)sd->slist->ptr;                                       \
            const int32_t k = __atomic_fetch_add((int32_t *)sl, 1, __ATOMIC_RELAXED);      \
            if (k >= 0 && k < sl[1]) {                                                     \
                sl[2 + k] = c;                                                             \
                ((T *)sd->stime->ptr)[k] = ts;                                             \
            }                                                                              \
        }                                                                                  \
        vprev[c] = vn;                                                                     \
        const int64_t r = recslot[c];                                                      \
        if (r >= 0)                                                                        \
            rec[rec_row * nrec + r] = vn;                                                  \
    }                                                                                      \
    /* Probes q0 .. q1 - 1 (after the states: the end of the step) into row rec_row. */    \
    static inline void probes_##S(const hb_sim_dev *sd, int64_t q0, int64_t q1,            \
                                  int64_t rec_row)                                         \
    {                                                                                      \
        const int64_t *pr = HB_I64(sd->probe);                                             \
        const T *v = sd->v->ptr;                                                           \
        T *rec = sd->rec->ptr;                                                             \
        for (int64_t q = q0; q < q1; ++q) {                                                \
            const int64_t *pq = pr + 4 * q;                                                \
            rec[rec_row * sd->nrec + pq[3]] = hb_probe_value_##S(                          \
                pq[0], pq[1], v[pq[2]], sd->nrows, (const T *)sd->mprm->ptr,               \
                (const T *)sd->mst->ptr, (const T *)sd->ion->ptr, (const T *)sd->ionk->ptr); \
        }                                                                                  \
    }

/* The fused per-cell loop (cells.c), the OpenMP backend's step_cells. */
hb_status hb__host_sim_cells(hb_context *ctx, hb_precision p, const hb_sim_dev *sim,
                             hb_sim_cells *job);

HB_DEFINE_MEMBRANE_ROWS(double, d)
HB_DEFINE_MEMBRANE_ROWS(float, s)

#endif
