/* test_cell_group.c: the cell-group Hines solver (HB_STRATEGY_CELL_GROUP, one work-group per cell) forced and under AUTO on trees of every shape, shared and mixed, uniform and variable, both precisions, badly scaled and near-singular, the shipped neurons, and its fall-back to the fine tree for cells too large for local memory; against the serial oracle. */
#define _POSIX_C_SOURCE 200809L
#include "hb_oracle_runner.h"

#include "hinesbatch_morph.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef HB_DATA_DIR
#error "HB_DATA_DIR must name the data directory (tests/CMakeLists.txt sets it)"
#endif

/* Every tree kind shared by all cells, mixed trees, single-node cells, cells
 * around the group sizes, and a long chain (levels = rows). */
static const hb_oracle_shape shapes[] = {
    {"shared chain 9x300", 9, 300, 300, HB_TREE_CHAIN},
    {"shared star 9x300", 9, 300, 300, HB_TREE_STAR},
    {"shared binary 9x255", 9, 255, 255, HB_TREE_BINARY},
    {"shared random 9x300", 9, 300, 300, HB_TREE_RANDOM},
    {"shared neuron 4x1500", 4, 1500, 1500, HB_TREE_NEURON},
    {"single-node cells 50x1", 50, 1, 1, HB_TREE_CHAIN},
    {"two-node cells 20x2", 20, 2, 2, HB_TREE_CHAIN},
    {"mixed trees 30x200", 30, 200, 200, HB_TREE_KINDS},
    {"mixed 24 of 1..2000 rows", 24, 1, 2000, HB_TREE_KINDS},
    {"mixed 200 of 1..64 rows", 200, 1, 64, HB_TREE_KINDS},
};
/* 0: the library's rule; then fixed sizes, one not a power of two. */
static const int32_t groups[] = {0, 1, 32, 96};

static hb_plan_options cell_options(int32_t group)
{
    hb_plan_options o;
    hb_plan_options_init(&o);
    o.strategy = HB_STRATEGY_CELL_GROUP;
    o.group_size = group;
    return o;
}

/* A forced solve through hb_oracle_plan: its info, residual ratios, and the
 * oracle under the policy's "another order" tier (the elimination is the
 * serial sweep's, operation for operation; back-substitution multiplies by
 * precomputed quotients where the sweep divides). */
static void forced(hb_context *ctx, const hb_oracle_batch *bt, int32_t group, int uni,
                   const char *what)
{
    hb_plan_options o = cell_options(group);
    hb_oracle_plan(ctx, bt, &o, uni, NULL, what);
}

/* The same with runs cut into chains of at most `chain` nodes (1: a level
 * per node height, as the simulation's epoch never runs; INT32_MAX: whole
 * runs, as it does). */
static const int32_t chains[] = {1, 3, INT32_MAX};
static void forced_chain(hb_context *ctx, const hb_oracle_batch *bt, int32_t chain,
                         const char *what)
{
    hb_plan_options o = cell_options(0);
    o.cell_chain = chain;
    hb_oracle_plan(ctx, bt, &o, 0, NULL, what);
}

/* Diagonally dominant cable-like values; rows scaled by 10^k, k in [-kmax,
 * kmax] (row k of A: d[k], l[k], and u[c] of each child c), or, with weak,
 * a diagonal barely over the off-diagonal sum (near-singular). */
static void hard_batch(hb_oracle_batch *bt, hb_precision p, int64_t nsys, int64_t lo, int64_t hi,
                       int kmax, int weak)
{
    int64_t *off = hb_test_offsets_random(nsys, lo, hi);
    int32_t *parent = hb_test_xalloc((size_t)off[nsys] * sizeof *parent);
    for (int64_t s = 0; s < nsys; ++s)
        hb_test_tree(parent + off[s], off[s + 1] - off[s],
                     (hb_test_tree_kind)hb_test_range(0, HB_TREE_KINDS - 1));
    hb_oracle_init(bt, &hb_oracle_hines, p, nsys, off, parent, NULL, NULL, NULL, NULL);
    const int64_t nr = off[nsys];
    double *u = hb_test_xalloc((size_t)nr * sizeof *u), *l = hb_test_xalloc((size_t)nr * sizeof *l);
    double *d = hb_test_xalloc((size_t)nr * sizeof *d), *f = hb_test_xalloc((size_t)nr * sizeof *f);
    for (int64_t k = 0; k < nr; ++k) {
        u[k] = l[k] = d[k] = 0;
        f[k] = pow(10.0, (double)hb_test_range(-kmax, kmax));
    }
    for (int64_t s = 0; s < nsys; ++s)
        for (int64_t k = off[s] + 1; k < off[s + 1]; ++k) {
            u[k] = 2 * hb_test_unit() - 1;
            l[k] = 2 * hb_test_unit() - 1;
        }
    /* Row sums of |off-diagonals|: row k holds l[k] and u[c] of children. */
    for (int64_t s = 0; s < nsys; ++s)
        for (int64_t k = off[s] + 1; k < off[s + 1]; ++k) {
            d[k] += fabs(l[k]);
            d[off[s] + parent[k]] += fabs(u[k]);
        }
    for (int64_t s = 0; s < nsys; ++s)
        for (int64_t k = off[s]; k < off[s + 1]; ++k) {
            double margin = weak ? 1e-3 * d[k] + 1e-12 : 0.5 + hb_test_unit();
            d[k] = (d[k] + margin) * (hb_test_unit() < 0.5 ? -1 : 1);
        }
    for (int64_t s = 0; s < nsys; ++s)
        for (int64_t k = off[s]; k < off[s + 1]; ++k) {
            const double fk = f[k];
            hb_test_put(p, bt->m[1], k, l[k] * fk);
            hb_test_put(p, bt->m[2], k, d[k] * fk);
            hb_test_put(p, bt->rhs, k, (2 * hb_test_unit() - 1) * fk);
            /* u[k] sits in row parent(k). */
            hb_test_put(p, bt->m[0], k, k > off[s] ? u[k] * f[off[s] + parent[k]] : 0);
        }
    free(u);
    free(l);
    free(d);
    free(f);
    free(off);
    free(parent);
}

/* More cells than a GPU holds at once with the schedule staged (3,000 of 200
 * to 400 rows: a few hundred per device at most), forced (the rule's group
 * size, and 32 work-items) and under AUTO. With 32 work-items registers
 * never bind, so on CUDA the plan reads the schedule from global memory
 * (cell_staged in api/core/plan.c: half the local memory, more cells per
 * SM); with 256 an SM's registers already cap the cells it holds, and the
 * schedule stays staged. NVIDIA's OpenCL estimates the same
 * (backend_opencl/occupancy.c); other OpenCL devices, with no occupancy
 * query (the backend's refuses), read it from global memory past 16 cells
 * per compute unit and stage it below (PoCL here: both sizes of 3,000
 * cells from global memory, 4 cells staged). */
static void many(hb_context *ctx, hb_context *oracle, hb_precision p)
{
    const int cuda = hb_context_backend(ctx) == HB_BACKEND_CUDA;
    const int nv_ocl = hb_context_backend(ctx) == HB_BACKEND_OPENCL &&
                       strstr(hb_context_describe(ctx), "NVIDIA") != NULL;
    const int ocl_rule = hb_context_backend(ctx) == HB_BACKEND_OPENCL && !nv_ocl;
    hb_oracle_batch bt;
    hard_batch(&bt, p, 3000, 200, 400, 0, 0);
    char name[200], what[300];
    snprintf(name, sizeof name, "%s 3,000 cells of 200 to 400 rows", hb_test_precision_name(p));
    hb_oracle_reference(&bt, oracle, NULL, name);
    const int32_t groups[2] = {0, 32};
    for (int g = 0; g < 2; ++g) {
        snprintf(what, sizeof what, "cell-group(group %d) %s", (int)groups[g], name);
        forced(ctx, &bt, groups[g], 0, what);
        hb_plan_options o = cell_options(groups[g]);
        hb_plan *plan = NULL;
        if (hb_oracle_plan_create(ctx, &bt, &o, 0, &plan) != HB_SUCCESS)
            continue;
        const char *ds = hb_plan_describe(plan);
        printf("%s: %s\n", what, ds);
        if ((groups[g] == 32 && (cuda || nv_ocl)) || ocl_rule)
            HB_CHECK(strstr(ds, "schedule read from global memory") != NULL,
                     "%s: the schedule should be read from global memory: %s", what, ds);
        hb_plan_destroy(plan);
    }
    snprintf(what, sizeof what, "auto %s", name);
    hb_oracle_plan(ctx, &bt, NULL, 0, NULL, what);
    hb_oracle_free(&bt);
    /* Without the query, a batch within 16 cells per compute unit (4 cells
     * here) keeps its schedule staged where it fits. */
    if (ocl_rule) {
        hard_batch(&bt, p, 4, 200, 400, 0, 0);
        hb_plan_options o = cell_options(0);
        hb_plan *plan = NULL;
        if (hb_oracle_plan_create(ctx, &bt, &o, 0, &plan) == HB_SUCCESS) {
            const char *ds = hb_plan_describe(plan);
            printf("4 cells of 200 to 400 rows: %s\n", ds);
            HB_CHECK(strstr(ds, "schedule read from global memory") == NULL,
                     "4 cells: the schedule should stay staged: %s", ds);
            hb_plan_destroy(plan);
        }
        hb_oracle_free(&bt);
    }
}

static void refusals(hb_context *ctx)
{
    hb_plan *plan = NULL;
    hb_plan_options o = cell_options(0);
    const int32_t parent[3] = {-1, 0, 0};
    /* Only the flat layout. */
    const hb_layout bad[] = {HB_LAYOUT_INTERLEAVED, HB_LAYOUT_BLOCK_INTERLEAVED,
                             HB_LAYOUT_BLOCK_SHARED};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        o.layout = bad[i];
        HB_CHECK_STATUS(hb_plan_create_hines_uniform(ctx, HB_DOUBLE, 4, 3, parent, &o, &plan),
                        HB_ERR_INVALID_ARGUMENT);
        HB_CHECK(strstr(hb_last_error(), "cell-group") && strstr(hb_last_error(), "layout"),
                 "the message names the layout and the strategy: %s", hb_last_error());
        HB_CHECK(plan == NULL, "plan written on failure");
    }
    /* A negative cell_chain, named. */
    o = cell_options(0);
    o.cell_chain = -1;
    HB_CHECK_STATUS(hb_plan_create_hines_uniform(ctx, HB_DOUBLE, 4, 3, parent, &o, &plan),
                    HB_ERR_INVALID_ARGUMENT);
    HB_CHECK(strstr(hb_last_error(), "cell_chain") != NULL, "message: %s", hb_last_error());
    HB_CHECK(plan == NULL, "plan written on failure");
    /* Not for tridiagonal plans. */
    o = cell_options(0);
    HB_CHECK_STATUS(hb_plan_create_tridiag_uniform(ctx, HB_DOUBLE, 4, 100, &o, &plan),
                    HB_ERR_INVALID_ARGUMENT);
    HB_CHECK(strstr(hb_last_error(), "cell-group") != NULL, "message: %s", hb_last_error());
    /* The name, both ways. */
    hb_strategy st = HB_STRATEGY_AUTO;
    HB_CHECK_STATUS(hb_strategy_from_name("Cell-Group", &st), HB_SUCCESS);
    HB_CHECK(st == HB_STRATEGY_CELL_GROUP, "from_name gave %d", (int)st);
    HB_CHECK(strcmp(hb_strategy_name(HB_STRATEGY_CELL_GROUP), "cell-group") == 0, "name %s",
             hb_strategy_name(HB_STRATEGY_CELL_GROUP));
}

/* nlevels counts elimination levels, the trunk (the path from the root down
 * which every height has one node, at most 64 of it) counting as one: a
 * level per chain level below the trunk (a chain: an unbranched run off it,
 * walked by one work-item; level 0 where it ends in a leaf, else one above
 * its bottom's children's). A chain of n <= 64 rows is all trunk: 1; a chain
 * of 100 keeps 36 nodes below a trunk of 64, in whole runs one chain: 2 (66
 * too, in chains of any length). A star's
 * trunk is its root, its leaves one level: 2; in a complete binary tree of
 * 2^k - 1 rows every node below the root is a chain of its own, of its
 * height: k - 1 levels, then 1. Runs cut at cell_chain nodes take a level
 * per piece: the chain of 100 at 10, pieces of 10, 10, 10 and 6: 5; at 1 a
 * level per node height: 37. A mixed batch reports its tallest tree. */
static void levels(hb_context *ctx)
{
    const struct {
        hb_test_tree_kind kind;
        int64_t n, want;
        int32_t chain;
    } cases[] = {{HB_TREE_CHAIN, 1, 1, 0},    {HB_TREE_CHAIN, 2, 1, 0},
                 {HB_TREE_CHAIN, 100, 2, INT32_MAX}, {HB_TREE_CHAIN, 64, 1, 0},
                 {HB_TREE_CHAIN, 66, 2, 0},   {HB_TREE_STAR, 100, 2, 0},
                 {HB_TREE_BINARY, 255, 8, 0}, {HB_TREE_BINARY, 3, 2, 0},
                 {HB_TREE_CHAIN, 100, 5, 10}, {HB_TREE_CHAIN, 100, 37, 1},
                 {HB_TREE_CHAIN, 100, 2, 36}, {HB_TREE_BINARY, 255, 8, 1}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        const int64_t n = cases[i].n;
        int32_t *parent = hb_test_xalloc((size_t)(2 * n + 1) * sizeof *parent);
        hb_test_tree(parent, n, cases[i].kind);
        hb_plan_options o = cell_options(0);
        o.cell_chain = cases[i].chain;
        hb_plan *plan = NULL;
        HB_CHECK_STATUS(hb_plan_create_hines_uniform(ctx, HB_DOUBLE, 3, n, parent, &o, &plan),
                        HB_SUCCESS);
        if (plan)
            HB_CHECK(hb_test_plan_info(plan).nlevels == cases[i].want,
                     "%s tree of %lld rows, chains of %d: %lld elimination levels, want %lld (%s)",
                     hb_test_tree_name(cases[i].kind), (long long)n, (int)cases[i].chain,
                     (long long)hb_test_plan_info(plan).nlevels, (long long)cases[i].want,
                     hb_plan_describe(plan));
        hb_plan_destroy(plan);
        /* With a one-row cell beside it, in a mixed batch: the same. */
        const int64_t off[3] = {0, n, n + 1};
        parent[n] = -1;
        HB_CHECK_STATUS(hb_plan_create_hines(ctx, HB_DOUBLE, 2, off, parent, &o, &plan),
                        HB_SUCCESS);
        if (plan)
            HB_CHECK(hb_test_plan_info(plan).nlevels == cases[i].want,
                     "%s tree of %lld rows and a single node: %lld levels, want %lld",
                     hb_test_tree_name(cases[i].kind), (long long)n,
                     (long long)hb_test_plan_info(plan).nlevels, (long long)cases[i].want);
        hb_plan_destroy(plan);
        free(parent);
    }
}

/* An empty batch: every call succeeds and does nothing. */
static void empty(hb_context *ctx)
{
    const int64_t off[1] = {0};
    const int32_t par[1] = {-1};
    double v[1] = {1};
    hb_plan_options o = cell_options(0);
    hb_plan *plan = NULL;
    HB_CHECK_STATUS(hb_plan_create_hines(ctx, HB_DOUBLE, 0, off, par, &o, &plan), HB_SUCCESS);
    if (!plan)
        return;
    HB_CHECK(hb_test_plan_info(plan).strategy == HB_STRATEGY_CELL_GROUP, "empty plan: %s",
             hb_plan_describe(plan));
    const hb_array arrays[] = {HB_ARRAY_U, HB_ARRAY_L, HB_ARRAY_D, HB_ARRAY_RHS};
    for (int i = 0; i < 4; ++i)
        HB_CHECK_STATUS(hb_plan_set(plan, arrays[i], v), HB_SUCCESS);
    HB_CHECK_STATUS(hb_plan_solve(plan), HB_SUCCESS);
    HB_CHECK_STATUS(hb_plan_get_solution(plan, v), HB_SUCCESS);
    HB_CHECK(v[0] == 1, "an empty solve wrote the output");
    hb_plan_destroy(plan);
}

/* Cells too large for local memory: the forced strategy runs the fine tree,
 * says why in hb_plan_describe (hb_oracle_plan checks it), and solves. */
static void fallback(hb_context *ctx, hb_context *oracle, hb_precision p)
{
    const int64_t n = hb_test_cell_fallback_rows(ctx, p, 0, HB_STRATEGY_FINE_TREE);
    HB_CHECK(n > 0, "%s: no cell up to 2^22 rows fell back to the fine tree",
             hb_test_precision_name(p));
    if (n <= 0)
        return;
    const hb_oracle_shape sh = {"cells past local memory", 3, n, n, HB_TREE_NEURON};
    hb_oracle_batch bt;
    hb_oracle_make(&bt, &hb_oracle_hines, p, &sh, 1.0);
    char name[160];
    snprintf(name, sizeof name, "%s 3 neuron cells of %lld rows (fall-back)",
             hb_test_precision_name(p), (long long)n);
    hb_oracle_reference(&bt, oracle, NULL, name);
    hb_plan_options o = cell_options(0);
    hb_oracle_plan(ctx, &bt, &o, 0, NULL, name);
    hb_plan *plan = NULL;
    if (hb_oracle_plan_create(ctx, &bt, &o, 0, &plan) == HB_SUCCESS) {
        const char *desc = hb_plan_describe(plan);
        printf("%s: %s\n", name, desc);
        HB_CHECK(strstr(desc, "strategy=fine-tree") && strstr(desc, "cell-group: a cell of") &&
                     strstr(desc, "local memory"),
                 "%s: describe does not give the fall-back and its reason: %s", name, desc);
        hb_plan_destroy(plan);
    }
    hb_oracle_free(&bt);
}

/* The shipped neurons (SECTION-free defaults: one compartment per sample)
 * as one mixed batch, 3 copies each, and the CA1 cell alone as a shared
 * tree of 64 copies; cable matrices at dt = 0.025 ms. */
static void shipped(hb_context *ctx, hb_context *oracle)
{
    const char *files[] = {"nrn__c91662.swc",        "arbor__pyramidal.swc",
                           "jaxley__morph_ca1_n120.swc", "jaxley__morph_l5pc_with_axon.swc",
                           "jaxley__morph_minimal.swc",  "netpyne__BS0284.swc",
                           "jaxley__morph_ca1_n120_250.swc"};
    const int nf = (int)(sizeof files / sizeof files[0]);
    hb_morph_cell *cells[8] = {NULL};
    hb_morph_cell_view v[8];
    for (int i = 0; i < nf; ++i) {
        char path[600];
        snprintf(path, sizeof path, "%s/morphologies/%s", HB_DATA_DIR, files[i]);
        hb_morph *m = NULL;
        HB_CHECK_STATUS(hb_morph_read_swc(path, NULL, &m), HB_SUCCESS);
        if (m)
            HB_CHECK_STATUS(hb_morph_cell_create(m, NULL, NULL, &cells[i]), HB_SUCCESS);
        hb_morph_destroy(m);
        if (!cells[i])
            goto out;
        HB_CHECK_STATUS(hb_morph_cell_get_view(cells[i], &v[i]), HB_SUCCESS);
    }
    for (int mix = 0; mix < 2; ++mix) {
        const int copies = mix ? 3 : 64, kinds = mix ? nf : 1;
        const int64_t nsys = (int64_t)copies * kinds;
        int64_t *off = hb_test_xalloc((size_t)(nsys + 1) * sizeof *off);
        off[0] = 0;
        for (int64_t s = 0; s < nsys; ++s)
            off[s + 1] = off[s] + v[s % kinds].n;
        int32_t *parent = hb_test_xalloc((size_t)off[nsys] * sizeof *parent);
        double *d = hb_test_xalloc((size_t)off[nsys] * sizeof *d);
        double *u = hb_test_xalloc((size_t)off[nsys] * sizeof *u);
        double *l = hb_test_xalloc((size_t)off[nsys] * sizeof *l);
        for (int64_t s = 0; s < nsys; ++s) {
            const int c = (int)(s % kinds);
            memcpy(parent + off[s], v[c].parent, (size_t)v[c].n * sizeof *parent);
            HB_CHECK_STATUS(hb_morph_cell_matrix(cells[c], 0.025, d + off[s], u + off[s],
                                                 l + off[s]),
                            HB_SUCCESS);
        }
        for (int ip = 0; ip < 2; ++ip) {
            const hb_precision p = ip ? HB_FLOAT : HB_DOUBLE;
            hb_oracle_batch bt;
            hb_oracle_init(&bt, &hb_oracle_hines, p, nsys, off, parent, NULL, NULL, NULL, NULL);
            for (int64_t k = 0; k < off[nsys]; ++k) {
                hb_test_put(p, bt.m[0], k, u[k]);
                hb_test_put(p, bt.m[1], k, l[k]);
                hb_test_put(p, bt.m[2], k, d[k]);
                hb_test_put(p, bt.rhs, k, 2 * hb_test_unit() - 1);
            }
            char name[200];
            snprintf(name, sizeof name, "%s %s", hb_test_precision_name(p),
                     mix ? "shipped neurons, 3 of each (mixed trees)"
                         : "64 copies of the CA1 cell nrn__c91662");
            hb_oracle_reference(&bt, oracle, NULL, name);
            char what[300];
            snprintf(what, sizeof what, "cell-group %s", name);
            forced(ctx, &bt, 0, 0, what);
            snprintf(what, sizeof what, "auto %s", name);
            hb_oracle_plan(ctx, &bt, NULL, 0, NULL, what);
            hb_oracle_free(&bt);
        }
        free(off);
        free(parent);
        free(d);
        free(u);
        free(l);
    }
out:
    for (int i = 0; i < nf; ++i)
        hb_morph_cell_destroy(cells[i]);
}

int main(void)
{
    hb_test_begin("test_cell_group");
    hb_context *ctx = hb_test_context(), *oracle = hb_test_oracle();
    refusals(ctx);
    /* A backend without the solver refuses it by name (the host backends). */
    const int32_t tree[3] = {-1, 0, 0};
    hb_plan *probe = NULL;
    hb_plan_options po = cell_options(0);
    hb_status ps = hb_plan_create_hines_uniform(ctx, HB_DOUBLE, 2, 3, tree, &po, &probe);
    hb_plan_destroy(probe);
    if (ps == HB_ERR_BACKEND_UNAVAILABLE) {
        HB_CHECK(hb_test_on_host(ctx), "a GPU backend lacks the cell-group solver: %s",
                 hb_last_error());
        HB_CHECK(strstr(hb_last_error(), "cell-group") != NULL, "message: %s", hb_last_error());
        hb_context_destroy(oracle);
        hb_context_destroy(ctx);
        return hb_test_finish();
    }
    HB_CHECK_STATUS(ps, HB_SUCCESS);
    levels(ctx);
    empty(ctx);

    for (int ip = 0; ip < 2; ++ip) {
        const hb_precision p = ip ? HB_FLOAT : HB_DOUBLE;
        const double scales[3] = {1.0, p == HB_DOUBLE ? 1e-300 : 1e-30,
                                  p == HB_DOUBLE ? 1e300 : 1e30};
        for (size_t j = 0; j < sizeof shapes / sizeof shapes[0]; ++j) {
            for (int k = 0; k < 3; ++k) {
                const hb_oracle_shape *sh = &shapes[j];
                char name[200], what[300];
                snprintf(name, sizeof name, "%s %s scaled by %g", hb_test_precision_name(p),
                         sh->name, scales[k]);
                hb_oracle_batch bt;
                hb_oracle_make(&bt, &hb_oracle_hines, p, sh, scales[k]);
                hb_oracle_reference(&bt, oracle, NULL, name);
                for (size_t g = 0; g < sizeof groups / sizeof groups[0]; ++g) {
                    if (k && groups[g] != 0)
                        continue; /* scaled: the rule's group */
                    for (int uni = 0; uni <= bt.shared; ++uni) {
                        snprintf(what, sizeof what, "cell-group(group %d) %s%s", (int)groups[g],
                                 name, uni ? " (uniform create)" : "");
                        forced(ctx, &bt, groups[g], uni, what);
                    }
                }
                for (size_t c = 0; k == 0 && c < sizeof chains / sizeof chains[0]; ++c) {
                    snprintf(what, sizeof what, "cell-group(chain %d) %s", (int)chains[c], name);
                    forced_chain(ctx, &bt, chains[c], what);
                }
                if (k == 0) {
                    /* AUTO: whatever the rule picks on this device. */
                    snprintf(what, sizeof what, "auto %s", name);
                    hb_oracle_plan(ctx, &bt, NULL, 0, NULL, what);
                }
                hb_oracle_free(&bt);
            }
        }
        /* Rows scaled by up to 10^(+-kmax) against the oracle, then a
         * near-singular batch by residual only. */
        for (int weak = 0; weak < 2; ++weak) {
            hb_oracle_batch bt;
            hard_batch(&bt, p, 12, 1, 1500, weak ? 0 : p == HB_DOUBLE ? 12 : 4, weak);
            char name[200], what[300];
            snprintf(name, sizeof name, "%s %s", hb_test_precision_name(p),
                     weak ? "near-singular (weakly dominant) batch" : "badly row-scaled batch");
            hb_oracle_reference(&bt, oracle, NULL, name);
            snprintf(what, sizeof what, "cell-group %s", name);
            if (weak) {
                /* By residual only: the policy's difference bound is for
                 * well-conditioned systems. */
                hb_plan_options o = cell_options(0);
                hb_plan *plan = NULL;
                if (hb_oracle_plan_create(ctx, &bt, &o, 0, &plan) == HB_SUCCESS) {
                    void *x = hb_test_alloc(p, bt.nrows);
                    hb_oracle_plan_set(plan, &bt);
                    hb_oracle_plan_finish(plan, &bt, x);
                    int64_t worst = -1;
                    double r = hb_test_hines_ratio(p, bt.nsys, bt.off, bt.parent, bt.m[0],
                                                   bt.m[1], bt.m[2], x, bt.rhs, &worst);
                    HB_CHECK(r < HB_TEST_RATIO_MAX, "%s: residual ratio %g (system %lld)",
                             what, r, (long long)worst);
                    hb_plan_destroy(plan);
                    free(x);
                }
            } else {
                forced(ctx, &bt, 0, 0, what);
            }
            hb_oracle_free(&bt);
        }
        fallback(ctx, oracle, p);
        many(ctx, oracle, p);
    }
    shipped(ctx, oracle);
    hb_context_destroy(oracle);
    hb_context_destroy(ctx);
    return hb_test_finish();
}
