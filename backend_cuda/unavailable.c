/* unavailable.c: the CUDA backend's entry when it is not compiled in. */
#include "hb_internal.h"

const hb_backend_ops *hb__cuda_backend(void) { return NULL; }
