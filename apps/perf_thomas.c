/* perf_thomas.c: the first performance record: CUDA interleaved Thomas vs cuSPARSE and a device copy, on the cuThomasBatch grid. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_cuda.h"
#include "hinesbatch.h"

/* Usage: perf_thomas [--quick] [output.md]. --quick runs the smallest row of
 * the grid only (for sanitizers). Exit status 1 if any case fails, any
 * residual ratio reaches 30 or output.md cannot be written; 2 for a bad
 * command line (the convention of hinesbatch, docs/cli.md). */
int main(int argc, char **argv)
{
    const int64_t all_nsys[] = {256, 2560, 25600, 256000};
    const int64_t all_n[] = {64, 128, 256, 512};
    int quick = 0;
    const char *path = NULL;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--quick"))
            quick = 1;
        else if (argv[i][0] == '-' || path) {
            fprintf(stderr, "perf_thomas: unexpected argument '%s' (usage: perf_thomas "
                            "[--quick] [output.md])\n", argv[i]);
            return 2;
        } else
            path = argv[i];
    }
    hb_context *ctx = NULL;
    if (hb_context_create(HB_BACKEND_CUDA, &ctx) != HB_SUCCESS) {
        fprintf(stderr, "perf_thomas: %s\n", hb_last_error());
        return 1;
    }
    FILE *md = path ? fopen(path, "w") : NULL;
    if (path && !md) {
        fprintf(stderr, "perf_thomas: cannot write %s\n", path);
        hb_context_destroy(ctx);
        return 1;
    }
    const char *commit = getenv("HB_COMMIT");
    time_t now = time(NULL);
    char date[32];
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&now));
    const char *head =
        "| prec | systems | rows | sets | hinesbatch ms | GB/s | gtsvInterleaved ms | GB/s | "
        "gtsv2Strided ms | GB/s | copy ms | GB/s | hb/interleaved | hb/strided | hb/copy | "
        "residual hb / il / st |\n"
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n";
    char intro[512];
    snprintf(intro, sizeof intro,
             "Device: %s. Date: %s. Commit: %s. Every column timed alike: CUDA events "
             "around back-to-back calls.\n\n",
             hb_context_describe(ctx), date, commit ? commit : "(HB_COMMIT unset)");
    printf("%s%s", intro, head);
    if (md)
        fprintf(md, "%s%s", intro, head);
    int bad = 0;
    uint64_t seed = (uint64_t)now;
    for (int pi = 0; pi < 2; ++pi) {
        hb_precision p = pi == 0 ? HB_DOUBLE : HB_FLOAT;
        for (int si = 0; si < (quick ? 1 : 4); ++si)
            for (int ni = 0; ni < (quick ? 1 : 4); ++ni) {
                hb_bench_thomas r;
                int64_t nsys = all_nsys[si], n = all_n[ni];
                hb_status st = hb_bench_cuda_thomas(ctx, p, nsys, n, seed++, 0, &r);
                if (st != HB_SUCCESS) {
                    fprintf(stderr, "perf_thomas: %s %lld x %lld: %s: %s\n",
                            p == HB_DOUBLE ? "double" : "float", (long long)nsys, (long long)n,
                            hb_status_string(st), hb_bench_cuda_error());
                    bad = 1;
                    continue;
                }
                /* GB/s on compulsory bytes; the ratios are bandwidth (speed) ratios. */
                double gb = r.compulsory_bytes * 1e-6; /* bytes / ms * 1e-6 = GB/s */
                double bh = gb / r.ms_hb, bi = gb / r.ms_interleaved, bs = gb / r.ms_strided,
                       bc = gb / r.ms_copy;
                char line[512];
                snprintf(line, sizeof line,
                         "| %s | %lld | %lld | %d | %.4f | %.0f | %.4f | %.0f | %.4f | %.0f | "
                         "%.4f | %.0f | %.2f | %.2f | %.2f | %.2g / %.2g / %.2g |\n",
                         p == HB_DOUBLE ? "double" : "float", (long long)nsys, (long long)n,
                         r.sets, r.ms_hb, bh, r.ms_interleaved, bi, r.ms_strided, bs, r.ms_copy,
                         bc, bh / bi, bh / bs, bh / bc, r.res_hb, r.res_interleaved,
                         r.res_strided);
                fputs(line, stdout);
                fflush(stdout);
                if (md)
                    fputs(line, md);
                if (!(r.res_hb < 30) || !(r.res_interleaved < 30) || !(r.res_strided < 30)) {
                    fprintf(stderr, "perf_thomas: residual ratio >= 30 above\n");
                    bad = 1;
                }
            }
    }
    if (md && (ferror(md) | fclose(md))) {
        fprintf(stderr, "perf_thomas: error writing %s\n", path);
        bad = 1;
    }
    hb_context_destroy(ctx);
    return bad;
}
