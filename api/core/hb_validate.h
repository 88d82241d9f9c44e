/* hb_validate.h: checks of caller input (offsets, trees, finite values) whose messages name system and row; used by the core and morphology. */
#ifndef HB_VALIDATE_H
#define HB_VALIDATE_H

#include "hb_error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* precision is an hb_precision and nsys >= 0; fn names the caller. */
hb_status hb__check_batch(hb_precision p, int64_t nsys, const char *fn);
hb_status hb__check_offsets(int64_t nsys, const int64_t *offsets, const char *name);
/* parent rule: parent[0] = -1, 0 <= parent[k] < k. */
hb_status hb__check_tree(const int32_t *parent, int64_t n, int64_t sys);
/* Finite values, skipping row 0 (skip_first) or the last row (skip_last) of
 * each system, where those entries are ignored. */
hb_status hb__check_finite(hb_precision p, const void *x, int64_t nsys,
                           const int64_t *offsets, int64_t n_uniform,
                           int skip_first, int skip_last, const char *name);

#ifdef __cplusplus
}
#endif
#endif /* HB_VALIDATE_H */
