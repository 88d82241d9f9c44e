/* cardiac.c: batches of cardiac cells: the catalogue's models, parameters and states per cell, the pace protocol, recording, and the run loop over the backends' launches. */
#include "hinesbatch_cardiac.h"

#include "hb_backend.h"
#include "hb_card_ops.h"
#include "hb_card_catalogue_info.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *name;
    int32_t nstate, nparam;
    const char *const *states;
    const char *const *params;
    const double *init;
    const double *defaults;
    const char *stimulus;
    double proto_start, proto_duration, proto_period;
} card_model;

static const card_model models[HB_CARD_NMODELS] = {HB_CARD_CATALOGUE_ENTRIES};

/* Steps per launch at most: long enough that launches cost nothing beside
 * the work on a GPU, short enough to keep a display's watchdog away. */
#define HB_CARD_LAUNCH_STEPS 1000
/* Rows the device's recording buffer holds; a launch never makes more. */
#define HB_CARD_REC_ROWS 256

struct hb_cardiac {
    hb_context *ctx;
    const hb_card_ops *ops;
    void *cache;
    const card_model *m;
    int32_t model;
    hb_precision prec;
    size_t esize;
    int64_t n;
    double dt;
    int64_t steps;
    int64_t on0, on1, on2; /* absolute steps; on1 0: no stimulus */
    double level;
    hb_buffer *state, *prm, *recslot, *rcol, *rec;
    /* Recording: cells, states (columns), every, origin (the step of the
     * choice), rows kept on the host. */
    int64_t nrec, every, origin;
    int32_t nrs;
    double *rows;
    int64_t nrows, cap_rows;
    /* Fibers (hb_cardiac_set_fiber): nodes per fiber (0: none) and the
     * diffusion plan, its matrix set once. */
    int64_t nnodes;
    hb_plan *plan;
};

int32_t hb_cardiac_model_count(void) { return HB_CARD_NMODELS; }

static hb_status check_model(const char *fn, int32_t model)
{
    if (model < 0 || model >= HB_CARD_NMODELS)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: model = %d is not in 0 .. %d", fn,
                         (int)model, HB_CARD_NMODELS - 1);
    return HB_SUCCESS;
}

hb_status hb_cardiac_model_find(const char *name, int32_t *model)
{
    if (!name || !model)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "hb_cardiac_model_find: %s is NULL",
                         !name ? "name" : "model");
    for (int32_t k = 0; k < HB_CARD_NMODELS; ++k)
        if (strcmp(models[k].name, name) == 0) {
            *model = k;
            return HB_SUCCESS;
        }
    return hb__error(HB_ERR_INVALID_ARGUMENT,
                     "hb_cardiac_model_find: name = \"%s\" is not in the cardiac catalogue "
                     "(add its file to HINESBATCH_CARDIAC_MODELS)", name);
}

hb_status hb_cardiac_model_get_info(int32_t model, hb_cardiac_model_info *info)
{
    HB_FORWARD(check_model("hb_cardiac_model_get_info", model));
    if (!info)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "hb_cardiac_model_get_info: info is NULL");
    info->name = models[model].name;
    info->nstate = models[model].nstate;
    info->nparam = models[model].nparam;
    info->stimulus = models[model].stimulus;
    info->protocol[0] = models[model].proto_start;
    info->protocol[1] = models[model].proto_duration;
    info->protocol[2] = models[model].proto_period;
    return HB_SUCCESS;
}

static hb_status name_at(const char *fn, int32_t model, int32_t k, int32_t count,
                         const char *const *names, const char **name)
{
    HB_FORWARD(check_model(fn, model));
    if (!name)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: name is NULL", fn);
    if (k < 0 || k >= count)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: k = %d is not in 0 .. %d", fn, (int)k,
                         (int)count - 1);
    *name = names[k];
    return HB_SUCCESS;
}

hb_status hb_cardiac_model_state_name(int32_t model, int32_t k, const char **name)
{
    if (model < 0 || model >= HB_CARD_NMODELS)
        return check_model("hb_cardiac_model_state_name", model);
    return name_at("hb_cardiac_model_state_name", model, k, models[model].nstate,
                   models[model].states, name);
}

hb_status hb_cardiac_model_param_name(int32_t model, int32_t k, const char **name)
{
    if (model < 0 || model >= HB_CARD_NMODELS)
        return check_model("hb_cardiac_model_param_name", model);
    return name_at("hb_cardiac_model_param_name", model, k, models[model].nparam,
                   models[model].params, name);
}

static hb_status value_at(const char *fn, int32_t model, int32_t k, int32_t count,
                          const double *values, double *value)
{
    if (!value)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: value is NULL", fn);
    if (k < 0 || k >= count)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: k = %d is not in 0 .. %d", fn, (int)k,
                         (int)count - 1);
    (void)model;
    *value = values[k];
    return HB_SUCCESS;
}

hb_status hb_cardiac_model_param_default(int32_t model, int32_t k, double *value)
{
    if (model < 0 || model >= HB_CARD_NMODELS)
        return check_model("hb_cardiac_model_param_default", model);
    return value_at("hb_cardiac_model_param_default", model, k, models[model].nparam,
                    models[model].defaults, value);
}

hb_status hb_cardiac_model_state_init(int32_t model, int32_t k, double *value)
{
    if (model < 0 || model >= HB_CARD_NMODELS)
        return check_model("hb_cardiac_model_state_init", model);
    return value_at("hb_cardiac_model_state_init", model, k, models[model].nstate,
                    models[model].init, value);
}

static const hb_card_ops *find_ops(const hb_context *ctx)
{
    switch (hb_context_backend(ctx)) {
    case HB_BACKEND_SERIAL: return hb__serial_card_ops();
    case HB_BACKEND_OPENMP: return hb__openmp_card_ops();
    case HB_BACKEND_OPENCL: return hb__opencl_card_ops();
    case HB_BACKEND_CUDA: return hb__cuda_card_ops();
    default: return NULL;
    }
}

/* Writes count values (doubles) as the batch's precision at element off of buf. */
static hb_status put(hb_cardiac *c, hb_buffer *buf, int64_t off, int64_t count,
                     const double *values)
{
    size_t bytes = 0, at = 0;
    if (!hb__bytes_n(count, c->esize, &bytes) || !hb__bytes_n(off, c->esize, &at))
        return hb__error(HB_ERR_OUT_OF_MEMORY, "cardiac: %lld values overflow size_t",
                         (long long)count);
    if (c->prec == HB_DOUBLE)
        return c->ctx->ops->write(c->ctx, NULL, buf, at, values, bytes);
    float *tmp = hb__malloc_n(count, sizeof(float));
    if (!tmp)
        return hb__error(HB_ERR_OUT_OF_MEMORY, "cardiac: %lld floats", (long long)count);
    for (int64_t i = 0; i < count; ++i)
        tmp[i] = (float)values[i];
    hb_status st = c->ctx->ops->write(c->ctx, NULL, buf, at, tmp, bytes);
    free(tmp);
    return st;
}

static hb_status get(const hb_cardiac *c, hb_buffer *buf, int64_t off, int64_t count,
                     double *out)
{
    size_t bytes = 0, at = 0;
    if (!hb__bytes_n(count, c->esize, &bytes) || !hb__bytes_n(off, c->esize, &at))
        return hb__error(HB_ERR_OUT_OF_MEMORY, "cardiac: %lld values overflow size_t",
                         (long long)count);
    if (c->prec == HB_DOUBLE)
        return c->ctx->ops->read(c->ctx, NULL, buf, at, out, bytes);
    float *tmp = hb__malloc_n(count, sizeof(float));
    if (!tmp)
        return hb__error(HB_ERR_OUT_OF_MEMORY, "cardiac: %lld floats", (long long)count);
    hb_status st = c->ctx->ops->read(c->ctx, NULL, buf, at, tmp, bytes);
    for (int64_t i = 0; st == HB_SUCCESS && i < count; ++i)
        out[i] = tmp[i];
    free(tmp);
    return st;
}

static hb_status alloc(hb_cardiac *c, int64_t count, size_t esize, hb_buffer **out)
{
    size_t bytes = 0;
    if (!hb__bytes_n(count, esize, &bytes))
        return hb__error(HB_ERR_OUT_OF_MEMORY, "hb_cardiac_create: %lld elements overflow size_t",
                         (long long)count);
    return c->ctx->ops->alloc(c->ctx, bytes ? bytes : esize, out);
}

/* Fills count doubles with v. */
static double *filled(int64_t count, double v)
{
    double *a = hb__malloc_n(count, sizeof(double));
    for (int64_t i = 0; a && i < count; ++i)
        a[i] = v;
    return a;
}

static hb_status set_columns(hb_cardiac *c, hb_buffer *buf, int32_t ncol, const double *vals)
{
    double *col = hb__malloc_n(c->n, sizeof(double));
    if (!col)
        return hb__error(HB_ERR_OUT_OF_MEMORY, "hb_cardiac_create: %lld values",
                         (long long)c->n);
    hb_status st = HB_SUCCESS;
    for (int32_t k = 0; k < ncol && st == HB_SUCCESS; ++k) {
        for (int64_t i = 0; i < c->n; ++i)
            col[i] = vals[k];
        st = put(c, buf, (int64_t)k * c->n, c->n, col);
    }
    free(col);
    return st;
}

hb_status hb_cardiac_create(hb_context *ctx, int32_t model, int64_t ncells,
                            hb_precision precision, double dt, hb_cardiac **out)
{
    const char *fn = "hb_cardiac_create";
    if (!out)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: out is NULL", fn);
    if (!ctx)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: ctx is NULL", fn);
    HB_FORWARD(check_model(fn, model));
    if (ncells < 1)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: ncells = %lld < 1", fn, (long long)ncells);
    if (precision != HB_DOUBLE && precision != HB_FLOAT)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: precision = %d is not an hb_precision", fn,
                         (int)precision);
    if (!(dt > 0) || !isfinite(dt))
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: dt = %g is not a positive number", fn, dt);
    if (precision == HB_DOUBLE && !ctx->traits.has_double)
        return hb__error(HB_ERR_BACKEND_UNAVAILABLE, "%s: precision = HB_DOUBLE: %s has no double",
                         fn, hb_context_describe(ctx));
    const hb_card_ops *ops = find_ops(ctx);
    if (!ops || !ops->cells)
        return hb__error(HB_ERR_BACKEND_UNAVAILABLE, "%s: the %s backend has no cardiac kernels",
                         fn, hb_backend_name(hb_context_backend(ctx)));
    const card_model *m = &models[model];
    int64_t nst = 0, npr = 0;
    if (!hb__mul_i64(ncells, m->nstate, &nst) || !hb__mul_i64(ncells, m->nparam, &npr))
        return hb__error(HB_ERR_OUT_OF_MEMORY, "%s: ncells = %lld overflows", fn,
                         (long long)ncells);
    hb_cardiac *c = calloc(1, sizeof *c);
    if (!c)
        return hb__error(HB_ERR_OUT_OF_MEMORY, "%s: the batch", fn);
    c->ctx = ctx;
    c->ops = ops;
    c->m = m;
    c->model = model;
    c->prec = precision;
    c->esize = precision == HB_DOUBLE ? sizeof(double) : sizeof(float);
    c->n = ncells;
    c->dt = dt;
    c->every = 1;
    hb__context_retain(ctx);
    hb_status st = alloc(c, nst, c->esize, &c->state);
    if (st == HB_SUCCESS)
        st = alloc(c, npr > 0 ? npr : 1, c->esize, &c->prm);
    if (st == HB_SUCCESS)
        st = alloc(c, ncells, sizeof(int64_t), &c->recslot);
    if (st == HB_SUCCESS)
        st = alloc(c, m->nstate, sizeof(int32_t), &c->rcol);
    if (st == HB_SUCCESS)
        st = set_columns(c, c->state, m->nstate, m->init);
    if (st == HB_SUCCESS)
        st = set_columns(c, c->prm, m->nparam, m->defaults);
    if (st == HB_SUCCESS)
        st = hb_cardiac_record(c, 0, NULL, 0, NULL, 1);
    if (st != HB_SUCCESS) {
        hb_cardiac_destroy(c);
        return st;
    }
    *out = c;
    return HB_SUCCESS;
}

void hb_cardiac_destroy(hb_cardiac *c)
{
    if (!c)
        return;
    hb_context *ctx = c->ctx;
    if (c->ops && c->ops->release && c->cache)
        c->ops->release(ctx, c->cache);
    hb_plan_destroy(c->plan);
    hb_buffer *bufs[] = {c->state, c->prm, c->recslot, c->rcol, c->rec};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; ++i)
        if (bufs[i])
            ctx->ops->release(ctx, bufs[i]);
    free(c->rows);
    free(c);
    hb__context_release(ctx);
}

static hb_status find_name(const char *fn, const char *what, const char *name,
                           const char *const *names, int32_t count, const char *model,
                           int32_t *k)
{
    if (!name)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: name is NULL", fn);
    for (int32_t j = 0; j < count; ++j)
        if (strcmp(names[j], name) == 0) {
            *k = j;
            return HB_SUCCESS;
        }
    return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: name = \"%s\": %s has no %s of that name", fn,
                     name, model, what);
}

static hb_status check_values(const char *fn, const double *values, int64_t n)
{
    if (!values)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: values is NULL", fn);
    for (int64_t i = 0; i < n; ++i)
        if (!isfinite(values[i]))
            return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: values[%lld] = %g is not finite", fn,
                             (long long)i, values[i]);
    return HB_SUCCESS;
}

hb_status hb_cardiac_set_param_cells(hb_cardiac *c, const char *name, const double *values)
{
    const char *fn = "hb_cardiac_set_param_cells";
    if (!c)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: c is NULL", fn);
    int32_t k = 0;
    HB_FORWARD(find_name(fn, "parameter", name, c->m->params, c->m->nparam, c->m->name, &k));
    HB_FORWARD(check_values(fn, values, c->n));
    return put(c, c->prm, (int64_t)k * c->n, c->n, values);
}

hb_status hb_cardiac_set_param(hb_cardiac *c, const char *name, double value)
{
    const char *fn = "hb_cardiac_set_param";
    if (!c)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: c is NULL", fn);
    int32_t k = 0;
    HB_FORWARD(find_name(fn, "parameter", name, c->m->params, c->m->nparam, c->m->name, &k));
    if (!isfinite(value))
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: value = %g is not finite", fn, value);
    double *col = filled(c->n, value);
    if (!col)
        return hb__error(HB_ERR_OUT_OF_MEMORY, "%s: %lld values", fn, (long long)c->n);
    hb_status st = put(c, c->prm, (int64_t)k * c->n, c->n, col);
    free(col);
    return st;
}

hb_status hb_cardiac_get_state(hb_cardiac *c, const char *name, double *out)
{
    const char *fn = "hb_cardiac_get_state";
    if (!c || !out)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: %s is NULL", fn, !c ? "c" : "out");
    int32_t k = 0;
    HB_FORWARD(find_name(fn, "state", name, c->m->states, c->m->nstate, c->m->name, &k));
    /* Read whole first, so that out is not half-written on error. */
    double *tmp = hb__malloc_n(c->n, sizeof(double));
    if (!tmp)
        return hb__error(HB_ERR_OUT_OF_MEMORY, "%s: %lld values", fn, (long long)c->n);
    hb_status st = get(c, c->state, (int64_t)k * c->n, c->n, tmp);
    if (st == HB_SUCCESS)
        memcpy(out, tmp, (size_t)c->n * sizeof(double));
    free(tmp);
    return st;
}

hb_status hb_cardiac_set_state(hb_cardiac *c, const char *name, const double *values)
{
    const char *fn = "hb_cardiac_set_state";
    if (!c)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: c is NULL", fn);
    int32_t k = 0;
    HB_FORWARD(find_name(fn, "state", name, c->m->states, c->m->nstate, c->m->name, &k));
    HB_FORWARD(check_values(fn, values, c->n));
    return put(c, c->state, (int64_t)k * c->n, c->n, values);
}

/* x / dt as a whole number of steps, or an error naming the argument. */
static hb_status whole_steps(const char *fn, const char *arg, double x, double dt, int64_t *out)
{
    if (!isfinite(x) || x < 0)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: %s = %g is not a number >= 0", fn, arg, x);
    double s = x / dt, r = floor(s + 0.5);
    if (fabs(s - r) > 1e-9 * (r > 1 ? r : 1) || r > 9e15)
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "%s: %s = %g ms is not a whole number of steps of dt = %g ms", fn, arg, x,
                         dt);
    *out = (int64_t)r;
    return HB_SUCCESS;
}

hb_status hb_cardiac_set_protocol(hb_cardiac *c, double level, double start, double duration,
                                  double period)
{
    const char *fn = "hb_cardiac_set_protocol";
    if (!c)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: c is NULL", fn);
    if (!isfinite(level))
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: level = %g is not finite", fn, level);
    int64_t s0 = 0, s1 = 0, s2 = 0;
    HB_FORWARD(whole_steps(fn, "start", start, c->dt, &s0));
    HB_FORWARD(whole_steps(fn, "duration", duration, c->dt, &s1));
    HB_FORWARD(whole_steps(fn, "period", period, c->dt, &s2));
    if (s1 < 1)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: duration = %g ms is not at least one step",
                         fn, duration);
    if (s2 != 0 && s2 < s1)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: period = %g ms is shorter than duration = %g ms",
                         fn, period, duration);
    c->on0 = s0;
    c->on1 = s1;
    c->on2 = s2;
    c->level = level;
    return HB_SUCCESS;
}

hb_status hb_cardiac_record(hb_cardiac *c, int64_t ncells_rec, const int64_t *cells,
                            int32_t nstates, const char *const *states, int64_t every)
{
    const char *fn = "hb_cardiac_record";
    if (!c)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: c is NULL", fn);
    if (ncells_rec < 0 || ncells_rec > c->n)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: ncells_rec = %lld is not in 0 .. %lld", fn,
                         (long long)ncells_rec, (long long)c->n);
    if (ncells_rec > 0 && (!cells || !states))
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: %s is NULL", fn, !cells ? "cells" : "states");
    if (ncells_rec > 0 && (nstates < 1 || nstates > c->m->nstate))
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: nstates = %d is not in 1 .. %d", fn,
                         (int)nstates, (int)c->m->nstate);
    if (every < 1)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: every = %lld < 1", fn, (long long)every);
    if (ncells_rec == 0)
        nstates = 0;
    int64_t *slot = hb__malloc_n(c->n, sizeof(int64_t));
    int32_t *rcol = hb__malloc_n(c->m->nstate, sizeof(int32_t));
    hb_status st = HB_SUCCESS;
    if (!slot || !rcol)
        st = hb__error(HB_ERR_OUT_OF_MEMORY, "%s: %lld cells", fn, (long long)c->n);
    for (int64_t i = 0; st == HB_SUCCESS && i < c->n; ++i)
        slot[i] = -1;
    for (int32_t k = 0; st == HB_SUCCESS && k < c->m->nstate; ++k)
        rcol[k] = -1;
    for (int64_t j = 0; st == HB_SUCCESS && j < ncells_rec; ++j) {
        if (cells[j] < 0 || cells[j] >= c->n)
            st = hb__error(HB_ERR_INVALID_ARGUMENT, "%s: cells[%lld] = %lld is not in 0 .. %lld", fn,
                           (long long)j, (long long)cells[j], (long long)c->n - 1);
        else if (slot[cells[j]] >= 0)
            st = hb__error(HB_ERR_INVALID_ARGUMENT, "%s: cells[%lld] = %lld is listed twice", fn,
                           (long long)j, (long long)cells[j]);
        else
            slot[cells[j]] = j;
    }
    for (int32_t s = 0; st == HB_SUCCESS && s < nstates; ++s) {
        int32_t k = 0;
        st = find_name(fn, "state", states[s], c->m->states, c->m->nstate, c->m->name, &k);
        if (st == HB_SUCCESS && rcol[k] >= 0)
            st = hb__error(HB_ERR_INVALID_ARGUMENT, "%s: states[%d] = \"%s\" is listed twice", fn,
                           (int)s, states[s]);
        if (st == HB_SUCCESS)
            rcol[k] = s;
    }
    int64_t ncol = 0;
    hb_buffer *rec = NULL;
    if (st == HB_SUCCESS && !hb__mul_i64(ncells_rec, nstates, &ncol))
        st = hb__error(HB_ERR_OUT_OF_MEMORY, "%s: %lld columns overflow", fn, (long long)ncells_rec);
    if (st == HB_SUCCESS && ncol > 0) {
        int64_t cap = 0;
        if (!hb__mul_i64(ncol, HB_CARD_REC_ROWS, &cap))
            st = hb__error(HB_ERR_OUT_OF_MEMORY, "%s: %lld columns overflow", fn, (long long)ncol);
        else
            st = alloc(c, cap, c->esize, &rec);
    }
    /* Written to the device only when everything was accepted. */
    if (st == HB_SUCCESS)
        st = c->ctx->ops->write(c->ctx, NULL, c->recslot, 0, slot, (size_t)c->n * sizeof(int64_t));
    if (st == HB_SUCCESS)
        st = c->ctx->ops->write(c->ctx, NULL, c->rcol, 0, rcol,
                                (size_t)c->m->nstate * sizeof(int32_t));
    free(slot);
    free(rcol);
    if (st != HB_SUCCESS) {
        if (rec)
            c->ctx->ops->release(c->ctx, rec);
        return st;
    }
    if (c->rec)
        c->ctx->ops->release(c->ctx, c->rec);
    c->rec = rec;
    c->nrec = ncells_rec;
    c->nrs = nstates;
    c->every = every;
    c->origin = c->steps;
    free(c->rows);
    c->rows = NULL;
    c->nrows = c->cap_rows = 0;
    return HB_SUCCESS;
}

/* Appends rows [0, count) of the device's recording to the host's. */
static hb_status take_rows(hb_cardiac *c, int64_t count)
{
    int64_t ncol = c->nrec * c->nrs;
    if (count <= 0 || ncol == 0)
        return HB_SUCCESS;
    if (c->nrows + count > c->cap_rows) {
        int64_t cap = c->cap_rows ? c->cap_rows : 64;
        while (cap < c->nrows + count)
            cap *= 2;
        int64_t total = 0;
        if (!hb__mul_i64(cap, ncol, &total))
            return hb__error(HB_ERR_OUT_OF_MEMORY, "hb_cardiac_run: %lld recorded rows", (long long)cap);
        double *grown = hb__realloc_n(c->rows, total, sizeof(double));
        if (!grown)
            return hb__error(HB_ERR_OUT_OF_MEMORY, "hb_cardiac_run: %lld recorded rows", (long long)cap);
        c->rows = grown;
        c->cap_rows = cap;
    }
    HB_FORWARD(get(c, c->rec, 0, count * ncol, c->rows + c->nrows * ncol));
    c->nrows += count;
    return HB_SUCCESS;
}

hb_status hb_cardiac_set_fiber(hb_cardiac *c, int64_t nnodes, double sigma, double chi,
                               double cm, double dx)
{
    const char *fn = "hb_cardiac_set_fiber";
    if (!c)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: c is NULL", fn);
    if (nnodes < 2 || c->n % nnodes != 0)
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "%s: nnodes = %lld is not >= 2 and a divisor of ncells = %lld", fn,
                         (long long)nnodes, (long long)c->n);
    const double v[4] = {sigma, chi, cm, dx};
    const char *names[4] = {"sigma", "chi", "cm", "dx"};
    for (int k = 0; k < 4; ++k)
        if (!(v[k] > 0) || !isfinite(v[k]))
            return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: %s = %g is not a positive number", fn,
                             names[k], v[k]);
    /* (I - r L) V_new = V, r = D dt / dx^2, L the second difference with
     * mirrored ends (no flux): rows 1 + r, -r at the ends, -r, 1 + 2r, -r inside. */
    const double r = sigma / (chi * cm) * c->dt / (dx * dx);
    double *a = hb__malloc_n(c->n, sizeof(double)), *b = hb__malloc_n(c->n, sizeof(double)),
           *cc = hb__malloc_n(c->n, sizeof(double));
    void *tmp = hb__malloc_n(c->n, c->esize);
    hb_status st = HB_SUCCESS;
    if (!a || !b || !cc || !tmp)
        st = hb__error(HB_ERR_OUT_OF_MEMORY, "%s: %lld rows", fn, (long long)c->n);
    for (int64_t i = 0; st == HB_SUCCESS && i < c->n; ++i) {
        int64_t j = i % nnodes;
        a[i] = j > 0 ? -r : 0;
        cc[i] = j < nnodes - 1 ? -r : 0;
        b[i] = 1 + (j > 0 ? r : 0) + (j < nnodes - 1 ? r : 0);
    }
    hb_plan *plan = NULL;
    if (st == HB_SUCCESS) {
        hb_plan_options o;
        hb_plan_options_init(&o);
        /* V's column of the state is the flat right-hand side; the strategy
         * is the core's AUTO rule for it (cooperative on a GPU where a few
         * long fibers would leave threads idle). */
        o.layout = HB_LAYOUT_FLAT;
        st = hb_plan_create_tridiag_uniform(c->ctx, c->prec, c->n / nnodes, nnodes, &o, &plan);
    }
    const double *arrs[3] = {a, b, cc};
    const hb_array which[3] = {HB_ARRAY_A, HB_ARRAY_B, HB_ARRAY_C};
    for (int k = 0; k < 3 && st == HB_SUCCESS; ++k) {
        for (int64_t i = 0; i < c->n; ++i) {
            if (c->prec == HB_DOUBLE)
                ((double *)tmp)[i] = arrs[k][i];
            else
                ((float *)tmp)[i] = (float)arrs[k][i];
        }
        st = hb_plan_set(plan, which[k], tmp);
    }
    free(a);
    free(b);
    free(cc);
    free(tmp);
    if (st != HB_SUCCESS) {
        hb_plan_destroy(plan);
        return st;
    }
    hb_plan_destroy(c->plan);
    c->plan = plan;
    c->nnodes = nnodes;
    return HB_SUCCESS;
}

/* The diffusion half-step of the fibers: V's column (slot 0 of the state,
 * at offset 0: fiber-major, the flat layout) through the plan's solve. */
static hb_status diffuse(hb_cardiac *c)
{
    hb_buffer *rhs = NULL;
    const size_t bytes = (size_t)c->n * c->esize;
    HB_FORWARD(hb__plan_array(c->plan, HB_ARRAY_RHS, &rhs));
    HB_FORWARD(c->ctx->ops->copy(c->ctx, NULL, rhs, c->state, bytes));
    HB_FORWARD(hb_plan_solve(c->plan));
    HB_FORWARD(hb__plan_array(c->plan, HB_ARRAY_RHS, &rhs));
    return c->ctx->ops->copy(c->ctx, NULL, c->state, rhs, bytes);
}

hb_status hb_cardiac_run(hb_cardiac *c, int64_t nsteps)
{
    const char *fn = "hb_cardiac_run";
    if (!c)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: c is NULL", fn);
    if (nsteps < 0)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: nsteps = %lld < 0", fn, (long long)nsteps);
    int recording = c->nrec > 0 && c->nrs > 0;
    while (nsteps > 0) {
        /* Steps are counted from the recording's origin in the kernels. */
        int64_t k0 = c->steps - c->origin;
        int64_t len = nsteps < HB_CARD_LAUNCH_STEPS ? nsteps : HB_CARD_LAUNCH_STEPS;
        if (c->plan) {
            /* Fibers: diffusion, then one step of the cells. */
            HB_FORWARD(diffuse(c));
            len = 1;
        }
        if (recording) {
            /* No more rows than the device buffer holds. */
            int64_t room = HB_CARD_REC_ROWS * c->every - k0 % c->every;
            if (len > room)
                len = room;
        }
        hb_card_job job;
        memset(&job, 0, sizeof job);
        job.model = c->model;
        job.n = c->n;
        job.step0 = k0;
        job.nsteps = (int32_t)len;
        job.dt = c->dt;
        job.on0 = c->on0 - c->origin;
        job.on1 = c->on1;
        job.on2 = c->on2;
        job.level = c->level;
        job.state = c->state;
        job.prm = c->prm;
        job.recslot = c->recslot;
        job.rcol = c->rcol;
        job.nrcol = c->nrs;
        job.ncol = c->nrec * c->nrs;
        job.rec_every = c->every;
        job.rec_row0 = k0 / c->every;
        job.rec = c->rec ? c->rec : c->state; /* never written without recorded cells */
        HB_FORWARD(c->ops->cells(c->ctx, c->prec, &c->cache, &job));
        c->steps += len;
        nsteps -= len;
        if (recording)
            HB_FORWARD(take_rows(c, (k0 + len) / c->every - k0 / c->every));
    }
    return c->ctx->ops->finish(c->ctx, NULL);
}

int64_t hb_cardiac_steps(const hb_cardiac *c) { return c ? c->steps : 0; }

hb_status hb_cardiac_get_recording(const hb_cardiac *c, double *out, size_t capacity,
                                   int64_t *nrows, int64_t *ncols)
{
    const char *fn = "hb_cardiac_get_recording";
    if (!c || !nrows || !ncols)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: %s is NULL", fn,
                         !c ? "c" : !nrows ? "nrows" : "ncols");
    int64_t ncol = c->nrec * c->nrs;
    if (out && ncol > 0) {
        int64_t rows = (int64_t)(capacity / (size_t)ncol);
        if (rows > c->nrows)
            rows = c->nrows;
        memcpy(out, c->rows, (size_t)(rows * ncol) * sizeof(double));
    }
    *nrows = c->nrows;
    *ncols = ncol;
    return HB_SUCCESS;
}
