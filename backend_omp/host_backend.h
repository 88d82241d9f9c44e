/* host_backend.h: entry points of the host backends (serial oracle and OpenMP), shared by their files. */
#ifndef HB_HOST_BACKEND_H
#define HB_HOST_BACKEND_H

#include "hb_backend.h"

#include <stdlib.h>

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

/* The fused simulation loop's hottest functions (sim/cells.c, the serial
 * mechanism passes) also compiled for AVX2 and picked once at load time
 * (GCC's target_clones, an ifunc; x86-64 ELF only): their lane loops then
 * move four doubles per instruction instead of two (the loop issued a third
 * fewer instructions per compartment-step under callgrind). AVX2 alone has
 * no FMA and the C11 mode contracts nothing, so every operation is the same
 * IEEE operation in either copy and results stay bit-identical to the
 * serial oracle's. HB_NO_CLONES (a compile definition) leaves them out. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__ELF__) && \
    !defined(HB_NO_CLONES)
#define HB_HOST_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define HB_HOST_CLONES
#endif

/* Systems one OpenMP thread sweeps side by side (thomas.c, hines.c): a
 * sweep is a chain of dependent divisions, latency-bound alone; eight chains
 * keep the divider busy while the rows stream through the caches. */
#ifndef HB_HOST_LANES
#define HB_HOST_LANES 8
#endif
/* Rows of every lane moved through the cache together (thomas.c). */
#define HB_HOST_TILE 32
/* Largest tile of HB_HOST_LANES cells gathered for a Hines sweep (hines.c):
 * within a core's L2. */
#define HB_HOST_TILE_BYTES ((uint64_t)1 << 20)

/* A thread's tile for HB_HOST_LANES systems of n rows, `arrays` arrays of
 * esize-byte reals (thomas.c: c' and d'; hines.c: u, l, d, rhs; sim/cells.c:
 * u (= l), d, rhs, v, the axial conductances and the diagonal's constant),
 * or NULL where it would not pay (n < 2, past HB_HOST_TILE_BYTES) or no
 * memory is left: the callers then run one system at a time, with the same
 * results. free() it. */
static inline void *hb__host_tile(int64_t n, int arrays, size_t esize)
{
    const uint64_t per_row = (uint64_t)arrays * HB_HOST_LANES * esize;
    if (n < 2 || (uint64_t)n > HB_HOST_TILE_BYTES / per_row)
        return NULL;
    return malloc((size_t)((uint64_t)n * per_row));
}

#define HB_I64(buf) ((const int64_t *)(buf)->ptr)

/* Runs fn_d or fn_s, the double or float instance of a host loop written
 * once as a macro over the element type. */
#define HB_HOST_RUN(p, fn, ...) ((p) == HB_DOUBLE ? fn##_d(__VA_ARGS__) : fn##_s(__VA_ARGS__))

#endif
