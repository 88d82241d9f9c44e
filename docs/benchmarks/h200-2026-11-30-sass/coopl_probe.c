/* coopl_probe.c: the resident Thomas kernel (kernels_cl/solver/thomas_coop_local.cl, built with the library's options) on a uniform batch outside the library, on NVIDIA's OpenCL: median device time (event profiling) and host time of enqueue + clFinish, d restored from a copy before each solve; coopl_probe.cu's twin. */
#define _POSIX_C_SOURCE 199309L
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CK(x)                                                                                \
    do {                                                                                     \
        cl_int e_ = (x);                                                                     \
        if (e_ != CL_SUCCESS) {                                                              \
            fprintf(stderr, "%s: %d\n", #x, (int)e_);                                        \
            return 1;                                                                        \
        }                                                                                    \
    } while (0)

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec * 1e-3;
}
static int cmp(const void *x, const void *y)
{
    double u = *(const double *)x, v = *(const double *)y;
    return u < v ? -1 : u > v;
}

/* usage: coopl_probe KERNELS_CL_DIR double|float NSLOTS N P S LD REPS [options] */
int main(int argc, char **argv)
{
    if (argc < 9) {
        fprintf(stderr, "usage: %s KERNELS_CL_DIR double|float NSLOTS N P S LD REPS [options]\n",
                argv[0]);
        return 2;
    }
    const int dbl = strcmp(argv[2], "double") == 0;
    const cl_long nslots = atoll(argv[3]);
    const cl_int n = atoi(argv[4]), P = atoi(argv[5]), ld = atoi(argv[7]);
    const int S = atoi(argv[6]), reps = atoi(argv[8]);
    char path[4096];
    snprintf(path, sizeof path, "%s/solver/thomas_coop_local.cl", argv[1]);
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); return 1; }
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    rewind(f);
    char *text = malloc((size_t)len + 1);
    if (fread(text, 1, (size_t)len, f) != (size_t)len) return 1;
    text[len] = 0;
    fclose(f);
    const char *srcs[2] = {dbl ? "#define HB_DOUBLE 1\n" : "/* float */\n", text};

    cl_platform_id plats[8];
    cl_uint np = 0;
    CK(clGetPlatformIDs(8, plats, &np));
    cl_device_id dev = NULL;
    for (cl_uint i = 0; i < np && !dev; ++i) {
        char name[256] = "";
        clGetPlatformInfo(plats[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
        if (strstr(name, getenv("PROBE_PLATFORM") ? getenv("PROBE_PLATFORM") : "NVIDIA"))
            clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_ALL, 1, &dev, NULL);
    }
    if (!dev) { fprintf(stderr, "no device on the platform (PROBE_PLATFORM, default NVIDIA)\n"); return 1; }
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    CK(err);
    /* PROBE_WAIT: finish (clFinish, the library's wait), events (clFlush +
     * clWaitForEvents) or spin (clFlush + polling the launch's status);
     * PROBE_PROFILE=0: a queue without profiling (no device time). */
    const char *wait = getenv("PROBE_WAIT") ? getenv("PROBE_WAIT") : "finish";
    const int refresh_host = getenv("PROBE_REFRESH") && strcmp(getenv("PROBE_REFRESH"), "host") == 0;
    const int prof = !(getenv("PROBE_PROFILE") && strcmp(getenv("PROBE_PROFILE"), "0") == 0);
    cl_command_queue q =
        clCreateCommandQueue(ctx, dev, prof ? CL_QUEUE_PROFILING_ENABLE : 0, &err);
    CK(err);
    cl_program prog = clCreateProgramWithSource(ctx, 2, srcs, NULL, &err);
    CK(err);
    char opts[4096];
    snprintf(opts, sizeof opts, "-cl-std=CL1.2 %s -I %s %s",
             dbl ? "" : "-cl-fp32-correctly-rounded-divide-sqrt", argv[1], argc > 9 ? argv[9] : "");
    CK(clBuildProgram(prog, 1, &dev, opts, NULL, NULL));
    cl_kernel k = clCreateKernel(prog, "hb_thomas_coop_local", &err);
    CK(err);

    const size_t rows = (size_t)nslots * (size_t)n, es = dbl ? 8 : 4;
    cl_long *base = malloc((size_t)nslots * sizeof *base), *rl = malloc((size_t)nslots * sizeof *rl);
    for (cl_long t = 0; t < nslots; ++t) {
        base[t] = t * n;
        rl[t] = n;
    }
    cl_mem arr[5], mb, mr;
    unsigned char *hs[4], *h = NULL;
    srand(7); /* the values coopl_probe.cu draws */
    for (int a = 0; a < 4; ++a) {
        h = hs[a] = malloc(rows * es);
        for (size_t i = 0; i < rows; ++i) {
            const double u = rand() / (double)RAND_MAX;
            const double v = a == 1 ? 3 + u : a == 3 ? u : -u;
            if (dbl)
                ((double *)h)[i] = v;
            else
                ((float *)h)[i] = (float)v;
        }
        arr[a] = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, rows * es, h, &err);
        CK(err);
    }
    arr[4] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, rows * es, NULL, &err); /* d */
    CK(err);
    mb = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, (size_t)nslots * 8, base, &err);
    CK(err);
    mr = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, (size_t)nslots * 8, rl, &err);
    CK(err);
    CK(clSetKernelArg(k, 0, sizeof nslots, &nslots));
    CK(clSetKernelArg(k, 1, sizeof P, &P));
    CK(clSetKernelArg(k, 2, sizeof ld, &ld));
    CK(clSetKernelArg(k, 3, sizeof mb, &mb));
    CK(clSetKernelArg(k, 4, sizeof mr, &mr));
    CK(clSetKernelArg(k, 5, sizeof arr[0], &arr[0]));
    CK(clSetKernelArg(k, 6, sizeof arr[1], &arr[1]));
    CK(clSetKernelArg(k, 7, sizeof arr[2], &arr[2]));
    CK(clSetKernelArg(k, 8, sizeof arr[4], &arr[4]));
    CK(clSetKernelArg(k, 9, (size_t)3 * S * P * ld * es, NULL));
    const size_t local = (size_t)S * P, global = (size_t)((nslots + S - 1) / S) * local;
    double *dv = malloc(sizeof(double) * reps), *hv = malloc(sizeof(double) * reps);
    for (int r = 0; r < reps + 20; ++r) {
        /* PROBE_REFRESH=host: d written from the host (blocking), as the
         * library's bench re-arms a plan; else a device copy. */
        if (refresh_host)
            CK(clEnqueueWriteBuffer(q, arr[4], CL_TRUE, 0, rows * es, hs[3], 0, NULL, NULL));
        else
            CK(clEnqueueCopyBuffer(q, arr[3], arr[4], 0, 0, rows * es, 0, NULL, NULL));
        CK(clFinish(q));
        cl_event ev;
        const double t0 = now_us();
        CK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, &ev));
        if (wait[0] == 'f') {
            CK(clFinish(q));
        } else if (wait[0] == 'e') {
            CK(clFlush(q));
            CK(clWaitForEvents(1, &ev));
        } else {
            CK(clFlush(q));
            cl_int st = CL_QUEUED;
            do
                CK(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL));
            while (st > CL_COMPLETE);
        }
        const double t1 = now_us();
        cl_ulong s = 0, e = 0;
        if (prof) {
            CK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof s, &s, NULL));
            CK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof e, &e, NULL));
        }
        clReleaseEvent(ev);
        if (r >= 20) {
            dv[r - 20] = (double)(e - s) * 1e-3;
            hv[r - 20] = t1 - t0;
        }
    }
    /* The last solve's worst residual row, relative to |b x|, over every system. */
    unsigned char *x = malloc(rows * es);
    CK(clEnqueueReadBuffer(q, arr[4], CL_TRUE, 0, rows * es, x, 0, NULL, NULL));
#define V(A, I) (dbl ? ((double *)(A))[I] : (double)((float *)(A))[I])
    double worst = 0;
    for (size_t i = 0; i < rows; ++i) {
        const size_t r0 = i % (size_t)n;
        double s = V(hs[1], i) * V(x, i) - V(hs[3], i);
        if (r0 > 0)
            s += V(hs[0], i) * V(x, i - 1);
        if (r0 + 1 < (size_t)n)
            s += V(hs[2], i) * V(x, i + 1);
        s = s < 0 ? -s : s;
        const double m = V(hs[1], i) * (V(x, i) < 0 ? -V(x, i) : V(x, i)) + 1e-300;
        if (s / m > worst)
            worst = s / m;
    }
    qsort(dv, (size_t)reps, sizeof *dv, cmp);
    qsort(hv, (size_t)reps, sizeof *hv, cmp);
    printf("opencl %s %lld x %d (P %d, S %d, ld %d%s%s): device %.2f us, enqueue+%s%s%s %.2f us, residual %.1e\n",
           dbl ? "double" : "float", (long long)nslots, (int)n, (int)P, S, (int)ld,
           argc > 9 ? ", " : "", argc > 9 ? argv[9] : "", dv[reps / 2], wait,
           prof ? "" : " (no profiling)", refresh_host ? " after a host write" : "", hv[reps / 2],
           worst);
    return 0;
}
