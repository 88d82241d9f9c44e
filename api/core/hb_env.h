/* hb_env.h: the one reader of the HINESBATCH_* environment variables. */
#ifndef HB_ENV_H
#define HB_ENV_H

#include "hinesbatch.h"

#include <stdlib.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* HINESBATCH_BACKEND: HB_BACKEND_AUTO when unset, empty or "auto"; an unknown
 * name is HB_ERR_INVALID_ARGUMENT naming the value. */
hb_status hb__env_backend(hb_backend *out);
/* HINESBATCH_DEVICE: a decimal index, -1 when unset or empty (the backend's
 * own default); anything else is HB_ERR_INVALID_ARGUMENT (never a silent
 * default). *text gets the raw value for messages ("" when unset). */
hb_status hb__env_device(int *out, const char **text);
/* HINESBATCH_OPENCL_PLATFORM: the raw text (an index or a name substring),
 * NULL when unset or empty; the OpenCL backend interprets it. */
const char *hb__env_opencl_platform(void);
/* HINESBATCH_AUTO_ESTIMATE: 0 or 1 into *value (hb_plan_options.auto_estimate);
 * unset or empty leaves it; another value is HB_ERR_INVALID_ARGUMENT. */
hb_status hb__env_auto_estimate(int32_t *value);
/* HINESBATCH_COOP_WARP: whether cooperative plans may run the register
 * kernel (thomas_coop_warp, CUDA) where a system fits it: 1 or 0 into *value,
 * -1 when unset or empty (the core's rule); another value is
 * HB_ERR_INVALID_ARGUMENT (a test and measurement knob). */
hb_status hb__env_coop_warp(int32_t *value);
/* HINESBATCH_STRATEGY: HB_STRATEGY_AUTO when unset or empty; an unknown name
 * is HB_ERR_INVALID_ARGUMENT. */
hb_status hb__env_strategy(hb_strategy *out);
/* HINESBATCH_OPENCL_DISABLE_FP64: 1 makes an OpenCL device count as lacking
 * cl_khr_fp64 (to test float-only devices anywhere); unset, "" or "0" is 0;
 * anything else is HB_ERR_INVALID_ARGUMENT. */
hb_status hb__env_opencl_disable_fp64(int *off);
/* HINESBATCH_COOP_SPAN: work-groups per system of cooperative plans (a
 * test and measurement knob); 0 when unset or empty (the core's rule), else
 * a decimal 1 .. HB_ENV_COOP_SPAN_MAX (1: one group per system, the staged
 * kernel); anything else is HB_ERR_INVALID_ARGUMENT naming the value. */
#define HB_ENV_COOP_SPAN_MAX 1024
hb_status hb__env_coop_span(int32_t *out);
/* HINESBATCH_EPOCH_STAGE: at most what the simulation's on-chip epoch keeps
 * in local memory besides its rows' d, rhs and v (a test and measurement
 * knob): "all" (u and the schedule; 2, the default when unset or empty),
 * "u" (1), "none" (0) or "vx" (-1: neither, and v in rhs's array);
 * anything else is HB_ERR_INVALID_ARGUMENT naming the value. */
hb_status hb__env_epoch_stage(int *out);
/* HINESBATCH_LOCAL_MEM_LIMIT: bytes of local memory per work-group that plans
 * may assume, at most (to make a 48 KiB device's plans on a larger one, and
 * to test the paths of small devices); 0 when unset or empty (the device's
 * own), else a decimal 1024 .. 2^30; anything else is
 * HB_ERR_INVALID_ARGUMENT naming the value. */
hb_status hb__env_local_mem_limit(size_t *out);
/* HINESBATCH_COOP_RESIDENT_LIMIT: bytes of local memory that one system of the
 * resident cooperative solver may take alone in a work-group (a test and
 * measurement knob; hb__coop_resident): 0 when unset or empty (the device's
 * local memory), else a decimal 1024 .. 2^30 (49152 gives the plans of the
 * rule before systems took a whole work-group's local memory); anything else
 * is HB_ERR_INVALID_ARGUMENT naming the value. */
hb_status hb__env_coop_resident_limit(size_t *out);
/* A variable's value, NULL when unset or empty (empty counts as unset). */
static inline const char *hb__env_value(const char *name)
{
    const char *v = getenv(name);
    return v && v[0] ? v : NULL;
}

/* HINESBATCH_VERBOSE: 1 when set to anything but "" or "0". Inline, so the
 * error reporter that every other reader calls does not call back here. */
static inline int hb__env_verbose(void)
{
    const char *v = hb__env_value("HINESBATCH_VERBOSE");
    return v && strcmp(v, "0") != 0;
}

#ifdef __cplusplus
}
#endif
#endif /* HB_ENV_H */
