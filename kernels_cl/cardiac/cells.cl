/* cells.cl: the cardiac catalogue's per-cell kernels (one work-item per cell), as CUDA compiles them (backend_cuda/cardiac/cells.cu); OpenCL builds the catalogue text itself, one model at a time (backend_opencl/cardiac/cells.c). */
#ifndef HB_PRELUDE_CL
#include "hb_prelude.cl"
#endif

#define HB_CARD_KERNELS 1
#ifndef HB_CARD_CATALOGUE_CL
#include "cardiac/catalogue/hb_card_catalogue.cl"
#endif
