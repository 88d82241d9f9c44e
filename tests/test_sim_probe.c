/* test_sim_probe.c: probes (hb_sim_probe, hb_sim_probe_point) on the backend under test, both engines (and the on-chip epoch with v in rhs's array, stage vx): v at random compartments against hb_sim_get_state and hb_sim_record, hh gates and synaptic state against hb_sim_get_mech_state at the end, every trace over time against the serial oracle, Nernst potentials against the formula, ion and mechanism currents (hh, pas, synapses) against their formulas at the step's start; bad probes refused with nothing added. */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hb_test_util.h"

#define MAXC 4
#define MAXPT 4
#define MAXTR 192

static hb_morph_cell *pool[2];

/* A trace asked for: hb_sim_record (rec), a compartment probe or a point probe. */
typedef struct {
    int kind; /* 0 record, 1 probe, 2 point probe */
    int64_t cell, comp, point;
    char what[48];
} want;

/* A random model and its traces, drawn once, applied the same way to every run. */
typedef struct {
    int64_t ncells;
    const hb_morph_cell *cells[MAXC];
    hb_sim_params prm;
    int nernst_na, cad; /* cad: the catalogue's CaDynamics_E2 and Ca_HVA at the somata */
    double nai, nao, ena_far;
    int npt;
    struct {
        int64_t cell, comp;
        int exp2;
        double tau;
        hb_spike_train train;
    } pt[MAXPT];
    int ntr;
    want tr[MAXTR];
    double tstop;
} model;

static int has_mech(const char *name)
{
    hb_mech_desc d;
    for (int64_t m = 0; m < hb_mech_count(); ++m)
        if (hb_mech_describe(m, &d) == HB_SUCCESS && !strcmp(d.name, name))
            return 1;
    return 0;
}

static void add_want(model *md, int kind, int64_t cell, int64_t comp, int64_t point,
                     const char *what)
{
    if (md->ntr >= MAXTR)
        return;
    want *w = &md->tr[md->ntr++];
    w->kind = kind, w->cell = cell, w->comp = comp, w->point = point;
    snprintf(w->what, sizeof w->what, "%s", what);
}

static void draw(model *md, hb_precision p)
{
    memset(md, 0, sizeof *md);
    md->ncells = hb_test_range(1, MAXC);
    for (int64_t c = 0; c < md->ncells; ++c)
        md->cells[c] = pool[hb_test_range(0, 1)];
    hb_sim_params_init(&md->prm);
    md->prm.precision = p;
    md->prm.celsius = 6.3 + 25.0 * hb_test_unit();
    md->prm.record_chunk = hb_test_range(3, 200);
    md->nernst_na = (int)hb_test_range(0, 1);
    md->nai = 8 + 6 * hb_test_unit();
    md->nao = 120 + 40 * hb_test_unit();
    md->ena_far = 40 + 20 * hb_test_unit();
    md->cad = has_mech("CaDynamics_E2") && has_mech("Ca_HVA");
    md->npt = (int)hb_test_range(1, MAXPT);
    for (int i = 0; i < md->npt; ++i) {
        md->pt[i].cell = hb_test_range(0, md->ncells - 1);
        md->pt[i].comp = hb_test_range(-1, hb_test_cell_rows(md->cells[md->pt[i].cell]) - 1);
        md->pt[i].exp2 = (int)hb_test_range(0, 1);
        md->pt[i].tau = 0.5 + 3 * hb_test_unit();
        hb_spike_train *t = &md->pt[i].train;
        t->kind = hb_test_range(0, 1) ? HB_TRAIN_POISSON : HB_TRAIN_REGULAR;
        t->start = 5 * hb_test_unit();
        t->stop = t->start + 5 + 10 * hb_test_unit();
        t->interval = 0.5 + 3 * hb_test_unit();
        t->rate = 50 + 300 * hb_test_unit();
        t->seed = hb_test_rand();
        t->weight = 0.002 + 0.01 * hb_test_unit();
    }
    /* Traces: a soma recording first, then probes of every kind in random
     * compartments, another recording in the middle, point probes last. */
    add_want(md, 0, 0, -1, -1, "v");
    for (int64_t c = 0; c < md->ncells; ++c) {
        const int64_t n = hb_test_cell_rows(md->cells[c]);
        add_want(md, 1, c, -1, -1, "v");
        for (int k = 0; k < 3; ++k)
            add_want(md, 1, c, hb_test_range(0, n - 1), -1, "v");
        /* At the soma everything hh's currents are made of, and the currents. */
        static const char *const hh[] = {"hh.m",   "hh.h",  "hh.n",   "hh.gnabar",
                                         "hh.gkbar", "ena", "ek",   "ina",
                                         "ik",     "hh.ina", "hh.ik", "hh.il"};
        for (size_t k = 0; k < sizeof hh / sizeof hh[0]; ++k)
            add_want(md, 1, c, -1, -1, hh[k]);
        add_want(md, 1, c, hb_test_range(0, n - 1), -1, "pas.g");
        /* pas's current and what it is made of, in one compartment. */
        const int64_t k = hb_test_range(0, n - 1);
        static const char *const pas[] = {"v", "pas.g", "pas.e", "pas.i"};
        for (size_t q = 0; q < sizeof pas / sizeof pas[0]; ++q)
            add_want(md, 1, c, k, -1, pas[q]);
        add_want(md, 1, c, hb_test_range(0, n - 1), -1, "nai");
        add_want(md, 1, c, hb_test_range(0, n - 1), -1, "ena");
        add_want(md, 1, c, hb_test_range(0, n - 1), -1, hb_test_range(0, 1) ? "ko" : "ek");
        if (md->cad) {
            add_want(md, 1, c, -1, -1, "cai");
            add_want(md, 1, c, -1, -1, "eca");
            add_want(md, 1, c, -1, -1, "CaDynamics_E2.cai");
            add_want(md, 1, c, -1, -1, "ica");
        }
        if (c == md->ncells / 2 && md->ncells > 1)
            add_want(md, 0, md->ncells - 1, -1, -1, "v");
    }
    for (int i = 0; i < md->npt; ++i) {
        add_want(md, 2, md->pt[i].cell, md->pt[i].comp, i, md->pt[i].exp2 ? "B" : "g");
        add_want(md, 2, md->pt[i].cell, md->pt[i].comp, i, md->pt[i].exp2 ? "tau2" : "tau");
        /* Its current (nA) and what it is made of. */
        add_want(md, 2, md->pt[i].cell, md->pt[i].comp, i, "i");
        add_want(md, 2, md->pt[i].cell, md->pt[i].comp, i, "e");
        if (md->pt[i].exp2)
            add_want(md, 2, md->pt[i].cell, md->pt[i].comp, i, "A");
        add_want(md, 1, md->pt[i].cell, md->pt[i].comp, -1, "v");
    }
    md->tstop = 20.0;
}

static hb_status apply(hb_sim *sim, const model *md)
{
    hb_sim_region all, soma, far;
    hb_sim_region_init(&all);
    hb_sim_region_init(&soma);
    soma.types = HB_SIM_TYPE(1);
    hb_sim_region_init(&far);
    far.dist_min = 30;
    hb_status st;
    if ((st = hb_sim_insert(sim, "pas", &all)) ||
        (st = hb_sim_set_param(sim, "pas", "g", &all, 1e-4 + 2e-4 * (double)md->ncells / MAXC)) ||
        (st = hb_sim_insert(sim, "hh", &soma)) ||
        (st = hb_sim_set_param(sim, "hh", "gl", &soma, 0.0)))
        return st;
    if (md->nernst_na) {
        if ((st = hb_sim_set_ion(sim, "na", NULL, NAN, md->nai, md->nao)) ||
            (st = hb_sim_set_ion_nernst(sim, "na", 1)))
            return st;
    } else if ((st = hb_sim_set_ion(sim, "na", &far, md->ena_far, NAN, NAN)))
        return st;
    if (md->cad &&
        ((st = hb_sim_insert(sim, "Ca_HVA", &soma)) ||
         (st = hb_sim_set_param(sim, "Ca_HVA", "gCa_HVAbar", &soma, 0.002)) ||
         (st = hb_sim_insert(sim, "CaDynamics_E2", &soma)) ||
         (st = hb_sim_set_ion_nernst(sim, "ca", 1))))
        return st;
    for (int i = 0; i < md->npt; ++i) {
        int64_t id = -1;
        if ((st = hb_sim_add_point(sim, md->pt[i].exp2 ? "Exp2Syn" : "ExpSyn", md->pt[i].cell,
                                   md->pt[i].comp, &id)) ||
            (st = hb_sim_set_point_param(sim, id, md->pt[i].exp2 ? "tau2" : "tau",
                                         md->pt[i].exp2 ? md->pt[i].tau + 2 : md->pt[i].tau)) ||
            (st = hb_sim_add_spike_train(sim, id, &md->pt[i].train)))
            return st;
    }
    for (int64_t c = 0; c < md->ncells; ++c)
        if ((st = hb_sim_add_iclamp(sim, c, -1, 1.0, 12.0, 0.4 + 0.4 * (double)c / MAXC)))
            return st;
    for (int r = 0; r < md->ntr; ++r) {
        const want *w = &md->tr[r];
        int64_t id = -1;
        st = w->kind == 0 ? hb_sim_record(sim, w->cell)
             : w->kind == 1 ? hb_sim_probe(sim, w->cell, w->comp, w->what, &id)
                            : hb_sim_probe_point(sim, w->point, w->what, &id);
        if (st)
            return st;
        HB_CHECK(w->kind == 0 || id == r, "probe %d got id %lld", r, (long long)id);
    }
    return HB_SUCCESS;
}

typedef struct {
    int64_t nrows, nsamples;
    double *trace;           /* ntr x nsamples */
    double *v, *m;           /* nrows at the end: v, hh's m (NaN: none) */
    double syn[2][MAXPT];    /* ExpSyn g, Exp2Syn B, in id order of each */
    double spikes[MAXC][32];
    int64_t count[MAXC];
} result;

static void result_free(result *r)
{
    free(r->trace), free(r->v), free(r->m);
    memset(r, 0, sizeof *r);
}

static hb_status simulate(hb_context *ctx, const model *md, hb_sim_engine engine, result *r)
{
    memset(r, 0, sizeof *r);
    hb_sim_params prm = md->prm;
    prm.engine = engine;
    prm.epoch_steps = hb_test_range(0, 50);
    hb_sim *sim = NULL;
    hb_status st = hb_sim_create(ctx, md->cells, md->ncells, &prm, &sim);
    if (st == HB_SUCCESS)
        st = apply(sim, md);
    /* Stage vx asked for: the epoch that runs keeps v in rhs's array. */
    const char *stage = getenv("HINESBATCH_EPOCH_STAGE");
    if (st == HB_SUCCESS && stage && !strcmp(stage, "vx"))
        HB_CHECK(strstr(hb_sim_describe(sim), "v in the right-hand side"), "stage vx: %s",
                 hb_sim_describe(sim));
    if (st == HB_SUCCESS)
        st = hb_sim_run(sim, md->tstop * 0.37);
    if (st == HB_SUCCESS)
        st = hb_sim_run(sim, md->tstop);
    int64_t nrec = 0;
    if (st == HB_SUCCESS) {
        hb_sim_rows(sim, &r->nrows);
        hb_sim_trace_count(sim, &nrec, &r->nsamples);
        HB_CHECK(nrec == md->ntr, "%lld traces, %d asked for", (long long)nrec, md->ntr);
        r->trace = hb_test_xalloc((size_t)(md->ntr * r->nsamples) * sizeof(double));
        hb_test_poison(HB_DOUBLE, r->trace, md->ntr * r->nsamples);
        for (int k = 0; st == HB_SUCCESS && k < md->ntr && k < nrec; ++k) {
            int64_t cell = -1;
            hb_sim_trace_desc in;
            st = hb_sim_get_trace(sim, k, &cell, r->trace + k * r->nsamples);
            if (st == HB_SUCCESS)
                st = hb_sim_get_trace_info(sim, k, &in);
            const want *w = &md->tr[k];
            int64_t soma = -1;
            hb_sim_soma(sim, w->cell, &soma);
            const char *mech = w->kind == 2 ? (md->pt[w->point].exp2 ? "Exp2Syn" : "ExpSyn") : "";
            char what[80];
            snprintf(what, sizeof what, "%s%s%s", mech, w->kind == 2 ? "." : "", w->what);
            HB_CHECK(st != HB_SUCCESS ||
                         (cell == w->cell && in.cell == w->cell &&
                          in.compartment == (w->comp < 0 ? soma : w->comp) &&
                          in.point == (w->kind == 2 ? w->point : -1) &&
                          in.probe == (w->kind != 0) && !strcmp(in.what, what)),
                     "trace %d: info cell %lld compartment %lld point %lld \"%s\", asked for "
                     "cell %lld compartment %lld point %lld \"%s\"",
                     k, (long long)in.cell, (long long)in.compartment, (long long)in.point,
                     in.what, (long long)w->cell, (long long)w->comp, (long long)w->point, what);
        }
        r->v = hb_test_xalloc((size_t)r->nrows * sizeof(double));
        r->m = hb_test_xalloc((size_t)(r->nrows + MAXPT) * sizeof(double));
        hb_test_poison(HB_DOUBLE, r->v, r->nrows);
        int64_t n = 0;
        if (st == HB_SUCCESS)
            st = hb_sim_get_state(sim, HB_SIM_V, r->v);
        for (int k = 0; st == HB_SUCCESS && k < 2; ++k) {
            hb_test_poison(HB_DOUBLE, r->m, r->nrows + MAXPT);
            st = hb_sim_get_mech_state(sim, k ? "Exp2Syn" : "ExpSyn", k ? "B" : "g", r->m, &n);
            for (int64_t i = 0; st == HB_SUCCESS && i < n && i < MAXPT; ++i)
                r->syn[k][i] = r->m[i];
        }
        if (st == HB_SUCCESS)
            st = hb_sim_get_mech_state(sim, "hh", "m", r->m, &n);
        for (int64_t c = 0; st == HB_SUCCESS && c < md->ncells; ++c)
            st = hb_sim_get_spikes(sim, c, 32, r->spikes[c], &r->count[c]);
    }
    if (st != HB_SUCCESS)
        fprintf(stderr, "simulate: %s: %s\n", hb_status_string(st), hb_last_error());
    hb_sim_destroy(sim);
    return st;
}

/* The row of trace k's compartment. */
static int64_t trace_row(const model *md, int k)
{
    int64_t o = 0;
    const want *w = &md->tr[k];
    for (int64_t c = 0; c < w->cell; ++c)
        o += hb_test_cell_rows(md->cells[c]);
    if (w->comp >= 0)
        return o + w->comp;
    hb_morph_cell_view v;
    hb_morph_cell_get_view(md->cells[w->cell], &v);
    for (int64_t i = 0; i < v.n; ++i)
        if (v.type[i] == 1)
            return o + i;
    return o;
}

/* A run's own consistency: the last samples are the state at the end; the
 * recordings equal the soma v probes; Nernst potentials are the formula's. */
static void self_checks(const model *md, const result *r, const char *what)
{
    const int64_t ns = r->nsamples;
    const hb_precision p = md->prm.precision;
    int bad = 0;
    for (int k = 0; k < md->ntr; ++k) {
        const want *w = &md->tr[k];
        const double *x = r->trace + k * ns, last = x[ns - 1];
        const int64_t row = trace_row(md, k);
        if (w->kind != 2 && !strcmp(w->what, "v")) {
            bad += last != r->v[row];
            const double v0 = p == HB_DOUBLE ? md->prm.v_init : (float)md->prm.v_init;
            bad += x[0] != v0;
        } else if (!strcmp(w->what, "hh.m"))
            bad += last != r->m[row];
        else if (w->kind == 2 && (!strcmp(w->what, "g") || !strcmp(w->what, "B"))) {
            int e2 = md->pt[w->point].exp2, rank = 0;
            for (int64_t i = 0; i < w->point; ++i)
                rank += md->pt[i].exp2 == e2;
            bad += last != r->syn[e2][rank];
        }
        if (bad) {
            HB_CHECK(0, "%s: trace %d (%s at cell %lld compartment %lld): last %.17g, t=0 %.17g "
                     "do not match the state read at the end",
                     what, k, w->what, (long long)w->cell, (long long)w->comp, last, x[0]);
            bad = 0;
        }
        if (w->kind == 0)
            for (int j = 0; j < md->ntr; ++j)
                if (md->tr[j].kind == 1 && md->tr[j].cell == w->cell && md->tr[j].comp == -1 &&
                    !strcmp(md->tr[j].what, "v"))
                    HB_CHECK(hb_test_bitequal(x, r->trace + j * ns, (size_t)ns * sizeof(double)),
                             "%s: hb_sim_record(%lld) differs from the soma v probe", what,
                             (long long)w->cell);
        if (!strcmp(w->what, "ena") && md->nernst_na) {
            const double k0 = 1e3 * 8.31446261815324 * (md->prm.celsius + 273.15) /
                              96485.33212331001;
            const double e = k0 * log(md->nao / md->nai);
            double worst = 0;
            for (int64_t j = 0; j < ns; ++j)
                worst = fmax(worst, fabs(x[j] - e) / fabs(e));
            if (isnan(x[0]))
                worst = INFINITY;
            HB_CHECK(worst <= (p == HB_DOUBLE ? 1e-12 : 1e-5),
                     "%s: Nernst ena %.17g, expected %.17g (relative %g)", what, x[0], e, worst);
        }
    }
}

/* The first trace asked for as (kind, cell, comp, point, what), or NULL. */
static const double *find_trace(const model *md, const result *r, int kind, int64_t cell,
                                int64_t comp, int64_t point, const char *what)
{
    for (int k = 0; k < md->ntr; ++k)
        if (md->tr[k].kind == kind && md->tr[k].cell == cell && md->tr[k].comp == comp &&
            md->tr[k].point == point && !strcmp(md->tr[k].what, what))
            return r->trace + k * r->nsamples;
    return NULL;
}

/* Trace of cell's soma probe `what` (kind 1, compartment -1), or NULL. */
static const double *soma_trace(const model *md, const result *r, int64_t cell, const char *what)
{
    return find_trace(md, r, 1, cell, -1, -1, what);
}

/* Trace k's sample j of the values a current recorded at sample j is
 * computed from: those at the step's start, j - 1; at t = 0 those after
 * INITIAL (NEURON's convention). */
static int64_t from(int64_t j) { return j > 0 ? j - 1 : 0; }

/* Trace of `what` at the compartment of trace k (same cell and compartment,
 * same kind of probe), or NULL. */
static const double *beside(const model *md, const result *r, int k, const char *what)
{
    const want *w = &md->tr[k];
    return find_trace(md, r, w->kind, w->cell, w->comp, w->point, what);
}

/* The worst of |x[j] - f(j)| relative to x's largest magnitude over a trace
 * (NaN counts as infinite); 0 largest is fine only where x is 0 too. With
 * rise set, samples j where trace rise went up from j - 1 are skipped: a
 * synapse's events of that step moved its conductance before its current
 * (NET_RECEIVE first, as in NEURON), which the probe of j - 1 did not see;
 * elsewhere it only decays. */
typedef double (*formula)(const double *const *in, int64_t j);
static double off_by_but(const double *x, int64_t ns, formula f, const double *const *in,
                         const double *rise)
{
    double big = 0, worst = 0;
    for (int64_t j = 0; j < ns; ++j)
        big = fmax(big, fabs(x[j]));
    for (int64_t j = 0; j < ns; ++j) {
        if (rise && j > 0 && rise[j] > rise[j - 1])
            continue;
        const double e = fabs(x[j] - f(in, j));
        worst = isnan(e) ? INFINITY : fmax(worst, big > 0 ? e / big : e);
    }
    return worst;
}
static double off_by(const double *x, int64_t ns, formula f, const double *const *in)
{
    return off_by_but(x, ns, f, in, NULL);
}
/* in: gnabar, m, h, v, ena */
static double f_ina(const double *const *in, int64_t j)
{
    const int64_t i = from(j);
    return in[0][i] * in[1][i] * in[1][i] * in[1][i] * in[2][i] * (in[3][i] - in[4][i]);
}
/* in: gkbar, n, v, ek */
static double f_ik(const double *const *in, int64_t j)
{
    const int64_t i = from(j);
    const double n = in[1][i];
    return in[0][i] * n * n * n * n * (in[2][i] - in[3][i]);
}
/* in: g (S/cm2 or uS), v, e: pas's i and ExpSyn's */
static double f_ohm(const double *const *in, int64_t j)
{
    const int64_t i = from(j);
    return in[0][i] * (in[1][i] - in[2][i]);
}
/* in: A, B, v, e: Exp2Syn's i */
static double f_exp2(const double *const *in, int64_t j)
{
    const int64_t i = from(j);
    return (in[1][i] - in[0][i]) * (in[2][i] - in[3][i]);
}

/* The currents probed: at the soma the ion sums ina and ik (hh's alone
 * there) and hh's own ina, ik and il (gl is 0 there); pas's i in a
 * compartment; each synapse's i (nA). Each is the formula at the values of
 * the step's start (at t = 0, after INITIAL), within a bound relative to
 * its largest: the currents and the values are separate float traces. */
static void check_currents(const model *md, const result *r, const char *what)
{
    const int64_t ns = r->nsamples;
    double worst = 0;
    int checked = 0;
    for (int k = 0; k < md->ntr; ++k) {
        const want *w = &md->tr[k];
        const double *x = r->trace + k * ns;
        const char *nm = w->what;
        double e = -1;
        if (w->kind == 1 && (!strcmp(nm, "ina") || !strcmp(nm, "hh.ina"))) {
            const double *in[] = {beside(md, r, k, "hh.gnabar"), beside(md, r, k, "hh.m"),
                                  beside(md, r, k, "hh.h"), beside(md, r, k, "v"),
                                  beside(md, r, k, "ena")};
            if (in[0] && in[1] && in[2] && in[3] && in[4])
                e = off_by(x, ns, f_ina, in);
        } else if (w->kind == 1 && (!strcmp(nm, "ik") || !strcmp(nm, "hh.ik"))) {
            const double *in[] = {beside(md, r, k, "hh.gkbar"), beside(md, r, k, "hh.n"),
                                  beside(md, r, k, "v"), beside(md, r, k, "ek")};
            if (in[0] && in[1] && in[2] && in[3])
                e = off_by(x, ns, f_ik, in);
        } else if (w->kind == 1 && !strcmp(nm, "hh.il")) {
            e = 0;
            for (int64_t j = 0; j < ns; ++j)
                e = x[j] == 0 ? e : INFINITY;
        } else if (w->kind == 1 && !strcmp(nm, "pas.i")) {
            const double *in[] = {beside(md, r, k, "pas.g"), beside(md, r, k, "v"),
                                  beside(md, r, k, "pas.e")};
            if (in[0] && in[1] && in[2])
                e = off_by(x, ns, f_ohm, in);
        } else if (w->kind == 2 && !strcmp(nm, "i")) {
            /* v of the synapse's compartment (a compartment probe). */
            const double *vt = find_trace(md, r, 1, w->cell, w->comp, -1, "v");
            if (md->pt[w->point].exp2) {
                const double *in[] = {beside(md, r, k, "A"), beside(md, r, k, "B"), vt,
                                      beside(md, r, k, "e")};
                if (in[0] && in[1] && in[2] && in[3])
                    e = off_by_but(x, ns, f_exp2, in, in[1]);
            } else {
                const double *in[] = {beside(md, r, k, "g"), vt, beside(md, r, k, "e")};
                if (in[0] && in[1] && in[2])
                    e = off_by_but(x, ns, f_ohm, in, in[0]);
            }
        } else
            continue;
        HB_CHECK(e >= 0, "%s: trace %d (%s): what it is made of was not probed", what, k, nm);
        if (e > worst)
            printf("%s: trace %d (%s at cell %lld compartment %lld point %lld): %g\n", what, k,
                   nm, (long long)w->cell, (long long)w->comp, (long long)w->point, e);
        worst = fmax(worst, e);
        checked++;
    }
    const double bound = md->prm.precision == HB_DOUBLE ? 1e-12 : 1e-5;
    printf("%s: %d currents within %g (relative to their largest) of their formula at the "
           "step's start (bound %g)\n",
           what, checked, worst, bound);
    HB_CHECK(checked > 0 && worst <= bound, "%s: currents differ from their formula by %g > %g",
             what, worst, bound);
}

/* With calcium dynamics at the somata: the ion's concentration is the
 * mechanism's state (it writes both), and ica (Ca_HVA's, summed because
 * CaDynamics_E2 reads it) is inward from t = 0 on (INITIAL's state). */
static void check_calcium(const model *md, const result *r, const char *what)
{
    for (int64_t c = 0; md->cad && c < md->ncells; ++c) {
        const double *a = soma_trace(md, r, c, "cai"), *b = soma_trace(md, r, c, "CaDynamics_E2.cai");
        const double *ica = soma_trace(md, r, c, "ica");
        if (!a || !b || !ica)
            continue;
        double lo = 0;
        for (int64_t j = 0; j < r->nsamples; ++j)
            lo = fmin(lo, ica[j]);
        HB_CHECK(hb_test_bitequal(a, b, (size_t)r->nsamples * sizeof(double)) && a[0] > 0 &&
                     ica[0] < 0 && lo < 0,
                 "%s: cell %lld: cai %g and CaDynamics_E2.cai %g at t = 0 (equal at every "
                 "sample?), ica %g at t = 0, least %g",
                 what, (long long)c, a[0], b[0], ica[0], lo);
    }
}

/* Every trace against the oracle's: bit-identical on a host backend in the
 * oracle's order; else v within HB_TEST_SIM_MV and other values within a
 * relative bound of their trace's largest magnitude (double 1e-6; float
 * 2e-2 same order, 0.2 another), in float away from the cell's spikes. */
static void compare(hb_context *ctx, const model *md, const result *x, const result *ref,
                    const char *what)
{
    const int same = hb_test_on_host(ctx);
    const hb_precision p = md->prm.precision;
    HB_CHECK(x->nsamples == ref->nsamples, "%s: %lld samples, oracle %lld", what,
             (long long)x->nsamples, (long long)ref->nsamples);
    if (x->nsamples != ref->nsamples)
        return;
    const int64_t ns = x->nsamples;
    if (same) {
        HB_CHECK(hb_test_bitequal(x->trace, ref->trace, (size_t)(md->ntr * ns) * sizeof(double)),
                 "%s: traces not bit-identical to the serial backend's", what);
        return;
    }
    double worst_v = 0, worst_rel = 0;
    for (int k = 0; k < md->ntr; ++k) {
        const want *w = &md->tr[k];
        const double *a = x->trace + k * ns, *b = ref->trace + k * ns;
        double scale = 0;
        for (int64_t j = 0; j < ns; ++j)
            scale = fmax(scale, fabs(b[j]));
        const int isv = !strcmp(w->what, "v");
        for (int64_t j = 0; j < ns; ++j) {
            int near = 0;
            for (int64_t s = 0; p == HB_FLOAT && s < ref->count[w->cell] && s < 32; ++s)
                near |= fabs((double)j * md->prm.dt - ref->spikes[w->cell][s]) <=
                        HB_TEST_SIM_SPIKE_WINDOW;
            double e = fabs(a[j] - b[j]);
            if (isnan(e))
                e = INFINITY;
            if (near)
                continue;
            if (isv)
                worst_v = fmax(worst_v, e);
            else
                worst_rel = fmax(worst_rel, scale > 0 ? e / scale : e);
        }
    }
    const double mv = HB_TEST_SIM_MV(p, 0), rel = p == HB_DOUBLE ? 1e-6 : 0.2;
    printf("%s: %d traces; v within %g mV of the oracle (bound %g), other values within %g "
           "relative (bound %g)\n",
           what, md->ntr, worst_v, mv, worst_rel, rel);
    HB_CHECK(worst_v <= mv, "%s: probed v differs by %g mV > %g", what, worst_v, mv);
    HB_CHECK(worst_rel <= rel, "%s: probed values differ by %g > %g relative", what, worst_rel,
             rel);
}

/* Bad probes: the right code, a message naming the argument, the cell and
 * the compartment, and no trace added. */
static void refusals(hb_context *ctx)
{
    const hb_morph_cell *cells[2] = {pool[0], pool[1]};
    hb_sim *sim = NULL;
    HB_CHECK_STATUS(hb_sim_create(ctx, cells, 2, NULL, &sim), HB_SUCCESS);
    if (!sim)
        return;
    const hb_status E = HB_ERR_INVALID_ARGUMENT;
    hb_sim_region soma;
    hb_sim_region_init(&soma);
    soma.types = HB_SIM_TYPE(1);
    int64_t id = -1, pt = -1, nrec = -1;
    const int64_t n1 = hb_test_cell_rows(pool[1]);
    /* The default model (nothing inserted): hh is at the soma only. */
    HB_CHECK_STATUS(hb_sim_probe(sim, 0, -1, "hh.m", &id), HB_SUCCESS);
    HB_CHECK(id == 0, "the first probe is trace 0: %lld", (long long)id);
    HB_CHECK_STATUS(hb_sim_insert(sim, "pas", NULL), HB_SUCCESS);
    HB_CHECK_STATUS(hb_sim_insert(sim, "hh", &soma), HB_SUCCESS);
    HB_CHECK_STATUS(hb_sim_add_point(sim, "ExpSyn", 1, -1, &pt), HB_SUCCESS);
    struct {
        int64_t cell, comp;
        const char *what, *says;
    } bad[] = {{2, 0, "v", "cell 2"},
               {-1, 0, "v", "cell -1"},
               {1, n1, "v", "compartment"},
               {1, -2, "v", "compartment -2"},
               {0, -1, "nosuch.m", "nosuch"},
               {0, -1, "hh.nosuch", "nosuch"},
               {1, n1 - 1, "hh.m", "not inserted"},
               {0, -1, "ExpSyn.g", "hb_sim_probe_point"},
               {0, -1, "xxi", "xxi"},
               {0, -1, "ixx", "ixx"},
               {0, -1, "", "is not"},
               {0, -1, "pas.ina", "ina"},
               {0, -1, "hh.", "hh"}};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; ++k) {
        id = 77;
        HB_CHECK_STATUS(hb_sim_probe(sim, bad[k].cell, bad[k].comp, bad[k].what, &id), E);
        HB_CHECK(strstr(hb_last_error(), bad[k].says) && id == 77,
                 "probe \"%s\" at %lld/%lld: the message names \"%s\" and id is untouched: %s",
                 bad[k].what, (long long)bad[k].cell, (long long)bad[k].comp, bad[k].says,
                 hb_last_error());
    }
    HB_CHECK(strstr(hb_last_error(), "cell 0") && strstr(hb_last_error(), "compartment"),
             "the message names the cell and compartment: %s", hb_last_error());
    HB_CHECK_STATUS(hb_sim_probe(sim, 0, -1, NULL, &id), E);
    HB_CHECK_STATUS(hb_sim_probe(sim, 0, -1, "v", NULL), E);
    HB_CHECK_STATUS(hb_sim_probe(NULL, 0, -1, "v", &id), E);
    HB_CHECK_STATUS(hb_sim_probe_point(sim, pt + 1, "g", &id), E);
    HB_CHECK_STATUS(hb_sim_probe_point(sim, pt, "nosuch", &id), E);
    HB_CHECK(strstr(hb_last_error(), "nosuch") && strstr(hb_last_error(), "ExpSyn"),
             "the message names the variable and the mechanism: %s", hb_last_error());
    HB_CHECK_STATUS(hb_sim_probe_point(sim, pt, NULL, &id), E);
    HB_CHECK_STATUS(hb_sim_probe_point(sim, pt, "g", NULL), E);
    hb_sim_trace_desc in;
    HB_CHECK_STATUS(hb_sim_get_trace_info(sim, 1, &in), E);
    HB_CHECK_STATUS(hb_sim_get_trace_info(sim, 0, NULL), E);
    HB_CHECK_STATUS(hb_sim_trace_count(sim, &nrec, NULL), HB_SUCCESS);
    HB_CHECK(nrec == 1, "refused probes added traces: %lld", (long long)nrec);
    HB_CHECK_STATUS(hb_sim_probe_point(sim, pt, "g", &id), HB_SUCCESS);
    HB_CHECK(id == 1, "the point probe is trace 1: %lld", (long long)id);
    HB_CHECK_STATUS(hb_sim_run(sim, 1.0), HB_SUCCESS);
    HB_CHECK_STATUS(hb_sim_probe(sim, 0, -1, "v", &id), E);
    HB_CHECK(strstr(hb_last_error(), "before the first hb_sim_run") != NULL,
             "after a run: %s", hb_last_error());
    HB_CHECK_STATUS(hb_sim_probe_point(sim, pt, "g", &id), E);
    hb_sim_destroy(sim);

    /* A probe of the default model's hh that a later insert leaves without
     * hh: the run says which probe. */
    HB_CHECK_STATUS(hb_sim_create(ctx, cells, 1, NULL, &sim), HB_SUCCESS);
    if (!sim)
        return;
    HB_CHECK_STATUS(hb_sim_probe(sim, 0, -1, "hh.n", &id), HB_SUCCESS);
    HB_CHECK_STATUS(hb_sim_insert(sim, "pas", NULL), HB_SUCCESS);
    HB_CHECK_STATUS(hb_sim_run(sim, 1.0), E);
    HB_CHECK(strstr(hb_last_error(), "hh.n") != NULL, "the run names the probe: %s",
             hb_last_error());
    hb_sim_destroy(sim);

    /* A mechanism's current probed after a state read set the model up:
     * refused (its slots are made at the setup), its other values not. */
    HB_CHECK_STATUS(hb_sim_create(ctx, cells, 1, NULL, &sim), HB_SUCCESS);
    if (!sim)
        return;
    double *v = hb_test_xalloc((size_t)hb_test_cell_rows(pool[0]) * sizeof *v);
    HB_CHECK_STATUS(hb_sim_probe(sim, 0, -1, "hh.il", &id), HB_SUCCESS);
    HB_CHECK_STATUS(hb_sim_get_state(sim, HB_SIM_V, v), HB_SUCCESS);
    id = 77;
    HB_CHECK_STATUS(hb_sim_probe(sim, 0, -1, "pas.i", &id), E);
    HB_CHECK(strstr(hb_last_error(), "pas.i") && strstr(hb_last_error(), "before") && id == 77,
             "a current probed after the setup: %s", hb_last_error());
    HB_CHECK_STATUS(hb_sim_probe(sim, 0, -1, "hh.ina", &id), HB_SUCCESS);
    HB_CHECK_STATUS(hb_sim_probe(sim, 0, -1, "pas.g", &id), HB_SUCCESS);
    HB_CHECK_STATUS(hb_sim_run(sim, 1.0), HB_SUCCESS);
    free(v);
    hb_sim_destroy(sim);
}

int main(void)
{
    hb_test_begin("test_sim_probe");
    hb_context *ctx = hb_test_context();
    hb_test_require_sim(ctx);
    hb_context *oracle = hb_test_oracle();
    pool[0] = hb_test_load_sections("jaxley__morph_ca1_n120_250.swc", 0);
    pool[1] = hb_test_load_sections("jaxley__morph_minimal.swc", 0);
    for (int p = 0; p < 2; ++p) {
        const hb_precision prec = p ? HB_FLOAT : HB_DOUBLE;
        model md;
        draw(&md, prec);
        result ref, x;
        char what[160];
        HB_CHECK_STATUS(simulate(oracle, &md, HB_SIM_ENGINE_STAGES, &ref), HB_SUCCESS);
        int64_t spikes = 0;
        for (int64_t c = 0; c < md.ncells; ++c)
            spikes += ref.count[c];
        printf("%s: %lld cells, %d traces, %d synapses, Nernst na %d, calcium %d, record_chunk "
               "%lld: %lld spikes\n",
               p ? "float" : "double", (long long)md.ncells, md.ntr, md.npt, md.nernst_na,
               md.cad, (long long)md.prm.record_chunk, (long long)spikes);
        if (ref.trace)
            self_checks(&md, &ref, "oracle"), check_currents(&md, &ref, "oracle"),
                check_calcium(&md, &ref, "oracle");
        /* e = 2: the on-chip epoch with v in rhs's array (the step for v;
         * HINESBATCH_EPOCH_STAGE=vx), whose probes of v are recorded before
         * the rows' pass puts rhs there. */
        for (int e = 0; e < 3; ++e) {
            if (e && hb_context_backend(ctx) == HB_BACKEND_SERIAL)
                continue; /* the oracle runs the stages only */
            if (e == 2 && hb_test_host_backend(hb_context_backend(ctx)))
                continue; /* no on-chip epoch */
            const hb_sim_engine eng = e ? HB_SIM_ENGINE_CELLS : HB_SIM_ENGINE_STAGES;
            snprintf(what, sizeof what, "%s, engine %s", p ? "float" : "double",
                     e == 2 ? "cells, stage vx" : e ? "cells" : "stages");
            if (e == 2)
                setenv("HINESBATCH_EPOCH_STAGE", "vx", 1);
            const hb_status st = simulate(ctx, &md, eng, &x);
            unsetenv("HINESBATCH_EPOCH_STAGE");
            if (st == HB_SUCCESS && ref.trace) {
                self_checks(&md, &x, what);
                check_currents(&md, &x, what);
                check_calcium(&md, &x, what);
                compare(ctx, &md, &x, &ref, what);
            } else
                HB_CHECK(0, "%s: failed", what);
            result_free(&x);
        }
        result_free(&ref);
    }
    refusals(ctx);
    for (int i = 0; i < 2; ++i)
        hb_morph_cell_destroy(pool[i]);
    hb_context_destroy(oracle);
    hb_context_destroy(ctx);
    return hb_test_finish();
}
