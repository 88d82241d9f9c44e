/* test_sim_model.c: models built from the catalogue (mechanisms by region and distance, ions with Nernst potentials, synapses fed by spike trains) on the backend under test against the serial oracle; exact synaptic decay; the default model equals its explicit form; bad model calls refused without a change. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hb_test_util.h"

#define MAXC 6
#define MAXPT 24

static hb_morph_cell *pool[3];

/* A random model, drawn once and applied the same way to every simulation. */
typedef struct {
    int64_t ncells;
    const hb_morph_cell *cells[MAXC];
    hb_sim_params prm;
    uint32_t hh_types;             /* hh where (0: soma only)            */
    double band_min, band_max;     /* and on dendrites at these distances (um): in
                                      row order a region with gaps (dmap) */
    hb_sim_profile pas_g, hh_gna;  /* by distance                        */
    double hh_dmax;                /* hh gnabar profile up to this distance */
    double ena_dend, nai, nao;
    int nernst_na;
    int npt;
    struct {
        int64_t cell, comp;
        int exp2;                  /* Exp2Syn, else ExpSyn               */
        double tau, tau2, e;
        hb_spike_train train;
    } pt[MAXPT];
    double clamp_amp;
    double tstop;
} model;

static void draw(model *md, hb_precision p)
{
    memset(md, 0, sizeof *md);
    md->ncells = hb_test_range(2, MAXC);
    for (int64_t c = 0; c < md->ncells; ++c)
        md->cells[c] = pool[hb_test_range(0, 2)];
    hb_sim_params_init(&md->prm);
    md->prm.precision = p;
    md->prm.celsius = 6.3 + 25.0 * hb_test_unit();
    md->prm.record_chunk = hb_test_range(5, 300);
    md->hh_types = (uint32_t)hb_test_range(0, 1) ? HB_SIM_TYPE(1) | HB_SIM_TYPE(2) : HB_SIM_TYPE(1);
    md->pas_g = (hb_sim_profile){1e-4 + 2e-4 * hb_test_unit(), 1e-7 * hb_test_unit(), 0, 0};
    md->hh_gna = (hb_sim_profile){0.08 + 0.06 * hb_test_unit(), 0, 0.02 * hb_test_unit(),
                                  -0.01 * hb_test_unit()};
    md->hh_dmax = 50 + 400 * hb_test_unit();
    md->band_min = 20 + 80 * hb_test_unit();
    md->band_max = md->band_min + 20 + 60 * hb_test_unit();
    md->ena_dend = 40 + 20 * hb_test_unit();
    md->nernst_na = (int)hb_test_range(0, 1);
    md->nai = 8 + 6 * hb_test_unit();
    md->nao = 120 + 40 * hb_test_unit();
    md->npt = (int)hb_test_range(1, MAXPT);
    for (int i = 0; i < md->npt; ++i) {
        md->pt[i].cell = hb_test_range(0, md->ncells - 1);
        hb_morph_cell_view v;
        hb_morph_cell_get_view(md->cells[md->pt[i].cell], &v);
        md->pt[i].comp = hb_test_range(-1, v.n - 1);
        md->pt[i].exp2 = (int)hb_test_range(0, 1);
        md->pt[i].tau = 0.5 + 3 * hb_test_unit();
        md->pt[i].tau2 = md->pt[i].tau + 1 + 8 * hb_test_unit();
        md->pt[i].e = hb_test_range(0, 3) ? 0.0 : -75.0;
        hb_spike_train *t = &md->pt[i].train;
        t->kind = hb_test_range(0, 1) ? HB_TRAIN_POISSON : HB_TRAIN_REGULAR;
        t->start = 10 * hb_test_unit();
        t->stop = t->start + 5 + 20 * hb_test_unit();
        t->interval = 0.5 + 5 * hb_test_unit();
        t->rate = 20 + 300 * hb_test_unit();
        t->seed = hb_test_rand();
        t->weight = 0.002 + 0.02 * hb_test_unit();
    }
    md->clamp_amp = 0.3 + 0.7 * hb_test_unit();
    md->tstop = 25.0;
}

/* Every model call of the drawn model on sim. */
static hb_status apply(hb_sim *sim, const model *md)
{
    hb_sim_region all, hh, far;
    hb_sim_region_init(&all);
    hb_sim_region_init(&hh);
    hh.types = md->hh_types;
    hb_sim_region_init(&far);
    far.types = HB_SIM_TYPE(3) | HB_SIM_TYPE(4);
    far.dist_min = 20;
    hb_status st;
    if ((st = hb_sim_insert(sim, "pas", &all)) ||
        (st = hb_sim_set_param_profile(sim, "pas", "g", &all, &md->pas_g)) ||
        (st = hb_sim_set_param(sim, "pas", "e", &all, -65.0)) ||
        (st = hb_sim_insert(sim, "hh", &hh)) ||
        (st = hb_sim_set_param(sim, "hh", "gl", &hh, 0.0)))
        return st;
    hb_sim_region band;
    hb_sim_region_init(&band);
    band.types = HB_SIM_TYPE(3) | HB_SIM_TYPE(4);
    band.dist_min = md->band_min;
    band.dist_max = md->band_max;
    if ((st = hb_sim_insert(sim, "hh", &band)))
        return st;
    hb_sim_region near = hh;
    near.dist_max = md->hh_dmax;
    /* Every cell has a soma: the profile reaches at least those compartments. */
    if ((st = hb_sim_set_param_profile(sim, "hh", "gnabar", &near, &md->hh_gna)))
        return st;
    if (md->nernst_na) {
        if ((st = hb_sim_set_ion(sim, "na", NULL, NAN, md->nai, md->nao)) ||
            (st = hb_sim_set_ion_nernst(sim, "na", 1)))
            return st;
    } else if ((st = hb_sim_set_ion(sim, "na", &far, md->ena_dend, NAN, NAN)))
        return st;
    for (int i = 0; i < md->npt; ++i) {
        int64_t id = -1;
        if ((st = hb_sim_add_point(sim, md->pt[i].exp2 ? "Exp2Syn" : "ExpSyn", md->pt[i].cell,
                                   md->pt[i].comp, &id)))
            return st;
        HB_CHECK(id == i, "point process ids count from 0: %lld for the %dth", (long long)id, i);
        if (md->pt[i].exp2) {
            if ((st = hb_sim_set_point_param(sim, id, "tau1", md->pt[i].tau)) ||
                (st = hb_sim_set_point_param(sim, id, "tau2", md->pt[i].tau2)))
                return st;
        } else if ((st = hb_sim_set_point_param(sim, id, "tau", md->pt[i].tau)))
            return st;
        if ((st = hb_sim_set_point_param(sim, id, "e", md->pt[i].e)) ||
            (st = hb_sim_add_spike_train(sim, id, &md->pt[i].train)))
            return st;
    }
    for (int64_t c = 0; c < md->ncells; ++c)
        if ((st = hb_sim_add_iclamp(sim, c, -1, 2.0, 15.0, md->clamp_amp)) ||
            (st = hb_sim_record(sim, c)))
            return st;
    return HB_SUCCESS;
}

typedef struct {
    int64_t nrows, nsamples, count[MAXC];
    double *trace;
    double times[MAXC][64];
    double syn[MAXPT];     /* ExpSyn g / Exp2Syn B at the end */
} result;

static hb_status simulate(hb_context *ctx, const model *md, hb_sim_engine engine, result *r,
                          char *describe, size_t cap)
{
    memset(r, 0, sizeof *r);
    hb_sim_params prm = md->prm;
    prm.engine = engine;
    prm.epoch_steps = hb_test_range(0, 80);
    hb_sim *sim = NULL;
    hb_status st = hb_sim_create(ctx, md->cells, md->ncells, &prm, &sim);
    if (st == HB_SUCCESS)
        st = apply(sim, md);
    if (st == HB_SUCCESS)
        st = hb_sim_run(sim, md->tstop * 0.41);
    if (st == HB_SUCCESS)
        st = hb_sim_run(sim, md->tstop);
    if (st == HB_SUCCESS) {
        snprintf(describe, cap, "%s", hb_sim_describe(sim));
        hb_sim_rows(sim, &r->nrows);
        hb_sim_trace_count(sim, NULL, &r->nsamples);
        r->trace = hb_test_xalloc((size_t)(md->ncells * r->nsamples) * sizeof(double));
        hb_test_poison(HB_DOUBLE, r->trace, md->ncells * r->nsamples);
        for (int64_t c = 0; st == HB_SUCCESS && c < md->ncells; ++c)
            st = hb_sim_get_trace(sim, c, NULL, r->trace + c * r->nsamples);
        for (int64_t c = 0; st == HB_SUCCESS && c < md->ncells; ++c) {
            hb_test_poison(HB_DOUBLE, r->times[c], 64);
            st = hb_sim_get_spikes(sim, c, 64, r->times[c], &r->count[c]);
        }
        /* Synaptic state, per mechanism in id order. */
        double *buf = hb_test_xalloc((size_t)(r->nrows + MAXPT) * sizeof(double));
        for (int k = 0; st == HB_SUCCESS && k < 2; ++k) {
            int64_t n = -1;
            hb_test_poison(HB_DOUBLE, buf, r->nrows + MAXPT);
            st = hb_sim_get_mech_state(sim, k ? "Exp2Syn" : "ExpSyn", k ? "B" : "g", buf, &n);
            for (int i = 0, j = 0; st == HB_SUCCESS && i < md->npt; ++i)
                if (md->pt[i].exp2 == k)
                    r->syn[i] = buf[j++];
        }
        free(buf);
    }
    if (st != HB_SUCCESS)
        fprintf(stderr, "simulate: %s: %s\n", hb_status_string(st), hb_last_error());
    hb_sim_destroy(sim);
    return st;
}

static void compare(hb_context *ctx, const model *md, const result *x, const result *ref,
                    const char *what)
{
    const hb_test_sim_run rx = {md->ncells, x->nsamples, 64, md->prm.dt, x->trace, x->times[0],
                                x->count, md->prm.threshold};
    const hb_test_sim_run rr = {md->ncells, ref->nsamples, 64, md->prm.dt, ref->trace,
                                ref->times[0], ref->count, md->prm.threshold};
    /* Another summation order than the oracle's on the devices (the
     * cell-group solver); OpenMP's per-system plan is the oracle's order. */
    int same = hb_test_on_host(ctx);
    hb_test_compare_sim(hb_context_backend(ctx), same, md->prm.precision, &rx, &rr, what);
    double worst = 0;
    for (int i = 0; i < md->npt; ++i) {
        double e = fabs(x->syn[i] - ref->syn[i]) / fmax(fabs(ref->syn[i]), 1e-6);
        worst = isnan(e) ? INFINITY : fmax(worst, e);
    }
    double bound = md->prm.precision == HB_DOUBLE ? 1e-9 : same ? 1e-3 : 2e-2;
    printf("%s: synaptic state within %g of the oracle's (bound %g)\n", what, worst, bound);
    HB_CHECK(worst <= bound, "%s: synaptic state differs by %g > %g", what, worst, bound);
}

/* ExpSyn on a passive ball, one event: its conductance decays exactly as
 * exp(-k dt / tau) per step after the step the event arrives at. */
static void exact_decay(hb_context *ctx, hb_precision p)
{
    int32_t root = -1;
    hb_morph_cell *ball = NULL;
    HB_CHECK_STATUS(hb_morph_cell_from_parent(1, &root, 20.0, 20.0, NULL, &ball), HB_SUCCESS);
    hb_sim_params prm;
    hb_sim_params_init(&prm);
    prm.precision = p;
    hb_sim *sim = NULL;
    const double w = 0.01 + 0.05 * hb_test_unit(), tau = 1 + 4 * hb_test_unit();
    const double te = 1 + 3 * hb_test_unit();
    int64_t id = -1;
    const hb_morph_cell *cells[1] = {ball};
    HB_CHECK_STATUS(hb_sim_create(ctx, cells, 1, &prm, &sim), HB_SUCCESS);
    HB_CHECK_STATUS(hb_sim_insert(sim, "pas", NULL), HB_SUCCESS);
    HB_CHECK_STATUS(hb_sim_add_point(sim, "ExpSyn", 0, -1, &id), HB_SUCCESS);
    HB_CHECK_STATUS(hb_sim_set_point_param(sim, id, "tau", tau), HB_SUCCESS);
    HB_CHECK_STATUS(hb_sim_add_events(sim, id, 1, &te, w), HB_SUCCESS);
    const int64_t N = 400;
    HB_CHECK_STATUS(hb_sim_run(sim, (double)N * prm.dt), HB_SUCCESS);
    double g = NAN;
    int64_t n = 0;
    HB_CHECK_STATUS(hb_sim_get_mech_state(sim, "ExpSyn", "g", &g, &n), HB_SUCCESS);
    /* Delivered at step n0 (midpoint at or after te), before its currents;
     * the state then moves at the end of that step and of every later one
     * (NEURON's nrn_state), N - n0 times by t = N dt. */
    const int64_t n0 = (int64_t)ceil(te / prm.dt - 0.5 - 1e-9);
    const double expect = w * exp(-(double)(N - n0) * prm.dt / tau);
    const double tol = p == HB_DOUBLE ? 1e-12 : 1e-5;
    printf("ExpSyn decay (%s): g %.17g, expected %.17g (event at %g ms, step %lld)\n",
           p == HB_DOUBLE ? "double" : "float", g, expect, te, (long long)n0);
    HB_CHECK(n == 1 && fabs(g - expect) <= tol * expect, "ExpSyn decay: g %.17g, expected %.17g",
             g, expect);
    hb_sim_destroy(sim);
    hb_morph_cell_destroy(ball);
}

/* The default model is pas everywhere and hh at the soma with the
 * parameters' values: the same numbers as inserting them by hand. */
static void default_is_explicit(hb_context *ctx)
{
    hb_sim_params prm;
    hb_sim_params_init(&prm);
    prm.gnabar = 0.1 + 0.05 * hb_test_unit();
    prm.gl = 2e-4 + 2e-4 * hb_test_unit();
    prm.el = -60 - 10 * hb_test_unit();
    prm.ek = -80 + 5 * hb_test_unit();
    const hb_morph_cell *cells[2] = {pool[0], pool[1]};
    double *tr[2] = {NULL, NULL};
    int64_t ns = 0;
    for (int k = 0; k < 2; ++k) {
        hb_sim *sim = NULL;
        HB_CHECK_STATUS(hb_sim_create(ctx, cells, 2, &prm, &sim), HB_SUCCESS);
        if (!sim)
            return;
        if (k) {
            hb_sim_region soma;
            hb_sim_region_init(&soma);
            soma.types = HB_SIM_TYPE(1);
            HB_CHECK_STATUS(hb_sim_insert(sim, "pas", NULL), HB_SUCCESS);
            HB_CHECK_STATUS(hb_sim_set_param(sim, "pas", "g", NULL, prm.gl), HB_SUCCESS);
            HB_CHECK_STATUS(hb_sim_set_param(sim, "pas", "e", NULL, prm.el), HB_SUCCESS);
            HB_CHECK_STATUS(hb_sim_insert(sim, "hh", &soma), HB_SUCCESS);
            HB_CHECK_STATUS(hb_sim_set_param(sim, "hh", "gnabar", &soma, prm.gnabar), HB_SUCCESS);
            HB_CHECK_STATUS(hb_sim_set_param(sim, "hh", "gl", &soma, 0.0), HB_SUCCESS);
            HB_CHECK_STATUS(hb_sim_set_ion(sim, "k", NULL, prm.ek, NAN, NAN), HB_SUCCESS);
        }
        HB_CHECK_STATUS(hb_sim_add_iclamp(sim, 0, -1, 1.0, 10.0, 0.5), HB_SUCCESS);
        HB_CHECK_STATUS(hb_sim_record(sim, 0), HB_SUCCESS);
        HB_CHECK_STATUS(hb_sim_run(sim, 15.0), HB_SUCCESS);
        hb_sim_trace_count(sim, NULL, &ns);
        tr[k] = hb_test_xalloc((size_t)ns * sizeof(double));
        hb_test_poison(HB_DOUBLE, tr[k], ns);
        HB_CHECK_STATUS(hb_sim_get_trace(sim, 0, NULL, tr[k]), HB_SUCCESS);
        hb_sim_destroy(sim);
    }
    HB_CHECK(hb_test_bitequal(tr[0], tr[1], (size_t)ns * sizeof(double)),
             "the default model and its explicit form differ");
    free(tr[0]), free(tr[1]);
}

/* The membrane's load in the description once the model is set up (a state
 * read): pas everywhere is 1 per compartment, with hh everywhere 1 + (1 + 3
 * STATEs) = 5 (AUTO's second look weighs it, api/sim/sim.c). */
static void load_described(hb_context *ctx)
{
    const hb_morph_cell *cells[2] = {pool[0], pool[2]};
    for (int k = 0; k < 2; ++k) {
        hb_sim *sim = NULL;
        HB_CHECK_STATUS(hb_sim_create(ctx, cells, 2, NULL, &sim), HB_SUCCESS);
        if (!sim)
            return;
        int64_t R = 0;
        hb_sim_rows(sim, &R);
        double *v = hb_test_xalloc((size_t)R * sizeof *v);
        HB_CHECK_STATUS(hb_sim_insert(sim, "pas", NULL), HB_SUCCESS);
        if (k)
            HB_CHECK_STATUS(hb_sim_insert(sim, "hh", NULL), HB_SUCCESS);
        HB_CHECK(strstr(hb_sim_describe(sim), "load") == NULL,
                 "no load before the model's setup: %s", hb_sim_describe(sim));
        HB_CHECK_STATUS(hb_sim_get_state(sim, HB_SIM_V, v), HB_SUCCESS);
        const char *want = k ? "(load 5 per compartment)" : "(load 1 per compartment)";
        HB_CHECK(strstr(hb_sim_describe(sim), want) != NULL, "expected \"%s\" in: %s", want,
                 hb_sim_describe(sim));
        free(v);
        hb_sim_destroy(sim);
    }
}

/* Bad model calls: the right code, and the model unchanged (a good run
 * after them gives the reference's numbers). */
static void refusals(hb_context *ctx)
{
    const hb_morph_cell *cells[1] = {pool[2]};
    hb_sim *sim = NULL;
    HB_CHECK_STATUS(hb_sim_create(ctx, cells, 1, NULL, &sim), HB_SUCCESS);
    if (!sim)
        return;
    const hb_status E = HB_ERR_INVALID_ARGUMENT;
    hb_sim_region r;
    hb_sim_region_init(&r);
    int64_t id = -1, n = 0;
    double t = 1.0, x[4096];
    HB_CHECK_STATUS(hb_sim_insert(sim, "nosuch", NULL), E);
    HB_CHECK(strstr(hb_last_error(), "nosuch") && strstr(hb_last_error(), "hh"),
             "the message names the mechanism and the catalogue: %s", hb_last_error());
    HB_CHECK_STATUS(hb_sim_insert(sim, "ExpSyn", NULL), E);
    HB_CHECK_STATUS(hb_sim_insert(NULL, "pas", NULL), E);
    HB_CHECK_STATUS(hb_sim_add_point(sim, "pas", 0, 0, &id), E);
    HB_CHECK_STATUS(hb_sim_set_param(sim, "hh", "gnabar", NULL, 0.1), E); /* not inserted */
    HB_CHECK_STATUS(hb_sim_insert(sim, "hh", NULL), HB_SUCCESS);
    HB_CHECK_STATUS(hb_sim_set_param(sim, "hh", "nosuch", NULL, 0.1), E);
    HB_CHECK(strstr(hb_last_error(), "gnabar") != NULL, "the message lists the parameters: %s",
             hb_last_error());
    HB_CHECK_STATUS(hb_sim_set_param(sim, "hh", "gnabar", NULL, NAN), E);
    /* A profile that overflows far out: refused, nothing written. */
    hb_sim_profile big = {0.1, 0, 1.0, 800.0};
    HB_CHECK_STATUS(hb_sim_set_param_profile(sim, "hh", "gnabar", NULL, &big), E);
    r.cell = 7;
    HB_CHECK_STATUS(hb_sim_insert(sim, "pas", &r), E);
    r.cell = -1, r.dist_min = NAN;
    HB_CHECK_STATUS(hb_sim_insert(sim, "pas", &r), E);
    HB_CHECK_STATUS(hb_sim_set_ion(sim, "xx", NULL, 0, 1, 1), E);
    HB_CHECK_STATUS(hb_sim_set_ion(sim, "na", NULL, NAN, -1, NAN), E);
    HB_CHECK_STATUS(hb_sim_add_point(sim, "ExpSyn", 1, 0, &id), E);
    HB_CHECK_STATUS(hb_sim_add_point(sim, "ExpSyn", 0, 1 << 30, &id), E);
    HB_CHECK_STATUS(hb_sim_add_point(sim, "ExpSyn", 0, -1, NULL), E);
    HB_CHECK_STATUS(hb_sim_add_point(sim, "ExpSyn", 0, -1, &id), HB_SUCCESS);
    HB_CHECK_STATUS(hb_sim_set_point_param(sim, id + 1, "tau", 1.0), E);
    HB_CHECK_STATUS(hb_sim_set_point_param(sim, id, "tau", INFINITY), E);
    double bad[2] = {1.0, -1.0};
    HB_CHECK_STATUS(hb_sim_add_events(sim, id, 2, bad, 0.1), E);
    HB_CHECK_STATUS(hb_sim_add_events(sim, id, 1, &t, NAN), E);
    HB_CHECK_STATUS(hb_sim_add_events(sim, id, 1, NULL, 0.1), E);
    hb_spike_train tr = {HB_TRAIN_REGULAR, 0, INFINITY, 1.0, 0, 0, 0.1};
    HB_CHECK_STATUS(hb_sim_add_spike_train(sim, id, &tr), E); /* never ends */
    tr.stop = 10, tr.interval = 0;
    HB_CHECK_STATUS(hb_sim_add_spike_train(sim, id, &tr), E);
    tr.kind = (hb_train_kind)9;
    HB_CHECK_STATUS(hb_sim_add_spike_train(sim, id, &tr), E);
    HB_CHECK_STATUS(hb_sim_get_mech_state(sim, "hh", "nosuch", x, &n), E);
    /* Nothing above changed hh's parameters: the defaults everywhere. */
    int64_t rows = 0;
    hb_sim_rows(sim, &rows);
    HB_CHECK(rows <= 4096, "test cell too large: %lld rows", (long long)rows);
    HB_CHECK_STATUS(hb_sim_get_mech_state(sim, "hh", "gnabar", x, &n), HB_SUCCESS);
    int same = n == rows;
    for (int64_t k = 0; k < n && k < 4096; ++k)
        same &= x[k] == 0.12;
    HB_CHECK(same, "refused calls changed hh's gnabar");
    /* After the model is set up (a state read), changes are refused. */
    HB_CHECK_STATUS(hb_sim_insert(sim, "pas", NULL), E);
    HB_CHECK_STATUS(hb_sim_run(sim, 2.0), HB_SUCCESS);
    /* Events may come between runs, never into steps already run. */
    double past = 1.0, next = 2.5;
    HB_CHECK_STATUS(hb_sim_add_events(sim, id, 1, &past, 0.1), E);
    HB_CHECK_STATUS(hb_sim_add_events(sim, id, 1, &next, 0.1), HB_SUCCESS);
    HB_CHECK_STATUS(hb_sim_run(sim, 3.0), HB_SUCCESS);
    hb_sim_destroy(sim);
    hb_mech_desc d;
    HB_CHECK_STATUS(hb_mech_describe(hb_mech_count(), &d), E);
    HB_CHECK(hb_mech_count() >= 4, "the built-in catalogue has pas, hh, ExpSyn, Exp2Syn");
    for (int64_t m = 0; m < hb_mech_count(); ++m) {
        HB_CHECK_STATUS(hb_mech_describe(m, &d), HB_SUCCESS);
        /* hh's currents: its ion currents in USEION order, then its leak. */
        if (!strcmp(d.name, "hh"))
            HB_CHECK(d.ncurrent == 3 && !strcmp(d.current_names[0], "ina") &&
                         !strcmp(d.current_names[1], "ik") && !strcmp(d.current_names[2], "il"),
                     "hh's currents: %d", d.ncurrent);
    }
}

int main(void)
{
    hb_test_begin("test_sim_model");
    hb_context *ctx = hb_test_context();
    hb_test_require_sim(ctx);
    hb_context *oracle = hb_test_oracle();
    pool[0] = hb_test_load_sections("jaxley__morph_ca1_n120_250.swc", 0);
    pool[1] = hb_test_load_sections("nrn__c91662.swc", 0);
    pool[2] = hb_test_load_sections("jaxley__morph_minimal.swc", 0);
    for (int p = 0; p < 2; ++p) {
        hb_precision prec = p ? HB_FLOAT : HB_DOUBLE;
        model md;
        draw(&md, prec);
        result ref, x;
        char desc[1400], what[200];
        HB_CHECK_STATUS(simulate(oracle, &md, HB_SIM_ENGINE_STAGES, &ref, desc, sizeof desc),
                        HB_SUCCESS);
        printf("oracle: %s\n", desc);
        int64_t spikes = 0;
        for (int64_t c = 0; c < md.ncells; ++c)
            spikes += ref.count[c];
        printf("%s model: %lld cells, %d synapses, Nernst na %d: %lld spikes\n",
               p ? "float" : "double", (long long)md.ncells, md.npt, md.nernst_na,
               (long long)spikes);
        for (int e = 0; e < 2; ++e) {
            hb_sim_engine eng = e ? HB_SIM_ENGINE_CELLS : HB_SIM_ENGINE_STAGES;
            snprintf(what, sizeof what, "%s model, engine %s", p ? "float" : "double",
                     e ? "cells" : "stages");
            if (e && hb_context_backend(ctx) == HB_BACKEND_SERIAL)
                continue; /* the oracle runs the stages only (test_sim_backend) */
            if (simulate(ctx, &md, eng, &x, desc, sizeof desc) == HB_SUCCESS) {
                printf("%s: %s\n", what, desc);
                HB_CHECK(strstr(desc, "ExpSyn") || strstr(desc, "Exp2Syn"),
                         "%s: the description names the mechanisms: %s", what, desc);
                compare(ctx, &md, &x, &ref, what);
            } else
                HB_CHECK(0, "%s: failed", what);
            free(x.trace);
        }
        free(ref.trace);
        exact_decay(ctx, prec);
    }
    default_is_explicit(ctx);
    load_described(ctx);
    refusals(ctx);
    for (int i = 0; i < 3; ++i)
        hb_morph_cell_destroy(pool[i]);
    hb_context_destroy(oracle);
    hb_context_destroy(ctx);
    return hb_test_finish();
}
