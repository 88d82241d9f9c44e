/* error.c: status names and messages (from HB_STATUS_LIST), the thread-local last-error message and logging. */
#include "hb_env.h"
#include "hb_error.h"

#include <stdio.h>
#include <string.h>

const char *hb_status_name(hb_status status)
{
    switch (status) {
#define HB_STATUS_CASE_(code, value, message) \
    case code:                                \
        return #code;
        HB_STATUS_LIST(HB_STATUS_CASE_)
#undef HB_STATUS_CASE_
    }
    return "unknown hb_status";
}

const char *hb_status_string(hb_status status)
{
    switch (status) {
#define HB_STATUS_CASE_(code, value, message) \
    case code:                                \
        return #code ": " message;
        HB_STATUS_LIST(HB_STATUS_CASE_)
#undef HB_STATUS_CASE_
    }
    return "unknown hb_status";
}

static _Thread_local char hb__message[1024];

const char *hb_last_error(void) { return hb__message; }

void hb__clear_error(void) { hb__message[0] = '\0'; }

void hb__log(const char *fmt, ...)
{
    if (!hb__env_verbose())
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
    /* Formatted apart first: a caller may pass hb_last_error() itself as an
     * argument (adding context to a backend's message). */
    char text[sizeof hb__message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    memcpy(hb__message, text, sizeof text);
    if (hb__env_verbose())
        fprintf(stderr, "hinesbatch: %s: %s\n", hb_status_string(status), hb__message);
    return status;
}

int hb_version(void)
{
    return HB_VERSION;
}
