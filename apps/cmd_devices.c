/* cmd_devices.c: `hinesbatch devices`: which backends are compiled in and what each opens. */
#include <stdio.h>

#include "commands.h"
#include "hinesbatch.h"

int hb_cmd_devices(int argc, char **argv)
{
    (void)argc, (void)argv;
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
    }
    hb_context *ctx = NULL;
    if (hb_context_create(HB_BACKEND_AUTO, &ctx) == HB_SUCCESS)
        printf("auto -> %s\n", hb_context_describe(ctx));
    else
        printf("auto -> error: %s\n", hb_last_error());
    hb_context_destroy(ctx);
    return 0;
}
