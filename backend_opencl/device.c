/* device.c: OpenCL platform and device choice (HINESBATCH_OPENCL_PLATFORM, HINESBATCH_DEVICE; auto prefers a GPU). */
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

/* The platforms HINESBATCH_OPENCL_PLATFORM allows: all when unset, else the
 * one with that index or the first whose name contains the value. */
static hb_status choose_platforms(cl_platform_id *ids, cl_uint *n)
{
    cl_uint count = 0;
    cl_int err = clGetPlatformIDs(HB_CL_MAX_PLATFORMS, ids, &count);
    if (err == -1001 /* CL_PLATFORM_NOT_FOUND_KHR */ || (err == CL_SUCCESS && count == 0))
        return hb__error(HB_ERR_BACKEND_UNAVAILABLE,
                         "OpenCL: no platform found (no ICD installed, or none loads)");
    HB_CL_CHECK(err, "clGetPlatformIDs", "listing platforms");
    if (count > HB_CL_MAX_PLATFORMS)
        count = HB_CL_MAX_PLATFORMS;
    const char *env = hb__env_opencl_platform();
    if (!env) {
        *n = count;
        return HB_SUCCESS;
    }
    char list[512];
    list_platforms(ids, count, list, sizeof list);
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

/* HINESBATCH_DEVICE indexes the devices of the allowed platforms; unset, the
 * first available GPU wins, else the first available device. */
static hb_status choose_device(const cl_device_id *devs, const cl_platform_id *owner,
                               cl_uint ndev, hb_cl *cl)
{
    const char *penv = hb__env_opencl_platform(), *env = NULL;
    int want = -1;
    HB_FORWARD(hb__env_device(&want, &env));
    if (ndev == 0)
        return hb__error(HB_ERR_BACKEND_UNAVAILABLE, "OpenCL: no device on %s",
                         penv ? "the platform HINESBATCH_OPENCL_PLATFORM names" : "any platform");
    long idx = want;
    if (want >= 0) {
        if (idx >= (long)ndev)
            return hb__error(HB_ERR_BACKEND_UNAVAILABLE,
                             "HINESBATCH_DEVICE='%s': only %u OpenCL device(s)%s", env, ndev,
                             penv ? " on the chosen platform" : "");
        if (!device_available(devs[idx]))
            return hb__error(HB_ERR_BACKEND_UNAVAILABLE,
                             "HINESBATCH_DEVICE='%s': the device is not available", env);
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

static hb_status query_device(hb_cl *cl, char *name, size_t name_size)
{
    char dev[160], plat[128];
    HB_CL_CHECK(clGetDeviceInfo(cl->device, CL_DEVICE_NAME, sizeof dev, dev, NULL),
                "clGetDeviceInfo", "CL_DEVICE_NAME");
    dev[sizeof dev - 1] = '\0';
    platform_name(cl->platform, plat, sizeof plat);
    snprintf(name, name_size, "%s (%s)", dev, plat);
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
    free(ext);
    HB_CL_CHECK(err, "clGetDeviceInfo", "CL_DEVICE_EXTENSIONS");
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
    return HB_SUCCESS;
}

/* Platform and device discovery, context creation and release, one thread
 * at a time in the whole process. Seen without it on PoCL 3.1: four threads
 * making their first contexts at once crashed inside PoCL's device threads,
 * or were told there was no device (tests/test_threads.c). */
static hb__mutex discovery = HB_MUTEX_INIT;

static hb_status open_device(hb_cl *cl, char *name, size_t name_size)
{
    cl_platform_id plats[HB_CL_MAX_PLATFORMS], owner[HB_CL_MAX_DEVICES];
    cl_device_id devs[HB_CL_MAX_DEVICES];
    cl_uint nplat = 0, ndev = 0;
    HB_FORWARD(choose_platforms(plats, &nplat));
    HB_FORWARD(list_devices(plats, nplat, devs, owner, &ndev));
    HB_FORWARD(choose_device(devs, owner, ndev, cl));
    HB_FORWARD(query_device(cl, name, name_size));

    cl_int err = CL_SUCCESS;
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)cl->platform, 0};
    cl->context = clCreateContext(props, 1, &cl->device, NULL, NULL, &err);
    HB_CL_CHECK(err, "clCreateContext", name);
    cl->queue = clCreateCommandQueue(cl->context, cl->device, 0, &err);
    HB_CL_CHECK(err, "clCreateCommandQueue", name);
    return HB_SUCCESS;
}

hb_status hb__cl_open_device(hb_cl *cl, char *name, size_t name_size)
{
    hb__mutex_lock(&discovery);
    hb_status st = open_device(cl, name, name_size);
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
