/* cli_paths.h: where the program finds its shipped files (neurons, plot scripts) and the Python interpreter that runs the scripts. */
#ifndef HB_APPS_CLI_PATHS_H
#define HB_APPS_CLI_PATHS_H

#include <stddef.h>

/* The shipped files, by kind: neurons (data/morphologies/ in the source tree)
 * and scripts (the .py files of apps/ in the source tree). */
typedef enum { CLI_DATA_MORPHOLOGIES = 0, CLI_DATA_SCRIPTS = 1 } cli_data_kind;

/* The folder of one kind into buf, by the first rule that applies:
 *   1. HINESBATCH_DATA_DIR set and not empty: $HINESBATCH_DATA_DIR/morphologies,
 *      $HINESBATCH_DATA_DIR/scripts (the installed layout; nothing else is tried);
 *   2. the program is the one in its build tree: the source tree's
 *      data/morphologies and apps;
 *   3. else the installed layout beside the program (found through
 *      /proc/self/exe): BINDIR/../share/hinesbatch/{morphologies,scripts}
 *      (the configured DATADIR relative to BINDIR); without /proc, the
 *      configured install prefix's.
 * The working directory never matters. Whether the folder exists is not
 * checked here (the caller says which file is missing). Returns 1, or 0 when
 * the path does not fit size bytes. *origin (may be NULL) says which rule,
 * for messages ("set by HINESBATCH_DATA_DIR", "installed beside the program", ...). */
int cli_data_dir(cli_data_kind kind, char *buf, size_t size, const char **origin);
/* cli_data_dir/name into buf; 1, or 0 when it does not fit. */
int cli_data_file(cli_data_kind kind, const char *name, char *buf, size_t size,
                  const char **origin);

/* The interpreter for the plot scripts:
 *   1. HINESBATCH_PYTHON set and not empty: that program (a name without '/'
 *      is looked up in PATH); nothing else is tried;
 *   2. the one found when hinesbatch was configured (the first of CMake's
 *      Python3_EXECUTABLE, /usr/bin/python3 and python3 in PATH that imported
 *      matplotlib; cmake/hb_python.cmake), when it is still there;
 *   3. python3 in PATH.
 * path: what to run; origin: where it came from, for messages. */
typedef struct {
    const char *path;
    const char *origin; /* "set by HINESBATCH_PYTHON", ...                 */
    int from_env;       /* 1: HINESBATCH_PYTHON chose it                    */
} cli_python;
void cli_python_find(cli_python *py);

#endif
