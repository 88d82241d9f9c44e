/* cli.c: the CLI's layout names on top of the library's, the clock of the subcommands, and the memory check of their counts. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* sysconf's _SC_PHYS_PAGES */
#include "cli.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Short names older than the library's table, kept so that command lines and
 * scripts written for them still run; every other name is the library's. */
static const struct {
    const char *name;
    hb_layout   layout;
} short_names[] = {{"interleaved", HB_LAYOUT_INTERLEAVED}, {"block", HB_LAYOUT_BLOCK_INTERLEAVED}};

#define NSHORT (sizeof short_names / sizeof short_names[0])

hb_status cli_layout_from_name(const char *name, hb_layout *layout)
{
    for (size_t i = 0; name && i < NSHORT; ++i)
        if (!strcmp(name, short_names[i].name))
            return *layout = short_names[i].layout, HB_SUCCESS;
    return hb_layout_from_name(name, layout);
}

const char *cli_layout_name(hb_layout layout)
{
    for (size_t i = 0; i < NSHORT; ++i)
        if (short_names[i].layout == layout)
            return short_names[i].name;
    return hb_layout_name(layout);
}

double cli_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int cli_memory_fits(const char *cmd, const char *what, uint64_t bytes)
{
    uint64_t host = UINT64_MAX; /* unknown: only the allocations can tell */
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages > 0 && page > 0)
        host = cli_mul_sat((uint64_t)pages, (uint64_t)page);
    if (bytes <= host)
        return 1;
    if (bytes == UINT64_MAX)
        fprintf(stderr, "hinesbatch %s: %s: needs more than 2^64 bytes of memory, more than this "
                        "machine's %llu bytes (%.3g GB)\n",
                cmd, what, (unsigned long long)host, (double)host * 1e-9);
    else
        fprintf(stderr, "hinesbatch %s: %s: needs at least %llu bytes (%.3g GB) of memory, more "
                        "than this machine's %llu bytes (%.3g GB)\n",
                cmd, what, (unsigned long long)bytes, (double)bytes * 1e-9,
                (unsigned long long)host, (double)host * 1e-9);
    return 0;
}
