/* bench_morph.h: the cells of a benchmark morphology (shipped SWC neurons, synthetic cells) with their matrices. */
#ifndef HB_APPS_BENCH_MORPH_H
#define HB_APPS_BENCH_MORPH_H

#include <stdint.h>

#include "hinesbatch_morph.h"

/* The distinct cells of a morphology; system s of a batch is cell s % n.
 * It knows nothing of batches: bench_data.c tiles the cells over one. */
typedef struct {
    int                 n;
    hb_morph_cell     **cell;
    hb_morph_cell_view *view; /* each cell's rows and parents                  */
    double            **mat;  /* each cell's implicit Euler u, l, d (view.n each) */
} bench_cells;

/* The cells of a morphology spec (see the usage of cmd_bench.c): shipped
 * neurons by name from dir, synthetic ones drawn from seed; mix:random makes
 * at most nsys cells. On failure cells holds nothing. */
hb_status bench_cells_make(const char *spec, const char *dir, uint64_t seed, int64_t nsys,
                           bench_cells *cells);
void      bench_cells_free(bench_cells *cells);

/* Whether a spec is well formed (levels:N:L with N >= 1 and L in [1, 30],
 * random:SEED, branchy:N:PERCENT:SEED, mix:real, mix:random, or a name or
 * path); 0 after a message naming --morphology. Files are not opened. */
int bench_morph_check(const char *spec);

/* The shipped SWC files of dir, sorted, without ".swc"; returns the count
 * (names freed by the caller). */
int bench_morph_list(const char *dir, char ***names);
/* The file of a morphology named spec: spec itself when it is a path (has a
 * '/' or ends in .swc), else DIR/spec.swc (dir NULL: "."), into path. */
void bench_morph_path(const char *spec, const char *dir, char *path, size_t size);

#endif
