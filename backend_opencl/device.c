/* device.c: OpenCL platform and device choice (options over HINESBATCH_OPENCL_PLATFORM and HINESBATCH_DEVICE; auto prefers a GPU), adoption of a caller's context, device or queue, and the device list. */
#include "cl_backend.h"
#include "hb_env.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HB_CL_MAX_PLATFORMS 32
#define HB_CL_MAX_DEVICES 64

/* 1 and *out = the value when s is a non-negative decimal integer. */
static int parse_index(const char *s, long *out)
{
    if (!s[0])
        return 0;
    long v = 0;
    for (const char *c = s; *c; ++c) {
        if (!isdigit((unsigned char)*c) || v > 100000)
            return 0;
        v = v * 10 + (*c - '0');
    }
    *out = v;
    return 1;
}

/* Case-insensitive substring test. */
static int contains_nocase(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; ++hay) {
        size_t i = 0;
        while (i < n && hay[i] && tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i]))
            ++i;
        if (i == n)
            return 1;
    }
    return n == 0;
}

static void platform_name(cl_platform_id p, char *buf, size_t n)
{
    if (clGetPlatformInfo(p, CL_PLATFORM_NAME, n, buf, NULL) != CL_SUCCESS)
        snprintf(buf, n, "(unnamed platform)");
    buf[n - 1] = '\0';
}

/* "0: NVIDIA CUDA, 1: Portable Computing Language" for error messages. */
static void list_platforms(const cl_platform_id *ids, cl_uint n, char *out, size_t size)
{
    out[0] = '\0';
    for (cl_uint i = 0; i < n; ++i) {
        char name[128];
        platform_name(ids[i], name, sizeof name);
        size_t len = strlen(out);
        snprintf(out + len, size - len, "%s%u: %s", i ? ", " : "", i, name);
    }
}

/* The platforms a context searches: the one with index `want` when it is
 * given (>= 0); else those HINESBATCH_OPENCL_PLATFORM allows: all when unset,
 * else the one with that index or the first whose name contains the value. */
static hb_status choose_platforms(int32_t want, cl_platform_id *ids, cl_uint *n)
{
    cl_uint count = 0;
    cl_int err = clGetPlatformIDs(HB_CL_MAX_PLATFORMS, ids, &count);
    if (err == -1001 /* CL_PLATFORM_NOT_FOUND_KHR */ || (err == CL_SUCCESS && count == 0))
        return hb__error(HB_ERR_BACKEND_UNAVAILABLE,
                         "OpenCL: no platform found (no ICD installed, or none loads)");
    HB_CL_CHECK(err, "clGetPlatformIDs", "listing platforms");
    if (count > HB_CL_MAX_PLATFORMS)
        count = HB_CL_MAX_PLATFORMS;
    const char *env = want >= 0 ? NULL : hb__env_opencl_platform();
    if (want < 0 && !env) {
        *n = count;
        return HB_SUCCESS;
    }
    char list[512];
    list_platforms(ids, count, list, sizeof list);
    if (want >= 0) {
        if (want >= (int32_t)count)
            return hb__error(HB_ERR_BACKEND_UNAVAILABLE,
                             "hb_context_options.platform = %d: no platform with that index "
                             "(platforms: %s)",
                             (int)want, list);
        ids[0] = ids[want];
        *n = 1;
        return HB_SUCCESS;
    }
    long idx;
    if (parse_index(env, &idx)) {
        if (idx >= (long)count)
            return hb__error(HB_ERR_BACKEND_UNAVAILABLE,
                             "HINESBATCH_OPENCL_PLATFORM='%s': no platform with that index "
                             "(platforms: %s)",
                             env, list);
        ids[0] = ids[idx];
        *n = 1;
        return HB_SUCCESS;
    }
    for (cl_uint i = 0; i < count; ++i) {
        char name[128];
        platform_name(ids[i], name, sizeof name);
        if (contains_nocase(name, env)) {
            ids[0] = ids[i];
            *n = 1;
            return HB_SUCCESS;
        }
    }
    return hb__error(HB_ERR_BACKEND_UNAVAILABLE,
                     "HINESBATCH_OPENCL_PLATFORM='%s' matches no platform index or name "
                     "(platforms: %s)",
                     env, list);
}

/* Every device of the allowed platforms, in platform order. */
static hb_status list_devices(const cl_platform_id *plats, cl_uint nplat, cl_device_id *devs,
                              cl_platform_id *owner, cl_uint *ndev)
{
    cl_uint total = 0;
    for (cl_uint p = 0; p < nplat && total < HB_CL_MAX_DEVICES; ++p) {
        cl_uint n = 0;
        cl_int err = clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, HB_CL_MAX_DEVICES - total,
                                    devs + total, &n);
        if (err == CL_DEVICE_NOT_FOUND)
            continue;
        HB_CL_CHECK(err, "clGetDeviceIDs", "listing devices");
        if (n > HB_CL_MAX_DEVICES - total)
            n = HB_CL_MAX_DEVICES - total;
        for (cl_uint i = 0; i < n; ++i)
            owner[total + i] = plats[p];
        total += n;
    }
    *ndev = total;
    return HB_SUCCESS;
}

static cl_device_type device_type(cl_device_id d)
{
    cl_device_type t = 0;
    if (clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof t, &t, NULL) != CL_SUCCESS)
        return 0;
    return t;
}

static int device_available(cl_device_id d)
{
    cl_bool a = CL_FALSE;
    return clGetDeviceInfo(d, CL_DEVICE_AVAILABLE, sizeof a, &a, NULL) == CL_SUCCESS && a;
}

/* The device index `want` (>= 0), else HINESBATCH_DEVICE, indexes the devices
 * of the searched platforms; neither given, the first available GPU wins,
 * else the first available device. one_platform: the platforms were narrowed
 * to one (for messages). */
static hb_status choose_device(int32_t want_opt, const cl_device_id *devs,
                               const cl_platform_id *owner, cl_uint ndev, int one_platform,
                               hb_cl *cl)
{
    const char *env = NULL;
    int want = want_opt;
    char what[64];
    if (want_opt >= 0) {
        snprintf(what, sizeof what, "hb_context_options.device = %d", (int)want_opt);
    } else {
        HB_FORWARD(hb__env_device(&want, &env));
        snprintf(what, sizeof what, "HINESBATCH_DEVICE='%.32s'", env);
    }
    if (ndev == 0)
        return hb__error(HB_ERR_BACKEND_UNAVAILABLE, "OpenCL: no device on %s",
                         one_platform ? "the chosen platform" : "any platform");
    long idx = want;
    if (want >= 0) {
        if (idx >= (long)ndev)
            return hb__error(HB_ERR_BACKEND_UNAVAILABLE, "%s: only %u OpenCL device(s)%s", what,
                             ndev, one_platform ? " on the chosen platform" : "");
        if (!device_available(devs[idx]))
            return hb__error(HB_ERR_BACKEND_UNAVAILABLE, "%s: the device is not available", what);
    } else {
        for (cl_uint i = 0; i < ndev && idx < 0; ++i)
            if ((device_type(devs[i]) & CL_DEVICE_TYPE_GPU) && device_available(devs[i]))
                idx = (long)i;
        for (cl_uint i = 0; i < ndev && idx < 0; ++i)
            if (device_available(devs[i]))
                idx = (long)i;
        if (idx < 0)
            return hb__error(HB_ERR_BACKEND_UNAVAILABLE, "OpenCL: no available device");
    }
    cl->device = devs[idx];
    cl->platform = owner[idx];
    return HB_SUCCESS;
}

/* "<device name> (<platform name>)": contexts and the device list name
 * devices alike. */
static hb_status device_label(cl_device_id d, cl_platform_id p, char *name, size_t name_size)
{
    char dev[160], plat[128];
    HB_CL_CHECK(clGetDeviceInfo(d, CL_DEVICE_NAME, sizeof dev, dev, NULL), "clGetDeviceInfo",
                "CL_DEVICE_NAME");
    dev[sizeof dev - 1] = '\0';
    platform_name(p, plat, sizeof plat);
    snprintf(name, name_size, "%s (%s)", dev, plat);
    return HB_SUCCESS;
}

static hb_status query_device(hb_cl *cl, char *name, size_t name_size)
{
    HB_FORWARD(device_label(cl->device, cl->platform, name, name_size));
    cl->is_gpu = (device_type(cl->device) & CL_DEVICE_TYPE_GPU) != 0;

    size_t ext_size = 0;
    HB_CL_CHECK(clGetDeviceInfo(cl->device, CL_DEVICE_EXTENSIONS, 0, NULL, &ext_size),
                "clGetDeviceInfo", "CL_DEVICE_EXTENSIONS size");
    char *ext = malloc(ext_size + 1);
    if (!ext)
        return hb__error(HB_ERR_OUT_OF_MEMORY, "OpenCL: %zu bytes for the extension list",
                         ext_size + 1);
    cl_int err = clGetDeviceInfo(cl->device, CL_DEVICE_EXTENSIONS, ext_size, ext, NULL);
    ext[ext_size] = '\0';
    cl->has_fp64 = err == CL_SUCCESS && strstr(ext, "cl_khr_fp64") != NULL;
    const int nv = err == CL_SUCCESS && strstr(ext, "cl_nv_device_attribute_query") != NULL;
    free(ext);
    HB_CL_CHECK(err, "clGetDeviceInfo", "CL_DEVICE_EXTENSIONS");
    /* NVIDIA's compute capability and warp (cl_nv_device_attribute_query:
     * CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV 0x4000, _MINOR_NV 0x4001,
     * CL_DEVICE_WARP_SIZE_NV 0x4003), for the estimate of resident groups
     * (occupancy.c); left 0 where a query fails. */
    cl->nv_cc = 0;
    cl->nv_warp = 0;
    if (nv) {
        cl_uint major = 0, minor = 0, warp = 0;
        if (clGetDeviceInfo(cl->device, 0x4000, sizeof major, &major, NULL) == CL_SUCCESS &&
            clGetDeviceInfo(cl->device, 0x4001, sizeof minor, &minor, NULL) == CL_SUCCESS &&
            clGetDeviceInfo(cl->device, 0x4003, sizeof warp, &warp, NULL) == CL_SUCCESS &&
            major > 0 && major < 100 && minor < 10 && warp > 0) {
            cl->nv_cc = (int)(major * 10 + minor);
            cl->nv_warp = warp;
        }
    }
    int off;
    HB_FORWARD(hb__env_opencl_disable_fp64(&off));
    if (off)
        cl->has_fp64 = 0;

    cl_device_fp_config fp32 = 0;
    HB_CL_CHECK(clGetDeviceInfo(cl->device, CL_DEVICE_SINGLE_FP_CONFIG, sizeof fp32, &fp32, NULL),
                "clGetDeviceInfo", "CL_DEVICE_SINGLE_FP_CONFIG");
    cl->fp32_div_ok = (fp32 & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT) != 0;
    HB_CL_CHECK(clGetDeviceInfo(cl->device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof cl->max_alloc,
                                &cl->max_alloc, NULL),
                "clGetDeviceInfo", "CL_DEVICE_MAX_MEM_ALLOC_SIZE");
    HB_CL_CHECK(clGetDeviceInfo(cl->device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof cl->local_mem,
                                &cl->local_mem, NULL),
                "clGetDeviceInfo", "CL_DEVICE_LOCAL_MEM_SIZE");
    HB_CL_CHECK(clGetDeviceInfo(cl->device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof cl->max_wg,
                                &cl->max_wg, NULL),
                "clGetDeviceInfo", "CL_DEVICE_MAX_WORK_GROUP_SIZE");
    HB_CL_CHECK(clGetDeviceInfo(cl->device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cl->compute_units,
                                &cl->compute_units, NULL),
                "clGetDeviceInfo", "CL_DEVICE_MAX_COMPUTE_UNITS");
    return HB_SUCCESS;
}

/* Platform and device discovery, context creation and release, one thread
 * at a time in the whole process. Seen without it on PoCL 3.1: four threads
 * making their first contexts at once crashed inside PoCL's device threads,
 * or were told there was no device (tests/test_threads.c). */
static hb__mutex discovery = HB_MUTEX_INIT;

/* Adopts the caller's handles (hb_context_options): the queue brings its
 * context and device, the context its device (its only one, or cl_device),
 * a device alone gets a context of ours. Each handle is checked to be what it
 * claims and to belong with the others before anything is retained. */
static hb_status adopt(hb_cl *cl, const hb_context_options *o, char *name, size_t name_size)
{
    cl_context ctx = (cl_context)o->cl_context;
    cl_device_id dev = (cl_device_id)o->cl_device;
    cl_command_queue q = (cl_command_queue)o->cl_queue;
    cl_int err;
    if (q) {
        cl_context qc = NULL;
        cl_device_id qd = NULL;
        cl_command_queue_properties props = 0;
        err = clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof qc, &qc, NULL);
        if (err == CL_SUCCESS)
            err = clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof qd, &qd, NULL);
        if (err == CL_SUCCESS)
            err = clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL);
        if (err != CL_SUCCESS)
            return hb__error(HB_ERR_INVALID_ARGUMENT,
                             "hb_context_options.cl_queue is not a cl_command_queue (%s)",
                             hb__cl_error_name(err));
        if (ctx && qc != ctx)
            return hb__error(HB_ERR_INVALID_ARGUMENT,
                             "hb_context_options.cl_queue belongs to another cl_context than "
                             "hb_context_options.cl_context");
        if (dev && qd != dev)
            return hb__error(HB_ERR_INVALID_ARGUMENT,
                             "hb_context_options.cl_queue is a queue of another device than "
                             "hb_context_options.cl_device");
        /* A plan's steps (upload, convert, solve, read back) follow each
         * other on the queue without events: they need its order. */
        if (props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)
            return hb__error(HB_ERR_INVALID_ARGUMENT,
                             "hb_context_options.cl_queue is an out-of-order queue; hinesbatch "
                             "needs an in-order one");
        ctx = qc;
        dev = qd;
    }
    if (ctx) {
        cl_uint n = 0;
        cl_device_id devs[HB_CL_MAX_DEVICES];
        err = clGetContextInfo(ctx, CL_CONTEXT_NUM_DEVICES, sizeof n, &n, NULL);
        if (err == CL_SUCCESS && n > 0 && n <= HB_CL_MAX_DEVICES)
            err = clGetContextInfo(ctx, CL_CONTEXT_DEVICES, n * sizeof *devs, devs, NULL);
        if (err != CL_SUCCESS)
            return hb__error(HB_ERR_INVALID_ARGUMENT,
                             "hb_context_options.cl_context is not a cl_context (%s)",
                             hb__cl_error_name(err));
        if (n == 0 || n > HB_CL_MAX_DEVICES)
            return hb__error(HB_ERR_INVALID_ARGUMENT,
                             "hb_context_options.cl_context has %u devices (1 to %d expected)", n,
                             HB_CL_MAX_DEVICES);
        if (dev) {
            cl_uint i = 0;
            while (i < n && devs[i] != dev)
                ++i;
            if (i == n)
                return hb__error(HB_ERR_INVALID_ARGUMENT,
                                 "hb_context_options.cl_device is not a device of "
                                 "hb_context_options.cl_context");
        } else if (n == 1) {
            dev = devs[0];
        } else {
            return hb__error(HB_ERR_INVALID_ARGUMENT,
                             "hb_context_options.cl_context has %u devices: name the one to use "
                             "in hb_context_options.cl_device (or give cl_queue)",
                             n);
        }
    }
    cl_platform_id plat = NULL;
    err = clGetDeviceInfo(dev, CL_DEVICE_PLATFORM, sizeof plat, &plat, NULL);
    if (err != CL_SUCCESS)
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "hb_context_options.cl_device is not a cl_device_id (%s)",
                         hb__cl_error_name(err));
    cl->device = dev;
    cl->platform = plat;
    HB_FORWARD(query_device(cl, name, name_size));
    /* From here on cl holds references: hb__cl_close_device releases them,
     * ours and the caller's alike. */
    if (ctx) {
        HB_CL_CHECK(clRetainContext(ctx), "clRetainContext", "hb_context_options.cl_context");
        cl->context = ctx;
    } else {
        cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)plat, 0};
        cl->context = clCreateContext(props, 1, &cl->device, NULL, NULL, &err);
        HB_CL_CHECK(err, "clCreateContext", name);
    }
    if (q) {
        HB_CL_CHECK(clRetainCommandQueue(q), "clRetainCommandQueue", "hb_context_options.cl_queue");
        cl->queue = q;
    } else {
        cl->queue = clCreateCommandQueue(cl->context, cl->device, 0, &err);
        HB_CL_CHECK(err, "clCreateCommandQueue", name);
    }
    /* Said in hb_context_describe, so logs show whose queue the work is on. */
    size_t len = strlen(name);
    if (q || ctx)
        snprintf(name + len, name_size - len, ", the caller's %s",
                 q ? "cl_command_queue" : "cl_context");
    return HB_SUCCESS;
}

static hb_status open_device(hb_cl *cl, const hb_context_options *o, char *name,
                             size_t name_size)
{
    if (o->cl_context || o->cl_device || o->cl_queue)
        return adopt(cl, o, name, name_size);
    cl_platform_id plats[HB_CL_MAX_PLATFORMS], owner[HB_CL_MAX_DEVICES];
    cl_device_id devs[HB_CL_MAX_DEVICES];
    cl_uint nplat = 0, ndev = 0;
    HB_FORWARD(choose_platforms(o->platform, plats, &nplat));
    HB_FORWARD(list_devices(plats, nplat, devs, owner, &ndev));
    HB_FORWARD(choose_device(o->device, devs, owner, ndev,
                             o->platform >= 0 || hb__env_opencl_platform(), cl));
    HB_FORWARD(query_device(cl, name, name_size));

    cl_int err = CL_SUCCESS;
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)cl->platform, 0};
    cl->context = clCreateContext(props, 1, &cl->device, NULL, NULL, &err);
    HB_CL_CHECK(err, "clCreateContext", name);
    cl->queue = clCreateCommandQueue(cl->context, cl->device, 0, &err);
    HB_CL_CHECK(err, "clCreateCommandQueue", name);
    return HB_SUCCESS;
}

hb_status hb__cl_open_device(hb_cl *cl, const hb_context_options *opts, char *name,
                             size_t name_size)
{
    hb__mutex_lock(&discovery);
    hb_status st = open_device(cl, opts, name, name_size);
    hb__mutex_unlock(&discovery);
    return st;
}

/* The list open_device chooses from without handles: the same platforms and
 * the same order, so index i here is the device `device = i` opens. */
static hb_status devices(int32_t platform, int32_t index, int32_t *count, char *name,
                         size_t size)
{
    cl_platform_id plats[HB_CL_MAX_PLATFORMS], owner[HB_CL_MAX_DEVICES];
    cl_device_id devs[HB_CL_MAX_DEVICES];
    cl_uint nplat = 0, ndev = 0;
    HB_FORWARD(choose_platforms(platform, plats, &nplat));
    HB_FORWARD(list_devices(plats, nplat, devs, owner, &ndev));
    *count = (int32_t)ndev;
    if (!name)
        return HB_SUCCESS;
    if (index >= (int32_t)ndev)
        return hb__error(HB_ERR_BACKEND_UNAVAILABLE,
                         "hb_backend_device_name: device = %d: only %u OpenCL device(s)%s",
                         (int)index, ndev,
                         platform >= 0 || hb__env_opencl_platform() ? " on the chosen platform"
                                                                    : "");
    return device_label(devs[index], owner[index], name, size);
}

hb_status hb__cl_devices(int32_t platform, int32_t index, int32_t *count, char *name,
                         size_t size)
{
    hb__mutex_lock(&discovery);
    hb_status st = devices(platform, index, count, name, size);
    hb__mutex_unlock(&discovery);
    return st;
}

void hb__cl_close_device(hb_cl *cl)
{
    hb__mutex_lock(&discovery);
    if (cl->queue)
        clReleaseCommandQueue(cl->queue);
    if (cl->context)
        clReleaseContext(cl->context);
    cl->queue = NULL;
    cl->context = NULL;
    hb__mutex_unlock(&discovery);
}
