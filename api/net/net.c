/* net.c: networks over simulations: connections, epochs of the minimum delay, parts run concurrently, spikes exchanged and turned into events. */
#include "hinesbatch_net.h"
#include "sim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if !defined(_WIN32)
#include <pthread.h>
#endif

typedef struct {
    int64_t src;
    int32_t part;
    int64_t point;
    double  weight, delay;
    int64_t stream; /* its values at the point (hb__sim_add_stream), -1: none */
    int64_t made;   /* its index in the order made (hb_net_get_values)       */
} net_conn;

typedef struct {
    hb_sim  *sim;
    int64_t *gids;
    /* The part's thread's outcome of one epoch. */
    double    tstop;
    hb_status st;
    char      msg[512];
} net_part;

struct hb_net {
    hb_net_comm     comm;
    int             has_comm;
    hb_net_delivery delivery;
    net_part       *parts;
    int32_t         nparts, parts_cap;
    net_conn       *conns;      /* sorted by src at the first run (stable) */
    int64_t         nconns, conns_cap;
    int64_t        *by_made;    /* from the first run: conns[by_made[i]].made == i */
    /* The sources' index: the sorted conns of source src_key[i] are
     * [src_first[i], src_first[i + 1]); an open-addressing table of
     * 2^src_bits slots maps a gid to i (-1: empty), one probe or two a spike
     * where a binary search over millions of connections misses the cache
     * at every level. */
    int64_t        *src_key, *src_first, *src_slot;
    int             src_bits;
    double          dt;
    int64_t         epoch_steps, epochs, step;
    int             started;
    hb_net_spike   *mine, *all; /* spikes so far: this rank's, every rank's */
    int64_t         nmine, mine_cap, nall, all_cap;
    atomic_int      busy;
};

static hb_status enter(const hb_net *net, const char *fn)
{
    if (!net)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: net is NULL", fn);
    int expect = 0;
    if (!atomic_compare_exchange_strong(&((hb_net *)net)->busy, &expect, 1))
        return hb__error(HB_ERR_BUSY, "%s: another thread is using this network", fn);
    return HB_SUCCESS;
}
static void leave(const hb_net *net) { atomic_store(&((hb_net *)net)->busy, 0); }
#define NET_GUARDED(net, fn, call)                  \
    do {                                            \
        HB_FORWARD(enter(net, fn));                 \
        hb_status net_st_ = (call);                 \
        leave(net);                                 \
        return net_st_;                             \
    } while (0)

hb_status hb_net_create(const hb_net_comm *comm, hb_net_delivery delivery, hb_net **net)
{
    const char *fn = "hb_net_create";
    if (!net)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: net (output) is NULL", fn);
    if (delivery != HB_NET_STEP_END && delivery != HB_NET_SPIKE_TIME)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: delivery = %d is not an hb_net_delivery",
                         fn, (int)delivery);
    if (comm && (!comm->allgather || !comm->min || comm->size < 1 || comm->rank < 0 ||
                 comm->rank >= comm->size))
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "%s: comm needs allgather and min, and 0 <= rank (%d) < size (%d)", fn,
                         (int)comm->rank, (int)comm->size);
    hb_net *n = calloc(1, sizeof *n);
    if (!n)
        return hb__error(HB_ERR_OUT_OF_MEMORY, "%s: the network", fn);
    if (comm)
        n->comm = *comm, n->has_comm = 1;
    n->delivery = delivery;
    atomic_init(&n->busy, 0);
    *net = n;
    return HB_SUCCESS;
}

void hb_net_destroy(hb_net *net)
{
    if (!net)
        return;
    for (int32_t p = 0; p < net->nparts; ++p) {
        free(net->parts[p].gids);
        net->parts[p].sim->spk.collect = 0;
        net->parts[p].sim->defer_finite = 0;
    }
    free(net->parts), free(net->conns), free(net->by_made), free(net->src_key),
        free(net->src_first);
    free(net->src_slot);
    free(net->mine), free(net->all);
    free(net);
}

static hb_status add_part(hb_net *net, hb_sim *sim, const int64_t *gids, int32_t *part)
{
    const char *fn = "hb_net_add_part";
    if (!sim || !gids || !part)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: %s is NULL", fn,
                         !sim ? "sim" : !gids ? "gids" : "part");
    if (net->started)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: the network has run: parts are fixed", fn);
    if (sim->started)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: the simulation has run already", fn);
    for (int32_t p = 0; p < net->nparts; ++p)
        if (net->parts[p].sim == sim)
            return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: the simulation is part %d already",
                             fn, (int)p);
    if (net->nparts > 0 && sim->prm.dt != net->dt)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: dt = %g ms, the network's parts have %g",
                         fn, sim->prm.dt, net->dt);
    const int64_t C = sim->ncells;
    for (int64_t c = 0; c < C; ++c)
        if (gids[c] < 0)
            return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: gids[%lld] = %lld < 0", fn,
                             (long long)c, (long long)gids[c]);
    /* Uniqueness over the parts is checked as the network starts. */
    int64_t *g = hb__malloc_n(C > 0 ? C : 1, sizeof *g);
    if (!g)
        return hb__error(HB_ERR_OUT_OF_MEMORY, "%s: %lld gids", fn, (long long)C);
    memcpy(g, gids, (size_t)C * sizeof *g);
    if (net->nparts == net->parts_cap) {
        int32_t cap = net->parts_cap > 0 ? 2 * net->parts_cap : 4;
        net_part *x = hb__realloc_n(net->parts, cap, sizeof *x);
        if (!x) {
            free(g);
            return hb__error(HB_ERR_OUT_OF_MEMORY, "%s: %d parts", fn, (int)cap);
        }
        net->parts = x, net->parts_cap = cap;
    }
    memset(&net->parts[net->nparts], 0, sizeof net->parts[0]);
    net->parts[net->nparts].sim = sim;
    net->parts[net->nparts].gids = g;
    net->dt = sim->prm.dt;
    sim->spk.collect = 1;
    sim->defer_finite = 1;
    *part = net->nparts++;
    return HB_SUCCESS;
}

hb_status hb_net_add_part(hb_net *net, hb_sim *sim, const int64_t *gids, int32_t *part)
{
    NET_GUARDED(net, "hb_net_add_part", add_part(net, sim, gids, part));
}

static hb_status net_connect(hb_net *net, int64_t src, int32_t part, int64_t point, double weight,
                         double delay)
{
    const char *fn = "hb_net_connect";
    if (net->started)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: the network has run: connections are fixed",
                         fn);
    if (src < 0)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: src = %lld < 0", fn, (long long)src);
    if (part < 0 || part >= net->nparts)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: part %d not in [0, %d)", fn, (int)part,
                         (int)net->nparts);
    hb_sim *sim = net->parts[part].sim;
    if (point < 0 || point >= sim->model.npoints)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: point %lld not in [0, %lld) of part %d",
                         fn, (long long)point, (long long)sim->model.npoints, (int)part);
    if (!hb_cat_mechs[sim->model.points[point].mech].has_net_receive)
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "%s: point %lld of part %d (%s) has no NET_RECEIVE block", fn,
                         (long long)point, (int)part, hb_cat_mechs[sim->model.points[point].mech].name);
    if (!isfinite(weight))
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: weight %g is not finite", fn, weight);
    if (!(delay >= net->dt) || !isfinite(delay))
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "%s: delay %g ms must be finite and at least the step dt = %g ms", fn,
                         delay, net->dt);
    if (net->nconns == net->conns_cap) {
        int64_t cap = net->conns_cap > 0 ? 2 * net->conns_cap : 64;
        net_conn *x = hb__realloc_n(net->conns, cap, sizeof *x);
        if (!x)
            return hb__error(HB_ERR_OUT_OF_MEMORY, "%s: %lld connections", fn, (long long)cap);
        net->conns = x, net->conns_cap = cap;
    }
    int64_t stream = -1;
    HB_FORWARD(hb__sim_add_stream(sim, point, &stream));
    net->conns[net->nconns] = (net_conn){src, part, point, weight, delay, stream, net->nconns};
    net->nconns++;
    free(net->by_made); /* a failed first run's: the next run makes it again */
    net->by_made = NULL;
    return HB_SUCCESS;
}

hb_status hb_net_connect(hb_net *net, int64_t src, int32_t part, int64_t point, double weight,
                         double delay)
{
    NET_GUARDED(net, "hb_net_connect", net_connect(net, src, part, point, weight, delay));
}

static hb_status connection_count(const hb_net *net, int64_t *n)
{
    if (!n)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "hb_net_connection_count: n (output) is NULL");
    *n = net->nconns;
    return HB_SUCCESS;
}

hb_status hb_net_connection_count(const hb_net *net, int64_t *n)
{
    NET_GUARDED(net, "hb_net_connection_count", connection_count(net, n));
}

/* Connection `conn` (in the order made) and how many values its point's
 * mechanism keeps. */
static hb_status conn_of(const hb_net *net, int64_t conn, const char *fn, const net_conn **c,
                         int32_t *count)
{
    if (conn < 0 || conn >= net->nconns)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: conn %lld not in [0, %lld)", fn,
                         (long long)conn, (long long)net->nconns);
    /* Made in order until the first run sorts them by source; a first run
     * that failed leaves them sorted, and a connection made after it drops
     * the index (net_connect): then the slow way. */
    int64_t j = net->by_made ? net->by_made[conn] : conn;
    if (net->conns[j].made != conn)
        for (j = 0; net->conns[j].made != conn; ++j) {
        }
    *c = &net->conns[j];
    const hb_sim *sim = net->parts[(*c)->part].sim;
    *count = (*c)->stream < 0 ? 0 : hb_cat_mechs[sim->model.points[(*c)->point].mech].nconn;
    return HB_SUCCESS;
}

static hb_status set_values(hb_net *net, int64_t conn, int32_t n, const double *values)
{
    const char *fn = "hb_net_set_values";
    const net_conn *c = NULL;
    int32_t count = 0;
    HB_FORWARD(conn_of(net, conn, fn, &c, &count));
    hb_sim *sim = net->parts[c->part].sim;
    const char *mech = hb_cat_mechs[sim->model.points[c->point].mech].name;
    if (net->started)
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "%s: the network has run: connection %lld's values are set before", fn,
                         (long long)conn);
    if (n < 0 || n > count)
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "%s: n = %d values for connection %lld, whose point process (%s, "
                         "point %lld of part %d) keeps %d",
                         fn, (int)n, (long long)conn, mech, (long long)c->point, (int)c->part,
                         (int)count);
    if (n > 0 && !values)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: values is NULL", fn);
    for (int32_t q = 0; q < n; ++q)
        if (!isfinite(values[q]))
            return hb__error(HB_ERR_INVALID_ARGUMENT,
                             "%s: values[%d] = %g for connection %lld (%s) is not finite", fn,
                             (int)q, values[q], (long long)conn, mech);
    return hb__sim_set_stream_values(sim, c->stream, n, values, fn);
}

hb_status hb_net_set_values(hb_net *net, int64_t conn, int32_t n, const double *values)
{
    NET_GUARDED(net, "hb_net_set_values", set_values(net, conn, n, values));
}

static hb_status get_values(hb_net *net, int64_t conn, int32_t cap, double *values, int32_t *n)
{
    const char *fn = "hb_net_get_values";
    if (!n)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: n (output) is NULL", fn);
    if (cap < 0 || (cap > 0 && !values))
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: cap = %d with values %s", fn, (int)cap,
                         values ? "set" : "NULL");
    const net_conn *c = NULL;
    int32_t count = 0;
    HB_FORWARD(conn_of(net, conn, fn, &c, &count));
    const int32_t k = cap < count ? cap : count;
    if (k > 0)
        HB_FORWARD(hb__sim_get_stream_values(net->parts[c->part].sim, c->stream, k, values));
    *n = count;
    return HB_SUCCESS;
}

hb_status hb_net_get_values(hb_net *net, int64_t conn, int32_t cap, double *values, int32_t *n)
{
    NET_GUARDED(net, "hb_net_get_values", get_values(net, conn, cap, values, n));
}

/* Connections by source, ties in the order they were made (merge sort:
 * stable without a sequence key). */
static void sort_conns(net_conn *a, net_conn *tmp, int64_t n)
{
    if (n < 2)
        return;
    const int64_t h = n / 2;
    sort_conns(a, tmp, h);
    sort_conns(a + h, tmp, n - h);
    int64_t i = 0, j = h, k = 0;
    while (i < h && j < n)
        tmp[k++] = a[j].src < a[i].src ? a[j++] : a[i++];
    while (i < h)
        tmp[k++] = a[i++];
    while (j < n)
        tmp[k++] = a[j++];
    memcpy(a, tmp, (size_t)n * sizeof *a);
}

static int cmp_spike(const void *a, const void *b)
{
    const hb_net_spike *x = a, *y = b;
    if (x->t != y->t)
        return (x->t > y->t) - (x->t < y->t);
    return (x->gid > y->gid) - (x->gid < y->gid);
}

static hb_status append(hb_net_spike **arr, int64_t *n, int64_t *cap, const hb_net_spike *src,
                        int64_t m)
{
    if (*n + m > *cap) {
        int64_t c = *cap > 0 ? *cap : 64;
        while (c < *n + m)
            c *= 2;
        hb_net_spike *x = hb__realloc_n(*arr, c, sizeof *x);
        if (!x)
            return hb__error(HB_ERR_OUT_OF_MEMORY, "hb_net_run: %lld spikes", (long long)c);
        *arr = x, *cap = c;
    }
    if (m > 0)
        memcpy(*arr + *n, src, (size_t)m * sizeof *src);
    *n += m;
    return HB_SUCCESS;
}

/* One part's run to its tstop: the status and this thread's message. */
static void *run_part(void *arg)
{
    net_part *p = arg;
    p->st = hb_sim_run(p->sim, p->tstop);
    if (p->st != HB_SUCCESS) {
        strncpy(p->msg, hb_last_error(), sizeof p->msg - 1);
        p->msg[sizeof p->msg - 1] = 0;
    }
    return NULL;
}

/* Every part to step `to`, concurrently when there are several. */
static hb_status run_parts(hb_net *net, int64_t to)
{
    const double tstop = (double)to * net->dt;
    for (int32_t i = 0; i < net->nparts; ++i)
        net->parts[i].tstop = tstop, net->parts[i].st = HB_SUCCESS;
#if !defined(_WIN32)
    if (net->nparts > 1) {
        pthread_t *th = hb__malloc_n(net->nparts, sizeof *th);
        if (!th)
            return hb__error(HB_ERR_OUT_OF_MEMORY, "hb_net_run: %d threads", (int)net->nparts);
        int32_t made = 0;
        for (; made < net->nparts; ++made)
            if (pthread_create(&th[made], NULL, run_part, &net->parts[made]) != 0)
                break;
        /* A thread that could not start runs its part here. */
        for (int32_t i = made; i < net->nparts; ++i)
            run_part(&net->parts[i]);
        for (int32_t i = 0; i < made; ++i)
            pthread_join(th[i], NULL);
        free(th);
    } else
#endif
        for (int32_t i = 0; i < net->nparts; ++i)
            run_part(&net->parts[i]);
    for (int32_t i = 0; i < net->nparts; ++i)
        if (net->parts[i].st != HB_SUCCESS)
            return hb__error(net->parts[i].st, "hb_net_run: part %d: %s", (int)i,
                             net->parts[i].msg);
    return HB_SUCCESS;
}

/* The time (ms) the event of a spike at t over a connection of `delay` is
 * delivered at (NET_RECEIVE's t); its step is hb__sim_event_step of it. */
static double due_time(const hb_net *net, double t, double delay)
{
    double base = t;
    if (net->delivery == HB_NET_STEP_END) {
        /* The crossing is in step s: t in (s dt, (s + 1) dt]. */
        double s = ceil(t / net->dt - 1e-9) - 1;
        base = (s + 1) * net->dt;
    }
    return base + delay;
}

static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* The index of source gid among the connections' sources, or -1. */
static int64_t src_index(const hb_net *net, int64_t gid)
{
    if (!net->src_slot)
        return -1;
    const uint64_t mask = ((uint64_t)1 << net->src_bits) - 1;
    for (uint64_t h = mix64((uint64_t)gid) & mask;; h = (h + 1) & mask) {
        const int64_t i = net->src_slot[h];
        if (i < 0 || net->src_key[i] == gid)
            return i;
    }
}

/* The sources' index over the sorted connections (start). */
static hb_status index_sources(hb_net *net, const char *fn)
{
    int64_t u = 0;
    for (int64_t j = 0; j < net->nconns; ++j)
        u += j == 0 || net->conns[j].src != net->conns[j - 1].src;
    if (u == 0)
        return HB_SUCCESS;
    int bits = 1;
    while (bits < 62 && ((int64_t)1 << bits) < 2 * u)
        ++bits;
    net->src_key = hb__malloc_n(u, sizeof *net->src_key);
    net->src_first = hb__malloc_n(u + 1, sizeof *net->src_first);
    net->src_slot = hb__malloc_n((int64_t)1 << bits, sizeof *net->src_slot);
    if (!net->src_key || !net->src_first || !net->src_slot)
        return hb__error(HB_ERR_OUT_OF_MEMORY, "%s: an index of %lld sources", fn, (long long)u);
    net->src_bits = bits;
    const uint64_t mask = ((uint64_t)1 << bits) - 1;
    for (uint64_t h = 0; h <= mask; ++h)
        net->src_slot[h] = -1;
    int64_t i = -1;
    for (int64_t j = 0; j < net->nconns; ++j)
        if (j == 0 || net->conns[j].src != net->conns[j - 1].src) {
            net->src_key[++i] = net->conns[j].src;
            net->src_first[i] = j;
            uint64_t h = mix64((uint64_t)net->conns[j].src) & mask;
            while (net->src_slot[h] >= 0)
                h = (h + 1) & mask;
            net->src_slot[h] = i;
        }
    net->src_first[u] = net->nconns;
    return HB_SUCCESS;
}

/* The epoch's spikes: gathered from the parts, exchanged, turned into events. */
static hb_status exchange(hb_net *net)
{
    int64_t n0 = net->nmine;
    for (int32_t i = 0; i < net->nparts; ++i) {
        hb_sim_spikes *s = &net->parts[i].sim->spk;
        for (int64_t k = 0; k < s->nfresh; ++k) {
            hb_net_spike x = {net->parts[i].gids[s->fresh[k].cell], s->fresh[k].t};
            HB_FORWARD(append(&net->mine, &net->nmine, &net->mine_cap, &x, 1));
        }
        s->nfresh = 0;
    }
    const int64_t nnew = net->nmine - n0;
    if (nnew > 1)
        qsort(net->mine + n0, (size_t)nnew, sizeof *net->mine, cmp_spike);
    hb_net_spike *all = net->mine ? net->mine + n0 : NULL; /* NULL + 0 is undefined */
    int64_t nall = nnew;
    hb_net_spike *got = NULL;
    if (net->has_comm) {
        hb_status cs = net->comm.allgather(net->comm.user, all, nnew, &got, &nall);
        if (cs != HB_SUCCESS)
            return hb__error(cs, "hb_net_run: the spike exchange (comm.allgather) failed "
                                 "after epoch %lld", (long long)net->epochs);
        if (nall > 1)
            qsort(got, (size_t)nall, sizeof *got, cmp_spike);
        all = got;
    }
    hb_status st = append(&net->all, &net->nall, &net->all_cap, all, nall);
    /* In (time, gid) order, each spike's connections in the order made. */
    for (int64_t k = 0; st == HB_SUCCESS && k < nall; ++k) {
        const int64_t i = src_index(net, all[k].gid);
        if (i < 0)
            continue;
        for (int64_t j = net->src_first[i]; st == HB_SUCCESS && j < net->src_first[i + 1]; ++j) {
            const net_conn *c = &net->conns[j];
            const double te = due_time(net, all[k].t, c->delay);
            st = hb__sim_add_event(net->parts[c->part].sim, c->point,
                                   hb__sim_event_step(te, net->dt), te, c->weight, c->stream);
        }
    }
    free(got);
    return st;
}

static int cmp_i64(const void *a, const void *b)
{
    const int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Every gid of the process once (one sort, whatever the cell count). */
static hb_status check_gids(const hb_net *net, const char *fn)
{
    int64_t n = 0;
    for (int32_t p = 0; p < net->nparts; ++p)
        n += net->parts[p].sim->ncells;
    int64_t *g = hb__malloc_n(n > 0 ? n : 1, sizeof *g);
    if (!g)
        return hb__error(HB_ERR_OUT_OF_MEMORY, "%s: %lld gids", fn, (long long)n);
    int64_t k = 0;
    for (int32_t p = 0; p < net->nparts; ++p)
        for (int64_t c = 0; c < net->parts[p].sim->ncells; ++c)
            g[k++] = net->parts[p].gids[c];
    if (n > 1)
        qsort(g, (size_t)n, sizeof *g, cmp_i64);
    hb_status st = HB_SUCCESS;
    for (int64_t i = 1; i < n; ++i)
        if (g[i] == g[i - 1]) {
            st = hb__error(HB_ERR_INVALID_ARGUMENT, "%s: gid %lld is given to two cells", fn,
                           (long long)g[i]);
            break;
        }
    free(g);
    return st;
}

static hb_status start(hb_net *net)
{
    const char *fn = "hb_net_run";
    if (net->nparts == 0)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: the network has no parts", fn);
    HB_FORWARD(check_gids(net, fn));
    for (int32_t p = 0; p < net->nparts; ++p)
        if (net->parts[p].sim->started)
            return hb__error(HB_ERR_INVALID_ARGUMENT,
                             "%s: part %d's simulation was run outside the network", fn, (int)p);
    net_conn *tmp = hb__malloc_n(net->nconns > 0 ? net->nconns : 1, sizeof *tmp);
    if (!tmp)
        return hb__error(HB_ERR_OUT_OF_MEMORY, "%s: %lld connections", fn,
                         (long long)net->nconns);
    sort_conns(net->conns, tmp, net->nconns);
    free(tmp);
    free(net->by_made); /* a first run that failed after this may have made it */
    net->by_made = hb__malloc_n(net->nconns > 0 ? net->nconns : 1, sizeof *net->by_made);
    if (!net->by_made)
        return hb__error(HB_ERR_OUT_OF_MEMORY, "%s: %lld connections", fn,
                         (long long)net->nconns);
    for (int64_t j = 0; j < net->nconns; ++j)
        net->by_made[net->conns[j].made] = j;
    HB_FORWARD(index_sources(net, fn));
    double dmin = INFINITY;
    for (int64_t j = 0; j < net->nconns; ++j)
        dmin = fmin(dmin, net->conns[j].delay);
    if (net->has_comm) {
        hb_status cs = net->comm.min(net->comm.user, &dmin);
        if (cs != HB_SUCCESS)
            return hb__error(cs, "%s: the smallest delay over the ranks (comm.min) failed", fn);
    }
    /* Whole steps of at most the smallest delay: a spike of this epoch is
     * due in a later one. No connection anywhere: one epoch per run. */
    const double q = floor(dmin / net->dt + 1e-9);
    /* A delay of more than 2^62 steps (1e300 ms is finite) is past any run
     * (hb_net_run refuses longer ones): capped, never converted as it is. */
    net->epoch_steps = !isfinite(dmin) ? 0 : q > 0x1p62 ? (int64_t)1 << 62 : (int64_t)q;
    if (isfinite(dmin) && net->epoch_steps < 1)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: the smallest delay %g ms is below dt", fn,
                         dmin);
    net->started = 1;
    /* The parts' device tables and models now (a run to step 0), so that a
     * first hb_net_run(net, 0) times the set-up apart from the run. */
    return run_parts(net, net->step);
}

static hb_status run(hb_net *net, double tstop)
{
    if (!isfinite(tstop))
        return hb__error(HB_ERR_INVALID_ARGUMENT, "hb_net_run: tstop = %g ms is not finite", tstop);
    /* As hb_sim_run: steps are counted in int64, so a count past 2^62 is
     * refused rather than clamped into a run that would never end. */
    const double x = ceil(tstop / net->dt - 0.5 - 1e-9);
    if (!(x <= 0x1p62))
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "hb_net_run: tstop = %g ms at dt = %g ms is %g steps, more than 2^62",
                         tstop, net->dt, x);
    if (!net->started)
        HB_FORWARD(start(net));
    const int64_t target = hb__sim_event_step(tstop, net->dt);
    /* Every rank runs the same epochs: each calls allgather once per epoch. */
    while (net->step < target) {
        /* Compared before adding: step + epoch_steps may pass INT64_MAX. */
        int64_t to = net->epoch_steps > 0 && net->epoch_steps < target - net->step
                         ? net->step + net->epoch_steps
                         : target;
        HB_FORWARD(run_parts(net, to));
        net->step = to;
        net->epochs++;
        HB_FORWARD(exchange(net));
    }
    for (int32_t i = 0; i < net->nparts; ++i) {
        hb_status st = hb__sim_check_finite(net->parts[i].sim);
        if (st != HB_SUCCESS) {
            char msg[512]; /* the message is rewritten from itself: a copy */
            snprintf(msg, sizeof msg, "%s", hb_last_error());
            return hb__error(st, "hb_net_run: part %d: %s", (int)i, msg);
        }
    }
    return HB_SUCCESS;
}

hb_status hb_net_run(hb_net *net, double tstop)
{
    NET_GUARDED(net, "hb_net_run", run(net, tstop));
}

static hb_status epoch(const hb_net *net, double *ms, int64_t *epochs)
{
    if (ms)
        *ms = (double)net->epoch_steps * net->dt;
    if (epochs)
        *epochs = net->epochs;
    return HB_SUCCESS;
}

hb_status hb_net_epoch(const hb_net *net, double *ms, int64_t *epochs)
{
    NET_GUARDED(net, "hb_net_epoch", epoch(net, ms, epochs));
}

static hb_status spikes(const hb_net *net, int all, int64_t cap, hb_net_spike *out,
                        int64_t *count)
{
    const char *fn = "hb_net_spikes";
    if (!count)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: count (output) is NULL", fn);
    if (cap < 0 || (cap > 0 && !out))
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: cap = %lld with out %s", fn,
                         (long long)cap, out ? "set" : "NULL");
    /* Each epoch's are sorted and epochs follow in time: the lists are in order. */
    const hb_net_spike *src = all ? net->all : net->mine;
    const int64_t n = all ? net->nall : net->nmine, m = n < cap ? n : cap;
    if (m > 0)
        memcpy(out, src, (size_t)m * sizeof *out);
    *count = n;
    return HB_SUCCESS;
}

hb_status hb_net_spikes(const hb_net *net, int all, int64_t cap, hb_net_spike *out,
                        int64_t *count)
{
    NET_GUARDED(net, "hb_net_spikes", spikes(net, all, cap, out, count));
}
