/* membrane.c: simulation kernels on the host (serial / OpenMP): mechanisms, clamps, assembly, voltage update, spikes, recording and probes. */
#include "membrane_rows.h"

/* One parallel loop per stage over all rows or cells (the per-step path; the
 * OpenMP backend runs the fused per-cell loop of cells.c instead). */
#define HB_DEFINE_MEMBRANE(T, S)                                                           \
    static void mech_init_##S(const hb_sim_dev *sd, int par)                               \
    {                                                                                      \
        hb_host_mech_init_##S(sd, par);                                                    \
    }                                                                                      \
    static void mech_state_##S(const hb_sim_dev *sd, int64_t step, int par)                \
    {                                                                                      \
        hb_host_mech_advance_##S(sd, step, 0, sd->ncells, 0, sd->nrows, par);              \
    }                                                                                      \
    static void membrane_##S(const hb_sim_dev *sd, int64_t step, int par)                  \
    {                                                                                      \
        (void)par;                                                                         \
        hb_host_mech_pass_##S(sd, step, 0, sd->ncells, 0, sd->nrows, par);                 \
        _Pragma("omp parallel for schedule(static) if (par)")                             \
        for (int64_t j = 0; j < sd->nclamp_rows; ++j)                                      \
            clamp_row_##S(sd, j, step);                                                    \
    }                                                                                      \
    static void assemble_##S(const hb_sim_dev *sd, T *d, T *rhs, int par)                  \
    {                                                                                      \
        (void)par;                                                                         \
        _Pragma("omp parallel for schedule(static) if (par)")                             \
        for (int64_t k = 0; k < sd->nrows; ++k)                                            \
            assemble_row_##S(sd, d, rhs, k);                                               \
    }                                                                                      \
    static void update_##S(const hb_sim_dev *sd, const T *x, T t0, int64_t rec_row, int par) \
    {                                                                                      \
        const int64_t *pos = HB_I64(sd->pos);                                              \
        T *v = sd->v->ptr;                                                                 \
        (void)par;                                                                         \
        _Pragma("omp parallel for schedule(static) if (par)")                             \
        for (int64_t k = 0; k < sd->nrows; ++k)                                            \
            v[k] = v[k] + x[pos[k]];                                                       \
        _Pragma("omp parallel for schedule(static) if (par)")                             \
        for (int64_t c = 0; c < sd->ncells; ++c)                                           \
            spike_cell_##S(sd, c, t0, rec_row);                                            \
    }                                                                                      \
    static void probe_##S(const hb_sim_dev *sd, int64_t rec_row, int par)                  \
    {                                                                                      \
        (void)par;                                                                         \
        probes_##S(sd, 0, sd->nprobe, rec_row);                                            \
    }

HB_DEFINE_MEMBRANE(double, d)
HB_DEFINE_MEMBRANE(float, s)

static hb_status host_mech_init(hb_context *ctx, void *stream, hb_precision p,
                               const hb_sim_dev *sim)
{
    (void)stream;
    HB_HOST_RUN(p, mech_init, sim, hb__host_parallel(ctx));
    return HB_SUCCESS;
}

static hb_status host_mech_state(hb_context *ctx, void *stream, hb_precision p,
                                const hb_sim_dev *sim, int64_t step)
{
    (void)stream;
    HB_HOST_RUN(p, mech_state, sim, step, hb__host_parallel(ctx));
    return HB_SUCCESS;
}

static hb_status host_membrane(hb_context *ctx, void *stream, hb_precision p,
                              const hb_sim_dev *sim, int64_t step)
{
    (void)stream;
    HB_HOST_RUN(p, membrane, sim, step, hb__host_parallel(ctx));
    return HB_SUCCESS;
}

static hb_status host_assemble(hb_context *ctx, void *stream, hb_precision p,
                                const hb_sim_dev *sim, hb_buffer *d, hb_buffer *rhs)
{
    (void)stream;
    HB_HOST_RUN(p, assemble, sim, d->ptr, rhs->ptr, hb__host_parallel(ctx));
    return HB_SUCCESS;
}

static hb_status host_update(hb_context *ctx, void *stream, hb_precision p,
                              const hb_sim_dev *sim, hb_buffer *x, double t0, int64_t rec_row)
{
    (void)stream;
    HB_HOST_RUN(p, update, sim, x->ptr, t0, rec_row, hb__host_parallel(ctx));
    return HB_SUCCESS;
}

static hb_status host_probe(hb_context *ctx, void *stream, hb_precision p,
                             const hb_sim_dev *sim, int64_t rec_row)
{
    (void)stream;
    HB_HOST_RUN(p, probe, sim, rec_row, hb__host_parallel(ctx));
    return HB_SUCCESS;
}

/* The serial oracle keeps the per-step loops; OpenMP runs the fused per-cell
 * loop (cells.c), which tests/test_sim_backend.c checks bit for bit against it. */
static const hb_sim_ops serial_sim_ops = {host_mech_init, host_mech_state, host_membrane, host_assemble, host_update, NULL, NULL,
                                          NULL, host_probe, NULL};
static const hb_sim_ops openmp_sim_ops = {host_mech_init, host_mech_state, host_membrane, host_assemble, host_update,
                                          hb__host_sim_cells, NULL, NULL, host_probe, NULL};
const hb_sim_ops *hb__serial_sim_ops(void) { return &serial_sim_ops; }
const hb_sim_ops *hb__openmp_sim_ops(void) { return hb__openmp_backend() ? &openmp_sim_ops : NULL; }
