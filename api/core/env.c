/* env.c: every HINESBATCH_* environment variable is read and checked here, nowhere else. */
#include "hb_env.h"
#include "hb_error.h"

#include <string.h>

hb_status hb__env_backend(hb_backend *out)
{
    const char *env = hb__env_value("HINESBATCH_BACKEND");
    *out = HB_BACKEND_AUTO;
    if (!env)
        return HB_SUCCESS;
    if (hb_backend_from_name(env, out) != HB_SUCCESS)
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "HINESBATCH_BACKEND='%s' is not one of auto, serial, openmp, opencl, cuda",
                         env);
    return HB_SUCCESS;
}

hb_status hb__env_device(int *out, const char **text)
{
    const char *env = hb__env_value("HINESBATCH_DEVICE");
    *out = -1;
    *text = env ? env : "";
    if (!env)
        return HB_SUCCESS;
    /* Digits only: no sign, no blanks, no trailing text. */
    long v = 0;
    for (const char *c = env; *c; ++c) {
        if (*c < '0' || *c > '9' || v > (1L << 20))
            return hb__error(HB_ERR_INVALID_ARGUMENT,
                             "HINESBATCH_DEVICE='%s' is not a device index (0, 1, ...)", env);
        v = v * 10 + (*c - '0');
    }
    if (v > (1L << 20))
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "HINESBATCH_DEVICE='%s' is not a device index (0, 1, ...)", env);
    *out = (int)v;
    return HB_SUCCESS;
}

const char *hb__env_opencl_platform(void) { return hb__env_value("HINESBATCH_OPENCL_PLATFORM"); }

hb_status hb__env_opencl_disable_fp64(int *off)
{
    const char *env = hb__env_value("HINESBATCH_OPENCL_DISABLE_FP64");
    *off = 0;
    if (!env || !strcmp(env, "0"))
        return HB_SUCCESS;
    if (!strcmp(env, "1")) {
        *off = 1;
        return HB_SUCCESS;
    }
    return hb__error(HB_ERR_INVALID_ARGUMENT, "HINESBATCH_OPENCL_DISABLE_FP64='%s' is not 0 or 1",
                     env);
}

/* 0 or 1 from variable name into *value; unset or empty leaves it. */
static hb_status env_bit(const char *name, int32_t *value)
{
    const char *env = hb__env_value(name);
    if (!env)
        return HB_SUCCESS;
    if (!strcmp(env, "0") || !strcmp(env, "1")) {
        *value = env[0] - '0';
        return HB_SUCCESS;
    }
    return hb__error(HB_ERR_INVALID_ARGUMENT, "%s='%s' is not 0 or 1", name, env);
}

hb_status hb__env_auto_estimate(int32_t *value)
{
    return env_bit("HINESBATCH_AUTO_ESTIMATE", value);
}

hb_status hb__env_coop_warp(int32_t *value)
{
    *value = -1;
    return env_bit("HINESBATCH_COOP_WARP", value);
}

hb_status hb__env_strategy(hb_strategy *out)
{
    const char *env = hb__env_value("HINESBATCH_STRATEGY");
    *out = HB_STRATEGY_AUTO;
    if (env && hb_strategy_from_name(env, out) != HB_SUCCESS)
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "HINESBATCH_STRATEGY='%s' is not one of auto, per-system, branch-level, "
                         "fine-tree, cooperative, cell-group",
                         env);
    return HB_SUCCESS;
}

/* A decimal whole number lo .. hi in variable name (set: *set = 1), else
 * HB_ERR_INVALID_ARGUMENT naming the value with what (the range in words). */
static hb_status env_whole(const char *name, long long lo, long long hi, const char *what,
                           long long *out, int *set)
{
    const char *env = hb__env_value(name);
    *set = 0;
    if (!env)
        return HB_SUCCESS;
    long long v = 0;
    for (const char *c = env; *c; ++c) {
        if (*c < '0' || *c > '9' || v > hi) {
            v = -1;
            break;
        }
        v = v * 10 + (*c - '0');
    }
    if (v < lo || v > hi)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s='%s' is not %s", name, env, what);
    *out = v;
    *set = 1;
    return HB_SUCCESS;
}

/* Bytes of local memory, 1024 .. 2^30, from name (0 when unset). */
static hb_status env_bytes(const char *name, size_t *out)
{
    long long v = 0;
    int set = 0;
    *out = 0;
    HB_FORWARD(env_whole(name, 1024, 1LL << 30, "a whole number of bytes from 1024 to 2^30", &v,
                         &set));
    if (set)
        *out = (size_t)v;
    return HB_SUCCESS;
}

hb_status hb__env_local_mem_limit(size_t *out)
{
    return env_bytes("HINESBATCH_LOCAL_MEM_LIMIT", out);
}

hb_status hb__env_coop_resident_limit(size_t *out)
{
    return env_bytes("HINESBATCH_COOP_RESIDENT_LIMIT", out);
}

hb_status hb__env_epoch_stage(int *out)
{
    static const char *const names[] = {"vx", "none", "u", "all"};
    const char *env = hb__env_value("HINESBATCH_EPOCH_STAGE");
    *out = 2;
    if (!env)
        return HB_SUCCESS;
    for (int k = 0; k < 4; ++k)
        if (!strcmp(env, names[k])) {
            *out = k - 1;
            return HB_SUCCESS;
        }
    return hb__error(HB_ERR_INVALID_ARGUMENT,
                     "HINESBATCH_EPOCH_STAGE='%s' is not one of all, u, none, vx", env);
}

hb_status hb__env_coop_span(int32_t *out)
{
    long long v = 0;
    int set = 0;
    *out = 0;
    HB_FORWARD(env_whole("HINESBATCH_COOP_SPAN", 1, HB_ENV_COOP_SPAN_MAX,
                         "a whole number from 1 to 1024", &v, &set));
    if (set)
        *out = (int32_t)v;
    return HB_SUCCESS;
}
