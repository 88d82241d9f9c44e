/* test_opencl_occupancy.c: the OpenCL backend's estimate of resident work-groups (backend_opencl/occupancy.c): a kernel's registers read from a -cl-nv-verbose build log, the estimate against Nsight Compute's block limits on an H200, its refusals, and the backend's answer on the device at hand (an estimate on NVIDIA's, HB_ERR_BACKEND_UNAVAILABLE elsewhere). */
#include <string.h>

#include "cl_backend.h"
#include "hb_test_util.h"

/* The shape of NVIDIA's log (H200, driver 580; docs/benchmarks/h200-2026-12-01-prof,
 * nvprobe), two kernels whose names share a prefix, one with no count. */
static const char nv_log[] =
    "(): Warning: Function hb_hines_cell is a kernel, so overriding noinline attribute.\n"
    "ptxas info    : 0 bytes gmem\n"
    "ptxas info    : Compiling entry function 'hb_hines_cell_ug' for 'sm_90a'\n"
    "ptxas info    : Function properties for hb_hines_cell_ug\n"
    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 56 registers, used 1 barriers\n"
    "ptxas info    : Compiling entry function 'hb_hines_cell' for 'sm_90a'\n"
    "ptxas info    : Function properties for hb_hines_cell\n"
    "ptxas info    : Used 48 registers, used 1 barriers\n"
    "ptxas info    : Compiling entry function 'hb_sim_probe' for 'sm_90a'\n"
    "ptxas info    : Compiling entry function 'hb_thomas' for 'sm_90a'\n"
    "ptxas info    : Used 300 registers, used 0 barriers\n";

static void registers(void)
{
    HB_CHECK(hb__cl_nv_registers(nv_log, "hb_hines_cell_ug") == 56, "hb_hines_cell_ug: %d",
             hb__cl_nv_registers(nv_log, "hb_hines_cell_ug"));
    HB_CHECK(hb__cl_nv_registers(nv_log, "hb_hines_cell") == 48, "hb_hines_cell: %d",
             hb__cl_nv_registers(nv_log, "hb_hines_cell"));
    /* No count before the next entry, a count past 255, a name not there,
     * a prefix of a name, no log. */
    HB_CHECK(hb__cl_nv_registers(nv_log, "hb_sim_probe") == 0, "hb_sim_probe");
    HB_CHECK(hb__cl_nv_registers(nv_log, "hb_thomas") == 0, "hb_thomas (300)");
    HB_CHECK(hb__cl_nv_registers(nv_log, "hb_hines") == 0, "hb_hines");
    HB_CHECK(hb__cl_nv_registers(nv_log, "hb_hines_cel") == 0, "a prefix");
    HB_CHECK(hb__cl_nv_registers(NULL, "hb_hines_cell") == 0, "no log");
    HB_CHECK(hb__cl_nv_registers("ptxas info : Compiling entry function 'k' for 'sm_90'\n"
                                 "ptxas info : Used x registers\n",
                                 "k") == 0,
             "a count that is no number");
}

static void estimate(void)
{
    /* Nsight Compute's block limits of the CUDA build of the same kernel
     * text on an H200 (56 registers; prof record, call 1): 64 work-items
     * and 11,648 B (2 x 728 doubles) -> registers 18, shared memory 18;
     * 128 work-items and 35,008 B (the schedule staged too) -> registers
     * 9, shared memory 6. */
    int64_t n = hb__cl_nv_resident(90, 32, 56, 64, 11648);
    HB_CHECK(n == 18, "H200, 64 work-items, 11,648 B: %lld", (long long)n);
    n = hb__cl_nv_resident(90, 32, 56, 128, 35008);
    HB_CHECK(n == 6, "H200, 128 work-items, 35,008 B: %lld", (long long)n);
    n = hb__cl_nv_resident(90, 32, 56, 128, 0);
    HB_CHECK(n == 9, "H200, 128 work-items, registers alone: %lld", (long long)n);
    /* The block limit, the threads' limit, 3.7's doubled register file. */
    n = hb__cl_nv_resident(90, 32, 16, 32, 0);
    HB_CHECK(n == 32, "H200, 32 work-items, 16 registers: %lld", (long long)n);
    n = hb__cl_nv_resident(75, 32, 16, 256, 0);
    HB_CHECK(n == 4, "sm_75, 256 work-items (1,024 threads): %lld", (long long)n);
    n = hb__cl_nv_resident(37, 32, 128, 128, 0);
    HB_CHECK(n == 8, "K80, 128 registers, 128 work-items: %lld", (long long)n);
    /* A minor revision not listed takes its major's lower row (8.9 -> 8.6
     * is not below: 8.9 is listed; 9.1 -> 9.0). */
    HB_CHECK(hb__cl_nv_resident(91, 32, 56, 64, 11648) == 18, "9.1 as 9.0");
    /* Refused: a major not listed, no warp, registers out of range, no group, a group
     * past the threads' limit. */
    HB_CHECK(hb__cl_nv_resident(110, 32, 56, 64, 0) == 0, "major 11");
    HB_CHECK(hb__cl_nv_resident(20, 32, 56, 64, 0) == 0, "major 2");
    HB_CHECK(hb__cl_nv_resident(90, 0, 56, 64, 0) == 0, "no warp");
    HB_CHECK(hb__cl_nv_resident(90, 32, 0, 64, 0) == 0, "no registers");
    HB_CHECK(hb__cl_nv_resident(90, 32, 256, 64, 0) == 0, "256 registers");
    /* The count assumed where the log names none (a program from the
     * driver's cache): 64, which halves the group at 2,560 CA1 cells as
     * CUDA's 56 does (128 work-items: 8 per unit, 64: 16). */
    n = hb__cl_nv_resident(90, 32, 64, 128, 11648);
    HB_CHECK(n == 8, "H200, 128 work-items, 64 registers: %lld", (long long)n);
    n = hb__cl_nv_resident(90, 32, 64, 64, 11648);
    HB_CHECK(n == 16, "H200, 64 work-items, 64 registers: %lld", (long long)n);
    HB_CHECK(hb__cl_nv_resident(90, 32, 56, 0, 0) == 0, "no group");
    HB_CHECK(hb__cl_nv_resident(75, 32, 16, 2048, 0) == 0, "2,048 work-items on sm_75");
    /* Local memory past a compute unit's holds none. */
    HB_CHECK(hb__cl_nv_resident(90, 32, 56, 64, (size_t)1 << 20) == 0, "1 MiB of local memory");
}

/* The backend's own answer: on NVIDIA's devices an estimate from the
 * kernel's logged registers, elsewhere a refusal that names the device, so
 * that the plan keeps its rule without the query. */
static void on_device(void)
{
    hb_context *ctx = hb_test_backend_context(HB_BACKEND_OPENCL);
    const hb_cl *cl = hb__cl(ctx);
    const hb_precision p = cl->has_fp64 ? HB_DOUBLE : HB_FLOAT;
    int64_t n = -1;
    hb_status st = ctx->ops->cell_resident(ctx, p, 1, 64, 4096, &n);
    printf("device %s: compute capability %d, cell_resident %s, %lld groups\n", ctx->device,
           cl->nv_cc, hb_status_name(st), (long long)n);
    if (cl->nv_cc > 0) {
        HB_CHECK(st == HB_SUCCESS, "NVIDIA: %s", hb_last_error());
        HB_CHECK(n >= 1 && n <= 32, "NVIDIA: %lld groups", (long long)n);
        /* From the log, where ptxas ran; 0 for a program from the driver's
         * cache (64 assumed then). */
        printf("registers of hb_hines_cell_ug from the build log: %d\n",
               cl->kregs[p][HB_CLK_HINES_CELL_UG]);
    } else {
        HB_CHECK(st == HB_ERR_BACKEND_UNAVAILABLE, "not NVIDIA: %s", hb_status_name(st));
        HB_CHECK(n == -1, "the count is untouched on error");
        HB_CHECK(strstr(hb_last_error(), ctx->device) != NULL, "message names the device: %s",
                 hb_last_error());
    }
    hb_context_destroy(ctx);
}

int main(void)
{
    hb_test_begin("test_opencl_occupancy");
    registers();
    estimate();
    on_device();
    return hb_test_finish();
}
