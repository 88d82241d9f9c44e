/* morph_internal.h: what the files of api/morph share beyond the public header: a morphology's source name. */
#ifndef HB_MORPH_INTERNAL_H
#define HB_MORPH_INTERNAL_H

#include "hinesbatch_morph.h"

/* The name the morphology was read from (file path, or the name given to
 * hb_morph_parse_swc), so later errors can say "NAME:LINE: sample ID". */
const char *hb__morph_name(const hb_morph *morph);

#endif /* HB_MORPH_INTERNAL_H */
