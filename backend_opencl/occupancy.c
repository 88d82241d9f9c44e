/* occupancy.c: work-groups of a kernel that one compute unit holds at once, estimated where OpenCL has no occupancy query: NVIDIA GPUs, from the compute capability's limits and the kernel's registers (named by the build log, else assumed). */
#include "cl_backend.h"

#include <stdlib.h>
#include <string.h>

/* One compute capability's per-multiprocessor limits (the CUDA C++
 * Programming Guide's table of technical specifications): resident
 * threads, resident blocks, 32-bit registers, shared memory at the largest
 * carveout, and what the driver reserves of it per block. */
typedef struct {
    int cc; /* major x 10 + minor */
    int threads, blocks, regs, smem, reserved;
} nv_limits;

static const nv_limits nv_table[] = {
    {30, 2048, 16, 65536, 49152, 0},   {35, 2048, 16, 65536, 49152, 0},
    {37, 2048, 16, 131072, 114688, 0}, {50, 2048, 32, 65536, 65536, 0},
    {52, 2048, 32, 65536, 98304, 0},   {53, 2048, 32, 65536, 65536, 0},
    {60, 2048, 32, 65536, 65536, 0},   {61, 2048, 32, 65536, 98304, 0},
    {62, 2048, 32, 65536, 65536, 0},   {70, 2048, 32, 65536, 98304, 0},
    {72, 2048, 32, 65536, 98304, 0},   {75, 1024, 16, 65536, 65536, 0},
    {80, 2048, 32, 65536, 167936, 1024}, {86, 1536, 16, 65536, 102400, 1024},
    {87, 2048, 16, 65536, 167936, 1024}, {89, 1536, 24, 65536, 102400, 1024},
    {90, 2048, 32, 65536, 233472, 1024}, {100, 2048, 32, 65536, 233472, 1024},
    {120, 1536, 32, 65536, 102400, 1024},
};

/* The row of cc, else the highest row of the same major below it (a minor
 * revision not listed); NULL for a major not listed. */
static const nv_limits *nv_row(int cc)
{
    const nv_limits *best = NULL;
    for (size_t i = 0; i < sizeof nv_table / sizeof *nv_table; ++i)
        if (nv_table[i].cc / 10 == cc / 10 && nv_table[i].cc <= cc)
            best = &nv_table[i];
    return best;
}

int hb__cl_nv_registers(const char *log, const char *kernel)
{
    if (!log || !kernel)
        return 0;
    /* ptxas's lines under -cl-nv-verbose: "Compiling entry function
     * 'NAME' for 'sm_90a'", then "Function properties for NAME", then
     * "Used N registers, ...". */
    char key[160];
    const size_t klen = strlen(kernel);
    if (klen + 3 > sizeof key)
        return 0;
    key[0] = '\'';
    memcpy(key + 1, kernel, klen);
    key[klen + 1] = '\'';
    key[klen + 2] = '\0';
    for (const char *at = strstr(log, "Compiling entry function"); at;
         at = strstr(at + 1, "Compiling entry function")) {
        const char *eol = strchr(at, '\n');
        const char *name = strstr(at, key);
        if (!name || (eol && name > eol))
            continue;
        const char *used = strstr(name, "Used ");
        const char *next = strstr(name, "Compiling entry function");
        if (!used || (next && used > next))
            return 0;
        char *end = NULL;
        const long n = strtol(used + 5, &end, 10);
        return end != used + 5 && n > 0 && n <= 255 && strncmp(end, " register", 9) == 0 ? (int)n
                                                                                         : 0;
    }
    return 0;
}

int64_t hb__cl_nv_resident(int cc, int warp, int regs, int64_t group, size_t bytes)
{
    const nv_limits *lim = nv_row(cc);
    if (!lim || warp <= 0 || regs <= 0 || regs > 255 || group <= 0 || group > lim->threads)
        return 0;
    const int64_t warps = (group + warp - 1) / warp;
    /* Registers are allocated per warp in units of 256. */
    const int64_t per_warp = ((int64_t)regs * warp + 255) / 256 * 256;
    int64_t n = lim->blocks;
    const int64_t by_regs = lim->regs / per_warp / warps;
    const int64_t by_threads = lim->threads / (warps * warp);
    if (by_regs < n)
        n = by_regs;
    if (by_threads < n)
        n = by_threads;
    if (bytes > 0) {
        const int64_t by_smem = (int64_t)lim->smem / ((int64_t)bytes + lim->reserved);
        if (by_smem < n)
            n = by_smem;
    }
    return n;
}

enum { HB_CL_NV_REGS_UNKNOWN = 64 };

hb_status hb__cl_resident(hb_context *ctx, hb_precision p, int which, int64_t group, size_t bytes,
                          int64_t *per_unit)
{
    hb_cl *cl = hb__cl(ctx);
    if (cl->nv_cc <= 0)
        return hb__error(HB_ERR_BACKEND_UNAVAILABLE,
                         "OpenCL: no estimate of resident work-groups on %s (not an NVIDIA "
                         "device: no cl_nv_device_attribute_query)",
                         ctx->device);
    cl_kernel k = NULL;
    size_t local = 0;
    HB_FORWARD(hb__cl_kernel(ctx, p, which, &k, &local)); /* builds the program */
    /* The build log names the registers only where ptxas ran: a program
     * from NVIDIA's compute cache comes with none, and the kernel's
     * CL_KERNEL_WORK_GROUP_SIZE tells nothing of them there (256 for every
     * kernel, 130 registers or 48; H200, driver 580). Then
     * HB_CL_NV_REGS_UNKNOWN stands in: the cell-group kernels took 48-64 on
     * sm_90 in both precisions, from NVIDIA's OpenCL and from nvcc. Leaving
     * the registers out instead kept 128 work-items at 2,560 CA1 cells
     * where CUDA halved the group (call 4 of
     * docs/benchmarks/h200-2026-12-01-prof). */
    const int regs = cl->kregs[p][which] > 0 ? cl->kregs[p][which] : HB_CL_NV_REGS_UNKNOWN;
    const int64_t n = hb__cl_nv_resident(cl->nv_cc, (int)cl->nv_warp, regs, group, bytes);
    if (n <= 0)
        return hb__error(HB_ERR_BACKEND_UNAVAILABLE,
                         "OpenCL: no estimate of resident work-groups of %lld work-items and %zu "
                         "B of local memory on %s (compute capability %d)",
                         (long long)group, bytes, ctx->device, cl->nv_cc);
    *per_unit = n;
    return HB_SUCCESS;
}
