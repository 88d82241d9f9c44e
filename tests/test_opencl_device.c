/* test_opencl_device.c: OpenCL platform and device choice through HINESBATCH_OPENCL_PLATFORM and HINESBATCH_DEVICE, and the errors for bad values. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "hb_test_util.h"

/* Registered for the opencl backend only (tests/CMakeLists.txt); it opens the
 * OpenCL backend itself, since its subject is OpenCL's variables, and fails
 * when it does not open. */

static void set_env(const char *name, const char *value)
{
    if (value)
        setenv(name, value, 1);
    else
        unsetenv(name);
}

/* Creates an OpenCL context under the given env values; returns its status
 * and copies its description (or the error message) into out. */
static hb_status open_with(const char *platform, const char *device, char *out, size_t size)
{
    set_env("HINESBATCH_OPENCL_PLATFORM", platform);
    set_env("HINESBATCH_DEVICE", device);
    hb_context *ctx = NULL;
    hb_status st = hb_context_create(HB_BACKEND_OPENCL, &ctx);
    snprintf(out, size, "%s", st == HB_SUCCESS ? hb_context_describe(ctx) : hb_last_error());
    hb_context_destroy(ctx);
    return st;
}

/* The platform name: what the last "(...)" of "opencl on <device> (<platform>)" holds. */
static int platform_of(const char *desc, char *out, size_t size)
{
    const char *open = strrchr(desc, '(');
    const char *close = strrchr(desc, ')');
    if (!open || !close || close <= open + 1)
        return 0;
    size_t n = (size_t)(close - open - 1) < size - 1 ? (size_t)(close - open - 1) : size - 1;
    memcpy(out, open + 1, n);
    out[n] = '\0';
    return 1;
}

static void expect_error(const char *platform, const char *device, hb_status want,
                         const char *must_name)
{
    char msg[1024];
    hb_status st = open_with(platform, device, msg, sizeof msg);
    HB_CHECK(st == want, "PLATFORM=%s DEVICE=%s: %s, expected %s (%s)",
             platform ? platform : "(unset)", device ? device : "(unset)", hb_status_string(st),
             hb_status_string(want), msg);
    HB_CHECK(st == HB_SUCCESS || strstr(msg, must_name) != NULL,
             "PLATFORM=%s DEVICE=%s: message does not name '%s': %s",
             platform ? platform : "(unset)", device ? device : "(unset)", must_name, msg);
}

int main(void)
{
    hb_test_begin("test_opencl_device");
    /* The suite's own choice (CI may set the platform) is the reference. */
    const char *env_p = getenv("HINESBATCH_OPENCL_PLATFORM");
    const char *env_d = getenv("HINESBATCH_DEVICE");
    char *orig_p = env_p ? strdup(env_p) : NULL, *orig_d = env_d ? strdup(env_d) : NULL;

    char ref[1024], got[1024], plat[256];
    hb_status st = open_with(orig_p, orig_d, ref, sizeof ref);
    HB_CHECK(st == HB_SUCCESS, "OpenCL context: %s (%s)", hb_status_string(st), ref);
    if (st != HB_SUCCESS)
        return hb_test_finish();
    printf("reference: %s\n", ref);
    HB_CHECK(platform_of(ref, plat, sizeof plat), "no platform in '%s'", ref);

    /* Name substring, any case: the same platform, so the same device. */
    size_t len = strlen(plat), take = len < 6 ? len : 6, from = len > take ? (len - take) / 2 : 0;
    char sub[16];
    for (size_t i = 0; i < take; ++i) {
        unsigned char ch = (unsigned char)plat[from + i];
        sub[i] = (char)(isupper(ch) ? tolower(ch) : toupper(ch));
    }
    sub[take] = '\0';
    st = open_with(sub, orig_d, got, sizeof got);
    HB_CHECK(st == HB_SUCCESS && !strcmp(got, ref), "PLATFORM='%s': %s: '%s', expected '%s'", sub,
             hb_status_string(st), got, ref);

    /* Device index 0 of that platform and platform index 0 both open. */
    st = open_with(sub, "0", got, sizeof got);
    HB_CHECK(st == HB_SUCCESS && strstr(got, plat), "PLATFORM='%s' DEVICE=0: %s: %s", sub,
             hb_status_string(st), got);
    st = open_with("0", NULL, got, sizeof got);
    HB_CHECK(st == HB_SUCCESS, "PLATFORM=0: %s: %s", hb_status_string(st), got);
    /* Empty values mean "not set": the automatic choice. */
    st = open_with("", "", got, sizeof got);
    HB_CHECK(st == HB_SUCCESS, "empty PLATFORM and DEVICE: %s: %s", hb_status_string(st), got);

    /* Bad values: errors that name the value, never a quiet default. */
    expect_error("97", NULL, HB_ERR_BACKEND_UNAVAILABLE, "'97'");
    expect_error("no-such-platform-xyz", NULL, HB_ERR_BACKEND_UNAVAILABLE, "no-such-platform-xyz");
    expect_error("-1", NULL, HB_ERR_BACKEND_UNAVAILABLE, "'-1'");
    expect_error(sub, "999", HB_ERR_BACKEND_UNAVAILABLE, "'999'");
    expect_error(NULL, "999", HB_ERR_BACKEND_UNAVAILABLE, "'999'");
    expect_error(NULL, "abc", HB_ERR_INVALID_ARGUMENT, "'abc'");
    expect_error(NULL, "-1", HB_ERR_INVALID_ARGUMENT, "'-1'");
    expect_error(NULL, "1x", HB_ERR_INVALID_ARGUMENT, "'1x'");
    set_env("HINESBATCH_OPENCL_DISABLE_FP64", "maybe");
    expect_error(orig_p, orig_d, HB_ERR_INVALID_ARGUMENT, "'maybe'");
    set_env("HINESBATCH_OPENCL_DISABLE_FP64", NULL);

    /* HINESBATCH_BACKEND=OpenCL (any case) through AUTO picks this backend. */
    set_env("HINESBATCH_OPENCL_PLATFORM", orig_p);
    set_env("HINESBATCH_DEVICE", orig_d);
    const char *env_b = getenv("HINESBATCH_BACKEND");
    char *orig_b = env_b ? strdup(env_b) : NULL;
    set_env("HINESBATCH_BACKEND", "OpenCL");
    hb_context *ctx = NULL;
    HB_CHECK_STATUS(hb_context_create(HB_BACKEND_AUTO, &ctx), HB_SUCCESS);
    HB_CHECK(ctx && hb_context_backend(ctx) == HB_BACKEND_OPENCL, "AUTO with OpenCL: %s",
             ctx ? hb_context_describe(ctx) : "(none)");
    hb_context_destroy(ctx);
    set_env("HINESBATCH_BACKEND", orig_b);
    free(orig_b);
    free(orig_p);
    free(orig_d);
    return hb_test_finish();
}
