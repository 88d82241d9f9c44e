/* bench_morph.c: the cells of a benchmark morphology, real (SWC) or synthetic, one or a mix, and each cell's matrix. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_morph.h"

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
    hb_discretize_options o;
    hb_discretize_options_init(&o);
    o.policy = HB_POLICY_SECTION, o.nseg = 0; /* nseg 0: the d_lambda rule */
    hb_cable cable;
    hb_cable_init(&cable);
    if (st == HB_SUCCESS)
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
static hb_status make_cells(const char *spec, const char *dir, uint64_t seed, int64_t nsys,
                            hb_morph_cell ***cells, int *ncells)
{
    int cap = MIX_CELLS;
    char **names = NULL;
    int nnames = 0;
    if (!strcmp(spec, "mix:real")) {
        nnames = bench_morph_list(dir, &names);
        cap = nnames;
        if (nnames == 0) {
            fprintf(stderr, "hinesbatch bench: mix:real: no SWC files in %s\n", dir);
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
            if ((st = load_swc(names[i], dir, &(*cells)[*ncells])) == HB_SUCCESS)
                ++*ncells;
    } else if (!strcmp(spec, "mix:random")) {
        for (int64_t i = 0; i < cap && i < nsys && st == HB_SUCCESS; ++i)
            if ((st = random_cell(seed + (uint64_t)i, &(*cells)[*ncells])) == HB_SUCCESS)
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
        st = load_swc(spec, dir, &(*cells)[0]);
        *ncells = st == HB_SUCCESS;
    }
    for (int i = 0; i < nnames; ++i)
        free(names[i]);
    free(names);
    return st;
}

void bench_cells_free(bench_cells *cells)
{
    for (int i = 0; i < cells->n; ++i) {
        free(cells->mat ? cells->mat[i] : NULL);
        hb_morph_cell_destroy(cells->cell[i]);
    }
    free(cells->mat);
    free(cells->view);
    free(cells->cell);
    memset(cells, 0, sizeof *cells);
}

hb_status bench_cells_make(const char *spec, const char *dir, uint64_t seed, int64_t nsys,
                           bench_cells *cells)
{
    memset(cells, 0, sizeof *cells);
    hb_status st = make_cells(spec, dir, seed, nsys, &cells->cell, &cells->n);
    int n = cells->n > 0 ? cells->n : 1;
    cells->view = calloc((size_t)n, sizeof *cells->view);
    cells->mat = calloc((size_t)n, sizeof *cells->mat);
    if (st == HB_SUCCESS && (!cells->view || !cells->mat))
        st = HB_ERR_OUT_OF_MEMORY;
    /* Each distinct cell's implicit Euler matrix (u, l, d), once. */
    for (int i = 0; i < cells->n && st == HB_SUCCESS; ++i) {
        const hb_morph_cell_view *v = &cells->view[i];
        st = hb_morph_cell_get_view(cells->cell[i], &cells->view[i]);
        double *m = st == HB_SUCCESS ? malloc((size_t)v->n * 3 * sizeof *m) : NULL;
        if (st == HB_SUCCESS && !(cells->mat[i] = m))
            st = HB_ERR_OUT_OF_MEMORY;
        if (st == HB_SUCCESS)
            st = hb_morph_cell_matrix(cells->cell[i], BENCH_DT, m + 2 * v->n, m, m + v->n);
    }
    if (st != HB_SUCCESS)
        bench_cells_free(cells);
    return st;
}
