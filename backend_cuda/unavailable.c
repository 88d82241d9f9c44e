/* unavailable.c: the CUDA backend's entries when it is not compiled in: no solver, engine or cardiac table, so contexts report HB_ERR_BACKEND_UNAVAILABLE. */
#include "hb_card_ops.h"
#include "hb_sim_ops.h"

const hb_backend_ops *hb__cuda_backend(void) { return NULL; }
const hb_sim_ops *hb__cuda_sim_ops(void) { return NULL; }
const hb_card_ops *hb__cuda_card_ops(void) { return NULL; }
