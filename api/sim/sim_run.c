/* sim_run.c: time stepping of a simulation on its backend, recorded traces, spikes, state and timing. */
#define _POSIX_C_SOURCE 200809L
#include "hb_tree.h"
#include "sim.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* Clamps ordered by row, ties in the order they were added (a stable order,
 * so the per-row sums are reproducible). */
typedef struct {
    int64_t row, i;
} row_index;
static int cmp_clamp(const void *a, const void *b)
{
    const row_index *x = a, *y = b;
    return x->row != y->row ? (x->row > y->row) - (x->row < y->row) : (x->i > y->i) - (x->i < y->i);
}

/* Per cell, the first row of the first cell with the same rows, local
 * parents and axial conductances (bit for bit): the same u, so an unstaged
 * epoch reads one cached copy for all of them (kernels_cl/sim/epoch.cl).
 * The on-chip engine's plan is flat, so a cell's u starts at its first row.
 * NULL when out of memory. */
static int64_t *ucopy_table(const hb_sim *sim)
{
    const int64_t C = sim->ncells;
    int64_t tsize = 1;
    while (tsize < 2 * C)
        tsize *= 2;
    int64_t *ucopy = hb__malloc_n(C > 0 ? C : 1, sizeof *ucopy);
    int64_t *table = hb__malloc_n(tsize, sizeof *table);
    if (!ucopy || !table) {
        free(ucopy), free(table);
        return NULL;
    }
    for (int64_t k = 0; k < tsize; ++k)
        table[k] = -1;
    for (int64_t c = 0; c < C; ++c) {
        const int64_t o = sim->offsets[c], n = sim->offsets[c + 1] - o;
        uint64_t h = hb__fnv1a(14695981039346656037u, &n, sizeof n);
        h = hb__fnv1a(h, sim->lparent + o, (size_t)n * sizeof *sim->lparent);
        h = hb__fnv1a(h, sim->gax + o, (size_t)n * sizeof *sim->gax);
        int64_t k = (int64_t)(h & (uint64_t)(tsize - 1));
        for (; table[k] >= 0; k = (k + 1) & (tsize - 1)) {
            const int64_t e = table[k], oe = sim->offsets[e];
            if (sim->offsets[e + 1] - oe == n &&
                !memcmp(sim->lparent + oe, sim->lparent + o, (size_t)n * sizeof *sim->lparent) &&
                !memcmp(sim->gax + oe, sim->gax + o, (size_t)n * sizeof *sim->gax))
                break;
        }
        if (table[k] < 0)
            table[k] = c;
        ucopy[c] = sim->offsets[table[k]];
    }
    free(table);
    return ucopy;
}

/* The model on the backend (once), and its summary in the description. */
static hb_status model_build(hb_sim *sim, const char *fn)
{
    if (sim->model.built)
        return HB_SUCCESS;
    HB_FORWARD(hb__sim_model_build(sim, fn));
    HB_FORWARD(hb__sim_review_engine(sim));
    char sum[400];
    hb__sim_model_summary(sim, sum, sizeof sum);
    size_t n = strlen(sim->describe);
    snprintf(sim->describe + n, sizeof sim->describe - n, "; mechanisms: %s", sum);
    return HB_SUCCESS;
}

/* Device tables made at the first run: clamps grouped by row (one work-item
 * per clamped row sums them in a fixed order), soma rows, spike and
 * recording buffers; host traces start with the sample at t = 0. */
static hb_status start(hb_sim *sim)
{
    hb_sim_dev *d = &sim->dev;
    int64_t nc = sim->nclamps, C = sim->ncells;
    HB_FORWARD(hb__sim_check_buffers(sim, d->nrec, "hb_sim_run"));
    HB_FORWARD(model_build(sim, "hb_sim_run"));
    hb_sim_clamp *cl = hb__malloc_n(nc > 0 ? nc : 1, sizeof *cl);
    int64_t *crow = hb__malloc_n(nc > 0 ? nc : 1, sizeof *crow);
    int64_t *cptr = hb__malloc_n(nc + 1, sizeof *cptr);
    int64_t *con = hb__malloc_n(nc > 0 ? nc : 1, sizeof *con);
    int64_t *coff = hb__malloc_n(nc > 0 ? nc : 1, sizeof *coff);
    double *camp = hb__malloc_n(nc > 0 ? nc : 1, sizeof *camp);
    int64_t *soma = hb__malloc_n(C, sizeof *soma), *slot = hb__malloc_n(C, sizeof *slot);
    double *vinit = hb__malloc_n(C, sizeof *vinit);
    int64_t *zero = hb__calloc_n(C, sizeof *zero);
    hb_status st = HB_SUCCESS;
    if (!cl || !crow || !cptr || !con || !coff || !camp || !soma || !slot || !vinit || !zero)
        st = hb__error(HB_ERR_OUT_OF_MEMORY, "hb_sim_run: tables of %lld clamps, %lld cells",
                       (long long)nc, (long long)C);
    int64_t nrows_cl = 0;
    if (st == HB_SUCCESS) {
        row_index *idx = hb__malloc_n(nc > 0 ? nc : 1, sizeof *idx);
        if (!idx)
            st = hb__error(HB_ERR_OUT_OF_MEMORY, "hb_sim_run: %lld clamps", (long long)nc);
        for (int64_t i = 0; idx && i < nc; ++i)
            idx[i] = (row_index){sim->clamps[i].row, i};
        if (idx)
            qsort(idx, (size_t)nc, sizeof *idx, cmp_clamp);
        for (int64_t i = 0; idx && i < nc; ++i)
            cl[i] = sim->clamps[idx[i].i];
        free(idx);
        for (int64_t i = 0; i < nc; ++i) {
            if (i == 0 || cl[i].row != cl[i - 1].row) {
                crow[nrows_cl] = cl[i].row;
                cptr[nrows_cl++] = i;
            }
            con[i] = cl[i].on;
            coff[i] = cl[i].off;
            camp[i] = cl[i].amp;
        }
        cptr[nrows_cl] = nc;
        for (int64_t c = 0; c < C; ++c) {
            soma[c] = sim->offsets[c] + (sim->detector && sim->detector[c] >= 0
                                             ? sim->detector[c]
                                             : sim->soma[c]);
            slot[c] = -1;
            vinit[c] = sim->prm.v_init;
        }
        for (int64_t r = 0; r < d->nrec; ++r)
            if (sim->rec_probe[r] < 0)
                slot[sim->rec_cells[r]] = r;
    }
    d->nclamp_rows = nrows_cl;
    /* The on-chip engine's tables: the cell of each plan slot, each cell's
     * first row, each row's entry in the clamp tables (-1: none), so a
     * row's own work-item adds its clamps without a barrier, and the cell
     * whose u each reads (ucopy_table). */
    int64_t *cellof = NULL, *crowof = NULL, *ucopy = NULL;
    const hb_layout_dev *lay = NULL;
    const int64_t *perm = NULL;
    hb_buffer *ul[2];
    if (st == HB_SUCCESS && sim->onchip && hb__plan_cell_group(sim->plan, &lay, &perm, ul)) {
        cellof = hb__malloc_n(lay->nslots, sizeof *cellof);
        crowof = hb__malloc_n(sim->nrows, sizeof *crowof);
        ucopy = ucopy_table(sim);
        if (!cellof || !crowof || !ucopy)
            st = hb__error(HB_ERR_OUT_OF_MEMORY, "hb_sim_run: tables of %lld rows",
                           (long long)sim->nrows);
        for (int64_t t = 0; st == HB_SUCCESS && t < lay->nslots; ++t)
            cellof[t] = perm[t];
        for (int64_t k = 0; st == HB_SUCCESS && k < sim->nrows; ++k)
            crowof[k] = -1;
        for (int64_t q = 0; st == HB_SUCCESS && q < nrows_cl; ++q)
            crowof[crow[q]] = q;
        if (st == HB_SUCCESS &&
            ((st = hb__sim_alloc(sim, &d->cellof, sizeof(int64_t), lay->nslots, cellof)) ||
             (st = hb__sim_alloc(sim, &d->rowoff, sizeof(int64_t), C, sim->offsets)) ||
             (st = hb__sim_alloc(sim, &d->crowof, sizeof(int64_t), sim->nrows, crowof)) ||
             (st = hb__sim_alloc(sim, &d->ucopy, sizeof(int64_t), C, ucopy))))
            {
            }
    }
    free(cellof), free(crowof), free(ucopy);
    if (st == HB_SUCCESS &&
        ((st = hb__sim_alloc(sim, &d->crow, sizeof(int64_t), nrows_cl, crow)) ||
         (st = hb__sim_alloc(sim, &d->cptr, sizeof(int64_t), nrows_cl + 1, cptr)) ||
         (st = hb__sim_alloc(sim, &d->con, sizeof(int64_t), nc, con)) ||
         (st = hb__sim_alloc(sim, &d->coff, sizeof(int64_t), nc, coff)) ||
         (st = hb__sim_alloc_real(sim, &d->camp, nc, camp)) ||
         (st = hb__sim_alloc(sim, &d->soma, sizeof(int64_t), C, soma)) ||
         (st = hb__sim_alloc_real(sim, &d->vprev, C, vinit)) ||
         (st = hb__sim_alloc(sim, &d->nspk, sizeof(int64_t), C, zero)) ||
         (st = hb__sim_alloc_real(sim, &d->tspk, C * d->max_spikes, NULL)) ||
         (st = hb__sim_alloc(sim, &d->recslot, sizeof(int64_t), C, slot)) ||
         (st = hb__sim_alloc_real(sim, &d->rec, sim->prm.record_chunk * d->nrec, NULL)) ||
         (st = hb__sim_spike_list(sim))))
        {
        }
    free(cl), free(crow), free(cptr), free(con), free(coff), free(camp);
    free(soma), free(slot), free(vinit), free(zero);
    if (st == HB_SUCCESS)
        st = hb__sim_probe_start(sim);
    if (st != HB_SUCCESS)
        return st;
    if (d->nrec > 0) {
        sim->traces = hb__calloc_n(d->nrec, sizeof *sim->traces);
        sim->trace_cap = 1024;
        for (int64_t r = 0; sim->traces && r < d->nrec; ++r)
            if (!(sim->traces[r] = hb__malloc_n(sim->trace_cap, sizeof(double))))
                return hb__error(HB_ERR_OUT_OF_MEMORY, "hb_sim_run: traces");
        if (!sim->traces)
            return hb__error(HB_ERR_OUT_OF_MEMORY, "hb_sim_run: traces");
        /* v at t = 0 is v_init, as the kernels hold it. */
        double v0 = sim->prm.precision == HB_DOUBLE ? sim->prm.v_init : (float)sim->prm.v_init;
        for (int64_t r = 0; r < d->nrec; ++r)
            sim->traces[r][0] = v0;
        HB_FORWARD(hb__sim_probe_first(sim));
    }
    HB_FORWARD(hb__sim_spikes_init(sim));
    sim->nsamples = 1;
    sim->started = 1;
    return HB_SUCCESS;
}

/* Copies the samples waiting on the device to the host traces. */
static hb_status flush(hb_sim *sim)
{
    hb_sim_dev *d = &sim->dev;
    int64_t rows = sim->rec_rows;
    if (rows == 0 || d->nrec == 0) {
        sim->rec_rows = 0;
        return HB_SUCCESS;
    }
    double t0 = now_ms();
    if (sim->nsamples + rows > sim->trace_cap) {
        int64_t cap = sim->trace_cap;
        while (cap < sim->nsamples + rows)
            cap *= 2;
        for (int64_t r = 0; r < d->nrec; ++r) {
            double *x = hb__realloc_n(sim->traces[r], cap, sizeof *x);
            if (!x)
                return hb__error(HB_ERR_OUT_OF_MEMORY, "hb_sim_run: traces of %lld samples",
                                 (long long)cap);
            sim->traces[r] = x;
        }
        sim->trace_cap = cap;
    }
    double *buf = hb__malloc_n(rows * d->nrec, sizeof *buf); /* within record_chunk x nrec */
    if (!buf)
        return hb__error(HB_ERR_OUT_OF_MEMORY, "hb_sim_run: %lld samples", (long long)rows);
    hb_status st = hb__sim_read_real(sim, d->rec, 0, rows * d->nrec, buf);
    for (int64_t j = 0; st == HB_SUCCESS && j < rows; ++j)
        for (int64_t r = 0; r < d->nrec; ++r)
            sim->traces[r][sim->nsamples + j] = buf[j * d->nrec + r];
    free(buf);
    if (st == HB_SUCCESS) {
        sim->nsamples += rows;
        sim->rec_rows = 0;
    }
    sim->timing.readback_ms += now_ms() - t0;
    return st;
}

/* After a run: every voltage finite, or HB_ERR_NUMERICAL naming the first
 * failing cell and compartment (dt too large, bad parameters). */
hb_status hb__sim_check_finite(hb_sim *sim)
{
    double *v = hb__malloc_n(sim->nrows, sizeof *v);
    if (!v)
        return hb__error(HB_ERR_OUT_OF_MEMORY, "hb_sim_run: %lld voltages", (long long)sim->nrows);
    hb_status st = hb__sim_read_real(sim, sim->dev.v, 0, sim->nrows, v);
    for (int64_t c = 0; st == HB_SUCCESS && c < sim->ncells; ++c)
        for (int64_t k = sim->offsets[c]; k < sim->offsets[c + 1]; ++k)
            if (!isfinite(v[k])) {
                st = hb__error(HB_ERR_NUMERICAL,
                               "hb_sim_run: cell %lld compartment %lld has a non-finite voltage "
                               "at t = %g ms",
                               (long long)c, (long long)(k - sim->offsets[c]),
                               (double)sim->steps * sim->prm.dt);
                break;
            }
    free(v);
    return st;
}

/* Waits for the backend when stage timing was asked for; adds the time
 * since *t to *acc. */
static hb_status stage(hb_sim *sim, double *t, double *acc)
{
    if (!sim->prm.timing)
        return HB_SUCCESS;
    HB_FORWARD(sim->ctx->ops->finish(sim->ctx, sim->prm.plan.stream));
    double t1 = now_ms();
    *acc += t1 - *t;
    *t = t1;
    return HB_SUCCESS;
}

static hb_status run(hb_sim *sim, double tstop)
{
    if (!isfinite(tstop))
        return hb__error(HB_ERR_INVALID_ARGUMENT, "hb_sim_run: tstop = %g ms is not finite", tstop);
    double x = ceil(tstop / sim->prm.dt - 0.5 - 1e-9);
    /* Steps are counted in int64: a count past 2^62 (or a quotient that is
     * not finite) would convert to garbage, so it is refused. */
    if (!(x <= 4611686018427387904.0))
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "hb_sim_run: tstop = %g ms at dt = %g ms is %g steps, more than 2^62",
                         tstop, sim->prm.dt, x);
    int64_t target = x > 0 ? (int64_t)x : 0;
    if (!sim->started)
        HB_FORWARD(start(sim));
    HB_FORWARD(hb__sim_events_upload(sim, target));
    hb_context *ctx = sim->ctx;
    const hb_sim_ops *ops = sim->ops;
    void *stream = sim->prm.plan.stream;
    hb_precision p = sim->prm.precision;
    hb_sim_dev *d = &sim->dev;
    hb_sim_timing *tm = &sim->timing;
    double t_begin = now_ms();
    hb_sim_cells job;
    hb_buffer *arr[4];
    const int64_t rows_bytes = sim->nrows * (int64_t)sim->esize;
    /* The axial neighbours' table: an offset and a conductance per entry
     * (two per non-root row), a pointer per row. */
    const int64_t axial_bytes = 2 * (sim->nrows - sim->ncells) * (4 + (int64_t)sim->esize) +
                                8 * (sim->nrows + 1);
    if (sim->onchip && sim->steps < target) {
        hb_sim_epoch ej;
        const int64_t *perm;
        hb__plan_cell_group(sim->plan, &ej.lay, &perm, arr);
        ej.u = arr[0], ej.l = arr[1];
        ej.group = sim->epoch_group, ej.stage = sim->epoch_stage, ej.pcr = sim->epoch_pcr;
        while (sim->steps < target) {
            int64_t n = target - sim->steps;
            if (sim->prm.epoch_steps > 0 && n > sim->prm.epoch_steps)
                n = sim->prm.epoch_steps;
            if (d->nrec > 0 && n > sim->prm.record_chunk - sim->rec_rows)
                n = sim->prm.record_chunk - sim->rec_rows;
            if (n > hb__sim_spike_room(sim))
                n = hb__sim_spike_room(sim);
            ej.step0 = sim->steps, ej.nsteps = n, ej.rec_row0 = sim->rec_rows;
            double t = now_ms();
            HB_FORWARD(ops->epoch(ctx, stream, p, d, &ej));
            HB_FORWARD(stage(sim, &t, &tm->onchip_ms));
            sim->steps += n;
            tm->steps += n;
            tm->epochs++;
            tm->compartment_steps += n * sim->nrows;
            /* Once per epoch: v in and out, the three per-row constants
             * (d0, u, l), the axial table, the model (parameters in, state
             * and ions in and out, instance tables) and the schedule (8
             * int32 per row at most); per step the recorded samples. */
            tm->compulsory_bytes += rows_bytes * 5 + axial_bytes + sim->model.bytes +
                                    sim->nrows * 32 + n * d->nrec * (int64_t)sim->esize;
            sim->rec_rows = d->nrec > 0 ? sim->rec_rows + n : 0;
            if (sim->rec_rows == sim->prm.record_chunk)
                HB_FORWARD(flush(sim));
            if (hb__sim_spike_room(sim) == 0)
                HB_FORWARD(hb__sim_drain_spikes(sim));
        }
    }
    if (sim->engine == HB_SIM_ENGINE_CELLS && ops->step_cells && sim->steps < target &&
        hb__plan_per_system_hines(sim->plan, &job.lay, &job.slot, arr)) {
        /* The fused loop: one backend call per segment, a segment ending where
         * the recording buffer fills (every step when nothing is recorded). */
        job.offsets = sim->offsets;
        job.u = arr[0], job.l = arr[1], job.d = arr[2], job.rhs = arr[3];
        job.timing = sim->prm.timing;
        while (sim->steps < target) {
            int64_t n = target - sim->steps;
            if (d->nrec > 0 && n > sim->prm.record_chunk - sim->rec_rows)
                n = sim->prm.record_chunk - sim->rec_rows;
            if (n > hb__sim_spike_room(sim))
                n = hb__sim_spike_room(sim);
            job.step0 = sim->steps, job.nsteps = n, job.rec_row0 = sim->rec_rows;
            HB_FORWARD(ops->step_cells(ctx, p, d, &job));
            if (job.timing) {
                tm->membrane_ms += job.stage_ms[0], tm->assembly_ms += job.stage_ms[1];
                tm->solve_ms += job.stage_ms[2], tm->update_ms += job.stage_ms[3];
            }
            sim->steps += n;
            tm->steps += n;
            tm->compartment_steps += n * sim->nrows;
            /* A cell stays in cache for the segment: as an epoch. */
            tm->compulsory_bytes += rows_bytes * 5 + axial_bytes + sim->model.bytes +
                                    n * d->nrec * (int64_t)sim->esize;
            sim->rec_rows = d->nrec > 0 ? sim->rec_rows + n : 0;
            if (sim->rec_rows == sim->prm.record_chunk)
                HB_FORWARD(flush(sim));
            if (hb__sim_spike_room(sim) == 0)
                HB_FORWARD(hb__sim_drain_spikes(sim));
        }
    }
    hb_buffer *dbuf, *rbuf;
    for (; sim->steps < target; ++sim->steps) {
        double t = now_ms();
        HB_FORWARD(ops->membrane(ctx, stream, p, d, sim->steps));
        HB_FORWARD(stage(sim, &t, &tm->membrane_ms));
        HB_FORWARD(hb__plan_array(sim->plan, HB_ARRAY_D, &dbuf));
        HB_FORWARD(hb__plan_array(sim->plan, HB_ARRAY_RHS, &rbuf));
        HB_FORWARD(ops->assemble(ctx, stream, p, d, dbuf, rbuf));
        HB_FORWARD(stage(sim, &t, &tm->assembly_ms));
        HB_FORWARD(hb_plan_solve(sim->plan));
        HB_FORWARD(stage(sim, &t, &tm->solve_ms));
        /* The solve left the solution in the same RHS buffer. */
        HB_FORWARD(ops->update(ctx, stream, p, d, rbuf, (double)sim->steps * sim->prm.dt,
                               sim->rec_rows));
        HB_FORWARD(stage(sim, &t, &tm->update_ms));
        /* The states move over the step at the new voltage (nrn_state). */
        HB_FORWARD(ops->mech_state(ctx, stream, p, d, sim->steps));
        /* Probes: the step's values, states included. */
        if (d->nprobe > 0)
            HB_FORWARD(ops->probe(ctx, stream, p, d, sim->rec_rows));
        HB_FORWARD(stage(sim, &t, &tm->membrane_ms));
        tm->steps++;
        tm->compartment_steps += sim->nrows;
        /* Per step: v in and out, d0, u, l in, g and I out and in again, d
         * and rhs out (as counted before the step solved for dv, with the
         * axial table in place of C/dt), the model once, the recorded
         * samples. */
        tm->compulsory_bytes += rows_bytes * 9 + axial_bytes + sim->model.bytes +
                                d->nrec * (int64_t)sim->esize;
        if (++sim->rec_rows == sim->prm.record_chunk)
            HB_FORWARD(flush(sim));
        /* This step is run but not yet counted in sim->steps. */
        if (hb__sim_spike_room(sim) <= 1)
            HB_FORWARD(hb__sim_drain_spikes(sim));
    }
    HB_FORWARD(flush(sim));
    HB_FORWARD(hb__sim_drain_spikes(sim));
    HB_FORWARD(hb__sim_check_self(sim));
    HB_FORWARD(ctx->ops->finish(ctx, stream));
    tm->total_ms += now_ms() - t_begin;
    /* A network checks its parts once at the end of its run, not per epoch
     * (the check reads every voltage back). */
    return sim->defer_finite ? HB_SUCCESS : hb__sim_check_finite(sim);
}

static hb_status get_time(const hb_sim *sim, double *t, int64_t *steps)
{
    if (t)
        *t = (double)sim->steps * sim->prm.dt;
    if (steps)
        *steps = sim->steps;
    return HB_SUCCESS;
}

static hb_status trace_count(const hb_sim *sim, int64_t *nrec, int64_t *nsamples)
{
    if (nrec)
        *nrec = sim->dev.nrec;
    if (nsamples)
        *nsamples = sim->started ? sim->nsamples : 0;
    return HB_SUCCESS;
}

static hb_status get_trace(const hb_sim *sim, int64_t r, int64_t *cell, double *v)
{
    if (r < 0 || r >= sim->dev.nrec)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "hb_sim_get_trace: trace %lld not in [0, %lld)",
                         (long long)r, (long long)sim->dev.nrec);
    if (cell)
        *cell = sim->rec_cells[r];
    if (v && sim->started)
        memcpy(v, sim->traces[r], (size_t)sim->nsamples * sizeof *v);
    return HB_SUCCESS;
}

static hb_status get_spikes(hb_sim *sim, int64_t cell, int64_t cap, double *times, int64_t *count)
{
    const char *fn = "hb_sim_get_spikes";
    if (cell < 0 || cell >= sim->ncells)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: cell %lld not in [0, %lld)", fn,
                         (long long)cell, (long long)sim->ncells);
    if (!count)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: count (output) is NULL", fn);
    if (cap < 0 || (cap > 0 && !times))
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: cap = %lld with times %s", fn,
                         (long long)cap, times ? "set" : "NULL");
    if (!sim->started) {
        *count = 0;
        return HB_SUCCESS;
    }
    /* Every run ends with the device's spikes drained into the logs. */
    const int64_t n = sim->spk.n[cell], m = n < cap ? n : cap;
    if (m > 0)
        memcpy(times, sim->spk.t[cell], (size_t)m * sizeof *times);
    *count = n;
    return HB_SUCCESS;
}

/* The catalogue index of mech and the slot (or PARAMETER) named var. */
static hb_status find_var(const char *mech, const char *var, int *m, int *slot, int *is_param,
                          const char *fn)
{
    if (!mech || !var)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: %s is NULL", fn, !mech ? "mech" : "var");
    for (*m = 0; *m < HB_CAT_INFO_NMECH; ++*m)
        if (!strcmp(hb_cat_mechs[*m].name, mech))
            break;
    if (*m == HB_CAT_INFO_NMECH)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: no mechanism \"%s\" in the catalogue", fn,
                         mech);
    const hb_cat_mech *cm = &hb_cat_mechs[*m];
    for (*slot = 0; *slot < cm->nstate; ++*slot)
        if (!strcmp(cm->state_names[*slot], var)) {
            *is_param = 0;
            return HB_SUCCESS;
        }
    for (*slot = 0; *slot < cm->nparam; ++*slot)
        if (!strcmp(cm->param_names[*slot], var)) {
            *is_param = 1;
            return HB_SUCCESS;
        }
    return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: %s has no state or PARAMETER \"%s\"", fn,
                     mech, var);
}

static hb_status get_state(hb_sim *sim, hb_sim_state which, double *out)
{
    const char *fn = "hb_sim_get_state";
    if (!out)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: out is NULL", fn);
    if (which != HB_SIM_V && which != HB_SIM_M && which != HB_SIM_H && which != HB_SIM_N)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: which = %d is not an hb_sim_state", fn,
                         (int)which);
    HB_FORWARD(model_build(sim, fn));
    HB_FORWARD(sim->ctx->ops->finish(sim->ctx, sim->prm.plan.stream));
    double *tmp = hb__malloc_n(sim->nrows, sizeof *tmp);
    if (!tmp)
        return hb__error(HB_ERR_OUT_OF_MEMORY, "%s: %lld rows", fn, (long long)sim->nrows);
    hb_status st;
    if (which == HB_SIM_V)
        st = hb__sim_read_real(sim, sim->dev.v, 0, sim->nrows, tmp);
    else {
        int m, slot, is_param;
        int64_t n;
        const char *gate = which == HB_SIM_M ? "m" : which == HB_SIM_H ? "h" : "n";
        st = find_var("hh", gate, &m, &slot, &is_param, fn);
        if (st == HB_SUCCESS)
            st = hb__sim_read_mech(sim, m, slot, is_param, tmp, 0.0, &n);
    }
    if (st == HB_SUCCESS)
        memcpy(out, tmp, (size_t)sim->nrows * sizeof *out);
    free(tmp);
    return st;
}

static hb_status get_mech_state(hb_sim *sim, const char *mech, const char *var, double *out,
                                int64_t *n)
{
    const char *fn = "hb_sim_get_mech_state";
    int m, slot, is_param;
    if (!out || !n)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: %s (output) is NULL", fn,
                         !out ? "out" : "n");
    HB_FORWARD(find_var(mech, var, &m, &slot, &is_param, fn));
    HB_FORWARD(model_build(sim, fn));
    HB_FORWARD(sim->ctx->ops->finish(sim->ctx, sim->prm.plan.stream));
    const int64_t cap = sim->model.mtab[5 * m] > sim->nrows ? sim->model.mtab[5 * m] : sim->nrows;
    double *tmp = hb__malloc_n(cap > 0 ? cap : 1, sizeof *tmp);
    if (!tmp)
        return hb__error(HB_ERR_OUT_OF_MEMORY, "%s: %lld rows", fn, (long long)sim->nrows);
    int64_t got = 0;
    hb_status st = hb__sim_read_mech(sim, m, slot, is_param, tmp, NAN, &got);
    if (st == HB_SUCCESS) {
        memcpy(out, tmp, (size_t)got * sizeof *out);
        *n = got;
    }
    free(tmp);
    return st;
}

static hb_status get_timing(const hb_sim *sim, hb_sim_timing *timing)
{
    if (!timing)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "hb_sim_get_timing: timing (output) is NULL");
    *timing = sim->timing;
    return HB_SUCCESS;
}

/* ---- Entry points: one thread at a time (sim.h) ---------------------------- */

hb_status hb_sim_run(hb_sim *sim, double tstop)
{
    HB_SIM_GUARDED(sim, "hb_sim_run", run(sim, tstop));
}

hb_status hb_sim_get_time(const hb_sim *sim, double *t, int64_t *steps)
{
    HB_SIM_GUARDED(sim, "hb_sim_get_time", get_time(sim, t, steps));
}

hb_status hb_sim_trace_count(const hb_sim *sim, int64_t *nrec, int64_t *nsamples)
{
    HB_SIM_GUARDED(sim, "hb_sim_trace_count", trace_count(sim, nrec, nsamples));
}

hb_status hb_sim_get_trace(const hb_sim *sim, int64_t r, int64_t *cell, double *v)
{
    HB_SIM_GUARDED(sim, "hb_sim_get_trace", get_trace(sim, r, cell, v));
}

hb_status hb_sim_get_spikes(hb_sim *sim, int64_t cell, int64_t cap, double *times, int64_t *count)
{
    HB_SIM_GUARDED(sim, "hb_sim_get_spikes", get_spikes(sim, cell, cap, times, count));
}

hb_status hb_sim_get_state(hb_sim *sim, hb_sim_state which, double *out)
{
    HB_SIM_GUARDED(sim, "hb_sim_get_state", get_state(sim, which, out));
}

hb_status hb_sim_get_mech_state(hb_sim *sim, const char *mech, const char *var, double *out,
                                int64_t *n)
{
    HB_SIM_GUARDED(sim, "hb_sim_get_mech_state", get_mech_state(sim, mech, var, out, n));
}

hb_status hb_sim_get_timing(const hb_sim *sim, hb_sim_timing *timing)
{
    HB_SIM_GUARDED(sim, "hb_sim_get_timing", get_timing(sim, timing));
}
