/* bench_data.c: host inputs of a benchmark point (random tridiagonal batches; Hines via bench_morph.c) and their residual check. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

static uint64_t mix(uint64_t *s)
{ /* splitmix64: fast, seedable; the inputs only need to be well conditioned */
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static double unit(uint64_t *s) { return (double)(mix(s) >> 11) * 0x1.0p-53; }

static void put(hb_precision p, void *x, int64_t k, double v)
{
    if (p == HB_DOUBLE)
        ((double *)x)[k] = v;
    else
        ((float *)x)[k] = (float)v;
}

void bench_data_free(bench_data *data)
{
    free(data->offsets);
    free(data->tree);
    free(data->parent);
    free(data->m0);
    free(data->m1);
    free(data->m2);
    for (int i = 0; i < BENCH_RHS_SETS; ++i)
        free(data->rhs[i]);
    free(data->x);
    memset(data, 0, sizeof *data);
}

size_t bench_data_bytes(const bench_data *data)
{
    return (size_t)data->nrows * 5u * data->esize;
}

hb_status bench_data_alloc(bench_data *data)
{
    size_t bytes = (size_t)data->nrows * data->esize;
    data->m0 = malloc(bytes);
    data->m1 = malloc(bytes);
    data->m2 = malloc(bytes);
    data->x = malloc(bytes);
    int ok = data->m0 && data->m1 && data->m2 && data->x;
    for (int i = 0; i < BENCH_RHS_SETS; ++i)
        ok = (data->rhs[i] = malloc(bytes)) != NULL && ok;
    return ok ? HB_SUCCESS : HB_ERR_OUT_OF_MEMORY;
}

static void fill_rhs(bench_data *data, uint64_t *rng)
{
    for (int i = 0; i < BENCH_RHS_SETS; ++i)
        for (int64_t k = 0; k < data->nrows; ++k)
            put(data->precision, data->rhs[i], k, 2.0 * unit(rng) - 1.0);
}

/* Random diagonally dominant tridiagonal systems (well conditioned, so the
 * residual ratio measures the solver, not the matrix). */
static hb_status make_thomas(const bench_point *pt, int64_t max_rows, bench_data *data,
                             uint64_t *rng)
{
    int64_t nsys = pt->systems;
    data->offsets = malloc((size_t)(nsys + 1) * sizeof *data->offsets);
    if (!data->offsets)
        return HB_ERR_OUT_OF_MEMORY;
    data->offsets[0] = 0;
    data->rows_min = INT64_MAX, data->rows_max = 0;
    for (int64_t s = 0; s < nsys; ++s) {
        int64_t n = pt->rows_hi > 0
                        ? pt->rows_lo + (int64_t)(mix(rng) % (uint64_t)(pt->rows_hi - pt->rows_lo + 1))
                        : pt->rows;
        data->offsets[s + 1] = data->offsets[s] + n;
        data->rows_min = n < data->rows_min ? n : data->rows_min;
        data->rows_max = n > data->rows_max ? n : data->rows_max;
    }
    data->nrows = data->offsets[nsys];
    data->n_uniform = data->rows_min == data->rows_max ? data->rows_max : 0;
    if (data->nrows > max_rows)
        return HB_SUCCESS; /* too big for this run: no values, the caller skips it */
    hb_status st = bench_data_alloc(data);
    if (st != HB_SUCCESS)
        return st;
    for (int64_t k = 0; k < data->nrows; ++k) {
        double a = 2.0 * unit(rng) - 1.0, c = 2.0 * unit(rng) - 1.0;
        double b = (fabs(a) + fabs(c) + 0.5 + unit(rng)) * (mix(rng) & 1 ? 1.0 : -1.0);
        put(data->precision, data->m0, k, a);
        put(data->precision, data->m1, k, b);
        put(data->precision, data->m2, k, c);
    }
    return HB_SUCCESS;
}

hb_status bench_data_make(const bench_point *pt, const bench_config *cfg, bench_data *data)
{
    memset(data, 0, sizeof *data);
    data->kind = pt->kind;
    data->precision = pt->precision;
    data->esize = pt->precision == HB_DOUBLE ? sizeof(double) : sizeof(float);
    data->nsys = pt->systems;
    uint64_t rng = cfg->seed ^ (uint64_t)pt->systems * 0x100000001B3ull;
    hb_status st;
    if (pt->kind == BENCH_THOMAS) {
        st = make_thomas(pt, cfg->max_rows, data, &rng);
        if (st == HB_SUCCESS && data->m0)
            fill_rhs(data, &rng);
    } else {
        st = bench_morph_fill(pt, cfg, data);
        if (st == HB_SUCCESS && data->m0)
            fill_rhs(data, &rng);
    }
    if (st != HB_SUCCESS)
        bench_data_free(data);
    return st;
}

double bench_data_residual(const bench_data *data, int set, hb_status *st)
{
    double ratio = 0;
    int64_t worst = -1;
    if (data->kind == BENCH_THOMAS)
        *st = hb_tridiag_residual(data->precision, data->nsys, data->offsets, data->m0, data->m1,
                                  data->m2, data->x, data->rhs[set], &ratio, &worst);
    else
        *st = hb_hines_residual(data->precision, data->nsys, data->offsets, data->parent, data->m0,
                                data->m1, data->m2, data->x, data->rhs[set], &ratio, &worst);
    return ratio;
}
