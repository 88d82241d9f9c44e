/* test_cardiac.c: batches of cardiac cells and of 1-D fibers of every catalogue model, per-cell parameters drawn at random, paced, on the backend under test against the serial oracle (float and double); action potentials present; bad calls refused without a change. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hb_test_util.h"
#include "hinesbatch_cardiac.h"

#include "hb_card_catalogue_info.h"

/* Oracle bounds, mV, over the recorded voltages. The host backends run the
 * oracle's own functions cell by cell: bit-identical. A device's exp and log
 * differ from the host's by an ulp or so and the upstroke amplifies that:
 * in double the differences stay near 1e-9 mV (seen: below 1e-10 on PoCL);
 * in float a cell whose upstroke starts one step apart differs by up to the
 * upstroke's rise in one step, so float is held to the action potential's
 * shape: the largest difference at any time where both traces are away from
 * the upstroke, plus peak and times of crossing within bounds below. */
#define BOUND_DOUBLE_MV 1e-6
#define BOUND_FLOAT_MV 0.5
#define BOUND_FLOAT_CROSS_MS 0.05

typedef struct {
    int64_t n, nrec, every, nsteps;
    int64_t fiber; /* nodes per fiber (0: independent cells), stimulus on the first 5 */
    int64_t cells[8];
    double dt, start, dur, period;
    double *scale; /* nparam x n: each parameter times (1 + 0.04 (u - 0.5)) */
} setup;

/* The catalogue as the library has it (names, defaults), from its header. */
typedef struct {
    const char *name;
    int32_t nstate, nparam;
    const char *const *states, *const *params;
    const double *init, *defaults;
    const char *stim;
    double a, b, c;
} entry;
static const entry cat[HB_CARD_NMODELS] = {HB_CARD_CATALOGUE_ENTRIES};

static hb_status make(hb_context *ctx, int32_t model, hb_precision p, const setup *s,
                      hb_cardiac **out)
{
    hb_cardiac_model_info info;
    hb_cardiac_model_get_info(model, &info);
    hb_status st = hb_cardiac_create(ctx, model, s->n, p, s->dt, out);
    if (st != HB_SUCCESS)
        return st;
    /* Per-cell values of every parameter: the defaults, each scaled. */
    double *vals = hb_test_xalloc((size_t)s->n * sizeof(double));
    for (int32_t k = 0; k < info.nparam && st == HB_SUCCESS; ++k) {
        const char *name = NULL;
        hb_cardiac_model_param_name(model, k, &name);
        for (int64_t i = 0; i < s->n; ++i)
            vals[i] = cat[model].defaults[k] * s->scale[(int64_t)k * s->n + i];
        st = hb_cardiac_set_param_cells(*out, name, vals);
    }
    free(vals);
    if (st == HB_SUCCESS && s->fiber > 0) {
        st = hb_cardiac_set_fiber(*out, s->fiber, 1.2, 1400, 1, 0.01);
        for (int32_t k = 0; k < info.nparam && st == HB_SUCCESS; ++k)
            if (cat[model].stim && strcmp(cat[model].params[k], cat[model].stim) == 0) {
                double *v = hb_test_xalloc((size_t)s->n * sizeof(double));
                for (int64_t i = 0; i < s->n; ++i)
                    /* Twice the single cell's charge: the 5 paced nodes also
                     * charge their neighbours (Decker's did not always fire
                     * with 40 uC/cm2 over 2 ms). */
                    v[i] = i % s->fiber < 5 ? 2 * cat[model].defaults[k] * s->scale[(int64_t)k * s->n + i] : 0;
                st = hb_cardiac_set_param_cells(*out, cat[model].stim, v);
                free(v);
            }
    }
    if (st == HB_SUCCESS)
        st = hb_cardiac_set_protocol(*out, 1.0, s->start, s->dur, s->period);
    if (st == HB_SUCCESS) {
        const char *v = NULL;
        hb_cardiac_model_state_name(model, 0, &v);
        const char *states[2] = {v, NULL};
        int32_t ns = 1;
        if (info.nstate > 1) {
            hb_cardiac_model_state_name(model, info.nstate - 1, &states[1]);
            ns = 2;
        }
        st = hb_cardiac_record(*out, s->nrec, s->cells, ns, states, s->every);
    }
    return st;
}


/* Recorded rows of a run of the batch; the caller frees. */
static double *run(hb_cardiac *c, const setup *s, int64_t *rows, int64_t *cols)
{
    HB_CHECK_STATUS(hb_cardiac_run(c, s->nsteps / 3), HB_SUCCESS);
    HB_CHECK_STATUS(hb_cardiac_run(c, s->nsteps - s->nsteps / 3), HB_SUCCESS);
    HB_CHECK(hb_cardiac_steps(c) == s->nsteps, "steps %lld, expected %lld",
             (long long)hb_cardiac_steps(c), (long long)s->nsteps);
    hb_cardiac_get_recording(c, NULL, 0, rows, cols);
    size_t cap = (size_t)(*rows * *cols);
    double *out = hb_test_xalloc((cap ? cap : 1) * sizeof(double));
    for (size_t i = 0; i < cap; ++i)
        out[i] = NAN; /* poisoned: every value must be written */
    HB_CHECK_STATUS(hb_cardiac_get_recording(c, out, cap, rows, cols), HB_SUCCESS);
    for (size_t i = 0; i < cap; ++i)
        if (!isfinite(out[i])) {
            HB_CHECK(0, "recorded value %zu is %g", i, out[i]);
            break;
        }
    return out;
}

/* Time (ms) of the first upward crossing of -30 mV of column col, interpolated. */
static double crossing(const double *r, int64_t rows, int64_t cols, int64_t col, double t_row)
{
    for (int64_t k = 1; k < rows; ++k) {
        double a = r[(k - 1) * cols + col], b = r[k * cols + col];
        if (a < -30 && b >= -30)
            return t_row * ((double)k + (-30 - a) / (b - a));
    }
    return -1;
}

static void compare(int32_t model, hb_precision p, const setup *s)
{
    hb_context *ctx = hb_test_context(), *ora = hb_test_oracle();
    hb_cardiac *c = NULL, *o = NULL;
    hb_status st = make(ctx, model, p, s, &c);
    HB_CHECK(st == HB_SUCCESS, "create on the backend: %s", hb_last_error());
    st = make(ora, model, p, s, &o);
    HB_CHECK(st == HB_SUCCESS, "create on the oracle: %s", hb_last_error());
    if (!c || !o) {
        hb_cardiac_destroy(c);
        hb_cardiac_destroy(o);
        hb_context_destroy(ctx);
        hb_context_destroy(ora);
        return;
    }
    int64_t rows = 0, cols = 0, orows = 0, ocols = 0;
    double *r = run(c, s, &rows, &cols), *ro = run(o, s, &orows, &ocols);
    HB_CHECK(rows == orows && cols == ocols && rows == s->nsteps / s->every,
             "recording %lldx%lld, oracle %lldx%lld", (long long)rows, (long long)cols,
             (long long)orows, (long long)ocols);
    const int host = hb_test_on_host(ctx);
    double worst = 0, worst_t = 0, worst_cross = 0;
    int64_t ns = cols / s->nrec;
    for (int64_t j = 0; j < s->nrec; ++j) {
        int64_t col = j * ns; /* V */
        double peak = -1e9, opeak = -1e9;
        for (int64_t k = 0; k < rows; ++k) {
            double a = r[k * cols + col], b = ro[k * cols + col];
            peak = fmax(peak, a);
            opeak = fmax(opeak, b);
            /* Float: away from upstrokes (both traces change by less than
             * 5 mV between rows here). */
            if (p == HB_FLOAT && k > 0 &&
                (fabs(a - r[(k - 1) * cols + col]) > 5 || fabs(b - ro[(k - 1) * cols + col]) > 5))
                continue;
            if (fabs(a - b) > worst) {
                worst = fabs(a - b);
                worst_t = (double)(k + 1) * s->every * s->dt;
            }
        }
        double t_row = s->every * s->dt;
        double ca = crossing(r, rows, cols, col, t_row), cb = crossing(ro, rows, cols, col, t_row);
        HB_CHECK(ca > 0 && cb > 0, "model %s cell %lld: no upstroke (%g, %g ms)", cat[model].name,
                 (long long)s->cells[j], ca, cb);
        HB_CHECK(peak > 0 && opeak > 0, "model %s cell %lld: peak %g mV, oracle %g mV: no action "
                 "potential", cat[model].name, (long long)s->cells[j], peak, opeak);
        worst_cross = fmax(worst_cross, fabs(ca - cb));
        if (host)
            HB_CHECK(hb_test_bitequal(r, ro, (size_t)(rows * cols) * sizeof(double)),
                     "host backend not bit-identical to the oracle");
    }
    double bound = p == HB_DOUBLE ? BOUND_DOUBLE_MV : BOUND_FLOAT_MV;
    HB_CHECK(worst <= bound, "model %s %s: largest difference from the oracle %g mV at %g ms "
             "(bound %g)", cat[model].name, hb_test_precision_name(p), worst, worst_t, bound);
    if (p == HB_FLOAT)
        HB_CHECK(worst_cross <= BOUND_FLOAT_CROSS_MS, "model %s float: -30 mV crossing differs by "
                 "%g ms (bound %g)", cat[model].name, worst_cross, BOUND_FLOAT_CROSS_MS);
    printf("%-22s %-6s %lld cells%s, %lld steps: largest V difference from the oracle %.3g mV, "
           "crossing %.3g ms\n", cat[model].name, hb_test_precision_name(p), (long long)s->n,
           s->fiber ? " in fibers" : "", (long long)s->nsteps, worst, worst_cross);
    /* Every cell's state read back finite (a poisoned output). */
    double *v = hb_test_xalloc((size_t)s->n * sizeof(double));
    for (int64_t i = 0; i < s->n; ++i)
        v[i] = NAN;
    HB_CHECK_STATUS(hb_cardiac_get_state(c, cat[model].states[0], v), HB_SUCCESS);
    for (int64_t i = 0; i < s->n; ++i)
        if (!isfinite(v[i]) || v[i] < -150 || v[i] > 100) {
            HB_CHECK(0, "model %s %s cell %lld: V = %g mV after the run", cat[model].name,
                     hb_test_precision_name(p), (long long)i, v[i]);
            break;
        }
    free(v);
    free(r);
    free(ro);
    hb_cardiac_destroy(c);
    hb_cardiac_destroy(o);
    /* The batches keep their contexts until destroyed: these go last either way. */
    hb_context_destroy(ctx);
    hb_context_destroy(ora);
}

/* Bad calls: each refused with its code, the batch unchanged. */
static void refusals(void)
{
    hb_context *ctx = hb_test_context();
    hb_cardiac *c = NULL;
    int32_t m = -1;
    HB_CHECK_STATUS(hb_cardiac_model_find("no_such_model", &m), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK(m == -1, "model written on error");
    HB_CHECK_STATUS(hb_cardiac_model_find(cat[0].name, &m), HB_SUCCESS);
    HB_CHECK(m == 0, "model %d", (int)m);
    HB_CHECK_STATUS(hb_cardiac_create(ctx, HB_CARD_NMODELS, 4, HB_DOUBLE, 0.01, &c),
                    HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_cardiac_create(ctx, 0, 0, HB_DOUBLE, 0.01, &c), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_cardiac_create(ctx, 0, 4, HB_DOUBLE, -1, &c), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_cardiac_create(ctx, 0, 4, HB_DOUBLE, NAN, &c), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_cardiac_create(ctx, 0, 4, (hb_precision)7, 0.01, &c),
                    HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_cardiac_create(ctx, 0, INT64_MAX / 2, HB_DOUBLE, 0.01, &c),
                    HB_ERR_OUT_OF_MEMORY);
    HB_CHECK(c == NULL, "batch written on error");
    HB_CHECK_STATUS(hb_cardiac_create(ctx, 0, 4, HB_FLOAT, 0.01, &c), HB_SUCCESS);
    /* The batch keeps the context: released here, it lives until the batch goes. */
    hb_context_destroy(ctx);
    if (!c)
        return;
    const char *v = cat[0].states[0];
    double before[4], after[4], bad[4] = {-80, -80, -80, NAN};
    HB_CHECK_STATUS(hb_cardiac_get_state(c, v, before), HB_SUCCESS);
    HB_CHECK_STATUS(hb_cardiac_set_state(c, v, bad), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_cardiac_set_state(c, "no_state", before), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_cardiac_get_state(c, v, after), HB_SUCCESS);
    HB_CHECK(memcmp(before, after, sizeof before) == 0, "state changed by a refused call");
    HB_CHECK_STATUS(hb_cardiac_set_param(c, "no_param", 1), HB_ERR_INVALID_ARGUMENT);
    if (cat[0].nparam > 0) {
        HB_CHECK_STATUS(hb_cardiac_set_param(c, cat[0].params[0], INFINITY),
                        HB_ERR_INVALID_ARGUMENT);
        HB_CHECK_STATUS(hb_cardiac_set_param_cells(c, cat[0].params[0], bad),
                        HB_ERR_INVALID_ARGUMENT);
    }
    HB_CHECK_STATUS(hb_cardiac_set_protocol(c, 1, 0.005, 1, 100), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_cardiac_set_protocol(c, 1, 1, 0, 100), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_cardiac_set_protocol(c, 1, 1, 2, 1), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_cardiac_set_protocol(c, NAN, 1, 2, 100), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_cardiac_set_protocol(c, 1, -1, 2, 100), HB_ERR_INVALID_ARGUMENT);
    int64_t cells[2] = {1, 1}, far[1] = {4};
    const char *states[2] = {v, "nope"};
    HB_CHECK_STATUS(hb_cardiac_record(c, 2, cells, 1, states, 1), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_cardiac_record(c, 1, far, 1, states, 1), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_cardiac_record(c, 1, cells, 2, states, 1), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_cardiac_record(c, 1, cells, 1, states, 0), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_cardiac_run(c, -1), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_cardiac_set_fiber(c, 3, 1.2, 1400, 1, 0.01), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_cardiac_set_fiber(c, 1, 1.2, 1400, 1, 0.01), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_cardiac_set_fiber(c, 2, 0, 1400, 1, 0.01), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_cardiac_set_fiber(c, 2, 1.2, 1400, 1, NAN), HB_ERR_INVALID_ARGUMENT);
    int64_t rows = -1, cols = -1;
    HB_CHECK_STATUS(hb_cardiac_get_recording(c, NULL, 0, &rows, &cols), HB_SUCCESS);
    HB_CHECK(rows == 0 && cols == 0, "recording %lldx%lld after refused choices", (long long)rows,
             (long long)cols);
    /* No stimulus: the cells stay at rest (within 2 mV over 50 ms). */
    HB_CHECK_STATUS(hb_cardiac_run(c, 5000), HB_SUCCESS);
    HB_CHECK_STATUS(hb_cardiac_get_state(c, v, after), HB_SUCCESS);
    for (int i = 0; i < 4; ++i)
        HB_CHECK(fabs(after[i] - before[i]) < 2, "cell %d: %g mV -> %g mV unpaced", i, before[i],
                 after[i]);
    hb_cardiac_destroy(c);
    hb_cardiac_destroy(NULL);
}

/* Each parameter of each cell times (1 + 0.04 (u - 0.5)); the stimulus
 * amplitude parameter a charge of 40 to 60 uC/cm2 (the models' own:
 * Beeler-Reuter 25 x 2, Luo-Rudy 80 x 0.5) over the drawn duration, so that
 * every cell fires and none is driven far past its peak. */
static void fill_scale(setup *s, int32_t model)
{
    s->scale = hb_test_xalloc((size_t)(cat[model].nparam > 0 ? cat[model].nparam : 1) *
                              (size_t)s->n * sizeof(double));
    for (int64_t k = 0; k < (int64_t)cat[model].nparam * s->n; ++k)
        s->scale[k] = 1 + 0.04 * (hb_test_unit() - 0.5);
    for (int32_t k = 0; k < cat[model].nparam; ++k)
        if (cat[model].stim && strcmp(cat[model].params[k], cat[model].stim) == 0)
            for (int64_t i = 0; i < s->n; ++i)
                s->scale[(int64_t)k * s->n + i] =
                    (40 + 20 * hb_test_unit()) / s->dur / fabs(cat[model].defaults[k]);
}

int main(void)
{
    hb_test_begin("test_cardiac");
    refusals();
    for (int32_t model = 0; model < HB_CARD_NMODELS; ++model) {
        for (int pi = 0; pi < 2; ++pi) {
            hb_precision p = pi ? HB_FLOAT : HB_DOUBLE;
            setup s;
            s.n = hb_test_range(64, 257);
            s.dt = 0.01;
            s.start = 0.01 * (double)hb_test_range(100, 500);
            s.dur = 0.01 * (double)hb_test_range(50, 200);
            s.period = 0.01 * (double)hb_test_range(15000, 30000);
            s.nsteps = hb_test_range(25000, 35000);
            s.every = hb_test_range(2, 10);
            s.nsteps -= s.nsteps % s.every;
            s.nrec = 4;
            for (int j = 0; j < 4; ++j) {
                int again = 1;
                while (again) {
                    s.cells[j] = hb_test_range(0, s.n - 1);
                    again = 0;
                    for (int q = 0; q < j; ++q)
                        again |= s.cells[q] == s.cells[j];
                }
            }
            fill_scale(&s, model);
            s.fiber = 0;
            compare(model, p, &s);
            /* Fibers of 100 nodes (1 cm): the same draws, 100 ms, the
             * upstroke reaching the recorded nodes through the cable. */
            s.fiber = 100;
            s.n = 100 * hb_test_range(1, 3);
            s.nsteps = 10000 - 10000 % s.every;
            s.period = 0;
            for (int j = 0; j < 4; ++j)
                s.cells[j] = (j % 2 ? 90 : 20 + 10 * j) + 100 * hb_test_range(0, s.n / 100 - 1);
            s.cells[1] = s.cells[0] / 100 * 100 + 90;
            s.cells[3] = s.cells[2] / 100 * 100 + 95;
            if (s.cells[2] == s.cells[0])
                s.cells[2] += 1;
            free(s.scale);
            fill_scale(&s, model);
            compare(model, p, &s);
            free(s.scale);
        }
    }
    return hb_test_finish();
}
