/* cli_paths.c: where the program finds its shipped files (neurons, plot scripts) and the Python interpreter that runs the scripts. */
#define _XOPEN_SOURCE 700 /* readlink, realpath */
#include "cli_paths.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Set by apps/CMakeLists.txt for this file only (so that a new interpreter
 * or install layout recompiles one file). The defaults keep the file
 * compilable on its own. */
#ifndef HB_CLI_PYTHON
#define HB_CLI_PYTHON "" /* none found at configure time */
#endif
#ifndef HB_CLI_SOURCE_DIR
#define HB_CLI_SOURCE_DIR "."
#endif
#ifndef HB_CLI_BUILD_DIR
#define HB_CLI_BUILD_DIR "" /* the folder the program is built into */
#endif
#ifndef HB_CLI_DATA_FROM_BIN
#define HB_CLI_DATA_FROM_BIN "../share/hinesbatch" /* DATADIR/hinesbatch from BINDIR */
#endif
#ifndef HB_CLI_DATA_INSTALLED
#define HB_CLI_DATA_INSTALLED "/usr/local/share/hinesbatch" /* the configured prefix's */
#endif

/* The folder of this program (symbolic links resolved), or 0. */
static int exe_dir(char *buf, size_t size)
{
    ssize_t n = readlink("/proc/self/exe", buf, size - 1);
    if (n <= 0 || (size_t)n >= size - 1)
        return 0;
    buf[n] = '\0';
    char *slash = strrchr(buf, '/');
    if (!slash)
        return 0;
    slash[slash == buf] = '\0'; /* "/hinesbatch" -> "/" */
    return 1;
}

/* Whether a and b are the same folder (the same file, so links and
 * spellings such as "a/./b" do not matter). */
static int same_dir(const char *a, const char *b)
{
    struct stat sa, sb;
    return a[0] && b[0] && stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

static int fits(int n, size_t size)
{
    return n >= 0 && (size_t)n < size;
}

int cli_data_dir(cli_data_kind kind, char *buf, size_t size, const char **origin)
{
    static const char *const installed[] = {"morphologies", "scripts"};
    static const char *const source[] = {"data/morphologies", "apps"};
    const char *env = getenv("HINESBATCH_DATA_DIR"), *from;
    char exe[4096];
    int n;
    if (env && env[0]) {
        from = "set by HINESBATCH_DATA_DIR";
        n = snprintf(buf, size, "%s/%s", env, installed[kind]);
    } else if (!exe_dir(exe, sizeof exe)) {
        from = "the configured install prefix: /proc/self/exe cannot be read";
        n = snprintf(buf, size, "%s/%s", HB_CLI_DATA_INSTALLED, installed[kind]);
    } else if (same_dir(exe, HB_CLI_BUILD_DIR)) {
        from = "the source tree: the program runs from its build tree";
        n = snprintf(buf, size, "%s/%s", HB_CLI_SOURCE_DIR, source[kind]);
    } else {
        from = "installed beside the program";
        char data[sizeof exe + 256], *real;
        if (HB_CLI_DATA_FROM_BIN[0] == '/') /* DATADIR given as an absolute path */
            n = snprintf(data, sizeof data, "%s", HB_CLI_DATA_FROM_BIN);
        else
            n = snprintf(data, sizeof data, "%s/%s", exe, HB_CLI_DATA_FROM_BIN);
        /* "PREFIX/share/hinesbatch" rather than "PREFIX/bin/../share/...", in
         * messages; as it is when the folder is missing. */
        if (!fits(n, sizeof data)) {
            n = -1;
        } else if ((real = realpath(data, NULL)) != NULL) {
            n = snprintf(buf, size, "%s/%s", real, installed[kind]);
            free(real);
        } else {
            n = snprintf(buf, size, "%s/%s", data, installed[kind]);
        }
    }
    if (origin)
        *origin = from;
    return fits(n, size);
}

int cli_data_file(cli_data_kind kind, const char *name, char *buf, size_t size,
                  const char **origin)
{
    if (!cli_data_dir(kind, buf, size, origin))
        return 0;
    size_t len = strlen(buf);
    return fits(snprintf(buf + len, size - len, "/%s", name), size - len);
}

void cli_python_find(cli_python *py)
{
    const char *env = getenv("HINESBATCH_PYTHON");
    if (env && env[0]) {
        py->path = env, py->origin = "set by HINESBATCH_PYTHON", py->from_env = 1;
        return;
    }
    py->from_env = 0;
    if (HB_CLI_PYTHON[0] && access(HB_CLI_PYTHON, X_OK) == 0) {
        py->path = HB_CLI_PYTHON;
        py->origin = "recorded when hinesbatch was configured, as a Python with matplotlib";
    } else if (HB_CLI_PYTHON[0]) {
        py->path = "python3";
        py->origin = "python3 from PATH: " HB_CLI_PYTHON ", recorded when hinesbatch was "
                     "configured, is gone";
    } else {
        py->path = "python3";
        py->origin = "python3 from PATH: no Python with matplotlib was found when hinesbatch "
                     "was configured";
    }
}
