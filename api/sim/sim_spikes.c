/* sim_spikes.c: spike times on the host: the device's list of new spikes (or, when it overflowed, each cell's ring of max_spikes times) drained into a log of every spike, and the spikes of the last drains for a network. */
#include "sim.h"

#include <stdlib.h>
#include <string.h>

/* Appends t to cell c's log. */
static hb_status log_spike(hb_sim *sim, int64_t c, double t)
{
    hb_sim_spikes *s = &sim->spk;
    HB_FORWARD(hb__sim_grow((void **)&s->t[c], &s->cap[c], s->n[c] + 1, 8, sizeof *s->t[c],
                            "spike times of a cell", "hb_sim_run"));
    s->t[c][s->n[c]++] = t;
    if (!s->collect)
        return HB_SUCCESS;
    HB_FORWARD(hb__sim_grow((void **)&s->fresh, &s->fresh_cap, s->nfresh + 1, 64,
                            sizeof *s->fresh, "new spikes", "hb_sim_run"));
    s->fresh[s->nfresh++] = (hb_sim_spike){c, t};
    return HB_SUCCESS;
}

hb_status hb__sim_spikes_init(hb_sim *sim)
{
    hb_sim_spikes *s = &sim->spk;
    const int64_t C = sim->ncells;
    s->t = hb__calloc_n(C, sizeof *s->t);
    s->n = hb__calloc_n(C, sizeof *s->n);
    s->cap = hb__calloc_n(C, sizeof *s->cap);
    s->seen = hb__calloc_n(C, sizeof *s->seen);
    s->count = hb__malloc_n(C, sizeof *s->count);
    if (!s->t || !s->n || !s->cap || !s->seen || !s->count)
        return hb__error(HB_ERR_OUT_OF_MEMORY, "hb_sim_run: spike logs of %lld cells",
                         (long long)C);
    return HB_SUCCESS;
}

void hb__sim_spikes_free(hb_sim *sim)
{
    hb_sim_spikes *s = &sim->spk;
    for (int64_t c = 0; s->t && c < sim->ncells; ++c)
        free(s->t[c]);
    free(s->t), free(s->n), free(s->cap), free(s->seen), free(s->count), free(s->fresh);
    memset(s, 0, sizeof *s);
}

hb_status hb__sim_spike_list(hb_sim *sim)
{
    hb_sim_dev *d = &sim->dev;
    /* One spike per cell between read-backs, and at least 1024: beyond it
     * the drain reads the rings. */
    const int64_t cap = sim->ncells < INT32_MAX - 1024 ? sim->ncells + 1024 : INT32_MAX;
    int64_t head[2] = {0, cap};
    HB_FORWARD(hb__sim_alloc(sim, &d->slist, sizeof(int64_t), 2 + cap, NULL));
    HB_FORWARD(sim->ctx->ops->write(sim->ctx, sim->prm.plan.stream, d->slist, 0, head,
                                    sizeof head));
    sim->spk.list_cap = cap;
    return hb__sim_alloc(sim, &d->stime, sim->esize, cap, NULL);
}

typedef struct {
    int64_t cell;
    double  t;
} cell_time;
static int cmp_cell_time(const void *a, const void *b)
{
    const cell_time *x = a, *y = b;
    if (x->cell != y->cell)
        return (x->cell > y->cell) - (x->cell < y->cell);
    return (x->t > y->t) - (x->t < y->t);
}

/* The list's spikes into the logs: 1, or 0 when it overflowed (the caller
 * reads the rings); the count reset either way. */
static hb_status drain_list(hb_sim *sim, int *done)
{
    hb_sim_spikes *s = &sim->spk;
    hb_context *ctx = sim->ctx;
    void *stream = sim->prm.plan.stream;
    int32_t k = 0;
    *done = 0;
    HB_FORWARD(ctx->ops->read(ctx, stream, sim->dev.slist, 0, &k, sizeof k));
    if (k < 0 || k > s->list_cap) {
        const int32_t zero = 0;
        return ctx->ops->write(ctx, stream, sim->dev.slist, 0, &zero, sizeof zero);
    }
    int64_t *cells = hb__malloc_n(k > 0 ? k : 1, sizeof *cells);
    double *t = hb__malloc_n(k > 0 ? k : 1, sizeof *t);
    cell_time *ct = hb__malloc_n(k > 0 ? k : 1, sizeof *ct);
    hb_status st = HB_SUCCESS;
    if (!cells || !t || !ct)
        st = hb__error(HB_ERR_OUT_OF_MEMORY, "hb_sim_run: %d new spikes", (int)k);
    if (st == HB_SUCCESS && k > 0)
        st = ctx->ops->read(ctx, stream, sim->dev.slist, 2 * sizeof(int64_t), cells,
                            (size_t)k * sizeof *cells);
    if (st == HB_SUCCESS)
        st = hb__sim_read_real(sim, sim->dev.stime, 0, k, t);
    if (st == HB_SUCCESS) {
        const int32_t zero = 0;
        st = ctx->ops->write(ctx, stream, sim->dev.slist, 0, &zero, sizeof zero);
    }
    /* By cell, then time: each log in time order, as the rings give it. */
    for (int32_t i = 0; st == HB_SUCCESS && i < k; ++i)
        ct[i] = (cell_time){cells[i], t[i]};
    if (st == HB_SUCCESS && k > 1)
        qsort(ct, (size_t)k, sizeof *ct, cmp_cell_time);
    for (int32_t i = 0; st == HB_SUCCESS && i < k; ++i) {
        st = log_spike(sim, ct[i].cell, ct[i].t);
        if (st == HB_SUCCESS)
            s->seen[ct[i].cell]++;
    }
    free(cells), free(t), free(ct);
    if (st == HB_SUCCESS)
        *done = 1;
    return st;
}

hb_status hb__sim_drain_spikes(hb_sim *sim)
{
    hb_sim_spikes *s = &sim->spk;
    hb_context *ctx = sim->ctx;
    const int64_t C = sim->ncells, maxs = sim->dev.max_spikes;
    s->drained = sim->steps;
    int done = 0;
    HB_FORWARD(drain_list(sim, &done));
    if (done)
        return HB_SUCCESS;
    HB_FORWARD(ctx->ops->read(ctx, sim->prm.plan.stream, sim->dev.nspk, 0, s->count,
                              (size_t)C * sizeof *s->count));
    int64_t c0 = C, c1 = -1;
    for (int64_t c = 0; c < C; ++c)
        if (s->count[c] > s->seen[c]) {
            c0 = c0 < c ? c0 : c;
            c1 = c;
            /* At most one crossing per step and a drain at least every
             * max_spikes steps: a ring never wraps onto unread times. */
            if (s->count[c] - s->seen[c] > maxs)
                return hb__error(HB_ERR_NUMERICAL,
                                 "hb_sim_run: cell %lld has %lld spikes since the last read-back, "
                                 "more than params->max_spikes = %lld",
                                 (long long)c, (long long)(s->count[c] - s->seen[c]),
                                 (long long)maxs);
        }
    if (c1 < 0)
        return HB_SUCCESS;
    /* One read of the rings from the first to the last cell that spiked. */
    const int64_t n = (c1 - c0 + 1) * maxs;
    double *buf = hb__malloc_n(n, sizeof *buf);
    if (!buf)
        return hb__error(HB_ERR_OUT_OF_MEMORY, "hb_sim_run: %lld spike times", (long long)n);
    hb_status st = hb__sim_read_real(sim, sim->dev.tspk, c0 * maxs, n, buf);
    for (int64_t c = c0; st == HB_SUCCESS && c <= c1; ++c) {
        for (int64_t i = s->seen[c]; st == HB_SUCCESS && i < s->count[c]; ++i)
            st = log_spike(sim, c, buf[(c - c0) * maxs + i % maxs]);
        if (st == HB_SUCCESS)
            s->seen[c] = s->count[c];
    }
    free(buf);
    return st;
}

int64_t hb__sim_spike_room(const hb_sim *sim)
{
    return sim->dev.max_spikes - (sim->steps - sim->spk.drained);
}
