/* cli_parse.h: the one checked parser of option values: integers and reals in a range, names from a table, lists. */
#ifndef HB_APPS_CLI_PARSE_H
#define HB_APPS_CLI_PARSE_H

#include <stddef.h>
#include <stdint.h>

#include "hinesbatch.h"

/* Every parser takes the subcommand ("simulate"), the flag ("--cells") and the
 * text, writes *out only when the whole text is a valid value and otherwise
 * prints one line naming all three and the values allowed,
 *   hinesbatch simulate: --cells: '1e12' is not an integer in [1, 2147483647]
 * and returns 0 (1 on success). No parser accepts leading or trailing
 * spaces, an empty text, or a number that does not fit. */

/* A decimal integer in [lo, hi] (an optional sign, digits only). */
int cli_int(const char *cmd, const char *flag, const char *text, int64_t lo, int64_t hi,
            int64_t *out);
/* The same for an int32_t destination (lo and hi must fit it). */
int cli_int32(const char *cmd, const char *flag, const char *text, int32_t lo, int32_t hi,
              int32_t *out);
/* A seed: a decimal integer in [0, 2^64 - 1], no sign. */
int cli_u64(const char *cmd, const char *flag, const char *text, uint64_t *out);

/* A finite real number (strtod syntax; nan and inf are refused) in [lo, hi],
 * or (lo, hi] with CLI_LO_OPEN. hi = INFINITY: no upper bound (lo = -INFINITY:
 * no lower one). */
enum { CLI_LO_CLOSED = 0, CLI_LO_OPEN = 1 };
int cli_real(const char *cmd, const char *flag, const char *text, double lo, double hi,
             int lo_open, double *out);

/* A name of a table (exact, case-sensitive), *out its index. The message
 * lists the names. */
int cli_choice(const char *cmd, const char *flag, const char *text, const char *const *names,
               int nnames, int *out);

/* The library's names (matched without case, as the library does), with
 * messages listing them. cli_layout also takes the CLI's short names
 * (cli_layout_from_name). cli_backend refuses "auto" when allow_auto is 0. */
int cli_precision(const char *cmd, const char *flag, const char *text, hb_precision *out);
int cli_layout(const char *cmd, const char *flag, const char *text, hb_layout *out);
int cli_padding(const char *cmd, const char *flag, const char *text, hb_padding *out);
int cli_strategy(const char *cmd, const char *flag, const char *text, hb_strategy *out);
int cli_backend(const char *cmd, const char *flag, const char *text, int allow_auto,
                hb_backend *out);

/* Splits a list of items separated by sep (',' for LIST options) into at
 * most max items written into buf (size bytes), items[] pointing into it.
 * An empty text, an empty item, more than max items or a text of size bytes
 * or more is an error naming the flag. Returns the number of items, 0 on
 * error. */
int cli_split(const char *cmd, const char *flag, const char *text, char sep, char *buf,
              size_t size, const char **items, int max);

/* The message of a bad value that none of the parsers above describes:
 * "hinesbatch CMD: FLAG: 'TEXT' WHAT". Returns 0. */
int cli_bad_value(const char *cmd, const char *flag, const char *text, const char *what);

#endif
