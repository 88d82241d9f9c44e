/* sim_events.c: events to point processes: the host's pending list, the device table of those due before a run's end, uploaded as each run starts (so events may arrive between runs, as a network's do), and the check of the self-event queues after a run. */
#include "sim.h"

#include <stdlib.h>
#include <string.h>

/* An event due in this run, keyed by its point's entry (the device's order
 * of point processes). */
typedef struct {
    int64_t q, step, seq;
    double  weight, time;
    int64_t cs; /* its connection's values in dev.mst, -1: none */
} due_event;
/* Entry, step, then the order the events were added: a point's events
 * arrive in time order and, within a step, in the order they came (the sums
 * they make are reproducible). */
static int cmp_event(const void *a, const void *b)
{
    const due_event *x = a, *y = b;
    if (x->q != y->q)
        return (x->q > y->q) - (x->q < y->q);
    if (x->step != y->step)
        return (x->step > y->step) - (x->step < y->step);
    return (x->seq > y->seq) - (x->seq < y->seq);
}

/* Writes n doubles into buf at element 0 in the simulation's precision. */
static hb_status write_real(hb_sim *sim, hb_buffer *buf, int64_t n, const double *src)
{
    hb_context *ctx = sim->ctx;
    void *stream = sim->prm.plan.stream;
    if (n <= 0)
        return HB_SUCCESS;
    if (sim->prm.precision == HB_DOUBLE)
        return ctx->ops->write(ctx, stream, buf, 0, src, (size_t)n * sizeof(double));
    float *tmp = hb__malloc_n(n, sizeof *tmp);
    if (!tmp)
        return hb__error(HB_ERR_OUT_OF_MEMORY, "simulation: %lld event weights", (long long)n);
    for (int64_t k = 0; k < n; ++k)
        tmp[k] = (float)src[k];
    hb_status st = ctx->ops->write(ctx, stream, buf, 0, tmp, (size_t)n * sizeof(float));
    /* The queue may still read tmp: wait before freeing it. */
    if (st == HB_SUCCESS)
        st = ctx->ops->finish(ctx, stream);
    free(tmp);
    return st;
}

hb_status hb__sim_events_upload(hb_sim *sim, int64_t step_end)
{
    hb_sim_model *md = &sim->model;
    hb_sim_dev *d = &sim->dev;
    const int64_t P = md->npoints;
    int64_t due = 0;
    for (int64_t e = 0; e < md->nev; ++e)
        due += md->events[e].step < step_end;
    /* None due: the device's table holds only delivered events (each entry's
     * cursor at its end), so it stays as it is. */
    if (due == 0 || P == 0)
        return HB_SUCCESS;
    due_event *now = hb__malloc_n(due, sizeof *now);
    int64_t *evptr = hb__calloc_n(P + 1, sizeof *evptr);
    int64_t *evstep = hb__malloc_n(due, 2 * sizeof *evstep); /* step, connection */
    double *evw = hb__malloc_n(due, sizeof *evw);
    double *evt = hb__malloc_n(due, sizeof *evt);
    hb_status st = HB_SUCCESS;
    if (!now || !evptr || !evstep || !evw || !evt)
        st = hb__error(HB_ERR_OUT_OF_MEMORY, "hb_sim_run: a table of %lld events",
                       (long long)due);
    if (st == HB_SUCCESS) {
        /* By entry with a counting sort (stable: the order they came), then
         * each entry's few by step: a network's epoch brings many events
         * spread over many points. */
        for (int64_t e = 0; e < md->nev; ++e)
            if (md->events[e].step < step_end)
                evptr[md->entry[md->events[e].point] + 1]++;
        for (int64_t q = 0; q < P; ++q)
            evptr[q + 1] += evptr[q];
        int64_t *at = hb__malloc_n(P > 0 ? P : 1, sizeof *at);
        if (!at)
            st = hb__error(HB_ERR_OUT_OF_MEMORY, "hb_sim_run: %lld point processes",
                           (long long)P);
        for (int64_t q = 0; at && q < P; ++q)
            at[q] = evptr[q];
        for (int64_t e = 0; at && e < md->nev; ++e)
            if (md->events[e].step < step_end) {
                const hb_sim_event *ev = &md->events[e];
                const int64_t q = md->entry[ev->point];
                const int64_t sid = ev->stream >= 0 ? ev->stream : md->nstream + ev->point;
                now[at[q]++] = (due_event){q, ev->step, ev->seq, ev->weight, ev->time,
                                           md->stream_off[sid]};
            }
        free(at);
        for (int64_t q = 0; st == HB_SUCCESS && q < P; ++q) {
            if (evptr[q + 1] - evptr[q] > 32) { /* a long train: qsort */
                qsort(now + evptr[q], (size_t)(evptr[q + 1] - evptr[q]), sizeof *now, cmp_event);
                continue;
            }
            for (int64_t i = evptr[q] + 1; i < evptr[q + 1]; ++i) {
                const due_event x = now[i];
                int64_t j = i;
                for (; j > evptr[q] && cmp_event(&now[j - 1], &x) > 0; --j)
                    now[j] = now[j - 1];
                now[j] = x;
            }
        }
        for (int64_t e = 0; st == HB_SUCCESS && e < due; ++e) {
            evstep[2 * e] = now[e].step;
            evstep[2 * e + 1] = now[e].cs;
            evw[e] = now[e].weight;
            evt[e] = now[e].time;
        }
    }
    /* The event buffers grow to the largest batch of due events. */
    if (st == HB_SUCCESS && due > sim->ev_cap) {
        hb_context *ctx = sim->ctx;
        ctx->ops->release(ctx, d->evstep), d->evstep = NULL;
        ctx->ops->release(ctx, d->evw), d->evw = NULL;
        ctx->ops->release(ctx, d->evt), d->evt = NULL;
        sim->ev_cap = 0;
        if ((st = hb__sim_alloc(sim, &d->evstep, 2 * sizeof(int64_t), due, NULL)) == HB_SUCCESS &&
            (st = hb__sim_alloc(sim, &d->evw, sim->esize, due, NULL)) == HB_SUCCESS &&
            (st = hb__sim_alloc(sim, &d->evt, sim->esize, due, NULL)) == HB_SUCCESS)
            sim->ev_cap = due;
    }
    hb_context *ctx = sim->ctx;
    void *stream = sim->prm.plan.stream;
    if (st == HB_SUCCESS)
        st = ctx->ops->write(ctx, stream, d->evptr, 0, evptr, (size_t)(P + 1) * sizeof *evptr);
    /* Each entry's cursor starts at its first event: evcur = evptr[0 .. P). */
    if (st == HB_SUCCESS)
        st = ctx->ops->write(ctx, stream, d->evcur, 0, evptr, (size_t)P * sizeof *evptr);
    if (st == HB_SUCCESS)
        st = ctx->ops->write(ctx, stream, d->evstep, 0, evstep, (size_t)due * 2 * sizeof *evstep);
    if (st == HB_SUCCESS)
        st = write_real(sim, d->evw, due, evw);
    if (st == HB_SUCCESS)
        st = write_real(sim, d->evt, due, evt);
    if (st == HB_SUCCESS)
        st = ctx->ops->finish(ctx, stream);
    if (st == HB_SUCCESS) {
        /* The rest stay pending, in the order they came. */
        int64_t k = 0;
        for (int64_t e = 0; e < md->nev; ++e)
            if (md->events[e].step >= step_end)
                md->events[k++] = md->events[e];
        md->nev = k;
    }
    free(now), free(evptr), free(evstep), free(evw), free(evt);
    return st;
}

hb_status hb__sim_add_event(hb_sim *sim, int64_t point, int64_t step, double time,
                            double weight, int64_t stream)
{
    hb_sim_model *md = &sim->model;
    HB_FORWARD(hb__sim_grow((void **)&md->events, &md->ev_cap, md->nev + 1, 64,
                            sizeof *md->events, "pending events", "hb_net_run"));
    md->events[md->nev++] = (hb_sim_event){point, step, md->ev_seq++, weight, time, stream};
    return HB_SUCCESS;
}

hb_status hb__sim_check_self(hb_sim *sim)
{
    hb_sim_model *md = &sim->model;
    if (md->nself == 0)
        return HB_SUCCESS;
    hb_context *ctx = sim->ctx;
    int32_t lost = 0;
    HB_FORWARD(ctx->ops->read(ctx, sim->prm.plan.stream, sim->dev.selfq, 0, &lost, sizeof lost));
    if (lost == 0)
        return HB_SUCCESS;
    /* Which: the first queue, in entry order, that counts a loss. */
    const int64_t P = md->npoints, n = md->nself * HB_SIM_SELF_LEN;
    double *q = hb__malloc_n(n, sizeof *q);
    int64_t *id_of = hb__malloc_n(P, sizeof *id_of);
    hb_status st = HB_SUCCESS;
    if (!q || !id_of)
        st = hb__error(HB_ERR_OUT_OF_MEMORY, "hb_sim_run: %lld self-event queues",
                       (long long)md->nself);
    if (st == HB_SUCCESS)
        st = hb__sim_read_real(sim, sim->dev.mst, md->self_off, n, q);
    int64_t bad = -1;
    for (int64_t i = 0; st == HB_SUCCESS && i < P; ++i)
        id_of[md->entry[i]] = i;
    for (int64_t e = 0, k = 0; st == HB_SUCCESS && bad < 0 && e < P; ++e)
        if (hb_cat_mechs[md->points[id_of[e]].mech].flags & HB_CAT_INFO_SEND) {
            if (q[k * HB_SIM_SELF_LEN + 1] > 0)
                bad = id_of[e];
            ++k;
        }
    if (st == HB_SUCCESS) {
        const char *name = bad >= 0 ? hb_cat_mechs[md->points[bad].mech].name : "?";
        st = hb__error(HB_ERR_NUMERICAL,
                       "hb_sim_run: point process %lld (%s) lost self-events (%d in all): more "
                       "than %d sent by NET_RECEIVE were pending at once, or its net_sends of "
                       "delay 0 went on past %d deliveries in one step",
                       (long long)bad, name, (int)lost, HB_SIM_SELF_CAP, HB_SIM_SELF_ROUNDS);
    }
    free(q), free(id_of);
    return st;
}
