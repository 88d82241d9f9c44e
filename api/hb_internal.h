/* hb_internal.h: internal types shared by api/ and the backends (context, plan, backend operations). */
#ifndef HB_INTERNAL_H
#define HB_INTERNAL_H

#include "hinesbatch.h"

#include <stdarg.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Errors ---------------------------------------------------------------- */
/* Records a thread-local message and returns status, so checks stay one line:
 *   if (n < 0) return hb__error(HB_ERR_INVALID_ARGUMENT, "nsys = %lld < 0", n); */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
hb_status hb__error(hb_status status, const char *fmt, ...);
void hb__clear_error(void);
/* 1 when HINESBATCH_VERBOSE=1: choices and errors go to stderr. */
int hb__verbose(void);
void hb__log(const char *fmt, ...);

#define HB_FORWARD(expr)                    \
    do {                                    \
        hb_status hb__st_ = (expr);         \
        if (hb__st_ != HB_SUCCESS)          \
            return hb__st_;                 \
    } while (0)

/* ---- Backends ------------------------------------------------------------- */
/* A backend buffer: device memory (CUDA, OpenCL) or host memory (serial,
 * openmp). Each backend defines the struct. */
typedef struct hb_buffer hb_buffer;

/* Device-side view of a plan's layout: per-slot tables (slot = position in
 * the layout; slot t holds system perm[t]). Row i of slot t lives at
 * base[t] + i*stride. Kernels process rows [0, rows[t]). */
typedef struct {
    int64_t    nslots;
    int64_t    stride;
    int64_t    length;     /* elements in one layout array                     */
    int64_t    max_rows;   /* largest rows[t]                                  */
    int32_t    block_size; /* lanes per block for block layouts, else 0        */
    int32_t    mono;       /* 1: every slot shares parent table at offset 0    */
    int32_t    shared_rhs; /* HB_LAYOUT_BLOCK_SHARED: stage rhs on chip         */
    hb_buffer *base;       /* int64[nslots]                                    */
    hb_buffer *rows;       /* int64[nslots] rows the solver runs (padded or own)*/
    hb_buffer *nown;       /* int64[nslots] the system's own rows              */
    hb_buffer *flat;       /* int64[nslots] offset of the system in flat arrays */
    hb_buffer *poff;       /* int64[nslots] offset into parent (Hines only)     */
    hb_buffer *parent;     /* int32[] local parent indices, padded rows i-1    */
} hb_layout_dev;

/* What a conversion writes in rows a system does not own, and whether it
 * zeroes the ignored entry of the first or last row. */
typedef struct {
    double pad_value;     /* value of padded rows (0 or 1)                     */
    int    zero_first;    /* row 0 is ignored by definition (a, u, l)           */
    int    zero_last;     /* the last own row is ignored (c)                   */
} hb_convert_rule;

/* Device-side view of a batch cut into branches (unbranched runs), for the
 * branch-level and fine-tree strategies. Branch b's row j lives at
 * pos0[b] + j*bstride[b]; its head's parent node is at ppos[b] (-1 for a
 * root branch); its child branches are chidx[chptr[b] .. chptr[b+1]).
 * Branches come in segments (seg_ptr): each segment is one level of one
 * group, so its branches are independent. Group g owns segments
 * [grp_ptr[g], grp_ptr[g+1]), deepest level LAST. The branch-level strategy
 * has one group whose segments are the batch's levels. */
typedef struct {
    int64_t    nbranches, nsegments, ngroups, length, nrows;
    int64_t    max_seg_branches; /* largest segment (threads a group may need)  */
    int32_t    group_size;       /* fine tree: work-items per group             */
    int32_t    split;            /* branches were cut at their level's average   */
    int64_t   *host_seg_ptr;     /* host copies used to schedule launches       */
    int64_t   *host_grp_ptr;
    hb_buffer *pos0, *bstride, *len, *ppos, *chptr, *chidx; /* int64 per branch  */
    hb_buffer *seg_ptr;          /* int64[nsegments+1]                          */
    hb_buffer *grp_ptr;          /* int64[ngroups+1]                            */
    hb_buffer *rowmap;           /* int64[nrows]: flat row -> position          */
    /* Re-rooted trees: flat row k's couplings (u[k], l[k]) go to position
     * cmap_same[k] of U, L or, where the edge was turned round, to position
     * cmap_swap[k] of L, U (swapped); -1 = not there. NULL when not re-rooted. */
    hb_buffer *cmap_same, *cmap_swap;
} hb_branch_dev;

/* Device-side state of a simulation (api/sim*.c; kernels in
 * kernels_cl/membrane.cl, host loops in backend_omp/membrane.c). Per-row
 * arrays are flat (row k of the batch) in the plan's precision; pos maps a
 * flat row to its place in the plan's D and RHS. Conductances uS, currents
 * nA, voltages mV, times ms. */
typedef struct {
    int64_t    nrows, ncells;
    int64_t    nclamp_rows;   /* rows with at least one current clamp          */
    int64_t    nrec;          /* recorded cells (columns of rec)               */
    int64_t    max_spikes;    /* spike times kept per cell                     */
    double     dt, q10, ena, ek, el, threshold;
    hb_buffer *pos;           /* int64[nrows]: flat row -> plan array position  */
    hb_buffer *v, *m, *h, *n; /* real[nrows] state                             */
    hb_buffer *gna, *gk, *gl; /* real[nrows] maximal conductances, uS (0: none) */
    hb_buffer *cdt, *d0;      /* real[nrows] C/dt and the matrix diagonal, uS   */
    hb_buffer *gmem, *imem;   /* real[nrows] this step's dI/dV (uS), I (nA)     */
    hb_buffer *crow, *cptr;   /* int64: clamped row j, its clamps [cptr[j], cptr[j+1]) */
    hb_buffer *con, *coff;    /* int64[nclamps]: on for steps con <= step < coff */
    hb_buffer *camp;          /* real[nclamps]: amplitude, nA (inward +)         */
    hb_buffer *soma;          /* int64[ncells]: flat row of each cell's soma     */
    hb_buffer *vprev;         /* real[ncells]: soma voltage before the step       */
    hb_buffer *nspk;          /* int64[ncells]: spikes detected                  */
    hb_buffer *tspk;          /* real[ncells*max_spikes]: their times            */
    hb_buffer *recslot;       /* int64[ncells]: column in rec, or -1             */
    hb_buffer *rec;           /* real[chunk*nrec]: recorded soma voltages        */
} hb_sim_dev;

typedef struct hb_backend_ops {
    hb_backend kind;
    const char *name;
    /* Opens the backend; fills ctx->impl and ctx->device. */
    hb_status (*init)(hb_context *ctx);
    void (*fini)(hb_context *ctx);
    /* Preferred layout for a batch: HB_LAYOUT_FLAT on CPUs. */
    hb_layout (*preferred_layout)(const hb_context *ctx, int64_t nsys, int uniform);
    int32_t (*preferred_block)(const hb_context *ctx);
    int (*supports_double)(const hb_context *ctx);

    hb_status (*alloc)(hb_context *ctx, size_t bytes, hb_buffer **out);
    void (*release)(hb_context *ctx, hb_buffer *buf);
    hb_status (*write)(hb_context *ctx, void *stream, hb_buffer *buf, size_t offset,
                       const void *src, size_t bytes);
    hb_status (*read)(hb_context *ctx, void *stream, hb_buffer *buf, size_t offset,
                      void *dst, size_t bytes);
    void *(*native)(hb_buffer *buf);

    /* flat -> layout and layout -> flat, on the backend. */
    hb_status (*to_layout)(hb_context *ctx, void *stream, hb_precision p,
                           const hb_layout_dev *lay, const hb_convert_rule *rule,
                           hb_buffer *flat_src, hb_buffer *dst);
    hb_status (*to_flat)(hb_context *ctx, void *stream, hb_precision p,
                         const hb_layout_dev *lay, hb_buffer *src, hb_buffer *flat_dst);
    /* Thomas: a, b, c kept; cw scratch (layout length); d: rhs in, x out. */
    hb_status (*thomas)(hb_context *ctx, void *stream, hb_precision p,
                        const hb_layout_dev *lay, hb_buffer *a, hb_buffer *b,
                        hb_buffer *c, hb_buffer *cw, hb_buffer *d);
    /* Hines per system: d overwritten by the elimination, rhs in, x out. */
    hb_status (*hines)(hb_context *ctx, void *stream, hb_precision p,
                       const hb_layout_dev *lay, hb_buffer *u, hb_buffer *l,
                       hb_buffer *d, hb_buffer *rhs);
    /* Row-map conversions for the branch strategies: dst[map[k]] = src[k]
     * and dst[k] = src[map[k]] for k < n. */
    hb_status (*map_to_layout)(hb_context *ctx, void *stream, hb_precision p, int64_t n,
                               hb_buffer *map, hb_buffer *flat_src, hb_buffer *dst);
    hb_status (*map_to_flat)(hb_context *ctx, void *stream, hb_precision p, int64_t n,
                             hb_buffer *map, hb_buffer *src, hb_buffer *flat_dst);
    /* Hines by branches: one launch per level (branch-level) or one launch
     * with one work-group per group of cells (fine tree). Same contract as
     * hines. NULL where the backend lacks the strategy. */
    hb_status (*hines_branch_level)(hb_context *ctx, void *stream, hb_precision p,
                                    const hb_branch_dev *br, hb_buffer *u, hb_buffer *l,
                                    hb_buffer *d, hb_buffer *rhs);
    hb_status (*hines_fine_tree)(hb_context *ctx, void *stream, hb_precision p,
                                 const hb_branch_dev *br, hb_buffer *u, hb_buffer *l,
                                 hb_buffer *d, hb_buffer *rhs);
    /* Device-to-device copy of bytes (the bandwidth yardstick of benchmarks). */
    hb_status (*copy)(hb_context *ctx, void *stream, hb_buffer *dst, hb_buffer *src,
                      size_t bytes);
    /* Waits for all work queued on stream. */
    hb_status (*finish)(hb_context *ctx, void *stream);
    /* Simulation (api/sim*.c). Every backend here fills them; a backend that
     * leaves them NULL makes the simulation report HB_ERR_BACKEND_UNAVAILABLE.
     * sim_membrane: per row, advance the HH gates with v when advance != 0
     * (Rush-Larsen), then gmem = dI/dV and imem = I(v); then subtract the
     * clamps that are on at this step from imem of their rows.
     * sim_assemble: d[pos[k]] = d0 + gmem, rhs[pos[k]] = (cdt + gmem) v - imem.
     * sim_update: v[k] = x[pos[k]]; per cell: upward threshold crossing of the
     * soma voltage (time t0 + dt*fraction), and the recorded cells' soma
     * voltage into row rec_row of rec. */
    hb_status (*sim_membrane)(hb_context *ctx, void *stream, hb_precision p,
                              const hb_sim_dev *sim, int advance, int64_t step);
    hb_status (*sim_assemble)(hb_context *ctx, void *stream, hb_precision p,
                              const hb_sim_dev *sim, hb_buffer *d, hb_buffer *rhs);
    hb_status (*sim_update)(hb_context *ctx, void *stream, hb_precision p,
                            const hb_sim_dev *sim, hb_buffer *x, double t0, int64_t rec_row);
} hb_backend_ops;

/* Each returns its table, or NULL when the backend was not compiled in. */
const hb_backend_ops *hb__serial_backend(void);
const hb_backend_ops *hb__openmp_backend(void);
const hb_backend_ops *hb__opencl_backend(void);
const hb_backend_ops *hb__cuda_backend(void);

struct hb_context {
    const hb_backend_ops *ops;
    void *impl;            /* backend state                                    */
    char device[192];      /* device name, filled by init                      */
    int is_gpu;            /* set by init; auto uses OpenCL only on a GPU       */
    char describe[400];
};

/* ---- Layout engine -------------------------------------------------------- */
/* Host-side layout of a batch; see hb_layout_dev for the meaning. */
typedef struct {
    hb_layout layout;
    hb_padding padding;
    int32_t   block_size;
    int       variable;   /* systems differ in size                          */
    int       sorted;     /* slots are sorted by size, longest first         */
    int64_t   nslots, stride, length, max_rows;
    int64_t  *perm;       /* slot -> system                                   */
    int64_t  *slot_of;    /* system -> slot                                   */
    int64_t  *base, *rows, *nown, *flat;
} hb_layout_host;

/* Builds the layout of nsys systems with flat offsets (or uniform size n when
 * offsets is NULL). */
hb_status hb__layout_build(hb_layout_host *lay, hb_layout layout, int32_t block_size,
                           hb_padding padding, int64_t nsys, const int64_t *offsets,
                           int64_t n_uniform);
void hb__layout_free(hb_layout_host *lay);
const char *hb__layout_name(hb_layout layout);
const char *hb__strategy_name(hb_strategy s);

/* ---- Branch decomposition (api/branches.c) ------------------------------- */
typedef struct {
    int32_t group_size;   /* fine tree: work-items per group; 0 = branch-level */
    int     split;        /* cut branches longer than their level's average   */
    int     reroot;       /* eliminate from the root of least depth           */
} hb_branch_options;

/* Cuts the batch (flat offsets or nsys copies of one tree of n_uniform rows)
 * into branches, orders them, computes positions and uploads the tables. */
hb_status hb__branches_build(hb_plan *plan, const int32_t *parent, const hb_branch_options *o);
void hb__branches_free(hb_plan *plan);

/* Work-items per fine-tree work-group. */
#define HB_FINE_TREE_GROUP 128
/* AUTO on a GPU: the fine tree below this many cells ... */
#define HB_AUTO_FINE_TREE_BELOW 4096
/* ... and per-system for this many cells or more, shared tree or not. */
#define HB_AUTO_PER_SYSTEM_FROM 131072
/* ... and per-system for shared trees of fewer rows than this. */
#define HB_AUTO_BRANCHES_FROM_ROWS 64
hb_strategy hb__strategy_auto(const hb_context *ctx, int64_t nsys, int64_t max_rows, int mono);

/* ---- Validation ----------------------------------------------------------- */
hb_status hb__check_offsets(int64_t nsys, const int64_t *offsets, const char *name);
/* parent rule: parent[0] = -1, 0 <= parent[k] < k. */
hb_status hb__check_tree(const int32_t *parent, int64_t n, int64_t sys);
/* Finite values, skipping row 0 (skip_first) or the last row (skip_last) of
 * each system, where those entries are ignored. */
hb_status hb__check_finite(hb_precision p, const void *x, int64_t nsys,
                           const int64_t *offsets, int64_t n_uniform,
                           int skip_first, int skip_last, const char *name);

/* ---- Plans ---------------------------------------------------------------- */
typedef enum { HB_KIND_TRIDIAG = 0, HB_KIND_HINES = 1 } hb_kind;

#define HB_NUM_ARRAYS 7

struct hb_plan {
    hb_context  *ctx;
    hb_kind      kind;
    hb_precision precision;
    size_t       esize;
    int64_t      nsys;
    int64_t      nrows;      /* flat rows = offsets[nsys]                      */
    int64_t     *offsets;    /* NULL when uniform                              */
    int64_t      n_uniform;  /* rows per system when uniform, else 0           */
    hb_strategy  strategy;
    int          mono;       /* one parent array for all systems               */
    void        *stream;
    hb_layout_host lay;
    hb_layout_dev  dev;
    hb_buffer   *arrays[HB_NUM_ARRAYS];
    hb_buffer   *scratch;    /* Thomas c' (layout length)                      */
    hb_buffer   *staging;    /* flat array for host transfers                  */
    int          by_branch;  /* branch-level or fine-tree: data in branch layout */
    int64_t     *host_rowmap;/* by_branch: flat row -> position (hb_plan_index) */
    hb_branch_dev br;
    int          rhs_ready;  /* RHS set since the last solve                   */
    int          d_ready;    /* Hines D set since the last solve                */
    int          solved;     /* a solve ran since RHS was last set             */
    unsigned     set_mask;   /* arrays set at least once (bit per hb_array)    */
    char         describe[640];
};

#ifdef __cplusplus
}
#endif
#endif /* HB_INTERNAL_H */
