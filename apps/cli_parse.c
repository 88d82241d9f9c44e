/* cli_parse.c: the one checked parser of option values: integers and reals in a range, names from a table, lists. */
#include "cli_parse.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The text as the message shows it: at most 60 characters, control
 * characters as '?', so a hostile value cannot garble the terminal. */
static const char *shown(const char *text, char *buf, size_t size)
{
    size_t n = 0, max = size - 4;
    for (; text[n] && n < max; ++n)
        buf[n] = iscntrl((unsigned char)text[n]) ? '?' : text[n];
    buf[n] = '\0';
    if (text[n])
        strcpy(buf + n, "...");
    return buf;
}

int cli_bad_value(const char *cmd, const char *flag, const char *text, const char *what)
{
    char buf[64];
    fprintf(stderr, "hinesbatch %s: %s: '%s' %s\n", cmd, flag, shown(text, buf, sizeof buf), what);
    return 0;
}

/* strtoll and friends skip leading spaces and take a sign; the CLI wants
 * the text to be the number and nothing else. */
static int plain_start(const char *text, int sign_ok)
{
    const char *p = text;
    if (sign_ok && (*p == '+' || *p == '-'))
        ++p;
    return isdigit((unsigned char)*p);
}

int cli_int(const char *cmd, const char *flag, const char *text, int64_t lo, int64_t hi,
            int64_t *out)
{
    char what[96];
    snprintf(what, sizeof what, "is not an integer in [%" PRId64 ", %" PRId64 "]", lo, hi);
    if (!plain_start(text, 1))
        return cli_bad_value(cmd, flag, text, what);
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (*end || errno == ERANGE || v < lo || v > hi)
        return cli_bad_value(cmd, flag, text, what);
    *out = (int64_t)v;
    return 1;
}

int cli_int32(const char *cmd, const char *flag, const char *text, int32_t lo, int32_t hi,
              int32_t *out)
{
    int64_t v = 0; /* set on success; zeroed for gcc -O3 -Wmaybe-uninitialized */
    if (!cli_int(cmd, flag, text, lo, hi, &v))
        return 0;
    *out = (int32_t)v;
    return 1;
}

int cli_u64(const char *cmd, const char *flag, const char *text, uint64_t *out)
{
    const char *what = "is not an integer in [0, 18446744073709551615]";
    if (!plain_start(text, 0)) /* strtoull would turn "-1" into 2^64 - 1 */
        return cli_bad_value(cmd, flag, text, what);
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (*end || errno == ERANGE)
        return cli_bad_value(cmd, flag, text, what);
    *out = (uint64_t)v;
    return 1;
}

int cli_real(const char *cmd, const char *flag, const char *text, double lo, double hi,
             int lo_open, double *out)
{
    char what[128];
    if (isinf(hi) && isinf(lo))
        snprintf(what, sizeof what, "is not a finite number");
    else if (isinf(hi))
        snprintf(what, sizeof what, "is not a finite number %s %g", lo_open ? ">" : ">=", lo);
    else
        snprintf(what, sizeof what, "is not a finite number in %s%g, %g]", lo_open ? "(" : "[",
                 lo, hi);
    char *end;
    errno = 0;
    double v = (*text && !isspace((unsigned char)*text)) ? strtod(text, &end) : NAN;
    /* ERANGE: overflow or underflow; either way not the number written. */
    if (isnan(v) || *end || errno == ERANGE || !isfinite(v) || v < lo || (lo_open && v == lo) ||
        v > hi)
        return cli_bad_value(cmd, flag, text, what);
    *out = v;
    return 1;
}

/* "is not one of a, b, c" from a table of names. */
static int not_one_of(const char *cmd, const char *flag, const char *text,
                      const char *const *names, int n)
{
    char what[256];
    size_t at = (size_t)snprintf(what, sizeof what, "is not one of");
    for (int i = 0; i < n && at < sizeof what; ++i)
        at += (size_t)snprintf(what + at, sizeof what - at, "%s %s", i ? "," : "", names[i]);
    return cli_bad_value(cmd, flag, text, what);
}

int cli_choice(const char *cmd, const char *flag, const char *text, const char *const *names,
               int nnames, int *out)
{
    for (int i = 0; i < nnames; ++i)
        if (!strcmp(text, names[i]))
            return *out = i, 1;
    return not_one_of(cmd, flag, text, names, nnames);
}

int cli_precision(const char *cmd, const char *flag, const char *text, hb_precision *out)
{
    static const char *const names[] = {"double", "float"};
    int i = 0;
    if (!cli_choice(cmd, flag, text, names, 2, &i))
        return 0;
    *out = i == 0 ? HB_DOUBLE : HB_FLOAT;
    return 1;
}

/* The names of a library enum, from value 0 until the library says "unknown". */
#define NAMES_OF(NAMEFN, TYPE, names, n)                                          \
    do {                                                                          \
        for (n = 0; n < 8 && strcmp(NAMEFN((TYPE)n), "unknown"); ++n)             \
            names[n] = NAMEFN((TYPE)n);                                           \
    } while (0)

int cli_layout(const char *cmd, const char *flag, const char *text, hb_layout *out)
{
    if (cli_layout_from_name(text, out) == HB_SUCCESS)
        return 1;
    const char *names[10];
    int n;
    NAMES_OF(hb_layout_name, hb_layout, names, n);
    names[n++] = "interleaved"; /* the CLI's short names (cli.c) */
    names[n++] = "block";
    return not_one_of(cmd, flag, text, names, n);
}

int cli_padding(const char *cmd, const char *flag, const char *text, hb_padding *out)
{
    if (hb_padding_from_name(text, out) == HB_SUCCESS)
        return 1;
    const char *names[8];
    int n;
    NAMES_OF(hb_padding_name, hb_padding, names, n);
    return not_one_of(cmd, flag, text, names, n);
}

int cli_strategy(const char *cmd, const char *flag, const char *text, hb_strategy *out)
{
    if (hb_strategy_from_name(text, out) == HB_SUCCESS)
        return 1;
    const char *names[8];
    int n;
    NAMES_OF(hb_strategy_name, hb_strategy, names, n);
    return not_one_of(cmd, flag, text, names, n);
}

int cli_backend(const char *cmd, const char *flag, const char *text, int allow_auto,
                hb_backend *out)
{
    hb_backend b;
    if (hb_backend_from_name(text, &b) == HB_SUCCESS && (allow_auto || b != HB_BACKEND_AUTO))
        return *out = b, 1;
    const char *names[8];
    int n;
    NAMES_OF(hb_backend_name, hb_backend, names, n);
    return not_one_of(cmd, flag, text, names + !allow_auto, n - !allow_auto);
}

int cli_split(const char *cmd, const char *flag, const char *text, char sep, char *buf,
              size_t size, const char **items, int max)
{
    size_t len = strlen(text);
    if (len >= size)
        return cli_bad_value(cmd, flag, text, "is too long");
    memcpy(buf, text, len + 1);
    int n = 0;
    for (char *p = buf;; ++n) {
        char *end = strchr(p, sep);
        if (end)
            *end = '\0';
        if (!*p)
            return cli_bad_value(cmd, flag, text, "has an empty item");
        if (n == max) {
            char what[64];
            snprintf(what, sizeof what, "has more than %d items", max);
            return cli_bad_value(cmd, flag, text, what);
        }
        items[n] = p;
        if (!end)
            return n + 1;
        p = end + 1;
    }
}
