/* unavailable.c: the OpenCL backend's entries when it is not compiled in: no solver, engine or cardiac table, so contexts report HB_ERR_BACKEND_UNAVAILABLE. */
#include "hb_card_ops.h"
#include "hb_sim_ops.h"

const hb_backend_ops *hb__opencl_backend(void) { return NULL; }
const hb_sim_ops *hb__opencl_sim_ops(void) { return NULL; }
const hb_card_ops *hb__opencl_card_ops(void) { return NULL; }
