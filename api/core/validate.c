/* validate.c: argument, tree and finiteness checks with messages naming system and row. */
#include "hb_validate.h"

#include <math.h>

hb_status hb__check_batch(hb_precision p, int64_t nsys, const char *fn)
{
    if (p != HB_DOUBLE && p != HB_FLOAT)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: precision = %d is not an hb_precision", fn,
                         (int)p);
    if (nsys < 0)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: nsys = %lld is negative", fn,
                         (long long)nsys);
    return HB_SUCCESS;
}

hb_status hb__check_offsets(int64_t nsys, const int64_t *offsets, const char *name)
{
    if (!offsets)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: offsets is NULL", name);
    if (offsets[0] != 0)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: offsets[0] = %lld, must be 0", name,
                         (long long)offsets[0]);
    for (int64_t s = 0; s < nsys; ++s)
        if (offsets[s + 1] <= offsets[s])
            return hb__error(HB_ERR_INVALID_ARGUMENT,
                             "%s: offsets not strictly increasing at system %lld "
                             "(offsets[%lld] = %lld, offsets[%lld] = %lld)",
                             name, (long long)s, (long long)s, (long long)offsets[s],
                             (long long)(s + 1), (long long)offsets[s + 1]);
    return HB_SUCCESS;
}

hb_status hb__check_tree(const int32_t *parent, int64_t n, int64_t sys)
{
    if (parent[0] != -1)
        return hb__error(HB_ERR_INVALID_TREE,
                         "parent: system %lld row 0 has parent %d, must be -1 (the root)",
                         (long long)sys, (int)parent[0]);
    for (int64_t k = 1; k < n; ++k)
        if (parent[k] < 0 || (int64_t)parent[k] >= k)
            return hb__error(HB_ERR_INVALID_TREE,
                             "parent: system %lld row %lld has parent %d, must satisfy "
                             "0 <= parent < %lld",
                             (long long)sys, (long long)k, (int)parent[k], (long long)k);
    return HB_SUCCESS;
}

#define HB_FINITE_LOOP(T)                                                                 \
    do {                                                                                  \
        const T *v = (const T *)x;                                                        \
        for (int64_t s = 0; s < nsys; ++s) {                                              \
            int64_t lo = offsets ? offsets[s] : s * n_uniform;                            \
            int64_t hi = offsets ? offsets[s + 1] : (s + 1) * n_uniform;                  \
            for (int64_t k = lo + (skip_first ? 1 : 0); k < hi - (skip_last ? 1 : 0); ++k) \
                if (!isfinite(v[k]))                                                      \
                    return hb__error(HB_ERR_NUMERICAL,                                    \
                                     "%s: non-finite value %g at system %lld row %lld",   \
                                     name, (double)v[k], (long long)s, (long long)(k - lo)); \
        }                                                                                 \
    } while (0)

hb_status hb__check_finite(hb_precision p, const void *x, int64_t nsys, const int64_t *offsets,
                           int64_t n_uniform, int skip_first, int skip_last, const char *name)
{
    if (p == HB_DOUBLE)
        HB_FINITE_LOOP(double);
    else
        HB_FINITE_LOOP(float);
    return HB_SUCCESS;
}
