/* test_shared_couplings.c: Hines plans whose systems share one system's couplings (hb_plan_options.shared_couplings): every layout and the cell-group solver (forced, several group sizes, and its fall-back for cells past local memory), both constructors, steps with new D and RHS only, against the same plan with the couplings repeated per system (bit-identical where both run one kernel), against the oracle, and the refusals. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "hb_test_util.h"

#include "hb_backend.h" /* HB_CELL_SCHED_WORDS: the cell-group schedule's words */

#include <math.h>
#include <stdlib.h>
#include <string.h>

static hb_context *ctx, *oracle;

/* One tree of n rows, nsys systems: the couplings of one system (u1, l1)
 * repeated into U and L for the plan that does not share them. */
typedef struct {
    hb_precision p;
    int64_t      nsys, n;
    int64_t     *off;
    int32_t     *par1, *par; /* one tree; the same repeated per system (flat) */
    void        *u1, *l1, *u, *l, *d, *rhs;
} batch;

static void batch_make(batch *b, hb_precision p, int64_t nsys, int64_t n, hb_test_tree_kind kind)
{
    memset(b, 0, sizeof *b);
    b->p = p, b->nsys = nsys, b->n = n;
    b->off = hb_test_offsets_uniform(nsys, n);
    b->par1 = hb_test_xalloc((size_t)n * sizeof *b->par1);
    b->par = hb_test_xalloc((size_t)(nsys * n + 1) * sizeof *b->par);
    hb_test_tree(b->par1, n, kind);
    for (int64_t s = 0; s < nsys; ++s)
        memcpy(b->par + s * n, b->par1, (size_t)n * sizeof *b->par1);
    const int64_t N = nsys * n;
    b->u1 = hb_test_alloc(p, n), b->l1 = hb_test_alloc(p, n);
    b->u = hb_test_alloc(p, N + 1), b->l = hb_test_alloc(p, N + 1);
    b->d = hb_test_alloc(p, N + 1), b->rhs = hb_test_alloc(p, N + 1);
    /* Random systems; then system 0's couplings for all, and each diagonal
     * made dominant again over them (hb_test_hines_random's margin). */
    hb_test_hines_random(p, nsys, b->off, b->par, b->u, b->l, b->d, b->rhs, 1.0);
    for (int64_t i = 0; i < n; ++i) {
        hb_test_put(p, b->u1, i, hb_test_get(p, b->u, i));
        hb_test_put(p, b->l1, i, hb_test_get(p, b->l, i));
    }
    for (int64_t s = 0; s < nsys; ++s)
        for (int64_t i = 0; i < n; ++i) {
            hb_test_put(p, b->u, s * n + i, hb_test_get(p, b->u1, i));
            hb_test_put(p, b->l, s * n + i, hb_test_get(p, b->l1, i));
        }
    for (int64_t s = 0; s < nsys; ++s) {
        double *sum = calloc((size_t)n, sizeof *sum);
        for (int64_t i = 1; i < n; ++i) {
            const int64_t k = s * n + i;
            sum[i] += fabs(hb_test_get(p, b->l, k));          /* row i's parent entry   */
            sum[b->par1[i]] += fabs(hb_test_get(p, b->u, k)); /* the parent's child entry */
        }
        for (int64_t i = 0; i < n; ++i) {
            const double sign = hb_test_unit() < 0.5 ? -1.0 : 1.0;
            hb_test_put(p, b->d, s * n + i, sign * (sum[i] + 0.5 + hb_test_unit()));
        }
        free(sum);
    }
}

static void batch_free(batch *b)
{
    free(b->off), free(b->par1), free(b->par);
    free(b->u1), free(b->l1), free(b->u), free(b->l), free(b->d), free(b->rhs);
}

static hb_status create(const batch *b, const hb_plan_options *o, int uniform, hb_plan **plan)
{
    return uniform ? hb_plan_create_hines_uniform(ctx, b->p, b->nsys, b->n, b->par1, o, plan)
                   : hb_plan_create_hines(ctx, b->p, b->nsys, b->off, b->par, o, plan);
}

/* Sets the arrays (U and L as the plan takes them), solves, reads x back
 * into a poisoned array; returns x (NULL when a call failed, checked). */
static void *solve(hb_plan *plan, const batch *b, int shared, const void *d, const void *rhs,
                   int set_ul, const char *what)
{
    const int64_t N = b->nsys * b->n;
    void *x = hb_test_alloc(b->p, N + 1);
    hb_test_poison(b->p, x, N);
    hb_status st = HB_SUCCESS;
    if (set_ul) {
        st = hb_plan_set(plan, HB_ARRAY_U, shared ? b->u1 : b->u);
        if (st == HB_SUCCESS)
            st = hb_plan_set(plan, HB_ARRAY_L, shared ? b->l1 : b->l);
    }
    if (st == HB_SUCCESS)
        st = hb_plan_set(plan, HB_ARRAY_D, d);
    if (st == HB_SUCCESS)
        st = hb_plan_set(plan, HB_ARRAY_RHS, rhs);
    if (st == HB_SUCCESS)
        st = hb_plan_solve(plan);
    if (st == HB_SUCCESS)
        st = hb_plan_get_solution(plan, x);
    HB_CHECK(st == HB_SUCCESS, "%s: %s (%s)", what, hb_status_string(st), hb_last_error());
    if (st != HB_SUCCESS) {
        free(x);
        return NULL;
    }
    return x;
}

/* The shared plan against the plan with the couplings repeated (the same
 * strategy and layout: the same operations), the oracle
 * and the residual, over two steps (the second sets only D and RHS). lo:
 * the options (NULL: the defaults, AUTO). */
static void compare(const batch *b, const hb_plan_options *lo, int uniform, const char *name)
{
    char what[300];
    snprintf(what, sizeof what, "%s %s %lldx%lld %s%s", hb_test_precision_name(b->p), name,
             (long long)b->nsys, (long long)b->n, uniform ? "uniform" : "offsets",
             lo ? "" : " (default layout)");
    hb_plan_options os, orep;
    if (lo)
        os = *lo;
    else
        hb_plan_options_init(&os);
    orep = os;
    os.shared_couplings = 1;
    hb_plan *ps = NULL, *pr = NULL, *po = NULL;
    HB_CHECK_STATUS(create(b, &os, uniform, &ps), HB_SUCCESS);
    if (!ps)
        return;
    hb_plan_info in = hb_test_plan_info(ps);
    /* Per-system, or cell-group where asked for or AUTO takes it (GPUs,
     * few cells); a forced cell-group stays so unless its cell is past
     * local memory, which describe then says. */
    const hb_strategy asked = lo ? lo->strategy : HB_STRATEGY_AUTO;
    const int fell = asked == HB_STRATEGY_CELL_GROUP && in.strategy == HB_STRATEGY_PER_SYSTEM;
    HB_CHECK(in.shared_couplings == 1 && in.shared_tree &&
                 (in.strategy == HB_STRATEGY_PER_SYSTEM ||
                  in.strategy == HB_STRATEGY_CELL_GROUP) &&
                 (asked == HB_STRATEGY_AUTO || in.strategy == asked ||
                  (fell && strstr(hb_plan_describe(ps), "running per-system"))),
             "%s: info shared_couplings %d strategy %s (asked %s) shared_tree %d: %s", what,
             (int)in.shared_couplings, hb_strategy_name(in.strategy), hb_strategy_name(asked),
             (int)in.shared_tree, hb_plan_describe(ps));
    HB_CHECK(lo == NULL || lo->layout == HB_LAYOUT_AUTO || in.layout == lo->layout,
             "%s: layout %s, asked for %s", what, hb_layout_name(in.layout),
             hb_layout_name(lo->layout));
    /* Cell-group keeps d and rhs alone on chip (and the schedule where it
     * stages it): two arrays of the cell's rows, not four. */
    if (in.strategy == HB_STRATEGY_CELL_GROUP) {
        const int64_t two = 2 * b->n * (int64_t)hb_test_esize(b->p);
        const int64_t sched = (int64_t)(HB_CELL_SCHED_WORDS(b->n) * sizeof(int32_t));
        HB_CHECK(in.local_bytes == two || in.local_bytes == two + sched,
                 "%s: cell-group local bytes %lld, not two arrays of %lld rows (%lld, or %lld "
                 "with the schedule)",
                 what, (long long)in.local_bytes, (long long)b->n, (long long)two,
                 (long long)(two + sched));
    }
    /* The repeated plan runs what the shared one runs. */
    orep.strategy = in.strategy;
    orep.layout = in.layout;
    orep.group_size = in.strategy == HB_STRATEGY_CELL_GROUP ? in.group_size : orep.group_size;
    HB_CHECK_STATUS(create(b, &orep, uniform, &pr), HB_SUCCESS);
    if (!pr) {
        hb_plan_destroy(ps);
        return;
    }
    HB_CHECK(strstr(hb_plan_describe(ps), "couplings=shared") != NULL,
             "%s: describe does not say couplings=shared: %s", what, hb_plan_describe(ps));
    HB_CHECK(hb_test_plan_info(pr).shared_couplings == 0, "%s: the repeated plan says shared",
             what);
    /* The oracle: per-system in the flat layout, couplings repeated. */
    hb_plan_options oo;
    hb_plan_options_init(&oo);
    oo.layout = HB_LAYOUT_FLAT;
    HB_CHECK_STATUS(hb_plan_create_hines(oracle, b->p, b->nsys, b->off, b->par, &oo, &po),
                    HB_SUCCESS);
    const int64_t N = b->nsys * b->n;
    void *d2 = hb_test_alloc(b->p, N + 1), *r2 = hb_test_alloc(b->p, N + 1);
    for (int64_t k = 0; k < N; ++k) {
        /* A new step: the diagonal moves a little (stays dominant), a new rhs. */
        const double dk = hb_test_get(b->p, b->d, k);
        hb_test_put(b->p, d2, k, dk * (1.0 + 0.25 * hb_test_unit()));
        hb_test_put(b->p, r2, k, 2.0 * hb_test_unit() - 1.0);
    }
    for (int step = 0; step < 2 && po; ++step) {
        const void *d = step ? d2 : b->d, *rhs = step ? r2 : b->rhs;
        char sw[340];
        snprintf(sw, sizeof sw, "%s step %d", what, step);
        void *xs = solve(ps, b, 1, d, rhs, step == 0, sw);
        void *xr = solve(pr, b, 0, d, rhs, step == 0, sw);
        void *xo = solve(po, b, 0, d, rhs, step == 0, sw);
        /* Per-system: one kernel, so bit-identical. Cell-group: two kernels
         * (couplings staged or read from global memory) doing the same
         * operations, which one compiler may still round apart (NVIDIA's
         * OpenCL on an H200: the neuron tree in double 1 ulp apart, and
         * with the fma-corrected factor up to 879 ulp after the matrix's
         * condition amplifies it; CUDA and PoCL: bit-identical): the
         * policy's "another order" tier between the two. */
        if (xs && xr && in.strategy == HB_STRATEGY_CELL_GROUP)
            hb_test_compare_to_oracle(hb_context_backend(ctx), 0, b->p, b->nsys, b->off, xs, xr,
                                      sw);
        else if (xs && xr)
            HB_CHECK(hb_test_bitequal(xs, xr, (size_t)N * hb_test_esize(b->p)),
                     "%s: shared couplings differ from the repeated ones (max rel %g)", sw,
                     hb_test_max_rel_diff(b->p, b->nsys, b->off, xs, xr));
        /* Cell-group back-substitutes by precomputed quotients where the
         * sweep divides: the policy's "another order" tier. */
        if (xs && xo)
            hb_test_compare_to_oracle(hb_context_backend(ctx),
                                      in.strategy != HB_STRATEGY_CELL_GROUP, b->p, b->nsys,
                                      b->off, xs, xo, sw);
        if (xs) {
            int64_t worst = -1;
            const double ratio = hb_test_hines_ratio(b->p, b->nsys, b->off, b->par, b->u, b->l, d,
                                                     xs, rhs, &worst);
            HB_CHECK(ratio < HB_TEST_RATIO_MAX, "%s: residual ratio %g (system %lld)", sw, ratio,
                     (long long)worst);
        }
        free(xs), free(xr), free(xo);
    }
    /* On the host the buffer is U itself: one system's n rows, in row order. */
    if (hb_test_on_host(ctx)) {
        void *h = NULL;
        HB_CHECK_STATUS(hb_plan_buffer(ps, HB_ARRAY_U, &h), HB_SUCCESS);
        HB_CHECK(h && hb_test_bitequal(h, b->u1, (size_t)b->n * hb_test_esize(b->p)),
                 "%s: hb_plan_buffer(U) is not the n couplings set", what);
    }
    free(d2), free(r2);
    hb_plan_destroy(ps), hb_plan_destroy(pr), hb_plan_destroy(po);
}

/* Whether the backend has the cell-group solver (the host backends refuse
 * it by name). */
static int has_cell_group(void)
{
    const int32_t tree[3] = {-1, 0, 0};
    hb_plan_options o;
    hb_plan_options_init(&o);
    o.strategy = HB_STRATEGY_CELL_GROUP;
    o.shared_couplings = 1;
    hb_plan *plan = NULL;
    const hb_status st = hb_plan_create_hines_uniform(ctx, HB_DOUBLE, 2, 3, tree, &o, &plan);
    hb_plan_destroy(plan);
    if (st == HB_ERR_BACKEND_UNAVAILABLE)
        HB_CHECK(hb_test_on_host(ctx) && strstr(hb_last_error(), "cell-group"),
                 "a GPU backend lacks the cell-group solver: %s", hb_last_error());
    else
        HB_CHECK_STATUS(st, HB_SUCCESS);
    return st == HB_SUCCESS;
}

static hb_plan_options cell_options(int32_t group)
{
    hb_plan_options o;
    hb_plan_options_init(&o);
    o.strategy = HB_STRATEGY_CELL_GROUP;
    o.group_size = group;
    return o;
}

/* The whole batch (every coupling, diagonal and right-hand side) times s:
 * the same solutions, with every value near the precision's range's ends. */
static void batch_scale(batch *b, double s)
{
    void *arrays[] = {b->u1, b->l1, b->u, b->l, b->d, b->rhs};
    const int64_t len[] = {b->n, b->n, b->nsys * b->n, b->nsys * b->n, b->nsys * b->n,
                           b->nsys * b->n};
    for (int a = 0; a < 6; ++a)
        for (int64_t i = 0; i < len[a]; ++i)
            hb_test_put(b->p, arrays[a], i, hb_test_get(b->p, arrays[a], i) * s);
}

/* The cell-group solver with shared couplings: forced at the rule's group
 * and at fixed ones (32, and 96, not a power of two); then the batch scaled
 * to near the precision's smallest and largest values (the rule's group);
 * the scaling is undone after. Its fall-back to per-system for cells past
 * local memory: cell_group_fallback (compare checks describe's reason). */
static void cell_group(batch *b, const char *name)
{
    const int32_t groups[] = {0, 32, 96};
    for (size_t g = 0; g < sizeof groups / sizeof groups[0]; ++g) {
        const hb_plan_options o = cell_options(groups[g]);
        char nc[160];
        snprintf(nc, sizeof nc, "%s cell-group(group %d)", name, (int)groups[g]);
        compare(b, &o, (int)(g % 2), nc);
    }
    /* Powers of two: the scaling and its undoing are exact. */
    const double scales[2] = {b->p == HB_DOUBLE ? 0x1p-990 : 0x1p-100,
                              b->p == HB_DOUBLE ? 0x1p990 : 0x1p100};
    for (int k = 0; k < 2; ++k) {
        batch_scale(b, scales[k]);
        const hb_plan_options o = cell_options(0);
        char nc[160];
        snprintf(nc, sizeof nc, "%s cell-group scaled by %g", name, scales[k]);
        compare(b, &o, k, nc);
        batch_scale(b, 1.0 / scales[k]);
    }
}

static void cell_group_fallback(hb_precision p)
{
    const int64_t n = hb_test_cell_fallback_rows(ctx, p, 1, HB_STRATEGY_PER_SYSTEM);
    HB_CHECK(n > 0, "%s: no cell up to 2^22 rows fell back to per-system",
             hb_test_precision_name(p));
    if (n <= 0)
        return;
    batch b;
    batch_make(&b, p, 2, n, HB_TREE_RANDOM);
    const hb_plan_options o = cell_options(0);
    compare(&b, &o, 0, "cell-group past local memory");
    batch_free(&b);
}

/* Bad uses fail with the right code and message, leaving the output alone. */
static void refusals(hb_precision p)
{
    batch b;
    batch_make(&b, p, 6, 40, HB_TREE_RANDOM);
    hb_plan_options o;
    hb_plan *sentinel = (hb_plan *)&o, *plan = sentinel;
    hb_plan_options_init(&o);
    o.shared_couplings = 2;
    HB_CHECK_STATUS(create(&b, &o, 1, &plan), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK(plan == sentinel && strstr(hb_last_error(), "shared_couplings = 2"),
             "value 2: output written or message '%s'", hb_last_error());
    o.shared_couplings = 1;
    /* Tridiagonal plans have no couplings. */
    HB_CHECK_STATUS(hb_plan_create_tridiag_uniform(ctx, p, 6, 40, &o, &plan),
                    HB_ERR_INVALID_ARGUMENT);
    HB_CHECK(plan == sentinel && strstr(hb_last_error(), "Hines plans"),
             "tridiagonal: output written or message '%s'", hb_last_error());
    /* Another strategy asked for. */
    const hb_strategy others[] = {HB_STRATEGY_BRANCH_LEVEL, HB_STRATEGY_FINE_TREE,
                                  HB_STRATEGY_COOPERATIVE};
    for (size_t k = 0; k < sizeof others / sizeof others[0]; ++k) {
        o.strategy = others[k];
        HB_CHECK_STATUS(create(&b, &o, 1, &plan), HB_ERR_INVALID_ARGUMENT);
        HB_CHECK(plan == sentinel && strstr(hb_last_error(), hb_strategy_name(others[k])),
                 "strategy %s: output written or message '%s'", hb_strategy_name(others[k]),
                 hb_last_error());
    }
    o.strategy = HB_STRATEGY_AUTO;
    /* Systems of another tree, or another size: the error names the system. */
    const int64_t s = hb_test_range(1, b.nsys - 1);
    const int64_t i = hb_test_range(2, b.n - 1);
    const int32_t keep = b.par[s * b.n + i];
    b.par[s * b.n + i] = keep == 0 ? 1 : 0;
    HB_CHECK_STATUS(create(&b, &o, 0, &plan), HB_ERR_INVALID_ARGUMENT);
    char sys[64];
    snprintf(sys, sizeof sys, "system %lld has other parents", (long long)s);
    HB_CHECK(plan == sentinel && strstr(hb_last_error(), sys),
             "another tree: output written or message '%s' (wanted '%s')", hb_last_error(), sys);
    b.par[s * b.n + i] = keep;
    int64_t *off = hb_test_offsets_uniform(b.nsys, b.n);
    off[b.nsys] -= 1; /* the last system one row shorter */
    HB_CHECK_STATUS(hb_plan_create_hines(ctx, p, b.nsys, off, b.par, &o, &plan),
                    HB_ERR_INVALID_ARGUMENT);
    snprintf(sys, sizeof sys, "system %lld has another number of rows", (long long)(b.nsys - 1));
    HB_CHECK(plan == sentinel && strstr(hb_last_error(), sys),
             "another size: output written or message '%s'", hb_last_error());
    free(off);
    /* A non-finite coupling is named by its row; the plan keeps the couplings
     * it had, so the next solve gives the same solution. */
    plan = NULL;
    HB_CHECK_STATUS(create(&b, &o, 1, &plan), HB_SUCCESS);
    if (plan) {
        void *x0 = solve(plan, &b, 1, b.d, b.rhs, 1, "before the bad set");
        void *bad = hb_test_alloc(p, b.n);
        memcpy(bad, b.u1, (size_t)b.n * hb_test_esize(p));
        const int64_t row = hb_test_range(1, b.n - 1);
        hb_test_put(p, bad, row, NAN);
        HB_CHECK_STATUS(hb_plan_set(plan, HB_ARRAY_U, bad), HB_ERR_NUMERICAL);
        snprintf(sys, sizeof sys, "row %lld", (long long)row);
        HB_CHECK(strstr(hb_last_error(), sys) != NULL, "NaN coupling: message '%s' (wanted '%s')",
                 hb_last_error(), sys);
        void *x1 = solve(plan, &b, 1, b.d, b.rhs, 0, "after the bad set");
        if (x0 && x1)
            HB_CHECK(hb_test_bitequal(x0, x1, (size_t)(b.nsys * b.n) * hb_test_esize(p)),
                     "a refused set changed the plan's couplings");
        free(x0), free(x1), free(bad);
        hb_plan_destroy(plan);
    }
    /* HINESBATCH_STRATEGY forces other strategies; here it does not apply,
     * and describe says so (main saved the suite's settings once). */
    setenv("HINESBATCH_STRATEGY", "fine-tree", 1);
    plan = NULL;
    HB_CHECK_STATUS(create(&b, &o, 1, &plan), HB_SUCCESS);
    if (plan)
        HB_CHECK((hb_test_plan_info(plan).strategy == HB_STRATEGY_PER_SYSTEM ||
                  hb_test_plan_info(plan).strategy == HB_STRATEGY_CELL_GROUP) &&
                     strstr(hb_plan_describe(plan), "HINESBATCH_STRATEGY not applied"),
                 "forced fine-tree: %s", hb_plan_describe(plan));
    hb_plan_destroy(plan);
    hb_test_env_restore();
    batch_free(&b);
}

int main(void)
{
    hb_test_begin("test_shared_couplings");
    ctx = hb_test_context();
    oracle = hb_test_oracle();
    hb_test_env_save(); /* refusals() changes HINESBATCH_STRATEGY and puts it back */
    const int cells = has_cell_group();
    const struct {
        int64_t           nsys, n;
        hb_test_tree_kind kind;
    } shapes[] = {{37, 300, HB_TREE_RANDOM}, {5, 2000, HB_TREE_NEURON}, {64, 63, HB_TREE_BINARY},
                  {1, 1, HB_TREE_CHAIN},     {300, 17, HB_TREE_STAR}};
    for (int ip = 0; ip < 2; ++ip) {
        const hb_precision p = ip ? HB_FLOAT : HB_DOUBLE;
        for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; ++k) {
            batch b;
            batch_make(&b, p, shapes[k].nsys, shapes[k].n, shapes[k].kind);
            char name[64];
            snprintf(name, sizeof name, "%s", hb_test_tree_name(shapes[k].kind));
            compare(&b, NULL, (int)(k % 2), name);
            for (int il = 0; il < hb_test_nlayouts; ++il) {
                const hb_plan_options lo = hb_test_layout_options(&hb_test_layouts[il]);
                char nl[160];
                snprintf(nl, sizeof nl, "%s %s", name, hb_test_layout_name(&hb_test_layouts[il]));
                compare(&b, &lo, (int)((k + (size_t)il) % 2), nl);
            }
            if (cells)
                cell_group(&b, name);
            batch_free(&b);
        }
        if (cells)
            cell_group_fallback(p);
        refusals(p);
    }
    hb_context_destroy(oracle);
    hb_context_destroy(ctx);
    hb_test_env_free();
    return hb_test_finish();
}
