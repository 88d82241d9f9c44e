/* cli_spawn.c: runs a helper program (the plot scripts' Python) from an argument vector, never through a shell. */
#define _POSIX_C_SOURCE 200809L
#include "cli_spawn.h"

#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli_paths.h"

extern char **environ;

int cli_spawn(char *const argv[], int *exit_status, char *why, size_t size)
{
    pid_t pid;
    int dummy;
    if (!exit_status)
        exit_status = &dummy;
    *exit_status = -1;
    fflush(NULL); /* our lines first, then the helper's */
    /* posix_spawnp reports a failed exec as its result (glibc 2.24 and later,
     * musl); older C libraries make the child exit with 127 instead. */
    int e = posix_spawnp(&pid, argv[0], NULL, NULL, argv, environ);
    if (e == ENOENT) {
        snprintf(why, size, "%s was not found%s", argv[0], strchr(argv[0], '/') ? "" : " in PATH");
        return 0;
    }
    if (e != 0) {
        snprintf(why, size, "%s could not be started: %s", argv[0], strerror(e));
        return 0;
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) {
            snprintf(why, size, "waiting for %s failed: %s", argv[0], strerror(errno));
            return 0;
        }
    if (WIFEXITED(status))
        *exit_status = WEXITSTATUS(status);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 1;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
        snprintf(why, size, "%s exited with status 127 (not found, or could not be started)",
                 argv[0]);
    else if (WIFEXITED(status))
        snprintf(why, size, "%s exited with status %d", argv[0], WEXITSTATUS(status));
    else if (WIFSIGNALED(status))
        snprintf(why, size, "%s was killed by signal %d", argv[0], WTERMSIG(status));
    else
        snprintf(why, size, "%s ended with wait status %d", argv[0], status);
    return 0;
}

int cli_run_script(const char *name, char *const args[], char *why, size_t size)
{
    char script[4096], spawned[512];
    const char *from;
    if (!cli_data_file(CLI_DATA_SCRIPTS, name, script, sizeof script, &from)) {
        snprintf(why, size, "the path of %s is too long (from %s)", name, from);
        return 0;
    }
    if (access(script, R_OK) != 0) {
        snprintf(why, size, "the script '%s' is missing: %s (%s; HINESBATCH_DATA_DIR=DIR reads "
                 "DIR/scripts)", script, strerror(errno), from);
        return 0;
    }
    cli_python py;
    cli_python_find(&py);
    enum { MAXARGS = 30 };
    char *argv[MAXARGS + 3] = {(char *)py.path, script};
    int n = 0;
    while (args[n] && n < MAXARGS)
        argv[2 + n] = args[n], ++n;
    if (args[n]) {
        snprintf(why, size, "more than %d arguments for %s", MAXARGS, name);
        return 0;
    }
    int status;
    if (cli_spawn(argv, &status, spawned, sizeof spawned))
        return 1;
    if (status == CLI_SCRIPT_NO_MATPLOTLIB)
        snprintf(why, size, "%s (%s) cannot import matplotlib: install it for "
                 "that interpreter (Debian: python3-matplotlib) or set HINESBATCH_PYTHON to a "
                 "Python that has it", py.path, py.origin);
    else if (status > 0 && status != 127) /* the script's own message is on stderr above */
        snprintf(why, size, "%s %s exited with status %d", py.path, script, status);
    else /* not found, not started, or killed */
        snprintf(why, size, "%s (%s)%s", spawned, py.origin,
                 strstr(spawned, "not found") && !py.from_env
                     ? "; install python3 with matplotlib, or set HINESBATCH_PYTHON"
                     : "");
    return 0;
}
