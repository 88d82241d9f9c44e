/* hb_backend.h: the contract between the solver core and its backends: buffers, device views, the operations table, contexts. */
#ifndef HB_BACKEND_H
#define HB_BACKEND_H

#include "hb_error.h"
#include "hinesbatch.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

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
    int32_t    ul_shared;  /* Hines: u and l hold one system's rows in row order
                              (row i at i), read by every slot                 */
    int32_t    coop_group; /* cooperative (flat layout): work-items per system,
                              0 otherwise                                       */
    int32_t    coop_systems; /* resident cooperative: systems per work-group;
                              0: the staged kernel runs                         */
    int32_t    coop_ld;    /* resident cooperative: local stride of a chunk     */
    int32_t    coop_rows;  /* register cooperative (thomas_coop_warp): rows per
                              lane (coop_group lanes per system); 0 otherwise  */
    int32_t    coop_span;  /* cooperative: work-groups per system G (<= 1: one,
                              the staged kernel; else the span kernels)         */
    int64_t    span_stride; /* span: reduced rows per system, 2 x coop_group x G */
    int32_t    span_group; /* span: work-items per reduced system's group       */
    int32_t    cell_group; /* cell-group (flat layout): work-items per cell, 0
                              otherwise                                         */
    int32_t    cell_staged; /* cell-group: 1 when the schedule is staged in local
                              memory too (the largest cell's fits), 0 when the
                              kernels read it from global memory               */
    hb_buffer *base;       /* int64[nslots]                                    */
    hb_buffer *rows;       /* int64[nslots] rows the solver runs (padded or own)*/
    hb_buffer *nown;       /* int64[nslots] the system's own rows              */
    hb_buffer *flat;       /* int64[nslots] offset of the system in flat arrays */
    hb_buffer *poff;       /* int64[nslots] offset into parent (Hines only)     */
    hb_buffer *parent;     /* int32[] local parent indices, padded rows i-1    */
    /* Span (coop_span > 1): each system's reduced system, at s x span_stride
     * in span_a, span_c, span_d (sub-, super-diagonal, rhs then solution),
     * span_one (ones: its diagonal), span_cw (2 x nslots x span_stride: the
     * cooperative solve's scratch); span_base int64[nslots] = s x
     * span_stride, span_rows int64[nslots] written by the reduce kernel. */
    hb_buffer *span_a, *span_c, *span_d, *span_one, *span_cw, *span_base, *span_rows;
    /* Cell-group: each tree's elimination schedule (api/core/cell_schedule.c,
     * HB_CELL_* below); slot t's starts at sched[soff[t]] (0 for every slot
     * of a batch that shares one tree). NULL otherwise. */
    hb_buffer *soff;       /* int64[nslots]                                    */
    hb_buffer *sched;      /* int32[]                                          */
    /* Cell-group launches, one per size class (cells of up to 32, 64, 128,
     * ... rows; one class when every cell has the same size), so that small
     * cells of a mixed batch do not reserve the largest cell's local memory:
     * class k launches cell_class[3k+1] groups, group g solving slot
     * cslots[cell_class[3k] + g], with cell_class[3k+2] rows of local memory
     * per array (its largest cell). */
    int32_t    cell_nclasses;
    int64_t   *cell_class; /* host: int64[3 * cell_nclasses]                   */
    hb_buffer *cslots;     /* int64[nslots]: slots by class                    */
} hb_layout_dev;

/* A tree's cell-group schedule, int32 values from its start S: a header of
 * HB_CELL_HDR values (S[HB_CELL_N] rows, S[HB_CELL_NE] chain levels,
 * S[HB_CELL_NC] chains, S[HB_CELL_NT] trunk rows, S[HB_CELL_CONTIG] 1 where
 * every chain's nodes are consecutive rows (each one's parent the row before,
 * as in a cell numbered depth first: the kernels then step to the next node
 * with no table load), then the offsets from S of the tables that follow),
 * then the tables, all indexed by entry (one per node) so that a
 * work-item's loads of one entry do not wait on each other.
 * The trunk is the path from the root down which every height holds one node
 * (the CA1 cell's apical trunk: 44 nodes), at most HB_CELL_TRUNK_MAX of it:
 * once its side branches are eliminated it is a tridiagonal system, which the
 * solver sweeps in one work-item and the simulation's epoch solves by PCR in
 * log2(NT) steps, where levels would take NT each way. The nodes off it are
 * cut into chains: a chain's bottom is a node without exactly one child, and
 * it runs up through parents with exactly one child, off the trunk. One
 * work-item eliminates a chain from its bottom up (each node's one child is
 * the node before, in its registers) and back-substitutes it top down, with
 * no barrier between its nodes: levels of chains instead of levels of nodes
 * (the CA1 cell: 9 instead of 38 each way).
 * - eptr[NE + 1]: level e (0: chains whose bottom is a leaf; else one more
 *   than the highest of its bottom's children's chains) holds the chains
 *   eptr[e] .. eptr[e+1], longest first;
 * - cptr[NC + 1], cpar: chain k's entries are cptr[k] .. cptr[k+1], from its
 *   bottom up; its top's parent is cpar[k] (on the trunk or a higher level's
 *   chain). cptr[NC] is where the NT trunk entries start, from the root down;
 * - eorder, efirst, ecs, cidx: entry q is node eorder[q], whose children
 *   (off the trunk) are cidx[ecs[q] .. ecs[q+1]), highest index first (the
 *   serial sweep's order of updates to a node); efirst[q] repeats the first
 *   of them (-1: none), so that the usual single child costs no dependent
 *   load. A chain's entry after its bottom has one child, the entry before. */
enum {
    HB_CELL_N = 0, HB_CELL_NE, HB_CELL_NC, HB_CELL_EORDER, HB_CELL_EFIRST, HB_CELL_ECS,
    HB_CELL_CIDX, HB_CELL_CPTR, HB_CELL_CPAR, HB_CELL_NT, HB_CELL_CONTIG, HB_CELL_HDR
};
/* The longest trunk solved by PCR (kernels_cl/solver/hb_cell_phases.cl has
 * the same number): a longer one keeps its lower part in the levels. */
#define HB_CELL_TRUNK_MAX 64
/* Cell-group local memory: u, l, d and rhs of the largest cell (reals),
 * then its schedule (int32: 8 x rows + 16 words reserved, for the at most
 * 7 x rows + 15 of api/core/cell_schedule.c), staged once so that the
 * levels read it from local memory instead of waiting on global loads. For
 * max_rows below 2^31 (the plan keeps cells within local memory first). The
 * simulation's epoch, which solves the trunk by PCR, adds the trunk's rows
 * between the four arrays and the schedule: two copies of 3 x
 * HB_CELL_TRUNK_MAX (a step reads one and writes the other). */
#define HB_CELL_TRUNK_REALS ((size_t)6 * HB_CELL_TRUNK_MAX)
#define HB_CELL_LOCAL_REALS(max_rows) ((size_t)4 * (size_t)(max_rows))
#define HB_CELL_SCHED_WORDS(max_rows) ((size_t)8 * (size_t)(max_rows) + 16)
#define HB_CELL_LOCAL_BYTES(max_rows, esize)                                                  \
    (HB_CELL_LOCAL_REALS(max_rows) * (esize) + HB_CELL_SCHED_WORDS(max_rows) * sizeof(int32_t))
/* Arrays of rows a solver launch keeps in local memory: u, l, d and rhs; or
 * d and rhs alone where every cell shares one system's u and l
 * (hb_layout_dev.ul_shared: the kernel hb_hines_cell_ug reads them from
 * global memory, one cached copy for every cell), which halves a cell's
 * bytes, so a compute unit holds more cells at once. */
#define HB_CELL_ARRAYS(ul_shared) ((size_t)((ul_shared) ? 2 : 4))
/* What a solver launch reserves: with the schedule staged or without it. */
#define HB_CELL_LAUNCH_BYTES(max_rows, esize, staged, ul_shared)                              \
    (HB_CELL_ARRAYS(ul_shared) * (size_t)(max_rows) * (esize) +                              \
     ((staged) ? HB_CELL_SCHED_WORDS(max_rows) * sizeof(int32_t) : 0))

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

/* What the AUTO rules (api/core/auto.c) need to know of a device; each
 * backend's init fills them. */
typedef struct {
    int     is_gpu;      /* auto takes OpenCL only on a GPU; GPU layouts       */
    int     has_double;  /* double precision kernels run                       */
    int32_t block_size;  /* systems per block of the block layouts             */
    size_t  local_mem;   /* on-chip bytes one work-group may use (opt-in
                            included; 0: none)                                 */
    size_t  max_group;   /* work-items per work-group                          */
    int32_t compute_units; /* multiprocessors (0: unknown): the cooperative
                              solver spans systems over groups to fill them   */
} hb_device_traits;

/* The operations a backend implements, as function types: the table below
 * holds pointers to them and each backend declares its own functions with
 * them (`hb_thomas_fn hb__cuda_thomas;`), so signatures are written once. */
/* flat -> layout and layout -> flat, on the backend (convert). */
typedef hb_status hb_to_layout_fn(hb_context *ctx, void *stream, hb_precision p,
                                  const hb_layout_dev *lay, const hb_convert_rule *rule,
                                  hb_buffer *flat_src, hb_buffer *dst);
typedef hb_status hb_to_flat_fn(hb_context *ctx, void *stream, hb_precision p,
                                const hb_layout_dev *lay, hb_buffer *src, hb_buffer *flat_dst);
/* Row-map conversions for the branch strategies (rowmap): to the layout,
 * dst[map[k]] = src[k] (skipping map[k] < 0); to flat, dst[k] = src[map[k]];
 * for k < n. */
typedef hb_status hb_map_fn(hb_context *ctx, void *stream, hb_precision p, int64_t n,
                            hb_buffer *map, hb_buffer *src, hb_buffer *dst);
/* Thomas (thomas): a, b, c kept; cw scratch (layout length); d: rhs in, x out. */
typedef hb_status hb_thomas_fn(hb_context *ctx, void *stream, hb_precision p,
                               const hb_layout_dev *lay, hb_buffer *a, hb_buffer *b,
                               hb_buffer *c, hb_buffer *cw, hb_buffer *d);
/* Hines per system (hines): d overwritten by the elimination, rhs in, x out. */
typedef hb_status hb_hines_fn(hb_context *ctx, void *stream, hb_precision p,
                              const hb_layout_dev *lay, hb_buffer *u, hb_buffer *l,
                              hb_buffer *d, hb_buffer *rhs);
/* Block-shared variants (block_shared): one work-group per layout block with
 * c' (Thomas: x = a, b, c, d) or the right-hand side (Hines: x = u, l, d,
 * rhs) on chip. *ran = 0, with nothing queued, when hb__block_shared_bytes
 * says the block does not fit; the core then runs thomas or hines. */
typedef hb_status hb_block_shared_fn(hb_context *ctx, void *stream, hb_precision p,
                                     const hb_layout_dev *lay, hb_buffer *x0, hb_buffer *x1,
                                     hb_buffer *x2, hb_buffer *x3, int *ran);
/* Hines by branches (hines_branches): one launch per level (branch-level) or
 * one launch with one work-group per group of cells (fine tree). Same
 * contract as hines. */
typedef hb_status hb_hines_branches_fn(hb_context *ctx, void *stream, hb_precision p,
                                       const hb_branch_dev *br, hb_buffer *u, hb_buffer *l,
                                       hb_buffer *d, hb_buffer *rhs);

typedef struct hb_backend_ops {
    hb_backend kind;
    const char *name;
    /* Opens the backend on the device opts names (opts->backend is this one;
     * the core has refused fields of other backends and bad indices); fills
     * ctx->impl, ctx->device and ctx->traits. Messages name a field as
     * "hb_context_options.device" and a variable as HINESBATCH_DEVICE. */
    hb_status (*init)(hb_context *ctx, const hb_context_options *opts);
    void (*fini)(hb_context *ctx);
    /* Fills this backend's fields of opts (hb_context_get_options); NULL on
     * the host backends, which have none. */
    void (*get_options)(const hb_context *ctx, hb_context_options *opts);
    /* The devices a context could open with opts->platform (as in
     * hb_context_options): *count, and, when name is not NULL, the name of
     * device `index` (HB_ERR_BACKEND_UNAVAILABLE past the list). NULL on the
     * host backends: one device, named as their init names it. */
    hb_status (*devices)(int32_t platform, int32_t index, int32_t *count, char *name,
                         size_t size);

    hb_status (*alloc)(hb_context *ctx, size_t bytes, hb_buffer **out);
    void (*release)(hb_context *ctx, hb_buffer *buf);
    hb_status (*write)(hb_context *ctx, void *stream, hb_buffer *buf, size_t offset,
                       const void *src, size_t bytes);
    hb_status (*read)(hb_context *ctx, void *stream, hb_buffer *buf, size_t offset,
                      void *dst, size_t bytes);
    void *(*native)(hb_buffer *buf);
    /* Device-to-device copy of bytes (the bandwidth yardstick of benchmarks). */
    hb_status (*copy)(hb_context *ctx, void *stream, hb_buffer *dst, hb_buffer *src,
                      size_t bytes);
    /* Waits for all work queued on stream. */
    hb_status (*finish)(hb_context *ctx, void *stream);
    /* Device memory free for new buffers, in bytes; NULL on host backends,
     * whose buffers are host memory (hb__memory_check). */
    hb_status (*mem_available)(hb_context *ctx, uint64_t *bytes);
    /* Checks a plan's stream once, when the plan is made (a queue of another
     * context, say); NULL where any stream the backend's API takes will do. */
    hb_status (*check_stream)(hb_context *ctx, void *stream);

    hb_to_layout_fn *to_layout;
    hb_to_flat_fn *to_flat;
    hb_map_fn *map_to_layout, *map_to_flat;
    hb_thomas_fn *thomas;
    hb_hines_fn *hines;
    /* NULL on backends without on-chip memory. */
    hb_block_shared_fn *thomas_shared, *hines_shared;
    /* NULL where the backend lacks the strategy. */
    hb_hines_branches_fn *hines_branch_level, *hines_fine_tree;
    /* Cooperative Thomas (thomas_coop): one work-group of lay->coop_group
     * work-items per system, flat layout; cw holds 2 x layout length
     * elements. With lay->coop_span = G > 1 the same entry runs the span
     * variant instead (kernels_cl/solver/thomas_span.cl): G groups per
     * system reduce their segments into lay->span_*, one cooperative solve
     * of those reduced systems, then G groups per system back-substitute;
     * three launches on the stream. NULL where the backend lacks it. */
    hb_thomas_fn *thomas_coop;
    /* Resident cooperative Thomas (thomas_coop_local): lay->coop_systems
     * systems of lay->coop_group work-items each per work-group, whole
     * systems in local memory; cw unused. NULL where the backend lacks it
     * (the core then plans the staged kernel). */
    hb_thomas_fn *thomas_coop_local;
    /* Optional (NULL: the device's limit holds): the work-items one group of
     * thomas_coop_local may have in precision p as compiled (its registers
     * can make it fewer than the device's work-group limit); the plan keeps
     * its groups within it. */
    hb_status (*coop_local_limit)(hb_context *ctx, hb_precision p, int64_t *max_items);
    /* Register cooperative Thomas (thomas_coop_warp): lay->coop_group lanes
     * of a warp per system (a power of two up to 32), lay->coop_rows rows
     * per lane in registers (hb__coop_warp_shape: coop_group x coop_rows >=
     * the longest system, at most HB_COOP_WARP_MAX_ROWS(esize)), flat
     * layout; cw unused. NULL where the backend lacks it (CUDA only: warp
     * shuffles). */
    hb_thomas_fn *thomas_coop_warp;
    /* Cell-group Hines (hines_cell): one work-group of lay->cell_group
     * work-items per cell, flat layout, schedule in lay->sched; u, l and d
     * kept (d is not overwritten, unlike hines), rhs in, x out; u and l one
     * system's rows where lay->ul_shared. NULL where the backend lacks it. */
    hb_hines_fn *hines_cell;
    /* Optional (NULL, or a failure: unknown, as on OpenCL devices other
     * than NVIDIA's): how many work-groups of hines_cell with `group`
     * work-items and `bytes` of local memory one compute unit holds at once
     * in precision p (registers, local memory, work-items), for the kernel
     * of shared couplings where ul_shared; the plan reads the schedule from
     * global memory where that holds more of the batch's cells at once
     * (cell_staged in api/core/plan.c) and halves the group where that
     * takes fewer waves of cells (cell_launch). */
    hb_status (*cell_resident)(hb_context *ctx, hb_precision p, int ul_shared, int64_t group,
                               size_t bytes, int64_t *per_unit);
} hb_backend_ops;

/* Cooperative Thomas: rows of each work-item's chunk staged per block through
 * local memory (kernels_cl/solver/thomas_coop.cl, HB_COOP_MB, which must
 * match), and its local memory: 4 arrays of P x (HB_COOP_MB + 1) reals (the
 * reduced system's 6P reals alias one of them). */
#define HB_COOP_MB 8
#define HB_COOP_LOCAL_REALS(P) ((size_t)4 * (size_t)(P) * (HB_COOP_MB + 1))
/* Resident cooperative Thomas (kernels_cl/solver/thomas_coop_local.cl): a, c,
 * d over the diagonal of S systems, P chunks of LD reals each (the reduced
 * system aliases them). The core checked the product for overflow when it
 * planned it. */
#define HB_COOP_RESIDENT_REALS(S, P, LD) ((size_t)3 * (size_t)(S) * (size_t)(P) * (size_t)(LD))

/* The longest system of thomas_coop_warp in a precision of esize-byte reals:
 * 32 lanes x 16 doubles or 32 floats in registers (backend_cuda/solver/
 * thomas_coop_warp.cu compiles these variants). */
#define HB_COOP_WARP_MAX_ROWS(esize) ((esize) == 8 ? 512 : 1024)
/* Its warps per block (each solving 32 / coop_group systems): small blocks,
 * so that a few hundred systems still spread over every multiprocessor (the
 * kernel has no block barrier). */
#define HB_COOP_WARP_WARPS 2

/* Each returns its table, or NULL when the backend was not compiled in. */
const hb_backend_ops *hb__serial_backend(void);
const hb_backend_ops *hb__openmp_backend(void);
const hb_backend_ops *hb__opencl_backend(void);
const hb_backend_ops *hb__cuda_backend(void);

struct hb_context {
    const hb_backend_ops *ops;
    void *impl;               /* backend state                                 */
    char device[192];         /* device name, filled by init                   */
    hb_device_traits traits;  /* filled by init                                */
    char describe[400];
};

/* Context lifetime (api/core/context.c): every object that keeps a context
 * pointer (plans, simulations) takes a reference when it is made and drops it
 * when it is destroyed; the backend closes (ops->fini) when the last reference
 * goes, hb_context_destroy dropping the creator's. Atomic: holders may be on
 * any threads. */
void hb__context_retain(hb_context *ctx);
void hb__context_release(hb_context *ctx);

/* HB_ERR_BACKEND naming the backend and operation unless [off, off + bytes)
 * lies inside a buffer of size bytes (written so that it cannot wrap). */
static inline hb_status hb__check_span(const char *backend, const char *op, size_t off,
                                       size_t bytes, size_t size)
{
    if (off <= size && bytes <= size - off)
        return HB_SUCCESS;
    return hb__error(HB_ERR_BACKEND, "%s: %s of %zu bytes at offset %zu past a buffer of %zu bytes",
                     backend, op, bytes, off, size);
}

/* ---- Rules the backends ask the core (api/core/auto.c) -------------------- */
/* On-chip bytes a block-shared launch of the layout needs, or 0 when it cannot
 * run: no block layout, a block larger than the kernel's work-group limit
 * (kernel_max_group), or max_rows x block_size reals beside the kernel's own
 * local memory (kernel_local) over the device's traits.local_mem. */
size_t hb__block_shared_bytes(const hb_context *ctx, const hb_layout_dev *lay, size_t esize,
                              size_t kernel_local, size_t kernel_max_group);

/* ---- Memory (api/core/memory.c) ------------------------------------------- */
/* The machine's physical memory in bytes (UINT64_MAX when unknown). */
uint64_t hb__host_memory(void);
/* HB_ERR_OUT_OF_MEMORY, naming fn and the bytes needed and available, when
 * host_bytes (host tables) or dev_bytes (backend buffers) cannot fit: checked
 * before a large request allocates or fills anything. Sums saturate, so a
 * caller may add sizes with hb__add_sat. */
hb_status hb__memory_check(const hb_context *ctx, uint64_t host_bytes, uint64_t dev_bytes,
                           const char *fn);

/* ---- Plans as the layers above the core see them -------------------------- */
/* The backend buffer of a plan array and the stream the plan runs on. Asking
 * for D or RHS counts as setting it for the next solve (as hb_plan_buffer). */
hb_status hb__plan_array(hb_plan *plan, hb_array which, hb_buffer **buf);
void *hb__plan_stream(const hb_plan *plan);
/* 1 when the plan is a Hines plan whose solve sweeps each system on its own
 * in the layout (the per-system hines op: no branch, cell-group or
 * block-shared kernel), with *lay its layout, *slot_of each system's slot and
 * u, l, d, rhs its arrays (D and RHS counted as set, as hb__plan_array);
 * else 0, leaving the outputs untouched. For the fused simulation loop. */
int hb__plan_per_system_hines(hb_plan *plan, const hb_layout_dev **lay, const int64_t **slot_of,
                              hb_buffer *arrays[4]);
/* Cell-group (api/core/auto.c): local memory one cell of max_rows rows needs
 * (HB_CELL_LAUNCH_BYTES; SIZE_MAX when a product overflows) with its
 * schedule staged or not, its couplings shared (ul_shared: two arrays of
 * rows) or not (four); whether the cell fits the device's
 * (traits.local_mem) at all, and whether its schedule fits beside it. */
size_t hb__cell_local_bytes(int64_t max_rows, size_t esize, int staged, int ul_shared);
int hb__cell_fits(const hb_device_traits *dev, int64_t max_rows, size_t esize, int ul_shared);
int hb__cell_staged(const hb_device_traits *dev, int64_t max_rows, size_t esize, int ul_shared);
/* 1 when the plan is a cell-group Hines plan with systems, with *lay its
 * layout (schedule, size classes), *perm each slot's system and u, l its
 * coupling arrays (as set by the caller); else 0, outputs untouched. For the
 * simulation's on-chip engine, which solves in local memory and never
 * touches the plan's D and RHS. */
int hb__plan_cell_group(const hb_plan *plan, const hb_layout_dev **lay, const int64_t **perm,
                        hb_buffer *arrays[2]);

#ifdef __cplusplus
}
#endif
#endif /* HB_BACKEND_H */
