/* cl_backend.h: state and helpers of the OpenCL backend, shared by its files. */
#ifndef HB_CL_BACKEND_H
#define HB_CL_BACKEND_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#ifdef __APPLE__
#include <OpenCL/opencl.h>
#else
#include <CL/cl.h>
#endif

#include "hb_backend.h"
#include "hb_thread.h"

/* Kernels of the embedded program, by index. */
enum {
    HB_CLK_TO_LAYOUT = 0, HB_CLK_TO_FLAT, HB_CLK_THOMAS, HB_CLK_HINES,
    HB_CLK_MAP_TO_LAYOUT, HB_CLK_MAP_TO_FLAT,
    HB_CLK_BRANCH_BACKWARD, HB_CLK_BRANCH_FORWARD, HB_CLK_FINE_TREE,
    HB_CLK_THOMAS_SHARED, HB_CLK_HINES_SHARED,
    HB_CLK_SIM_MEMBRANE, HB_CLK_SIM_CLAMP, HB_CLK_SIM_ASSEMBLE, HB_CLK_SIM_UPDATE_V,
    HB_CLK_SIM_SOMA, HB_CLK_THOMAS_COOP, HB_CLK_THOMAS_COOP_LOCAL, HB_CLK_THOMAS_SPAN_REDUCE,
    HB_CLK_THOMAS_SPAN_BACK, HB_CLK_HINES_CELL, HB_CLK_HINES_CELL_UG, HB_CLK_SIM_EPOCH,
    HB_CLK_SIM_EPOCH_UG,
    HB_CLK_SIM_EPOCH_UGV,
    HB_CLK_SIM_MECH_INIT,
    HB_CLK_SIM_MECH_STATE, HB_CLK_SIM_MECH_ROWS_PRE, HB_CLK_SIM_MECH_CURRENT,
    HB_CLK_SIM_MECH_ROWS_POST, HB_CLK_SIM_MECH_POINTS_ADVANCE, HB_CLK_SIM_PROBE,
    HB_CLK_COUNT
};

/* Per-context state (ctx->impl). Programs and kernels are built lazily, once
 * per precision (index HB_DOUBLE or HB_FLOAT). Threads share a context (each
 * with its own plans), and a cl_kernel carries its arguments from
 * clSetKernelArg to the enqueue: `lock` covers the lazy build and every
 * set-arguments-and-enqueue, so one thread's launch never takes another's
 * arguments. */
typedef struct {
    cl_platform_id   platform;
    cl_device_id     device;
    cl_context       context;
    cl_command_queue queue;
    int              is_gpu;
    int              has_fp64;
    int              fp32_div_ok;  /* correctly rounded float divide available */
    cl_ulong         max_alloc;    /* CL_DEVICE_MAX_MEM_ALLOC_SIZE              */
    size_t           max_wg;       /* CL_DEVICE_MAX_WORK_GROUP_SIZE             */
    cl_ulong         local_mem;    /* CL_DEVICE_LOCAL_MEM_SIZE                  */
    cl_uint          compute_units; /* CL_DEVICE_MAX_COMPUTE_UNITS              */
    /* NVIDIA's devices (cl_nv_device_attribute_query), else 0: compute
     * capability as major x 10 + minor, and the warp's width. */
    int              nv_cc;
    cl_uint          nv_warp;
    int              kregs[2][HB_CLK_COUNT]; /* registers per work-item (NVIDIA's
                                                build log), 0 where unknown */
    cl_program       program[2];
    cl_kernel        kernel[2][HB_CLK_COUNT];
    size_t           local[2][HB_CLK_COUNT]; /* work-group size per kernel     */
    size_t           kmax[2][HB_CLK_COUNT];  /* its CL_KERNEL_WORK_GROUP_SIZE  */
    hb__mutex        lock;         /* programs, kernels and their arguments     */
    int              lock_ready;   /* lock was initialised (fini destroys it)   */
} hb_cl;

struct hb_buffer {
    cl_mem mem;
    size_t bytes;
};

static inline hb_cl *hb__cl(const hb_context *ctx) { return (hb_cl *)ctx->impl; }

/* "CL_INVALID_VALUE" and the like. */
const char *hb__cl_error_name(cl_int err);
/* Records "<call> (<what>) failed: <name> (<code>)" and returns
 * HB_ERR_OUT_OF_MEMORY for allocation failures, else HB_ERR_BACKEND. */
hb_status hb__cl_fail(cl_int err, const char *call, const char *what);
#define HB_CL_CHECK(expr, call, what)                    \
    do {                                                 \
        cl_int hb__e_ = (expr);                          \
        if (hb__e_ != CL_SUCCESS)                        \
            return hb__cl_fail(hb__e_, call, what);      \
    } while (0)

/* device.c: the device opts names (its indices, else the environment), or
 * the caller's handles in opts, adopted (retained); fills cl (context and
 * queue included). Opening and closing are serialised across the process:
 * ICDs (PoCL among them) discover platforms and devices on the first call,
 * and that discovery is not safe from several threads at once. */
hb_status hb__cl_open_device(hb_cl *cl, const hb_context_options *opts, char *name,
                             size_t name_size);
/* Releases the queue and the context (made or retained by hb__cl_open_device). */
void hb__cl_close_device(hb_cl *cl);
/* The device list of hb_backend_ops.devices, in the order hb__cl_open_device
 * indexes it. */
hb_status hb__cl_devices(int32_t platform, int32_t index, int32_t *count, char *name,
                         size_t size);

/* program.c: the kernel `which` of precision p, built on first use, and its
 * work-group size; for queries only (kernel info): launches set arguments
 * through hb__cl_launch, under the context's lock. */
hb_status hb__cl_kernel(hb_context *ctx, hb_precision p, int which, cl_kernel *k, size_t *local);
/* The kernel's own work-group limit on the device (CL_KERNEL_WORK_GROUP_SIZE:
 * its registers or private arrays can make it lower than the device's). */
hb_status hb__cl_kernel_max(hb_context *ctx, hb_precision p, int which, size_t *kmax);
void hb__cl_release_programs(hb_cl *cl);

/* occupancy.c: work-groups of `group` work-items and `bytes` of local
 * memory that one compute unit holds at once, of kernel `which`
 * (hb__cl_resident): estimated on NVIDIA's devices from the limits of their
 * compute capability and the kernel's registers (from the build log, else
 * an assumed 64); elsewhere HB_ERR_BACKEND_UNAVAILABLE. hb__cl_nv_resident
 * is the estimate (0: none), hb__cl_nv_registers a kernel's registers in a
 * build log of -cl-nv-verbose (0: not there); both pure, for the tests. */
hb_status hb__cl_resident(hb_context *ctx, hb_precision p, int which, int64_t group, size_t bytes,
                          int64_t *per_unit);
int64_t hb__cl_nv_resident(int cc, int warp, int regs, int64_t group, size_t bytes);
int hb__cl_nv_registers(const char *log, const char *kernel);

/* queue.c: the queue of a plan's stream (NULL = the context's queue). */
hb_status hb__cl_queue(hb_context *ctx, void *stream, cl_command_queue *q);
/* A plan's stream: a queue of this context and device, in order (else
 * HB_ERR_INVALID_ARGUMENT); the backend's check_stream. */
hb_status hb__cl_check_stream(hb_context *ctx, void *stream);

/* One kernel argument: size and address of the value (a cl_mem, cl_long, ...). */
typedef struct {
    size_t      size;
    const void *value;
} hb_cl_arg;
#define HB_CL_MEM(buf) ((hb_cl_arg){sizeof(cl_mem), &(buf)->mem})
#define HB_CL_LONG(v) ((hb_cl_arg){sizeof(cl_long), &(v)})
#define HB_CL_INT(v) ((hb_cl_arg){sizeof(cl_int), &(v)})

/* Sets the arguments of kernel `which` and launches it over nitems
 * work-items (rounded up to whole work-groups). nitems == 0 returns before any
 * cl* call. */
hb_status hb__cl_launch(hb_context *ctx, void *stream, hb_precision p, int which,
                        const hb_cl_arg *args, int nargs, int64_t nitems);
/* The same with ngroups work-groups of (at most) `local` work-items each,
 * for kernels that work per group (get_local_size tells the kernel). */
hb_status hb__cl_launch_groups(hb_context *ctx, void *stream, hb_precision p, int which,
                               const hb_cl_arg *args, int nargs, int64_t ngroups, size_t local);

/* Launchers (the files of solver/): the hb_backend_ops entries. */
hb_to_layout_fn hb__cl_to_layout;
hb_to_flat_fn hb__cl_to_flat;
hb_thomas_fn hb__cl_thomas;
hb_hines_fn hb__cl_hines;
/* block_shared.c: the block-shared variants (hb_backend_ops.thomas_shared). */
hb_block_shared_fn hb__cl_thomas_shared;
hb_block_shared_fn hb__cl_hines_shared;
/* thomas_coop.c: the cooperative tridiagonal solver (hb_backend_ops.thomas_coop). */
hb_thomas_fn hb__cl_thomas_coop;
/* thomas_coop_local.c: the resident cooperative solver (hb_backend_ops.thomas_coop_local)
 * and its work-group limit (coop_local_limit). */
hb_thomas_fn hb__cl_thomas_coop_local;
hb_status hb__cl_coop_local_limit(hb_context *ctx, hb_precision p, int64_t *max_items);
/* thomas_span.c: the span variant, called by hb__cl_thomas_coop when
 * lay->coop_span > 1 (same arguments). */
hb_thomas_fn hb__cl_thomas_span;
/* hines_cell.c: the cell-group Hines solver (hb_backend_ops.hines_cell). */
hb_hines_fn hb__cl_hines_cell;
hb_status hb__cl_cell_resident(hb_context *ctx, hb_precision p, int ul_shared, int64_t group,
                               size_t bytes, int64_t *per_unit);
/* rowmap.c, hines_branches.c: the branch strategies. */
hb_map_fn hb__cl_map_to_layout;
hb_map_fn hb__cl_map_to_flat;
hb_hines_branches_fn hb__cl_hines_branch_level;
hb_hines_branches_fn hb__cl_hines_fine_tree;

#endif
