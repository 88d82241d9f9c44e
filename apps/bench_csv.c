/* bench_csv.c: the CSV of `hinesbatch bench`: header, one row per point and backend, safe fields. */
#include <math.h>

#include "bench.h"

void bench_csv_header(FILE *out)
{
    fprintf(out, "backend,device,kind,strategy,layout,precision,systems,rows_min,rows_max,"
                 "rows_total,time_ms_median,time_ms_min,reps,gbps_compulsory,copy_gbps,"
                 "fraction_of_copy,speedup_vs_serial,max_residual_ratio\n");
}

void bench_clean_field(char *s)
{
    for (; *s; ++s)
        if (*s == ',' || *s == '"' || *s == '\n' || *s == '\r')
            *s = *s == ',' ? ';' : ' ';
}

/* A number, or an empty field for NaN (not measured). */
static void num(FILE *out, const char *fmt, double v)
{
    fputc(',', out);
    if (!isnan(v))
        fprintf(out, fmt, v);
}

void bench_csv_row(FILE *out, const bench_point *pt, const bench_data *data, const bench_row *row)
{
    fprintf(out, "%s,%s,%s,%s,%s,%s,%lld,%lld,%lld,%lld", row->backend, row->device,
            pt->kind == BENCH_THOMAS ? "thomas" : "hines", row->strategy, row->layout,
            pt->precision == HB_DOUBLE ? "double" : "float", (long long)data->nsys,
            (long long)data->rows_min, (long long)data->rows_max, (long long)data->nrows);
    num(out, "%.6g", row->time_median_ms);
    num(out, "%.6g", row->time_min_ms);
    fprintf(out, ",%lld", (long long)row->reps);
    num(out, "%.6g", row->gbps);
    num(out, "%.6g", row->copy_gbps);
    num(out, "%.4g", row->fraction);
    num(out, "%.4g", row->speedup);
    num(out, "%.3g", row->max_ratio);
    fputc('\n', out);
    fflush(out);
}
