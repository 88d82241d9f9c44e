/* hb_error.h: internal error reporting, logging and checked size arithmetic, used by every layer. */
#ifndef HB_ERROR_H
#define HB_ERROR_H

#include "hinesbatch.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Records a thread-local message and returns status, so checks stay one line:
 *   if (n < 0) return hb__error(HB_ERR_INVALID_ARGUMENT, "nsys = %lld < 0", n); */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
hb_status hb__error(hb_status status, const char *fmt, ...);
void hb__clear_error(void);
/* Prints to stderr only when HINESBATCH_VERBOSE=1 (api/core/env.c). */
#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
void hb__log(const char *fmt, ...);

#define HB_FORWARD(expr)                    \
    do {                                    \
        hb_status hb__st_ = (expr);         \
        if (hb__st_ != HB_SUCCESS)          \
            return hb__st_;                 \
    } while (0)

/* a*b into *out, or 0 when the product does not fit (negative factors do
 * not fit either). Every size product of the library goes through these. */
static inline int hb__mul_i64(int64_t a, int64_t b, int64_t *out)
{
    if (a < 0 || b < 0 || (a != 0 && b > INT64_MAX / a))
        return 0;
    *out = a * b;
    return 1;
}
static inline int hb__mul_size(size_t a, size_t b, size_t *out)
{
    if (a != 0 && b > SIZE_MAX / a)
        return 0;
    *out = a * b;
    return 1;
}
/* n elements of size bytes (at least one byte; zeroed by hb__calloc_n), or
 * NULL when n is negative, the product does not fit an object (PTRDIFF_MAX)
 * or memory runs out; the caller reports it as HB_ERR_OUT_OF_MEMORY. */
static inline int hb__bytes_n(int64_t n, size_t size, size_t *bytes)
{
    return n >= 0 && (uint64_t)n <= SIZE_MAX && hb__mul_size((size_t)n, size, bytes) &&
           *bytes <= (size_t)PTRDIFF_MAX;
}
static inline void *hb__calloc_n(int64_t n, size_t size)
{
    size_t bytes;
    return hb__bytes_n(n, size, &bytes) ? calloc(bytes ? bytes : 1, 1) : NULL;
}
static inline void *hb__malloc_n(int64_t n, size_t size)
{
    size_t bytes;
    return hb__bytes_n(n, size, &bytes) ? malloc(bytes ? bytes : 1) : NULL;
}
static inline void *hb__realloc_n(void *p, int64_t n, size_t size)
{
    size_t bytes;
    return hb__bytes_n(n, size, &bytes) ? realloc(p, bytes ? bytes : 1) : NULL;
}

/* a + b, or UINT64_MAX when it does not fit; a*b likewise (hb__memory_check and
 * hb__host_check take such saturated sums). */
static inline uint64_t hb__add_sat(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}
static inline uint64_t hb__mul_sat(uint64_t a, uint64_t b)
{
    return a != 0 && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}

/* HB_ERR_OUT_OF_MEMORY naming fn and both sizes when `bytes` (saturated
 * sums welcome) is more than the machine's physical memory (memory.c): code
 * without a context (morphologies, batches) refuses what could only swap or
 * be killed before it allocates and fills it. */
hb_status hb__host_check(uint64_t bytes, const char *fn);

#ifdef __cplusplus
}
#endif
#endif /* HB_ERROR_H */
