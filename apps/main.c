/* main.c: the hinesbatch program: dispatches to its subcommands and checks that standard output was written. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "hinesbatch.h"

static const hb_command commands[] = {
    {"devices", "list the backends compiled in and the device each would use", hb_cmd_devices},
    {"solve", "solve a batch of random Hines systems and report time and residuals",
     hb_cmd_solve},
    {"bench", "benchmark suites: time, bandwidth, speedup and residual per point, as CSV",
     hb_cmd_bench},
    {"morph", "load an SWC neuron, cut it into compartments, print its statistics", hb_cmd_morph},
    {"simulate", "simulate a batch of neurons (HH soma, current clamp): traces, spikes, speed",
     hb_cmd_simulate},
    {"network", "a ring or random network of neurons over devices and MPI ranks: spikes, speed",
     hb_cmd_network},
    {"cardiac", "paced cardiac cells of a Myokit/CellML model: traces, APD, speed",
     hb_cmd_cardiac},
};

static void usage(FILE *out)
{
    fprintf(out, "usage: hinesbatch COMMAND [options]   (hinesbatch COMMAND --help)\n"
                 "       hinesbatch --version | --help\n\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; ++i)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\nHINESBATCH_BACKEND=auto|serial|openmp|opencl|cuda selects the backend.\n"
                 CLI_EXIT_HELP);
}

static int run(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return CLI_EXIT_USAGE;
    }
    const char *a = argv[1];
    int help = !strcmp(a, "--help") || !strcmp(a, "-h"), version = !strcmp(a, "--version");
    if ((help || version) && argc > 2) {
        fprintf(stderr, "hinesbatch: unexpected argument '%s' after %s\n", argv[2], a);
        return CLI_EXIT_USAGE;
    }
    if (help) {
        usage(stdout);
        return CLI_EXIT_OK;
    }
    if (version) {
        int v = hb_version();
        printf("hinesbatch %d.%d.%d\n", v / 10000, v / 100 % 100, v % 100);
        return CLI_EXIT_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; ++i)
        if (!strcmp(a, commands[i].name))
            return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "hinesbatch: unknown command '%s'\n\n", a);
    usage(stderr);
    return CLI_EXIT_USAGE;
}

int main(int argc, char **argv)
{
    int rc = run(argc, argv);
    /* Standard output is an output like any file: `hinesbatch devices >
     * /dev/full` must not report success. */
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "hinesbatch: error writing standard output: %s\n",
                errno ? strerror(errno) : "write error");
        return rc != CLI_EXIT_OK ? rc : CLI_EXIT_FAIL;
    }
    return rc;
}
