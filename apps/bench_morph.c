/* bench_morph.c: Hines inputs of a benchmark point from real (SWC) and synthetic neurons, one morphology or a mix, tiled over the batch. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "hinesbatch_morph.h"

#define BENCH_DT 0.025 /* ms: a usual NEURON time step */
#define MIX_CELLS 64   /* distinct synthetic cells in a synthetic mix */

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int bench_morph_list(const char *dir, char ***names)
{
    *names = NULL;
    DIR *d = dir ? opendir(dir) : NULL;
    if (!d)
        return 0;
    int n = 0, cap = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        size_t len = strlen(e->d_name);
        if (len <= 4 || strcmp(e->d_name + len - 4, ".swc"))
            continue;
        if (n == cap) {
            char **p = realloc(*names, (size_t)(cap = cap ? 2 * cap : 16) * sizeof *p);
            if (!p)
                break;
            *names = p;
        }
        char *name = malloc(len - 3);
        if (!name)
            break;
        memcpy(name, e->d_name, len - 4);
        name[len - 4] = '\0';
        (*names)[n++] = name;
    }
    closedir(d);
    if (n > 1)
        qsort(*names, (size_t)n, sizeof **names, cmp_name);
    return n;
}

/* A real neuron: NEURON-style sections cut by the d_lambda rule (0.1 at 100 Hz). */
static hb_status load_swc(const char *spec, const char *dir, hb_morph_cell **cell)
{
    char path[1024];
    size_t len = strlen(spec);
    if (strchr(spec, '/') || (len > 4 && !strcmp(spec + len - 4, ".swc")))
        snprintf(path, sizeof path, "%s", spec);
    else
        snprintf(path, sizeof path, "%s/%s.swc", dir ? dir : ".", spec);
    hb_swc_options so;
    hb_swc_options_init(&so);
    so.repair_radii = 1;
    hb_morph *m = NULL;
    hb_status st = hb_morph_read_swc(path, &so, &m);
    if (st != HB_SUCCESS)
        return st;
    hb_discretize_options o;
    hb_discretize_options_init(&o);
    o.policy = HB_POLICY_SECTION;
    o.nseg = 0;
    hb_cable cable;
    hb_cable_init(&cable);
    st = hb_morph_cell_create(m, &o, &cable, cell);
    hb_morph_destroy(m);
    return st;
}

/* Arbor's miniapp-style random cells: always branching at the root, less
 * often deeper, branches shrinking from 200 to 20 um. */
static hb_status random_cell(uint64_t seed, hb_morph_cell **cell)
{
    hb_synth_random_params p = {.levels = 8, .p_start = 1.0, .p_end = 0.5,
                                .len_start = 200.0, .len_end = 20.0, .seed = seed};
    return hb_morph_synth_random(&p, NULL, cell);
}

/* The cells of a morphology spec (see the usage of cmd_bench.c). */
static hb_status make_cells(const char *spec, const bench_config *cfg, int64_t nsys,
                            hb_morph_cell ***cells, int *ncells)
{
    int cap = MIX_CELLS;
    char **names = NULL;
    int nnames = 0;
    if (!strcmp(spec, "mix:real")) {
        nnames = bench_morph_list(cfg->morph_dir, &names);
        cap = nnames;
        if (nnames == 0) {
            fprintf(stderr, "hinesbatch bench: mix:real: no SWC files in %s\n", cfg->morph_dir);
            return HB_ERR_IO;
        }
    }
    *cells = calloc((size_t)(cap > 0 ? cap : 1), sizeof **cells);
    *ncells = 0;
    hb_status st = *cells ? HB_SUCCESS : HB_ERR_OUT_OF_MEMORY;
    long long a = 0, b = 0, c = 0;
    double pct = 0;
    if (st != HB_SUCCESS) {
    } else if (nnames > 0) {
        for (int i = 0; i < nnames && st == HB_SUCCESS; ++i)
            if ((st = load_swc(names[i], cfg->morph_dir, &(*cells)[*ncells])) == HB_SUCCESS)
                ++*ncells;
    } else if (!strcmp(spec, "mix:random")) {
        for (int64_t i = 0; i < cap && i < nsys && st == HB_SUCCESS; ++i)
            if ((st = random_cell(cfg->seed + (uint64_t)i, &(*cells)[*ncells])) == HB_SUCCESS)
                ++*ncells;
    } else if (sscanf(spec, "levels:%lld:%lld", &a, &b) == 2) {
        st = hb_morph_synth_levels(a, (int32_t)b, NULL, &(*cells)[0]);
        *ncells = st == HB_SUCCESS;
    } else if (sscanf(spec, "random:%lld", &a) == 1) {
        st = random_cell((uint64_t)a, &(*cells)[0]);
        *ncells = st == HB_SUCCESS;
    } else if (sscanf(spec, "branchy:%lld:%lf:%lld", &a, &pct, &c) == 3) {
        st = hb_morph_synth_branchy(a, pct, (uint64_t)c, NULL, &(*cells)[0]);
        *ncells = st == HB_SUCCESS;
    } else {
        st = load_swc(spec, cfg->morph_dir, &(*cells)[0]);
        *ncells = st == HB_SUCCESS;
    }
    for (int i = 0; i < nnames; ++i)
        free(names[i]);
    free(names);
    return st;
}

static void store(hb_precision p, void *dst, int64_t at, const double *src, int64_t n)
{
    if (p == HB_DOUBLE)
        memcpy((double *)dst + at, src, (size_t)n * sizeof *src);
    else
        for (int64_t k = 0; k < n; ++k)
            ((float *)dst)[at + k] = (float)src[k];
}

hb_status bench_morph_fill(const bench_point *pt, const bench_config *cfg, bench_data *data)
{
    hb_morph_cell **cells = NULL;
    int ncells = 0;
    hb_status st = make_cells(pt->morph, cfg, pt->systems, &cells, &ncells);
    hb_morph_cell_view *view = calloc((size_t)(ncells > 0 ? ncells : 1), sizeof *view);
    double **mat = calloc((size_t)(ncells > 0 ? ncells : 1), sizeof *mat);
    if (st == HB_SUCCESS && (!view || !mat))
        st = HB_ERR_OUT_OF_MEMORY;
    /* Each distinct cell's implicit Euler matrix (u, l, d), once. */
    for (int i = 0; i < ncells && st == HB_SUCCESS; ++i) {
        st = hb_morph_cell_get_view(cells[i], &view[i]);
        if (st == HB_SUCCESS && !(mat[i] = malloc((size_t)view[i].n * 3 * sizeof(double))))
            st = HB_ERR_OUT_OF_MEMORY;
        if (st == HB_SUCCESS)
            st = hb_morph_cell_matrix(cells[i], BENCH_DT, mat[i] + 2 * view[i].n, mat[i],
                                      mat[i] + view[i].n);
    }
    int64_t nsys = pt->systems;
    if (st == HB_SUCCESS && !(data->offsets = malloc((size_t)(nsys + 1) * sizeof *data->offsets)))
        st = HB_ERR_OUT_OF_MEMORY;
    if (st == HB_SUCCESS) {
        data->offsets[0] = 0;
        data->rows_min = INT64_MAX, data->rows_max = 0;
        for (int64_t s = 0; s < nsys; ++s) {
            int64_t n = view[s % ncells].n;
            data->offsets[s + 1] = data->offsets[s] + n;
            data->rows_min = n < data->rows_min ? n : data->rows_min;
            data->rows_max = n > data->rows_max ? n : data->rows_max;
        }
        data->nrows = data->offsets[nsys];
        data->mono = ncells == 1;
        data->n_uniform = data->rows_min == data->rows_max ? data->rows_max : 0;
    }
    /* Too big for this run: the caller sees no values and skips the point. */
    if (st == HB_SUCCESS && data->nrows <= cfg->max_rows) {
        st = bench_data_alloc(data);
        data->parent = malloc((size_t)data->nrows * sizeof *data->parent);
        data->tree = data->mono ? malloc((size_t)view[0].n * sizeof *data->tree) : NULL;
        if (st == HB_SUCCESS && (!data->parent || (data->mono && !data->tree)))
            st = HB_ERR_OUT_OF_MEMORY;
        if (st == HB_SUCCESS && data->mono)
            memcpy(data->tree, view[0].parent, (size_t)view[0].n * sizeof *data->tree);
        /* Systems are independent: tiled on every thread (which also first-
         * touches gigabytes of fresh pages in parallel). */
        const int ok = st == HB_SUCCESS;
#pragma omp parallel for schedule(static) if (ok)
        for (int64_t s = 0; s < (ok ? nsys : 0); ++s) {
            const hb_morph_cell_view *v = &view[s % ncells];
            const double *m = mat[s % ncells];
            int64_t at = data->offsets[s];
            memcpy(data->parent + at, v->parent, (size_t)v->n * sizeof *data->parent);
            store(data->precision, data->m0, at, m, v->n);
            store(data->precision, data->m1, at, m + v->n, v->n);
            store(data->precision, data->m2, at, m + 2 * v->n, v->n);
        }
    }
    for (int i = 0; i < ncells; ++i) {
        free(mat ? mat[i] : NULL);
        hb_morph_cell_destroy(cells[i]);
    }
    free(mat);
    free(view);
    free(cells);
    return st;
}
