/* cl_floor.c: the host cost of one small OpenCL launch on a device: a one-work-group kernel enqueued and waited for (clFinish), with 0 or 10 arguments set before each enqueue, and enqueues alone (one clFinish per 1,000). Median microseconds of 2,000 each. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec * 1e-3;
}
static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}
#define N 2000
static double t[N];
static double median(void)
{
    qsort(t, N, sizeof *t, cmp);
    return t[N / 2];
}
#define CK(x)                                                                   \
    do {                                                                        \
        cl_int e_ = (x);                                                        \
        if (e_ != CL_SUCCESS) {                                                 \
            fprintf(stderr, "%s: %d\n", #x, e_);                                \
            return 1;                                                           \
        }                                                                       \
    } while (0)

int main(int argc, char **argv)
{
    const char *want = argc > 1 ? argv[1] : "NVIDIA";
    cl_platform_id ps[8];
    cl_uint np = 0;
    CK(clGetPlatformIDs(8, ps, &np));
    cl_platform_id p = NULL;
    for (cl_uint i = 0; i < np; ++i) {
        char name[256];
        clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
        if (strstr(name, want))
            p = ps[i];
    }
    if (!p)
        return fprintf(stderr, "no platform %s\n", want), 1;
    cl_device_id d;
    CK(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, NULL));
    cl_int e;
    cl_context c = clCreateContext(NULL, 1, &d, NULL, NULL, &e);
    CK(e);
    cl_command_queue q = clCreateCommandQueue(c, d, 0, &e);
    CK(e);
    const char *src = "__kernel void k(__global double *x, long n, int a, int b, __global double *y,"
                      " __global double *z, __global double *w, __global double *u, __global double *v,"
                      " __local double *s) { size_t i = get_global_id(0); s[get_local_id(0)] = 1.0;"
                      " if (i < n) x[i] += (double)(a + b); }";
    cl_program pr = clCreateProgramWithSource(c, 1, &src, NULL, &e);
    CK(e);
    CK(clBuildProgram(pr, 1, &d, "", NULL, NULL));
    cl_kernel k = clCreateKernel(pr, "k", &e);
    CK(e);
    cl_mem m = clCreateBuffer(c, CL_MEM_READ_WRITE, 64 * sizeof(double), NULL, &e);
    CK(e);
    cl_long n = 64;
    cl_int a = 1, b = 2;
    size_t g = 64, l = 64;
    void *vals[10] = {&m, &n, &a, &b, &m, &m, &m, &m, &m, NULL};
    size_t sizes[10] = {sizeof m, sizeof n, sizeof a, sizeof b, sizeof m, sizeof m, sizeof m,
                        sizeof m, sizeof m, 64 * sizeof(double)};
    for (int i = 0; i < 10; ++i)
        CK(clSetKernelArg(k, (cl_uint)i, sizes[i], vals[i]));
    for (int r = 0; r < 200; ++r)
        CK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
    CK(clFinish(q));
    for (int r = 0; r < N; ++r) {
        double t0 = now_us();
        CK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
        CK(clFinish(q));
        t[r] = now_us() - t0;
    }
    printf("enqueue + clFinish, no arguments set: %.2f us\n", median());
    for (int r = 0; r < N; ++r) {
        double t0 = now_us();
        for (int i = 0; i < 10; ++i)
            CK(clSetKernelArg(k, (cl_uint)i, sizes[i], vals[i]));
        CK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
        CK(clFinish(q));
        t[r] = now_us() - t0;
    }
    printf("10 clSetKernelArg + enqueue + clFinish: %.2f us\n", median());
    for (int r = 0; r < N; ++r) {
        double t0 = now_us();
        for (int i = 0; i < 10; ++i)
            CK(clSetKernelArg(k, (cl_uint)i, sizes[i], vals[i]));
        t[r] = now_us() - t0;
    }
    printf("10 clSetKernelArg alone: %.2f us\n", median());
    for (int r = 0; r < N; ++r) {
        double t0 = now_us();
        CK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
        t[r] = now_us() - t0;
        if (r % 1000 == 999)
            CK(clFinish(q));
    }
    CK(clFinish(q));
    printf("enqueue alone (queue drained every 1,000): %.2f us\n", median());
    for (int r = 0; r < N; ++r) {
        CK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
        double t0 = now_us();
        CK(clFinish(q));
        t[r] = now_us() - t0;
    }
    printf("clFinish after one enqueue: %.2f us\n", median());
    clReleaseMemObject(m);
    clReleaseKernel(k);
    clReleaseProgram(pr);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
    return 0;
}
