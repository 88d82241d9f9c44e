/* cli_opts.h: the option loop of every subcommand: getopt_long with exact names, and messages that name the option. */
#ifndef HB_APPS_CLI_OPTS_H
#define HB_APPS_CLI_OPTS_H

#include <getopt.h>

/* What cli_opts_next returns besides an option's val. */
enum {
    CLI_OPTS_END = -1, /* no options left                               */
    CLI_OPTS_BAD = -2  /* a bad command line; the message was printed   */
};

typedef struct {
    const char *cmd;                /* "simulate": messages say "hinesbatch simulate: " */
    int argc;
    char **argv;                    /* argv[0] is the subcommand's name                */
    const struct option *opts;      /* ends with a zero entry                          */
    const char *flag;               /* the option just returned, "--cells"             */
    const char *value;              /* its value; NULL for a switch                    */
    char flagbuf[48];
} cli_opts;

/* Starts the loop over argv[1..argc) (getopt_long's state is global: one
 * loop per process). Every subcommand's table has {"help", no_argument, 0,
 * 'h'}; -h is its short form, the only short option. */
void cli_opts_init(cli_opts *o, const char *cmd, int argc, char **argv,
                   const struct option *opts);

/* The next option's val, CLI_OPTS_END or CLI_OPTS_BAD. Refused, with a
 * message naming the option: an unknown option, an abbreviation of a known
 * one (names are exact), a missing value, a value given to a switch, and a
 * value that is the next option ("--csv --plot x.png": write "--csv=--plot"
 * for a file of that name). Arguments that are not options are left for
 * cli_opts_operands. */
int cli_opts_next(cli_opts *o);

/* After the loop: the arguments that were not options, in order. At most
 * max are allowed (0 for every subcommand but morph); more is a usage error
 * naming the first extra one and the function returns -1. */
int cli_opts_operands(cli_opts *o, char ***operands, int max);

#endif
