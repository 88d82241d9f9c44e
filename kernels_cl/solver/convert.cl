/* convert.cl: flat <-> layout conversion kernels, one work-item per system (slot). */
#ifndef HB_PRELUDE_CL
#include "hb_prelude.cl"
#endif

/* Rows [0, rows[t]) of slot t: own rows copied from the flat array (with the
 * ignored entry of row 0 or of the last row zeroed), padded rows set to pad. */
__kernel void HB_KERNEL(hb_to_layout)(const hb_long nslots, const hb_long stride,
                                      __global const hb_long *base, __global const hb_long *rows,
                                      __global const hb_long *nown, __global const hb_long *flat,
                                      const real pad, const hb_int zero_first,
                                      const hb_int zero_last, __global const real *src,
                                      __global real *dst)
{
    const hb_long t = (hb_long)get_global_id(0);
    if (t >= nslots)
        return;
    __global const real *s = src + flat[t];
    __global real *o = dst + base[t];
    const hb_long n = nown[t], m = rows[t];
    for (hb_long i = 0; i < m; ++i) {
        real v = i < n ? s[i] : pad;
        if ((zero_first && i == 0) || (zero_last && i == n - 1))
            v = (real)0;
        o[i * stride] = v;
    }
}

__kernel void HB_KERNEL(hb_to_flat)(const hb_long nslots, const hb_long stride,
                                    __global const hb_long *base, __global const hb_long *nown,
                                    __global const hb_long *flat, __global const real *src,
                                    __global real *dst)
{
    const hb_long t = (hb_long)get_global_id(0);
    if (t >= nslots)
        return;
    __global const real *s = src + base[t];
    __global real *o = dst + flat[t];
    const hb_long n = nown[t];
    for (hb_long i = 0; i < n; ++i)
        o[i] = s[i * stride];
}
