/* test_nmodl_opencl.c: the generated mechanism text built as OpenCL C 1.2 (kernels_cl/hb_prelude.cl first, the test kernels of hb_nmodl --test-kernels last) and run on the OpenCL device (PoCL in CI), float and double, against the same functions compiled for the host. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CL_TARGET_OPENCL_VERSION 120
#ifdef __APPLE__
#include <OpenCL/opencl.h>
#else
#include <CL/cl.h>
#endif

#include "hb_test_util.h"
#include "nmodl_device_check.h"

extern const hb_mech_entry hb_mech_table_d[], hb_mech_table_s[];
extern const int hb_mech_table_count_d, hb_mech_table_count_s;

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    if (s)
        s[n] = 0;
    fclose(f);
    return s;
}

/* Appends to a growing string. */
static void cat(char **buf, size_t *len, const char *s)
{
    size_t n = strlen(s);
    *buf = realloc(*buf, *len + n + 1);
    memcpy(*buf + *len, s, n + 1);
    *len += n;
}

static void run_mech(cl_context ctx, cl_command_queue q, cl_program prog, int dbl,
                     const hb_mech_entry *m, double *worst)
{
    const size_t es = dbl ? sizeof(double) : sizeof(float);
    const int npts = HB_NMODL_DEV_NPTS;
    const hb_nmodl_dev_sizes z = hb_nmodl_dev_sizes_of(m, npts);
    const size_t sz[6] = {z.in, z.prm, z.st, z.st, z.out, z.st};
    void *host[6];
    for (int i = 0; i < 6; ++i)
        host[i] = calloc(sz[i], es);
    hb_nmodl_dev_inputs(dbl, m, npts, host[0], host[1], host[2], host[3], host[4], host[5]);
    cl_int err;
    cl_mem b[6];
    for (int i = 0; i < 6; ++i) {
        b[i] = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sz[i] * es, host[i],
                              &err);
        HB_CHECK(err == CL_SUCCESS, "clCreateBuffer: %d", err);
    }
    char name[128];
    snprintf(name, sizeof name, "hb_mech_test_%s", m->name);
    cl_kernel kern = clCreateKernel(prog, name, &err);
    HB_CHECK(err == CL_SUCCESS, "clCreateKernel(%s): %d", name, err);
    if (err == CL_SUCCESS) {
        const cl_int n = npts;
        clSetKernelArg(kern, 0, sizeof n, &n);
        for (int i = 0; i < 6; ++i)
            clSetKernelArg(kern, (cl_uint)(i + 1), sizeof(cl_mem), &b[i]);
        const size_t global = (size_t)npts;
        HB_CHECK(clEnqueueNDRangeKernel(q, kern, 1, NULL, &global, NULL, 0, NULL, NULL) ==
                     CL_SUCCESS,
                 "launch %s", name);
        for (int i = 3; i < 6; ++i)
            HB_CHECK(clEnqueueReadBuffer(q, b[i], CL_TRUE, 0, sz[i] * es, host[i], 0, NULL,
                                         NULL) == CL_SUCCESS,
                     "read back %s", name);
        *worst = fmax(*worst, hb_nmodl_dev_compare(dbl, m, npts, host[0], host[2], host[3],
                                                   host[4], host[5]));
        clReleaseKernel(kern);
    }
    for (int i = 0; i < 6; ++i) {
        clReleaseMemObject(b[i]);
        free(host[i]);
    }
}

int main(int argc, char **argv)
{
    hb_test_begin("test_nmodl_opencl");
    if (argc < 3) {
        fprintf(stderr, "usage: %s hb_prelude.cl generated.cl... test_kernels.cl\n", argv[0]);
        return 1;
    }
    cl_platform_id plats[8];
    cl_uint nplat = 0;
    cl_device_id dev = NULL;
    if (clGetPlatformIDs(8, plats, &nplat) == CL_SUCCESS)
        for (cl_uint i = 0; i < nplat && !dev; ++i)
            if (clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_ALL, 1, &dev, NULL) != CL_SUCCESS)
                dev = NULL;
    HB_CHECK(dev != NULL, "no OpenCL device (PoCL: . ci/opencl-env.sh build)");
    if (!dev)
        return hb_test_finish();
    char dname[256] = "", ext[8192] = "";
    clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof dname, dname, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL);
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
    for (int dbl = 0; dbl < 2; ++dbl) {
        if (dbl && !strstr(ext, "cl_khr_fp64")) {
            printf("%s: no cl_khr_fp64: double not tested\n", dname);
            continue;
        }
        char *src = NULL;
        size_t len = 0;
        cat(&src, &len, dbl ? "#define HB_DOUBLE 1\n" : "");
        for (int a = 1; a < argc; ++a) {
            char *t = slurp(argv[a]);
            HB_CHECK(t != NULL, "cannot read %s", argv[a]);
            if (!t)
                return hb_test_finish();
            char line[1100];
            snprintf(line, sizeof line, "#line 1 \"%.1000s\"\n", argv[a]);
            cat(&src, &len, line);
            cat(&src, &len, t);
            cat(&src, &len, "\n");
            free(t);
        }
        const hb_mech_entry *t = dbl ? hb_mech_table_d : hb_mech_table_s;
        const int nt = dbl ? hb_mech_table_count_d : hb_mech_table_count_s;
        const char *s = src;
        cl_program prog = clCreateProgramWithSource(ctx, 1, &s, &len, &err);
        err = clBuildProgram(prog, 1, &dev, "-cl-std=CL1.2", NULL, NULL);
        if (err != CL_SUCCESS) {
            char log[16384] = "";
            clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
            fprintf(stderr, "%s", log);
        }
        HB_CHECK(err == CL_SUCCESS, "%s: the generated text does not build as OpenCL C 1.2 (%s)",
                 dname, dbl ? "double" : "float");
        double worst = 0;
        if (err == CL_SUCCESS)
            for (int k = 0; k < nt; ++k)
                run_mech(ctx, q, prog, dbl, &t[k], &worst);
        printf("%s, %s: %d mechanisms built and run, largest relative difference from the host "
               "%.3g (bound %g)\n", dname, dbl ? "double" : "float", nt, worst,
               dbl ? HB_NMODL_DEV_REL_DOUBLE : HB_NMODL_DEV_REL_FLOAT);
        clReleaseProgram(prog);
        free(src);
    }
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return hb_test_finish();
}
