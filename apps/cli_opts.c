/* cli_opts.c: the option loop of every subcommand: getopt_long with exact names, and messages that name the option. */
#define _GNU_SOURCE /* getopt_long */
#include "cli_opts.h"

#include <stdio.h>
#include <string.h>

void cli_opts_init(cli_opts *o, const char *cmd, int argc, char **argv,
                   const struct option *opts)
{
    memset(o, 0, sizeof *o);
    o->cmd = cmd, o->argc = argc, o->argv = argv, o->opts = opts;
    optind = 1;
    opterr = 0; /* our messages, which name the subcommand */
}

/* The option as typed, without "=value". */
static const char *typed(cli_opts *o, const char *arg)
{
    size_t len = strcspn(arg, "=");
    if (len >= sizeof o->flagbuf)
        len = sizeof o->flagbuf - 1;
    memcpy(o->flagbuf, arg, len);
    o->flagbuf[len] = '\0';
    return o->flagbuf;
}

static int bad(cli_opts *o, const char *what, const char *arg)
{
    fprintf(stderr, "hinesbatch %s: %s '%s' (hinesbatch %s --help lists the options)\n", o->cmd,
            what, arg, o->cmd);
    return CLI_OPTS_BAD;
}

int cli_opts_next(cli_opts *o)
{
    int li = -1;
    int c = getopt_long(o->argc, o->argv, ":h", o->opts, &li);
    o->flag = NULL, o->value = NULL;
    if (c == -1)
        return CLI_OPTS_END;
    /* The argument that held the option: the one before a separate value. */
    const char *arg = o->argv[optind - 1];
    if (optarg && arg == optarg && optind >= 2)
        arg = o->argv[optind - 2];
    if (c == ':') {
        fprintf(stderr, "hinesbatch %s: %s needs a value\n", o->cmd, typed(o, arg));
        return CLI_OPTS_BAD;
    }
    if (c == '?') {
        if (!strncmp(arg, "--", 2) && strchr(arg, '=') && optopt)
            return bad(o, "this option takes no value:", arg);
        if (!strncmp(arg, "--", 2))
            return bad(o, "unknown option", typed(o, arg));
        char shortopt[3] = {'-', (char)optopt, '\0'};
        return bad(o, "unknown option", shortopt);
    }
    if (li < 0) { /* a short option: only -h */
        o->flag = "-h";
        return c;
    }
    /* getopt_long takes any unambiguous prefix; names are exact here, so
     * that a prefix never becomes part of the interface. */
    size_t len = strlen(o->opts[li].name);
    if (strncmp(arg, "--", 2) || strncmp(arg + 2, o->opts[li].name, len) ||
        (arg[2 + len] && arg[2 + len] != '='))
        return bad(o, "unknown option", typed(o, arg));
    snprintf(o->flagbuf, sizeof o->flagbuf, "--%s", o->opts[li].name);
    o->flag = o->flagbuf;
    o->value = optarg;
    if (optarg && optarg == o->argv[optind - 1] && !strncmp(optarg, "--", 2)) {
        fprintf(stderr, "hinesbatch %s: %s needs a value (got the option '%s'; write %s=VALUE "
                        "for a value that starts with --)\n",
                o->cmd, o->flag, optarg, o->flag);
        return CLI_OPTS_BAD;
    }
    return c;
}

int cli_opts_operands(cli_opts *o, char ***operands, int max)
{
    int n = o->argc - optind;
    *operands = o->argv + optind;
    if (n > max) {
        fprintf(stderr, "hinesbatch %s: unexpected argument '%s' (hinesbatch %s --help lists the "
                        "options)\n",
                o->cmd, o->argv[optind + max], o->cmd);
        return -1;
    }
    return n;
}
