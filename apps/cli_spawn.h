/* cli_spawn.h: runs a helper program (the plot scripts' python3) from an argument vector, never through a shell. */
#ifndef HB_APPS_CLI_SPAWN_H
#define HB_APPS_CLI_SPAWN_H

#include <stddef.h>

/* Runs argv[0] (looked up in PATH) with the arguments argv (NULL-ended) and
 * waits for it. Arguments reach the program as they are: no shell ever
 * reads them, so quotes, ';' or '$(...)' in a file name are just characters.
 * Returns 1 when the program exited with status 0; else 0 with why the
 * program did not succeed in why: "python3 was not found in PATH", "python3
 * could not be started: REASON", "python3 exited with status N", "python3
 * was killed by signal N". */
int cli_spawn(char *const argv[], char *why, size_t size);

#endif
