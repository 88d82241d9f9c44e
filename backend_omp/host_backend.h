/* host_backend.h: entry points of the host backends (serial oracle and OpenMP), shared by their files. */
#ifndef HB_HOST_BACKEND_H
#define HB_HOST_BACKEND_H

#include "hb_backend.h"

struct hb_buffer {
    void  *ptr;
    size_t bytes;
};

/* 1 on the OpenMP context, 0 on the serial one: the same loops run either way,
 * so serial and OpenMP results are bit-identical. */
int hb__host_parallel(const hb_context *ctx);

hb_status hb__host_to_layout(hb_context *ctx, void *stream, hb_precision p,
                             const hb_layout_dev *lay, const hb_convert_rule *rule,
                             hb_buffer *flat_src, hb_buffer *dst);
hb_status hb__host_to_flat(hb_context *ctx, void *stream, hb_precision p,
                           const hb_layout_dev *lay, hb_buffer *src, hb_buffer *flat_dst);
hb_status hb__host_thomas(hb_context *ctx, void *stream, hb_precision p,
                          const hb_layout_dev *lay, hb_buffer *a, hb_buffer *b, hb_buffer *c,
                          hb_buffer *cw, hb_buffer *d);
hb_status hb__host_hines(hb_context *ctx, void *stream, hb_precision p,
                         const hb_layout_dev *lay, hb_buffer *u, hb_buffer *l, hb_buffer *d,
                         hb_buffer *rhs);

/* rowmap.c */
hb_status hb__host_map_to_layout(hb_context *ctx, void *stream, hb_precision p, int64_t n,
                                 hb_buffer *map, hb_buffer *flat_src, hb_buffer *dst);
hb_status hb__host_map_to_flat(hb_context *ctx, void *stream, hb_precision p, int64_t n,
                               hb_buffer *map, hb_buffer *src, hb_buffer *flat_dst);
hb_status hb__host_hines_branch_level(hb_context *ctx, void *stream, hb_precision p,
                                      const hb_branch_dev *br, hb_buffer *u, hb_buffer *l,
                                      hb_buffer *d, hb_buffer *rhs);
hb_status hb__host_hines_fine_tree(hb_context *ctx, void *stream, hb_precision p,
                                   const hb_branch_dev *br, hb_buffer *u, hb_buffer *l,
                                   hb_buffer *d, hb_buffer *rhs);

#define HB_I64(buf) ((const int64_t *)(buf)->ptr)

#endif
