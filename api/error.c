/* error.c: status names and the thread-local last-error message. */
#include "hb_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One table gives each code its name, so names cannot drift from codes. */
#define HB_STATUS_MAP(X)                                        \
    X(HB_SUCCESS, "success")                                    \
    X(HB_ERR_INVALID_ARGUMENT, "invalid argument")              \
    X(HB_ERR_INVALID_TREE, "invalid tree")                      \
    X(HB_ERR_NUMERICAL, "numerical failure")                    \
    X(HB_ERR_OUT_OF_MEMORY, "out of memory")                    \
    X(HB_ERR_BACKEND_UNAVAILABLE, "backend unavailable")        \
    X(HB_ERR_BACKEND, "backend error")                          \
    X(HB_ERR_IO, "I/O error")                                   \
    X(HB_ERR_PARSE, "parse error")

const char *hb_status_string(hb_status status)
{
    switch (status) {
#define HB_STATUS_CASE(code, text) \
    case code:                     \
        return #code ": " text;
        HB_STATUS_MAP(HB_STATUS_CASE)
#undef HB_STATUS_CASE
    }
    return "unknown hb_status";
}

static _Thread_local char hb__message[1024];

const char *hb_last_error(void) { return hb__message; }

void hb__clear_error(void) { hb__message[0] = '\0'; }

int hb__verbose(void)
{
    const char *v = getenv("HINESBATCH_VERBOSE");
    return v && v[0] && strcmp(v, "0") != 0;
}

void hb__log(const char *fmt, ...)
{
    if (!hb__verbose())
        return;
    va_list ap;
    va_start(ap, fmt);
    fputs("hinesbatch: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

hb_status hb__error(hb_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(hb__message, sizeof hb__message, fmt, ap);
    va_end(ap);
    if (hb__verbose())
        fprintf(stderr, "hinesbatch: %s: %s\n", hb_status_string(status), hb__message);
    return status;
}

int hb_version(void)
{
    return HINESBATCH_VERSION_MAJOR * 10000 + HINESBATCH_VERSION_MINOR * 100 +
           HINESBATCH_VERSION_PATCH;
}
