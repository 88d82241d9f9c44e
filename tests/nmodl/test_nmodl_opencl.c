/* test_nmodl_opencl.c: the generated mechanism text built as OpenCL C 1.2 (kernels_cl/hb_prelude.cl first) and run on the OpenCL device (PoCL in CI), float and double, against the same functions compiled for the host. */
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

#include "hb_mech_table.h"
#include "hb_test_util.h"

extern const hb_mech_entry hb_mech_table_d[], hb_mech_table_s[];
extern const int hb_mech_table_count_d, hb_mech_table_count_s;

/* Device against host in the same precision: only the two libm's exp,
 * expm1, log and pow differ (OpenCL allows 3-4 ulp), with the floors of
 * test_nmodl_generated.c (states 1e-2, currents |g| * 1 mV). */
#define DEV_REL_DOUBLE 1e-10
#define DEV_REL_FLOAT 1e-4
#define NPTS 2048

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

/* One kernel per mechanism: init at v, current and one state step from
 * the given states, for NPTS inputs (kernel text written here because the
 * ion arguments differ per mechanism). */
static void harness(char **buf, size_t *len, const hb_mech_entry *m)
{
    char s[4096], ions[512] = "", outs[256] = "";
    for (int k = 0; k < m->nion_in; ++k)
        snprintf(ions + strlen(ions), sizeof ions - strlen(ions), ", x[%d]", 3 + k);
    for (int k = 0; k < m->nion_out; ++k)
        snprintf(outs + strlen(outs), sizeof outs - strlen(outs), ", &o[%d]", 2 + k);
    const int nin = 3 + m->nion_in, ns = m->nstate > 0 ? m->nstate : 1;
    const int np = m->nparam > 0 ? m->nparam : 1, no = 2 + m->nion_out;
    snprintf(s, sizeof s,
             "__kernel void t_%s(const int n, __global const real *in, __global const real *prm,\n"
             "    __global const real *st0, __global real *st_init, __global real *out,\n"
             "    __global real *st_step)\n{\n"
             "    const int k = (int)get_global_id(0);\n    if (k >= n) return;\n"
             "    __global const real *x = in + k * %d;\n"
             "    real p[%d], s[%d], o[%d];\n"
             "    for (int j = 0; j < %d; ++j) p[j] = prm[j];\n"
             "    hb_mech_%s_init(x[0], x[2]%s, p, s);\n"
             "    for (int j = 0; j < %d; ++j) st_init[k * %d + j] = s[j];\n"
             "    for (int j = 0; j < %d; ++j) s[j] = st0[k * %d + j];\n"
             "    hb_mech_%s_current(x[0], x[2]%s, p, s, &o[0], &o[1]%s);\n"
             "    for (int j = 0; j < %d; ++j) out[k * %d + j] = o[j];\n"
             "    hb_mech_%s_state(x[0], x[1], x[2]%s, p, s);\n"
             "    for (int j = 0; j < %d; ++j) st_step[k * %d + j] = s[j];\n}\n",
             m->name, nin, np, ns, no, m->nparam, m->name, ions, m->nstate, ns, m->nstate, ns,
             m->name, ions, outs, no, no, m->name, ions, m->nstate, ns);
    cat(buf, len, s);
}

static double get(int dbl, const void *a, size_t k)
{
    return dbl ? ((const double *)a)[k] : (double)((const float *)a)[k];
}

static void put(int dbl, void *a, size_t k, double v)
{
    if (dbl)
        ((double *)a)[k] = v;
    else
        ((float *)a)[k] = (float)v;
}

static double worst[2];

static void check(int dbl, const char *mech, const char *what, int j, double v, double dev,
                  double host, double floor)
{
    const double bound = dbl ? DEV_REL_DOUBLE : DEV_REL_FLOAT;
    const double err = fabs(dev - host) / fmax(fabs(host), floor);
    worst[dbl] = isnan(err) ? INFINITY : fmax(worst[dbl], err);
    HB_CHECK(isfinite(dev) && err <= bound, "%s %s %s[%d] at v = %.9g: device %.17g, host %.17g",
             dbl ? "double" : "float", mech, what, j, v, dev, host);
}

static void run_mech(cl_context ctx, cl_command_queue q, cl_program prog, int dbl,
                     const hb_mech_entry *m)
{
    const size_t es = dbl ? sizeof(double) : sizeof(float);
    const int nin = 3 + m->nion_in, ns = m->nstate > 0 ? m->nstate : 1, no = 2 + m->nion_out;
    const int np = m->nparam > 0 ? m->nparam : 1;
    void *in = calloc((size_t)NPTS * nin, es), *prm = calloc((size_t)np, es);
    void *st0 = calloc((size_t)NPTS * ns, es), *sti = calloc((size_t)NPTS * ns, es);
    void *out = calloc((size_t)NPTS * no, es), *sts = calloc((size_t)NPTS * ns, es);
    for (int j = 0; j < m->nparam; ++j)
        put(dbl, prm, (size_t)j, m->param_defaults[j]);
    for (int k = 0; k < NPTS; ++k) {
        const double v = k < 8 ? (k % 2 ? -55.0 : -40.0) + (k / 2) * 1e-5 : -100 + 160 * hb_test_unit();
        put(dbl, in, (size_t)k * nin, v);
        put(dbl, in, (size_t)k * nin + 1, 0.025);
        put(dbl, in, (size_t)k * nin + 2, 6.3 + 30 * hb_test_unit());
        for (int j = 3; j < nin; ++j)
            put(dbl, in, (size_t)k * nin + j, -100 + 160 * hb_test_unit());
        for (int j = 0; j < ns; ++j)
            put(dbl, st0, (size_t)k * ns + j, hb_test_unit());
    }
    /* Values kept between calls (exp2syn's factor and tau1) come from init. */
    for (int k = 0; k < NPTS; ++k) {
        double x[HB_MECH_MAX_SLOTS], s[HB_MECH_MAX_SLOTS];
        for (int j = 0; j < nin; ++j)
            x[j] = get(dbl, in, (size_t)k * nin + j);
        m->init(x, m->param_defaults, s);
        for (int j = m->nstatevar; j < m->nstate; ++j)
            put(dbl, st0, (size_t)k * ns + j, s[j]);
    }
    cl_int err;
    cl_mem b[6];
    const size_t sz[6] = {(size_t)NPTS * nin, (size_t)np, (size_t)NPTS * ns, (size_t)NPTS * ns,
                          (size_t)NPTS * no, (size_t)NPTS * ns};
    void *host[6] = {in, prm, st0, sti, out, sts};
    for (int i = 0; i < 6; ++i) {
        if (i >= 3) /* poisoned: every output must be written */
            for (size_t k = 0; k < sz[i]; ++k)
                put(dbl, host[i], k, NAN);
        b[i] = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sz[i] * es, host[i], &err);
        HB_CHECK(err == CL_SUCCESS, "clCreateBuffer: %d", err);
    }
    char name[128];
    snprintf(name, sizeof name, "t_%s", m->name);
    cl_kernel kern = clCreateKernel(prog, name, &err);
    HB_CHECK(err == CL_SUCCESS, "clCreateKernel(%s): %d", name, err);
    if (err != CL_SUCCESS)
        return;
    const cl_int n = NPTS;
    clSetKernelArg(kern, 0, sizeof n, &n);
    for (int i = 0; i < 6; ++i)
        clSetKernelArg(kern, (cl_uint)(i + 1), sizeof(cl_mem), &b[i]);
    const size_t global = NPTS;
    HB_CHECK(clEnqueueNDRangeKernel(q, kern, 1, NULL, &global, NULL, 0, NULL, NULL) == CL_SUCCESS,
             "launch %s", name);
    for (int i = 3; i < 6; ++i)
        clEnqueueReadBuffer(q, b[i], CL_TRUE, 0, sz[i] * es, host[i], 0, NULL, NULL);
    const hb_mech_entry *h = NULL; /* the host's functions in the same precision */
    const hb_mech_entry *t = dbl ? hb_mech_table_d : hb_mech_table_s;
    const int nt = dbl ? hb_mech_table_count_d : hb_mech_table_count_s;
    for (int k = 0; k < nt; ++k)
        if (strcmp(t[k].name, m->name) == 0)
            h = &t[k];
    for (int k = 0; k < NPTS; ++k) {
        double x[HB_MECH_MAX_SLOTS], s0[HB_MECH_MAX_SLOTS], si[HB_MECH_MAX_SLOTS],
            o[HB_MECH_MAX_SLOTS], ss[HB_MECH_MAX_SLOTS];
        for (int j = 0; j < nin; ++j)
            x[j] = get(dbl, in, (size_t)k * nin + j);
        for (int j = 0; j < ns; ++j)
            s0[j] = ss[j] = get(dbl, st0, (size_t)k * ns + j);
        h->init(x, h->param_defaults, si);
        h->current(x, h->param_defaults, s0, o);
        h->state(x, h->param_defaults, ss);
        for (int j = 0; j < m->nstate; ++j) {
            check(dbl, m->name, "init", j, x[0], get(dbl, sti, (size_t)k * ns + j), si[j], 1e-2);
            check(dbl, m->name, "state", j, x[0], get(dbl, sts, (size_t)k * ns + j), ss[j], 1e-2);
        }
        for (int j = 0; j < no; ++j)
            check(dbl, m->name, j == 0 ? "g" : "i", j, x[0], get(dbl, out, (size_t)k * no + j),
                  o[j], j == 0 ? 1e-12 : fmax(fabs(o[0]), 1e-12));
    }
    clReleaseKernel(kern);
    for (int i = 0; i < 6; ++i) {
        clReleaseMemObject(b[i]);
        free(host[i]);
    }
}

int main(int argc, char **argv)
{
    hb_test_begin("test_nmodl_opencl");
    if (argc < 3) {
        fprintf(stderr, "usage: %s hb_prelude.cl generated.cl...\n", argv[0]);
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
        for (int k = 0; k < nt; ++k)
            harness(&src, &len, &t[k]);
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
        if (err == CL_SUCCESS)
            for (int k = 0; k < nt; ++k)
                run_mech(ctx, q, prog, dbl, &t[k]);
        printf("%s, %s: %d mechanisms built and run, largest relative difference from the host "
               "%.3g (bound %g)\n", dname, dbl ? "double" : "float", nt, worst[dbl],
               dbl ? DEV_REL_DOUBLE : DEV_REL_FLOAT);
        clReleaseProgram(prog);
        free(src);
    }
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return hb_test_finish();
}
