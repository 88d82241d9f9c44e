/* cmd_devices.c: `hinesbatch devices`: which backends are compiled in, what each opens, and every device of the GPU backends by index. */
#include <stdio.h>

#include "cli.h"
#include "cli_opts.h"
#include "commands.h"
#include "hinesbatch.h"

static void usage(void)
{
    printf("usage: hinesbatch devices\n"
           "Lists every backend: not compiled in, unavailable (and why), or the device it\n"
           "opens; under each GPU backend, every device it can open by index (the index of\n"
           "HINESBATCH_DEVICE and hb_context_options.device; OpenCL: among the platforms\n"
           "HINESBATCH_OPENCL_PLATFORM allows); then the backend AUTO picks\n"
           "(HINESBATCH_BACKEND). A backend that does not open is information here; AUTO\n"
           "finding none (or a bad HINESBATCH_BACKEND) is a failure.\n" CLI_EXIT_HELP);
}

int hb_cmd_devices(int argc, char **argv)
{
    static const struct option opts[] = {{"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    cli_opts o;
    cli_opts_init(&o, "devices", argc, argv, opts);
    for (int c; (c = cli_opts_next(&o)) != CLI_OPTS_END;) {
        if (c != 'h')
            return CLI_EXIT_USAGE;
        usage();
        return CLI_EXIT_OK;
    }
    char **rest;
    if (cli_opts_operands(&o, &rest, 0) < 0)
        return CLI_EXIT_USAGE;
    for (int b = HB_BACKEND_SERIAL; b <= HB_BACKEND_CUDA; ++b) {
        hb_context *ctx = NULL;
        if (!hb_backend_compiled((hb_backend)b)) {
            printf("%-7s not compiled in\n", hb_backend_name((hb_backend)b));
            continue;
        }
        hb_status st = hb_context_create((hb_backend)b, &ctx);
        if (st == HB_SUCCESS)
            printf("%-7s %s\n", hb_backend_name((hb_backend)b), hb_context_describe(ctx));
        else
            printf("%-7s unavailable: %s\n", hb_backend_name((hb_backend)b), hb_last_error());
        hb_context_destroy(ctx);
        /* The host backends have one device, the line above. */
        int32_t n = 0;
        if ((b == HB_BACKEND_OPENCL || b == HB_BACKEND_CUDA) &&
            hb_backend_device_count((hb_backend)b, -1, &n) == HB_SUCCESS) {
            for (int32_t i = 0; i < n; ++i) {
                char name[256];
                if (hb_backend_device_name((hb_backend)b, -1, i, name, sizeof name) == HB_SUCCESS)
                    printf("        device %d: %s\n", (int)i, name);
                else
                    printf("        device %d: %s\n", (int)i, hb_last_error());
            }
        }
    }
    hb_context *ctx = NULL;
    int rc = CLI_EXIT_OK;
    if (hb_context_create(HB_BACKEND_AUTO, &ctx) == HB_SUCCESS)
        printf("auto -> %s\n", hb_context_describe(ctx));
    else {
        printf("auto -> error: %s\n", hb_last_error());
        fprintf(stderr, "hinesbatch devices: auto: %s\n", hb_last_error());
        rc = CLI_EXIT_FAIL;
    }
    hb_context_destroy(ctx);
    return rc;
}
