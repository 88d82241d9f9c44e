/* cli_out.c: output files of the subcommands: checked before the work starts, and every write checked at close. */
#define _POSIX_C_SOURCE 200809L
#include "cli_out.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int cannot(const char *cmd, const char *flag, const char *path, const char *reason)
{
    fprintf(stderr, "hinesbatch %s: %s: cannot write '%s': %s\n", cmd, flag, path, reason);
    return 0;
}

int cli_output_check(const char *cmd, const char *flag, const char *path)
{
    struct stat sb;
    if (!*path)
        return cannot(cmd, flag, path, "empty file name");
    if (stat(path, &sb) == 0) {
        if (S_ISDIR(sb.st_mode))
            return cannot(cmd, flag, path, strerror(EISDIR));
        return access(path, W_OK) == 0 ? 1 : cannot(cmd, flag, path, strerror(errno));
    }
    if (errno != ENOENT)
        return cannot(cmd, flag, path, strerror(errno));
    /* A new file: its directory must exist and be writable. */
    char dir[4096];
    const char *slash = strrchr(path, '/');
    if (!slash)
        strcpy(dir, ".");
    else if (slash == path)
        strcpy(dir, "/");
    else if ((size_t)(slash - path) < sizeof dir)
        memcpy(dir, path, (size_t)(slash - path)), dir[slash - path] = '\0';
    else
        return cannot(cmd, flag, path, strerror(ENAMETOOLONG));
    if (stat(dir, &sb) != 0)
        return cannot(cmd, flag, path, strerror(errno));
    if (!S_ISDIR(sb.st_mode))
        return cannot(cmd, flag, path, strerror(ENOTDIR));
    return access(dir, W_OK | X_OK) == 0 ? 1 : cannot(cmd, flag, path, strerror(errno));
}

FILE *cli_output_open(const char *cmd, const char *flag, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f)
        cannot(cmd, flag, path, strerror(errno));
    return f;
}

int cli_output_close(const char *cmd, const char *flag, const char *path, FILE *f)
{
    errno = 0;
    int bad = fflush(f) != 0 || ferror(f);
    int err = errno;
    if (fclose(f) != 0 && !bad)
        bad = 1, err = errno;
    if (bad)
        fprintf(stderr, "hinesbatch %s: %s: error writing '%s': %s\n", cmd, flag, path,
                err ? strerror(err) : "write error");
    return !bad;
}
