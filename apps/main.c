/* main.c: the hinesbatch program: dispatches to its subcommands. */
#include <stdio.h>
#include <string.h>

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
};

static void usage(FILE *out)
{
    fprintf(out, "usage: hinesbatch COMMAND [options]   (hinesbatch COMMAND --help)\n\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; ++i)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\nHINESBATCH_BACKEND=auto|serial|openmp|opencl|cuda selects the backend.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (!strcmp(argv[1], "--version")) {
        int v = hb_version();
        printf("hinesbatch %d.%d.%d\n", v / 10000, v / 100 % 100, v % 100);
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; ++i)
        if (!strcmp(argv[1], commands[i].name))
            return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "hinesbatch: unknown command '%s'\n\n", argv[1]);
    usage(stderr);
    return 2;
}
