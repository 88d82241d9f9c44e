/* hb_plan.h: the solver core's own types: plans, the layout engine, branch decomposition, AUTO rules. Private to api/core/. */
#ifndef HB_PLAN_H
#define HB_PLAN_H

/* The layers above the core use plans through hb_backend.h's accessors; the
 * core (and its white-box tests) define HB_CORE_INTERNALS. */
#ifndef HB_CORE_INTERNALS
#error "hb_plan.h is private to api/core: use the accessors of hb_backend.h"
#endif

#include "hb_backend.h"
#include "hb_validate.h"

#include <stdatomic.h>

#ifdef __cplusplus
extern "C" {
#endif

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

/* ---- Branch decomposition (api/core/branches.c) -------------------------- */
typedef struct {
    int32_t group_size;   /* fine tree: work-items per group; 0 = branch-level */
    int     split;        /* cut branches longer than their level's average   */
    int     reroot;       /* eliminate from the root of least depth           */
    int     general;      /* 1: the general path for copies of one tree too
                             (tests compare it with the one made for them)    */
} hb_branch_options;

/* Cuts the batch (flat offsets or nsys copies of one tree of n_uniform rows)
 * into branches, orders them, computes positions and uploads the tables. */
hb_status hb__branches_build(hb_plan *plan, const int32_t *parent, const hb_branch_options *o);
void hb__branches_free(hb_plan *plan);

/* ---- Cell-group schedule (api/core/cell_schedule.c) ---------------------- */
/* Builds each distinct tree's schedule (hb_backend.h, HB_CELL_*) for the
 * plan's flat layout (one for a batch that shares a tree; trees repeated in
 * a mixed batch are stored once) and uploads plan->dev.sched and soff.
 * chain: the most nodes of a chain (hb_plan_options.cell_chain; 0: the
 * library's rule). *widest: the most chains in one level, or trunk rows;
 * *levels: the most elimination levels of a tree (chain levels and one for
 * the trunk). */
hb_status hb__cell_schedule_build(hb_plan *plan, const int32_t *parent, int32_t chain,
                                  int64_t *widest, int64_t *levels);

/* ---- AUTO rules (api/core/auto.c), keyed on device traits ---------------- */
/* Work-items per fine-tree work-group. */
#define HB_FINE_TREE_GROUP 128
/* AUTO on a GPU: the fine tree below this many cells ... */
#define HB_AUTO_FINE_TREE_BELOW 4096
/* ... and per-system for this many cells or more, shared tree or not. */
#define HB_AUTO_PER_SYSTEM_FROM 131072
/* ... and per-system for shared trees of fewer rows than this. */
#define HB_AUTO_BRANCHES_FROM_ROWS 16
/* ... and the cost model (hb__auto_times) for trees of this many rows or
 * more, the range it was fitted on (418-2,000 rows): it chose branch-level
 * for a 44-row cell at 16,384 cells in double, 1.36x cell-group's time
 * (docs/benchmarks/h200-2026-12-01-shape, call 2), where the rule on rows
 * (hb__auto_cell_group_per_unit, measured on that cell) is right. */
#define HB_AUTO_MODEL_FROM_ROWS 400
/* ... and cell-group (where it can run) below hb__auto_cell_group_per_unit
 * cells per compute unit, then per-system for shared trees: for cells of R
 * rows, PER_UNIT x R / (R + ROWS), in double; _FLOAT in float. */
#define HB_AUTO_CELL_GROUP_PER_UNIT 404
#define HB_AUTO_CELL_GROUP_ROWS 38
#define HB_AUTO_CELL_GROUP_PER_UNIT_FLOAT 566
#define HB_AUTO_CELL_GROUP_ROWS_FLOAT 77
int64_t hb__auto_cell_group_per_unit(int64_t max_rows, size_t esize);
/* cell_ok: the cell-group strategy can run the batch (the backend has it
 * and hb__cell_fits); esize: bytes per value (4 float, 8 double). */
hb_strategy hb__auto_strategy(const hb_device_traits *dev, int64_t nsys, int64_t max_rows,
                              int mono, int cell_ok, size_t esize);
/* AUTO's cost model for a batch of copies of one tree on a GPU that gives
 * its compute units (api/core/auto.c, docs/strategies.md): each strategy's
 * solve time from the tree's shape, the batch and the device, in us. */
typedef struct {
    int64_t rows;     /* R: rows of the tree                                     */
    /* Branch-level (branches 0: not offered): the cut's branches, its
     * levels, and the sum over levels of each level's longest branch. */
    int64_t branches, blevels, bpath;
    /* Cell-group (waves 0: not offered): waves of cells over the device with
     * the plan's group and schedule, chain nodes one work-item walks level
     * after level with that group (hb_cell_shape.path), trunk rows, and
     * elimination levels (hb_cell_shape.levels). */
    int64_t waves, cpath, trunk, clevels;
} hb_auto_shape;
typedef struct {
    double per_system, branch_level, cell_group; /* us; < 0: not offered */
} hb_auto_times;
/* shared: the plan's couplings are shared (per-system or cell-group only). */
void hb__auto_times(const hb_device_traits *dev, int64_t nsys, const hb_auto_shape *s,
                    size_t esize, int shared, hb_auto_times *t);
/* The fastest offered strategy of t (per-system where none is offered). */
hb_strategy hb__auto_fastest(const hb_auto_times *t);
/* The model's error on each strategy's time: the worst relative error of its
 * fit (per-system 3%, branch-level 10%, cell-group 12.5% in double and 17%
 * in float; docs/benchmarks/h200-2026-12-01-shape) with 5 points to spare
 * for trees outside it. */
#define HB_AUTO_ERR_PER_SYSTEM 0.08
#define HB_AUTO_ERR_BRANCH_LEVEL 0.15
#define HB_AUTO_ERR_CELL_GROUP 0.18
#define HB_AUTO_ERR_CELL_GROUP_FLOAT 0.22
/* The offered strategies the model cannot tell from its fastest: those whose
 * time, less its error, is no more than the fastest's plus its error.
 * Writes them to out (the fastest first, then by modelled time) and returns
 * how many (1 to 3). */
int hb__auto_candidates(const hb_auto_times *t, size_t esize, hb_strategy out[3]);
/* AUTO's tie-break: each of cand[0..n) (the model's choice first) timed on a batch of nsys copies of
 * tree (rows rows) with options o, on synthetic values (couplings -1/1024,
 * diagonal and right-hand side 1), as plans of that strategy forced; the
 * median of HB_AUTO_MEASURE_REPS solves after one warm-up, host clock around
 * solve + synchronize. ms[i]: cand[i]'s median, or -1 where its plan could
 * not be made (out of memory: the next candidate is tried). *best: cand[0]
 * unless another ran faster than it by more than HB_AUTO_MEASURE_MARGIN (so
 * that a near tie gives the same choice every run), then the fastest;
 * unchanged, with every ms -1, when none ran or the batch
 * has more than HB_AUTO_MEASURE_MAX_ROWS rows (its host arrays would cost
 * more than the tie is worth). The messages of skipped candidates are
 * cleared. keep (may be NULL): the fastest's plan, as new (no array set),
 * so that it need not be made twice; NULL where it had to go to make room
 * for another candidate (one plan of the batch at a time then). */
#define HB_AUTO_MEASURE_REPS 5
#define HB_AUTO_MEASURE_MARGIN 0.03
#define HB_AUTO_MEASURE_MAX_ROWS ((int64_t)1 << 26)
hb_status hb__auto_measure(hb_context *ctx, hb_precision p, int64_t nsys, int64_t rows,
                           const int32_t *tree, const hb_plan_options *o, const hb_strategy *cand,
                           int n, hb_strategy *best, double *ms, hb_plan **keep);
/* Monotonic host clock in milliseconds (api/core/timing.c). */
double hb__now_ms(void);
/* The cell-group schedule's shape for the cost model: chains of at most
 * `chain` nodes (0: the library's rule), as hb__cell_schedule_build cuts
 * them. path[k]: with 2^k work-items per cell, the chain nodes one
 * work-item walks through every level (a level's work-items take its
 * chains in turns, each round as long as the level's longest chain). */
#define HB_CELL_SHAPE_GROUPS 11
typedef struct {
    int64_t widest, levels, trunk;
    int64_t path[HB_CELL_SHAPE_GROUPS];
} hb_cell_shape;
hb_status hb__cell_shape(const int32_t *parent, int64_t n, int32_t chain, hb_cell_shape *out);
/* hb__cell_local_bytes, hb__cell_fits: hb_backend.h (the simulation uses them). */
/* Cell-group work-items per cell: requested > 0 as asked; else the next
 * power of two >= the widest level, within [HB_CELL_MIN_GROUP,
 * HB_CELL_MAX_GROUP]; then capped at the device's work-group limit (the
 * plan may halve it for a batch of many cells: cell_launch, plan.c). */
#define HB_CELL_MIN_GROUP 32
#define HB_CELL_MAX_GROUP 256
int32_t hb__cell_group(const hb_device_traits *dev, int64_t widest, int32_t requested);
/* The layout for a batch of equal (uniform) or different sizes. */
hb_layout hb__auto_layout(const hb_device_traits *dev, int uniform);
/* Cooperative tridiagonal solver: work-items per system. requested > 0 is
 * taken as asked; else the next power of two >= max_rows/HB_COOP_ROWS_PER_ITEM,
 * at most HB_COOP_MAX_GROUP. Then capped at the device's work-group limit and
 * halved until the kernel's local memory (HB_COOP_LOCAL_REALS: staged blocks
 * of 4 arrays, 36 reals per work-item) fits the device's. */
#define HB_COOP_ROWS_PER_ITEM 4
#define HB_COOP_MAX_GROUP 256
int32_t hb__coop_group(const hb_device_traits *dev, int64_t max_rows, size_t esize,
                       int32_t requested);
/* Resident cooperative solver (whole systems in local memory), planned when
 * the backend has it and the longest system fits: P work-items per system
 * (requested > 0 is taken as asked, else the next power of two >= max_rows /
 * hb__coop_resident_rows_per_item, at most HB_COOP_MAX_GROUP), capped at the
 * device's work-group limit, S systems per group so that the
 * group has about HB_COOP_RESIDENT_ITEMS work-items, halved until the local
 * memory, 3 x S x P x LD reals (LD: the longest chunk, at least 3, odd),
 * fits HB_COOP_RESIDENT_BUDGET and the device's local memory (several groups
 * per multiprocessor; 48 KiB is also the K80/P100 limit per group). One
 * system alone (S = 1) may take the device's whole local memory per group, or
 * at most `alone` bytes when that is > 0 (HINESBATCH_COOP_RESIDENT_LIMIT;
 * never less than the budget above), with P by HB_COOP_ALONE_CHUNK_BYTES
 * when requested is 0. */
/* Both may be set at build time (-DHB_COOP_RESIDENT_ITEMS=256) for a sweep. */
#ifndef HB_COOP_RESIDENT_ITEMS
#define HB_COOP_RESIDENT_ITEMS 128
#endif
#ifndef HB_COOP_RESIDENT_BUDGET
#define HB_COOP_RESIDENT_BUDGET ((size_t)48 * 1024)
#endif
/* Rows per work-item of the resident solver when group_size is 0: 8 for
 * batches of HB_COOP_FULL_ROWS rows or more, 4 from HB_COOP_HALF_ROWS, else 1
 * (latency-bound; auto.c has the measurements). */
#define HB_COOP_FULL_ROWS ((uint64_t)1 << 20)
#define HB_COOP_HALF_ROWS ((uint64_t)1 << 17)
int64_t hb__coop_resident_rows_per_item(int64_t nsys, int64_t max_rows);
/* One long system alone in a group (past HB_COOP_RESIDENT_BUDGET): the
 * largest power of two <= max_rows / r work-items, with chunks of r rows of
 * HB_COOP_ALONE_CHUNK_BYTES in each array (8 doubles, 16 floats), never fewer
 * than the rule above, up to HB_COOP_ALONE_MAX_GROUP and the device's limit,
 * where that fits, else the rule above. Measured on an H200
 * (docs/benchmarks/h200-2026-11-29-wide, 2,000 systems): double 4,096 rows
 * 0.346 ms at 8 rows each against 0.390 at 16; float 4,096 rows 0.152 ms at
 * 16 against 0.193 at 8; float 8,192 rows 0.399 at 16, 0.406 at 8 and 0.541
 * at 32. */
#define HB_COOP_ALONE_CHUNK_BYTES 64
#define HB_COOP_ALONE_MAX_GROUP 1024
typedef struct {
    int32_t group;       /* P: work-items per system                         */
    int32_t systems;     /* S: systems per work-group                        */
    int32_t ld;          /* LD: local stride of a chunk                      */
    size_t  local_bytes; /* local memory of one work-group                   */
} hb_coop_resident;
/* 1 and *out filled when every system fits (max_rows rows, nsys systems);
 * 0 when even one system of max_rows rows does not (the staged kernel). */
int hb__coop_resident(const hb_device_traits *dev, int64_t nsys, int64_t max_rows, size_t esize,
                      int32_t requested, size_t alone, hb_coop_resident *out);
/* Cooperative: work-groups per system (G, the span). requested > 0 is taken
 * as asked; else 1 (the staged kernel) unless nsys groups leave the device's
 * compute units idle: then the smallest power of two G with nsys x G >=
 * HB_COOP_SPAN_FILL x compute_units, while segments of max_rows / G keep at
 * least HB_COOP_SPAN_MIN_ROWS rows. Measured on an H100 (G swept 1..32 at 20
 * and 200 systems of 1,024 and 8,192 rows, docs/strategies.md): the span's
 * three launches cost ~0.04 ms, so 1,024-row systems lose at any G > 1
 * (0.055 ms against 0.019), and 8,192-row ones gain most at G = 4 (20
 * systems: 0.060 ms against 0.134 at G = 1 and 0.093 at G = 16). */
#define HB_COOP_SPAN_FILL 4
#define HB_COOP_SPAN_MIN_ROWS 2048
/* Span: rows per work-item's chunk that the group size aims at (one staged
 * block, HB_COOP_MB): the reduced system is then about n/4 rows, not n/2 as
 * with HB_COOP_ROWS_PER_ITEM. */
#define HB_COOP_SPAN_ROWS_PER_ITEM 8
int32_t hb__coop_span(const hb_device_traits *dev, int64_t nsys, int64_t max_rows,
                      int32_t requested);
/* The register cooperative kernel (thomas_coop_warp) for systems of up to
 * max_rows rows of esize-byte reals: M rows per lane (8 up to 256 rows, 16
 * up to 512, 32 up to 1,024 in float) and W lanes per system (the least
 * power of two with W x M >= max_rows), into *rows_per_lane and *lanes;
 * returns 0 (and sets neither) past HB_COOP_WARP_MAX_ROWS. */
int hb__coop_warp_shape(size_t esize, int64_t max_rows, int32_t *rows_per_lane, int32_t *lanes);
/* Whether cooperative plans run it when HINESBATCH_COOP_WARP leaves it to
 * the rule (docs/strategies.md has the measurements): double systems of up
 * to 256 rows, float ones of up to 512, longer floats where the batch has
 * at least HB_COOP_WARP_MIN_WAVES systems per compute unit. */
#define HB_COOP_WARP_MIN_WAVES 16
int hb__coop_warp_rule(const hb_device_traits *dev, size_t esize, int64_t nsys, int64_t max_rows);
/* AUTO's strategy for a tridiagonal plan whose strategy and layout are both
 * AUTO: cooperative on a GPU backend that has it (has_coop; measured faster
 * at every point of the seeds' grid, docs/strategies.md), else per-system. */
hb_strategy hb__auto_tridiag_strategy(const hb_device_traits *dev, int has_coop, int64_t nsys,
                                      int64_t max_rows);

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
    int64_t      cell_levels;/* cell-group: most elimination levels of a tree  */
    char         note[200];  /* why a strategy asked for did not run, or ""   */
    int          rhs_ready;  /* RHS set since the last solve                   */
    int          d_ready;    /* Hines D set since the last solve                */
    int          solved;     /* a solve ran since RHS was last set             */
    unsigned     set_mask;   /* arrays set at least once (bit per hb_array)    */
    atomic_int   busy;       /* a thread is inside a call that changes the plan */
    char         describe[1024];
};

/* A plan is used by one thread at a time (hinesbatch.h). The calls that use
 * its state or buffers (set, solve, synchronize, get_solution, buffer) enter
 * and leave; a thread that comes while another is inside gets HB_ERR_BUSY
 * naming fn, and the plan is untouched. */
hb_status hb__plan_enter(hb_plan *plan, const char *fn);
void hb__plan_leave(hb_plan *plan);

#ifdef __cplusplus
}
#endif
#endif /* HB_PLAN_H */
