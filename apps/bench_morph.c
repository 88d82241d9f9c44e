/* bench_morph.c: the cells of a benchmark morphology, real (SWC) or synthetic, one or a mix, and each cell's matrix. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_morph.h"
#include "cli_parse.h"

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

void bench_morph_path(const char *spec, const char *dir, char *path, size_t size)
{
    size_t len = strlen(spec);
    if (strchr(spec, '/') || (len > 4 && !strcmp(spec + len - 4, ".swc")))
        snprintf(path, size, "%s", spec);
    else
        snprintf(path, size, "%s/%s.swc", dir ? dir : ".", spec);
}

/* A real neuron: NEURON-style sections cut by the d_lambda rule (0.1 at 100 Hz). */
static hb_status load_swc(const char *spec, const char *dir, hb_morph_cell **cell)
{
    char path[1024];
    bench_morph_path(spec, dir, path, sizeof path);
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

/* A morphology spec, parsed: the synthetic kinds with their numbers, or
 * a shipped name or .swc path. */
typedef enum { SPEC_FILE, SPEC_MIX_REAL, SPEC_MIX_RANDOM, SPEC_LEVELS, SPEC_RANDOM, SPEC_BRANCHY }
spec_kind;
typedef struct {
    spec_kind kind;
    int64_t   n;
    int32_t   levels;
    double    percent;
    uint64_t  seed;
} spec;

#define CMD "bench"

/* The fields of PREFIX:A:B...: exactly nfields of them after the prefix. */
static int fields(const char *text, const char *form, char *buf, size_t size, const char **f,
                  int nfields)
{
    const char *item[5];
    int n = cli_split(CMD, "--morphology", text, ':', buf, size, item, 5);
    if (n == 0)
        return 0;
    if (n != nfields + 1) {
        char what[64];
        snprintf(what, sizeof what, "is not %s", form);
        return cli_bad_value(CMD, "--morphology", text, what);
    }
    for (int i = 0; i < nfields; ++i)
        f[i] = item[i + 1];
    return 1;
}

/* Strict: a spec that starts like a synthetic one and is not well formed
 * is an error here, never taken for a file name. */
static int parse_spec(const char *text, spec *s)
{
    char buf[256];
    const char *f[3] = {NULL, NULL, NULL};
    memset(s, 0, sizeof *s);
    if (!strcmp(text, "mix:real"))
        s->kind = SPEC_MIX_REAL;
    else if (!strcmp(text, "mix:random"))
        s->kind = SPEC_MIX_RANDOM;
    else if (!strncmp(text, "mix:", 4))
        return cli_bad_value(CMD, "--morphology", text, "is not mix:real or mix:random");
    else if (!strncmp(text, "levels:", 7)) {
        s->kind = SPEC_LEVELS;
        return fields(text, "levels:N:L", buf, sizeof buf, f, 2) &&
               cli_int(CMD, "--morphology levels:N", f[0], 1, INT32_MAX, &s->n) &&
               cli_int32(CMD, "--morphology levels:N:L", f[1], 1, 30, &s->levels);
    } else if (!strncmp(text, "random:", 7)) {
        s->kind = SPEC_RANDOM;
        return fields(text, "random:SEED", buf, sizeof buf, f, 1) &&
               cli_u64(CMD, "--morphology random:SEED", f[0], &s->seed);
    } else if (!strncmp(text, "branchy:", 8)) {
        s->kind = SPEC_BRANCHY;
        return fields(text, "branchy:N:PERCENT:SEED", buf, sizeof buf, f, 3) &&
               cli_int(CMD, "--morphology branchy:N", f[0], 1, INT32_MAX, &s->n) &&
               cli_real(CMD, "--morphology branchy:N:PERCENT", f[1], 0, 100, CLI_LO_CLOSED,
                        &s->percent) &&
               cli_u64(CMD, "--morphology branchy:N:PERCENT:SEED", f[2], &s->seed);
    } else
        s->kind = SPEC_FILE;
    return 1;
}

int bench_morph_check(const char *text)
{
    spec s;
    return parse_spec(text, &s);
}

/* The cells of a morphology spec (see the usage of cmd_bench.c). */
static hb_status make_cells(const char *text, const char *dir, uint64_t seed, int64_t nsys,
                            hb_morph_cell ***cells, int *ncells)
{
    int cap = MIX_CELLS;
    char **names = NULL;
    int nnames = 0;
    spec sp;
    *ncells = 0;
    *cells = NULL;
    if (!parse_spec(text, &sp))
        return HB_ERR_INVALID_ARGUMENT;
    if (sp.kind == SPEC_MIX_REAL) {
        nnames = bench_morph_list(dir, &names);
        cap = nnames;
        if (nnames == 0) {
            fprintf(stderr, "hinesbatch bench: mix:real: no SWC files in %s\n", dir);
            return HB_ERR_IO;
        }
    }
    *cells = calloc((size_t)(cap > 0 ? cap : 1), sizeof **cells);
    hb_status st = *cells ? HB_SUCCESS : HB_ERR_OUT_OF_MEMORY;
    if (st != HB_SUCCESS) {
    } else if (sp.kind == SPEC_MIX_REAL) {
        for (int i = 0; i < nnames && st == HB_SUCCESS; ++i)
            if ((st = load_swc(names[i], dir, &(*cells)[*ncells])) == HB_SUCCESS)
                ++*ncells;
    } else if (sp.kind == SPEC_MIX_RANDOM) {
        for (int64_t i = 0; i < cap && i < nsys && st == HB_SUCCESS; ++i)
            if ((st = random_cell(seed + (uint64_t)i, &(*cells)[*ncells])) == HB_SUCCESS)
                ++*ncells;
    } else {
        if (sp.kind == SPEC_LEVELS)
            st = hb_morph_synth_levels(sp.n, sp.levels, NULL, &(*cells)[0]);
        else if (sp.kind == SPEC_RANDOM)
            st = random_cell(sp.seed, &(*cells)[0]);
        else if (sp.kind == SPEC_BRANCHY)
            st = hb_morph_synth_branchy(sp.n, sp.percent, sp.seed, NULL, &(*cells)[0]);
        else
            st = load_swc(text, dir, &(*cells)[0]);
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
