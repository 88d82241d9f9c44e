/* test_context_options.c: hb_context_create_with on the backend under test: defaults, the device list and every device by index, options against the environment (the API wins), hb_context_get_options round trips, and bad options refused with the right code before any device is touched. */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv, strdup */
#include <stdlib.h>
#include <string.h>

#include "hb_oracle_runner.h"

static int is_gpu_backend(hb_backend b) { return b == HB_BACKEND_OPENCL || b == HB_BACKEND_CUDA; }

/* create_with must fail with `want`, leave the output as it was and name
 * `field` in its message. */
static void expect_refused(const hb_context_options *o, hb_status want, const char *field,
                           const char *what)
{
    int sentinel = 0;
    hb_context *c = (hb_context *)&sentinel;
    hb_status st = hb_context_create_with(o, &c);
    HB_CHECK(st == want, "%s: %s, expected %s (%s)", what, hb_status_string(st),
             hb_status_string(want), hb_last_error());
    HB_CHECK(c == (hb_context *)&sentinel, "%s: output written on failure", what);
    HB_CHECK(strstr(hb_last_error(), field) != NULL, "%s: message does not name '%s': %s", what,
             field, hb_last_error());
    if (st == HB_SUCCESS && c != (hb_context *)&sentinel)
        hb_context_destroy(c);
}

/* Options no backend could honour: refused before any device is looked for,
 * so these hold on machines without one (before the cuda skip). The handles
 * are dummies: they must never be touched. */
static void bad_options(void)
{
    int dummy = 0;
    hb_context_options o;
    hb_context_options_init(&o);
    HB_CHECK(o.backend == HB_BACKEND_AUTO && o.device == -1 && o.platform == -1 &&
                 !o.cl_context && !o.cl_device && !o.cl_queue && !o.cuda_stream,
             "hb_context_options_init's defaults");
    hb_context_options_init(NULL); /* harmless */
    HB_CHECK_STATUS(hb_context_create_with(&o, NULL), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK(strstr(hb_last_error(), "ctx") != NULL, "names ctx: %s", hb_last_error());

    const hb_backend all[] = {HB_BACKEND_AUTO, HB_BACKEND_SERIAL, HB_BACKEND_OPENMP,
                              HB_BACKEND_OPENCL, HB_BACKEND_CUDA};
    hb_context_options b = o;
    b.backend = (hb_backend)42;
    expect_refused(&b, HB_ERR_INVALID_ARGUMENT, "opts->backend", "backend 42");
    b.backend = (hb_backend)-1;
    expect_refused(&b, HB_ERR_INVALID_ARGUMENT, "opts->backend", "backend -1");
    for (int i = 0; i < 5; ++i) {
        char what[96];
        hb_context_options x = o;
        x.backend = all[i];
        const char *bn = hb_backend_name(all[i]);
        x.device = -2;
        snprintf(what, sizeof what, "%s, device -2", bn);
        expect_refused(&x, HB_ERR_INVALID_ARGUMENT, "opts->device", what);
        x.device = -1;
        x.platform = -7;
        snprintf(what, sizeof what, "%s, platform -7", bn);
        expect_refused(&x, HB_ERR_INVALID_ARGUMENT, "opts->platform", what);
        x.platform = -1;
        /* Each OpenCL handle with any other backend; the stream with any
         * but CUDA. */
        if (all[i] != HB_BACKEND_OPENCL) {
            const char *fields[3] = {"cl_context", "cl_device", "cl_queue"};
            for (int f = 0; f < 3; ++f) {
                hb_context_options y = x;
                void **slot = f == 0 ? &y.cl_context : f == 1 ? &y.cl_device : &y.cl_queue;
                *slot = &dummy;
                snprintf(what, sizeof what, "%s with %s", bn, fields[f]);
                expect_refused(&y, HB_ERR_INVALID_ARGUMENT, fields[f], what);
            }
            if (all[i] != HB_BACKEND_AUTO) {
                hb_context_options y = x;
                y.platform = 0;
                snprintf(what, sizeof what, "%s with platform 0", bn);
                expect_refused(&y, HB_ERR_INVALID_ARGUMENT, "opts->platform", what);
            }
        }
        if (all[i] != HB_BACKEND_CUDA) {
            hb_context_options y = x;
            y.cuda_stream = &dummy;
            snprintf(what, sizeof what, "%s with cuda_stream", bn);
            expect_refused(&y, HB_ERR_INVALID_ARGUMENT, "cuda_stream", what);
        }
        if (all[i] == HB_BACKEND_SERIAL || all[i] == HB_BACKEND_OPENMP) {
            hb_context_options y = x;
            y.device = 0;
            snprintf(what, sizeof what, "%s with device 0", bn);
            expect_refused(&y, HB_ERR_INVALID_ARGUMENT, "opts->device", what);
        }
    }
    /* OpenCL handles name the device: an index beside them is refused. */
    hb_context_options y = o;
    y.backend = HB_BACKEND_OPENCL;
    y.cl_queue = &dummy;
    y.device = 0;
    expect_refused(&y, HB_ERR_INVALID_ARGUMENT, "opts->device", "cl_queue with device 0");
    y.device = -1;
    y.platform = 0;
    expect_refused(&y, HB_ERR_INVALID_ARGUMENT, "opts->platform", "cl_queue with platform 0");

    /* get_options and the device list: their own arguments. */
    hb_context_options got;
    HB_CHECK_STATUS(hb_context_get_options(NULL, &got), HB_ERR_INVALID_ARGUMENT);
    int32_t n = -5;
    char name[64] = "untouched";
    HB_CHECK_STATUS(hb_backend_device_count(HB_BACKEND_SERIAL, -1, NULL), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_backend_device_count(HB_BACKEND_AUTO, -1, &n), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_backend_device_count((hb_backend)9, -1, &n), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_backend_device_count(HB_BACKEND_SERIAL, 0, &n), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_backend_device_count(HB_BACKEND_CUDA, 0, &n), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_backend_device_count(HB_BACKEND_OPENCL, -2, &n), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK(n == -5, "count written on failure: %d", (int)n);
    HB_CHECK_STATUS(hb_backend_device_name(HB_BACKEND_SERIAL, -1, 0, NULL, 8),
                    HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_backend_device_name(HB_BACKEND_SERIAL, -1, 0, name, 0),
                    HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_backend_device_name(HB_BACKEND_SERIAL, -1, -1, name, sizeof name),
                    HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_backend_device_name(HB_BACKEND_SERIAL, -1, 1, name, sizeof name),
                    HB_ERR_BACKEND_UNAVAILABLE);
    HB_CHECK(!strcmp(name, "untouched"), "name written on failure: %s", name);
    /* The host backends have one device, the host. */
    HB_CHECK_STATUS(hb_backend_device_count(HB_BACKEND_SERIAL, -1, &n), HB_SUCCESS);
    HB_CHECK(n == 1, "serial has %d devices", (int)n);
    HB_CHECK_STATUS(hb_backend_device_name(HB_BACKEND_SERIAL, -1, 0, name, sizeof name),
                    HB_SUCCESS);
    HB_CHECK(strstr(name, "host") != NULL, "serial device: %s", name);
    /* Truncated to the size given, with its NUL. */
    char tiny[5] = "xxxx";
    HB_CHECK_STATUS(hb_backend_device_name(HB_BACKEND_SERIAL, -1, 0, tiny, 3), HB_SUCCESS);
    HB_CHECK(tiny[2] == '\0' && tiny[3] == 'x', "truncation: '%s'", tiny);
    /* Backends not compiled in: unavailable, saying so. */
    for (int i = 1; i < 5; ++i)
        if (!hb_backend_compiled(all[i])) {
            HB_CHECK_STATUS(hb_backend_device_count(all[i], -1, &n), HB_ERR_BACKEND_UNAVAILABLE);
            HB_CHECK(strstr(hb_last_error(), "not compiled") != NULL, "%s: %s",
                     hb_backend_name(all[i]), hb_last_error());
            hb_context_options x = o;
            x.backend = all[i];
            expect_refused(&x, HB_ERR_BACKEND_UNAVAILABLE, "not compiled",
                           hb_backend_name(all[i]));
        }
}

/* The description a context on these options gets, or "" when refused. */
static hb_status describe_with(const hb_context_options *o, char *out, size_t size)
{
    hb_context *c = NULL;
    hb_status st = hb_context_create_with(o, &c);
    snprintf(out, size, "%s", st == HB_SUCCESS ? hb_context_describe(c) : "");
    HB_CHECK((st == HB_SUCCESS) == (c != NULL), "status %s with context %p",
             hb_status_string(st), (void *)c);
    hb_context_destroy(c);
    return st;
}

/* Every device of the list by index: the context names the device the list
 * names; one index past the list is unavailable, naming the field. */
static void device_list(hb_backend b, const char *ref_describe)
{
    int32_t n = 0;
    HB_CHECK_STATUS(hb_backend_device_count(b, -1, &n), HB_SUCCESS);
    HB_CHECK(n >= 1, "%s lists %d devices", hb_backend_name(b), (int)n);
    int ref_found = 0;
    for (int32_t i = 0; i < n && i < 8; ++i) {
        char name[256] = "", desc[400], want[400];
        HB_CHECK_STATUS(hb_backend_device_name(b, -1, i, name, sizeof name), HB_SUCCESS);
        printf("  device %d: %s\n", (int)i, name);
        snprintf(want, sizeof want, "%s on %s", hb_backend_name(b), name);
        ref_found |= !strcmp(want, ref_describe);
        if (!is_gpu_backend(b))
            continue;
        hb_context_options o;
        hb_context_options_init(&o);
        o.backend = b;
        o.device = i;
        hb_status st = describe_with(&o, desc, sizeof desc);
        /* An OpenCL device may be listed but not available: refused then. */
        HB_CHECK(st == HB_SUCCESS || (b == HB_BACKEND_OPENCL && st == HB_ERR_BACKEND_UNAVAILABLE),
                 "device %d: %s (%s)", (int)i, hb_status_string(st), hb_last_error());
        if (st == HB_SUCCESS)
            HB_CHECK(!strcmp(desc, want), "device %d opens '%s', the list says '%s'", (int)i, desc,
                     want);
    }
    HB_CHECK(ref_found || n > 8, "the default context '%s' is not in the device list",
             ref_describe);
    char name[64] = "untouched";
    HB_CHECK_STATUS(hb_backend_device_name(b, -1, n, name, sizeof name),
                    HB_ERR_BACKEND_UNAVAILABLE);
    HB_CHECK(!strcmp(name, "untouched"), "name written on failure");
    if (is_gpu_backend(b)) {
        hb_context_options o;
        hb_context_options_init(&o);
        o.backend = b;
        o.device = n;
        expect_refused(&o, HB_ERR_BACKEND_UNAVAILABLE, "hb_context_options.device",
                       "device past the list");
    }
}

/* The API over the environment, field by field. */
static void precedence(hb_backend b, const char *ref_describe)
{
    char desc[400];
    hb_context_options o;
    hb_context_options_init(&o);
    o.backend = b;
    /* A named backend ignores HINESBATCH_BACKEND; AUTO reads it. */
    setenv("HINESBATCH_BACKEND", "bogus", 1);
    HB_CHECK_STATUS(describe_with(&o, desc, sizeof desc), HB_SUCCESS);
    HB_CHECK(!strcmp(desc, ref_describe), "named backend under HINESBATCH_BACKEND=bogus: '%s'",
             desc);
    hb_context_options a;
    hb_context_options_init(&a);
    expect_refused(&a, HB_ERR_INVALID_ARGUMENT, "HINESBATCH_BACKEND", "AUTO under bogus");
    hb_test_env_restore();

    /* A malformed HINESBATCH_DEVICE is an error only where it is read: a GPU
     * backend without opts.device. With device 0 it is not read. */
    setenv("HINESBATCH_DEVICE", "x", 1);
    hb_status st = describe_with(&o, desc, sizeof desc);
    if (is_gpu_backend(b)) {
        HB_CHECK(st == HB_ERR_INVALID_ARGUMENT && strstr(hb_last_error(), "HINESBATCH_DEVICE"),
                 "HINESBATCH_DEVICE=x: %s (%s)", hb_status_string(st), hb_last_error());
        o.device = 0;
        HB_CHECK_STATUS(describe_with(&o, desc, sizeof desc), HB_SUCCESS);
        setenv("HINESBATCH_DEVICE", "999", 1);
        HB_CHECK_STATUS(describe_with(&o, desc, sizeof desc), HB_SUCCESS);
        /* And the other way: the variable past the list, the field in it. */
        o.device = 999;
        setenv("HINESBATCH_DEVICE", "0", 1);
        expect_refused(&o, HB_ERR_BACKEND_UNAVAILABLE, "hb_context_options.device",
                       "device 999 under HINESBATCH_DEVICE=0");
        o.device = -1;
    } else {
        HB_CHECK(st == HB_SUCCESS, "host backend under HINESBATCH_DEVICE=x: %s (%s)",
                 hb_status_string(st), hb_last_error());
    }
    hb_test_env_restore();

    /* AUTO with a device index: the GPU backends take it, the host backends
     * have no choice to make. */
    setenv("HINESBATCH_BACKEND", hb_backend_name(b), 1);
    a.device = 0;
    HB_CHECK_STATUS(describe_with(&a, desc, sizeof desc), HB_SUCCESS);
    if (is_gpu_backend(b)) {
        a.device = 999;
        expect_refused(&a, HB_ERR_BACKEND_UNAVAILABLE, "hb_context_options.device",
                       "AUTO with device 999");
    }
    hb_test_env_restore();

    if (b == HB_BACKEND_OPENCL) {
        /* Platform 0 overrides a platform variable that matches nothing. */
        setenv("HINESBATCH_OPENCL_PLATFORM", "no-such-platform-xyz", 1);
        expect_refused(&o, HB_ERR_BACKEND_UNAVAILABLE, "no-such-platform-xyz",
                       "platform variable matching nothing");
        int32_t n = 0;
        HB_CHECK_STATUS(hb_backend_device_count(b, -1, &n), HB_ERR_BACKEND_UNAVAILABLE);
        o.platform = 0;
        HB_CHECK_STATUS(describe_with(&o, desc, sizeof desc), HB_SUCCESS);
        HB_CHECK_STATUS(hb_backend_device_count(b, 0, &n), HB_SUCCESS);
        o.platform = 97;
        expect_refused(&o, HB_ERR_BACKEND_UNAVAILABLE, "hb_context_options.platform",
                       "platform 97");
        HB_CHECK_STATUS(hb_backend_device_count(b, 97, &n), HB_ERR_BACKEND_UNAVAILABLE);
        o.platform = -1;
        hb_test_env_restore();
    }
}

/* get_options: the backend and its handles; passed back it opens a context
 * on the same device, queue or stream, which solves correctly. Takes the
 * caller's reference of ctx. */
static void round_trip(hb_context *ctx, hb_context *oracle, hb_backend b)
{
    hb_context_options got;
    HB_CHECK_STATUS(hb_context_get_options(ctx, NULL), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_context_get_options(ctx, &got), HB_SUCCESS);
    HB_CHECK(got.backend == b, "get_options: backend %s", hb_backend_name(got.backend));
    HB_CHECK(got.platform == -1, "get_options: platform %d", (int)got.platform);
    if (b == HB_BACKEND_OPENCL)
        HB_CHECK(got.cl_context && got.cl_device && got.cl_queue && !got.cuda_stream &&
                     got.device == -1,
                 "get_options on OpenCL: the context's handles, no index");
    else if (b == HB_BACKEND_CUDA)
        HB_CHECK(got.cuda_stream && got.device >= 0 && !got.cl_context && !got.cl_queue,
                 "get_options on CUDA: stream and device");
    else
        HB_CHECK(got.device == -1 && !got.cl_context && !got.cl_device && !got.cl_queue &&
                     !got.cuda_stream,
                 "get_options on %s: the defaults", hb_backend_name(b));
    hb_context *twin = NULL;
    HB_CHECK_STATUS(hb_context_create_with(&got, &twin), HB_SUCCESS);
    if (twin) {
        hb_context_options again;
        HB_CHECK_STATUS(hb_context_get_options(twin, &again), HB_SUCCESS);
        HB_CHECK(again.cl_context == got.cl_context && again.cl_queue == got.cl_queue &&
                     again.cuda_stream == got.cuda_stream && again.device == got.device,
                 "the context made from get_options shares the first one's handles");
    }
    /* OpenCL objects are retained by the twin, so it outlives the context
     * that made them. A CUDA stream cannot be retained: its owner (here the
     * first context) must outlive every context that adopted it. */
    if (b != HB_BACKEND_CUDA) {
        hb_context_destroy(ctx);
        ctx = NULL;
    }
    const hb_oracle_shape sh = {"context from get_options", 30, 1, 60, HB_TREE_KINDS};
    for (int k = 0; k < 2 && twin; ++k) {
        hb_oracle_batch bt;
        hb_oracle_make(&bt, k ? &hb_oracle_hines : &hb_oracle_tridiag, HB_DOUBLE, &sh, 1.0);
        hb_oracle_reference(&bt, oracle, NULL, sh.name);
        hb_oracle_oneshot(twin, &bt, NULL, sh.name);
        hb_oracle_plan(twin, &bt, NULL, 0, NULL, sh.name);
        hb_oracle_free(&bt);
    }
    hb_context_destroy(twin);
    hb_context_destroy(ctx);
}

int main(void)
{
    hb_test_begin("test_context_options");
    hb_test_env_save();
    bad_options(); /* needs no device: before the cuda skip */
    hb_context *ctx = hb_test_context();
    hb_context *oracle = hb_test_oracle();
    hb_backend b = hb_context_backend(ctx);
    char ref[400];
    snprintf(ref, sizeof ref, "%s", hb_context_describe(ctx));

    /* The options path opens what hb_context_create opens; NULL options are
     * the defaults. */
    hb_context_options o;
    hb_context_options_init(&o);
    o.backend = b;
    char desc[400];
    HB_CHECK_STATUS(describe_with(&o, desc, sizeof desc), HB_SUCCESS);
    HB_CHECK(!strcmp(desc, ref), "create_with: '%s', create: '%s'", desc, ref);
    HB_CHECK_STATUS(describe_with(NULL, desc, sizeof desc), HB_SUCCESS);
    HB_CHECK(!strcmp(desc, ref), "create_with(NULL) under HINESBATCH_BACKEND: '%s'", desc);

    device_list(b, ref);
    precedence(b, ref);
    round_trip(ctx, oracle, b); /* destroys ctx */
    hb_test_env_restore();
    hb_context_destroy(oracle);
    hb_test_env_free();
    return hb_test_finish();
}
