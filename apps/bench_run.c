/* bench_run.c: times one benchmark point on one backend: a ring of plans, warm-up, adaptive reps, residual check, copy yardstick. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cli.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

#define CHECK(expr)                  \
    do {                             \
        st = (expr);                 \
        if (st != HB_SUCCESS)        \
            goto done;               \
    } while (0)

/* The strategy and layout columns of a row from what the plan chose. They
 * keep the spellings of the recorded CSVs (docs/benchmarks/) that
 * apps/plot_bench.py and apps/strategy_table.py read: "auto:<chosen>" for
 * AUTO points, "thomas" for tridiagonal ones ("thomas-cooperative" for the
 * cooperative solver; "auto:thomas..." for AUTO points), "fine-tree(for cell-group)"
 * for a forced strategy that ran another; the layout as
 * "<name>(bs=N)/pad-<padding>", "flat(span=G)" for cooperative plans whose
 * systems span G work-groups, or "by-branch" for branch strategies (their
 * counts vary per batch); "+shared-couplings" after the strategy where the
 * plan shares its couplings. */
static void label_row(const hb_plan *plan, const bench_point *pt, bench_row *row)
{
    hb_plan_info in;
    memset(&in, 0, sizeof in);
    (void)hb_plan_get_info(plan, &in); /* fails for a NULL plan only */
    if (pt->kind == BENCH_THOMAS)
        snprintf(row->strategy, sizeof row->strategy, "%s%s",
                 pt->strategy == HB_STRATEGY_AUTO ? "auto:" : "",
                 in.strategy == HB_STRATEGY_COOPERATIVE ? "thomas-cooperative" : "thomas");
    else if (pt->strategy != HB_STRATEGY_AUTO && pt->strategy != in.strategy)
        /* A forced strategy that fell back (cell-group on a cell too large
         * for local memory): named apart from the forced one it ran. */
        snprintf(row->strategy, sizeof row->strategy, "%s(for %s)", hb_strategy_name(in.strategy),
                 hb_strategy_name(pt->strategy));
    else
        snprintf(row->strategy, sizeof row->strategy, "%s%s",
                 pt->strategy == HB_STRATEGY_AUTO ? "auto:" : "", hb_strategy_name(in.strategy));
    if (in.shared_couplings) {
        const size_t n = strlen(row->strategy);
        snprintf(row->strategy + n, sizeof row->strategy - n, "+shared-couplings");
    }
    if (in.strategy == HB_STRATEGY_COOPERATIVE && in.nsys > 0 && in.ngroups > in.nsys)
        snprintf(row->variant, sizeof row->variant,
                 "span, %lld groups x %d work-items per system, %lld B local",
                 (long long)(in.ngroups / in.nsys), (int)in.group_size, (long long)in.local_bytes);
    else if (in.strategy == HB_STRATEGY_COOPERATIVE && in.rows_per_item > 0)
        snprintf(row->variant, sizeof row->variant,
                 "registers, %d systems x %d work-items per group, %d rows each",
                 (int)in.systems_per_group, (int)in.group_size, (int)in.rows_per_item);
    else if (in.strategy == HB_STRATEGY_COOPERATIVE)
        snprintf(row->variant, sizeof row->variant,
                 "%s, %d system%s x %d work-items per group, %lld B local",
                 in.resident ? "resident" : "staged", (int)in.systems_per_group,
                 in.systems_per_group == 1 ? "" : "s", (int)in.group_size,
                 (long long)in.local_bytes);
    else if (in.strategy == HB_STRATEGY_CELL_GROUP)
        snprintf(row->variant, sizeof row->variant,
                 "%d work-items per cell, %lld levels, %lld B local", (int)in.group_size,
                 (long long)in.nlevels, (long long)in.local_bytes);
    else if (in.strategy == HB_STRATEGY_BRANCH_LEVEL)
        snprintf(row->variant, sizeof row->variant, "%lld branches, %lld levels%s",
                 (long long)in.nbranches, (long long)in.nlevels, in.split ? ", split" : "");
    if (in.strategy == HB_STRATEGY_BRANCH_LEVEL || in.strategy == HB_STRATEGY_FINE_TREE) {
        snprintf(row->layout, sizeof row->layout, "by-branch");
        return;
    }
    int n = snprintf(row->layout, sizeof row->layout, "%s", hb_layout_name(in.layout));
    if (in.block_size > 0 && n > 0 && (size_t)n < sizeof row->layout)
        n += snprintf(row->layout + n, sizeof row->layout - (size_t)n, "(bs=%d)",
                      (int)in.block_size);
    if (in.strategy == HB_STRATEGY_COOPERATIVE && in.nsys > 0 && in.ngroups > in.nsys &&
        n > 0 && (size_t)n < sizeof row->layout)
        n += snprintf(row->layout + n, sizeof row->layout - (size_t)n, "(span=%lld)",
                      (long long)(in.ngroups / in.nsys));
    if (in.padding != HB_PADDING_AUTO && n > 0 && (size_t)n < sizeof row->layout)
        snprintf(row->layout + n, sizeof row->layout - (size_t)n, "/pad-%s",
                 hb_padding_name(in.padding));
}

/* Sets what a solve consumes (Hines d and rhs, tridiagonal rhs) from the next
 * right-hand-side set, and waits, so the next timed solve times only itself. */
static hb_status arm(hb_plan *plan, const bench_data *data, int *set)
{
    *set = (*set + 1) % BENCH_RHS_SETS;
    hb_status st = HB_SUCCESS;
    if (data->kind == BENCH_HINES)
        st = hb_plan_set(plan, HB_ARRAY_D, data->m2);
    if (st == HB_SUCCESS)
        st = hb_plan_set(plan, HB_ARRAY_RHS, data->rhs[*set]);
    return st == HB_SUCCESS ? hb_plan_synchronize(plan) : st;
}

int bench_shares_couplings(const bench_point *pt, const bench_data *data,
                           const bench_config *cfg)
{
    return cfg->shared_couplings && data->kind == BENCH_HINES && data->mono &&
           (pt->strategy == HB_STRATEGY_AUTO || pt->strategy == HB_STRATEGY_PER_SYSTEM ||
            pt->strategy == HB_STRATEGY_CELL_GROUP);
}

/* Bytes a solve must move: bench_data_bytes, less the couplings of all but
 * one system where they are shared (d and rhs read, x written). */
static size_t point_bytes(const bench_point *pt, const bench_data *data, const bench_config *cfg)
{
    if (!bench_shares_couplings(pt, data, cfg))
        return bench_data_bytes(data);
    return ((size_t)data->nrows * 3u + (size_t)data->n_uniform * 2u) * data->esize;
}

static hb_status create_plan(const bench_point *pt, const bench_data *data,
                             const bench_config *cfg, bench_backend *be, hb_plan **plan)
{
    hb_plan_options o;
    hb_plan_options_init(&o);
    o.group_size = (int32_t)cfg->group_size;
    o.cell_chain = (int32_t)cfg->cell_chain;
    /* U and L below are then read from the start: system 0's couplings, the
     * same as every copy's (the residual check would catch any other). */
    o.shared_couplings = bench_shares_couplings(pt, data, cfg);
    o.layout = pt->layout;
    o.block_size = pt->block_size;
    o.padding = pt->padding;
    o.strategy = pt->strategy;
    hb_status st;
    if (data->kind == BENCH_THOMAS)
        st = data->n_uniform
                 ? hb_plan_create_tridiag_uniform(be->ctx, data->precision, data->nsys,
                                                  data->n_uniform, &o, plan)
                 : hb_plan_create_tridiag(be->ctx, data->precision, data->nsys, data->offsets, &o,
                                          plan);
    else
        st = data->mono ? hb_plan_create_hines_uniform(be->ctx, data->precision, data->nsys,
                                                       data->n_uniform, data->tree, &o, plan)
                        : hb_plan_create_hines(be->ctx, data->precision, data->nsys, data->offsets,
                                               data->parent, &o, plan);
    if (st != HB_SUCCESS)
        return st;
    hb_array fixed[3] = {HB_ARRAY_A, HB_ARRAY_B, HB_ARRAY_C};
    if (data->kind == BENCH_HINES)
        fixed[0] = HB_ARRAY_U, fixed[1] = HB_ARRAY_L, fixed[2] = HB_ARRAY_D;
    const void *src[3] = {data->m0, data->m1, data->m2};
    for (int i = 0; i < 3 && st == HB_SUCCESS; ++i)
        st = hb_plan_set(*plan, fixed[i], src[i]);
    return st;
}

/* Device-copy rate for bytes on a context, cached per (context, bytes)
 * because suites repeat sizes across layouts and strategies. */
hb_status bench_copy_gbps(bench_backend *be, size_t bytes, const bench_config *cfg, double *gbps)
{
    enum { CACHE = 64 };
    /* Past 1 GiB the copy rate is flat on every device (far beyond any
     * cache), so bigger batches share the 1 GiB yardstick. */
    if (bytes > ((size_t)1 << 30))
        bytes = (size_t)1 << 30;
    static struct { hb_context *ctx; size_t bytes; double gbps; } cache[CACHE];
    static int used;
    for (int i = 0; i < used; ++i)
        if (cache[i].ctx == be->ctx && cache[i].bytes == bytes)
            return *gbps = cache[i].gbps, HB_SUCCESS;
    double ms = 0;
    hb_status st = HB_SUCCESS;
    /* Each call fills its source on the host: above 256 MiB that costs more
     * than the copies, so big sizes get one call of 5 copies. */
    int big = bytes > ((size_t)256 << 20), reps = 5, trials = 1;
    if (!big) {
        st = hb_context_copy_time(be->ctx, bytes, 1, &ms);
        if (st != HB_SUCCESS)
            return st;
        reps = ms > 0 ? (int)(0.1 * cfg->target_s * 1e3 / ms) : 20;
        reps = reps < 3 ? 3 : reps > (cfg->quick ? 5 : 25) ? (cfg->quick ? 5 : 25) : reps;
        trials = 3;
    }
    /* The best of the medians: a yardstick of what the device can do, so one
     * burst of load from elsewhere on a shared host does not shrink it. */
    for (int trial = 0; trial < trials && st == HB_SUCCESS; ++trial) {
        double m = 0;
        st = hb_context_copy_time(be->ctx, bytes, reps, &m);
        ms = trial == 0 || m < ms ? m : ms;
    }
    if (st != HB_SUCCESS)
        return st;
    /* A copy reads and writes bytes: its traffic is 2 * bytes. */
    *gbps = 2.0 * (double)bytes / (ms * 1e-3) / 1e9;
    if (used < CACHE)
        cache[used].ctx = be->ctx, cache[used].bytes = bytes, cache[used++].gbps = *gbps;
    return HB_SUCCESS;
}

hb_status bench_run_point(const bench_point *pt, const bench_data *data, const bench_config *cfg,
                          bench_backend *be, int reps_cap, bench_row *row)
{
    size_t bytes = point_bytes(pt, data, cfg);
    int ring = (int)((cfg->ring_bytes + bytes - 1) / bytes);
    ring = ring < 1 ? 1 : ring > cfg->max_ring ? cfg->max_ring : ring;
    int max_reps = reps_cap > 0 && reps_cap < cfg->max_reps ? reps_cap : cfg->max_reps;
    int min_reps = cfg->min_reps < max_reps ? cfg->min_reps : max_reps;
    hb_plan **plans = calloc((size_t)ring, sizeof *plans);
    int *set = calloc((size_t)ring, sizeof *set);
    double *t = malloc(((size_t)max_reps + (size_t)ring) * sizeof *t);
    hb_status st = plans && set && t ? HB_SUCCESS : HB_ERR_OUT_OF_MEMORY;
    int reps = 0;
    memset(row, 0, sizeof *row);
    row->ring = ring;
    snprintf(row->backend, sizeof row->backend, "%s", hb_backend_name(be->backend));
    snprintf(row->device, sizeof row->device, "%s", be->device);
    if (st != HB_SUCCESS)
        goto done;

    /* Setup (reported apart): plan creation and the first upload, plan 0. */
    double w0 = cli_now_s();
    for (int k = 0; k < ring; ++k) {
        set[k] = k % BENCH_RHS_SETS;
        CHECK(create_plan(pt, data, cfg, be, &plans[k]));
        CHECK(arm(plans[k], data, &set[k]));
        if (k == 0)
            row->setup_ms = (cli_now_s() - w0) * 1e3;
    }
    label_row(plans[0], pt, row);

    /* Warm-up: every plan solved once, then re-armed. */
    double warm = cli_now_s();
    for (int k = 0; k < ring; ++k) {
        CHECK(hb_plan_solve(plans[k]));
        CHECK(hb_plan_synchronize(plans[k]));
        CHECK(arm(plans[k], data, &set[k]));
    }
    double per_rep_wall = (cli_now_s() - warm) / ring, sum = 0;
    double start = cli_now_s();
    /* Rounds over the ring: a plan is solved with data written ring-1 solves
     * ago, so small batches come from memory, not cache. The round predicted
     * to be the last leaves each plan's solution in place for the check. */
    for (;;) {
        double mean = reps ? sum / reps : per_rep_wall;
        double wall = cli_now_s() - start;
        int enough = sum + ring * mean >= cfg->target_s ||
                     wall + ring * per_rep_wall >= cfg->wall_cap_s;
        int last = reps + ring >= max_reps || (reps + ring >= min_reps && enough);
        for (int k = 0; k < ring; ++k) {
            double t0 = cli_now_s();
            CHECK(hb_plan_solve(plans[k]));
            CHECK(hb_plan_synchronize(plans[k]));
            t[reps] = cli_now_s() - t0;
            sum += t[reps++];
            if (!last)
                CHECK(arm(plans[k], data, &set[k]));
        }
        if (reps)
            per_rep_wall = (cli_now_s() - start) / reps;
        if (last)
            break;
    }

    /* Every plan's last timed solution against the right-hand side it solved. */
    row->max_ratio = 0;
    for (int k = 0; k < ring; ++k) {
        CHECK(hb_plan_get_solution(plans[k], data->x));
        double r = bench_data_residual(data, set[k], &st);
        if (st != HB_SUCCESS)
            goto done;
        row->max_ratio = r > row->max_ratio || isnan(r) ? r : row->max_ratio;
    }
    qsort(t, (size_t)reps, sizeof *t, cmp_double);
    row->reps = reps;
    row->time_median_ms = (reps % 2 ? t[reps / 2] : 0.5 * (t[reps / 2 - 1] + t[reps / 2])) * 1e3;
    row->time_min_ms = t[0] * 1e3;
    row->gbps = (double)bytes / (row->time_median_ms * 1e-3) / 1e9;
done:
    for (int k = 0; plans && k < ring; ++k)
        hb_plan_destroy(plans[k]);
    if (st == HB_SUCCESS) {
        st = bench_copy_gbps(be, bytes, cfg, &row->copy_gbps);
        row->fraction = row->gbps / row->copy_gbps;
    }
    row->speedup = NAN;
    free(plans);
    free(set);
    free(t);
    return st;
}
