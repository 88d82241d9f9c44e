/* test_net.c: networks (hb_net) on the backend under test: a ring and a random network of real neurons with ExpSyn synapses; the same spikes (bitwise on the host backends) whatever the split over parts and over ranks (threads exchanging through an hb_net_comm), delays honoured, against the serial oracle; a spike detector moved off the soma; bad calls refused. */
#define _POSIX_C_SOURCE 200809L /* pthread barriers */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "hb_test_util.h"
#include "hinesbatch_net.h"

#define MAXC 10
#define MAXCONN 40

static hb_morph_cell *pool[2];

typedef struct {
    int64_t src, dst;
    double  weight, delay;
} conn;

/* A network drawn once: cells, connections, a kick into cell 0. */
typedef struct {
    int64_t ncells, nconn;
    int     cell[MAXC];
    conn    c[MAXCONN];
    hb_precision prec;
    hb_net_delivery delivery;
    double  tstop;
    int64_t max_spikes; /* small rings: the engine drains them often */
} netdef;

static void draw(netdef *n, int ring, hb_precision p)
{
    memset(n, 0, sizeof *n);
    n->prec = p;
    n->ncells = hb_test_range(3, MAXC);
    for (int64_t i = 0; i < n->ncells; ++i)
        n->cell[i] = (int)hb_test_range(0, 1);
    if (ring)
        for (int64_t i = 0; i < n->ncells; ++i)
            n->c[n->nconn++] = (conn){i, (i + 1) % n->ncells, 0.5, 1.0 + 3.0 * hb_test_unit()};
    else
        for (int64_t k = 0; k < 3 * n->ncells && n->nconn < MAXCONN; ++k) {
            int64_t a = hb_test_range(0, n->ncells - 1), b = hb_test_range(0, n->ncells - 1);
            if (a != b)
                n->c[n->nconn++] = (conn){a, b, 0.05 + 0.3 * hb_test_unit(),
                                          0.5 + 4.0 * hb_test_unit()};
        }
    n->delivery = hb_test_range(0, 1) ? HB_NET_SPIKE_TIME : HB_NET_STEP_END;
    n->tstop = 30 + 20 * hb_test_unit();
    n->max_spikes = hb_test_range(1, 64);
}

typedef struct {
    int64_t n;
    hb_net_spike s[4096];
} spikes;

/* Runs the network with its cells split into nparts parts (cell i in part
 * part_of[i]) on ctx, as rank `rank` of `comm` (NULL: alone; a rank keeps
 * the cells with i % size == rank). The spikes of every rank into out. */
static hb_status run_net(hb_context *ctx, const netdef *n, int nparts, const int *part_of,
                         const hb_net_comm *comm, spikes *out)
{
    hb_net *net = NULL;
    hb_sim *sim[MAXC] = {0};
    int64_t point[MAXC]; /* the synapse of cell i in its part */
    int32_t pid[MAXC];
    int partof_cell[MAXC];
    hb_status st = hb_net_create(comm, n->delivery, &net);
    const int rank = comm ? comm->rank : 0, size = comm ? comm->size : 1;
    for (int q = 0; st == HB_SUCCESS && q < nparts; ++q) {
        const hb_morph_cell *cells[MAXC];
        int64_t gids[MAXC], m = 0;
        for (int64_t i = 0; i < n->ncells; ++i)
            if (part_of[i] == q && i % size == rank) {
                partof_cell[i] = q;
                gids[m] = i;
                cells[m++] = pool[n->cell[i]];
            }
        if (m == 0)
            continue;
        hb_sim_params prm;
        hb_sim_params_init(&prm);
        prm.precision = n->prec;
        prm.max_spikes = n->max_spikes; /* drawn once: ranks are threads */
        if ((st = hb_sim_create(ctx, cells, m, &prm, &sim[q])) != HB_SUCCESS)
            break;
        for (int64_t k = 0; st == HB_SUCCESS && k < m; ++k) {
            int64_t soma;
            if ((st = hb_sim_soma(sim[q], k, &soma)) == HB_SUCCESS &&
                (st = hb_sim_add_point(sim[q], "ExpSyn", k, soma, &point[gids[k]])) == HB_SUCCESS)
                st = hb_sim_set_point_param(sim[q], point[gids[k]], "tau", 2.0);
        }
        /* The kick: cell 0's synapse at t = 1 ms. */
        for (int64_t k = 0; st == HB_SUCCESS && k < m; ++k)
            if (gids[k] == 0) {
                double t = 1.0;
                st = hb_sim_add_events(sim[q], point[0], 1, &t, 0.5);
            }
        if (st == HB_SUCCESS)
            st = hb_net_add_part(net, sim[q], gids, &pid[q]);
    }
    /* In one global order, those whose target lives here. */
    for (int64_t j = 0; st == HB_SUCCESS && j < n->nconn; ++j) {
        const conn *c = &n->c[j];
        if (c->dst % size != rank)
            continue;
        st = hb_net_connect(net, c->src, pid[partof_cell[c->dst]], point[c->dst], c->weight,
                            c->delay);
    }
    /* In two runs: the network goes on where it stopped. */
    if (st == HB_SUCCESS)
        st = hb_net_run(net, n->tstop / 2);
    if (st == HB_SUCCESS)
        st = hb_net_run(net, n->tstop);
    if (st == HB_SUCCESS) {
        hb_test_poison(HB_DOUBLE, out->s, 2 * 4096);
        st = hb_net_spikes(net, 1, 4096, out->s, &out->n);
        if (st == HB_SUCCESS && out->n > 4096)
            out->n = 4096;
    }
    hb_net_destroy(net);
    for (int q = 0; q < nparts; ++q)
        hb_sim_destroy(sim[q]);
    return st;
}

static int same(const spikes *a, const spikes *b, double tol)
{
    if (a->n != b->n)
        return 0;
    for (int64_t k = 0; k < a->n; ++k)
        if (a->s[k].gid != b->s[k].gid || !(fabs(a->s[k].t - b->s[k].t) <= tol))
            return 0;
    return 1;
}

/* Ranks as threads: an hb_net_comm over shared slots and a barrier. */
typedef struct {
    pthread_barrier_t bar;
    int size;
    const hb_net_spike *mine[4];
    int64_t n[4];
    double x[4];
} fake_world;
typedef struct {
    fake_world *w;
    int rank;
} fake_rank;
static hb_status fake_allgather(void *user, const hb_net_spike *mine, int64_t n,
                                hb_net_spike **all, int64_t *nall)
{
    fake_rank *r = user;
    fake_world *w = r->w;
    w->mine[r->rank] = mine, w->n[r->rank] = n;
    pthread_barrier_wait(&w->bar);
    int64_t tot = 0;
    for (int k = 0; k < w->size; ++k)
        tot += w->n[k];
    *all = tot ? malloc((size_t)tot * sizeof **all) : NULL;
    *nall = tot;
    int64_t at = 0;
    for (int k = 0; k < w->size; ++k) {
        if (w->n[k])
            memcpy(*all + at, w->mine[k], (size_t)w->n[k] * sizeof **all);
        at += w->n[k];
    }
    pthread_barrier_wait(&w->bar);
    return HB_SUCCESS;
}
static hb_status fake_min(void *user, double *x)
{
    fake_rank *r = user;
    fake_world *w = r->w;
    w->x[r->rank] = *x;
    pthread_barrier_wait(&w->bar);
    double m = w->x[0];
    for (int k = 1; k < w->size; ++k)
        m = fmin(m, w->x[k]);
    pthread_barrier_wait(&w->bar);
    *x = m;
    return HB_SUCCESS;
}
typedef struct {
    hb_context *ctx;
    const netdef *n;
    const int *part_of;
    hb_net_comm comm;
    fake_rank me;
    spikes out;
    hb_status st;
} rank_job;
static void *rank_main(void *arg)
{
    rank_job *j = arg;
    j->comm.user = &j->me;
    j->st = run_net(j->ctx, j->n, 2, j->part_of, &j->comm, &j->out);
    return NULL;
}

static void check_net(hb_context *ctx, hb_context *oracle, int ring, hb_precision p)
{
    const int host = hb_test_on_host(ctx);
    netdef n;
    draw(&n, ring, p);
    const char *what = ring ? "ring" : "random";
    int one[MAXC] = {0}, split[MAXC];
    for (int64_t i = 0; i < n.ncells; ++i)
        split[i] = (int)hb_test_range(0, 2);
    spikes *ref = malloc(sizeof *ref), *x = malloc(sizeof *x);
    HB_CHECK_STATUS(run_net(oracle, &n, 1, one, NULL, ref), HB_SUCCESS);
    printf("%s %s network: %lld cells, %lld connections, delivery %s: %lld spikes\n",
           hb_test_precision_name(p), what, (long long)n.ncells, (long long)n.nconn,
           n.delivery == HB_NET_STEP_END ? "step end" : "spike time", (long long)ref->n);
    if (ring)
        HB_CHECK(ref->n >= n.ncells, "ring: %lld spikes for %lld cells: the wave did not go round",
                 (long long)ref->n, (long long)n.ncells);
    /* Delays honoured: in a ring each cell's first spike comes at least one
     * delay after its predecessor's first. */
    if (ring) {
        double first[MAXC];
        for (int64_t i = 0; i < n.ncells; ++i)
            first[i] = INFINITY;
        for (int64_t k = 0; k < ref->n; ++k)
            first[ref->s[k].gid] = fmin(first[ref->s[k].gid], ref->s[k].t);
        for (int64_t i = 1; i < n.ncells; ++i)
            HB_CHECK(first[i] >= first[i - 1] + n.c[i - 1].delay,
                     "ring: cell %lld fired at %g ms, cell %lld at %g, delay %g", (long long)i,
                     first[i], (long long)(i - 1), first[i - 1], n.c[i - 1].delay);
    }
    /* On the backend under test: one part, then three. Host backends are
     * bitwise the oracle's (a cell's arithmetic is its own); a GPU's within
     * the simulation tests' bound on spike times. */
    const double tol = host ? 0.0 : p == HB_DOUBLE ? 1e-6 : 0.05;
    HB_CHECK_STATUS(run_net(ctx, &n, 1, one, NULL, x), HB_SUCCESS);
    HB_CHECK(same(ref, x, tol), "%s %s: one part: %lld spikes vs the oracle's %lld",
             hb_test_precision_name(p), what, (long long)x->n, (long long)ref->n);
    HB_CHECK_STATUS(run_net(ctx, &n, 3, split, NULL, x), HB_SUCCESS);
    HB_CHECK(same(ref, x, tol), "%s %s: three parts: %lld spikes vs %lld",
             hb_test_precision_name(p), what, (long long)x->n, (long long)ref->n);
    /* Two and three ranks (threads), two parts each. */
    for (int size = 2; size <= 3; ++size) {
        fake_world w;
        memset(&w, 0, sizeof w);
        w.size = size;
        pthread_barrier_init(&w.bar, NULL, (unsigned)size);
        rank_job *job = calloc((size_t)size, sizeof *job);
        pthread_t th[4];
        int part2[MAXC];
        for (int64_t i = 0; i < n.ncells; ++i)
            part2[i] = split[i] % 2;
        for (int r = 0; r < size; ++r) {
            job[r] = (rank_job){ctx, &n, part2, {NULL, r, size, fake_allgather, fake_min},
                                {&w, r}, {0}, HB_SUCCESS};
            pthread_create(&th[r], NULL, rank_main, &job[r]);
        }
        for (int r = 0; r < size; ++r)
            pthread_join(th[r], NULL);
        for (int r = 0; r < size; ++r) {
            HB_CHECK_STATUS(job[r].st, HB_SUCCESS);
            HB_CHECK(same(ref, &job[r].out, tol), "%s %s: rank %d of %d: %lld spikes vs %lld",
                     hb_test_precision_name(p), what, r, size, (long long)job[r].out.n,
                     (long long)ref->n);
        }
        pthread_barrier_destroy(&w.bar);
        free(job);
    }
    free(ref), free(x);
}

/* A detector moved off the soma (hb_sim_set_spike_detector): its spikes
 * are the interpolated upward crossings of that compartment's voltage (a
 * probe), hb_sim_record records that voltage, and a network sees them. */
static void moved_detector(hb_context *ctx, hb_precision p)
{
    const hb_morph_cell *cells[1] = {pool[1]};
    hb_sim_params prm;
    hb_sim_params_init(&prm);
    prm.precision = p;
    prm.hh_everywhere = 1; /* so that spikes reach the dendrites */
    hb_sim *sim = NULL;
    HB_CHECK_STATUS(hb_sim_create(ctx, cells, 1, &prm, &sim), HB_SUCCESS);
    if (!sim)
        return;
    int64_t off, n, soma, probe;
    hb_sim_cell_rows(sim, 0, &off, &n);
    hb_sim_soma(sim, 0, &soma);
    const int64_t k = (soma + 1 + hb_test_range(0, n - 2)) % n; /* not the soma */
    HB_CHECK_STATUS(hb_sim_set_spike_detector(sim, 0, n), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_sim_set_spike_detector(sim, 1, k), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_sim_set_spike_detector(sim, 0, k), HB_SUCCESS);
    HB_CHECK_STATUS(hb_sim_record(sim, 0), HB_SUCCESS);
    HB_CHECK_STATUS(hb_sim_probe(sim, 0, k, "v", &probe), HB_SUCCESS);
    HB_CHECK_STATUS(hb_sim_add_iclamp(sim, 0, -1, 2.0, 30.0, 1.5), HB_SUCCESS);
    HB_CHECK_STATUS(hb_sim_run(sim, 40.0), HB_SUCCESS);
    HB_CHECK_STATUS(hb_sim_set_spike_detector(sim, 0, -1), HB_ERR_INVALID_ARGUMENT);
    int64_t nrec = 0, ns = 0, cell = 0;
    hb_sim_trace_count(sim, &nrec, &ns);
    double *rec = hb_test_xalloc((size_t)ns * sizeof *rec);
    double *pv = hb_test_xalloc((size_t)ns * sizeof *pv);
    hb_sim_get_trace(sim, 0, &cell, rec);
    hb_sim_get_trace(sim, probe, &cell, pv);
    HB_CHECK(hb_test_bitequal(rec, pv, (size_t)ns * sizeof *rec),
             "hb_sim_record of a moved detector is not the voltage at compartment %lld",
             (long long)k);
    double t[64];
    int64_t cnt = 0, m = 0;
    HB_CHECK_STATUS(hb_sim_get_spikes(sim, 0, 64, t, &cnt), HB_SUCCESS);
    const double thr = prm.threshold, dt = prm.dt, tol = p == HB_DOUBLE ? 1e-9 : 1e-3;
    double worst = 0;
    for (int64_t j = 1; j < ns; ++j)
        if (pv[j - 1] < thr && pv[j] >= thr) {
            const double x = (double)(j - 1) * dt + dt * (thr - pv[j - 1]) / (pv[j] - pv[j - 1]);
            if (m < cnt && m < 64)
                worst = fmax(worst, fabs(x - t[m]));
            ++m;
        }
    printf("%s detector at compartment %lld of %lld: %lld spikes, crossings of its voltage "
           "%lld, worst time difference %.2e ms\n",
           hb_test_precision_name(p), (long long)k, (long long)n, (long long)cnt, (long long)m,
           worst);
    HB_CHECK(cnt >= 1 && cnt == m && worst <= tol,
             "detector at %lld: %lld spikes, %lld crossings, worst %g ms (bound %g)", (long long)k,
             (long long)cnt, (long long)m, worst, tol);
    free(rec), free(pv);
    hb_sim_destroy(sim);
}

static void bad_calls(hb_context *ctx)
{
    const hb_status E = HB_ERR_INVALID_ARGUMENT;
    const hb_morph_cell *cells[2] = {pool[0], pool[0]};
    hb_sim_params prm;
    hb_sim_params_init(&prm);
    hb_sim *sim = NULL, *other = NULL;
    HB_CHECK_STATUS(hb_sim_create(ctx, cells, 2, &prm, &sim), HB_SUCCESS);
    prm.dt = 0.05;
    HB_CHECK_STATUS(hb_sim_create(ctx, cells, 1, &prm, &other), HB_SUCCESS);
    int64_t syn;
    HB_CHECK_STATUS(hb_sim_add_point(sim, "ExpSyn", 1, 0, &syn), HB_SUCCESS);
    hb_net *net = NULL;
    int32_t part = -1, p2;
    HB_CHECK_STATUS(hb_net_create(NULL, (hb_net_delivery)7, &net), E);
    HB_CHECK_STATUS(hb_net_create(NULL, HB_NET_STEP_END, NULL), E);
    hb_net_comm bad = {NULL, 2, 2, fake_allgather, fake_min};
    HB_CHECK_STATUS(hb_net_create(&bad, HB_NET_STEP_END, &net), E);
    HB_CHECK_STATUS(hb_net_create(NULL, HB_NET_STEP_END, &net), HB_SUCCESS);
    HB_CHECK_STATUS(hb_net_run(net, 1.0), E); /* no parts */
    int64_t gids[2] = {5, -1};
    HB_CHECK_STATUS(hb_net_add_part(net, sim, gids, &part), E);
    gids[1] = 6;
    HB_CHECK_STATUS(hb_net_add_part(net, NULL, gids, &part), E);
    HB_CHECK_STATUS(hb_net_add_part(net, sim, gids, &part), HB_SUCCESS);
    HB_CHECK_STATUS(hb_net_add_part(net, sim, gids, &p2), E);   /* twice */
    HB_CHECK_STATUS(hb_net_add_part(net, other, gids, &p2), E); /* another dt */
    HB_CHECK_STATUS(hb_net_connect(net, 5, part + 1, syn, 0.1, 1.0), E);
    HB_CHECK_STATUS(hb_net_connect(net, 5, part, syn + 100, 0.1, 1.0), E);
    HB_CHECK_STATUS(hb_net_connect(net, -1, part, syn, 0.1, 1.0), E);
    HB_CHECK_STATUS(hb_net_connect(net, 5, part, syn, NAN, 1.0), E);
    HB_CHECK_STATUS(hb_net_connect(net, 5, part, syn, 0.1, 0.01), E); /* below dt */
    HB_CHECK_STATUS(hb_net_connect(net, 5, part, syn, 0.1, INFINITY), E);
    HB_CHECK_STATUS(hb_net_connect(net, 5, part, syn, 0.1, 1.0), HB_SUCCESS);
    /* Connection values: ExpSyn's NET_RECEIVE keeps none (t-compare's
     * stp_net checks a mechanism that does, on every backend). */
    int64_t nconn = -1;
    HB_CHECK_STATUS(hb_net_connection_count(NULL, &nconn), E);
    HB_CHECK_STATUS(hb_net_connection_count(net, NULL), E);
    HB_CHECK_STATUS(hb_net_connection_count(net, &nconn), HB_SUCCESS);
    HB_CHECK(nconn == 1, "hb_net_connection_count: %lld, expected 1", (long long)nconn);
    double vals[2] = {-7, -7};
    int32_t nv = -1;
    HB_CHECK_STATUS(hb_net_get_values(net, 1, 2, vals, &nv), E);  /* no connection 1 */
    HB_CHECK_STATUS(hb_net_get_values(net, -1, 2, vals, &nv), E);
    HB_CHECK_STATUS(hb_net_get_values(net, 0, 2, vals, NULL), E);
    HB_CHECK_STATUS(hb_net_get_values(net, 0, 2, NULL, &nv), E);
    HB_CHECK_STATUS(hb_net_get_values(net, 0, -1, vals, &nv), E);
    HB_CHECK_STATUS(hb_net_get_values(net, 0, 2, vals, &nv), HB_SUCCESS);
    HB_CHECK(nv == 0 && vals[0] == -7, "ExpSyn's connection: %d values, values[0] = %g", (int)nv,
             vals[0]);
    HB_CHECK_STATUS(hb_net_set_values(net, 0, 1, vals), E); /* keeps none */
    HB_CHECK(strstr(hb_last_error(), "ExpSyn") && strstr(hb_last_error(), "keeps 0"),
             "hb_net_set_values on ExpSyn: '%s'", hb_last_error());
    HB_CHECK_STATUS(hb_net_set_values(net, 3, 0, vals), E);
    HB_CHECK_STATUS(hb_net_set_values(net, 0, 0, NULL), HB_SUCCESS);
    HB_CHECK_STATUS(hb_net_run(net, NAN), E);
    /* 1e30 ms is 4e31 steps: refused as hb_sim_run refuses it, not clamped
     * to 2^62 steps and run. */
    HB_CHECK_STATUS(hb_net_run(net, 1e30), E);
    HB_CHECK(strstr(hb_last_error(), "tstop = 1e+30 ms") && strstr(hb_last_error(), "2^62"),
             "hb_net_run 1e30: '%s'", hb_last_error());
    HB_CHECK_STATUS(hb_net_run(net, 2.0), HB_SUCCESS);
    double ms = 0;
    int64_t epochs = 0;
    HB_CHECK_STATUS(hb_net_epoch(net, &ms, &epochs), HB_SUCCESS);
    HB_CHECK(fabs(ms - 1.0) < 1e-9 && epochs == 2, "epoch %g ms, %lld epochs", ms,
             (long long)epochs);
    HB_CHECK_STATUS(hb_net_connect(net, 5, part, syn, 0.1, 1.0), E); /* after a run */
    HB_CHECK_STATUS(hb_net_set_values(net, 0, 0, NULL), E);
    HB_CHECK_STATUS(hb_net_get_values(net, 0, 0, NULL, &nv), HB_SUCCESS);
    int64_t cnt;
    HB_CHECK_STATUS(hb_net_spikes(net, 0, 1, NULL, &cnt), E);
    HB_CHECK_STATUS(hb_net_spikes(net, 0, 0, NULL, NULL), E);
    HB_CHECK_STATUS(hb_net_spikes(net, 0, 0, NULL, &cnt), HB_SUCCESS);
    hb_net_destroy(net);
    /* Two parts with one gid. */
    hb_sim *s2 = NULL;
    prm.dt = 0.025;
    HB_CHECK_STATUS(hb_sim_create(ctx, cells, 1, &prm, &s2), HB_SUCCESS);
    HB_CHECK_STATUS(hb_net_create(NULL, HB_NET_STEP_END, &net), HB_SUCCESS);
    hb_sim *s3 = NULL;
    HB_CHECK_STATUS(hb_sim_create(ctx, cells, 1, &prm, &s3), HB_SUCCESS);
    int64_t g1 = 3;
    HB_CHECK_STATUS(hb_net_add_part(net, s2, &g1, &part), HB_SUCCESS);
    HB_CHECK_STATUS(hb_net_add_part(net, s3, &g1, &part), HB_SUCCESS);
    HB_CHECK_STATUS(hb_net_run(net, 1.0), E);
    hb_net_destroy(net);
    /* A finite delay of 1e300 ms (4e301 steps): one epoch per run, its step
     * count never converted from the double as it is (UBSan stopped here). */
    hb_sim_destroy(s3);
    s3 = NULL;
    HB_CHECK_STATUS(hb_sim_create(ctx, cells, 1, &prm, &s3), HB_SUCCESS);
    HB_CHECK_STATUS(hb_sim_add_point(s3, "ExpSyn", 0, 0, &syn), HB_SUCCESS);
    HB_CHECK_STATUS(hb_net_create(NULL, HB_NET_STEP_END, &net), HB_SUCCESS);
    HB_CHECK_STATUS(hb_net_add_part(net, s3, &g1, &part), HB_SUCCESS);
    HB_CHECK_STATUS(hb_net_connect(net, 3, part, syn, 0.1, 1e300), HB_SUCCESS);
    HB_CHECK_STATUS(hb_net_run(net, 1.0), HB_SUCCESS);
    HB_CHECK_STATUS(hb_net_run(net, 2.0), HB_SUCCESS);
    HB_CHECK_STATUS(hb_net_epoch(net, &ms, &epochs), HB_SUCCESS);
    HB_CHECK(epochs == 2, "delay 1e300: %lld epochs in two runs, expected 2", (long long)epochs);
    hb_net_destroy(net);
    hb_sim_destroy(sim), hb_sim_destroy(other), hb_sim_destroy(s2), hb_sim_destroy(s3);
}

int main(void)
{
    hb_test_begin("test_net");
    hb_context *ctx = hb_test_context();
    hb_test_require_sim(ctx);
    hb_context *oracle = hb_test_oracle();
    hb_discretize_options o;
    hb_discretize_options_init(&o);
    o.policy = HB_POLICY_SECTION;
    o.nseg = 0;
    pool[0] = hb_test_load_swc("jaxley__morph_minimal.swc", &o);
    pool[1] = hb_test_load_swc("nrn__c91662.swc", &o);
    for (int p = 0; p < 2; ++p)
        for (int ring = 1; ring >= 0; --ring)
            check_net(ctx, oracle, ring, p ? HB_FLOAT : HB_DOUBLE);
    moved_detector(ctx, HB_DOUBLE);
    moved_detector(ctx, HB_FLOAT);
    bad_calls(ctx);
    hb_morph_cell_destroy(pool[0]), hb_morph_cell_destroy(pool[1]);
    hb_context_destroy(oracle);
    hb_context_destroy(ctx);
    return hb_test_finish();
}
