/* sim.c: simulation objects: parameters, creation from cells, clamps and recordings (probes: sim_probe.c). */
#include "hb_env.h"
#include "hb_exprelr.h"
#include "sim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void hb_sim_params_init(hb_sim_params *p)
{
    if (!p)
        return;
    memset(p, 0, sizeof *p);
    p->dt = 0.025;
    p->celsius = 6.3;
    p->v_init = -65.0;
    p->gnabar = 0.12;
    p->gkbar = 0.036;
    p->gl = 0.0003;
    p->el = -54.3;
    p->ena = 50.0;
    p->ek = -77.0;
    p->threshold = -20.0;
    p->max_spikes = 256;
    p->record_chunk = 1000;
    p->precision = HB_DOUBLE;
    hb_plan_options_init(&p->plan);
}

hb_status hb__sim_alloc(hb_sim *sim, hb_buffer **buf, size_t esize, int64_t n, const void *src)
{
    hb_context *ctx = sim->ctx;
    size_t bytes;
    if (!hb__bytes_n(n > 0 ? n : 1, esize, &bytes))
        return hb__error(HB_ERR_OUT_OF_MEMORY, "simulation: %lld elements of %zu bytes do not fit",
                         (long long)n, esize);
    hb_status st = ctx->ops->alloc(ctx, bytes, buf);
    if (st != HB_SUCCESS)
        return st;
    if (src && n > 0)
        HB_FORWARD(ctx->ops->write(ctx, sim->prm.plan.stream, *buf, 0, src, bytes));
    return HB_SUCCESS;
}

hb_status hb__sim_check_buffers(hb_sim *sim, int64_t nrec, const char *fn)
{
    const hb_sim_params *p = &sim->prm;
    int64_t spikes, samples;
    size_t b;
    /* The products are checked before anything is sized from them: a wrapped
     * one would size a small buffer that kernels then write past. */
    if (!hb__mul_i64(sim->ncells, p->max_spikes, &spikes) || !hb__bytes_n(spikes, sim->esize, &b))
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "%s: params->max_spikes = %lld for %lld cells: the spike table's size "
                         "overflows",
                         fn, (long long)p->max_spikes, (long long)sim->ncells);
    if (!hb__mul_i64(nrec, p->record_chunk, &samples) || !hb__bytes_n(samples, sim->esize, &b))
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "%s: params->record_chunk = %lld for %lld recordings: the recording "
                         "buffer's size overflows",
                         fn, (long long)p->record_chunk, (long long)nrec);
    uint64_t need = hb__mul_sat((uint64_t)spikes + (uint64_t)samples, sim->esize);
    hb_status st = hb__memory_check(sim->ctx, 0, need, fn);
    if (st != HB_SUCCESS)
        return hb__error(st, "%s (the spike table, params->max_spikes = %lld per cell, and the "
                             "recording buffer, params->record_chunk = %lld samples)",
                         hb_last_error(), (long long)p->max_spikes, (long long)p->record_chunk);
    return HB_SUCCESS;
}

hb_status hb__sim_alloc_real(hb_sim *sim, hb_buffer **buf, int64_t n, const double *src)
{
    if (!src || sim->prm.precision == HB_DOUBLE)
        return hb__sim_alloc(sim, buf, sim->esize, n, src);
    float *tmp = hb__malloc_n(n > 0 ? n : 1, sizeof *tmp);
    if (!tmp)
        return hb__error(HB_ERR_OUT_OF_MEMORY, "simulation: %lld floats", (long long)n);
    for (int64_t k = 0; k < n; ++k)
        tmp[k] = (float)src[k];
    hb_status st = hb__sim_alloc(sim, buf, sizeof(float), n, tmp);
    free(tmp);
    return st;
}

hb_status hb__sim_read_real(hb_sim *sim, hb_buffer *buf, int64_t off, int64_t n, double *dst)
{
    hb_context *ctx = sim->ctx;
    void *stream = sim->prm.plan.stream;
    if (n <= 0)
        return HB_SUCCESS;
    if (sim->prm.precision == HB_DOUBLE)
        return ctx->ops->read(ctx, stream, buf, (size_t)off * sizeof(double), dst,
                              (size_t)n * sizeof(double));
    float *tmp = hb__malloc_n(n, sizeof *tmp);
    if (!tmp)
        return hb__error(HB_ERR_OUT_OF_MEMORY, "simulation: %lld floats", (long long)n);
    hb_status st = ctx->ops->read(ctx, stream, buf, (size_t)off * sizeof(float), tmp,
                                  (size_t)n * sizeof(float));
    for (int64_t k = 0; st == HB_SUCCESS && k < n; ++k)
        dst[k] = tmp[k];
    free(tmp);
    return st;
}

static hb_status check_params(const hb_sim_params *p)
{
    const char *fn = "hb_sim_create";
    if (!(p->dt > 0) || !isfinite(p->dt))
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: params->dt = %g ms must be > 0", fn, p->dt);
    const struct {
        const char *name;
        double v;
        int nonneg;
    } f[] = {{"celsius", p->celsius, 0}, {"v_init", p->v_init, 0}, {"gnabar", p->gnabar, 1},
             {"gkbar", p->gkbar, 1},     {"gl", p->gl, 1},         {"el", p->el, 0},
             {"ena", p->ena, 0},         {"ek", p->ek, 0},         {"threshold", p->threshold, 0}};
    for (size_t i = 0; i < sizeof f / sizeof f[0]; ++i)
        if (!isfinite(f[i].v) || (f[i].nonneg && f[i].v < 0))
            return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: params->%s = %g is %s", fn, f[i].name,
                             f[i].v, f[i].nonneg ? "not a finite value >= 0" : "not finite");
    /* The rate factor 3^((celsius - 6.3)/10) must be a number: past about
     * 6,400 degrees it is inf and every gate NaN. */
    if (p->celsius < -273.15 || !isfinite(pow(3.0, (p->celsius - 6.3) / 10.0)))
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "%s: params->celsius = %g is below absolute zero or makes the rate "
                         "factor 3^((celsius - 6.3)/10) overflow",
                         fn, p->celsius);
    if (p->max_spikes < 1)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: params->max_spikes = %lld < 1", fn,
                         (long long)p->max_spikes);
    if (p->record_chunk < 1)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: params->record_chunk = %lld < 1", fn,
                         (long long)p->record_chunk);
    if (p->engine < HB_SIM_ENGINE_AUTO || p->engine > HB_SIM_ENGINE_CELLS)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: params->engine = %d is not an hb_sim_engine",
                         fn, (int)p->engine);
    if (p->epoch_steps < 0)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: params->epoch_steps = %lld < 0", fn,
                         (long long)p->epoch_steps);
    if (p->precision != HB_DOUBLE && p->precision != HB_FLOAT)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: params->precision = %d is not an hb_precision",
                         fn, (int)p->precision);
    /* The engine sets every cell's couplings itself (cells of one tree may
     * still differ in axial conductances), one value per row. */
    if (p->plan.shared_couplings)
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "%s: params->plan.shared_couplings = %d: a simulation sets its plan's "
                         "couplings per cell (leave it 0)",
                         fn, (int)p->plan.shared_couplings);
    return HB_SUCCESS;
}

/* The engine's steps on the context's backend; every one must be there. */
static hb_status find_ops(const hb_context *ctx, const hb_sim_ops **out)
{
    const hb_sim_ops *ops = NULL;
    switch (hb_context_backend(ctx)) {
    case HB_BACKEND_SERIAL: ops = hb__serial_sim_ops(); break;
    case HB_BACKEND_OPENMP: ops = hb__openmp_sim_ops(); break;
    case HB_BACKEND_OPENCL: ops = hb__opencl_sim_ops(); break;
    case HB_BACKEND_CUDA: ops = hb__cuda_sim_ops(); break;
    default: break;
    }
    const char *missing = !ops              ? "its operations table"
                          : !ops->mech_init ? "mech_init"
                          : !ops->mech_state ? "mech_state"
                          : !ops->membrane  ? "membrane"
                          : !ops->assemble ? "assemble"
                          : !ops->update   ? "update"
                                           : NULL;
    if (missing)
        return hb__error(HB_ERR_BACKEND_UNAVAILABLE,
                         "hb_sim_create: the simulation engine has no %s on %s", missing,
                         hb_context_describe(ctx));
    *out = ops;
    return HB_SUCCESS;
}

/* Per-row constants from the batch and the cells: plan positions, v_init,
 * C/dt, the diagonal, and the model's per-row tables (sim_model.c). */
static hb_status build_rows(hb_sim *sim, const hb_morph_cell *const *cells,
                            const hb_morph_batch_view *bv)
{
    const hb_sim_params *p = &sim->prm;
    int64_t R = sim->nrows;
    double *v = hb__malloc_n(R, sizeof *v);
    int64_t *pos = hb__malloc_n(R, sizeof *pos);
    hb_status st = HB_SUCCESS;
    if (!v || !pos)
        st = hb__error(HB_ERR_OUT_OF_MEMORY, "hb_sim_create: per-row tables of %lld rows",
                       (long long)R);
    for (int64_t c = 0; c < sim->ncells && st == HB_SUCCESS; ++c) {
        hb_morph_cell_view cv;
        if ((st = hb_morph_cell_get_view(cells[c], &cv)))
            break;
        int64_t o = sim->offsets[c], soma = -1;
        for (int64_t i = 0; i < cv.n && soma < 0; ++i)
            if (cv.type[i] == 1)
                soma = i;
        sim->soma[c] = soma < 0 ? 0 : soma;
        for (int64_t i = 0; i < cv.n; ++i) {
            v[o + i] = p->v_init;
            if ((st = hb_plan_index(sim->plan, c, i, &pos[o + i])))
                break;
        }
    }
    if (st == HB_SUCCESS)
        st = hb__sim_model_rows(sim, cells, bv);
    if (st == HB_SUCCESS)
        st = hb__sim_axial_tables(sim);
    if (st == HB_SUCCESS)
        st = hb__sim_cdt_table(sim);
    hb_sim_dev *d = &sim->dev;
    if (st == HB_SUCCESS &&
        ((st = hb__sim_alloc(sim, &d->pos, sizeof(int64_t), R, pos)) ||
         (st = hb__sim_alloc_real(sim, &d->v, R, v)) ||
         (st = hb__sim_alloc_real(sim, &d->d0, R, bv->d)) ||
         (st = hb__sim_alloc_real(sim, &d->gmem, R, NULL)) ||
         (st = hb__sim_alloc_real(sim, &d->imem, R, NULL))))
        {
        }
    free(v), free(pos);
    return st;
}

/* Sets the plan's matrix once: U and L stay; D and RHS are rewritten every
 * step by the assembly kernel. */
static hb_status set_matrix(hb_sim *sim, const hb_morph_batch_view *bv)
{
    const double *src[4] = {bv->u, bv->l, bv->d, NULL};
    const hb_array which[4] = {HB_ARRAY_U, HB_ARRAY_L, HB_ARRAY_D, HB_ARRAY_RHS};
    void *tmp = hb__calloc_n(sim->nrows, sim->esize);
    if (!tmp)
        return hb__error(HB_ERR_OUT_OF_MEMORY, "hb_sim_create: matrix of %lld rows",
                         (long long)sim->nrows);
    hb_status st = HB_SUCCESS;
    for (int w = 0; w < 4 && st == HB_SUCCESS; ++w) {
        for (int64_t k = 0; k < sim->nrows; ++k) {
            double x = src[w] ? src[w][k] : 0.0;
            if (sim->prm.precision == HB_DOUBLE)
                ((double *)tmp)[k] = x;
            else
                ((float *)tmp)[k] = (float)x;
        }
        st = hb_plan_set(sim->plan, which[w], tmp);
    }
    free(tmp);
    return st;
}

/* sim->plan over the cells (sim->offsets) with their local parents (flat;
 * a uniform plan of the first cell's tree when every cell is the same). */
static hb_status make_plan(hb_sim *sim, int mono, const int32_t *parent,
                           const hb_plan_options *po)
{
    return mono ? hb_plan_create_hines_uniform(sim->ctx, sim->prm.precision, sim->ncells,
                                               sim->offsets[1] - sim->offsets[0], parent, po,
                                               &sim->plan)
                : hb_plan_create_hines(sim->ctx, sim->prm.precision, sim->ncells, sim->offsets,
                                       parent, po, &sim->plan);
}

/* Why the on-chip engine cannot run this batch before a plan is made (NULL:
 * it can try), in sim->note. */
static const char *onchip_refusal(hb_sim *sim, int64_t max_rows, int64_t *limit)
{
    const hb_context *ctx = sim->ctx;
    const hb_plan_options *po = &sim->prm.plan;
    const size_t esize = sim->esize;
    if (po->strategy != HB_STRATEGY_AUTO && po->strategy != HB_STRATEGY_CELL_GROUP)
        snprintf(sim->note, sizeof sim->note,
                 "the on-chip engine solves with cell-group; plan strategy %s was asked for",
                 hb_strategy_name(po->strategy));
    else if (po->layout != HB_LAYOUT_AUTO && po->layout != HB_LAYOUT_FLAT)
        snprintf(sim->note, sizeof sim->note,
                 "the on-chip engine runs on the flat layout; plan layout %s was asked for",
                 hb_layout_name(po->layout));
    else if (!hb__cell_fits(&ctx->traits, max_rows, esize, 0)) {
        /* The cell-group plan's four arrays of rows (the epoch's three, d,
         * rhs and v, take less: u and the schedule are read from global
         * memory where they do not fit, and the trunk swept by one
         * work-item where its PCR rows do not). */
        const size_t need = hb__cell_local_bytes(max_rows, esize, 0, 0);
        snprintf(sim->note, sizeof sim->note,
                 "a cell of %lld compartments needs %zu KiB of local memory on chip, the device "
                 "has %zu KiB",
                 (long long)max_rows, need / 1024 + (need % 1024 != 0),
                 ctx->traits.local_mem / 1024);
    } else if (sim->ops->epoch_group_limit(sim->ctx, sim->prm.precision, limit) != HB_SUCCESS)
        snprintf(sim->note, sizeof sim->note, "the on-chip kernel is not available: %s",
                 hb_last_error());
    else
        return NULL;
    return sim->note;
}

/* The local memory of an epoch of stage s (HB_EPOCH_STAGE_*) with the
 * trunk's PCR rows where they fit beside it (*pcr; a few steps instead of a
 * chain of its rows), else with the trunk swept by one work-item; SIZE_MAX
 * where even that does not fit. */
static size_t epoch_bytes(const hb_device_traits *dev, int64_t max_rows, size_t esize, int s,
                          int *pcr)
{
    *pcr = HB_EPOCH_LAUNCH_BYTES(max_rows, esize, s, 1) <= dev->local_mem;
    const size_t b = HB_EPOCH_LAUNCH_BYTES(max_rows, esize, s, *pcr);
    return b <= dev->local_mem ? b : SIZE_MAX;
}

/* How the epoch launches (sim->epoch_group, sim->epoch_stage, sim->epoch_pcr):
 * the work-items per cell asked for (params.plan.group_size), else the
 * default (hb__epoch_group), with the most staged that fits
 * (HB_EPOCH_STAGE_ALL, then u alone, then neither) and the trunk's PCR rows
 * where they fit beside it; where the cells outnumber what the device holds
 * at once that way, the size (whole warps from 64 up to the default) and
 * stage that run the batch in the fewest waves of resident cells
 * (ops->epoch_resident: registers and local memory), then with the most
 * work-items, then the most staged; without that query, a measured rule
 * (below). Never more staged than cap (HINESBATCH_EPOCH_STAGE).
 * A cell's step is a chain of dependent levels, so more cells at once hide
 * each other's latency; but a cell runs slower with fewer work-items or
 * with u read from global memory, so only as many more as save a wave.
 * CUDA on an H100, 10,000 CA1 cells (1,508 rows; one run,
 * docs/benchmarks/h100-2026-11-25-resident): double, the default (192,
 * staged: 2 per SM) 1.37e10 compartment-steps/s, 96 with the schedule read
 * from global memory (4 per SM) 1.64e10, 64 (4) 1.39e10, 128 (3) 1.50e10;
 * float 1.58e10, 2.75e10 (96: 6 per SM), 2.69e10 (64: 8), 2.49e10 (128: 4).
 * At 200 cells (all resident at once) the default was best: 1.02e10
 * against 0.95e10 with 192 from global memory and 0.96e10 with 128. On an
 * H200 (docs/benchmarks/h200-2026-11-25-ucopy), 10,000 cells with u from
 * global memory too: double 96 (5 per SM) 1.77e10 against 1.63e10 with u
 * staged (4), float 64 (10 per SM) 3.0e10 against 2.69e10 (8); at 1,000
 * float cells (one wave either way) u from global memory cost 11% (2.30e10
 * against 2.58e10, a build of one kernel for both stages). Stage vx (v in
 * rhs's array, double alone: below) on the H200, two rounds each
 * (docs/benchmarks/h200-2026-11-29-auto): 10,000 double cells 2.24e10 at
 * 64 work-items (8 per SM), against 1.78-1.79e10 at 96 with stage none (5)
 * and 1.51-1.52e10 at 64 with none (5); 1,000 cells 2.16-2.17e10 against
 * 1.38e10 at 96, none. */
enum { HB_EPOCH_MANY_PER_UNIT = 4, HB_EPOCH_VX_PER_UNIT = 15 };

/* The longest chain one work-item of the epoch eliminates between two
 * barriers (hb_plan_options.cell_chain; api/core/cell_schedule.c). CUDA on
 * an H200, CA1 cells of 1,508 rows, two rounds
 * (docs/benchmarks/h200-2026-11-30-chains, call 2), compartment-steps/s at
 * chains of 4 / 8 / 16 / whole runs: 10,000 cells in double 2.75-2.76 /
 * 2.96 / 2.96 / 2.87e10, 200 cells 1.30-1.32 / 1.37 / 1.34 / 1.28-1.29e10,
 * 10,000 in float 3.65 / 3.93-3.94 / 3.94-3.98 / 3.90-3.91e10; levels of
 * nodes (the schedule before chains) ran 2.30-2.32e10, 1.06-1.07e10 and
 * 3.18e10 (call 1). */
#define HB_SIM_CELL_CHAIN 8
static void epoch_launch(hb_sim *sim, const hb_layout_dev *lay, int64_t limit, int cap)
{
    const hb_device_traits *dev = &sim->ctx->traits;
    const size_t esize = sim->esize;
    const int64_t maxr = lay->max_rows;
    int pcr = 0, s0 = cap;
    size_t b0 = SIZE_MAX;
    for (; s0 > HB_EPOCH_STAGE_NONE; --s0)
        if ((b0 = epoch_bytes(dev, maxr, esize, s0, &pcr)) != SIZE_MAX)
            break;
    if (s0 <= HB_EPOCH_STAGE_NONE)
        b0 = epoch_bytes(dev, maxr, esize, s0, &pcr);
    sim->epoch_group = sim->prm.plan.group_size;
    sim->epoch_stage = s0, sim->epoch_pcr = pcr;
    const int64_t g0 = hb__epoch_group(lay->cell_group, maxr, 0);
    if (sim->epoch_group > 0 || dev->compute_units <= 0)
        return;
    if (!sim->ops->epoch_resident) {
        /* No occupancy query (OpenCL): past HB_EPOCH_MANY_PER_UNIT cells per
         * compute unit, one work-item per 16 rows (whole warps, at least 64)
         * instead of the default's 8: NVIDIA's OpenCL on an H200, 10,000 CA1
         * cells (docs/benchmarks/h200-2026-11-25-cellstaged): 96 work-items
         * 2.71e10 in float and 1.56e10 in double against 1.37e10 and
         * 1.17e10 with the default 192, as CUDA's query picks (2.68e10,
         * 1.62e10). At 200 cells (1.5 per SM) the default is CUDA's best;
         * the threshold between is not measured. There u is read from
         * global memory too where that makes room for the trunk's PCR rows
         * (which staging u leaves none for): the CA1 cell in double on
         * NVIDIA's 48 KiB, 1.64e10 against 1.53e10 at 10,000 cells and
         * 1.51e10 against 1.43e10 at 1,000; in float, where both fit, u
         * stays (2.77e10 against 2.73e10;
         * docs/benchmarks/h200-2026-11-25-ucopy). In double past
         * HB_EPOCH_VX_PER_UNIT cells per compute unit, stage vx (v in rhs's
         * array) with one work-item per 24 rows (64 for the CA1 cell, what
         * CUDA's query picks with vx on the same GPU): NVIDIA's OpenCL on the
         * H200, two rounds (docs/benchmarks/h200-2026-11-29-auto, call 4):
         * 10,000 CA1 cells (76 per SM) 1.84-1.85e10 against 1.63-1.64e10 with
         * 96 and stage none, but 1,000 (7.6 per SM) 1.20e10 against
         * 1.50-1.51e10 (CUDA, which sets the L1/shared split, gains at both).
         * Between, one round (docs/benchmarks/h200-2026-11-29-swizzle, call 1):
         * vx against 96 and none, 2,000 cells (15.2 per SM) 1.59e10 against
         * 1.55e10, 3,000 1.78e10 against 1.60e10, 5,000 1.73e10 against
         * 1.58e10: the threshold is 15 per unit, the lowest gain measured. */
        const int vx = sim->prm.precision == HB_DOUBLE &&
                       sim->ncells > HB_EPOCH_VX_PER_UNIT * (int64_t)dev->compute_units;
        int64_t g = hb__epoch_items(maxr, vx ? 24 : 16);
        g = g < 64 ? 64 : g;
        if (sim->ncells > HB_EPOCH_MANY_PER_UNIT * (int64_t)dev->compute_units && g < g0 &&
            g <= limit) {
            sim->epoch_group = (int32_t)g;
            int p = 0;
            if (vx && epoch_bytes(dev, maxr, esize, HB_EPOCH_STAGE_VX, &p) != SIZE_MAX)
                sim->epoch_stage = HB_EPOCH_STAGE_VX, sim->epoch_pcr = p;
            else if (!sim->epoch_pcr && s0 >= HB_EPOCH_STAGE_NONE &&
                     epoch_bytes(dev, maxr, esize, HB_EPOCH_STAGE_NONE, &p) != SIZE_MAX && p)
                sim->epoch_stage = HB_EPOCH_STAGE_NONE, sim->epoch_pcr = 1;
        }
        return;
    }
    int64_t r0 = 0;
    if (sim->ops->epoch_resident(sim->ctx, sim->prm.precision, s0, g0, b0, &r0) != HB_SUCCESS ||
        r0 <= 0 || sim->ncells <= r0 * dev->compute_units)
        return;
    const int64_t cu = dev->compute_units;
    /* v in rhs's array (HB_EPOCH_STAGE_VX) in double alone: the step for v
     * rounds at |v| where the step for dv rounds at |dv|, which float's 24
     * bits feel and double's 53 do not. */
    const int lowest = s0 < HB_EPOCH_STAGE_NONE || sim->prm.precision == HB_DOUBLE
                           ? HB_EPOCH_STAGE_VX
                           : HB_EPOCH_STAGE_NONE;
    int64_t best_w = (sim->ncells + r0 * cu - 1) / (r0 * cu), best_g = g0;
    int best_s = s0, best_pcr = pcr;
    for (int64_t g = 64; g <= g0 && g <= limit; g += 32)
        for (int s = s0; s >= lowest; --s) {
            int64_t r = 0;
            int p = 0;
            const size_t b = epoch_bytes(dev, maxr, esize, s, &p);
            if (b == SIZE_MAX ||
                sim->ops->epoch_resident(sim->ctx, sim->prm.precision, s, g, b, &r) != HB_SUCCESS ||
                r <= 0)
                continue;
            const int64_t w = (sim->ncells + r * cu - 1) / (r * cu);
            hb__log("hb_sim_create: epoch of %lld work-items, stage %d, %zu bytes: %lld cells "
                    "per compute unit, %lld waves",
                    (long long)g, s, b, (long long)r, (long long)w);
            if (w < best_w || (w == best_w && (g > best_g || (g == best_g && s > best_s))))
                best_w = w, best_g = g, best_s = s, best_pcr = p;
        }
    hb__clear_error();
    if (best_g != g0 || best_s != s0)
        sim->epoch_group = (int32_t)best_g, sim->epoch_stage = best_s, sim->epoch_pcr = best_pcr;
}

/* The engine (hinesbatch_sim.h) and the solver plan it needs: on a backend
 * with an on-chip engine, a cell-group plan where every cell fits (AUTO: on
 * GPUs; an OpenCL CPU device runs the stages unless cells are asked for),
 * else the caller's plan and the stages, with the reason in sim->note when
 * cells were asked for. The host backends' cells engine is OpenMP's fused
 * loop, over a per-system plan. */
enum { HB_SIM_TINY_ROWS = 8, HB_SIM_TINY_CELLS = 50000 };
static hb_status choose_engine(hb_sim *sim, int mono, const hb_morph_batch_view *bv)
{
    const hb_sim_engine want = sim->prm.engine;
    const hb_sim_ops *ops = sim->ops;
    if (want == HB_SIM_ENGINE_CELLS && !ops->epoch && !ops->step_cells)
        return hb__error(HB_ERR_BACKEND_UNAVAILABLE,
                         "hb_sim_create: params->engine = cells: %s runs the stages engine only "
                         "(the serial backend is the oracle)",
                         hb_context_describe(sim->ctx));
    sim->engine = HB_SIM_ENGINE_STAGES;
    int64_t max_rows = 0, limit = 0;
    for (int64_t c = 0; c < sim->ncells; ++c)
        if (bv->offsets[c + 1] - bv->offsets[c] > max_rows)
            max_rows = bv->offsets[c + 1] - bv->offsets[c];
    /* Many tiny cells: a work-group per cell idles most of its work-items,
     * and the stages' work-item per row wins (H100, point-like cells of 4
     * rows: 2.7x at 100,000 cells, 0.8x at 10,000;
     * docs/benchmarks/h100-2026-11-24-net). */
    const int tiny = max_rows <= HB_SIM_TINY_ROWS && sim->ncells >= HB_SIM_TINY_CELLS;
    if (want == HB_SIM_ENGINE_AUTO && sim->ctx->traits.is_gpu && ops->epoch && tiny)
        snprintf(sim->note, sizeof sim->note,
                 "%lld cells of at most %d rows: the stages engine (a work-item per row)",
                 (long long)sim->ncells, HB_SIM_TINY_ROWS);
    if (ops->epoch && (want == HB_SIM_ENGINE_CELLS ||
                       (want == HB_SIM_ENGINE_AUTO && sim->ctx->traits.is_gpu && !tiny))) {
        int cap = HB_EPOCH_STAGE_ALL;
        HB_FORWARD(hb__env_epoch_stage(&cap));
        /* The epoch keeps one array for u and l (kernels_cl/sim/epoch.cl):
         * hb_morph_cell_matrix makes them equal, minus each edge's
         * conductance. */
        if (memcmp(bv->u, bv->l, (size_t)sim->nrows * sizeof *bv->u) != 0)
            snprintf(sim->note, sizeof sim->note,
                     "the on-chip engine needs a symmetric matrix (u = l), and this one is not");
        else if (!onchip_refusal(sim, max_rows, &limit)) {
            hb_plan_options po = sim->prm.plan;
            po.strategy = HB_STRATEGY_CELL_GROUP;
            po.layout = HB_LAYOUT_FLAT;
            /* Chains of at most HB_SIM_CELL_CHAIN nodes (measured there). */
            if (po.cell_chain == 0)
                po.cell_chain = HB_SIM_CELL_CHAIN;
            HB_FORWARD(make_plan(sim, mono, bv->parent, &po));
            const hb_layout_dev *lay;
            const int64_t *perm;
            hb_buffer *ul[2];
            if (!hb__plan_cell_group(sim->plan, &lay, &perm, ul))
                snprintf(sim->note, sizeof sim->note, "the cell-group plan did not hold: %s",
                         hb_plan_describe(sim->plan));
            else if (hb__epoch_group(lay->cell_group, lay->max_rows, po.group_size) > limit)
                snprintf(sim->note, sizeof sim->note,
                         "cells need %lld work-items per group, the kernel runs at most %lld",
                         (long long)hb__epoch_group(lay->cell_group, lay->max_rows,
                                                    po.group_size),
                         (long long)limit);
            else {
                sim->engine = HB_SIM_ENGINE_CELLS;
                sim->onchip = 1;
                epoch_launch(sim, lay, limit, cap);
                return HB_SUCCESS;
            }
            hb_plan_destroy(sim->plan);
            sim->plan = NULL;
        }
        hb__log("hb_sim_create: on-chip engine: %s; running the stages", sim->note);
    }
    HB_FORWARD(make_plan(sim, mono, bv->parent, &sim->prm.plan));
    const hb_layout_dev *lay;
    const int64_t *slot;
    hb_buffer *arr[4];
    if (ops->step_cells && want != HB_SIM_ENGINE_STAGES) {
        if (hb__plan_per_system_hines(sim->plan, &lay, &slot, arr))
            sim->engine = HB_SIM_ENGINE_CELLS;
        else if (want == HB_SIM_ENGINE_CELLS)
            snprintf(sim->note, sizeof sim->note,
                     "the fused per-cell loop runs with a per-system plan (%s)",
                     hb_plan_describe(sim->plan));
    }
    return HB_SUCCESS;
}

/* sim->describe: the batch, the engine that runs (and why not the one asked
 * for), the plan. */
static void describe(hb_sim *sim)
{
    const hb_sim_params prm = sim->prm;
    const int64_t ncells = sim->ncells;
    char eng[400];
    if (sim->onchip) {
        const hb_layout_dev *lay;
        const int64_t *perm;
        hb_buffer *ul[2];
        hb__plan_cell_group(sim->plan, &lay, &perm, ul);
        /* The launch epoch_launch chose (it may read u and the schedule
         * from global memory where staging them would fit). */
        const int stage = sim->epoch_stage;
        snprintf(eng, sizeof eng,
                 "engine: cells on chip (one work-group of %lld work-items per cell, %zu KiB "
                 "local%s%s, epochs of %s steps)",
                 (long long)hb__epoch_group(lay->cell_group, lay->max_rows,
                                            sim->epoch_group),
                 (HB_EPOCH_LAUNCH_BYTES(lay->max_rows, sim->esize, stage, sim->epoch_pcr) +
                  1023) / 1024,
                 stage == HB_EPOCH_STAGE_ALL ? ""
                 : stage == HB_EPOCH_STAGE_U ? ", schedule read from global memory"
                 : stage == HB_EPOCH_STAGE_NONE
                     ? ", schedule and couplings read from global memory"
                     : ", schedule and couplings read from global memory, v in the right-hand "
                       "side's array (each step solves for v)",
                 sim->epoch_pcr ? "" : ", trunk swept by one work-item",
                 prm.epoch_steps > 0 ? "at most params.epoch_steps" : "whole runs or record_chunk");
    } else if (sim->engine == HB_SIM_ENGINE_CELLS)
        snprintf(eng, sizeof eng, "engine: cells (fused per-cell loop, cells in cache)");
    else
        snprintf(eng, sizeof eng, "engine: stages (one launch per stage and step)%s%s",
                 sim->note[0] ? "; cells not running: " : "", sim->note);
    snprintf(sim->describe, sizeof sim->describe,
             "simulation: %lld cells, %lld compartments, dt %g ms, %g degC; %s; %s",
             (long long)ncells, (long long)sim->nrows, prm.dt, prm.celsius, eng,
             hb_plan_describe(sim->plan));
}

/* The heaviest membrane (hb__sim_model_load) AUTO leaves on chip. CUDA on an
 * H100, each pair in one run (docs/benchmarks/h100-2026-11-24-currents): the
 * CA1 cell with HH in the soma (load 1.0) and everywhere (5.0) ran 1.4 to
 * 2.2x faster on chip than in the stages engine (200 and 10,000 cells,
 * double and float); the L5PC model (load 7.77) 1.8x and 2.2x slower in
 * double (200 and 1,000 cells), 1.04x faster and 1.31x slower in float: its
 * work-group per cell (114 KiB of local memory in double, one cell per SM)
 * leaves a heavy membrane at low occupancy, where the stages run a
 * work-item per instance at full occupancy. */
#define HB_SIM_ONCHIP_MAX_LOAD 6.5

hb_status hb__sim_review_engine(hb_sim *sim)
{
    if (!sim->onchip || sim->prm.engine != HB_SIM_ENGINE_AUTO || sim->started)
        return HB_SUCCESS;
    const double load = hb__sim_model_load(sim);
    if (load <= HB_SIM_ONCHIP_MAX_LOAD)
        return HB_SUCCESS;
    const int64_t R = sim->nrows;
    hb_plan *onchip = sim->plan;
    sim->plan = NULL;
    hb_status st = make_plan(sim, sim->mono, sim->lparent, &sim->prm.plan);
    /* The matrix as hb_sim_create set it (hb_morph_cell_matrix: each row's
     * coupling to its parent is minus its axial conductance; the diagonal is
     * d0), and each row's place in the new plan. */
    double *u = st == HB_SUCCESS ? hb__malloc_n(R, sizeof *u) : NULL;
    double *dg = st == HB_SUCCESS ? hb__malloc_n(R, sizeof *dg) : NULL;
    int64_t *pos = st == HB_SUCCESS ? hb__malloc_n(R, sizeof *pos) : NULL;
    if (st == HB_SUCCESS && (!u || !dg || !pos))
        st = hb__error(HB_ERR_OUT_OF_MEMORY, "hb_sim_run: the stages' tables of %lld rows",
                       (long long)R);
    for (int64_t k = 0; st == HB_SUCCESS && k < R; ++k)
        u[k] = sim->lparent[k] >= 0 ? -sim->gax[k] : 0.0;
    if (st == HB_SUCCESS)
        st = hb__sim_read_real(sim, sim->dev.d0, 0, R, dg);
    for (int64_t c = 0; st == HB_SUCCESS && c < sim->ncells; ++c)
        for (int64_t k = sim->offsets[c]; st == HB_SUCCESS && k < sim->offsets[c + 1]; ++k)
            st = hb_plan_index(sim->plan, c, k - sim->offsets[c], &pos[k]);
    if (st == HB_SUCCESS) {
        hb_morph_batch_view bv;
        memset(&bv, 0, sizeof bv);
        bv.u = bv.l = u, bv.d = dg;
        st = set_matrix(sim, &bv);
    }
    if (st == HB_SUCCESS)
        st = sim->ctx->ops->write(sim->ctx, sim->prm.plan.stream, sim->dev.pos, 0, pos,
                                  (size_t)R * sizeof *pos);
    free(u), free(dg), free(pos);
    if (st != HB_SUCCESS) {
        hb_plan_destroy(sim->plan);
        sim->plan = onchip;
        return st;
    }
    hb_plan_destroy(onchip);
    sim->onchip = 0;
    sim->engine = HB_SIM_ENGINE_STAGES;
    snprintf(sim->note, sizeof sim->note,
             "AUTO: the membrane's load, %.3g per compartment (instances times 1 + their "
             "STATEs), is above %.3g, where the stages ran faster",
             load, HB_SIM_ONCHIP_MAX_LOAD);
    describe(sim);
    return HB_SUCCESS;
}

hb_status hb_sim_create(hb_context *ctx, const hb_morph_cell *const *cells, int64_t ncells,
                        const hb_sim_params *params, hb_sim **out)
{
    const char *fn = "hb_sim_create";
    if (!out)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: sim (output) is NULL", fn);
    if (!ctx)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: ctx is NULL", fn);
    if (!cells)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: cells is NULL", fn);
    if (ncells < 1)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: ncells = %lld < 1", fn, (long long)ncells);
    hb_sim_params prm;
    if (params)
        prm = *params;
    else
        hb_sim_params_init(&prm);
    HB_FORWARD(check_params(&prm));
    int mono = 1;
    uint64_t rows = 0; /* saturates */
    for (int64_t c = 0; c < ncells; ++c) {
        if (!cells[c])
            return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: cells[%lld] is NULL", fn, (long long)c);
        hb_morph_cell_view cv;
        HB_FORWARD(hb_morph_cell_get_view(cells[c], &cv));
        rows = hb__add_sat(rows, (uint64_t)cv.n);
        if (cv.cable.gm != 0)
            return hb__error(HB_ERR_INVALID_ARGUMENT,
                             "%s: cells[%lld] has cable.gm = %g S/cm^2; leaks are mechanisms "
                             "(pas, or params->gl in the default model), so build cells with "
                             "gm = 0",
                             fn, (long long)c, cv.cable.gm);
        mono = mono && cells[c] == cells[0];
    }
    const hb_sim_ops *ops = NULL;
    HB_FORWARD(find_ops(ctx, &ops));
    /* Fail fast, before the batch is made and filled: a lower bound of the
     * host tables (the batch's 5 doubles and a parent per row, build_rows'
     * v and positions; offsets and soma per cell) and of the backend's
     * arrays (the plan's 4 and the engine's 4 values per row, positions). */
    size_t es = prm.precision == HB_DOUBLE ? sizeof(double) : sizeof(float);
    hb_status mst = hb__memory_check(
        ctx, hb__add_sat(hb__mul_sat(rows, 5 * sizeof(double) + 4 + 16),
                         hb__mul_sat((uint64_t)ncells, 3 * sizeof(int64_t))),
        hb__mul_sat(rows, 8 * es + sizeof(int64_t)), fn);
    if (mst != HB_SUCCESS)
        return hb__error(mst, "%s (ncells = %lld, %llu rows in all)", hb_last_error(),
                         (long long)ncells, (unsigned long long)rows);

    hb_sim *sim = calloc(1, sizeof *sim);
    if (!sim)
        return hb__error(HB_ERR_OUT_OF_MEMORY, "%s: %zu bytes", fn, sizeof *sim);
    sim->ctx = ctx;
    hb__context_retain(ctx); /* dropped by hb_sim_destroy, on every path */
    atomic_init(&sim->busy, 0);
    sim->ops = ops;
    sim->prm = prm;
    sim->ncells = ncells;
    sim->esize = prm.precision == HB_DOUBLE ? sizeof(double) : sizeof(float);
    hb_morph_batch *batch = NULL;
    hb_morph_batch_view bv;
    hb_status st = mono ? hb_morph_batch_mono(cells[0], ncells, prm.dt, &batch)
                        : hb_morph_batch_multi(cells, ncells, prm.dt, &batch);
    if (st == HB_SUCCESS)
        st = hb_morph_batch_get_view(batch, &bv);
    if (st == HB_SUCCESS)
        st = hb__sim_check_buffers(sim, 0, fn);
    if (st == HB_SUCCESS) {
        sim->nrows = bv.rows;
        sim->offsets = hb__malloc_n(ncells + 1, sizeof *sim->offsets);
        sim->soma = hb__malloc_n(ncells, sizeof *sim->soma);
        if (!sim->offsets || !sim->soma)
            st = hb__error(HB_ERR_OUT_OF_MEMORY, "%s: tables of %lld cells", fn,
                           (long long)ncells);
        else
            memcpy(sim->offsets, bv.offsets, (size_t)(ncells + 1) * sizeof *sim->offsets);
    }
    sim->mono = mono;
    if (st == HB_SUCCESS)
        st = choose_engine(sim, mono, &bv);
    if (st == HB_SUCCESS)
        st = set_matrix(sim, &bv);
    hb_sim_dev *d = &sim->dev;
    d->nrows = sim->nrows;
    d->ncells = ncells;
    d->max_spikes = prm.max_spikes;
    d->dt = prm.dt;
    d->celsius = prm.celsius;
    d->threshold = prm.threshold;
    if (st == HB_SUCCESS)
        st = build_rows(sim, cells, &bv);
    hb_morph_batch_destroy(batch);
    if (st != HB_SUCCESS) {
        hb_sim_destroy(sim);
        return st;
    }
    describe(sim);
    *out = sim;
    return HB_SUCCESS;
}

void hb_sim_destroy(hb_sim *sim)
{
    if (!sim)
        return;
    hb_sim_dev *d = &sim->dev;
    hb_buffer *bufs[] = {d->pos,    d->v,     d->mtab,   d->inode,  d->mcell, d->pptr,
                         d->pmech,  d->pidx,
                         d->mprm,   d->mst,   d->ion,    d->ionk,   d->scale, d->evptr,
                         d->evcur,  d->evstep, d->evw,   d->evt,   d->selfq, d->d0,
                         d->cdt,
                         d->gmem,
                         d->imem,   d->crow,  d->cptr,   d->con,    d->coff,  d->camp,
                         d->soma,   d->vprev, d->nspk,   d->tspk,   d->recslot, d->rec,
                         d->slist,  d->stime,
                         d->cellof, d->rowoff, d->crowof, d->ucopy, d->probe, d->prbcell,
                         d->nbptr,  d->nboff, d->nbg,    d->dmap};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; ++i)
        if (bufs[i])
            sim->ctx->ops->release(sim->ctx, bufs[i]);
    hb_plan_destroy(sim->plan);
    for (int64_t r = 0; r < sim->dev.nrec && sim->traces; ++r)
        free(sim->traces[r]);
    free(sim->traces);
    free(sim->rec_cells), free(sim->rec_probe), free(sim->probes);
    free(sim->clamps);
    free(sim->offsets);
    free(sim->soma), free(sim->detector);
    free(sim->cm), free(sim->gax), free(sim->lparent);
    hb__sim_model_free(sim);
    hb__sim_spikes_free(sim);
    hb_context *ctx = sim->ctx;
    free(sim);
    hb__context_release(ctx); /* after the plan and the buffers: they use it */
}

hb_status hb__sim_enter(const hb_sim *sim, const char *fn)
{
    hb_sim *s = (hb_sim *)sim; /* made by calloc, never const */
    if (atomic_exchange_explicit(&s->busy, 1, memory_order_acquire))
        return hb__error(HB_ERR_BUSY,
                         "%s: the simulation is in use by another thread (a simulation is used "
                         "by one thread at a time)",
                         fn);
    return HB_SUCCESS;
}

void hb__sim_leave(const hb_sim *sim)
{
    atomic_store_explicit(&((hb_sim *)sim)->busy, 0, memory_order_release);
}

const char *hb_sim_describe(const hb_sim *sim) { return sim ? sim->describe : "(null simulation)"; }

static hb_status check_cell(const hb_sim *sim, int64_t cell, const char *fn)
{
    if (cell < 0 || cell >= sim->ncells)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: cell %lld not in [0, %lld)", fn,
                         (long long)cell, (long long)sim->ncells);
    return HB_SUCCESS;
}

hb_status hb_sim_rows(const hb_sim *sim, int64_t *nrows)
{
    if (!sim || !nrows)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "hb_sim_rows: %s is NULL",
                         !sim ? "sim" : "nrows (output)");
    *nrows = sim->nrows;
    return HB_SUCCESS;
}

hb_status hb_sim_cell_rows(const hb_sim *sim, int64_t cell, int64_t *offset, int64_t *n)
{
    HB_FORWARD(check_cell(sim, cell, "hb_sim_cell_rows"));
    if (!offset || !n)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "hb_sim_cell_rows: %s (output) is NULL",
                         !offset ? "offset" : "n");
    *offset = sim->offsets[cell];
    *n = sim->offsets[cell + 1] - sim->offsets[cell];
    return HB_SUCCESS;
}

hb_status hb_sim_soma(const hb_sim *sim, int64_t cell, int64_t *compartment)
{
    HB_FORWARD(check_cell(sim, cell, "hb_sim_soma"));
    if (!compartment)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "hb_sim_soma: compartment (output) is NULL");
    *compartment = sim->soma[cell];
    return HB_SUCCESS;
}

/* First step whose midpoint n*dt + dt/2 is at or after t (NEURON's IClamp
 * test at t + dt/2); the small margin absorbs rounding of t/dt. */
static int64_t first_step_at(double t, double dt)
{
    double x = ceil(t / dt - 0.5 - 1e-9);
    /* Past 2^62 steps is past any run (hb_sim_run refuses longer ones); the
     * cap keeps the conversion defined. */
    return x < 0 ? 0 : x >= 0x1p62 ? (int64_t)1 << 62 : (int64_t)x;
}

static hb_status add_iclamp(hb_sim *sim, int64_t cell, int64_t compartment, double onset,
                            double dur, double amp)
{
    const char *fn = "hb_sim_add_iclamp";
    HB_FORWARD(check_cell(sim, cell, fn));
    if (sim->started)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: add clamps before the first hb_sim_run", fn);
    int64_t n = sim->offsets[cell + 1] - sim->offsets[cell];
    if (compartment < -1 || compartment >= n)
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "%s: compartment %lld of cell %lld not in [0, %lld) (or -1 for the soma)",
                         fn, (long long)compartment, (long long)cell, (long long)n);
    if (!isfinite(onset) || onset < 0 || !isfinite(dur) || dur < 0 || !isfinite(amp))
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "%s: cell %lld: onset %g ms and dur %g ms must be finite and >= 0, amp "
                         "%g nA finite",
                         fn, (long long)cell, onset, dur, amp);
    HB_FORWARD(hb__sim_grow((void **)&sim->clamps, &sim->clamp_cap, sim->nclamps + 1, 16,
                    sizeof *sim->clamps, "clamps", fn));
    hb_sim_clamp *c = &sim->clamps[sim->nclamps++];
    c->row = sim->offsets[cell] + (compartment < 0 ? sim->soma[cell] : compartment);
    c->on = first_step_at(onset, sim->prm.dt);
    c->off = first_step_at(onset + dur, sim->prm.dt);
    c->amp = amp;
    return HB_SUCCESS;
}

static hb_status set_detector(hb_sim *sim, int64_t cell, int64_t compartment)
{
    const char *fn = "hb_sim_set_spike_detector";
    HB_FORWARD(hb__sim_check_location(sim, cell, compartment, fn));
    if (sim->started)
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "%s: place spike detectors before the first hb_sim_run", fn);
    if (!sim->detector) {
        sim->detector = hb__malloc_n(sim->ncells, sizeof *sim->detector);
        if (!sim->detector)
            return hb__error(HB_ERR_OUT_OF_MEMORY, "%s: %lld cells", fn,
                             (long long)sim->ncells);
        for (int64_t c = 0; c < sim->ncells; ++c)
            sim->detector[c] = -1;
    }
    sim->detector[cell] = compartment;
    return HB_SUCCESS;
}

hb_status hb_sim_set_spike_detector(hb_sim *sim, int64_t cell, int64_t compartment)
{
    HB_SIM_GUARDED(sim, "hb_sim_set_spike_detector", set_detector(sim, cell, compartment));
}

static hb_status record(hb_sim *sim, int64_t cell)
{
    const char *fn = "hb_sim_record";
    HB_FORWARD(check_cell(sim, cell, fn));
    if (sim->started)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: choose recordings before the first hb_sim_run",
                         fn);
    for (int64_t r = 0; r < sim->dev.nrec; ++r)
        if (sim->rec_cells[r] == cell && sim->rec_probe[r] < 0)
            return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: cell %lld is already recorded", fn,
                             (long long)cell);
    return hb__sim_add_column(sim, cell, -1, fn);
}

hb_status hb_sim_add_iclamp(hb_sim *sim, int64_t cell, int64_t compartment, double onset,
                            double dur, double amp)
{
    HB_SIM_GUARDED(sim, "hb_sim_add_iclamp", add_iclamp(sim, cell, compartment, onset, dur, amp));
}

hb_status hb_sim_record(hb_sim *sim, int64_t cell)
{
    HB_SIM_GUARDED(sim, "hb_sim_record", record(sim, cell));
}

/* The rate helper as the host kernels compute it (hinesbatch_sim.h). */
double hb_sim_exprelr(hb_precision precision, double x)
{
    return precision == HB_FLOAT ? (double)hb__exprelr_s((float)x) : hb__exprelr_d(x);
}
