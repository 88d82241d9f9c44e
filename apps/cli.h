/* cli.h: what the subcommands share: exit statuses, layout option names, splitmix64 random inputs, a monotonic clock. */
#ifndef HB_APPS_CLI_H
#define HB_APPS_CLI_H

#include <stdint.h>

#include "hinesbatch.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The exit status of every subcommand (docs/cli.md). Usage: the command
 * line itself is wrong, nothing was run. Failure: the command ran and
 * something failed: the library, an input file, an output file, a check. */
enum { CLI_EXIT_OK = 0, CLI_EXIT_FAIL = 1, CLI_EXIT_USAGE = 2 };
/* The line every --help ends with. */
#define CLI_EXIT_HELP                                                                    \
    "Exit status: 0 success; 1 failure (library error, unreadable input, unwritable\n"   \
    "output, failed check); 2 usage error (unknown option, missing or bad value).\n"

/* A --layout value: a library name (hb_layout_from_name) or one of the short
 * names the CLI has always taken, "interleaved" and "block". Returns
 * HB_ERR_INVALID_ARGUMENT for another name, *layout then untouched. */
hb_status cli_layout_from_name(const char *name, hb_layout *layout);
/* The CLI's name of a layout, the short one where there is one, so that log
 * lines echo a point as its options spell it. */
const char *cli_layout_name(hb_layout layout);

/* Seconds on a monotonic clock, for timing. */
double cli_now_s(void);

/* Saturating sizes: a count from the command line times a size, and sums of
 * them, that cannot wrap (UINT64_MAX stands for "more than 2^64"). */
static inline uint64_t cli_mul_sat(uint64_t a, uint64_t b)
{
    return a != 0 && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}
static inline uint64_t cli_add_sat(uint64_t a, uint64_t b)
{
    return b > UINT64_MAX - a ? UINT64_MAX : a + b;
}
/* A lower bound of what a simulation costs besides its cells (the library's
 * batch, tables and arrays; hb_sim_create makes its own check): per row 5
 * doubles and a parent of the batch, v and a position, 8 values and a
 * position on the backend; per cell the program's pointer and the library's
 * offset, soma and plan entries (simulate and network). */
#define CLI_SIM_ROW_BYTES 100
#define CLI_SIM_CELL_BYTES 40
/* 1 when `bytes` (a lower bound of what a command line asks for) fits in this
 * machine's physical memory; else 0 after one line naming the command, what
 * asked for it (the options and their values), the need and the limit:
 *   hinesbatch simulate: --cells 2147483647: ... needs at least N bytes
 *   (... GB) of memory, more than this machine's M bytes (... GB)
 * Called before anything of that size is allocated or written: an
 * overcommitting kernel grants such an allocation, and filling it swaps or
 * gets the process killed. */
int cli_memory_fits(const char *cmd, const char *what, uint64_t bytes);

/* splitmix64: fast and seedable; random inputs only need to be well
 * conditioned, and the same seed must give the same inputs everywhere (the
 * CUDA benchmark included, hence inline here rather than in cli.c). */
static inline uint64_t cli_rand(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
/* Uniform in [0, 1), 53 bits. */
static inline double cli_unit(uint64_t *s) { return (double)(cli_rand(s) >> 11) * 0x1.0p-53; }

#ifdef __cplusplus
}
#endif
#endif
