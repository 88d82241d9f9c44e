/* nvprobe.c: what NVIDIA's OpenCL tells of a device and of the cell-group kernels (registers through -cl-nv-verbose, the kernel queries, cl_nv_device_attribute_query); a one-off probe for this record, not part of the library. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const char *const hb__cl_sources[];
extern const int hb__cl_nsources;

int main(void)
{
    cl_platform_id ps[8];
    cl_uint np = 0;
    clGetPlatformIDs(8, ps, &np);
    for (cl_uint i = 0; i < np; ++i) {
        char name[256] = "";
        clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
        if (!strstr(name, "NVIDIA"))
            continue;
        cl_device_id dev;
        if (clGetDeviceIDs(ps[i], CL_DEVICE_TYPE_GPU, 1, &dev, NULL) != CL_SUCCESS)
            continue;
        for (cl_uint a = 0x4000; a <= 0x4010; ++a) {
            cl_uint v = 0;
            size_t got = 0;
            cl_int e = clGetDeviceInfo(dev, a, sizeof v, &v, &got);
            printf("attr 0x%x: err %d value %u (%zu bytes)\n", a, e, v, got);
        }
        cl_ulong lm = 0;
        clGetDeviceInfo(dev, CL_DEVICE_LOCAL_MEM_SIZE, sizeof lm, &lm, NULL);
        printf("local mem %llu\n", (unsigned long long)lm);
        cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, NULL);
        for (int prec = 0; prec < 2; ++prec) {
            const char *srcs[64];
            int n = 0;
            srcs[n++] = prec ? "#define HB_DOUBLE 1\n" : "/* float */\n";
            for (int k = 0; k < hb__cl_nsources && n < 64; ++k)
                srcs[n++] = hb__cl_sources[k];
            cl_program p = clCreateProgramWithSource(ctx, (cl_uint)n, srcs, NULL, NULL);
            cl_int e = clBuildProgram(p, 1, &dev, "-cl-std=CL1.2 -cl-nv-verbose", NULL, NULL);
            size_t sz = 0;
            clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &sz);
            char *log = malloc(sz + 1);
            clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sz, log, NULL);
            log[sz] = 0;
            printf("=== %s build %d, log %zu bytes\n", prec ? "double" : "float", e, sz);
            /* The whole log for the record; the cell kernels' lines here. */
            char fn[64];
            snprintf(fn, sizeof fn, "buildlog-%s.txt", prec ? "double" : "float");
            FILE *f = fopen(fn, "w");
            if (f) {
                fputs(log, f);
                fclose(f);
            }
            for (char *line = strtok(log, "\n"); line; line = strtok(NULL, "\n"))
                if (strstr(line, "hines_cell") || strstr(line, "Used"))
                    puts(line);
            free(log);
            const char *ks[] = {"hb_hines_cell", "hb_hines_cell_ug", "hb_sim_epoch"};
            for (int k = 0; k < 3; ++k) {
                cl_kernel kk = clCreateKernel(p, ks[k], &e);
                size_t wg = 0, mult = 0;
                cl_ulong loc = 0, priv = 0;
                clGetKernelWorkGroupInfo(kk, dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL);
                clGetKernelWorkGroupInfo(kk, dev, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                         sizeof mult, &mult, NULL);
                clGetKernelWorkGroupInfo(kk, dev, CL_KERNEL_LOCAL_MEM_SIZE, sizeof loc, &loc, NULL);
                clGetKernelWorkGroupInfo(kk, dev, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof priv, &priv,
                                         NULL);
                printf("%s: create %d wg %zu mult %zu local %llu private %llu\n", ks[k], e, wg,
                       mult, (unsigned long long)loc, (unsigned long long)priv);
                clReleaseKernel(kk);
            }
            clReleaseProgram(p);
        }
        clReleaseContext(ctx);
    }
    return 0;
}
