/* cli_out.h: output files of the subcommands: checked before the work starts, and every write checked at close. */
#ifndef HB_APPS_CLI_OUT_H
#define HB_APPS_CLI_OUT_H

#include <stdio.h>

/* Whether path can be written: an existing file we may write, or a new name
 * in a directory we may write. Checked before a long run so that a typo
 * fails in a second, not after it; the write itself is still checked.
 * On failure prints "hinesbatch CMD: FLAG: cannot write 'PATH': REASON" and
 * returns 0. */
int cli_output_check(const char *cmd, const char *flag, const char *path);

/* fopen(path, "w") with the same message on failure (NULL). */
FILE *cli_output_open(const char *cmd, const char *flag, const char *path);

/* Flushes and closes f; 0 with "hinesbatch CMD: FLAG: error writing 'PATH':
 * REASON" when any write to it failed (a full disk, /dev/full). */
int cli_output_close(const char *cmd, const char *flag, const char *path, FILE *f);

#endif
