/* membrane.cu: simulation kernels on the GPU (membrane currents, clamps, assembly, voltage update, spikes), compiled from kernels_cl/membrane.cl in both precisions. */
#include "cuda_backend.h"

#include "cl_compat.cuh"

#define HB_CL_FILE "membrane.cl"
#include "cl_both_precisions.cuh"

#define HB_SIM_THREADS 256

/* An array that may be absent (no clamps, no recorded cells): NULL, which the
 * kernels then never touch. */
template <typename T> static T *arr(const hb_buffer *b) { return b ? (T *)b->ptr : (T *)0; }
static const long long *i64(const hb_buffer *b) { return b ? hb__cuda_i64(b) : 0; }
static long long *i64w(const hb_buffer *b) { return b ? (long long *)b->ptr : 0; }

/* One overload set per precision, so the launchers below are written once. */
#define HB_SIM_LAUNCHERS(T, NS, S)                                                            \
    static void membrane(cudaStream_t s, unsigned g, const hb_sim_dev *m, int adv)            \
    {                                                                                         \
        NS::hb_sim_membrane##S<<<g, HB_SIM_THREADS, 0, s>>>(                                  \
            m->nrows, adv, (T)m->dt, (T)m->q10, (T)m->ena, (T)m->ek, (T)m->el,               \
            arr<const T>(m->v), arr<T>(m->m), arr<T>(m->h), arr<T>(m->n), arr<const T>(m->gna), \
            arr<const T>(m->gk), arr<const T>(m->gl), arr<T>(m->gmem), arr<T>(m->imem));      \
    }                                                                                         \
    static void clamp(cudaStream_t s, unsigned g, const hb_sim_dev *m, long long step, T *)   \
    {                                                                                         \
        NS::hb_sim_clamp##S<<<g, HB_SIM_THREADS, 0, s>>>(                                     \
            m->nclamp_rows, step, i64(m->crow), i64(m->cptr), i64(m->con), i64(m->coff),      \
            arr<const T>(m->camp), arr<T>(m->imem));                                          \
    }                                                                                         \
    static void assemble(cudaStream_t s, unsigned g, const hb_sim_dev *m, T *d, T *rhs)       \
    {                                                                                         \
        NS::hb_sim_assemble##S<<<g, HB_SIM_THREADS, 0, s>>>(                                  \
            m->nrows, i64(m->pos), arr<const T>(m->v), arr<const T>(m->cdt),                  \
            arr<const T>(m->d0), arr<const T>(m->gmem), arr<const T>(m->imem), d, rhs);       \
    }                                                                                         \
    static void update_v(cudaStream_t s, unsigned g, const hb_sim_dev *m, const T *x)         \
    {                                                                                         \
        NS::hb_sim_update_v##S<<<g, HB_SIM_THREADS, 0, s>>>(m->nrows, i64(m->pos), x,          \
                                                          arr<T>(m->v));                      \
    }                                                                                         \
    static void soma(cudaStream_t s, unsigned g, const hb_sim_dev *m, double t0,              \
                     long long row, T *)                                                      \
    {                                                                                         \
        NS::hb_sim_soma##S<<<g, HB_SIM_THREADS, 0, s>>>(                                      \
            m->ncells, m->max_spikes, (T)m->threshold, (T)t0, (T)m->dt, row, m->nrec,         \
            i64(m->soma), arr<T>(m->vprev), i64w(m->nspk), arr<T>(m->tspk), i64(m->recslot),  \
            arr<const T>(m->v), arr<T>(m->rec));                                              \
    }

namespace hb_sim_d { HB_SIM_LAUNCHERS(double, hb_cl_d, _d) }
namespace hb_sim_s { HB_SIM_LAUNCHERS(float, hb_cl_s, _s) }

hb_status hb__cuda_sim_membrane(hb_context *ctx, void *stream, hb_precision p,
                                const hb_sim_dev *sim, int advance, int64_t step)
{
    HB_FORWARD(hb__cuda_use(ctx));
    cudaStream_t s = hb__cuda_stream(ctx, stream);
    const int dbl = p == HB_DOUBLE;
    if (sim->nrows > 0) {
        const unsigned g = hb__cuda_blocks(sim->nrows, HB_SIM_THREADS);
        if (dbl)
            hb_sim_d::membrane(s, g, sim, advance != 0);
        else
            hb_sim_s::membrane(s, g, sim, advance != 0);
        HB_FORWARD(hb__cuda_launched(dbl ? "hb_sim_membrane_d" : "hb_sim_membrane_s", sim->nrows));
    }
    if (sim->nclamp_rows <= 0)
        return HB_SUCCESS;
    const unsigned g = hb__cuda_blocks(sim->nclamp_rows, HB_SIM_THREADS);
    if (dbl)
        hb_sim_d::clamp(s, g, sim, step, (double *)0);
    else
        hb_sim_s::clamp(s, g, sim, step, (float *)0);
    return hb__cuda_launched(dbl ? "hb_sim_clamp_d" : "hb_sim_clamp_s", sim->nclamp_rows);
}

hb_status hb__cuda_sim_assemble(hb_context *ctx, void *stream, hb_precision p,
                                const hb_sim_dev *sim, hb_buffer *d, hb_buffer *rhs)
{
    HB_FORWARD(hb__cuda_use(ctx));
    if (sim->nrows <= 0)
        return HB_SUCCESS;
    cudaStream_t s = hb__cuda_stream(ctx, stream);
    const unsigned g = hb__cuda_blocks(sim->nrows, HB_SIM_THREADS);
    if (p == HB_DOUBLE)
        hb_sim_d::assemble(s, g, sim, (double *)d->ptr, (double *)rhs->ptr);
    else
        hb_sim_s::assemble(s, g, sim, (float *)d->ptr, (float *)rhs->ptr);
    return hb__cuda_launched(p == HB_DOUBLE ? "hb_sim_assemble_d" : "hb_sim_assemble_s",
                             sim->nrows);
}

hb_status hb__cuda_sim_update(hb_context *ctx, void *stream, hb_precision p,
                              const hb_sim_dev *sim, hb_buffer *x, double t0, int64_t rec_row)
{
    HB_FORWARD(hb__cuda_use(ctx));
    cudaStream_t s = hb__cuda_stream(ctx, stream);
    const int dbl = p == HB_DOUBLE;
    if (sim->nrows > 0) {
        const unsigned g = hb__cuda_blocks(sim->nrows, HB_SIM_THREADS);
        if (dbl)
            hb_sim_d::update_v(s, g, sim, (const double *)x->ptr);
        else
            hb_sim_s::update_v(s, g, sim, (const float *)x->ptr);
        HB_FORWARD(hb__cuda_launched(dbl ? "hb_sim_update_v_d" : "hb_sim_update_v_s", sim->nrows));
    }
    if (sim->ncells <= 0)
        return HB_SUCCESS;
    const unsigned g = hb__cuda_blocks(sim->ncells, HB_SIM_THREADS);
    if (dbl)
        hb_sim_d::soma(s, g, sim, t0, rec_row, (double *)0);
    else
        hb_sim_s::soma(s, g, sim, t0, rec_row, (float *)0);
    return hb__cuda_launched(dbl ? "hb_sim_soma_d" : "hb_sim_soma_s", sim->ncells);
}
