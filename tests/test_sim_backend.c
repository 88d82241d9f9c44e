/* test_sim_backend.c: simulations on the backend under test against the serial oracle (mixed batches, layouts, strategies), restarts, recording chunks, spike bookkeeping. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hb_backend.h" /* HB_CELL_LOCAL_REALS: what the on-chip engine needs */
#include "hb_test_util.h"

#define MAXC 8

typedef struct {
    int64_t cell, comp;
    double onset, dur, amp;
} clamp;

/* A random scenario: cells (some repeated, some from SWC files), clamps. */
typedef struct {
    int64_t ncells, nclamps;
    const hb_morph_cell *cells[MAXC];
    clamp clamps[3 * MAXC];
    hb_sim_params prm;
    double tstop;
} scenario;

typedef struct {
    int64_t nrows, nsamples, count[MAXC];
    double *trace;          /* ncells x nsamples */
    double *state[4];       /* V, M, H, N: nrows */
    double times[MAXC][64];
} result;

static hb_morph_cell *pool[8];
static char last_describe[1300]; /* hb_sim_describe of the last simulate() */
static int npool;

static hb_morph_cell *load_swc(const char *name, int section)
{
    hb_discretize_options o;
    hb_discretize_options_init(&o);
    if (section)
        o.policy = HB_POLICY_SECTION;
    return hb_test_load_swc(name, &o);
}

static void make_pool(void)
{
    pool[npool++] = load_swc("jaxley__morph_ca1_n120_250.swc", 0);
    pool[npool++] = load_swc("nrn__c91662.swc", 1);
    pool[npool++] = load_swc("jaxley__morph_minimal.swc", 0);
    hb_morph_cell *c = NULL;
    if (hb_morph_synth_levels(128, 3, NULL, &c) == HB_SUCCESS)
        pool[npool++] = c;
    hb_synth_random_params rp = {5, 1.0, 0.2, 100.0, 30.0, hb_test_rand()};
    c = NULL;
    if (hb_morph_synth_random(&rp, NULL, &c) == HB_SUCCESS)
        pool[npool++] = c;
    c = NULL;
    if (hb_morph_synth_branchy(200, 10.0, hb_test_rand(), NULL, &c) == HB_SUCCESS)
        pool[npool++] = c;
    HB_CHECK(npool == 6, "only %d of 6 test cells could be made: %s", npool, hb_last_error());
}


static void make_scenario(scenario *sc, int mono, hb_precision p)
{
    memset(sc, 0, sizeof *sc);
    sc->ncells = hb_test_range(3, MAXC);
    const hb_morph_cell *one = pool[hb_test_range(0, npool - 1)];
    for (int64_t c = 0; c < sc->ncells; ++c)
        sc->cells[c] = mono ? one : pool[hb_test_range(0, npool - 1)];
    for (int64_t c = 0; c < sc->ncells; ++c) {
        int k = (int)hb_test_range(1, 3);
        for (int j = 0; j < k; ++j) {
            clamp *cl = &sc->clamps[sc->nclamps++];
            cl->cell = c;
            cl->comp = j == 0 ? -1 : hb_test_range(0, hb_test_cell_rows(sc->cells[c]) - 1);
            cl->onset = 20.0 * hb_test_unit();
            cl->dur = 30.0 * hb_test_unit();
            cl->amp = j == 0 ? 0.3 + 2.7 * hb_test_unit() : 0.5 * hb_test_unit();
        }
    }
    hb_sim_params_init(&sc->prm);
    sc->prm.precision = p;
    sc->prm.hh_everywhere = (int)hb_test_range(0, 1);
    sc->prm.celsius = 6.3 + 20.0 * hb_test_unit();
    sc->prm.record_chunk = hb_test_range(1, 400);
    sc->tstop = 20.0;
}

static void result_free(result *r)
{
    free(r->trace);
    for (int w = 0; w < 4; ++w)
        free(r->state[w]);
    memset(r, 0, sizeof *r);
}

/* Runs the scenario (in two pieces when split) and collects everything. */
static hb_status simulate(hb_context *ctx, const scenario *sc, const hb_plan_options *po,
                          int split, int64_t chunk, result *r)
{
    memset(r, 0, sizeof *r);
    hb_sim_params prm = sc->prm;
    if (po)
        prm.plan = *po;
    if (chunk > 0)
        prm.record_chunk = chunk;
    hb_sim *sim = NULL;
    hb_status st = hb_sim_create(ctx, sc->cells, sc->ncells, &prm, &sim);
    if (st == HB_SUCCESS)
        snprintf(last_describe, sizeof last_describe, "%s", hb_sim_describe(sim));
    for (int64_t i = 0; st == HB_SUCCESS && i < sc->nclamps; ++i)
        st = hb_sim_add_iclamp(sim, sc->clamps[i].cell, sc->clamps[i].comp, sc->clamps[i].onset,
                               sc->clamps[i].dur, sc->clamps[i].amp);
    for (int64_t c = 0; st == HB_SUCCESS && c < sc->ncells; ++c)
        st = hb_sim_record(sim, c);
    if (st == HB_SUCCESS && split)
        st = hb_sim_run(sim, sc->tstop * 0.37);
    if (st == HB_SUCCESS)
        st = hb_sim_run(sim, sc->tstop);
    if (st == HB_SUCCESS) {
        hb_sim_rows(sim, &r->nrows);
        hb_sim_trace_count(sim, NULL, &r->nsamples);
        r->trace = hb_test_xalloc((size_t)(sc->ncells * r->nsamples) * sizeof(double));
        hb_test_poison(HB_DOUBLE, r->trace, sc->ncells * r->nsamples);
        for (int64_t c = 0; st == HB_SUCCESS && c < sc->ncells; ++c)
            st = hb_sim_get_trace(sim, c, NULL, r->trace + c * r->nsamples);
        for (int w = 0; st == HB_SUCCESS && w < 4; ++w) {
            r->state[w] = hb_test_xalloc((size_t)r->nrows * sizeof(double));
            hb_test_poison(HB_DOUBLE, r->state[w], r->nrows);
            st = hb_sim_get_state(sim, (hb_sim_state)w, r->state[w]);
        }
        for (int64_t c = 0; st == HB_SUCCESS && c < sc->ncells; ++c) {
            hb_test_poison(HB_DOUBLE, r->times[c], 64);
            st = hb_sim_get_spikes(sim, c, 64, r->times[c], &r->count[c]);
        }
    }
    if (st != HB_SUCCESS)
        fprintf(stderr, "simulate: %s: %s\n", hb_status_string(st), hb_last_error());
    hb_sim_destroy(sim);
    return st;
}

/* The strategy of a simulation's solver plan: that of a Hines plan of the
 * same cells with the same options (the oracle's is per-system). */
static hb_strategy sim_strategy(hb_context *ctx, const scenario *sc, const hb_plan_options *po)
{
    hb_morph_batch *b = NULL;
    hb_morph_batch_view v;
    hb_plan *plan = NULL;
    hb_strategy strategy = HB_STRATEGY_AUTO;
    if (hb_morph_batch_multi(sc->cells, sc->ncells, sc->prm.dt, &b) == HB_SUCCESS &&
        hb_morph_batch_get_view(b, &v) == HB_SUCCESS &&
        hb_plan_create_hines(ctx, sc->prm.precision, v.nsys, v.offsets, v.parent,
                             po ? po : &sc->prm.plan, &plan) == HB_SUCCESS)
        strategy = hb_test_plan_info(plan).strategy;
    HB_CHECK(strategy != HB_STRATEGY_AUTO, "the solver plan of the scenario: %s", hb_last_error());
    hb_plan_destroy(plan);
    hb_morph_batch_destroy(b);
    return strategy;
}

/* The run on the backend under test (plan options po, NULL: the scenario's)
 * against the serial oracle's, under the policy of hb_test_util.h
 * (HB_TEST_SIM_*); on a host backend in the same order, the final state too
 * is bit-identical. */
static void compare(hb_context *ctx, const scenario *sc, const hb_plan_options *po,
                    const result *x, const result *ref, const char *what)
{
    hb_backend backend = hb_context_backend(ctx);
    int same_order = sim_strategy(ctx, sc, po) == HB_STRATEGY_PER_SYSTEM;
    HB_CHECK(x->nrows == ref->nrows, "%s: %lld rows, oracle %lld", what, (long long)x->nrows,
             (long long)ref->nrows);
    const hb_test_sim_run rx = {sc->ncells, x->nsamples, 64, sc->prm.dt, x->trace, x->times[0],
                                x->count, sc->prm.threshold};
    const hb_test_sim_run rr = {sc->ncells, ref->nsamples, 64, sc->prm.dt, ref->trace, ref->times[0],
                                ref->count, sc->prm.threshold};
    hb_test_compare_sim(backend, same_order, sc->prm.precision, &rx, &rr, what);
    for (int w = 0; same_order && hb_test_host_backend(backend) && x->nrows == ref->nrows && w < 4; ++w)
        HB_CHECK(hb_test_bitequal(x->state[w], ref->state[w], (size_t)x->nrows * sizeof(double)),
                 "%s: state %d not bit-identical to the oracle", what, w);
}

/* Library spike times are the trace's upward crossings of the threshold,
 * linearly interpolated. */
static void check_spikes(const scenario *sc, const result *r, const char *what)
{
    double thr = sc->prm.threshold, dt = sc->prm.dt, worst = 0;
    int64_t spikes = 0;
    for (int64_t c = 0; c < sc->ncells; ++c) {
        const double *v = r->trace + c * r->nsamples;
        int64_t n = 0;
        for (int64_t j = 1; j < r->nsamples; ++j)
            if (v[j - 1] < thr && v[j] >= thr) {
                double t = (double)(j - 1) * dt + dt * ((thr - v[j - 1]) / (v[j] - v[j - 1]));
                if (n < r->count[c] && n < 64)
                    worst = fmax(worst, fabs(t - r->times[c][n]));
                ++n;
            }
        HB_CHECK(n == r->count[c], "%s: cell %lld: %lld crossings in the trace, %lld spikes", what,
                 (long long)c, (long long)n, (long long)r->count[c]);
        spikes += n;
    }
    double tol = sc->prm.precision == HB_FLOAT ? 1e-4 : 1e-9;
    HB_CHECK(worst <= tol, "%s: spike times %g ms from the trace's crossings", what, worst);
    printf("%s: %lld cells, %lld compartments, %lld samples, %lld spikes\n", what,
           (long long)sc->ncells, (long long)r->nrows, (long long)r->nsamples, (long long)spikes);
}

/* The solver plan the on-chip engine runs (its order of operations). */
static hb_plan_options cell_po;

/* The plan whose order of operations the last simulate() ran: the default
 * plan picks the on-chip engine on a GPU (cell-group order), not the
 * per-system order the default Hines plan has. */
/* The scenario (engine cells asked for) on a context whose plans assume
 * `bytes` of local memory per work-group (HINESBATCH_LOCAL_MEM_LIMIT), with
 * the epoch's stage capped at `stage` (HINESBATCH_EPOCH_STAGE; NULL: unset):
 * describe must name both `want` and `also`, and the run match the oracle's
 * (on chip: as the cells engine's plan; else as the stages'). */
static void small_device(const scenario *se, const result *ref, size_t bytes, const char *stage,
                         const char *want, const char *also, const char *what)
{
    char cap[32], w2[256];
    snprintf(cap, sizeof cap, "%zu", bytes);
    setenv("HINESBATCH_LOCAL_MEM_LIMIT", cap, 1);
    hb_context *small = hb_test_context();
    unsetenv("HINESBATCH_LOCAL_MEM_LIMIT");
    snprintf(w2, sizeof w2, "%s, engine cells, %s bytes of local memory, stage %s", what, cap,
             stage ? stage : "unset");
    result x;
    if (stage)
        setenv("HINESBATCH_EPOCH_STAGE", stage, 1);
    const hb_status st = simulate(small, se, NULL, 0, 0, &x);
    unsetenv("HINESBATCH_EPOCH_STAGE");
    if (st == HB_SUCCESS) {
        printf("%s: %s\n", w2, last_describe);
        HB_CHECK(strstr(last_describe, want) && strstr(last_describe, also),
                 "%s: the engine that ran: %s", w2, last_describe);
        compare(small, se, strstr(want, "on chip") ? &cell_po : NULL, &x, ref, w2);
    } else
        HB_CHECK(0, "%s: failed", w2);
    result_free(&x);
    hb_context_destroy(small);
}

static const hb_plan_options *ran_po(void)
{
    return strstr(last_describe, "cells on chip") ? &cell_po : NULL;
}

int main(void)
{
    hb_plan_options_init(&cell_po);
    cell_po.strategy = HB_STRATEGY_CELL_GROUP;
    hb_test_begin("test_sim_backend");
    hb_context *ctx = hb_test_context();
    hb_test_require_sim(ctx);
    hb_context *oracle = hb_test_oracle();
    make_pool();
    for (int p = 0; p < 2; ++p) {
        hb_precision prec = p ? HB_FLOAT : HB_DOUBLE;
        for (int mono = 0; mono < 2; ++mono) {
            scenario sc;
            make_scenario(&sc, mono, prec);
            char what[128];
            snprintf(what, sizeof what, "%s %s batch", p ? "float" : "double",
                     mono ? "mono" : "mixed");
            result ref, x;
            HB_CHECK_STATUS(simulate(oracle, &sc, NULL, 0, 0, &ref), HB_SUCCESS);
            check_spikes(&sc, &ref, what);
            /* The backend under test, default plan. */
            if (simulate(ctx, &sc, NULL, 0, 0, &x) == HB_SUCCESS)
                compare(ctx, &sc, ran_po(), &x, &ref, what);
            else
                HB_CHECK(0, "%s: the backend under test failed", what);
            result_free(&x);
            /* Two runs and another recording chunk: the same numbers. */
            if (simulate(ctx, &sc, NULL, 1, 7, &x) == HB_SUCCESS)
                compare(ctx, &sc, ran_po(), &x, &ref, "split run, chunk 7");
            else
                HB_CHECK(0, "%s: split run failed", what);
            result_free(&x);
            /* Every layout and strategy of the solver plan. */
            const struct {
                const char *name;
                hb_layout layout;
                int32_t bs;
                hb_strategy strategy;
            } plans[] = {
                {"interleaved", HB_LAYOUT_INTERLEAVED, 0, HB_STRATEGY_PER_SYSTEM},
                {"block-interleaved(bs=3)", HB_LAYOUT_BLOCK_INTERLEAVED, 3, HB_STRATEGY_PER_SYSTEM},
                {"block-shared(bs=2)", HB_LAYOUT_BLOCK_SHARED, 2, HB_STRATEGY_PER_SYSTEM},
                {"branch-level", HB_LAYOUT_AUTO, 0, HB_STRATEGY_BRANCH_LEVEL},
                {"fine-tree", HB_LAYOUT_AUTO, 0, HB_STRATEGY_FINE_TREE},
                {"cell-group", HB_LAYOUT_AUTO, 0, HB_STRATEGY_CELL_GROUP},
            };
            for (size_t k = 0; k < sizeof plans / sizeof plans[0]; ++k) {
                /* The host backends lack the cell-group solver (test_cell_group
                 * checks that they refuse it). */
                if (plans[k].strategy == HB_STRATEGY_CELL_GROUP && hb_test_on_host(ctx))
                    continue;
                hb_plan_options po;
                hb_plan_options_init(&po);
                po.layout = plans[k].layout;
                po.block_size = plans[k].bs;
                po.strategy = plans[k].strategy;
                po.padding = hb_test_range(0, 1) ? HB_PADDING_COMPUTE : HB_PADDING_SKIP;
                char w2[256];
                snprintf(w2, sizeof w2, "%s, %s", what, plans[k].name);
                if (simulate(ctx, &sc, &po, 0, 0, &x) == HB_SUCCESS)
                    compare(ctx, &sc, &po, &x, &ref, w2);
                else
                    HB_CHECK(0, "%s: failed", w2);
                result_free(&x);
            }
            /* Each engine asked for: the stages everywhere; cells on every
             * backend but the oracle (on CUDA and OpenCL the on-chip epochs,
             * which must then run: these cells fit every device's local
             * memory), in epochs of a random length. */
            for (int e = 0; e < 2; ++e) {
                scenario se = sc;
                se.prm.engine = e ? HB_SIM_ENGINE_CELLS : HB_SIM_ENGINE_STAGES;
                se.prm.epoch_steps = e ? hb_test_range(0, 60) : 0;
                /* Cells on chip with the work-group size asked for (any size
                 * holds any cell) or AUTO's. */
                se.prm.plan.group_size = e && hb_test_range(0, 1) ? 32 * hb_test_range(1, 4) : 0;
                char w2[256];
                snprintf(w2, sizeof w2, "%s, engine %s, epochs of %lld steps, group size %d", what,
                         e ? "cells" : "stages", (long long)se.prm.epoch_steps,
                         (int)se.prm.plan.group_size);
                hb_backend b = hb_context_backend(ctx);
                if (e && b == HB_BACKEND_SERIAL) {
                    hb_sim *s = NULL;
                    HB_CHECK_STATUS(hb_sim_create(ctx, se.cells, se.ncells, &se.prm, &s),
                                    HB_ERR_BACKEND_UNAVAILABLE);
                    HB_CHECK(s == NULL, "%s: a refused simulation was returned", w2);
                    continue;
                }
                if (simulate(ctx, &se, NULL, e, e ? hb_test_range(1, 90) : 0, &x) == HB_SUCCESS) {
                    printf("%s: %s\n", w2, last_describe);
                    int onchip = strstr(last_describe, "cells on chip") != NULL;
                    HB_CHECK(onchip == (e && !hb_test_host_backend(b)),
                             "%s: the engine that ran: %s", w2, last_describe);
                    char items[64];
                    snprintf(items, sizeof items, "one work-group of %d work-items",
                             (int)se.prm.plan.group_size);
                    HB_CHECK(!onchip || !se.prm.plan.group_size || strstr(last_describe, items),
                             "%s: the work-group size that ran: %s", w2, last_describe);
                    compare(ctx, &se, e && !hb_test_host_backend(b) ? &cell_po : NULL, &x, &ref, w2);
                } else
                    HB_CHECK(0, "%s: failed", w2);
                result_free(&x);
            }
            /* A device whose local memory holds the cells (the solver
             * plan's four arrays of rows) but not their schedules (48 KiB
             * GPUs and large cells): the epoch keeps u (with d, rhs and v)
             * and reads the schedule from global memory; capped at none
             * (as AUTO's launch for many cells), u too, one copy per
             * distinct cell, and the trunk's PCR rows fit beside three
             * arrays. */
            int64_t maxr = 0;
            for (int64_t c = 0; c < sc.ncells; ++c)
                if (hb_test_cell_rows(sc.cells[c]) > maxr)
                    maxr = hb_test_cell_rows(sc.cells[c]);
            if (!hb_test_on_host(ctx) && maxr > 64) {
                const size_t es = prec == HB_DOUBLE ? 8 : 4;
                const size_t four = HB_CELL_LOCAL_REALS(maxr), three = four - (size_t)maxr;
                const size_t pcr = three + HB_CELL_TRUNK_REALS;
                scenario se = sc;
                se.prm.engine = HB_SIM_ENGINE_CELLS;
                small_device(&se, &ref, four * es + 1024, NULL, "cells on chip",
                             ", schedule read from global memory", what);
                small_device(&se, &ref, (pcr > four ? pcr : four) * es + 1024, "none",
                             "cells on chip", "schedule and couplings read from global memory",
                             what);
                /* The four arrays and no room for the trunk's PCR rows: one
                 * work-item sweeps the trunk, on chip. */
                small_device(&se, &ref, four * es, NULL, "cells on chip",
                             "trunk swept by one work-item", what);
                /* One real short of the four arrays: the stages run, and
                 * describe says why cells did not. */
                small_device(&se, &ref, (four - 1) * es, NULL, "engine: stages",
                             "KiB of local memory on chip", what);
            }
            result_free(&ref);
        }
    }
    /* max_spikes is each cell's device ring between read-backs: with a ring
     * of one the engine drains every step and keeps every time, the same as
     * with the default. HH compartments of 20 um x 20 um at 10 uA/cm^2 fire
     * repetitively. */
    {
        int32_t root = -1;
        hb_morph_cell *ball = NULL;
        HB_CHECK_STATUS(hb_morph_cell_from_parent(1, &root, 20.0, 20.0, NULL, &ball), HB_SUCCESS);
        scenario sc;
        memset(&sc, 0, sizeof sc);
        hb_sim_params_init(&sc.prm);
        sc.ncells = 4;
        for (int64_t c = 0; c < sc.ncells; ++c) {
            sc.cells[c] = ball;
            sc.clamps[sc.nclamps++] = (clamp){c, -1, 1.0 + c, 100.0, 10.0 * 400.0 * 3.14159265 * 1e-5};
        }
        sc.tstop = 40;
        result full, few;
        memset(&full, 0, sizeof full);
        memset(&few, 0, sizeof few);
        HB_CHECK_STATUS(simulate(ctx, &sc, NULL, 0, 0, &full), HB_SUCCESS);
        sc.prm.max_spikes = 1;
        HB_CHECK_STATUS(simulate(ctx, &sc, NULL, 0, 0, &few), HB_SUCCESS);
        for (int64_t c = 0; c < sc.ncells && full.trace && few.trace; ++c) {
            HB_CHECK(few.count[c] == full.count[c], "max_spikes 1: cell %lld counts %lld, not %lld",
                     (long long)c, (long long)few.count[c], (long long)full.count[c]);
            HB_CHECK(full.count[c] >= 2, "10 uA/cm^2 gave cell %lld only %lld spikes",
                     (long long)c, (long long)full.count[c]);
            int same = 1;
            for (int64_t i = 0; i < full.count[c] && i < few.count[c] && i < 64; ++i)
                same &= few.times[c][i] == full.times[c][i];
            HB_CHECK(same, "max_spikes 1: cell %lld times %g %g, not %g %g", (long long)c,
                     few.times[c][0], few.times[c][1], full.times[c][0], full.times[c][1]);
        }
        result_free(&full);
        result_free(&few);
        hb_morph_cell_destroy(ball);
    }
    /* Twins: one random tree of 150 compartments with two axial
     * resistivities, alternating. With u read from global memory the epoch
     * shares one copy between cells with the same tree and conductances
     * only: a twin reading the other's u would end far from the oracle. */
    if (!hb_test_on_host(ctx)) {
        enum { N = 150 };
        int32_t par[N];
        par[0] = -1;
        for (int k = 1; k < N; ++k)
            par[k] = (int32_t)hb_test_range(k > 6 ? k - 6 : 0, k - 1);
        hb_morph_cell *tw[2] = {NULL, NULL};
        for (int i = 0; i < 2; ++i) {
            hb_cable cb;
            hb_cable_init(&cb);
            cb.ra = i ? 35.4 * (2.0 + 4.0 * hb_test_unit()) : 35.4;
            HB_CHECK_STATUS(hb_morph_cell_from_parent(N, par, 8.0, 1.5, &cb, &tw[i]), HB_SUCCESS);
        }
        for (int p = 0; p < 2 && tw[0] && tw[1]; ++p) {
            scenario sc;
            make_scenario(&sc, 1, p ? HB_FLOAT : HB_DOUBLE);
            sc.ncells = 4;
            sc.nclamps = 0;
            for (int64_t c = 0; c < sc.ncells; ++c) {
                sc.cells[c] = tw[c % 2];
                sc.clamps[sc.nclamps++] = (clamp){c, -1, 1.0, 15.0, 0.5 + 0.2 * (double)c};
            }
            result ref;
            HB_CHECK_STATUS(simulate(oracle, &sc, NULL, 0, 0, &ref), HB_SUCCESS);
            const size_t es = p ? 4 : 8, four = HB_CELL_LOCAL_REALS(N);
            const size_t pcr = four - N + HB_CELL_TRUNK_REALS;
            sc.prm.engine = HB_SIM_ENGINE_CELLS;
            small_device(&sc, &ref, (pcr > four ? pcr : four) * es + 1024, "none",
                         "cells on chip", "schedule and couplings read from global memory",
                         p ? "float twins" : "double twins");
            /* And v in rhs's array too: the step solves for v. */
            small_device(&sc, &ref, (pcr > four ? pcr : four) * es + 1024, "vx",
                         "cells on chip", "v in the right-hand side's array",
                         p ? "float twins, vx" : "double twins, vx");
            result_free(&ref);
        }
        /* An unknown stage fails the creation, naming the value. */
        const char *bad[] = {"everything", "U", "2", " none"};
        for (int i = 0; i < 4 && tw[0]; ++i) {
            hb_sim_params prm;
            hb_sim_params_init(&prm);
            prm.engine = HB_SIM_ENGINE_CELLS;
            const hb_morph_cell *cells[1] = {tw[0]};
            hb_sim *s = NULL;
            setenv("HINESBATCH_EPOCH_STAGE", bad[i], 1);
            HB_CHECK_STATUS(hb_sim_create(ctx, cells, 1, &prm, &s), HB_ERR_INVALID_ARGUMENT);
            unsetenv("HINESBATCH_EPOCH_STAGE");
            HB_CHECK(s == NULL && strstr(hb_last_error(), "HINESBATCH_EPOCH_STAGE") &&
                         strstr(hb_last_error(), bad[i]),
                     "HINESBATCH_EPOCH_STAGE='%s': %s", bad[i], hb_last_error());
            hb_sim_destroy(s);
        }
        hb_morph_cell_destroy(tw[0]);
        hb_morph_cell_destroy(tw[1]);
    }
    for (int i = 0; i < npool; ++i)
        hb_morph_cell_destroy(pool[i]);
    hb_context_destroy(oracle);
    hb_context_destroy(ctx);
    return hb_test_finish();
}
