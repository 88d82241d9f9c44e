/* cells.c: the cardiac per-cell loop on the host: the catalogue's own run functions (card_host.h) over every cell, serial or split over OpenMP threads. */
#include "hb_card_ops.h"
#include "host_backend.h"

#include "card_host.h"
#include "hb_card_catalogue_info.h"

typedef void run_d_fn(const hb_long, const hb_long, const hb_long, const hb_int, const double,
                      const hb_long, const hb_long, const hb_long, const double, double *,
                      const double *, const hb_long *, const hb_int *, const hb_int,
                      const hb_long, const hb_long, const hb_long, double *);
typedef void run_s_fn(const hb_long, const hb_long, const hb_long, const hb_int, const float,
                      const hb_long, const hb_long, const hb_long, const float, float *,
                      const float *, const hb_long *, const hb_int *, const hb_int,
                      const hb_long, const hb_long, const hb_long, float *);

static run_d_fn *const runs_d[HB_CARD_NMODELS] = HB_CARD_RUN_LIST(_d);
static run_s_fn *const runs_s[HB_CARD_NMODELS] = HB_CARD_RUN_LIST(_s);

/* Cells are independent: any split over threads gives the serial results. */
#define HB_CARD_HOST_LOOP(T, runs)                                                           \
    do {                                                                                      \
        T *state = (T *)j->state->ptr, *rec = (T *)j->rec->ptr;                               \
        const T *prm = (const T *)j->prm->ptr;                                                \
        const hb_long *slot = (const hb_long *)j->recslot->ptr;                               \
        const hb_int *rcol = (const hb_int *)j->rcol->ptr;                                    \
        _Pragma("omp parallel for schedule(static) if (par)")                                 \
        for (int64_t i = 0; i < j->n; ++i)                                                    \
            runs[j->model](i, j->n, j->step0, j->nsteps, (T)j->dt, j->on0, j->on1, j->on2,    \
                           (T)j->level, state, prm, slot, rcol, j->nrcol, j->ncol,            \
                           j->rec_every, j->rec_row0, rec);                                   \
    } while (0)

static hb_status cells(hb_context *ctx, hb_precision p, void **cache, const hb_card_job *j)
{
    (void)cache;
    const int par = hb__host_parallel(ctx);
    (void)par;
    if (j->model < 0 || j->model >= HB_CARD_NMODELS)
        return hb__error(HB_ERR_BACKEND, "host cardiac: model %d not in the catalogue",
                         (int)j->model);
    if (p == HB_DOUBLE)
        HB_CARD_HOST_LOOP(double, runs_d);
    else
        HB_CARD_HOST_LOOP(float, runs_s);
    return HB_SUCCESS;
}

static const hb_card_ops host_card_ops = {cells, NULL};

const hb_card_ops *hb__serial_card_ops(void) { return &host_card_ops; }
const hb_card_ops *hb__openmp_card_ops(void) { return hb__openmp_backend() ? &host_card_ops : NULL; }
