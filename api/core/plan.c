/* plan.c: plan creation, per-step data transfer, solve and solution read-back. */
#include "hb_env.h"
#include "hb_plan.h"
#include "hb_tree.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const array_names[HB_NUM_ARRAYS] = {"a", "b", "c", "u", "l", "d", "rhs"};

void hb_plan_options_init(hb_plan_options *opts)
{
    if (opts)
        memset(opts, 0, sizeof *opts);
}

static int array_in_kind(hb_kind kind, hb_array which)
{
    if (which == HB_ARRAY_RHS)
        return 1;
    if (kind == HB_KIND_TRIDIAG)
        return which == HB_ARRAY_A || which == HB_ARRAY_B || which == HB_ARRAY_C;
    return which == HB_ARRAY_U || which == HB_ARRAY_L || which == HB_ARRAY_D;
}

/* HINESBATCH_STRATEGY forces the strategy of Hines plans whose options leave
 * it AUTO; a tridiagonal system is one branch, so it keeps its own, except
 * under "cooperative", which forces tridiagonal plans (left AUTO) and leaves
 * Hines plans to AUTO. A value that is not a strategy fails every plan: never
 * quietly ignored. */
static hb_status resolve_strategy(hb_kind kind, hb_strategy opt, hb_strategy *out)
{
    hb_strategy forced;
    HB_FORWARD(hb__env_strategy(&forced));
    const int tri_forced = forced == HB_STRATEGY_COOPERATIVE;
    *out = opt == HB_STRATEGY_AUTO && (kind == HB_KIND_TRIDIAG) == tri_forced ? forced : opt;
    return HB_SUCCESS;
}

/* The first system whose size or parents differ from system 0's; nsys where
 * every system has one tree (always so for a uniform plan: offsets NULL). */
static int64_t first_other_tree(int64_t nsys, const int64_t *offsets, const int32_t *parent)
{
    for (int64_t s = 1; offsets && s < nsys; ++s) {
        const int64_t n0 = offsets[1] - offsets[0];
        if (offsets[s + 1] - offsets[s] != n0 ||
            memcmp(parent + offsets[s], parent, (size_t)n0 * sizeof *parent) != 0)
            return s;
    }
    return nsys;
}

/* U or L of a plan with shared couplings: one system's rows, in row order. */
static int coupling_array(const hb_plan *plan, hb_array which)
{
    return plan->dev.ul_shared && (which == HB_ARRAY_U || which == HB_ARRAY_L);
}

/* Backend bytes of a plan whose arrays hold length elements each: the
 * arrays (a, b, c, rhs and the scratch of tridiagonal plans; u, l, d, rhs of
 * Hines plans), staging of one flat array when a layout is not flat, four
 * per-system tables and, for Hines plans, a parent table. Saturating. */
static uint64_t plan_device_bytes(hb_kind kind, int64_t length, int64_t nsys, size_t esize,
                                  int staging)
{
    uint64_t arrays = kind == HB_KIND_TRIDIAG ? 5 : 4;
    uint64_t per_row = hb__add_sat(hb__mul_sat(arrays + (staging ? 1 : 0), esize),
                                   kind == HB_KIND_HINES ? sizeof(int32_t) : 0);
    return hb__add_sat(hb__mul_sat((uint64_t)length, per_row),
                       hb__mul_sat((uint64_t)nsys, 5 * sizeof(int64_t)));
}

static hb_status alloc_upload(hb_plan *plan, hb_buffer **buf, const void *src, size_t bytes,
                              const char *what)
{
    hb_context *ctx = plan->ctx;
    hb_status st = ctx->ops->alloc(ctx, bytes, buf);
    if (st != HB_SUCCESS)
        return st == HB_ERR_OUT_OF_MEMORY
                   ? hb__error(st, "plan %s: could not allocate %zu bytes on %s (%s)", what, bytes,
                               ctx->describe, hb_last_error())
                   : st;
    if (src)
        HB_FORWARD(ctx->ops->write(ctx, plan->stream, *buf, 0, src, bytes));
    return HB_SUCCESS;
}

/* The span's buffers (hb_layout_dev): reduced arrays of rlen elements
 * (rbytes), span_one filled with ones, span_base with s x span_stride
 * (tbytes: one int64 per system); span_rows is the reduce kernel's. */
static hb_status alloc_span(hb_plan *plan, int64_t rlen, size_t rbytes, size_t tbytes)
{
    hb_layout_dev *dev = &plan->dev;
    hb_status st = HB_SUCCESS;
    int64_t *rbase = hb__malloc_n(dev->nslots, sizeof *rbase);
    void *ones = hb__malloc_n(rlen, plan->esize);
    if (!rbase || !ones) {
        free(rbase);
        free(ones);
        return hb__error(HB_ERR_OUT_OF_MEMORY, "plan span tables: %zu bytes", rbytes);
    }
    for (int64_t s = 0; s < dev->nslots; ++s)
        rbase[s] = s * dev->span_stride;
    for (int64_t k = 0; k < rlen; ++k) {
        if (plan->precision == HB_DOUBLE)
            ((double *)ones)[k] = 1.0;
        else
            ((float *)ones)[k] = 1.0f;
    }
    const struct {
        hb_buffer **buf;
        const void *src;
        size_t bytes;
        const char *what;
    } bufs[] = {{&dev->span_a, NULL, rbytes, "span sub-diagonal"},
                {&dev->span_c, NULL, rbytes, "span super-diagonal"},
                {&dev->span_d, NULL, rbytes, "span right-hand side"},
                {&dev->span_cw, NULL, 2 * rbytes, "span scratch"},
                {&dev->span_one, ones, rbytes, "span diagonal"},
                {&dev->span_base, rbase, tbytes, "span bases"},
                {&dev->span_rows, NULL, tbytes, "span sizes"}};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0] && st == HB_SUCCESS; ++i)
        st = alloc_upload(plan, bufs[i].buf, bufs[i].src, bufs[i].bytes, bufs[i].what);
    free(rbase);
    free(ones);
    return st;
}

/* Parent table in slot order: one copy for mono batches, else one run per
 * slot; padded rows hang off the row before (with zero couplings). */
static hb_status upload_parents(hb_plan *plan, const int32_t *parent)
{
    hb_layout_host *lay = &plan->lay;
    int64_t total = 0;
    int64_t *poff = hb__malloc_n(lay->nslots, sizeof *poff);
    if (!poff)
        return hb__error(HB_ERR_OUT_OF_MEMORY, "plan parent offsets");
    for (int64_t t = 0; t < lay->nslots; ++t) {
        poff[t] = plan->mono ? 0 : total;
        if (!plan->mono)
            total += lay->rows[t];
    }
    if (plan->mono)
        total = lay->max_rows;
    int32_t *table = hb__malloc_n(total, sizeof *table);
    if (!table) {
        free(poff);
        return hb__error(HB_ERR_OUT_OF_MEMORY, "plan parent table: %lld entries",
                         (long long)total);
    }
    int64_t nslot_tables = plan->mono ? 1 : lay->nslots;
    for (int64_t t = 0; t < nslot_tables; ++t) {
        const int32_t *src = parent + (plan->mono ? 0 : lay->flat[t]);
        int64_t rows = plan->mono ? lay->max_rows : lay->rows[t];
        for (int64_t i = 0; i < rows; ++i)
            table[poff[t] + i] = i < lay->nown[t] ? src[i] : (int32_t)(i - 1);
    }
    hb_status st = alloc_upload(plan, &plan->dev.poff, poff, (size_t)lay->nslots * sizeof *poff,
                                "parent offsets");
    if (st == HB_SUCCESS)
        st = alloc_upload(plan, &plan->dev.parent, table, (size_t)total * sizeof *table,
                          "parent table");
    free(poff);
    free(table);
    return st;
}

/* Padded rows hold the identity row (a=c=u=l=0, b=d=1, rhs=0) from the start,
 * so a caller who fills a padded plan only through hb_plan_buffer (own rows)
 * never runs computed padding over uninitialised memory. */
static hb_status fill_identity(hb_plan *plan)
{
    hb_context *ctx = plan->ctx;
    size_t n = (size_t)plan->lay.length, bytes = n * plan->esize;
    void *host = malloc(bytes ? bytes : 1);
    if (!host)
        return hb__error(HB_ERR_OUT_OF_MEMORY, "plan padding: %zu bytes", bytes);
    hb_status st = HB_SUCCESS;
    for (int w = 0; w < HB_NUM_ARRAYS && st == HB_SUCCESS; ++w) {
        if (!plan->arrays[w])
            continue;
        double v = (w == HB_ARRAY_B || w == HB_ARRAY_D) ? 1.0 : 0.0;
        for (size_t k = 0; k < n; ++k) {
            if (plan->precision == HB_DOUBLE)
                ((double *)host)[k] = v;
            else
                ((float *)host)[k] = (float)v;
        }
        st = ctx->ops->write(ctx, plan->stream, plan->arrays[w], 0, host, bytes);
    }
    if (st == HB_SUCCESS)
        st = ctx->ops->finish(ctx, plan->stream); /* host is freed next */
    free(host);
    return st;
}

/* The cell-group kernel's schedule: staged in local memory where it fits
 * (its loads then wait less), except where the batch's cells outnumber what
 * the device holds at once with it staged and reading it from global memory
 * lets a compute unit hold more of them (ops->cell_resident): a cell's solve
 * is a chain of dependent levels, so more cells at once hide each other's
 * latency (without the query, a measured count of cells per compute unit,
 * below). CUDA on an H200, CA1 cells of 728 rows, one run
 * (docs/benchmarks/h200-2026-11-25-cellstaged), staged / from global memory
 * / the rule: double 256 cells 0.0445 / 0.0553 / 0.0431 ms, 1,024 0.0768 /
 * 0.0628 / 0.0617, 25,600 1.35 / 0.95 / 0.95; float 2,560 0.129 / 0.099 /
 * 0.091. */
enum { HB_CELL_MANY_PER_UNIT = 16 };
static int cell_staged(hb_context *ctx, hb_precision p, int64_t nsys, const hb_layout_dev *dev,
                       int32_t group)
{
    const hb_device_traits *t = &ctx->traits;
    const size_t esize = p == HB_DOUBLE ? sizeof(double) : sizeof(float);
    const int us = dev->ul_shared;
    if (!hb__cell_staged(t, dev->max_rows, esize, us))
        return 0;
    hb_status (*resident)(hb_context *, hb_precision, int, int64_t, size_t, int64_t *) =
        ctx->ops->cell_resident;
    int64_t rs = 0, ru = 0;
    /* No occupancy query, or none for this device (OpenCL other than
     * NVIDIA's): from global memory past HB_CELL_MANY_PER_UNIT cells per
     * compute unit. NVIDIA's OpenCL on the H200, the same cells, staged /
     * from global memory: double 256 cells 0.0446 / 0.0700 ms, 1,024 0.0793
     * / 0.0788, 2,560 0.164 / 0.151, 25,600 1.37 / 0.96; float 1,024 0.078 /
     * 0.070, 2,560 0.134 / 0.135, 25,600 0.93 / 0.71. */
    if (!resident || t->compute_units <= 0 ||
        resident(ctx, p, us, group, hb__cell_local_bytes(dev->max_rows, esize, 1, us), &rs) !=
            HB_SUCCESS ||
        rs <= 0) {
        hb__clear_error(); /* a failed query only means there is none */
        return !(t->compute_units > 0 && nsys > HB_CELL_MANY_PER_UNIT * (int64_t)t->compute_units);
    }
    int staged = 1;
    if (nsys > rs * t->compute_units &&
        resident(ctx, p, us, group, hb__cell_local_bytes(dev->max_rows, esize, 0, us), &ru) ==
            HB_SUCCESS &&
        ru > rs)
        staged = 0;
    hb__clear_error(); /* a failed query only leaves the schedule staged */
    return staged;
}

/* Waves of the batch's nsys cells with `group` work-items each and the
 * schedule placed by cell_staged (*staged): cells over what the device holds
 * at once, rounded up; 0 where the backend cannot say. */
static int64_t cell_waves(hb_context *ctx, hb_precision p, int64_t nsys,
                          const hb_layout_dev *dev, int32_t group, int *staged)
{
    const size_t esize = p == HB_DOUBLE ? sizeof(double) : sizeof(float);
    *staged = cell_staged(ctx, p, nsys, dev, group);
    int64_t r = 0, units = ctx->traits.compute_units;
    if (!ctx->ops->cell_resident || units <= 0 ||
        ctx->ops->cell_resident(ctx, p, dev->ul_shared, group,
                                hb__cell_local_bytes(dev->max_rows, esize, *staged, dev->ul_shared),
                                &r) != HB_SUCCESS ||
        r <= 0) {
        hb__clear_error(); /* a failed query only leaves the whole group */
        return 0;
    }
    return (nsys + r * units - 1) / (r * units);
}

/* The cell-group kernel's work-items per cell, and its schedule's place:
 * the power of two over the widest level (hb__cell_group), or half of it
 * where half lets a compute unit hold enough more cells to take fewer waves
 * of them. A level wider than the group then takes two rounds, which cost
 * CA1 cells 15% more per solve (256 cells, 64 / 128 work-items: double
 * 0.0443 / 0.0384 ms, float 0.0401 / 0.0349), so half must save more than
 * that: 23 x its waves < 20 x the whole group's. CUDA on an H200, 2,560 CA1
 * cells, 32 / 64 / 128 / 256 work-items (docs/benchmarks/h200-2026-11-30-
 * ompcache, call 2): float 0.101 / 0.0899 / 0.103 / 0.131 ms (64 holds 18
 * cells per unit against 128's 9: 2 waves, not 3); double 0.152 / 0.142 /
 * 0.121 / 0.184 (local memory holds 9 per unit either way: 3 waves). A
 * caller's group_size, or no occupancy query (OpenCL other than NVIDIA's,
 * whose estimate is occupancy.c's), keeps the whole group. Returns the
 * waves of the group chosen (0 where the backend cannot say). */
static int64_t cell_launch(hb_context *ctx, hb_precision p, int64_t nsys, int64_t widest,
                           int32_t requested, hb_layout_dev *dev)
{
    const int32_t whole = hb__cell_group(&ctx->traits, widest, requested);
    int staged = 0;
    const int64_t w = cell_waves(ctx, p, nsys, dev, whole, &staged);
    dev->cell_group = whole;
    dev->cell_staged = staged;
    if (requested <= 0 && whole / 2 >= HB_CELL_MIN_GROUP && w > 1) {
        const int64_t h = cell_waves(ctx, p, nsys, dev, whole / 2, &staged);
        if (h > 0 && 23 * h < 20 * w) {
            dev->cell_group = whole / 2;
            dev->cell_staged = staged;
            return h;
        }
    }
    return w;
}

/* AUTO by the cost model (hb__auto_times) for a batch of copies of one
 * tree (tree[0..rows), at least HB_AUTO_MODEL_FROM_ROWS rows) on a GPU that
 * gives its compute units, from HB_AUTO_FINE_TREE_BELOW cells up to
 * HB_AUTO_PER_SYSTEM_FROM: the shape of the tree (its branches for
 * branch-level, its cell-group schedule and the waves of cells the device
 * holds at once) decides, not its rows alone. Elsewhere, or where the
 * device cannot say how many cells it holds at once, *strategy (the rules
 * of hb__auto_strategy) stands. The branches are the tree's as given
 * (opts->reroot changes only the root they are eliminated from). */
static hb_status auto_by_model(hb_context *ctx, hb_precision p, int64_t nsys, int64_t rows,
                               const int32_t *tree, const hb_plan_options *o, int cell_ok,
                               hb_strategy *strategy, char *note, size_t note_size,
                               hb_plan **keep)
{
    const hb_device_traits *t = &ctx->traits;
    const size_t esize = p == HB_DOUBLE ? sizeof(double) : sizeof(float);
    if (!t->is_gpu || t->compute_units <= 0 || nsys < HB_AUTO_FINE_TREE_BELOW ||
        nsys >= HB_AUTO_PER_SYSTEM_FROM || rows < HB_AUTO_MODEL_FROM_ROWS)
        return HB_SUCCESS;
    hb_auto_shape s = {.rows = rows};
    if (cell_ok) {
        hb_cell_shape cs;
        HB_FORWARD(hb__cell_shape(tree, rows, o->cell_chain, &cs));
        hb_layout_dev d;
        memset(&d, 0, sizeof d);
        d.max_rows = rows;
        d.ul_shared = o->shared_couplings;
        s.waves = cell_launch(ctx, p, nsys, cs.widest, o->group_size, &d);
        if (s.waves <= 0)
            return HB_SUCCESS; /* no occupancy query: the rules stand */
        int k = 0;
        while (k + 1 < HB_CELL_SHAPE_GROUPS && ((int64_t)2 << k) <= d.cell_group)
            ++k;
        s.cpath = cs.path[k];
        s.trunk = cs.trunk;
        s.clevels = cs.levels;
    }
    if (!o->shared_couplings && ctx->ops->hines_branch_level) {
        hb__tree_cut cut;
        memset(&cut, 0, sizeof cut);
        hb_status st = hb__tree_cut_make(tree, rows, HB__DEPTH_BRANCHES, o->split_branches != 0,
                                         &cut);
        if (st != HB_SUCCESS)
            return st;
        int64_t *longest = hb__malloc_n(cut.nlev > 0 ? cut.nlev : 1, sizeof *longest);
        if (!longest) {
            hb__tree_cut_free(&cut);
            return hb__error(HB_ERR_OUT_OF_MEMORY, "AUTO: %lld levels", (long long)cut.nlev);
        }
        for (int64_t l = 0; l < cut.nlev; ++l)
            longest[l] = 0;
        for (int64_t b = 0; b < cut.nb; ++b)
            if (cut.blen[b] > longest[cut.level[b]])
                longest[cut.level[b]] = cut.blen[b];
        s.branches = cut.nb;
        s.blevels = cut.nlev;
        for (int64_t l = 0; l < cut.nlev; ++l)
            s.bpath += longest[l];
        free(longest);
        hb__tree_cut_free(&cut);
    }
    hb_auto_times tm;
    hb__auto_times(t, nsys, &s, esize, o->shared_couplings != 0, &tm);
    *strategy = hb__auto_fastest(&tm);
    hb__log("AUTO: %lld cells of %lld rows, modelled per-system %.0f us, branch-level %.0f, "
            "cell-group %.0f (-1: not offered): %s",
            (long long)nsys, (long long)rows, tm.per_system, tm.branch_level, tm.cell_group,
            hb_strategy_name(*strategy));
    hb_strategy cand[3];
    const int n = hb__auto_candidates(&tm, esize, cand);
    if (o->auto_estimate || n < 2)
        return HB_SUCCESS;
    /* The model cannot tell them apart: time them. */
    double ms[3];
    HB_FORWARD(hb__auto_measure(ctx, p, nsys, rows, tree, o, cand, n, strategy, ms, keep));
    int ran = 0;
    for (int i = 0; i < n; ++i)
        ran |= ms[i] >= 0;
    if (!ran)
        return HB_SUCCESS;
    /* After any note already there (where the caller's strategy was not
     * applied). */
    size_t len = strlen(note);
    len += (size_t)snprintf(note + len, note_size - len, "%sAUTO timed", len ? "; " : "");
    for (int i = 0; i < n && len < note_size; ++i)
        len += ms[i] < 0 ? (size_t)snprintf(note + len, note_size - len, "%s %s not timed",
                                            i ? "," : "", hb_strategy_name(cand[i]))
                         : (size_t)snprintf(note + len, note_size - len, "%s %s %.3g ms",
                                            i ? "," : "", hb_strategy_name(cand[i]), ms[i]);
    hb__log("%s: %s", note, hb_strategy_name(*strategy));
    return HB_SUCCESS;
}

/* The one-line summary, made from hb_plan_get_info so the two never differ. */
static void describe(hb_plan *plan)
{
    hb_plan_info in;
    (void)hb_plan_get_info(plan, &in);
    char layout[128];
    const char *pad = in.padding == HB_PADDING_AUTO ? "none" : hb_padding_name(in.padding);
    if (in.strategy == HB_STRATEGY_FINE_TREE)
        snprintf(layout, sizeof layout, "by-branch(%lld branches, %lld groups of %d)",
                 (long long)in.nbranches, (long long)in.ngroups, (int)in.group_size);
    else if (in.strategy == HB_STRATEGY_BRANCH_LEVEL)
        snprintf(layout, sizeof layout, "by-branch(%lld branches, %lld levels)",
                 (long long)in.nbranches, (long long)in.nlevels);
    else if (in.strategy == HB_STRATEGY_COOPERATIVE && in.rows_per_item > 0)
        snprintf(layout, sizeof layout,
                 "%s(registers: %d systems x %d work-items per group, %d rows each)",
                 hb_layout_name(in.layout), (int)in.systems_per_group, (int)in.group_size,
                 (int)in.rows_per_item);
    else if (in.strategy == HB_STRATEGY_COOPERATIVE && in.resident)
        snprintf(layout, sizeof layout,
                 "%s(resident: %d system%s x %d work-items per group, %.3g KiB local)",
                 hb_layout_name(in.layout), (int)in.systems_per_group,
                 in.systems_per_group == 1 ? "" : "s", (int)in.group_size,
                 (double)in.local_bytes / 1024);
    else if (in.strategy == HB_STRATEGY_COOPERATIVE && plan->dev.coop_span > 1)
        snprintf(layout, sizeof layout, "%s(span: %d groups x %d work-items per system)",
                 hb_layout_name(in.layout), (int)plan->dev.coop_span, (int)in.group_size);
    else if (in.strategy == HB_STRATEGY_COOPERATIVE)
        snprintf(layout, sizeof layout, "%s(staged: %d work-items per system, %.3g KiB local)",
                 hb_layout_name(in.layout), (int)in.group_size, (double)in.local_bytes / 1024);
    else if (in.strategy == HB_STRATEGY_CELL_GROUP)
        snprintf(layout, sizeof layout, "%s(groups of %d, %lld levels, %.3g KiB local%s)",
                 hb_layout_name(in.layout), (int)in.group_size, (long long)in.nlevels,
                 (double)in.local_bytes / 1024,
                 plan->dev.cell_staged ? "" : ", schedule read from global memory");
    else if (in.block_size > 0)
        snprintf(layout, sizeof layout, "%s(bs=%d)", hb_layout_name(in.layout),
                 (int)in.block_size);
    else
        snprintf(layout, sizeof layout, "%s", hb_layout_name(in.layout));
    if (in.layout == HB_LAYOUT_AUTO) {
        size_t len = strlen(layout);
        snprintf(layout + len, sizeof layout - len, "%s%s", in.rerooted ? " rerooted" : "",
                 in.split ? " split" : "");
    }
    snprintf(plan->describe, sizeof plan->describe,
             "%s %s: %lld systems, rows %s%lld, layout=%s padding=%s%s strategy=%s%s%s; %s%s%s",
             in.hines ? "hines" : "tridiagonal", in.precision == HB_DOUBLE ? "double" : "float",
             (long long)in.nsys, in.variable ? "up to " : "", (long long)in.max_rows, layout, pad,
             in.sorted ? " (sorted by size)" : "", hb_strategy_name(in.strategy),
             in.hines ? (in.shared_tree ? " parents=shared" : " parents=per-system") : "",
             in.shared_couplings ? " couplings=shared" : "", plan->note,
             plan->note[0] ? "; " : "", plan->ctx->describe);
}

static hb_status plan_create(hb_context *ctx, hb_precision precision, hb_kind kind, int64_t nsys,
                             const int64_t *offsets, int64_t n_uniform, const int32_t *parent,
                             const hb_plan_options *opts_in, hb_plan **out, const char *fn)
{
    if (!out)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: plan (output) is NULL", fn);
    if (!ctx)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: ctx is NULL", fn);
    HB_FORWARD(hb__check_batch(precision, nsys, fn));
    if (!offsets && n_uniform <= 0)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: n = %lld must be > 0", fn,
                         (long long)n_uniform);
    int64_t nrows = 0;
    if (offsets)
        HB_FORWARD(hb__check_offsets(nsys, offsets, fn));
    if (!offsets && !hb__mul_i64(nsys, n_uniform, &nrows))
        return hb__error(HB_ERR_OUT_OF_MEMORY, "%s: nsys = %lld systems of n = %lld rows overflow",
                         fn, (long long)nsys, (long long)n_uniform);
    if (kind == HB_KIND_HINES) {
        if (!parent)
            return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: parent is NULL", fn);
        if (offsets) {
            for (int64_t s = 0; s < nsys; ++s)
                HB_FORWARD(hb__check_tree(parent + offsets[s], offsets[s + 1] - offsets[s], s));
        } else {
            HB_FORWARD(hb__check_tree(parent, n_uniform, 0));
        }
    }
    hb_plan_options opts;
    if (opts_in)
        opts = *opts_in;
    else
        hb_plan_options_init(&opts);
    if (opts.layout < HB_LAYOUT_AUTO || opts.layout > HB_LAYOUT_BLOCK_SHARED)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: opts->layout = %d is not an hb_layout", fn,
                         (int)opts.layout);
    if (opts.padding < HB_PADDING_AUTO || opts.padding > HB_PADDING_SKIP)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: opts->padding = %d is not an hb_padding",
                         fn, (int)opts.padding);
    if (opts.strategy < HB_STRATEGY_AUTO || opts.strategy > HB_STRATEGY_CELL_GROUP)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: opts->strategy = %d is not an hb_strategy",
                         fn, (int)opts.strategy);
    if (opts.group_size < 0)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: opts->group_size = %d is negative", fn,
                         (int)opts.group_size);
    if (opts.cell_chain < 0)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: opts->cell_chain = %d is negative", fn,
                         (int)opts.cell_chain);
    if (opts.block_size < 0)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: opts->block_size = %d is negative", fn,
                         (int)opts.block_size);
    if (opts.auto_estimate != 0 && opts.auto_estimate != 1)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: opts->auto_estimate = %d is not 0 or 1",
                         fn, (int)opts.auto_estimate);
    HB_FORWARD(hb__env_auto_estimate(&opts.auto_estimate));
    hb_strategy strategy;
    HB_FORWARD(resolve_strategy(kind, opts.strategy, &strategy));
    /* Shared couplings: one system's U and L for every system, so every
     * system must have the same tree; the per-system and cell-group solvers
     * read them. */
    int env_ignored = 0;
    const int64_t other = kind == HB_KIND_HINES ? first_other_tree(nsys, offsets, parent) : nsys;
    if (opts.shared_couplings != 0 && opts.shared_couplings != 1)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: opts->shared_couplings = %d is not 0 or 1",
                         fn, (int)opts.shared_couplings);
    if (opts.shared_couplings) {
        if (kind != HB_KIND_HINES)
            return hb__error(HB_ERR_INVALID_ARGUMENT,
                             "%s: opts->shared_couplings is for Hines plans (a tridiagonal plan "
                             "has no couplings)",
                             fn);
        if (opts.strategy != HB_STRATEGY_AUTO && opts.strategy != HB_STRATEGY_PER_SYSTEM &&
            opts.strategy != HB_STRATEGY_CELL_GROUP)
            return hb__error(HB_ERR_INVALID_ARGUMENT,
                             "%s: opts->shared_couplings with opts->strategy = %s: shared "
                             "couplings run the per-system or cell-group strategy (leave it "
                             "auto, per-system or cell-group)",
                             fn, hb_strategy_name(opts.strategy));
        if (other < nsys)
            return hb__error(HB_ERR_INVALID_ARGUMENT,
                             "%s: opts->shared_couplings: system %lld has %s than system 0 "
                             "(shared couplings need one tree for every system)",
                             fn, (long long)other,
                             offsets[other + 1] - offsets[other] != offsets[1] - offsets[0]
                                 ? "another number of rows"
                                 : "other parents");
        /* HINESBATCH_STRATEGY forces the others; it cannot force these. */
        env_ignored = strategy != HB_STRATEGY_AUTO && strategy != HB_STRATEGY_PER_SYSTEM &&
                      strategy != HB_STRATEGY_CELL_GROUP;
        if (env_ignored)
            strategy = HB_STRATEGY_AUTO;
    }
    if (kind == HB_KIND_TRIDIAG && strategy != HB_STRATEGY_AUTO &&
        strategy != HB_STRATEGY_PER_SYSTEM && strategy != HB_STRATEGY_COOPERATIVE)
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "%s: strategy %s is for Hines plans; a tridiagonal system is a single "
                         "branch (use per-system or cooperative)",
                         fn, hb_strategy_name(strategy));
    if (kind == HB_KIND_HINES && strategy == HB_STRATEGY_COOPERATIVE)
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "%s: strategy cooperative is for tridiagonal plans (Hines plans: "
                         "per-system, branch-level, fine-tree or cell-group)",
                         fn);
    if ((strategy == HB_STRATEGY_COOPERATIVE || strategy == HB_STRATEGY_CELL_GROUP) &&
        opts.layout != HB_LAYOUT_AUTO && opts.layout != HB_LAYOUT_FLAT)
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "%s: opts->layout = %s with opts->strategy = %s: the %s solver runs on "
                         "the flat layout (leave the layout auto or flat)",
                         fn, hb_layout_name(opts.layout), hb_strategy_name(strategy),
                         hb_strategy_name(strategy));
    if ((strategy == HB_STRATEGY_BRANCH_LEVEL && !ctx->ops->hines_branch_level) ||
        (strategy == HB_STRATEGY_CELL_GROUP && !ctx->ops->hines_cell) ||
        (strategy == HB_STRATEGY_FINE_TREE && !ctx->ops->hines_fine_tree) ||
        (strategy == HB_STRATEGY_COOPERATIVE && !ctx->ops->thomas_coop))
        return hb__error(HB_ERR_BACKEND_UNAVAILABLE, "%s: strategy %s is not implemented on %s",
                         fn, hb_strategy_name(strategy), ctx->describe);
    if (precision == HB_DOUBLE && !ctx->traits.has_double)
        return hb__error(HB_ERR_BACKEND_UNAVAILABLE,
                         "%s: %s has no double precision support (cl_khr_fp64)", fn,
                         ctx->describe);
    /* An empty batch never reaches the backend, so its stream is not used. */
    if (opts.stream && nsys > 0 && ctx->ops->check_stream) {
        hb_status st = ctx->ops->check_stream(ctx, opts.stream);
        if (st != HB_SUCCESS)
            return hb__error(st, "%s: opts->stream: %s", fn, hb_last_error());
    }

    /* Fail fast, before any table is filled: a lower bound of the plan's
     * memory (padding and strategy tables only add to it). */
    int64_t total_rows = offsets ? offsets[nsys] : nrows;
    size_t esize = precision == HB_DOUBLE ? sizeof(double) : sizeof(float);
    HB_FORWARD(hb__memory_check(ctx, hb__mul_sat((uint64_t)nsys, 7 * sizeof(int64_t)),
                                plan_device_bytes(kind, total_rows, nsys, esize, 0), fn));

    int uniform = offsets == NULL;
    if (offsets) {
        uniform = 1;
        for (int64_t s = 0; s < nsys && uniform; ++s)
            uniform = offsets[s + 1] - offsets[s] == offsets[1] - offsets[0];
    }
    int64_t max_rows = n_uniform;
    for (int64_t s = 0; offsets && s < nsys; ++s)
        if (offsets[s + 1] - offsets[s] > max_rows)
            max_rows = offsets[s + 1] - offsets[s];
    if (kind == HB_KIND_TRIDIAG && strategy == HB_STRATEGY_AUTO && opts.layout == HB_LAYOUT_AUTO)
        strategy = hb__auto_tridiag_strategy(&ctx->traits, ctx->ops->thomas_coop != NULL, nsys,
                                             max_rows);
    hb_layout layout = strategy == HB_STRATEGY_COOPERATIVE ? HB_LAYOUT_FLAT
                       : opts.layout != HB_LAYOUT_AUTO
                           ? opts.layout
                           : hb__auto_layout(&ctx->traits, uniform);
    int32_t bs = opts.block_size > 0 ? opts.block_size : ctx->traits.block_size;
    hb_padding padding = opts.padding == HB_PADDING_AUTO ? HB_PADDING_SKIP : opts.padding;

    hb_plan *plan = calloc(1, sizeof *plan);
    if (!plan)
        return hb__error(HB_ERR_OUT_OF_MEMORY, "%s: %zu bytes", fn, sizeof *plan);
    plan->ctx = ctx;
    hb__context_retain(ctx); /* dropped by hb_plan_destroy, on every path */
    atomic_init(&plan->busy, 0);
    plan->kind = kind;
    plan->precision = precision;
    plan->esize = precision == HB_DOUBLE ? sizeof(double) : sizeof(float);
    plan->nsys = nsys;
    plan->n_uniform = offsets ? 0 : n_uniform;
    plan->nrows = offsets ? offsets[nsys] : nrows;
    plan->stream = opts.stream;
    hb_status st = HB_SUCCESS;
    if (env_ignored)
        snprintf(plan->note, sizeof plan->note,
                 "HINESBATCH_STRATEGY not applied: shared couplings run per-system or "
                 "cell-group");
    if (offsets) {
        plan->offsets = hb__malloc_n(nsys + 1, sizeof *plan->offsets);
        if (!plan->offsets) {
            hb_plan_destroy(plan);
            return hb__error(HB_ERR_OUT_OF_MEMORY, "%s: offsets copy", fn);
        }
        memcpy(plan->offsets, offsets, (size_t)(nsys + 1) * sizeof *offsets);
    }
    if (kind == HB_KIND_HINES)
        plan->mono = other >= nsys;
    /* Cell-group can run the batch: the backend has it and the largest cell
     * fits the device's local memory. */
    const int cell_ok = kind == HB_KIND_HINES && ctx->ops->hines_cell &&
                        hb__cell_fits(&ctx->traits, max_rows, esize, opts.shared_couplings);
    /* A layout asked for explicitly is honoured: only per-system uses it. */
    if (strategy == HB_STRATEGY_AUTO) {
        strategy = kind == HB_KIND_TRIDIAG || opts.layout != HB_LAYOUT_AUTO
                       ? HB_STRATEGY_PER_SYSTEM
                       : hb__auto_strategy(&ctx->traits, nsys, max_rows, plan->mono, cell_ok,
                                           esize);
        hb_plan *timed = NULL;
        if (kind == HB_KIND_HINES && plan->mono && opts.layout == HB_LAYOUT_AUTO &&
            (st = auto_by_model(ctx, precision, nsys, max_rows, parent, &opts, cell_ok,
                                &strategy, plan->note, sizeof plan->note, &timed))) {
            hb_plan_destroy(plan);
            return st;
        }
        if (timed) {
            /* The tie-break's fastest plan, made with these options and
             * that strategy: the plan, not made a second time. */
            memcpy(timed->note, plan->note, sizeof timed->note);
            hb_plan_destroy(plan);
            describe(timed);
            *out = timed;
            return HB_SUCCESS;
        }
        /* Shared couplings: where AUTO takes the branches, per-system. */
        if (opts.shared_couplings && strategy != HB_STRATEGY_CELL_GROUP)
            strategy = HB_STRATEGY_PER_SYSTEM;
    }
    /* A cell larger than local memory: the fine tree, which has no size
     * limit (per-system for shared couplings, which the branch layouts do
     * not take), and the reason in hb_plan_describe. */
    if (strategy == HB_STRATEGY_CELL_GROUP && !cell_ok) {
        size_t need = hb__cell_local_bytes(max_rows, esize, 0, opts.shared_couplings);
        strategy = opts.shared_couplings ? HB_STRATEGY_PER_SYSTEM : HB_STRATEGY_FINE_TREE;
        snprintf(plan->note, sizeof plan->note,
                 "cell-group: a cell of %lld rows needs %zu KiB of local memory, the device has "
                 "%zu KiB; running %s",
                 (long long)max_rows, need == SIZE_MAX ? need : (need + 1023) / 1024,
                 ctx->traits.local_mem / 1024, hb_strategy_name(strategy));
        hb__log("%s", plan->note);
    }
    if (strategy == HB_STRATEGY_CELL_GROUP)
        layout = HB_LAYOUT_FLAT;
    plan->strategy = strategy;
    plan->by_branch = strategy == HB_STRATEGY_BRANCH_LEVEL || strategy == HB_STRATEGY_FINE_TREE;
    st = hb__layout_build(&plan->lay, layout, bs, padding, nsys, offsets, n_uniform);
    if (st != HB_SUCCESS) {
        hb_plan_destroy(plan);
        return st;
    }
    hb_layout_host *lay = &plan->lay;
    hb_layout_dev *dev = &plan->dev;
    dev->nslots = lay->nslots;
    dev->stride = lay->stride;
    dev->length = lay->length;
    dev->max_rows = lay->max_rows;
    dev->block_size = lay->block_size;
    dev->shared_rhs = lay->layout == HB_LAYOUT_BLOCK_SHARED;
    dev->mono = plan->mono;
    dev->ul_shared = opts.shared_couplings;
    if (strategy == HB_STRATEGY_COOPERATIVE) {
        /* Whole systems in local memory where the longest fits (resident;
         * unless HINESBATCH_COOP_SPAN asks for more groups per system): on an
         * H200 one 4,096-row system alone in a group ran 2x faster than its
         * span over groups (docs/strategies.md). Else G groups per system
         * (HINESBATCH_COOP_SPAN, else the rule), the staged kernel at G = 1. */
        int32_t span = 0, warp = -1;
        size_t alone = 0;
        if ((st = hb__env_coop_span(&span)) || (st = hb__env_coop_resident_limit(&alone)) ||
            (st = hb__env_coop_warp(&warp)))
            goto fail;
        /* Systems of up to 32 x 16 doubles (32 x 32 floats): a warp's lanes
         * each hold rows in registers (thomas_coop_warp, CUDA; no local
         * memory), where the group size is left to the rule, and the rule
         * (or HINESBATCH_COOP_WARP=1) takes it. */
        int32_t m = 0, w = 0;
        if (span <= 1 && warp != 0 && ctx->ops->thomas_coop_warp && opts.group_size == 0 &&
            hb__coop_warp_shape(plan->esize, lay->max_rows, &m, &w) &&
            (warp == 1 || hb__coop_warp_rule(&ctx->traits, plan->esize, nsys, lay->max_rows))) {
            dev->coop_rows = m;
            dev->coop_group = w;
            dev->coop_systems = (32 / w) * HB_COOP_WARP_WARPS;
            dev->coop_span = 1;
        }
        if (dev->coop_rows == 0) {
            /* The resident kernel's groups within its own limit as compiled
             * (registers: on an H200 its double kernel takes fewer than the
             * device's 1,024 threads per block). */
            hb_device_traits rt = ctx->traits;
            int64_t kmax = 0;
            if (span <= 1 && ctx->ops->thomas_coop_local && ctx->ops->coop_local_limit) {
                if ((st = ctx->ops->coop_local_limit(ctx, precision, &kmax)))
                    goto fail;
                /* A power of two, as the rules' group sizes are. */
                int64_t k2 = 1;
                while (k2 <= kmax / 2)
                    k2 *= 2;
                if (kmax > 0 && (uint64_t)k2 < (uint64_t)rt.max_group)
                    rt.max_group = (size_t)k2;
            }
            hb_coop_resident res;
            const int fits = span <= 1 && ctx->ops->thomas_coop_local &&
                             hb__coop_resident(&rt, nsys, lay->max_rows, plan->esize,
                                               opts.group_size, alone, &res);
            dev->coop_span =
                fits ? 1 : hb__coop_span(&ctx->traits, lay->nslots, lay->max_rows, span);
            if (fits) {
                dev->coop_group = res.group;
                dev->coop_systems = res.systems;
                dev->coop_ld = res.ld;
            } else {
                const int64_t seg = (lay->max_rows + dev->coop_span - 1) / dev->coop_span;
                /* hb__coop_group aims at HB_COOP_ROWS_PER_ITEM rows per work-item;
                 * a segment at HB_COOP_SPAN_ROWS_PER_ITEM. */
                dev->coop_group = hb__coop_group(
                    &ctx->traits,
                    dev->coop_span > 1
                        ? seg / (HB_COOP_SPAN_ROWS_PER_ITEM / HB_COOP_ROWS_PER_ITEM) + 1
                        : lay->max_rows,
                    plan->esize, opts.group_size);
            }
            if (dev->coop_span > 1) {
                /* Both at most 1024 here: no overflow. The reduced systems get
                 * the group size of the rule for their size. */
                dev->span_stride = 2 * (int64_t)dev->coop_group * dev->coop_span;
                dev->span_group = hb__coop_group(&ctx->traits, dev->span_stride, plan->esize, 0);
            }
        }
    }
    const int resident = dev->coop_systems > 0;
    if (strategy == HB_STRATEGY_CELL_GROUP) {
        dev->cell_group = hb__cell_group(&ctx->traits, 1, opts.group_size);
        dev->cell_staged = hb__cell_staged(&ctx->traits, lay->max_rows, plan->esize,
                                           dev->ul_shared);
    }
    if (nsys == 0) {
        describe(plan);
        *out = plan;
        return HB_SUCCESS; /* nothing to allocate; every operation is a no-op */
    }
    if (plan->by_branch) {
        hb_branch_options bo = {0, opts.split_branches != 0, opts.reroot != 0, 0};
        if (strategy == HB_STRATEGY_FINE_TREE)
            bo.group_size = opts.group_size > 0 ? opts.group_size : HB_FINE_TREE_GROUP;
        if ((st = hb__branches_build(plan, parent, &bo)))
            goto fail;
    }
    if (strategy == HB_STRATEGY_CELL_GROUP) {
        int64_t widest = 1;
        if ((st = hb__cell_schedule_build(plan, parent, opts.cell_chain, &widest,
                                          &plan->cell_levels)))
            goto fail;
        (void)cell_launch(ctx, precision, nsys, widest, opts.group_size, dev);
    }
    describe(plan);

    int64_t alen = plan->by_branch ? plan->br.length : lay->length;
    size_t tbytes, abytes;
    if (!hb__bytes_n(nsys, sizeof(int64_t), &tbytes) ||
        !hb__bytes_n(alen > lay->length ? alen : lay->length, plan->esize, &abytes)) {
        st = hb__error(HB_ERR_OUT_OF_MEMORY, "%s: %lld elements do not fit in memory", fn,
                       (long long)(alen > lay->length ? alen : lay->length));
        goto fail;
    }
    abytes = (size_t)alen * plan->esize;
    /* Span: each system's reduced system of span_stride rows, in 6 arrays of
     * rbytes (a, c, d, ones, 2 of scratch), and 2 per-system tables. */
    size_t rbytes = 0;
    int64_t rlen = 0;
    if (dev->coop_span > 1 && (!hb__mul_i64(lay->nslots, dev->span_stride, &rlen) ||
                               !hb__bytes_n(rlen, 2 * plan->esize, &rbytes))) {
        st = hb__error(HB_ERR_OUT_OF_MEMORY,
                       "%s: the span's reduced systems (%lld systems x %lld rows) do not fit in "
                       "memory",
                       fn, (long long)lay->nslots, (long long)dev->span_stride);
        goto fail;
    }
    rbytes /= 2;
    /* The exact need, now that padding is known (cooperative: a second
     * scratch array; span: its reduced systems). */
    if ((st = hb__memory_check(
             ctx, 0,
             hb__add_sat(
                 hb__add_sat(plan_device_bytes(kind, alen, nsys, plan->esize,
                                               lay->layout != HB_LAYOUT_FLAT || plan->by_branch),
                             strategy == HB_STRATEGY_COOPERATIVE && !resident ? (uint64_t)abytes
                                                                              : 0),
                 hb__add_sat(hb__mul_sat(6, rbytes),
                             dev->coop_span > 1 ? hb__mul_sat((uint64_t)nsys, 2 * sizeof(int64_t))
                                                : 0)),
             fn)))
        goto fail;
    if ((st = alloc_upload(plan, &dev->base, lay->base, tbytes, "bases")) ||
        (st = alloc_upload(plan, &dev->rows, lay->rows, tbytes, "rows")) ||
        (st = alloc_upload(plan, &dev->nown, lay->nown, tbytes, "sizes")) ||
        (st = alloc_upload(plan, &dev->flat, lay->flat, tbytes, "flat offsets")))
        goto fail;
    if (kind == HB_KIND_HINES && !plan->by_branch && strategy != HB_STRATEGY_CELL_GROUP &&
        (st = upload_parents(plan, parent)))
        goto fail;
    for (int w = 0; w < HB_NUM_ARRAYS; ++w)
        if (array_in_kind(kind, (hb_array)w) &&
            (st = alloc_upload(plan, &plan->arrays[w], NULL,
                               coupling_array(plan, (hb_array)w)
                                   ? (size_t)lay->max_rows * plan->esize
                                   : abytes,
                               array_names[w])))
            goto fail;
    /* The staged cooperative solver keeps two coefficients per row (a'', c'');
     * the resident one none (the array is still made: every tridiagonal
     * plan has one). */
    if (kind == HB_KIND_TRIDIAG &&
        (st = alloc_upload(plan, &plan->scratch, NULL,
                           strategy == HB_STRATEGY_COOPERATIVE && !resident ? 2 * abytes : abytes,
                           "scratch")))
        goto fail;
    if (dev->coop_span > 1 && (st = alloc_span(plan, rlen, rbytes, tbytes)))
        goto fail;
    if (!plan->by_branch && lay->variable && lay->layout != HB_LAYOUT_FLAT &&
        (st = fill_identity(plan)))
        goto fail;
    if ((lay->layout != HB_LAYOUT_FLAT || plan->by_branch) &&
        (st = alloc_upload(plan, &plan->staging, NULL, (size_t)plan->nrows * plan->esize,
                           "staging")))
        goto fail;
    *out = plan; /* written only on success */
    return HB_SUCCESS;
fail:
    hb_plan_destroy(plan);
    return st;
}

hb_status hb_plan_create_tridiag(hb_context *ctx, hb_precision precision, int64_t nsys,
                                 const int64_t *offsets, const hb_plan_options *opts,
                                 hb_plan **plan)
{
    if (!offsets)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "hb_plan_create_tridiag: offsets is NULL");
    return plan_create(ctx, precision, HB_KIND_TRIDIAG, nsys, offsets, 0, NULL, opts, plan,
                       "hb_plan_create_tridiag");
}

hb_status hb_plan_create_tridiag_uniform(hb_context *ctx, hb_precision precision, int64_t nsys,
                                         int64_t n, const hb_plan_options *opts, hb_plan **plan)
{
    return plan_create(ctx, precision, HB_KIND_TRIDIAG, nsys, NULL, n, NULL, opts, plan,
                       "hb_plan_create_tridiag_uniform");
}

hb_status hb_plan_create_hines(hb_context *ctx, hb_precision precision, int64_t nsys,
                               const int64_t *offsets, const int32_t *parent,
                               const hb_plan_options *opts, hb_plan **plan)
{
    if (!offsets)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "hb_plan_create_hines: offsets is NULL");
    return plan_create(ctx, precision, HB_KIND_HINES, nsys, offsets, 0, parent, opts, plan,
                       "hb_plan_create_hines");
}

hb_status hb_plan_create_hines_uniform(hb_context *ctx, hb_precision precision, int64_t nsys,
                                       int64_t n, const int32_t *parent,
                                       const hb_plan_options *opts, hb_plan **plan)
{
    return plan_create(ctx, precision, HB_KIND_HINES, nsys, NULL, n, parent, opts, plan,
                       "hb_plan_create_hines_uniform");
}

void hb_plan_destroy(hb_plan *plan)
{
    if (!plan)
        return;
    hb_context *ctx = plan->ctx;
    hb_buffer *bufs[] = {plan->dev.base, plan->dev.rows,  plan->dev.nown,
                         plan->dev.flat, plan->dev.poff,  plan->dev.parent,
                         plan->dev.soff, plan->dev.sched, plan->dev.cslots,
                         plan->scratch,  plan->staging,
                         plan->dev.span_a, plan->dev.span_c, plan->dev.span_d,
                         plan->dev.span_one, plan->dev.span_cw, plan->dev.span_base,
                         plan->dev.span_rows};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; ++i)
        if (bufs[i])
            ctx->ops->release(ctx, bufs[i]);
    for (int w = 0; w < HB_NUM_ARRAYS; ++w)
        if (plan->arrays[w])
            ctx->ops->release(ctx, plan->arrays[w]);
    hb__branches_free(plan);
    free(plan->dev.cell_class);
    hb__layout_free(&plan->lay);
    free(plan->offsets);
    free(plan);
    hb__context_release(ctx); /* the backend closes here if the caller let go first */
}

const char *hb_plan_describe(const hb_plan *plan)
{
    return plan ? plan->describe : "(null plan)";
}

static hb_status check_array(const hb_plan *plan, hb_array which, const char *fn)
{
    if (!plan)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: plan is NULL", fn);
    if ((int)which < 0 || which >= HB_NUM_ARRAYS)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: which = %d is not an hb_array", fn,
                         (int)which);
    if (!array_in_kind(plan->kind, which))
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: a %s plan has no array '%s'", fn,
                         plan->kind == HB_KIND_TRIDIAG ? "tridiagonal" : "Hines",
                         array_names[which]);
    return HB_SUCCESS;
}

hb_status hb__plan_enter(hb_plan *plan, const char *fn)
{
    /* acquire/release: a thread that enters after another left sees all
     * that the other did to the plan. */
    if (atomic_exchange_explicit(&plan->busy, 1, memory_order_acquire))
        return hb__error(HB_ERR_BUSY,
                         "%s: the plan is in use by another thread (a plan is used by one thread "
                         "at a time)",
                         fn);
    return HB_SUCCESS;
}

void hb__plan_leave(hb_plan *plan) { atomic_store_explicit(&plan->busy, 0, memory_order_release); }

/* Runs call between enter and leave: the public entry points below. */
#define HB_PLAN_GUARDED(plan, fn, call)                                     \
    do {                                                                    \
        if (!(plan))                                                        \
            return hb__error(HB_ERR_INVALID_ARGUMENT, fn ": plan is NULL"); \
        HB_FORWARD(hb__plan_enter(plan, fn));                               \
        hb_status hb__guarded_ = (call);                                    \
        hb__plan_leave(plan);                                               \
        return hb__guarded_;                                                \
    } while (0)

static void mark_set(hb_plan *plan, hb_array which)
{
    if (which == HB_ARRAY_RHS) {
        plan->rhs_ready = 1;
        plan->solved = 0;
    }
    if (which == HB_ARRAY_D)
        plan->d_ready = 1;
    plan->set_mask |= 1u << which;
}

static hb_status plan_set(hb_plan *plan, hb_array which, const void *host)
{
    HB_FORWARD(check_array(plan, which, "hb_plan_set"));
    if (!host)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "hb_plan_set: %s (host array) is NULL",
                         array_names[which]);
    int zero_first = which == HB_ARRAY_A || which == HB_ARRAY_U || which == HB_ARRAY_L;
    int zero_last = which == HB_ARRAY_C;
    const int one = coupling_array(plan, which); /* one system's n rows, as they are */
    HB_FORWARD(hb__check_finite(plan->precision, host, one ? 1 : plan->nsys,
                                one ? NULL : plan->offsets,
                                one ? plan->lay.max_rows : plan->n_uniform, zero_first, zero_last,
                                array_names[which]));
    if (plan->nsys > 0) {
        hb_context *ctx = plan->ctx;
        size_t bytes = (size_t)plan->nrows * plan->esize;
        if (one) {
            HB_FORWARD(ctx->ops->write(ctx, plan->stream, plan->arrays[which], 0, host,
                                       (size_t)plan->lay.max_rows * plan->esize));
        } else if (plan->by_branch) {
            HB_FORWARD(ctx->ops->write(ctx, plan->stream, plan->staging, 0, host, bytes));
            if (plan->br.cmap_same && (which == HB_ARRAY_U || which == HB_ARRAY_L)) {
                /* Re-rooted: couplings of turned edges land in the other array. */
                hb_array other = which == HB_ARRAY_U ? HB_ARRAY_L : HB_ARRAY_U;
                HB_FORWARD(ctx->ops->map_to_layout(ctx, plan->stream, plan->precision,
                                                   plan->nrows, plan->br.cmap_same,
                                                   plan->staging, plan->arrays[which]));
                HB_FORWARD(ctx->ops->map_to_layout(ctx, plan->stream, plan->precision,
                                                   plan->nrows, plan->br.cmap_swap,
                                                   plan->staging, plan->arrays[other]));
            } else {
                HB_FORWARD(ctx->ops->map_to_layout(ctx, plan->stream, plan->precision,
                                                   plan->nrows, plan->br.rowmap, plan->staging,
                                                   plan->arrays[which]));
            }
        } else if (plan->lay.layout == HB_LAYOUT_FLAT) {
            HB_FORWARD(ctx->ops->write(ctx, plan->stream, plan->arrays[which], 0, host, bytes));
        } else {
            hb_convert_rule rule = {(which == HB_ARRAY_B || which == HB_ARRAY_D) ? 1.0 : 0.0,
                                    zero_first, zero_last};
            HB_FORWARD(ctx->ops->write(ctx, plan->stream, plan->staging, 0, host, bytes));
            HB_FORWARD(ctx->ops->to_layout(ctx, plan->stream, plan->precision, &plan->dev, &rule,
                                           plan->staging, plan->arrays[which]));
        }
    }
    mark_set(plan, which);
    return HB_SUCCESS;
}

/* Queues the plan's solver. Block-shared layouts run on chip where a block
 * fits and fall back to the block-interleaved kernel where it does not. */
static hb_status run_solver(hb_plan *plan)
{
    hb_context *ctx = plan->ctx;
    const hb_backend_ops *ops = ctx->ops;
    hb_buffer **a = plan->arrays;
    const hb_precision p = plan->precision;
    void *s = plan->stream;
    int ran = 0;
    if (plan->kind == HB_KIND_TRIDIAG) {
        if (plan->strategy == HB_STRATEGY_COOPERATIVE && plan->dev.coop_rows > 0)
            return ops->thomas_coop_warp(ctx, s, p, &plan->dev, a[HB_ARRAY_A], a[HB_ARRAY_B],
                                         a[HB_ARRAY_C], plan->scratch, a[HB_ARRAY_RHS]);
        if (plan->strategy == HB_STRATEGY_COOPERATIVE && plan->dev.coop_systems > 0)
            return ops->thomas_coop_local(ctx, s, p, &plan->dev, a[HB_ARRAY_A], a[HB_ARRAY_B],
                                          a[HB_ARRAY_C], plan->scratch, a[HB_ARRAY_RHS]);
        if (plan->strategy == HB_STRATEGY_COOPERATIVE)
            return ops->thomas_coop(ctx, s, p, &plan->dev, a[HB_ARRAY_A], a[HB_ARRAY_B],
                                    a[HB_ARRAY_C], plan->scratch, a[HB_ARRAY_RHS]);
        if (plan->dev.shared_rhs && ops->thomas_shared)
            HB_FORWARD(ops->thomas_shared(ctx, s, p, &plan->dev, a[HB_ARRAY_A], a[HB_ARRAY_B],
                                          a[HB_ARRAY_C], a[HB_ARRAY_RHS], &ran));
        return ran ? HB_SUCCESS
                   : ops->thomas(ctx, s, p, &plan->dev, a[HB_ARRAY_A], a[HB_ARRAY_B],
                                 a[HB_ARRAY_C], plan->scratch, a[HB_ARRAY_RHS]);
    }
    if (plan->strategy == HB_STRATEGY_BRANCH_LEVEL)
        return ops->hines_branch_level(ctx, s, p, &plan->br, a[HB_ARRAY_U], a[HB_ARRAY_L],
                                       a[HB_ARRAY_D], a[HB_ARRAY_RHS]);
    if (plan->strategy == HB_STRATEGY_CELL_GROUP)
        return ops->hines_cell(ctx, s, p, &plan->dev, a[HB_ARRAY_U], a[HB_ARRAY_L],
                               a[HB_ARRAY_D], a[HB_ARRAY_RHS]);
    if (plan->strategy == HB_STRATEGY_FINE_TREE)
        return ops->hines_fine_tree(ctx, s, p, &plan->br, a[HB_ARRAY_U], a[HB_ARRAY_L],
                                    a[HB_ARRAY_D], a[HB_ARRAY_RHS]);
    if (plan->dev.shared_rhs && ops->hines_shared)
        HB_FORWARD(ops->hines_shared(ctx, s, p, &plan->dev, a[HB_ARRAY_U], a[HB_ARRAY_L],
                                     a[HB_ARRAY_D], a[HB_ARRAY_RHS], &ran));
    return ran ? HB_SUCCESS
               : ops->hines(ctx, s, p, &plan->dev, a[HB_ARRAY_U], a[HB_ARRAY_L], a[HB_ARRAY_D],
                            a[HB_ARRAY_RHS]);
}

static hb_status plan_solve(hb_plan *plan)
{
    const hb_array need[] = {plan->kind == HB_KIND_TRIDIAG ? HB_ARRAY_A : HB_ARRAY_U,
                             plan->kind == HB_KIND_TRIDIAG ? HB_ARRAY_B : HB_ARRAY_L,
                             plan->kind == HB_KIND_TRIDIAG ? HB_ARRAY_C : HB_ARRAY_D};
    for (int i = 0; i < 3; ++i)
        if (!(plan->set_mask & (1u << need[i])))
            return hb__error(HB_ERR_INVALID_ARGUMENT, "hb_plan_solve: array '%s' was never set",
                             array_names[need[i]]);
    if (!plan->rhs_ready)
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "hb_plan_solve: rhs not set since the last solve (a solve overwrites it "
                         "with the solution)");
    if (plan->kind == HB_KIND_HINES && !plan->d_ready)
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "hb_plan_solve: d not set since the last solve (a solve overwrites it "
                         "with its elimination)");
    if (plan->nsys > 0)
        HB_FORWARD(run_solver(plan));
    plan->rhs_ready = 0;
    plan->d_ready = 0;
    plan->solved = 1;
    return HB_SUCCESS;
}

/* First system (in the caller's order) with a non-finite solution, or -1. */
static int64_t first_bad_system(const hb_plan *plan, const void *x, int64_t *row)
{
    for (int64_t s = 0; s < plan->nsys; ++s) {
        int64_t lo = plan->offsets ? plan->offsets[s] : s * plan->n_uniform;
        int64_t hi = plan->offsets ? plan->offsets[s + 1] : (s + 1) * plan->n_uniform;
        for (int64_t k = lo; k < hi; ++k) {
            double v = plan->precision == HB_DOUBLE ? ((const double *)x)[k]
                                                    : (double)((const float *)x)[k];
            if (!isfinite(v)) {
                *row = k - lo;
                return s;
            }
        }
    }
    return -1;
}

static hb_status plan_get_solution(hb_plan *plan, void *x)
{
    if (!x)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "hb_plan_get_solution: x (output) is NULL");
    if (!plan->solved)
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "hb_plan_get_solution: no solve since rhs was last set");
    if (plan->nsys == 0)
        return HB_SUCCESS;
    hb_context *ctx = plan->ctx;
    size_t bytes = (size_t)plan->nrows * plan->esize;
    /* Read into a private buffer first so x stays untouched on failure. */
    void *tmp = malloc(bytes);
    if (!tmp)
        return hb__error(HB_ERR_OUT_OF_MEMORY, "hb_plan_get_solution: %zu bytes", bytes);
    hb_buffer *src = plan->arrays[HB_ARRAY_RHS];
    hb_status st = HB_SUCCESS;
    if (plan->by_branch) {
        st = ctx->ops->map_to_flat(ctx, plan->stream, plan->precision, plan->nrows,
                                   plan->br.rowmap, src, plan->staging);
        src = plan->staging;
    } else if (plan->lay.layout != HB_LAYOUT_FLAT) {
        st = ctx->ops->to_flat(ctx, plan->stream, plan->precision, &plan->dev, src, plan->staging);
        src = plan->staging;
    }
    if (st == HB_SUCCESS)
        st = ctx->ops->read(ctx, plan->stream, src, 0, tmp, bytes);
    if (st == HB_SUCCESS) {
        int64_t row = 0, bad = first_bad_system(plan, tmp, &row);
        if (bad >= 0)
            st = hb__error(HB_ERR_NUMERICAL,
                           "solve: system %lld has a non-finite solution at row %lld (zero or "
                           "non-finite pivot, or overflow)",
                           (long long)bad, (long long)row);
        else
            memcpy(x, tmp, bytes);
    }
    free(tmp);
    return st;
}

hb_status hb_plan_layout_info(const hb_plan *plan, hb_layout_info *info)
{
    if (!plan)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "hb_plan_layout_info: plan is NULL");
    if (!info)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "hb_plan_layout_info: info (output) is NULL");
    /* By branch, rows are scattered (hb_plan_index gives each row's place). */
    const int by = plan->by_branch;
    info->layout = by ? HB_LAYOUT_AUTO : plan->lay.layout;
    info->precision = plan->precision;
    info->nsys = plan->nsys;
    info->stride = by ? 0 : plan->lay.stride;
    info->length = by ? plan->br.length : plan->lay.length;
    info->block_size = by ? 0 : plan->lay.block_size;
    info->padded = by || (plan->lay.variable && plan->lay.layout != HB_LAYOUT_FLAT);
    return HB_SUCCESS;
}

hb_status hb_plan_system_bases(const hb_plan *plan, int64_t *base)
{
    if (!plan)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "hb_plan_system_bases: plan is NULL");
    if (!base)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "hb_plan_system_bases: base (output) is NULL");
    if (plan->by_branch)
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "hb_plan_system_bases: a %s plan stores rows by branch, with no "
                         "per-system base; use hb_plan_index",
                         hb_strategy_name(plan->strategy));
    for (int64_t s = 0; s < plan->nsys; ++s)
        base[s] = plan->lay.base[plan->lay.slot_of[s]];
    return HB_SUCCESS;
}

hb_status hb_plan_index(const hb_plan *plan, int64_t s, int64_t i, int64_t *index)
{
    if (!plan)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "hb_plan_index: plan is NULL");
    if (!index)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "hb_plan_index: index (output) is NULL");
    if (s < 0 || s >= plan->nsys)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "hb_plan_index: system %lld not in [0, %lld)",
                         (long long)s, (long long)plan->nsys);
    int64_t t = plan->lay.slot_of[s];
    if (i < 0 || i >= plan->lay.nown[t])
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "hb_plan_index: row %lld not in [0, %lld) of system %lld", (long long)i,
                         (long long)plan->lay.nown[t], (long long)s);
    if (plan->by_branch)
        *index = plan->host_rowmap[plan->lay.flat[t] + i];
    else
        *index = plan->lay.base[t] + i * plan->lay.stride;
    return HB_SUCCESS;
}

/* The buffer of an array check_array has accepted; handing it out counts as
 * setting it (D and RHS) for the next solve. */
static hb_status take_array(hb_plan *plan, hb_array which, hb_buffer **buf, const char *fn)
{
    if (plan->nsys == 0)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: the plan has no systems", fn);
    *buf = plan->arrays[which];
    mark_set(plan, which);
    return HB_SUCCESS;
}

hb_status hb__plan_array(hb_plan *plan, hb_array which, hb_buffer **buf)
{
    HB_FORWARD(check_array(plan, which, "hb__plan_array"));
    return take_array(plan, which, buf, "hb__plan_array");
}

static hb_status plan_buffer(hb_plan *plan, hb_array which, void **handle)
{
    HB_FORWARD(check_array(plan, which, "hb_plan_buffer"));
    if (!handle)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "hb_plan_buffer: handle (output) is NULL");
    hb_buffer *b = NULL;
    HB_FORWARD(take_array(plan, which, &b, "hb_plan_buffer"));
    *handle = plan->ctx->ops->native(b);
    return HB_SUCCESS;
}

void *hb__plan_stream(const hb_plan *plan) { return plan->stream; }

int hb__plan_per_system_hines(hb_plan *plan, const hb_layout_dev **lay, const int64_t **slot_of,
                              hb_buffer *arrays[4])
{
    /* The conditions under which run_solver calls ops->hines. */
    if (plan->kind != HB_KIND_HINES || plan->nsys == 0 || plan->by_branch ||
        plan->strategy == HB_STRATEGY_BRANCH_LEVEL || plan->strategy == HB_STRATEGY_CELL_GROUP ||
        plan->strategy == HB_STRATEGY_FINE_TREE ||
        (plan->dev.shared_rhs && plan->ctx->ops->hines_shared))
        return 0;
    *lay = &plan->dev;
    *slot_of = plan->lay.slot_of;
    const hb_array which[4] = {HB_ARRAY_U, HB_ARRAY_L, HB_ARRAY_D, HB_ARRAY_RHS};
    for (int i = 0; i < 4; ++i)
        arrays[i] = plan->arrays[which[i]];
    mark_set(plan, HB_ARRAY_D);
    mark_set(plan, HB_ARRAY_RHS);
    return 1;
}

int hb__plan_cell_group(const hb_plan *plan, const hb_layout_dev **lay, const int64_t **perm,
                        hb_buffer *arrays[2])
{
    if (plan->kind != HB_KIND_HINES || plan->nsys == 0 ||
        plan->strategy != HB_STRATEGY_CELL_GROUP)
        return 0;
    *lay = &plan->dev;
    *perm = plan->lay.perm;
    arrays[0] = plan->arrays[HB_ARRAY_U];
    arrays[1] = plan->arrays[HB_ARRAY_L];
    return 1;
}

hb_status hb_plan_get_info(const hb_plan *plan, hb_plan_info *info)
{
    if (!plan)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "hb_plan_get_info: plan is NULL");
    if (!info)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "hb_plan_get_info: info (output) is NULL");
    const hb_layout_host *lay = &plan->lay;
    hb_plan_info o;
    memset(&o, 0, sizeof o);
    o.backend = plan->ctx->ops->kind;
    o.precision = plan->precision;
    o.hines = plan->kind == HB_KIND_HINES;
    o.shared_tree = o.hines && plan->mono;
    o.shared_couplings = plan->dev.ul_shared;
    o.nsys = plan->nsys;
    o.nrows = plan->nrows;
    o.max_rows = lay->max_rows;
    o.variable = lay->variable;
    o.strategy = plan->strategy;
    if (plan->by_branch) {
        o.layout = HB_LAYOUT_AUTO;
        o.padding = HB_PADDING_SKIP;
        o.nbranches = plan->br.nbranches;
        if (plan->strategy == HB_STRATEGY_FINE_TREE) {
            o.ngroups = plan->br.ngroups;
            o.group_size = plan->br.group_size;
        } else {
            o.nlevels = plan->br.nsegments;
        }
        o.rerooted = plan->br.cmap_same != NULL;
        o.split = plan->br.split;
    } else {
        o.layout = lay->layout;
        o.block_size = lay->block_size;
        o.padding = lay->variable && lay->layout != HB_LAYOUT_FLAT ? lay->padding : HB_PADDING_AUTO;
        o.sorted = lay->sorted;
        if (plan->strategy == HB_STRATEGY_COOPERATIVE) {
            const hb_layout_dev *dv = &plan->dev;
            o.group_size = dv->coop_group;
            o.resident = dv->coop_systems > 0;
            o.systems_per_group = o.resident ? dv->coop_systems : 1;
            o.rows_per_item = dv->coop_rows;
            /* Span: nsys x G groups (ngroups / nsys = G). */
            o.ngroups = dv->coop_span > 1
                            ? plan->nsys * dv->coop_span
                            : (plan->nsys + o.systems_per_group - 1) / o.systems_per_group;
            /* The register kernel uses no local memory (coop_ld = 0). */
            o.local_bytes = (int64_t)(o.resident ? HB_COOP_RESIDENT_REALS(dv->coop_systems,
                                                                          dv->coop_group,
                                                                          dv->coop_ld)
                                                 : HB_COOP_LOCAL_REALS(dv->coop_group)) *
                            (int64_t)plan->esize;
        }
        if (plan->strategy == HB_STRATEGY_CELL_GROUP) {
            o.ngroups = plan->nsys;
            o.group_size = plan->dev.cell_group;
            o.nlevels = plan->cell_levels;
            o.local_bytes = (int64_t)HB_CELL_LAUNCH_BYTES(plan->dev.max_rows, plan->esize,
                                                          plan->dev.cell_staged,
                                                          plan->dev.ul_shared);
        }
    }
    *info = o;
    return HB_SUCCESS;
}

hb_status hb_plan_set(hb_plan *plan, hb_array which, const void *host)
{
    HB_PLAN_GUARDED(plan, "hb_plan_set", plan_set(plan, which, host));
}

hb_status hb_plan_solve(hb_plan *plan)
{
    HB_PLAN_GUARDED(plan, "hb_plan_solve", plan_solve(plan));
}

hb_status hb_plan_get_solution(hb_plan *plan, void *x)
{
    HB_PLAN_GUARDED(plan, "hb_plan_get_solution", plan_get_solution(plan, x));
}

hb_status hb_plan_buffer(hb_plan *plan, hb_array which, void **handle)
{
    HB_PLAN_GUARDED(plan, "hb_plan_buffer", plan_buffer(plan, which, handle));
}
