/* hb_test_util.c: shared test helpers (see hb_test_util.h). */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv, strdup */
#include "hb_test_util.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int hb_test_failures = 0;
int hb_test_checks = 0;
static uint64_t state;
static const char *test_name = "test";

double hb_test_seconds(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static const char *const env_vars[] = {"HINESBATCH_BACKEND", "HINESBATCH_STRATEGY",
                                       "HINESBATCH_DEVICE", "HINESBATCH_OPENCL_PLATFORM",
                                       "HINESBATCH_COOP_SPAN", "HINESBATCH_EPOCH_STAGE",
                                       "HINESBATCH_COOP_RESIDENT_LIMIT", "HINESBATCH_COOP_WARP"};
#define HB_TEST_NENV ((int)(sizeof env_vars / sizeof env_vars[0]))
static char *env_saved[HB_TEST_NENV];

void hb_test_env_save(void)
{
    for (int i = 0; i < HB_TEST_NENV; ++i) {
        const char *v = getenv(env_vars[i]);
        env_saved[i] = v ? strdup(v) : NULL;
    }
}

void hb_test_env_restore(void)
{
    for (int i = 0; i < HB_TEST_NENV; ++i)
        if (env_saved[i])
            setenv(env_vars[i], env_saved[i], 1);
        else
            unsetenv(env_vars[i]);
}

void hb_test_env_free(void)
{
    for (int i = 0; i < HB_TEST_NENV; ++i) {
        free(env_saved[i]);
        env_saved[i] = NULL;
    }
}

uint64_t hb_test_begin(const char *name)
{
    test_name = name;
    const char *env = getenv("HB_TEST_SEED");
    uint64_t seed = env && env[0] ? strtoull(env, NULL, 10)
                                  : (uint64_t)time(NULL) ^ ((uint64_t)clock() << 32);
    state = seed;
    printf("%s: seed %llu (replay with HB_TEST_SEED=%llu), backend %s\n", name,
           (unsigned long long)seed, (unsigned long long)seed,
           getenv("HINESBATCH_BACKEND") ? getenv("HINESBATCH_BACKEND") : "(auto)");
    return seed;
}

uint64_t hb_test_rand(void)
{
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

double hb_test_unit(void) { return (double)(hb_test_rand() >> 11) * 0x1.0p-53; }

int64_t hb_test_range(int64_t lo, int64_t hi)
{
    return lo + (int64_t)(hb_test_rand() % (uint64_t)(hi - lo + 1));
}

/* ---- Contexts ------------------------------------------------------------- */

hb_context *hb_test_backend_context(hb_backend backend)
{
    hb_context *ctx = NULL;
    hb_status st = hb_context_create(backend, &ctx);
    if (st == HB_SUCCESS) {
        printf("%s: context %s\n", test_name, hb_context_describe(ctx));
        return ctx;
    }
    char why[1024];
    snprintf(why, sizeof why, "%s", hb_last_error());
    /* The backend asked for: AUTO stands for HINESBATCH_BACKEND. */
    hb_backend want = backend;
    if (want == HB_BACKEND_AUTO && hb_backend_from_name(getenv("HINESBATCH_BACKEND"), &want))
        want = HB_BACKEND_AUTO;
    const char *skip = getenv("HB_TEST_ALLOW_SKIP");
    if (st == HB_ERR_BACKEND_UNAVAILABLE && skip && !strcmp(skip, "1") &&
        want != HB_BACKEND_AUTO && hb_backend_compiled(want) && hb_test_failures == 0) {
        printf("%s: SKIPPED: %s is compiled in but has no device here: %s\n", test_name,
               hb_backend_name(want), why);
        exit(77);
    }
    fprintf(stderr, "%s: cannot open the backend %s: %s: %s\n", test_name,
            hb_backend_name(want), hb_status_string(st), why);
    if (hb_test_failures)
        fprintf(stderr, "%s: and %d checks had failed before\n", test_name, hb_test_failures);
    exit(1);
}

hb_context *hb_test_context(void) { return hb_test_backend_context(HB_BACKEND_AUTO); }

hb_morph_cell *hb_test_load_swc(const char *name, const hb_discretize_options *opts)
{
    char path[512];
    snprintf(path, sizeof path, "%s/morphologies/%s", HB_DATA_DIR, name);
    hb_morph *m = NULL;
    hb_morph_cell *c = NULL;
    if (hb_morph_read_swc(path, NULL, &m) != HB_SUCCESS ||
        hb_morph_cell_create(m, opts, NULL, &c) != HB_SUCCESS) {
        fprintf(stderr, "cannot load %s: %s\n", path, hb_last_error());
        exit(1);
    }
    hb_morph_destroy(m);
    return c;
}

hb_morph_cell *hb_test_load_sections(const char *name, int nseg)
{
    hb_discretize_options o;
    hb_discretize_options_init(&o);
    o.policy = HB_POLICY_SECTION;
    o.nseg = nseg;
    return hb_test_load_swc(name, &o);
}

int64_t hb_test_cell_rows(const hb_morph_cell *cell)
{
    hb_morph_cell_view v;
    return hb_morph_cell_get_view(cell, &v) == HB_SUCCESS ? v.n : 0;
}

hb_context *hb_test_oracle(void)
{
    hb_context *ctx = NULL;
    if (hb_context_create(HB_BACKEND_SERIAL, &ctx) != HB_SUCCESS) {
        fprintf(stderr, "%s: cannot open the serial oracle: %s\n", test_name, hb_last_error());
        exit(1);
    }
    return ctx;
}

int hb_test_host_backend(hb_backend b) { return b == HB_BACKEND_SERIAL || b == HB_BACKEND_OPENMP; }

int hb_test_on_host(const hb_context *ctx) { return hb_test_host_backend(hb_context_backend(ctx)); }

void hb_test_require_sim(hb_context *ctx)
{
    int32_t root = -1;
    hb_morph_cell *cell = NULL;
    hb_sim *sim = NULL;
    hb_status st = hb_morph_cell_from_parent(1, &root, 10.0, 10.0, NULL, &cell);
    const hb_morph_cell *cells[1] = {cell};
    if (st == HB_SUCCESS)
        st = hb_sim_create(ctx, cells, 1, NULL, &sim);
    if (st != HB_SUCCESS) {
        fprintf(stderr, "FAIL: %s: %s\n", hb_status_string(st), hb_last_error());
        exit(1);
    }
    hb_sim_destroy(sim);
    hb_morph_cell_destroy(cell);
}

/* ---- The tolerance policy -------------------------------------------------- */

/* What the comparisons saw, printed by hb_test_finish. */
static struct {
    int bitwise, ulp, normwise;
    int64_t ulp_elements, ulp_differ;
    double worst_ulp, worst_norm;
} seen;

int hb_test_finish(void)
{
    if (seen.bitwise + seen.ulp + seen.normwise)
        printf("%s: oracle comparisons: %d bit-identical; %d within %g ulp (largest distance %g "
               "ulp, %lld of %lld elements not identical); %d normwise (largest %.3g of the "
               "bound)\n",
               test_name, seen.bitwise, seen.ulp, HB_TEST_ULP_MAX, seen.worst_ulp,
               (long long)seen.ulp_differ, (long long)seen.ulp_elements, seen.normwise,
               seen.worst_norm);
    printf("%s: %d checks\n", test_name, hb_test_checks);
    printf("%d passed, %d failed\n", hb_test_checks - hb_test_failures, hb_test_failures);
    return hb_test_failures == 0 ? 0 : 1;
}

static double val(hb_precision p, const void *v, int64_t k)
{
    return p == HB_DOUBLE ? ((const double *)v)[k] : (double)((const float *)v)[k];
}

double hb_test_diff_bound(hb_precision p)
{
    return p == HB_DOUBLE ? HB_TEST_DIFF_DOUBLE : HB_TEST_DIFF_FLOAT;
}

/* The largest distance in ulp (of the oracle's element) and where. */
static double worst_ulp(hb_precision p, int64_t n, const void *x, const void *ref, int64_t *at,
                        int64_t *differ)
{
    double worst = 0, eps = p == HB_DOUBLE ? 0x1p-52 : 0x1p-23;
    double tiny = p == HB_DOUBLE ? 0x1p-1074 : 0x1p-149;
    *at = -1;
    *differ = 0;
    for (int64_t k = 0; k < n; ++k) {
        double a = val(p, x, k), b = val(p, ref, k);
        *differ += !(a == b);
        double ulp = fabs(b) > 0 ? fmax(eps * pow(2.0, floor(log2(fabs(b)))), tiny) : tiny;
        double e = fabs(a - b) / ulp;
        if (!(e <= worst)) { /* NaN counts as the worst */
            worst = isnan(e) ? INFINITY : e;
            *at = k;
        }
    }
    return worst;
}

int hb_test_compare_to_oracle(hb_backend backend, int same_order, hb_precision p, int64_t nsys,
                              const int64_t *off, const void *x, const void *ref, const char *what)
{
    int64_t n = off[nsys];
    if (same_order && hb_test_host_backend(backend)) {
        ++seen.bitwise;
        int ok = hb_test_bitequal(x, ref, (size_t)n * hb_test_esize(p));
        HB_CHECK(ok, "%s: not bit-identical to the serial oracle on %s (max rel diff %g)", what,
                 hb_backend_name(backend), hb_test_max_rel_diff(p, nsys, off, x, ref));
        return ok;
    }
    if (same_order) {
        int64_t at, differ;
        double w = worst_ulp(p, n, x, ref, &at, &differ);
        ++seen.ulp;
        seen.ulp_elements += n;
        seen.ulp_differ += differ;
        seen.worst_ulp = fmax(seen.worst_ulp, w);
        /* One line per comparison: GPU runs count the bit-identical ones (ci/gpu.sh). */
        printf("%s: %lld of %lld elements differ from the oracle, worst %g ulp\n", what,
               (long long)differ, (long long)n, w);
        HB_CHECK(w <= HB_TEST_ULP_MAX,
                 "%s: %g ulp from the oracle at flat row %lld (%lld of %lld elements differ; "
                 "bound %g ulp)",
                 what, w, (long long)at, (long long)differ, (long long)n, HB_TEST_ULP_MAX);
        return w <= HB_TEST_ULP_MAX;
    }
    double diff = hb_test_max_rel_diff(p, nsys, off, x, ref), bound = hb_test_diff_bound(p);
    ++seen.normwise;
    seen.worst_norm = fmax(seen.worst_norm, diff / bound);
    HB_CHECK(diff <= bound, "%s: differs from the oracle (another order) by %g > %g normwise", what,
             diff, bound);
    return diff <= bound;
}

/* gap[j]: samples from j to the nearest sample of v above
 * HB_TEST_SIM_EXCURSION_MV (INT64_MAX where none), a pass each way. */
static void excursion_gaps(const double *v, int64_t ns, int64_t *gap)
{
    int64_t last = -1;
    for (int64_t j = 0; j < ns; ++j) {
        if (v[j] > HB_TEST_SIM_EXCURSION_MV)
            last = j;
        gap[j] = last < 0 ? INT64_MAX : j - last;
    }
    last = -1;
    for (int64_t j = ns - 1; j >= 0; --j) {
        if (v[j] > HB_TEST_SIM_EXCURSION_MV)
            last = j;
        if (last >= 0 && last - j < gap[j])
            gap[j] = last - j;
    }
}

/* Whether cell c's first unpaired spike (index k: the earlier of the two
 * runs' k-th) fired in one run only by where the threshold fell: within the
 * window of it, both traces agree within HB_TEST_SIM_GRAZE_MV and the other
 * run's comes within that of the threshold (a peak just below it, or a
 * trough that stayed just above it after the spike before). A spike lost or
 * added by a fault parts the traces by tens of mV there. */
static int graze(const hb_test_sim_run *x, const hb_test_sim_run *ref, int64_t c, int64_t k,
                 int64_t ns)
{
    const double *tx = x->times + c * x->max_times, *tr = ref->times + c * ref->max_times;
    const int hx = k < x->count[c], hr = k < ref->count[c];
    if (!hx && !hr)
        return 0;
    /* The spike: the run whose k-th comes first (or the only one). */
    const int in_x = hx && (!hr || tx[k] < tr[k]);
    const double ts = in_x ? tx[k] : tr[k];
    const double *vo = (in_x ? ref->trace : x->trace) + c * ns;
    const double *vs = (in_x ? x->trace : ref->trace) + c * ns;
    const int64_t lo = (int64_t)fmax(0.0, floor((ts - HB_TEST_SIM_SPIKE_WINDOW) / ref->dt)),
                  hi = (int64_t)fmin((double)ns, ceil((ts + HB_TEST_SIM_SPIKE_WINDOW) / ref->dt) + 1);
    double apart = 0, near = INFINITY;
    for (int64_t j = lo; j < hi; ++j) {
        apart = fmax(apart, fabs(vs[j] - vo[j]));
        near = fmin(near, fabs(vo[j] - ref->threshold));
    }
    return lo < hi && apart <= HB_TEST_SIM_GRAZE_MV && near <= HB_TEST_SIM_GRAZE_MV;
}

void hb_test_compare_sim(hb_backend backend, int same_order, hb_precision p,
                         const hb_test_sim_run *x, const hb_test_sim_run *ref, const char *what)
{
    HB_CHECK(x->ncells == ref->ncells && x->nsamples == ref->nsamples, "%s: sizes differ", what);
    if (x->ncells != ref->ncells || x->nsamples != ref->nsamples)
        return;
    int64_t ns = x->nsamples;
    if (same_order && hb_test_host_backend(backend)) {
        ++seen.bitwise;
        HB_CHECK(hb_test_bitequal(x->trace, ref->trace, (size_t)(x->ncells * ns) * sizeof(double)),
                 "%s: traces not bit-identical to the serial backend", what);
    }
    double worst_v = 0, worst_t = 0;
    /* Float: per sample, the distance in samples to the nearest one above
     * HB_TEST_SIM_EXCURSION_MV, in each trace. */
    int64_t *gx = p == HB_FLOAT && ns > 0 ? malloc(2 * (size_t)ns * sizeof *gx) : NULL;
    int64_t *gr = gx ? gx + ns : NULL;
    HB_CHECK(p != HB_FLOAT || ns == 0 || gx, "%s: out of memory", what);
    const int64_t wide = (int64_t)(HB_TEST_SIM_SPIKE_WINDOW / ref->dt);
    for (int64_t c = 0; c < x->ncells; ++c) {
        const double *vx = x->trace + c * ns, *vr = ref->trace + c * ns;
        /* A depolarisation in one run that the other has nowhere within the
         * window (fired in one, failed in the other): from there on the runs
         * have parted at an all-or-none event, and their voltages are not
         * compared (spike counts and times still are). */
        int64_t upto = ns;
        if (gx) {
            excursion_gaps(vx, ns, gx);
            excursion_gaps(vr, ns, gr);
            for (int64_t j = 0; j < ns && upto == ns; ++j)
                if ((vx[j] > HB_TEST_SIM_EXCURSION_MV && gr[j] > wide) ||
                    (vr[j] > HB_TEST_SIM_EXCURSION_MV && gx[j] > wide))
                    upto = j > wide ? j - wide : 0;
            /* Both runs start from rest together: parting within the first
             * window is no rounding difference (a run that starts
             * depolarised would otherwise skip every comparison). */
            HB_CHECK(upto > 0, "%s: cell %lld: above %g mV within %g ms of the start in one run "
                     "only", what, (long long)c, HB_TEST_SIM_EXCURSION_MV,
                     HB_TEST_SIM_SPIKE_WINDOW);
            if (upto < ns)
                printf("%s: cell %lld: voltages compared up to %g ms (a depolarisation above %g "
                       "mV in one run only at %g ms)\n", what, (long long)c,
                       (double)upto * ref->dt, HB_TEST_SIM_EXCURSION_MV,
                       (double)(upto + wide) * ref->dt);
        }
        int64_t nx = x->count[c], nr = ref->count[c];
        const double *tx = x->times + c * x->max_times, *tr = ref->times + c * ref->max_times;
        /* Spikes paired in order while their times agree within the window. */
        int64_t paired = 0;
        while (paired < nx && paired < nr && paired < x->max_times && paired < ref->max_times &&
               fabs(tx[paired] - tr[paired]) <= HB_TEST_SIM_SPIKE_WINDOW)
            ++paired;
        if (nx != nr && p == HB_FLOAT && paired < x->max_times && paired < ref->max_times &&
            graze(x, ref, c, paired, ns)) {
            printf("%s: cell %lld: %lld spikes, serial %lld: traces within %g mV where one "
                   "crosses the threshold and the other does not; spike times compared up to "
                   "there\n",
                   what, (long long)c, (long long)nx, (long long)nr, HB_TEST_SIM_GRAZE_MV);
            nx = nr = paired;
        }
        HB_CHECK(nx == nr, "%s: cell %lld: %lld spikes, serial %lld", what, (long long)c,
                 (long long)nx, (long long)nr);
        for (int64_t k = 0; k < nx && k < nr && k < x->max_times && k < ref->max_times; ++k)
            worst_t = fabs(tx[k] - tr[k]) <= worst_t ? worst_t : fabs(tx[k] - tr[k]);
        for (int64_t j = 0; j < upto; ++j) {
            int near = gx && (gx[j] <= wide || gr[j] <= wide);
            for (int64_t k = 0; p == HB_FLOAT && k < nr && k < ref->max_times; ++k)
                near |= fabs((double)j * ref->dt - tr[k]) <= HB_TEST_SIM_SPIKE_WINDOW;
            double e = fabs(vx[j] - vr[j]);
            if (!near && !(e <= worst_v))
                worst_v = isnan(e) ? INFINITY : e;
        }
    }
    free(gx);
    double mv = HB_TEST_SIM_MV(p, same_order), ms = HB_TEST_SIM_MS(p, same_order);
    printf("%s: largest difference from the serial backend: %g mV, %g ms (bounds %g, %g)\n", what,
           worst_v, worst_t, mv, ms);
    HB_CHECK(worst_t <= ms, "%s: spike times differ by %g ms > %g", what, worst_t, ms);
    HB_CHECK(worst_v <= mv, "%s: soma voltages differ by %g mV > %g (%s order)", what, worst_v, mv,
             same_order ? "same" : "another");
}

/* ---- Plans ------------------------------------------------------------------ */

int64_t hb_test_cell_fallback_rows(hb_context *ctx, hb_precision p, int shared,
                                   hb_strategy instead)
{
    for (int64_t n = 1024; n <= ((int64_t)1 << 22); n *= 2) {
        int32_t *parent = hb_test_xalloc((size_t)n * sizeof *parent);
        hb_test_tree(parent, n, HB_TREE_CHAIN);
        hb_plan_options o;
        hb_plan_options_init(&o);
        o.strategy = HB_STRATEGY_CELL_GROUP;
        o.shared_couplings = shared;
        hb_plan *plan = NULL;
        const hb_status st = hb_plan_create_hines_uniform(ctx, p, 1, n, parent, &o, &plan);
        free(parent);
        HB_CHECK_STATUS(st, HB_SUCCESS);
        const int fell = st == HB_SUCCESS && hb_test_plan_info(plan).strategy == instead;
        hb_plan_destroy(plan);
        if (st != HB_SUCCESS)
            return 0;
        if (fell)
            return n;
    }
    return 0;
}

hb_plan_info hb_test_plan_info(const hb_plan *plan)
{
    hb_plan_info in;
    memset(&in, 0, sizeof in);
    hb_status st = hb_plan_get_info(plan, &in);
    HB_CHECK(st == HB_SUCCESS, "hb_plan_get_info: %s (%s)", hb_status_string(st), hb_last_error());
    if (st != HB_SUCCESS)
        memset(&in, 0, sizeof in);
    return in;
}

/* Branches and levels of the batch's trees, counted by hb_morph_tree_stats. */
static void tree_counts(int64_t nsys, const int64_t *off, const int32_t *parent, int64_t *branches,
                        int64_t *levels)
{
    *branches = *levels = 0;
    for (int64_t s = 0; s < nsys; ++s) {
        hb_tree_stats ts;
        memset(&ts, 0, sizeof ts);
        HB_CHECK_STATUS(hb_morph_tree_stats(off[s + 1] - off[s], parent + off[s], &ts), HB_SUCCESS);
        *branches += ts.branches;
        *levels = ts.levels > *levels ? ts.levels : *levels;
    }
}

#define INFO_IS(field, want)                                                                  \
    HB_CHECK(in.field == (want), "%s: hb_plan_info." #field " = %lld, expected %lld (%s)", what, \
             (long long)in.field, (long long)(want), hb_plan_describe(plan))

void hb_test_check_info(const hb_plan *plan, const hb_context *ctx, hb_precision p, int64_t nsys,
                        const int64_t *off, const int32_t *parent, const hb_plan_options *o,
                        const char *what)
{
    hb_plan_options def;
    if (!o) {
        hb_plan_options_init(&def);
        o = &def;
    }
    hb_plan_info in = hb_test_plan_info(plan);
    int64_t max_rows = 0;
    int variable = 0, shared = parent != NULL;
    for (int64_t s = 0; s < nsys; ++s) {
        int64_t n = off[s + 1] - off[s], n0 = off[1] - off[0];
        max_rows = n > max_rows ? n : max_rows;
        variable |= n != n0;
        shared = shared && n == n0 &&
                 !memcmp(parent + off[s], parent, (size_t)n0 * sizeof *parent);
    }
    INFO_IS(backend, hb_context_backend(ctx));
    INFO_IS(precision, p);
    INFO_IS(hines, parent != NULL);
    INFO_IS(shared_tree, shared);
    INFO_IS(shared_couplings, o->shared_couplings);
    INFO_IS(nsys, nsys);
    INFO_IS(nrows, off[nsys]);
    INFO_IS(max_rows, max_rows);
    INFO_IS(variable, variable);
    /* AUTO is per-system with an explicit layout and on host backends; a GPU
     * may pick a branch or cell strategy for Hines plans, and the cooperative
     * solver for tridiagonal ones (docs/strategies.md). */
    hb_strategy want = o->strategy != HB_STRATEGY_AUTO ? o->strategy
                       : o->layout != HB_LAYOUT_AUTO || hb_test_on_host(ctx)
                           ? HB_STRATEGY_PER_SYSTEM
                       : !parent && in.strategy != HB_STRATEGY_COOPERATIVE
                           ? HB_STRATEGY_PER_SYSTEM
                           : in.strategy;
    /* cell-group runs the fine tree where a cell does not fit local memory,
     * and says so. */
    if (want == HB_STRATEGY_CELL_GROUP && in.strategy == HB_STRATEGY_FINE_TREE) {
        HB_CHECK(strstr(hb_plan_describe(plan), "cell-group: a cell of") != NULL,
                 "%s: cell-group ran the fine tree without saying why (%s)", what,
                 hb_plan_describe(plan));
        want = HB_STRATEGY_FINE_TREE;
    }
    HB_CHECK(in.strategy == want && in.strategy != HB_STRATEGY_AUTO,
             "%s: strategy %s, expected %s (%s)", what, hb_strategy_name(in.strategy),
             hb_strategy_name(want), hb_plan_describe(plan));
    if (in.strategy == HB_STRATEGY_PER_SYSTEM) {
        int padded = variable && in.layout != HB_LAYOUT_FLAT;
        int blocky = in.layout == HB_LAYOUT_BLOCK_INTERLEAVED || in.layout == HB_LAYOUT_BLOCK_SHARED;
        HB_CHECK(o->layout == HB_LAYOUT_AUTO ? in.layout != HB_LAYOUT_AUTO : in.layout == o->layout,
                 "%s: layout %s, asked for %s (%s)", what, hb_layout_name(in.layout),
                 hb_layout_name(o->layout), hb_plan_describe(plan));
        HB_CHECK(blocky ? in.block_size == (o->block_size > 0 ? o->block_size : in.block_size) &&
                              in.block_size > 0
                        : in.block_size == 0,
                 "%s: block_size %d, asked for %d in %s (%s)", what, (int)in.block_size,
                 (int)o->block_size, hb_layout_name(in.layout), hb_plan_describe(plan));
        INFO_IS(padding, !padded ? HB_PADDING_AUTO
                         : o->padding == HB_PADDING_AUTO ? HB_PADDING_SKIP
                                                         : o->padding);
        INFO_IS(sorted, padded);
        /* hb_plan_layout_info tells the same story. */
        hb_layout_info li;
        memset(&li, 0, sizeof li);
        HB_CHECK_STATUS(hb_plan_layout_info(plan, &li), HB_SUCCESS);
        HB_CHECK(li.layout == in.layout && li.block_size == in.block_size && li.nsys == nsys &&
                     li.precision == p && li.padded == padded,
                 "%s: hb_plan_layout_info (%s, bs %d, %lld systems, padded %d) disagrees with "
                 "hb_plan_get_info (%s, bs %d, padded %d)",
                 what, hb_layout_name(li.layout), (int)li.block_size, (long long)li.nsys,
                 (int)li.padded, hb_layout_name(in.layout), (int)in.block_size, padded);
        INFO_IS(nbranches, 0);
        INFO_IS(nlevels, 0);
        INFO_IS(ngroups, 0);
        INFO_IS(group_size, 0);
        INFO_IS(rerooted, 0);
        INFO_IS(split, 0);
        INFO_IS(resident, 0);
        INFO_IS(systems_per_group, 0);
        INFO_IS(local_bytes, 0);
        return;
    }
    if (in.strategy == HB_STRATEGY_CELL_GROUP) {
        /* Flat layout, one group per cell, levels of the deepest tree. */
        INFO_IS(layout, HB_LAYOUT_FLAT);
        INFO_IS(block_size, 0);
        INFO_IS(padding, HB_PADDING_AUTO);
        INFO_IS(sorted, 0);
        INFO_IS(nbranches, 0);
        INFO_IS(ngroups, nsys);
        INFO_IS(rerooted, 0);
        INFO_IS(split, 0);
        HB_CHECK(in.group_size >= 1 && (o->group_size <= 0 || in.group_size <= o->group_size),
                 "%s: group_size %d, asked for %d (%s)", what, (int)in.group_size,
                 (int)o->group_size, hb_plan_describe(plan));
        HB_CHECK(nsys == 0 || (in.nlevels >= 1 && in.nlevels <= max_rows),
                 "%s: nlevels %lld for cells of up to %lld rows (%s)", what,
                 (long long)in.nlevels, (long long)max_rows, hb_plan_describe(plan));
        HB_CHECK(strstr(hb_plan_describe(plan), "cell-group") != NULL,
                 "%s: the description does not say cell-group (%s)", what,
                 hb_plan_describe(plan));
        return;
    }
    if (in.strategy == HB_STRATEGY_COOPERATIVE) {
        /* Flat layout; staged: one group per system of (at most) the size
         * asked; resident: systems_per_group systems of that size per group. */
        INFO_IS(layout, HB_LAYOUT_FLAT);
        INFO_IS(block_size, 0);
        INFO_IS(padding, HB_PADDING_AUTO);
        INFO_IS(sorted, 0);
        INFO_IS(nbranches, 0);
        INFO_IS(nlevels, 0);
        HB_CHECK(in.systems_per_group >= 1 && (in.resident || in.systems_per_group == 1),
                 "%s: %d systems per group, resident %d (%s)", what, (int)in.systems_per_group,
                 (int)in.resident, hb_plan_describe(plan));
        /* Resident: ceil(nsys / S) groups; else nsys x G groups, G > 1 being
         * the span variant, which the description names. */
        const int span = strstr(hb_plan_describe(plan), "span:") != NULL;
        if (in.resident || !span)
            INFO_IS(ngroups, (nsys + in.systems_per_group - 1) / in.systems_per_group);
        else
            HB_CHECK(nsys > 0 && in.ngroups > nsys && in.ngroups % nsys == 0,
                     "%s: %lld groups for %lld systems (%s)", what, (long long)in.ngroups,
                     (long long)nsys, hb_plan_describe(plan));
        /* The register kernel (CUDA) alone uses no local memory. */
        const int regs = in.rows_per_item > 0;
        HB_CHECK(regs ? in.local_bytes == 0 && in.resident : in.local_bytes > 0,
                 "%s: local_bytes %lld, %d rows per work-item (%s)", what,
                 (long long)in.local_bytes, (int)in.rows_per_item, hb_plan_describe(plan));
        HB_CHECK(in.group_size >= 1 && (o->group_size <= 0 || in.group_size <= o->group_size),
                 "%s: group_size %d, asked for %d (%s)", what, (int)in.group_size,
                 (int)o->group_size, hb_plan_describe(plan));
        const char *variant = regs          ? "registers"
                              : in.resident ? "resident"
                              : span        ? "span"
                                            : "staged";
        HB_CHECK(strstr(hb_plan_describe(plan), "cooperative") != NULL &&
                     strstr(hb_plan_describe(plan), variant) != NULL,
                 "%s: the description does not say cooperative, %s (%s)", what, variant,
                 hb_plan_describe(plan));
        return;
    }
    /* Branch strategies: rows by branch, each chunk of branches padded to its
     * longest and the padding skipped. */
    int fine = in.strategy == HB_STRATEGY_FINE_TREE, built = nsys > 0;
    INFO_IS(layout, HB_LAYOUT_AUTO);
    INFO_IS(block_size, 0);
    INFO_IS(padding, HB_PADDING_SKIP);
    INFO_IS(sorted, 0);
    INFO_IS(rerooted, built && o->reroot);
    INFO_IS(split, built && o->split_branches);
    INFO_IS(group_size, built && fine ? (o->group_size > 0 ? o->group_size : 128) : 0);
    int64_t branches = 0, levels = 0;
    if (parent)
        tree_counts(nsys, off, parent, &branches, &levels);
    if (!o->reroot && !o->split_branches) {
        /* The trees as given: the branches and levels hb_morph_tree_stats counts. */
        INFO_IS(nbranches, branches);
        INFO_IS(nlevels, fine ? 0 : levels);
    } else {
        /* Re-rooting turns branches round, splitting cuts them. */
        HB_CHECK(in.nbranches >= nsys && in.nbranches <= off[nsys] &&
                     (fine ? in.nlevels == 0 : in.nlevels >= (nsys > 0)),
                 "%s: %lld branches, %lld levels for %lld systems of %lld rows (%s)", what,
                 (long long)in.nbranches, (long long)in.nlevels, (long long)nsys,
                 (long long)off[nsys], hb_plan_describe(plan));
        if (o->split_branches && !o->reroot)
            HB_CHECK(in.nbranches >= branches, "%s: split into %lld branches, fewer than %lld",
                     what, (long long)in.nbranches, (long long)branches);
    }
    HB_CHECK(fine ? in.ngroups >= (nsys > 0) && in.ngroups <= nsys : in.ngroups == 0,
             "%s: %lld groups for %lld systems (%s)", what, (long long)in.ngroups, (long long)nsys,
             hb_plan_describe(plan));
}

/* ---- Comparisons and arrays ------------------------------------------------ */

double hb_test_max_rel_diff(hb_precision p, int64_t nsys, const int64_t *offsets, const void *x,
                            const void *y)
{
    double worst = 0;
    for (int64_t s = 0; s < nsys; ++s) {
        double dn = 0, yn = 0;
        for (int64_t k = offsets[s]; k < offsets[s + 1]; ++k) {
            double diff = fabs(val(p, x, k) - val(p, y, k));
            if (isnan(diff))
                return INFINITY;
            dn = fmax(dn, diff);
            yn = fmax(yn, fabs(val(p, y, k)));
        }
        double r = yn > 0 ? dn / yn : dn;
        if (r > worst)
            worst = r;
    }
    return worst;
}

int hb_test_bitequal(const void *x, const void *y, size_t bytes) { return !memcmp(x, y, bytes); }

void hb_test_poison(hb_precision p, void *x, int64_t n)
{
    for (int64_t k = 0; k < n; ++k)
        hb_test_put(p, x, k, NAN);
}

double hb_test_get(hb_precision p, const void *x, int64_t k) { return val(p, x, k); }

void hb_test_put(hb_precision p, void *x, int64_t k, double v)
{
    if (p == HB_DOUBLE)
        ((double *)x)[k] = v;
    else
        ((float *)x)[k] = (float)v;
}

size_t hb_test_esize(hb_precision p) { return p == HB_DOUBLE ? sizeof(double) : sizeof(float); }

const char *hb_test_precision_name(hb_precision p) { return p == HB_DOUBLE ? "double" : "float"; }

void *hb_test_xalloc(size_t bytes)
{
    void *m = calloc(1, bytes ? bytes : 1);
    if (!m) {
        fprintf(stderr, "%s: out of host memory (%zu bytes)\n", test_name, bytes);
        exit(1);
    }
    return m;
}

void *hb_test_alloc(hb_precision p, int64_t n)
{
    return hb_test_xalloc((size_t)(n > 0 ? n : 1) * hb_test_esize(p));
}

/* ---- Random test batches ------------------------------------------------- */

int64_t *hb_test_offsets_uniform(int64_t nsys, int64_t n)
{
    int64_t *off = hb_test_xalloc((size_t)(nsys + 1) * sizeof *off);
    for (int64_t s = 0; s <= nsys; ++s)
        off[s] = s * n;
    return off;
}

int64_t *hb_test_offsets_random(int64_t nsys, int64_t lo, int64_t hi)
{
    int64_t *off = hb_test_xalloc((size_t)(nsys + 1) * sizeof *off);
    int64_t slo = nsys >= 2 ? hb_test_range(0, nsys - 1) : -1, shi = slo;
    while (nsys >= 2 && shi == slo)
        shi = hb_test_range(0, nsys - 1);
    for (int64_t s = 0; s < nsys; ++s) {
        /* Log-uniform sizes: short systems are common, long ones present. */
        double span = log((double)hi + 1) - log((double)lo);
        int64_t n = (int64_t)(exp(log((double)lo) + span * hb_test_unit()));
        n = n < lo ? lo : n > hi ? hi : n;
        off[s + 1] = off[s] + (s == slo ? lo : s == shi ? hi : n);
    }
    return off;
}

const char *hb_test_tree_name(hb_test_tree_kind kind)
{
    static const char *const names[] = {"chain", "star", "binary", "random", "neuron"};
    return kind < HB_TREE_KINDS ? names[kind] : "?";
}

void hb_test_tree(int32_t *parent, int64_t n, hb_test_tree_kind kind)
{
    if (n <= 0)
        return;
    parent[0] = -1;
    for (int64_t i = 1; i < n; ++i) {
        switch (kind) {
        case HB_TREE_CHAIN: parent[i] = (int32_t)(i - 1); break;
        case HB_TREE_STAR: parent[i] = 0; break;
        case HB_TREE_BINARY: parent[i] = (int32_t)((i - 1) / 2); break;
        case HB_TREE_RANDOM: parent[i] = (int32_t)hb_test_range(0, i - 1); break;
        default:
            parent[i] = hb_test_unit() < 0.98 ? (int32_t)(i - 1) : (int32_t)hb_test_range(0, i - 1);
        }
    }
}

static double sym_unit(void) { return 2.0 * hb_test_unit() - 1.0; }
static double diag_of(double offsum) { return (hb_test_unit() < 0.5 ? -1 : 1) * (offsum + 0.5 + hb_test_unit()); }

void hb_test_tridiag_random(hb_precision p, int64_t nsys, const int64_t *off, void *a, void *b,
                            void *c, void *rhs, double scale)
{
    for (int64_t s = 0; s < nsys; ++s) {
        for (int64_t k = off[s]; k < off[s + 1]; ++k) {
            /* Ignored entries (a of the first row, c of the last) get junk:
             * the solver must not read them. */
            double av = sym_unit(), cv = sym_unit();
            double sum = (k > off[s] ? fabs(av) : 0) + (k + 1 < off[s + 1] ? fabs(cv) : 0);
            hb_test_put(p, a, k, av * scale);
            hb_test_put(p, c, k, cv * scale);
            hb_test_put(p, b, k, diag_of(sum) * scale);
            hb_test_put(p, rhs, k, sym_unit() * scale);
        }
    }
}

void hb_test_hines_random(hb_precision p, int64_t nsys, const int64_t *off, const int32_t *parent,
                          void *u, void *l, void *d, void *rhs, double scale)
{
    int64_t maxn = 0;
    for (int64_t s = 0; s < nsys; ++s)
        if (off[s + 1] - off[s] > maxn)
            maxn = off[s + 1] - off[s];
    double *sum = hb_test_xalloc((size_t)(maxn + 1) * sizeof *sum);
    for (int64_t s = 0; s < nsys; ++s) {
        int64_t lo = off[s], n = off[s + 1] - lo;
        for (int64_t i = 0; i < n; ++i)
            sum[i] = 0;
        for (int64_t i = 0; i < n; ++i) {
            double uv = sym_unit(), lv = sym_unit();
            hb_test_put(p, u, lo + i, uv * scale);
            hb_test_put(p, l, lo + i, lv * scale);
            if (i > 0) {
                sum[i] += fabs(lv);                /* A[i][p] = l[i]  */
                sum[parent[lo + i]] += fabs(uv);   /* A[p][i] = u[i]  */
            }
        }
        for (int64_t i = 0; i < n; ++i) {
            hb_test_put(p, d, lo + i, diag_of(sum[i]) * scale);
            hb_test_put(p, rhs, lo + i, sym_unit() * scale);
        }
    }
    free(sum);
}

static long double ldv(hb_precision p, const void *v, int64_t k)
{
    return p == HB_DOUBLE ? (long double)((const double *)v)[k]
                          : (long double)((const float *)v)[k];
}

static double ld_ratio(hb_precision p, long double rn, long double an, long double xn)
{
    long double eps = p == HB_DOUBLE ? (long double)DBL_EPSILON : (long double)FLT_EPSILON;
    if (isnan(rn) || isnan(an) || isnan(xn) || isinf(rn) || isinf(an) || isinf(xn))
        return INFINITY;
    long double den = an * xn * eps;
    if (den == 0)
        return rn == 0 ? 0.0 : INFINITY;
    return (double)(rn / den);
}

double hb_test_tridiag_ratio(hb_precision p, int64_t nsys, const int64_t *off, const void *a,
                             const void *b, const void *c, const void *x, const void *rhs,
                             int64_t *worst)
{
    double best = 0;
    if (worst)
        *worst = nsys > 0 ? 0 : -1;
    for (int64_t s = 0; s < nsys; ++s) {
        long double rn = 0, an = 0, xn = 0;
        for (int64_t k = off[s]; k < off[s + 1]; ++k) {
            long double row = fabsl(ldv(p, b, k)), ax = ldv(p, b, k) * ldv(p, x, k);
            if (k > off[s]) {
                ax += ldv(p, a, k) * ldv(p, x, k - 1);
                row += fabsl(ldv(p, a, k));
            }
            if (k + 1 < off[s + 1]) {
                ax += ldv(p, c, k) * ldv(p, x, k + 1);
                row += fabsl(ldv(p, c, k));
            }
            rn = fmaxl(rn, fabsl(ldv(p, rhs, k) - ax));
            an = fmaxl(an, row);
            long double xv = fabsl(ldv(p, x, k));
            xn = isnan(xv) ? xv : fmaxl(xn, xv);
        }
        double r = ld_ratio(p, rn, an, xn);
        if (!(r <= best)) {
            best = r;
            if (worst)
                *worst = s;
        }
    }
    return best;
}

double hb_test_hines_ratio(hb_precision p, int64_t nsys, const int64_t *off, const int32_t *parent,
                           const void *u, const void *l, const void *d, const void *x,
                           const void *rhs, int64_t *worst)
{
    int64_t maxn = 0;
    for (int64_t s = 0; s < nsys; ++s)
        if (off[s + 1] - off[s] > maxn)
            maxn = off[s + 1] - off[s];
    long double *ax = hb_test_xalloc((size_t)(2 * maxn + 1) * sizeof *ax), *row = ax + maxn;
    double best = 0;
    if (worst)
        *worst = nsys > 0 ? 0 : -1;
    for (int64_t s = 0; s < nsys; ++s) {
        int64_t lo = off[s], n = off[s + 1] - lo;
        long double rn = 0, an = 0, xn = 0;
        for (int64_t i = 0; i < n; ++i) {
            ax[i] = ldv(p, d, lo + i) * ldv(p, x, lo + i);
            row[i] = fabsl(ldv(p, d, lo + i));
        }
        for (int64_t i = 1; i < n; ++i) {
            int64_t q = parent[lo + i];
            ax[i] += ldv(p, l, lo + i) * ldv(p, x, lo + q);
            ax[q] += ldv(p, u, lo + i) * ldv(p, x, lo + i);
            row[i] += fabsl(ldv(p, l, lo + i));
            row[q] += fabsl(ldv(p, u, lo + i));
        }
        for (int64_t i = 0; i < n; ++i) {
            rn = fmaxl(rn, fabsl(ldv(p, rhs, lo + i) - ax[i]));
            an = fmaxl(an, row[i]);
            long double xv = fabsl(ldv(p, x, lo + i));
            xn = isnan(xv) ? xv : fmaxl(xn, xv);
        }
        double r = ld_ratio(p, rn, an, xn);
        if (!(r <= best)) {
            best = r;
            if (worst)
                *worst = s;
        }
    }
    free(ax);
    return best;
}

/* Layouts, four to a line: {layout, block size, padding}. */
#define L_(layout, bs, pad) {HB_LAYOUT_##layout, bs, HB_PADDING_##pad}
const hb_test_layout hb_test_layouts[] = {
    L_(FLAT, 0, AUTO), L_(INTERLEAVED, 0, COMPUTE), L_(INTERLEAVED, 0, SKIP), L_(BLOCK_INTERLEAVED, 1, COMPUTE),
    L_(BLOCK_INTERLEAVED, 7, SKIP), L_(BLOCK_INTERLEAVED, 7, COMPUTE), L_(BLOCK_INTERLEAVED, 32, COMPUTE),
    L_(BLOCK_INTERLEAVED, 32, SKIP), L_(BLOCK_INTERLEAVED, 257, COMPUTE), L_(BLOCK_INTERLEAVED, 257, SKIP),
    L_(BLOCK_SHARED, 5, COMPUTE), L_(BLOCK_SHARED, 16, SKIP), L_(BLOCK_SHARED, 64, COMPUTE),
};
#undef L_
const int hb_test_nlayouts = (int)(sizeof hb_test_layouts / sizeof hb_test_layouts[0]);

const char *hb_test_layout_name(const hb_test_layout *l)
{
    static char buf[96];
    snprintf(buf, sizeof buf, "%s(bs=%d)/%s", hb_layout_name(l->layout), (int)l->block_size,
             hb_padding_name(l->padding));
    return buf;
}

hb_plan_options hb_test_layout_options(const hb_test_layout *l)
{
    hb_plan_options o;
    hb_plan_options_init(&o);
    o.layout = l->layout;
    o.block_size = l->block_size;
    o.padding = l->padding;
    return o;
}
