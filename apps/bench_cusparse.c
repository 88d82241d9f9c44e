/* bench_cusparse.c: cuSPARSE gtsvInterleavedBatch / gtsv2StridedBatch rows for thomas points (CUDA builds with apps/bench_cuda.cu). */
#include <math.h>
#include <string.h>

#include "bench.h"
#ifdef HB_HAVE_CUDA_BENCH
#include "bench_cuda.h"
#endif

/* Writes the two cuSPARSE rows of a uniform tridiagonal point, timed by
 * apps/bench_cuda.cu on its own inputs of the same shape and distribution,
 * each call alone by the host clock around it and a stream synchronisation:
 * the way bench_run.c times the point's hinesbatch rows (it times
 * hinesbatch's interleaved solve on those inputs too: logged, so the ratio
 * can be checked).
 * cuda is the CUDA row of the point (its copy yardstick is reused), serial
 * the serial reference (NULL when skipped). Returns the rows written. */
int bench_cusparse_rows(FILE *out, const bench_point *pt, const bench_data *data,
                        const bench_config *cfg, const bench_backend *cuda,
                        const bench_row *cuda_row, const bench_row *serial, int *failures)
{
#ifdef HB_HAVE_CUDA_BENCH
    /* The thomas suite's uniform points (vbatch compares paddings, not libraries). */
    if (pt->kind != BENCH_THOMAS || !data->n_uniform || !cuda ||
        !strcmp(pt->suite, "thomas-vbatch"))
        return 0;
    /* cuSPARSE's gtsv routines need at least 3 rows (CUSPARSE_STATUS_INVALID_VALUE
     * below): no rows to compare, not a failure. */
    if (data->n_uniform < 3) {
        fprintf(stderr, "bench: cusparse %lld x %lld: skipped (cuSPARSE needs at least 3 rows)\n",
                (long long)data->nsys, (long long)data->n_uniform);
        return 0;
    }
    /* cuSPARSE that cannot be loaded is one failure, said once, not one per point. */
    static int unavailable = 0;
    if (unavailable)
        return 0;
    hb_bench_thomas r;
    memset(&r, 0, sizeof r);
    hb_status st = hb_bench_cuda_thomas(cuda->ctx, data->precision, data->nsys, data->n_uniform,
                                        cfg->seed + 17, 1, &r);
    if (st == HB_ERR_BACKEND_UNAVAILABLE) {
        fprintf(stderr, "hinesbatch bench: FAILED cuSPARSE rows: %s\n", hb_bench_cuda_error());
        unavailable = 1;
        ++*failures;
        return 0;
    }
    if (st != HB_SUCCESS) {
        fprintf(stderr, "hinesbatch bench: cuSPARSE %lld x %lld: %s: %s\n", (long long)data->nsys,
                (long long)data->n_uniform, hb_status_string(st), hb_bench_cuda_error());
        ++*failures;
        return 0;
    }
    fprintf(stderr, "bench: cusparse %lld x %lld %s: hinesbatch %.4g ms, interleaved %.4g ms, "
                    "strided %.4g ms on bench_cuda's inputs (%d sets, %d reps)\n",
            (long long)data->nsys, (long long)data->n_uniform,
            data->precision == HB_DOUBLE ? "double" : "float", r.ms_hb, r.ms_interleaved,
            r.ms_strided, r.sets, r.reps);
    const char *names[2] = {"cusparse-interleaved", "cusparse-strided"};
    const char *layouts[2] = {"interleaved", "flat"};
    const char *algos[2] = {"gtsvInterleavedBatch-algo0", "gtsv2StridedBatch"};
    double ms[2] = {r.ms_interleaved, r.ms_strided}, res[2] = {r.res_interleaved, r.res_strided};
    size_t bytes = bench_data_bytes(data);
    for (int i = 0; i < 2; ++i) {
        bench_row row;
        memset(&row, 0, sizeof row);
        snprintf(row.backend, sizeof row.backend, "%s", names[i]);
        snprintf(row.device, sizeof row.device, "%s", cuda->device);
        snprintf(row.strategy, sizeof row.strategy, "%s", algos[i]);
        snprintf(row.layout, sizeof row.layout, "%s", layouts[i]);
        row.reps = r.reps;
        row.time_median_ms = ms[i];
        row.time_min_ms = NAN; /* bench_cuda reports medians only */
        row.gbps = (double)bytes / (ms[i] * 1e-3) / 1e9;
        row.copy_gbps = cuda_row ? cuda_row->copy_gbps : NAN;
        row.fraction = row.gbps / row.copy_gbps;
        row.speedup = serial ? serial->time_median_ms / ms[i] : NAN;
        row.max_ratio = res[i];
        if (!(res[i] < 30.0))
            ++*failures;
        bench_csv_row(out, pt, data, &row);
    }
    return 2;
#else
    (void)out, (void)pt, (void)data, (void)cfg, (void)cuda, (void)cuda_row, (void)serial,
        (void)failures;
    return 0;
#endif
}
