/* rowmap.cl: row-map conversions between flat arrays and the branch layout, one work-item per row. */
#ifndef HB_PRELUDE_CL
#include "hb_prelude.cl"
#endif

/* dst[map[k]] = src[k]: flat rows into the branch layout; rows mapped to -1
 * are skipped (a re-rooted tree moves couplings between arrays). */
__kernel void HB_KERNEL(hb_map_to_layout)(const hb_long n, __global const hb_long *map,
                                          __global const real *src, __global real *dst)
{
    const hb_long k = (hb_long)get_global_id(0);
    if (k < n) {
        const hb_long m = map[k];
        if (m >= 0)
            dst[m] = src[k];
    }
}

/* dst[k] = src[map[k]]: the branch layout back to flat rows. */
__kernel void HB_KERNEL(hb_map_to_flat)(const hb_long n, __global const hb_long *map,
                                        __global const real *src, __global real *dst)
{
    const hb_long k = (hb_long)get_global_id(0);
    if (k < n)
        dst[k] = src[map[k]];
}
