/* hinesbatch.h: public C API of hinesbatch, batched Hines and tridiagonal solvers. */
/* It stands alone; hinesbatch_morph.h (neurons) builds on it and
 * hinesbatch_sim.h (simulation) on both. */
#ifndef HINESBATCH_H
#define HINESBATCH_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define HINESBATCH_VERSION_MAJOR 0
#define HINESBATCH_VERSION_MINOR 1
#define HINESBATCH_VERSION_PATCH 0

#if defined(_WIN32) && defined(HINESBATCH_BUILDING_SHARED)
#define HB_API __declspec(dllexport)
#elif defined(__GNUC__)
#define HB_API __attribute__((visibility("default")))
#else
#define HB_API
#endif

/* ---- Status codes (values never change once published) ------------------
 * One list makes the enum, hb_status_name and hb_status_string, so they
 * cannot drift apart: X(code, value, message). Bands: 1-3 the caller's
 * input, 4 resources, 5-6 the backend, 7-8 files, 9 the caller's threads. */
#define HB_STATUS_LIST(X)                                                     \
    X(HB_SUCCESS, 0, "success")                                               \
    X(HB_ERR_INVALID_ARGUMENT, 1, "invalid argument")                         \
    X(HB_ERR_INVALID_TREE, 2, "invalid tree")                                 \
    X(HB_ERR_NUMERICAL, 3, "numerical failure")                               \
    X(HB_ERR_OUT_OF_MEMORY, 4, "out of memory")                               \
    X(HB_ERR_BACKEND_UNAVAILABLE, 5, "backend unavailable")                   \
    X(HB_ERR_BACKEND, 6, "backend error")                                     \
    X(HB_ERR_IO, 7, "I/O error")                                              \
    X(HB_ERR_PARSE, 8, "parse error")                                         \
    X(HB_ERR_BUSY, 9, "object in use by another thread")

#define HB_STATUS_ENUM_(code, value, message) code = value,
typedef enum { HB_STATUS_LIST(HB_STATUS_ENUM_) } hb_status;
#undef HB_STATUS_ENUM_

typedef enum { HB_BACKEND_AUTO = 0, HB_BACKEND_SERIAL, HB_BACKEND_OPENMP,
               HB_BACKEND_OPENCL, HB_BACKEND_CUDA } hb_backend;

typedef struct hb_context hb_context;

/* Library version as MAJOR*10000 + MINOR*100 + PATCH. */
HB_API int hb_version(void);

/* ---- Contexts ------------------------------------------------------------
 * HB_BACKEND_AUTO reads HINESBATCH_BACKEND (auto|serial|openmp|opencl|cuda,
 * case-insensitive). Unset or "auto" tries cuda, then an OpenCL GPU, then
 * openmp, then serial. A named backend that is not compiled in or finds no
 * device is an error (HB_ERR_BACKEND_UNAVAILABLE), never a silent fallback;
 * an unknown name is HB_ERR_INVALID_ARGUMENT. HINESBATCH_DEVICE picks the
 * device index (GPU backends), HINESBATCH_OPENCL_PLATFORM the OpenCL platform
 * (index or name substring), HINESBATCH_VERBOSE=1 prints choices and errors
 * to stderr. hb_context_create_with (below) chooses the device in the program
 * or adopts a simulator's own GPU objects; this is it with default options. */
HB_API hb_status   hb_context_create(hb_backend backend, hb_context **ctx);
/* Drops the caller's reference: the context's plans and simulations go on
 * working, and the backend is released with the last of them (below). NULL
 * is fine. */
HB_API void        hb_context_destroy(hb_context *ctx);
HB_API hb_backend  hb_context_backend(const hb_context *ctx);
HB_API const char *hb_context_describe(const hb_context *ctx);    /* backend + device */
HB_API const char *hb_backend_name(hb_backend backend);           /* "serial", ... */
/* The backend of a name ("auto", "serial", "openmp", "opencl", "cuda"; any
 * case); HB_ERR_INVALID_ARGUMENT for another name, *backend then untouched. */
HB_API hb_status   hb_backend_from_name(const char *name, hb_backend *backend);
/* Whether a backend was compiled into this library (1) or not (0). */
HB_API int         hb_backend_compiled(hb_backend backend);

/* ---- Choosing and sharing a device ----------------------------------------
 * hb_context_create_with opens a backend on a device the caller names, or on
 * a host simulator's own GPU objects, which hinesbatch then shares: its plan
 * buffers are made in the simulator's cl_context and its work is queued on
 * the simulator's queue or stream, in order with the simulator's own work.
 * hb_context_create(backend, &ctx) is create_with of hb_context_options_init's
 * defaults with that backend.
 *
 * Precedence, field by field: the API over the environment. device >= 0
 * overrides HINESBATCH_DEVICE, platform >= 0 HINESBATCH_OPENCL_PLATFORM, a
 * named backend HINESBATCH_BACKEND; a variable is read only where its field
 * is left at the default (-1, HB_BACKEND_AUTO), and adopted handles decide
 * the device, so no device variable is read then.
 *
 * Adopted handles are the caller's: hinesbatch retains OpenCL objects
 * (clRetainContext, clRetainCommandQueue) and releases them when the backend
 * closes (with the last of the context, its plans and its simulations), and
 * never destroys a CUDA stream. The caller keeps an adopted cudaStream_t alive
 * until then. The adopted queue or stream is the context's: plans without a
 * stream of their own, one-shot solves and simulations queue their work
 * there. Errors, each naming the field:
 *   HB_ERR_INVALID_ARGUMENT: an enum or index out of range; a field of
 *     another backend (cl_* without HB_BACKEND_OPENCL, cuda_stream without
 *     HB_BACKEND_CUDA, platform with a backend other than OpenCL or AUTO,
 *     device with serial or openmp); device or platform together with
 *     OpenCL handles; handles that are not what they claim, or that do not
 *     belong together (a queue of another context or device, a device not in
 *     the context, a stream of another device than `device`); an
 *     out-of-order OpenCL queue (the library's steps rely on queue order).
 *     "Not what they claim" is what OpenCL or CUDA reports for the handle; a
 *     pointer that is no object at all is undefined behaviour, as there.
 *   HB_ERR_BACKEND_UNAVAILABLE: the backend is not compiled in, or an index
 *     past the devices or platforms there are (as the variables give). */
typedef struct {
    hb_backend backend;     /* HB_BACKEND_AUTO: HINESBATCH_BACKEND, then the
                               auto order above                                */
    int32_t    device;      /* GPU backends: CUDA device ordinal, or OpenCL
                               device index among the devices of the platforms
                               searched (of `platform` when it is given), as
                               hb_backend_device_name lists them;
                               -1: HINESBATCH_DEVICE, else the default         */
    int32_t    platform;    /* OpenCL platform index; -1:
                               HINESBATCH_OPENCL_PLATFORM, else every platform */
    /* OpenCL adoption (backend HB_BACKEND_OPENCL; device and platform -1): */
    void      *cl_context;  /* cl_context: plan buffers and programs are made
                               in it. Alone, its only device (name one in
                               cl_device when it has several) and a queue of
                               hinesbatch's                                    */
    void      *cl_device;   /* cl_device_id: alone, a context and queue of
                               hinesbatch's on that device                     */
    void      *cl_queue;    /* cl_command_queue (in order): the context's
                               queue; its context and device are taken with it */
    /* CUDA adoption (backend HB_BACKEND_CUDA): */
    void      *cuda_stream; /* cudaStream_t: the context's stream, on its
                               device (with CUDA 12.8 or newer checked against
                               `device`; older runtimes take `device`, else the
                               calling thread's current device). NULL: a stream
                               of hinesbatch's; for the default streams pass
                               cudaStreamLegacy or cudaStreamPerThread         */
} hb_context_options;

/* Fills opts with the defaults: backend AUTO, device and platform -1, no
 * handles. */
HB_API void      hb_context_options_init(hb_context_options *opts);
/* Opens a context as opts say (NULL: the defaults). On error *ctx is left
 * untouched. */
HB_API hb_status hb_context_create_with(const hb_context_options *opts, hb_context **ctx);
/* What the context runs on, as options that open another context on the same
 * device, queue or stream: the backend; CUDA: device and cuda_stream; OpenCL:
 * cl_context, cl_device and cl_queue (device and platform -1); host backends:
 * the defaults. The handles are borrowed: valid while the context's backend
 * is open, not retained for the caller. A simulator that let hinesbatch
 * choose makes its own buffers and queues in that cl_context this way. A
 * context made from these options retains the OpenCL objects and may outlive
 * this one; a CUDA stream cannot be retained, so such a context must not
 * outlive this one (the stream's owner). */
HB_API hb_status hb_context_get_options(const hb_context *ctx, hb_context_options *opts);

/* Devices a backend can open: *count devices, numbered 0 .. count-1 as
 * hb_context_options.device numbers them (OpenCL: of `platform`, -1 for
 * HINESBATCH_OPENCL_PLATFORM or every platform, as a context would search).
 * serial and openmp have one, the host. A backend that is not compiled in,
 * or finds no driver or platform, is HB_ERR_BACKEND_UNAVAILABLE; an OpenCL
 * platform with no device gives 0. */
HB_API hb_status hb_backend_device_count(hb_backend backend, int32_t platform, int32_t *count);
/* The name of device `device` of that list, as hb_context_describe names the
 * device after "<backend> on " ("NVIDIA H100 (sm_90, device 0)", "pthread-...
 * (Portable Computing Language)"), truncated to size bytes with its terminating NUL. An index
 * past the list is HB_ERR_BACKEND_UNAVAILABLE; name is untouched on error. */
HB_API hb_status hb_backend_device_name(hb_backend backend, int32_t platform, int32_t device,
                                        char *name, size_t size);

/* "HB_ERR_PARSE" and the like; "unknown hb_status" for a value not listed. */
HB_API const char *hb_status_name(hb_status status);
/* "HB_ERR_PARSE: parse error" and the like. */
HB_API const char *hb_status_string(hb_status status);
HB_API const char *hb_last_error(void);                           /* thread-local detail */

/* ---- Lifetimes and threads ------------------------------------------------
 * Lifetimes. Every plan and simulation holds a reference to the context it
 * was made on; hb_context_destroy drops only the caller's. The backend (device
 * queues, programs, streams) is released when the last of the context, its
 * plans and its simulations is destroyed, in any order and on any thread. A
 * destroyed context must not be passed to any function again (its plans and
 * simulations stay valid). A handle from hb_plan_buffer lives as long as its
 * plan; hb_last_error's text until the calling thread's next call.
 *
 * Threads (the model of cuSPARSE's handles):
 * - Any function may be called from any thread, and calls on distinct
 *   objects run concurrently without locks of the caller's.
 * - One context may be shared by threads that each use their own plans and
 *   simulations: making, using and destroying them, and the one-shot solves.
 *   Plans without a stream of their own (opts.stream NULL) queue their work
 *   on the context's one device queue, so threads sharing a context share
 *   it; give each thread's plans their own stream where they should overlap.
 * - A plan or a simulation is used by one thread at a time. A call that
 *   comes while another thread is inside a call on the same plan (set,
 *   solve, synchronize, get_solution, buffer) or simulation (every hb_sim_*
 *   function but describe, rows, cell_rows and soma) fails with HB_ERR_BUSY
 *   and changes nothing. That is detection, not locking: the caller orders
 *   the calls of one plan made from several threads (set, then solve, then
 *   read back), as one thread would. The plan queries that take a const plan
 *   (describe, get_info, layout_info, system_bases, index) read only what
 *   was fixed at creation and may run alongside any call but destroy.
 * - Not detected, and forbidden: destroying a plan or simulation while
 *   another thread uses it, and hb_context_destroy while another thread is
 *   inside a call that takes the context (creating a plan, a one-shot solve).
 * - hb_last_error() is per thread: the calling thread's last failure.
 * - HINESBATCH_* variables are read by the calls (contexts and plans when
 *   made, HINESBATCH_VERBOSE at every message); changing the environment
 *   while other threads call the library is a race of the C library's
 *   (setenv against getenv).
 * - OpenMP backend: each calling thread runs its own parallel regions; a
 *   caller inside a parallel region of its own gets nested ones as its
 *   OpenMP settings allow (OMP_MAX_ACTIVE_LEVELS). Results are the same. */

/* ---- One-shot solves ------------------------------------------------------
 * One-shot solves on host arrays in flat layout. nsys systems; system s owns
 * rows [offsets[s], offsets[s+1]) (offsets has nsys+1 entries, offsets[0]=0,
 * strictly increasing). Tridiagonal: a = sub-, b = main, c = super-diagonal
 * (a of a system's first row and c of its last are ignored); d holds the
 * right-hand side on entry and the solution on return. Hines: parent[k] is
 * the parent of row k as an index local to its system: -1 for the system's
 * first row, else 0 <= parent < local index; u[k] = A[parent][k],
 * l[k] = A[k][parent] (ignored at roots); rhs in, solution out.
 * nsys == 0 is a successful no-op. On any error the output array is left
 * exactly as it was. These are thin wrappers over plans. */
HB_API hb_status hb_dtridiag_solve(hb_context *ctx, int64_t nsys, const int64_t *offsets,
                                   const double *a, const double *b, const double *c, double *d);
HB_API hb_status hb_stridiag_solve(hb_context *ctx, int64_t nsys, const int64_t *offsets,
                                   const float *a, const float *b, const float *c, float *d);
HB_API hb_status hb_dhines_solve(hb_context *ctx, int64_t nsys, const int64_t *offsets,
                                 const int32_t *parent, const double *u, const double *l,
                                 const double *d, double *rhs);
HB_API hb_status hb_shines_solve(hb_context *ctx, int64_t nsys, const int64_t *offsets,
                                 const int32_t *parent, const float *u, const float *l,
                                 const float *d, float *rhs);

/* ---- Plans: the same batch shape solved every time step -------------------
 * A plan is made once from the batch shape, precision and options; it
 * converts to its layout once and keeps all data on the backend. Per step the
 * caller sets what changed (host arrays in flat layout through hb_plan_set, or
 * directly in the plan's layout on the device through hb_plan_buffer), solves,
 * and reads the solution back in flat layout. */
typedef struct hb_plan hb_plan;

typedef enum { HB_DOUBLE = 0, HB_FLOAT = 1 } hb_precision;

typedef enum {
    HB_LAYOUT_AUTO = 0,
    HB_LAYOUT_FLAT,              /* element i of system s at offset(s) + i          */
    HB_LAYOUT_INTERLEAVED,       /* full-interleaved: i*nsys + s                    */
    HB_LAYOUT_BLOCK_INTERLEAVED, /* (s/BS)*BS*n + i*BS + s%BS                       */
    HB_LAYOUT_BLOCK_SHARED       /* block-interleaved in memory; during a solve each
                                    block keeps its right-hand side in on-chip shared
                                    (local) memory where it fits (the seeds'
                                    "Block-Shared"); host backends run it as
                                    block-interleaved                              */
} hb_layout;

/* Variable batches (systems of different sizes) in an interleaved layout are
 * padded with identity rows (a=c=u=l=0, b=d=1, rhs=0) to the longest system
 * of their block (after sorting systems by size, longest first). */
typedef enum {
    HB_PADDING_AUTO = 0,
    HB_PADDING_COMPUTE,  /* every thread runs the padded rows: no divergence    */
    HB_PADDING_SKIP      /* each thread stops at its own size: fewer bytes      */
} hb_padding;

typedef enum {
    HB_STRATEGY_AUTO = 0,
    HB_STRATEGY_PER_SYSTEM,    /* one thread per system                          */
    HB_STRATEGY_BRANCH_LEVEL,  /* branches grouped by depth, swept level by level */
    HB_STRATEGY_FINE_TREE      /* one thread per branch, one group per cells     */
} hb_strategy;

typedef struct {
    hb_layout   layout;      /* HB_LAYOUT_AUTO: chosen from backend and batch   */
    int32_t     block_size;  /* block-interleaved block size; 0 = auto          */
    hb_padding  padding;     /* HB_PADDING_AUTO = HB_PADDING_SKIP               */
    hb_strategy strategy;    /* HB_STRATEGY_AUTO; HINESBATCH_STRATEGY overrides  */
    void       *stream;      /* CUDA: a cudaStream_t; OpenCL: a cl_command_queue
                                on the context's device; NULL = the context's   */
    /* Branch strategies (branch-level, fine-tree) only: */
    int32_t     group_size;  /* fine tree: work-items per work-group; 0 = 128    */
    int32_t     reroot;      /* 1: eliminate each tree from the root that
                                minimises its depth in branches (tree balancing);
                                the matrix and solution are unchanged          */
    int32_t     split_branches; /* 1: cut branches longer than their level's
                                average, so a level's threads do similar work  */
} hb_plan_options;

/* Fills options with the AUTO defaults. */
HB_API void hb_plan_options_init(hb_plan_options *opts);

/* Names of layouts ("auto", "flat", "full-interleaved", "block-interleaved",
 * "block-shared"), paddings ("auto", "compute", "skip") and strategies
 * ("auto", "per-system", "branch-level", "fine-tree"): the names that
 * hb_plan_describe, the CLI and HINESBATCH_STRATEGY use. A value not listed
 * gives "unknown". The _from_name functions match without case and return
 * HB_ERR_INVALID_ARGUMENT for another name, leaving the output untouched. */
HB_API const char *hb_layout_name(hb_layout layout);
HB_API hb_status   hb_layout_from_name(const char *name, hb_layout *layout);
HB_API const char *hb_padding_name(hb_padding padding);
HB_API hb_status   hb_padding_from_name(const char *name, hb_padding *padding);
HB_API const char *hb_strategy_name(hb_strategy strategy);
HB_API hb_status   hb_strategy_from_name(const char *name, hb_strategy *strategy);

/* Tridiagonal plan for nsys systems with the given flat offsets (nsys+1). */
HB_API hb_status hb_plan_create_tridiag(hb_context *ctx, hb_precision precision,
                                        int64_t nsys, const int64_t *offsets,
                                        const hb_plan_options *opts, hb_plan **plan);
/* Tridiagonal plan for nsys systems of n rows each. */
HB_API hb_status hb_plan_create_tridiag_uniform(hb_context *ctx, hb_precision precision,
                                                int64_t nsys, int64_t n,
                                                const hb_plan_options *opts, hb_plan **plan);
/* Hines plan; parent is flat (offsets[nsys] entries, local indices). Systems
 * whose trees are identical share one stored parent array. */
HB_API hb_status hb_plan_create_hines(hb_context *ctx, hb_precision precision,
                                      int64_t nsys, const int64_t *offsets,
                                      const int32_t *parent,
                                      const hb_plan_options *opts, hb_plan **plan);
/* Hines plan for nsys copies of one tree of n rows (mono-morphology). */
HB_API hb_status hb_plan_create_hines_uniform(hb_context *ctx, hb_precision precision,
                                              int64_t nsys, int64_t n, const int32_t *parent,
                                              const hb_plan_options *opts, hb_plan **plan);
HB_API void hb_plan_destroy(hb_plan *plan);                   /* NULL is fine */
/* Layout, padding, strategy, sharing and backend chosen, in one line for
 * people; programs read the same facts from hb_plan_get_info. */
HB_API const char *hb_plan_describe(const hb_plan *plan);

/* What a plan chose, as values. */
typedef struct {
    hb_backend   backend;
    hb_precision precision;
    int32_t      hines;        /* 1: Hines plan, 0: tridiagonal                   */
    int32_t      shared_tree;  /* Hines: every system has the same tree (one
                                  parent array stored)                           */
    int64_t      nsys;
    int64_t      nrows;        /* rows of all systems (flat length)              */
    int64_t      max_rows;     /* rows of the largest system                     */
    int32_t      variable;     /* systems differ in size                         */
    hb_strategy  strategy;     /* never AUTO                                     */
    hb_layout    layout;       /* per-system: the layout (never AUTO); branch
                                  strategies: HB_LAYOUT_AUTO (rows by branch)    */
    int32_t      block_size;   /* block layouts: systems per block, else 0       */
    hb_padding   padding;      /* padded variable batches: COMPUTE or SKIP;
                                  branch strategies: SKIP (each branch stops
                                  at its own length); else HB_PADDING_AUTO      */
    int32_t      sorted;       /* systems sorted by size, longest first           */
    /* Branch strategies only (0 otherwise): */
    int64_t      nbranches;
    int64_t      nlevels;      /* branch-level: levels; fine tree: 0             */
    int64_t      ngroups;      /* fine tree: work-groups; branch-level: 0        */
    int32_t      group_size;   /* fine tree: work-items per group                */
    int32_t      rerooted;     /* trees eliminated from another root              */
    int32_t      split;        /* long branches were cut                          */
} hb_plan_info;

HB_API hb_status hb_plan_get_info(const hb_plan *plan, hb_plan_info *info);

/* The arrays of a plan. Tridiagonal plans have A, B, C and RHS; Hines plans
 * U, L, D and RHS. */
typedef enum {
    HB_ARRAY_A = 0, HB_ARRAY_B, HB_ARRAY_C,
    HB_ARRAY_U, HB_ARRAY_L, HB_ARRAY_D,
    HB_ARRAY_RHS
} hb_array;

/* Copies a host array in flat layout (offsets[nsys] elements of the plan's
 * precision) into the plan, converting to its layout on the backend. Non-finite
 * values are HB_ERR_NUMERICAL naming system and row; the plan is unchanged. */
HB_API hb_status hb_plan_set(hb_plan *plan, hb_array which, const void *host_flat);

/* Solves in place. A solve overwrites the plan's RHS with the solution and,
 * for Hines plans, D with its elimination; set both (hb_plan_set, or write
 * them through hb_plan_buffer) before the next solve, or it fails with
 * HB_ERR_INVALID_ARGUMENT. Tridiagonal A, B, C stay as set. */
HB_API hb_status hb_plan_solve(hb_plan *plan);

/* Waits until every operation queued for the plan has finished (GPU backends
 * run hb_plan_set and hb_plan_solve asynchronously on the plan's stream). */
HB_API hb_status hb_plan_synchronize(hb_plan *plan);

/* Copies the solution to a host array in flat layout. A non-finite solution
 * (zero pivot, overflow) is HB_ERR_NUMERICAL naming the first failing system;
 * x is then left untouched. */
HB_API hb_status hb_plan_get_solution(hb_plan *plan, void *x_host_flat);

/* Where a plan keeps its data: element i of system s of every array lives at
 * base[s] + i*stride of a buffer of `length` elements. */
typedef struct {
    hb_layout    layout;
    hb_precision precision;
    int64_t      nsys;
    int64_t      stride;       /* 1 for flat, nsys for interleaved, BS for block */
    int64_t      length;       /* elements in each array, padding included      */
    int32_t      block_size;   /* block-interleaved block size, else 0          */
    int32_t      padded;       /* 1 if systems are padded with identity rows    */
} hb_layout_info;

HB_API hb_status hb_plan_layout_info(const hb_plan *plan, hb_layout_info *info);
/* Copies the per-system base offsets (nsys entries) of the index formula. */
HB_API hb_status hb_plan_system_bases(const hb_plan *plan, int64_t *base);
/* The layout index of row i of system s. */
HB_API hb_status hb_plan_index(const hb_plan *plan, int64_t s, int64_t i, int64_t *index);

/* The backend's handle of a plan array, for simulators that update data on
 * the device without a host round trip: a cl_mem (OpenCL), a device pointer
 * (CUDA) or a host pointer (serial, openmp). Asking for D or RHS counts as
 * setting it for the next solve. The handle lives as long as the plan. */
HB_API hb_status hb_plan_buffer(hb_plan *plan, hb_array which, void **handle);

/* Median time in milliseconds of a device-to-device copy of bytes on the
 * context's device, over reps copies after one warm-up: the yardstick that
 * benchmarks compare solver bandwidth with, measured in the same run. */
HB_API hb_status hb_context_copy_time(hb_context *ctx, size_t bytes, int reps, double *ms_median);

/* ---- Verification ----------------------------------------------------------
 * LAPACK-style residual ratio of each system s,
 *   ||b - A x||_inf / (||A||_inf ||x||_inf eps),
 * computed on the host in double with eps of the given precision; returns the
 * largest over the batch and (if worst is not NULL) the system it came from.
 * Arrays are flat and of the given precision; b is the right-hand side. A
 * correct solve of a well-conditioned system gives ratios well under 30. */
HB_API hb_status hb_tridiag_residual(hb_precision precision, int64_t nsys, const int64_t *offsets,
                                     const void *a, const void *b, const void *c, const void *x,
                                     const void *rhs, double *max_ratio, int64_t *worst);
HB_API hb_status hb_hines_residual(hb_precision precision, int64_t nsys, const int64_t *offsets,
                                   const int32_t *parent, const void *u, const void *l,
                                   const void *d, const void *x, const void *rhs,
                                   double *max_ratio, int64_t *worst);

#ifdef __cplusplus
}
#endif
#endif /* HINESBATCH_H */
