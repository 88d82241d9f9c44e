/* cells.cu: the cardiac per-cell kernels on the GPU (one thread per cell), launchers of kernels_cl/cardiac/cells.cl (the cardiac catalogue's kernels). */
#include "cuda_backend.h"
#include "hb_card_ops.h"

#include "cl_compat.cuh"

#include "hb_card_catalogue_info.h"

#define HB_CL_FILE "cardiac/cells.cl"
#include "cl_both_precisions.cuh"

/* One thread per cell, no shared memory: 128 a block keeps several blocks
 * on a multiprocessor whatever the model's registers. */
#define HB_CARD_THREADS 128

static hb_status cuda_cells(hb_context *ctx, hb_precision p, void **cache, const hb_card_job *j)
{
    (void)cache;
    HB_FORWARD(hb__cuda_use(ctx));
    cudaStream_t s = hb__cuda_stream(ctx, NULL);
    const unsigned grid = hb__cuda_blocks(j->n, HB_CARD_THREADS);
#define HB_CARD_CASE(k, name)                                                                  \
    case k:                                                                                    \
        return HB_CUDA_LAUNCH(p, hb_card_##name##_cells, j->n, grid, HB_CARD_THREADS, 0, s,     \
                              (long long)j->n, (long long)j->step0, (int)j->nsteps,            \
                              hb__real(j->dt), (long long)j->on0, (long long)j->on1,           \
                              (long long)j->on2, hb__real(j->level), hb__dev(j->state),        \
                              hb__dev(j->prm), hb__dev(j->recslot), hb__dev(j->rcol),          \
                              (int)j->nrcol, (long long)j->ncol, (long long)j->rec_every,      \
                              (long long)j->rec_row0, hb__dev(j->rec));
    switch (j->model) {
        HB_CARD_MODELS_X(HB_CARD_CASE)
    default: break;
    }
#undef HB_CARD_CASE
    return hb__error(HB_ERR_BACKEND, "cuda cardiac: model %d not in the catalogue", (int)j->model);
}

static const hb_card_ops cuda_card_ops = {cuda_cells, NULL};

extern "C" const hb_card_ops *hb__cuda_card_ops(void) { return &cuda_card_ops; }
