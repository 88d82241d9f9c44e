/* commands.h: the subcommands of the hinesbatch program, one file each. */
#ifndef HB_APPS_COMMANDS_H
#define HB_APPS_COMMANDS_H

typedef struct {
    const char *name;
    const char *summary;
    int (*run)(int argc, char **argv); /* argv[0] is the subcommand name */
} hb_command;

int hb_cmd_devices(int argc, char **argv);
int hb_cmd_solve(int argc, char **argv);
int hb_cmd_bench(int argc, char **argv);
int hb_cmd_morph(int argc, char **argv);
int hb_cmd_simulate(int argc, char **argv);
int hb_cmd_network(int argc, char **argv);
int hb_cmd_cardiac(int argc, char **argv);

#endif
