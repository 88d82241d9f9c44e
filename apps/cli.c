/* cli.c: the CLI's layout names on top of the library's, and the clock of the subcommands. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <string.h>
#include <time.h>

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
