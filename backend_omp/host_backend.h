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
static inline int hb__host_parallel(const hb_context *ctx)
{
    return ctx->ops->kind == HB_BACKEND_OPENMP;
}

hb_to_layout_fn hb__host_to_layout;
hb_to_flat_fn hb__host_to_flat;
hb_thomas_fn hb__host_thomas;
hb_hines_fn hb__host_hines;

/* rowmap.c */
hb_map_fn hb__host_map_to_layout;
hb_map_fn hb__host_map_to_flat;
hb_hines_branches_fn hb__host_hines_branch_level;
hb_hines_branches_fn hb__host_hines_fine_tree;

#define HB_I64(buf) ((const int64_t *)(buf)->ptr)

/* Runs fn_d or fn_s, the double or float instance of a host loop written
 * once as a macro over the element type. */
#define HB_HOST_RUN(p, fn, ...) ((p) == HB_DOUBLE ? fn##_d(__VA_ARGS__) : fn##_s(__VA_ARGS__))

#endif
