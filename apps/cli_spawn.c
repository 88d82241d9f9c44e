/* cli_spawn.c: runs a helper program (the plot scripts' python3) from an argument vector, never through a shell. */
#define _POSIX_C_SOURCE 200809L
#include "cli_spawn.h"

#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>

extern char **environ;

int cli_spawn(char *const argv[], char *why, size_t size)
{
    pid_t pid;
    fflush(NULL); /* our lines first, then the helper's */
    /* posix_spawnp reports a failed exec as its result (glibc 2.24 and later,
     * musl); older C libraries make the child exit with 127 instead. */
    int e = posix_spawnp(&pid, argv[0], NULL, NULL, argv, environ);
    if (e == ENOENT) {
        snprintf(why, size, "%s was not found in PATH", argv[0]);
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
