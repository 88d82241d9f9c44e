/* hb_card_ops.h: the contract between the cardiac core (api/cardiac) and the backends: one launch of the per-cell loop of a catalogue model. */
#ifndef HB_CARD_OPS_H
#define HB_CARD_OPS_H

#include "hb_backend.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Steps step0 .. step0 + nsteps - 1 of every cell (kernels_cl/cardiac/
 * catalogue/hb_card_catalogue.cl, hb_card_<model>_run says what each
 * argument means). Arrays are structure-of-arrays in the batch's precision:
 * state[k n + i], prm[k n + i]; recslot int64[n]; rcol int32[nstate]. */
typedef struct {
    int32_t    model;
    int64_t    n, step0;
    int32_t    nsteps;
    double     dt;
    int64_t    on0, on1, on2;   /* pace: first step, steps on, period (0: once) */
    double     level;
    hb_buffer *state, *prm, *recslot, *rcol, *rec;
    int32_t    nrcol;
    int64_t    ncol, rec_every, rec_row0;
} hb_card_job;

/* One table per backend. cells: the launch; *cache is the backend's own
 * per-batch state (an OpenCL program, say), NULL at first and released by
 * release (may be NULL when the backend keeps none). */
typedef struct {
    hb_status (*cells)(hb_context *ctx, hb_precision p, void **cache, const hb_card_job *job);
    void (*release)(hb_context *ctx, void *cache);
} hb_card_ops;

/* NULL when the backend was not compiled in. */
const hb_card_ops *hb__serial_card_ops(void);
const hb_card_ops *hb__openmp_card_ops(void);
const hb_card_ops *hb__opencl_card_ops(void);
const hb_card_ops *hb__cuda_card_ops(void);

#ifdef __cplusplus
}
#endif
#endif
