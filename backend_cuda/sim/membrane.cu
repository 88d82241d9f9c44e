/* membrane.cu: the simulation engine's steps on the GPU (membrane currents, clamps, assembly, voltage update, spikes, probes), launchers of kernels_cl/sim/membrane.cl. */
#include "cuda_backend.h"
#include "hb_sim_ops.h"
#include "sim_args.cuh"

#include "cl_compat.cuh"

#define HB_CL_FILE "sim/membrane.cl"
#include "cl_both_precisions.cuh"

#define HB_SIM_THREADS 256

static unsigned grid(int64_t n) { return hb__cuda_blocks(n, HB_SIM_THREADS); }

/* Per instance of each mechanism in catalogue order (INITIAL may read
 * what an earlier mechanism wrote: a concentration). */
static hb_status cuda_mech_init(hb_context *ctx, void *stream, hb_precision p,
                                const hb_sim_dev *m)
{
    HB_FORWARD(hb__cuda_use(ctx));
    cudaStream_t s = hb__cuda_stream(ctx, stream);
    for (int k = 0; k < (int)m->nmech; ++k) {
        const int64_t n = m->mtab_host[5 * k];
        if (n > 0)
            HB_FORWARD(HB_CUDA_LAUNCH(p, hb_sim_mech_init, n, grid(n), HB_SIM_THREADS, 0, s, k,
                                      m->nrows, hb__dev(m->v), HB_CUDA_MECH_ARGS(m)));
    }
    return HB_SUCCESS;
}

/* The states of every mechanism over step `step` at the new v, at the time
 * it ends: one launch per density mechanism with states, then the rows'
 * point processes. */
static hb_status cuda_mech_state(hb_context *ctx, void *stream, hb_precision p,
                                 const hb_sim_dev *m, int64_t step)
{
    const double t = (double)(step + 1) * m->dt;
    HB_FORWARD(hb__cuda_use(ctx));
    cudaStream_t s = hb__cuda_stream(ctx, stream);
    for (int k = 0; k < (int)m->nmech; ++k) {
        const int64_t n = m->mtab_host[5 * k], fl = m->mtab_host[5 * k + 4];
        if (!(fl & 1) && (fl & 2) && n > 0)
            HB_FORWARD(HB_CUDA_LAUNCH(p, hb_sim_mech_state, n, grid(n), HB_SIM_THREADS, 0, s, k,
                                      m->nrows, hb__real(m->dt), hb__real(t), hb__dev(m->v),
                                      HB_CUDA_MECH_ARGS(m)));
    }
    if (m->npoints == 0 || m->nrows <= 0)
        return HB_SUCCESS;
    return HB_CUDA_LAUNCH(p, hb_sim_mech_points_advance, m->nrows, grid(m->nrows),
                          HB_SIM_THREADS, 0, s, m->nrows, hb__real(m->dt), hb__real(t),
                          hb__dev(m->v), HB_CUDA_MECH_ARGS(m));
}

/* The membrane passes of membrane.cl, then the clamps. */
static hb_status cuda_membrane(hb_context *ctx, void *stream, hb_precision p,
                               const hb_sim_dev *m, int64_t step)
{
    /* The currents at the step's middle (NEURON's nrn_cur; t = 0 at step -1). */
    const double t = hb__sim_current_time(step, m->dt);
    HB_FORWARD(hb__cuda_use(ctx));
    cudaStream_t s = hb__cuda_stream(ctx, stream);
    if (m->nrows > 0)
        HB_FORWARD(HB_CUDA_LAUNCH(p, hb_sim_mech_rows_pre, m->nrows, grid(m->nrows),
                                  HB_SIM_THREADS, 0, s, m->nrows, (long long)step,
                                  hb__real(m->dt), HB_CUDA_MECH_ARGS(m), hb__dev(m->gmem),
                                  hb__dev(m->imem)));
    for (int k = 0; k < (int)m->nmech; ++k) {
        const int64_t n = m->mtab_host[5 * k];
        if (!(m->mtab_host[5 * k + 4] & 1) && n > 0)
            HB_FORWARD(HB_CUDA_LAUNCH(p, hb_sim_mech_current, n, grid(n), HB_SIM_THREADS, 0, s, k,
                                      m->nrows, hb__real(t), hb__dev(m->v), HB_CUDA_MECH_ARGS(m),
                                      hb__dev(m->gmem), hb__dev(m->imem)));
    }
    if (m->npoints > 0 && m->nrows > 0)
        HB_FORWARD(HB_CUDA_LAUNCH(p, hb_sim_mech_rows_post, m->nrows, grid(m->nrows),
                                  HB_SIM_THREADS, 0, s, m->nrows, hb__real(t), hb__dev(m->v),
                                  HB_CUDA_MECH_ARGS(m), hb__dev(m->gmem), hb__dev(m->imem)));
    if (m->nclamp_rows <= 0)
        return HB_SUCCESS;
    return HB_CUDA_LAUNCH(p, hb_sim_clamp, m->nclamp_rows, grid(m->nclamp_rows), HB_SIM_THREADS,
                          0, s, m->nclamp_rows, step, hb__dev(m->crow), hb__dev(m->cptr),
                          hb__dev(m->con), hb__dev(m->coff), hb__dev(m->camp), hb__dev(m->imem));
}

static hb_status cuda_assemble(hb_context *ctx, void *stream, hb_precision p,
                               const hb_sim_dev *m, hb_buffer *d, hb_buffer *rhs)
{
    HB_FORWARD(hb__cuda_use(ctx));
    if (m->nrows <= 0)
        return HB_SUCCESS;
    return HB_CUDA_LAUNCH(p, hb_sim_assemble, m->nrows, grid(m->nrows), HB_SIM_THREADS, 0,
                          hb__cuda_stream(ctx, stream), m->nrows, hb__dev(m->pos), hb__dev(m->v),
                          hb__dev(m->d0), hb__dev(m->gmem), hb__dev(m->imem),
                          hb__dev(m->nbptr), hb__dev(m->nboff), hb__dev(m->nbg), hb__dev(d),
                          hb__dev(rhs));
}

static hb_status cuda_update(hb_context *ctx, void *stream, hb_precision p, const hb_sim_dev *m,
                             hb_buffer *x, double t0, int64_t rec_row)
{
    HB_FORWARD(hb__cuda_use(ctx));
    cudaStream_t s = hb__cuda_stream(ctx, stream);
    if (m->nrows > 0)
        HB_FORWARD(HB_CUDA_LAUNCH(p, hb_sim_update_v, m->nrows, grid(m->nrows), HB_SIM_THREADS, 0,
                                  s, m->nrows, hb__dev(m->pos), hb__dev(x), hb__dev(m->v)));
    if (m->ncells <= 0)
        return HB_SUCCESS;
    return HB_CUDA_LAUNCH(p, hb_sim_soma, m->ncells, grid(m->ncells), HB_SIM_THREADS, 0, s,
                          m->ncells, m->max_spikes, hb__real(m->threshold), hb__real(t0),
                          hb__real(m->dt), rec_row, m->nrec, hb__dev(m->soma), hb__dev(m->vprev),
                          hb__dev(m->nspk), hb__dev(m->tspk), hb__dev(m->recslot),
                          hb__dev(m->v), hb__dev(m->rec), hb__dev(m->slist), hb__dev(m->stime));
}

/* One thread per probe: its value at the end of the step into row rec_row. */
static hb_status cuda_probe(hb_context *ctx, void *stream, hb_precision p, const hb_sim_dev *m,
                            int64_t rec_row)
{
    HB_FORWARD(hb__cuda_use(ctx));
    if (m->nprobe <= 0)
        return HB_SUCCESS;
    return HB_CUDA_LAUNCH(p, hb_sim_probe, m->nprobe, grid(m->nprobe), HB_SIM_THREADS, 0,
                          hb__cuda_stream(ctx, stream), m->nprobe, m->nrows, hb__dev(m->probe),
                          hb__dev(m->v), hb__dev(m->mprm), hb__dev(m->mst), hb__dev(m->ion),
                          hb__dev(m->ionk), rec_row, m->nrec, hb__dev(m->rec));
}

/* The on-chip engine (epoch.cu). */
hb_status hb__cuda_epoch(hb_context *ctx, void *stream, hb_precision p, const hb_sim_dev *m,
                         const hb_sim_epoch *job);
hb_status hb__cuda_epoch_group_limit(hb_context *ctx, hb_precision p, int64_t *max_items);
hb_status hb__cuda_epoch_resident(hb_context *ctx, hb_precision p, int stage, int64_t group,
                                  size_t bytes, int64_t *per_unit);

static const hb_sim_ops cuda_sim_ops = {cuda_mech_init, cuda_mech_state, cuda_membrane, cuda_assemble, cuda_update, NULL,
                                        hb__cuda_epoch, hb__cuda_epoch_group_limit, cuda_probe,
                                        hb__cuda_epoch_resident};
const hb_sim_ops *hb__cuda_sim_ops(void) { return &cuda_sim_ops; }
