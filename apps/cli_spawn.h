/* cli_spawn.h: runs a helper program (the plot scripts' Python) from an argument vector, never through a shell. */
#ifndef HB_APPS_CLI_SPAWN_H
#define HB_APPS_CLI_SPAWN_H

#include <stddef.h>

/* Runs argv[0] (looked up in PATH when it has no '/') with the arguments argv
 * (NULL-ended) and waits for it. Arguments reach the program as they are: no
 * shell ever reads them, so quotes, ';' or '$(...)' in a file name are just
 * characters. Returns 1 when the program exited with status 0; else 0 with
 * why the program did not succeed in why: "python3 was not found in PATH",
 * "/x/python3 was not found", "python3 could not be started: REASON",
 * "python3 exited with status N", "python3 was killed by signal N".
 * *exit_status (may be NULL): the program's exit status, -1 when it did not
 * start or did not exit by itself. */
int cli_spawn(char *const argv[], int *exit_status, char *why, size_t size);

/* The status the shipped plot scripts exit with when matplotlib cannot be
 * imported (apps/plot_traces.py), so that the cause is named, not guessed. */
#define CLI_SCRIPT_NO_MATPLOTLIB 3

/* Runs the shipped script `name` (in cli_data_dir's scripts folder) with the
 * interpreter cli_python_find chooses and the arguments args (NULL-ended;
 * at most 30). Returns 1 when it succeeded; else 0 with the one cause in why:
 * the script is missing (its path and where that came from), the interpreter
 * was not found or could not start, it cannot import matplotlib (the script's
 * status CLI_SCRIPT_NO_MATPLOTLIB), or the script failed (status N or signal
 * N; the script's own message is on stderr before ours). */
int cli_run_script(const char *name, char *const args[], char *why, size_t size);

#endif
