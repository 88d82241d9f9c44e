/* bench_data.c: host inputs of a benchmark point (random tridiagonal batches; Hines cells of bench_morph.c tiled) and their residual check. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bench_morph.h"
#include "cli.h"

static void put(hb_precision p, void *x, int64_t k, double v)
{
    if (p == HB_DOUBLE)
        ((double *)x)[k] = v;
    else
        ((float *)x)[k] = (float)v;
}

void bench_data_free(bench_data *data)
{
    void *owned[] = {data->offsets, data->tree, data->parent, data->m0,
                     data->m1,      data->m2,   data->x};
    for (size_t i = 0; i < sizeof owned / sizeof owned[0]; ++i)
        free(owned[i]);
    for (int i = 0; i < BENCH_RHS_SETS; ++i)
        free(data->rhs[i]);
    memset(data, 0, sizeof *data);
}

size_t bench_data_bytes(const bench_data *data)
{
    return (size_t)data->nrows * 5u * data->esize;
}

/* m0, m1, m2, the right-hand-side sets and x, once nrows and esize are set. */
static hb_status alloc_values(bench_data *data)
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

/* Random values come from a pool of POOL + SLACK draws, copied in chunks of
 * POOL from random starts: big batches fill at memory speed instead of one
 * draw per value, and neighbouring chunks still differ. */
#define POOL ((int64_t)1 << 20)
#define SLACK ((int64_t)4093)

static double draw_sym(uint64_t *rng, double *aux)
{
    (void)aux;
    return 2.0 * cli_unit(rng) - 1.0;
}

/* Diagonal after a and c of the same row (in aux[0], aux[1]): dominant by
 * 0.5..1.5, random sign. */
static double draw_diag(uint64_t *rng, double *aux)
{
    return (fabs(aux[0]) + fabs(aux[1]) + 0.5 + cli_unit(rng)) * (cli_rand(rng) & 1 ? 1.0 : -1.0);
}

/* The chunks' starts are drawn in order (the data depend on the seed only);
 * the copies run on all threads, which also first-touch the pages in
 * parallel: a batch of gigabytes fills in a fraction of a second. */
static void fill_pool(size_t es, void *dst, int64_t n, const void *pool, uint64_t *rng)
{
    int64_t nchunks = (n + POOL - 1) / POOL;
    int64_t *from = malloc((size_t)(nchunks > 0 ? nchunks : 1) * sizeof *from);
    for (int64_t c = 0; c < nchunks; ++c) {
        int64_t f = (int64_t)(cli_rand(rng) % (uint64_t)SLACK);
        if (from)
            from[c] = f;
        else /* no memory for the table: the same copies, one thread */
            memcpy((char *)dst + (size_t)(c * POOL) * es, (const char *)pool + (size_t)f * es,
                   (size_t)(n - c * POOL < POOL ? n - c * POOL : POOL) * es);
    }
    if (!from)
        return;
#pragma omp parallel for schedule(static)
    for (int64_t c = 0; c < nchunks; ++c) {
        int64_t at = c * POOL, len = n - at < POOL ? n - at : POOL;
        memcpy((char *)dst + (size_t)at * es, (const char *)pool + (size_t)from[c] * es,
               (size_t)len * es);
    }
    free(from);
}

static void fill_rhs(bench_data *data, uint64_t *rng)
{
    int64_t np = POOL + SLACK;
    void *pool = malloc((size_t)np * data->esize);
    for (int i = 0; i < BENCH_RHS_SETS; ++i) {
        if (!pool || data->nrows <= np) { /* small: draw every value */
            for (int64_t k = 0; k < data->nrows; ++k)
                put(data->precision, data->rhs[i], k, draw_sym(rng, NULL));
            continue;
        }
        for (int64_t k = 0; k < np; ++k)
            put(data->precision, pool, k, draw_sym(rng, NULL));
        fill_pool(data->esize, data->rhs[i], data->nrows, pool, rng);
    }
    free(pool);
}

/* offsets[s + 1] holds the size of system s on entry; made offsets, with
 * the sizes' extremes and total. */
static void sum_sizes(bench_data *data)
{
    data->offsets[0] = 0;
    data->rows_min = INT64_MAX, data->rows_max = 0;
    for (int64_t s = 0; s < data->nsys; ++s) {
        int64_t n = data->offsets[s + 1];
        data->offsets[s + 1] = data->offsets[s] + n;
        data->rows_min = n < data->rows_min ? n : data->rows_min;
        data->rows_max = n > data->rows_max ? n : data->rows_max;
    }
    data->nrows = data->offsets[data->nsys];
    data->n_uniform = data->rows_min == data->rows_max ? data->rows_max : 0;
}

static void store(hb_precision p, void *dst, int64_t at, const double *src, int64_t n)
{
    if (p == HB_DOUBLE)
        memcpy((double *)dst + at, src, (size_t)n * sizeof *src);
    else
        for (int64_t k = 0; k < n; ++k)
            ((float *)dst)[at + k] = (float)src[k];
}

/* 1 when a batch of nsys systems and `rows` rows fits this machine: the
 * values (3 matrix arrays, x and the right-hand-side sets), a parent per
 * row for Hines points, an offset per system; else 0 after a message naming
 * --systems. Checked before any of it is allocated or written. */
static int inputs_fit(const bench_point *pt, size_t esize, uint64_t rows)
{
    char what[96];
    snprintf(what, sizeof what, "--systems %lld (%llu rows in all)", (long long)pt->systems,
             (unsigned long long)rows);
    uint64_t per_row = (4 + BENCH_RHS_SETS) * (uint64_t)esize + (pt->kind == BENCH_HINES ? 4 : 0);
    return cli_memory_fits("bench", what,
                           cli_add_sat(cli_mul_sat(rows, per_row),
                                       cli_mul_sat((uint64_t)pt->systems + 1, sizeof(int64_t))));
}

/* Hines systems: the cells of the point's morphology (bench_morph.c), system
 * s being cell s % ncells, so a mix cycles through its cells. */
static hb_status make_hines(const bench_point *pt, const bench_config *cfg, bench_data *data)
{
    bench_cells cells;
    hb_status st = bench_cells_make(pt->morph, cfg->morph_dir, cfg->seed, pt->systems, &cells);
    int64_t nsys = pt->systems;
    /* The rows from the distinct cells, before a table of nsys entries is
     * made: a point over --max-rows is skipped without allocating. */
    uint64_t round = 0, rest = 0;
    for (int i = 0; st == HB_SUCCESS && i < cells.n; ++i) {
        round = cli_add_sat(round, (uint64_t)cells.view[i].n);
        if (i < nsys % cells.n)
            rest = cli_add_sat(rest, (uint64_t)cells.view[i].n);
    }
    uint64_t rows = cli_add_sat(cli_mul_sat((uint64_t)(nsys / (cells.n > 0 ? cells.n : 1)), round),
                                rest);
    if (st == HB_SUCCESS && rows > (uint64_t)cfg->max_rows) {
        data->nrows = rows > INT64_MAX ? INT64_MAX : (int64_t)rows;
        bench_cells_free(&cells);
        return HB_SUCCESS; /* no values: the caller skips the point */
    }
    if (st == HB_SUCCESS && !inputs_fit(pt, data->esize, rows))
        st = HB_ERR_OUT_OF_MEMORY;
    if (st == HB_SUCCESS && !(data->offsets = malloc((size_t)(nsys + 1) * sizeof *data->offsets)))
        st = HB_ERR_OUT_OF_MEMORY;
    if (st == HB_SUCCESS) {
        for (int64_t s = 0; s < nsys; ++s)
            data->offsets[s + 1] = cells.view[s % cells.n].n;
        sum_sizes(data);
        data->mono = cells.n == 1;
    }
    /* Too big for this run: the caller sees no values and skips the point. */
    if (st == HB_SUCCESS && data->nrows <= cfg->max_rows) {
        st = alloc_values(data);
        data->parent = malloc((size_t)data->nrows * sizeof *data->parent);
        data->tree = data->mono ? malloc((size_t)cells.view[0].n * sizeof *data->tree) : NULL;
        if (st == HB_SUCCESS && (!data->parent || (data->mono && !data->tree)))
            st = HB_ERR_OUT_OF_MEMORY;
        if (st == HB_SUCCESS && data->mono)
            memcpy(data->tree, cells.view[0].parent, (size_t)cells.view[0].n * sizeof *data->tree);
        /* Systems are independent: tiled on every thread (which also first-
         * touches gigabytes of fresh pages in parallel). */
        const int ok = st == HB_SUCCESS;
#pragma omp parallel for schedule(static) if (ok)
        for (int64_t s = 0; s < (ok ? nsys : 0); ++s) {
            const hb_morph_cell_view *v = &cells.view[s % cells.n];
            const double *m = cells.mat[s % cells.n];
            int64_t at = data->offsets[s];
            memcpy(data->parent + at, v->parent, (size_t)v->n * sizeof *data->parent);
            store(data->precision, data->m0, at, m, v->n);
            store(data->precision, data->m1, at, m + v->n, v->n);
            store(data->precision, data->m2, at, m + 2 * v->n, v->n);
        }
    }
    bench_cells_free(&cells);
    return st;
}

/* Random diagonally dominant tridiagonal systems (well conditioned, so the
 * residual ratio measures the solver, not the matrix). */
static hb_status make_thomas(const bench_point *pt, int64_t max_rows, bench_data *data,
                             uint64_t *rng)
{
    int64_t nsys = pt->systems;
    /* Every system has rows_lo rows or more: a point over --max-rows is
     * skipped before its table of nsys sizes is made, and sizes whose sum
     * could pass 2^63 are never added up. */
    int64_t lo = pt->rows_hi > 0 ? pt->rows_lo : pt->rows;
    int64_t hi = pt->rows_hi > 0 ? pt->rows_hi : pt->rows;
    uint64_t least = cli_mul_sat((uint64_t)nsys, (uint64_t)lo);
    if (least > (uint64_t)max_rows || cli_mul_sat((uint64_t)nsys, (uint64_t)hi) > INT64_MAX) {
        data->nrows = least > (uint64_t)max_rows && least <= INT64_MAX ? (int64_t)least : INT64_MAX;
        return HB_SUCCESS; /* no values: the caller skips the point */
    }
    if (!inputs_fit(pt, data->esize, least))
        return HB_ERR_OUT_OF_MEMORY;
    if (!(data->offsets = malloc((size_t)(nsys + 1) * sizeof *data->offsets)))
        return HB_ERR_OUT_OF_MEMORY;
    for (int64_t s = 0; s < nsys; ++s) {
        uint64_t span = (uint64_t)(pt->rows_hi - pt->rows_lo + 1);
        int64_t n = pt->rows_hi > 0 ? pt->rows_lo + (int64_t)(cli_rand(rng) % span) : pt->rows;
        if (pt->rows_hi > 0 && s < 2 && nsys >= 2) /* both extremes always present */
            n = s == 0 ? pt->rows_lo : pt->rows_hi;
        data->offsets[s + 1] = n;
    }
    sum_sizes(data);
    if (data->nrows > max_rows)
        return HB_SUCCESS; /* too big for this run: no values, the caller skips it */
    hb_status st = alloc_values(data);
    if (st != HB_SUCCESS)
        return st;
    /* Rows drawn directly, or into a pool (a, b, c together, so every row
     * stays dominant) that is then tiled with the same offsets per array. */
    int64_t np = data->nrows <= POOL + SLACK ? data->nrows : POOL + SLACK;
    void *pool[3] = {data->m0, data->m1, data->m2};
    if (np < data->nrows)
        for (int i = 0; i < 3; ++i)
            if (!(pool[i] = malloc((size_t)np * data->esize)))
                st = HB_ERR_OUT_OF_MEMORY;
    for (int64_t k = 0; k < np && st == HB_SUCCESS; ++k) {
        double aux[2] = {draw_sym(rng, NULL), draw_sym(rng, NULL)};
        put(data->precision, pool[0], k, aux[0]);
        put(data->precision, pool[1], k, draw_diag(rng, aux));
        put(data->precision, pool[2], k, aux[1]);
    }
    if (np < data->nrows && st == HB_SUCCESS) {
        uint64_t save = *rng;
        void *dst[3] = {data->m0, data->m1, data->m2};
        for (int i = 0; i < 3; ++i) {
            uint64_t r = save; /* same chunk offsets in a, b and c */
            fill_pool(data->esize, dst[i], data->nrows, pool[i], &r);
            *rng = r;
        }
    }
    if (np < data->nrows)
        for (int i = 0; i < 3; ++i)
            free(pool[i]);
    return st;
}

hb_status bench_data_make(const bench_point *pt, const bench_config *cfg, bench_data *data)
{
    memset(data, 0, sizeof *data);
    data->kind = pt->kind;
    data->precision = pt->precision;
    data->esize = pt->precision == HB_DOUBLE ? sizeof(double) : sizeof(float);
    data->nsys = pt->systems;
    uint64_t rng = cfg->seed ^ (uint64_t)pt->systems * 0x100000001B3ull;
    hb_status st = pt->kind == BENCH_THOMAS ? make_thomas(pt, cfg->max_rows, data, &rng)
                                            : make_hines(pt, cfg, data);
    if (st == HB_SUCCESS && data->m0) /* m0 NULL: over --max-rows, skipped */
        fill_rhs(data, &rng);
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
