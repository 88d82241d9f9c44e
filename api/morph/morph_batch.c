/* morph_batch.c: batches of cells (mono: one replicated; multi: many) as flat arrays for plans. */
#include "hb_error.h"
#include "hinesbatch_morph.h"

#include <stdlib.h>
#include <string.h>

struct hb_morph_batch {
    int64_t nsys, rows, n;
    int64_t *offsets;
    int32_t *parent;
    double *d, *u, *l, *cdt, *area;
};

void hb_morph_batch_destroy(hb_morph_batch *b)
{
    if (!b)
        return;
    free(b->offsets), free(b->parent), free(b->d), free(b->u), free(b->l), free(b->cdt);
    free(b->area), free(b);
}

/* Bytes of a batch: 5 doubles and a parent per row, an offset per system
 * (saturated: the counts come from the caller). */
static uint64_t batch_bytes(int64_t nsys, int64_t rows)
{
    return hb__add_sat(hb__mul_sat((uint64_t)rows, 5 * sizeof(double) + sizeof(int32_t)),
                       hb__mul_sat((uint64_t)nsys + 1, sizeof(int64_t)));
}

static hb_status batch_alloc(int64_t nsys, int64_t rows, const char *fn, hb_morph_batch **out)
{
    /* Refused before calloc: an overcommitting kernel grants a batch past
     * physical memory, and filling it swaps or gets the process killed. */
    hb_status st = hb__host_check(batch_bytes(nsys, rows), fn);
    if (st != HB_SUCCESS)
        return hb__error(st, "%s (%lld systems, %lld rows)", hb_last_error(), (long long)nsys,
                         (long long)rows);
    hb_morph_batch *b = calloc(1, sizeof *b);
    if (b) {
        b->nsys = nsys, b->rows = rows;
        b->offsets = nsys < INT64_MAX ? hb__calloc_n(nsys + 1, sizeof *b->offsets) : NULL;
        b->parent = hb__calloc_n(rows, sizeof *b->parent);
        b->d = hb__calloc_n(rows, sizeof(double)), b->u = hb__calloc_n(rows, sizeof(double));
        b->l = hb__calloc_n(rows, sizeof(double)), b->cdt = hb__calloc_n(rows, sizeof(double));
        b->area = hb__calloc_n(rows, sizeof(double));
    }
    if (!b || !b->offsets || !b->parent || !b->d || !b->u || !b->l || !b->cdt || !b->area) {
        hb_morph_batch_destroy(b);
        return hb__error(HB_ERR_OUT_OF_MEMORY, "%s: out of memory for %lld systems, %lld rows", fn,
                         (long long)nsys, (long long)rows);
    }
    *out = b;
    return HB_SUCCESS;
}

/* Writes one cell's rows at offset o. */
static hb_status fill(hb_morph_batch *b, const hb_morph_cell *cell, int64_t o, double dt)
{
    hb_morph_cell_view v;
    HB_FORWARD(hb_morph_cell_get_view(cell, &v));
    HB_FORWARD(hb_morph_cell_matrix(cell, dt, b->d + o, b->u + o, b->l + o));
    HB_FORWARD(hb_morph_cell_cdt(cell, dt, b->cdt + o));
    memcpy(b->parent + o, v.parent, (size_t)v.n * sizeof *v.parent);
    memcpy(b->area + o, v.area, (size_t)v.n * sizeof *v.area);
    return HB_SUCCESS;
}

/* The arguments both batch makers share: cells (or cell), output, count, dt. */
static hb_status check_args(const void *cells, const char *cells_name, const void *batch,
                            int64_t n, const char *n_name, double dt, const char *fn)
{
    if (!cells || !batch)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: %s is NULL", fn,
                         !cells ? cells_name : "batch");
    if (n < 1)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: %s = %lld < 1", fn, n_name, (long long)n);
    if (!(dt > 0))
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: dt = %g ms, must be > 0", fn, dt);
    return HB_SUCCESS;
}

/* Hands the batch out when it was filled, else frees it. */
static hb_status finish(hb_morph_batch *b, hb_status st, hb_morph_batch **batch)
{
    if (st != HB_SUCCESS) {
        hb_morph_batch_destroy(b);
        return st;
    }
    *batch = b;
    return HB_SUCCESS;
}

hb_status hb_morph_batch_mono(const hb_morph_cell *cell, int64_t nsys, double dt,
                              hb_morph_batch **batch)
{
    const char *fn = "hb_morph_batch_mono";
    HB_FORWARD(check_args(cell, "cell", batch, nsys, "nsys", dt, fn));
    hb_morph_cell_view v;
    HB_FORWARD(hb_morph_cell_get_view(cell, &v));
    int64_t rows = 0, row_bytes = 0;
    if (!hb__mul_i64(nsys, v.n, &rows) || !hb__mul_i64(rows, sizeof(double), &row_bytes))
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: nsys = %lld systems of %lld rows overflow",
                         fn, (long long)nsys, (long long)v.n);
    hb_morph_batch *b = NULL;
    HB_FORWARD(batch_alloc(nsys, rows, fn, &b));
    b->n = v.n;
    hb_status st = fill(b, cell, 0, dt);
    for (int64_t s = 0; s <= nsys; ++s)
        b->offsets[s] = s * v.n;
    /* Replicate the first system, one memcpy per array and system. */
    size_t bytes = (size_t)v.n * sizeof(double);
    for (int64_t s = 1; s < nsys && st == HB_SUCCESS; ++s) {
        int64_t o = s * v.n;
        memcpy(b->d + o, b->d, bytes), memcpy(b->u + o, b->u, bytes), memcpy(b->l + o, b->l, bytes);
        memcpy(b->cdt + o, b->cdt, bytes), memcpy(b->area + o, b->area, bytes);
        memcpy(b->parent + o, b->parent, (size_t)v.n * sizeof *b->parent);
    }
    return finish(b, st, batch);
}

hb_status hb_morph_batch_multi(const hb_morph_cell *const *cells, int64_t ncells, double dt,
                               hb_morph_batch **batch)
{
    const char *fn = "hb_morph_batch_multi";
    HB_FORWARD(check_args(cells, "cells", batch, ncells, "ncells", dt, fn));
    int64_t rows = 0;
    for (int64_t s = 0; s < ncells; ++s) {
        hb_morph_cell_view v;
        if (!cells[s])
            return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: cells[%lld] is NULL", fn, (long long)s);
        HB_FORWARD(hb_morph_cell_get_view(cells[s], &v));
        if (v.n > INT64_MAX / 8 - rows)
            return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: %lld cells: the rows overflow", fn,
                             (long long)ncells);
        rows += v.n;
    }
    hb_morph_batch *b = NULL;
    HB_FORWARD(batch_alloc(ncells, rows, fn, &b));
    hb_status st = HB_SUCCESS;
    b->offsets[0] = 0;
    for (int64_t s = 0; s < ncells && st == HB_SUCCESS; ++s) {
        hb_morph_cell_view v;
        hb_morph_cell_get_view(cells[s], &v);
        st = fill(b, cells[s], b->offsets[s], dt);
        b->offsets[s + 1] = b->offsets[s] + v.n;
    }
    return finish(b, st, batch);
}

hb_status hb_morph_batch_get_view(const hb_morph_batch *b, hb_morph_batch_view *v)
{
    if (!b || !v)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "hb_morph_batch_get_view: %s is NULL",
                         !b ? "batch" : "view");
    v->nsys = b->nsys, v->rows = b->rows, v->n = b->n, v->offsets = b->offsets;
    v->parent = b->parent, v->d = b->d, v->u = b->u, v->l = b->l, v->cdt = b->cdt;
    v->area = b->area;
    return HB_SUCCESS;
}
