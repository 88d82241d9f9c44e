/* memory.c: the fail-fast memory check: what a plan or simulation will allocate, against what the device and host have. */
#define _DEFAULT_SOURCE /* sysconf's _SC_PHYS_PAGES (glibc, musl, the BSDs, macOS) */
#include "hb_backend.h"

#include <stdio.h>
#include <unistd.h>

uint64_t hb__host_memory(void)
{
#if defined(_SC_PHYS_PAGES) && defined(_SC_PAGESIZE)
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages > 0 && page > 0 && (uint64_t)pages <= UINT64_MAX / (uint64_t)page)
        return (uint64_t)pages * (uint64_t)page;
#endif
    return UINT64_MAX; /* unknown: only the allocations themselves can fail */
}

/* "12345 bytes (12.3 GB)"; a saturated sum is "more than 2^64 bytes". */
static const char *bytes_text(uint64_t b, char *buf, size_t size)
{
    if (b == UINT64_MAX)
        snprintf(buf, size, "more than 2^64 bytes");
    else
        snprintf(buf, size, "%llu bytes (%.3g GB)", (unsigned long long)b, (double)b * 1e-9);
    return buf;
}

/* Policy: a request past the machine's physical memory (host tables, and
 * the arrays of host backends) or past the device's free memory (GPU arrays)
 * is refused before anything is allocated or filled: it would fail after
 * minutes of work, or swap until it does. The exact allocations still report
 * their own failures. */
hb_status hb__host_check(uint64_t bytes, const char *fn)
{
    uint64_t host = hb__host_memory();
    char need[64], have[64];
    if (bytes > host)
        return hb__error(HB_ERR_OUT_OF_MEMORY, "%s: needs %s of host memory; this machine has %s",
                         fn, bytes_text(bytes, need, sizeof need),
                         bytes_text(host, have, sizeof have));
    return HB_SUCCESS;
}

hb_status hb__memory_check(const hb_context *ctx, uint64_t host_bytes, uint64_t dev_bytes,
                           const char *fn)
{
    uint64_t host = hb__host_memory();
    uint64_t dev = UINT64_MAX;
    if (ctx->ops->mem_available && ctx->ops->mem_available((hb_context *)ctx, &dev) != HB_SUCCESS)
        dev = UINT64_MAX; /* the device would not say: let the allocations tell */
    if (!ctx->ops->mem_available) {
        /* Host backends: the arrays are host memory too. */
        host_bytes = hb__add_sat(host_bytes, dev_bytes);
        dev_bytes = 0;
    }
    char need[64], have[64];
    if (dev_bytes > dev)
        return hb__error(HB_ERR_OUT_OF_MEMORY, "%s: needs %s of device memory; %s has %s available",
                         fn, bytes_text(dev_bytes, need, sizeof need), ctx->describe,
                         bytes_text(dev, have, sizeof have));
    if (host_bytes > host)
        return hb__error(HB_ERR_OUT_OF_MEMORY, "%s: needs %s of host memory; this machine has %s",
                         fn, bytes_text(host_bytes, need, sizeof need),
                         bytes_text(host, have, sizeof have));
    return HB_SUCCESS;
}
