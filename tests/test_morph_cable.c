/* test_morph_cable.c: cable physics vs analytic, statistics, re-rooting, generators, batches. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hb_oracle_runner.h"

#define PI 3.14159265358979323846

/* Solves one system (double) on the backend under test, checked by residual
 * and against the oracle (hb_oracle_runner.c); the solution into x. */
static void solve_one(hb_context *ctx, hb_context *oracle, int64_t n, const int32_t *parent,
                      const double *u, const double *l, const double *d, const double *rhs,
                      double *x, const char *what)
{
    int64_t off[2] = {0, n};
    hb_oracle_batch bt;
    hb_oracle_init(&bt, &hb_oracle_hines, HB_DOUBLE, 1, off, parent, u, l, d, rhs);
    hb_oracle_reference(&bt, oracle, NULL, what);
    hb_oracle_oneshot(ctx, &bt, x, what);
    hb_oracle_free(&bt);
}

/* A sealed-end cylinder (length L, diameter diam) with current I (nA) injected
 * at x = 0: the steady state (dt = INFINITY) of the assembled system against
 *   V(x) = I r_a lambda cosh((L - x)/lambda) / sinh(L/lambda).
 * Returns the largest error relative to V(0). */
static double cable_error(hb_context *ctx, hb_context *oracle, hb_morph_policy policy, int nseg,
                          double L, double diam, double I, const hb_cable *cab)
{
    /* SAMPLE: nseg+1 samples (nodes at the samples); SECTION: 2 samples, nseg compartments. */
    int ns = policy == HB_POLICY_SAMPLE ? nseg + 1 : 2;
    size_t cap = (size_t)ns * 96 + 64;
    char *t = malloc(cap);
    size_t o = 0;
    for (int k = 0; k < ns; ++k)
        o += snprintf(t + o, cap - o, "%d 3 %.17g 0 0 %.17g %d\n", k + 1, L * k / (ns - 1),
                      diam / 2, k ? k : -1);
    hb_morph *m = NULL;
    hb_morph_cell *c = NULL;
    hb_discretize_options opt;
    hb_discretize_options_init(&opt);
    opt.policy = policy, opt.nseg = nseg;
    HB_CHECK_STATUS(hb_morph_parse_swc(t, o, "cable", NULL, &m), HB_SUCCESS);
    HB_CHECK_STATUS(hb_morph_cell_create(m, &opt, cab, &c), HB_SUCCESS);
    free(t);
    hb_morph_cell_view v;
    if (!c || hb_morph_cell_get_view(c, &v) != HB_SUCCESS) {
        hb_morph_destroy(m);
        return INFINITY;
    }
    int64_t n = v.n;
    double *d = malloc((size_t)n * sizeof *d), *u = malloc((size_t)n * sizeof *u);
    double *l = malloc((size_t)n * sizeof *l), *rhs = calloc((size_t)n, sizeof *rhs);
    double *x = malloc((size_t)n * sizeof *x);
    HB_CHECK_STATUS(hb_morph_cell_matrix(c, INFINITY, d, u, l), HB_SUCCESS);
    /* The injection point: the compartment nearest x = 0 (distance is from the root point). */
    int64_t at = 0;
    for (int64_t k = 0; k < n; ++k)
        if (v.distance[k] < v.distance[at])
            at = k;
    rhs[at] = I;
    hb_test_poison(HB_DOUBLE, x, n);
    solve_one(ctx, oracle, n, v.parent, u, l, d, rhs, x, "cable");
    /* Cable constants in cm: a radius, ra ohm*cm, rm = 1/gm ohm*cm^2. */
    double a = diam / 2 * 1e-4, lambda = sqrt(a / (2 * cab->ra * cab->gm)); /* cm */
    double r_a = cab->ra / (PI * a * a);                                    /* ohm/cm */
    double Lc = L * 1e-4;
    double v0 = I * 1e-9 * r_a * lambda / tanh(Lc / lambda) * 1e3; /* mV */
    double err = 0;
    for (int64_t k = 0; k < n; ++k) {
        double xc = v.distance[k] * 1e-4;
        double want = I * 1e-9 * r_a * lambda * cosh((Lc - xc) / lambda) / sinh(Lc / lambda) * 1e3;
        err = fmax(err, fabs(x[k] - want) / v0);
    }
    free(d), free(u), free(l), free(rhs), free(x);
    hb_morph_cell_destroy(c);
    hb_morph_destroy(m);
    return err;
}

/* NEURON's d_lambda rule on a cylinder: nseg = int((L/(dl*lambda_f)+0.9)/2)*2+1 with
 * lambda_f = 1e5 sqrt(diam / (4 pi f Ra cm)) um at f = 100 Hz. */
static void test_dlambda(void)
{
    for (int rep = 0; rep < 10; ++rep) {
        double L = 20 + 3000 * hb_test_unit(), diam = 0.2 + 5 * hb_test_unit();
        double dl = 0.02 + 0.3 * hb_test_unit();
        hb_cable cab;
        hb_cable_init(&cab);
        cab.ra = 30 + 200 * hb_test_unit(), cab.cm = 0.5 + 1.5 * hb_test_unit();
        char t[256];
        int len = snprintf(t, sizeof t, "1 3 0 0 0 %.17g -1\n2 3 %.17g 0 0 %.17g 1\n", diam / 2,
                           L, diam / 2);
        hb_morph *m = NULL;
        hb_morph_cell *c = NULL;
        hb_discretize_options o;
        hb_discretize_options_init(&o);
        o.policy = HB_POLICY_SECTION, o.nseg = 0, o.d_lambda = dl;
        HB_CHECK_STATUS(hb_morph_parse_swc(t, (size_t)len, "cyl", NULL, &m), HB_SUCCESS);
        HB_CHECK_STATUS(hb_morph_cell_create(m, &o, &cab, &c), HB_SUCCESS);
        double lf = 1e5 * sqrt(diam / (4 * PI * 100 * cab.ra * cab.cm));
        int64_t want = (int64_t)((L / (dl * lf) + 0.9) / 2) * 2 + 1;
        hb_morph_cell_view v;
        if (c && hb_morph_cell_get_view(c, &v) == HB_SUCCESS)
            HB_CHECK(v.n == want, "d_lambda %g, L %g, diam %g: nseg %lld, NEURON's rule gives %lld",
                     dl, L, diam, (long long)v.n, (long long)want);
        hb_morph_cell_destroy(c);
        hb_morph_destroy(m);
    }
}

static void test_cable(hb_context *ctx, hb_context *oracle)
{
    hb_cable cab;
    hb_cable_init(&cab);
    cab.ra = 50 + 150 * hb_test_unit();
    double L = 300 + 1500 * hb_test_unit(), diam = 0.5 + 3 * hb_test_unit();
    double I = 0.05 + 0.5 * hb_test_unit();
    /* gm from an electrotonic length L/lambda in [0.3, 2]: lambda^2 = a / (2 ra gm). */
    double elen = 0.3 + 1.7 * hb_test_unit(), lam = L * 1e-4 / elen;
    cab.gm = diam / 2 * 1e-4 / (2 * cab.ra * lam * lam);
    printf("cable: L %.4g um, diam %.4g um, Ra %.4g ohm*cm, gm %.4g S/cm2, I %.4g nA, "
           "L/lambda %.3g\n", L, diam, cab.ra, cab.gm, I,
           L * 1e-4 / sqrt(diam / 2 * 1e-4 / (2 * cab.ra * cab.gm)));
    for (int p = 0; p < 2; ++p) {
        hb_morph_policy pol = p ? HB_POLICY_SECTION : HB_POLICY_SAMPLE;
        double prev = 0;
        for (int nseg = 4; nseg <= 256; nseg *= 2) {
            double e = cable_error(ctx, oracle, pol, nseg, L, diam, I, &cab);
            printf("cable %s nseg %3d: max error / V(0) = %.3e", p ? "section" : "sample ", nseg,
                   e);
            if (nseg > 4)
                printf(", ratio %.2f", prev / e);
            if (nseg > 8)
                /* Second-order scheme: halving h divides the error by about 4. */
                HB_CHECK(prev / e > 3.7 && prev / e < 4.3, "%s nseg %d: error ratio %g, expected "
                         "about 4 (second order)", p ? "section" : "sample", nseg, prev / e);
            /* And the error is small: at most 0.2 (h/lambda)^2 (measured: 0.12 and 0.02). */
            double hl = elen / nseg;
            HB_CHECK(e < 0.2 * hl * hl, "%s nseg %d: error %g > 0.2 (h/lambda)^2 = %g",
                     p ? "section" : "sample", nseg, e, 0.2 * hl * hl);
            printf("\n");
            prev = e;
        }
    }
}

/* ---- statistics, checked against an independent count ------------------- */
static void random_parent(int32_t *parent, int64_t n, double p_chain)
{
    parent[0] = -1;
    for (int64_t k = 1; k < n; ++k)
        parent[k] = hb_test_unit() < p_chain ? (int32_t)(k - 1) : (int32_t)hb_test_range(0, k - 1);
}

/* Levels by walking up from every node and counting branch heads (O(n depth)). */
static void brute_stats(int64_t n, const int32_t *parent, hb_tree_stats *s, int64_t *per_level)
{
    int64_t *nc = calloc((size_t)n, sizeof *nc);
    for (int64_t k = 1; k < n; ++k)
        ++nc[parent[k]];
    memset(s, 0, sizeof *s);
    s->nodes = n;
    for (int64_t k = 0; k < n; ++k) {
        int head = k == 0 || nc[parent[k]] != 1;
        s->branches += head;
        s->branch_points += nc[k] >= 2;
        s->tips += nc[k] == 0;
        int64_t lev = 0, len = 0;
        for (int64_t v = k; v >= 0; v = parent[v])
            lev += v == 0 || nc[parent[v]] != 1;
        for (int64_t v = k;; v = parent[v]) { /* nodes of k's branch up to k */
            ++len;
            if (v == 0 || nc[parent[v]] != 1)
                break;
        }
        s->levels = lev > s->levels ? lev : s->levels;
        s->longest_branch = len > s->longest_branch ? len : s->longest_branch;
        if (head)
            ++per_level[lev - 1];
    }
    for (int64_t j = 0; j < s->levels; ++j)
        if (per_level[j] > s->max_level_width)
            s->max_level_width = per_level[j];
    free(nc);
}

static void test_stats(void)
{
    for (int rep = 0; rep < 20; ++rep) {
        int64_t n = hb_test_range(1, 400);
        int32_t *parent = malloc((size_t)n * sizeof *parent), *np = malloc((size_t)n * sizeof *np);
        int32_t *map = malloc((size_t)n * sizeof *map);
        int64_t *want_pl = calloc((size_t)n, sizeof *want_pl), *pl = calloc((size_t)n, sizeof *pl);
        random_parent(parent, n, 0.5 + 0.5 * hb_test_unit());
        hb_tree_stats s, w;
        brute_stats(n, parent, &w, want_pl);
        HB_CHECK_STATUS(hb_morph_tree_stats(n, parent, &s), HB_SUCCESS);
        HB_CHECK(!memcmp(&s, &w, sizeof s), "n %lld: stats (%lld %lld %lld %lld %lld %lld %lld) vs "
                 "count (%lld %lld %lld %lld %lld %lld %lld)", (long long)n, (long long)s.nodes,
                 (long long)s.branches, (long long)s.branch_points, (long long)s.tips,
                 (long long)s.levels, (long long)s.longest_branch, (long long)s.max_level_width,
                 (long long)w.nodes, (long long)w.branches, (long long)w.branch_points,
                 (long long)w.tips, (long long)w.levels, (long long)w.longest_branch,
                 (long long)w.max_level_width);
        HB_CHECK_STATUS(hb_morph_tree_level_counts(n, parent, n, pl), HB_SUCCESS);
        HB_CHECK(!memcmp(pl, want_pl, (size_t)n * sizeof *pl), "n %lld: branches per level",
                 (long long)n);
        if (w.levels > 1)
            HB_CHECK_STATUS(hb_morph_tree_level_counts(n, parent, w.levels - 1, pl),
                            HB_ERR_INVALID_ARGUMENT);
        /* Hines order: a permutation, same statistics, every branch contiguous. */
        HB_CHECK_STATUS(hb_morph_tree_order(n, parent, map, np), HB_SUCCESS);
        char *seen = calloc((size_t)n, 1);
        int ok = 1;
        for (int64_t k = 0; k < n; ++k) {
            ok &= map[k] >= 0 && map[k] < n && !seen[map[k]];
            if (map[k] >= 0 && map[k] < n)
                seen[map[k]] = 1;
            ok &= k == 0 ? np[map[k]] == -1 : np[map[k]] == map[parent[k]];
        }
        HB_CHECK(ok, "n %lld: tree order is not a relabelling", (long long)n);
        HB_CHECK_STATUS(hb_morph_tree_stats(n, np, &s), HB_SUCCESS);
        HB_CHECK(s.branches == w.branches && s.levels == w.levels && s.tips == w.tips &&
                     s.longest_branch == w.longest_branch,
                 "n %lld: statistics changed by reordering", (long long)n);
        int64_t *nc = calloc((size_t)n, sizeof *nc), last_level = 1,
                *lev = calloc((size_t)n, sizeof *lev);
        for (int64_t k = 1; k < n; ++k)
            ++nc[np[k]];
        lev[0] = 1;
        for (int64_t k = 1; k < n && ok; ++k) {
            int head = nc[np[k]] >= 2;
            lev[k] = lev[np[k]] + head;
            ok &= head ? lev[k] >= last_level : np[k] == k - 1;
            if (head)
                last_level = lev[k];
        }
        HB_CHECK(ok, "n %lld: tree order not branch-contiguous breadth-first", (long long)n);
        free(nc), free(lev), free(seen);
        free(parent), free(np), free(map), free(want_pl), free(pl);
    }
    int32_t bad[3] = {-1, 2, 0};
    hb_tree_stats s;
    HB_CHECK_STATUS(hb_morph_tree_stats(3, bad, &s), HB_ERR_INVALID_TREE);
    HB_CHECK_STATUS(hb_morph_tree_stats(0, bad, &s), HB_ERR_INVALID_ARGUMENT);
}

/* ---- re-rooting: optimal depth (brute force over every root) and same system */
static int64_t depth_rooted_at(int64_t n, const int32_t *parent, int64_t r)
{
    /* Undirected adjacency, then levels from r. */
    int64_t *deg = calloc((size_t)n + 1, sizeof *deg), *adj = malloc(2 * (size_t)n * sizeof *adj);
    int64_t *fill = calloc((size_t)n, sizeof *fill), *q = malloc((size_t)n * sizeof *q);
    int64_t *pr = malloc((size_t)n * sizeof *pr), *lev = malloc((size_t)n * sizeof *lev);
    for (int64_t k = 1; k < n; ++k)
        ++deg[k + 1], ++deg[parent[k] + 1];
    for (int64_t k = 0; k < n; ++k)
        deg[k + 1] += deg[k];
    for (int64_t k = 1; k < n; ++k)
        adj[deg[k] + fill[k]++] = parent[k], adj[deg[parent[k]] + fill[parent[k]]++] = k;
    for (int64_t k = 0; k < n; ++k)
        pr[k] = -2;
    int64_t h = 0, t = 0, best = 1;
    q[t++] = r, pr[r] = -1, lev[r] = 1;
    while (h < t) {
        int64_t v = q[h++], kids = deg[v + 1] - deg[v] - (pr[v] >= 0);
        for (int64_t e = deg[v]; e < deg[v + 1]; ++e)
            if (pr[adj[e]] == -2) {
                pr[adj[e]] = v, lev[adj[e]] = lev[v] + (kids >= 2), q[t++] = adj[e];
                best = lev[adj[e]] > best ? lev[adj[e]] : best;
            }
    }
    free(deg), free(adj), free(fill), free(q), free(pr), free(lev);
    return best;
}

static void test_reroot(hb_context *ctx, hb_context *oracle)
{
    for (int rep = 0; rep < 12; ++rep) {
        int64_t n = hb_test_range(3, 250);
        double pct = 30 * hb_test_unit();
        uint64_t seed = hb_test_rand();
        hb_morph_cell *a = NULL, *b = NULL;
        if (rep % 2) {
            HB_CHECK_STATUS(hb_morph_synth_branchy(n, pct, seed, NULL, &a), HB_SUCCESS);
            HB_CHECK_STATUS(hb_morph_synth_branchy(n, pct, seed, NULL, &b), HB_SUCCESS);
        } else {
            /* Any degree (real neurons have somata with many children). */
            int32_t *parent = malloc((size_t)n * sizeof *parent);
            random_parent(parent, n, 0.4 + 0.5 * hb_test_unit());
            double len = 1 + 20 * hb_test_unit(), diam = 0.3 + 3 * hb_test_unit();
            HB_CHECK_STATUS(hb_morph_cell_from_parent(n, parent, len, diam, NULL, &a), HB_SUCCESS);
            HB_CHECK_STATUS(hb_morph_cell_from_parent(n, parent, len, diam, NULL, &b), HB_SUCCESS);
            free(parent);
        }
        if (!a || !b)
            continue;
        HB_CHECK_STATUS(hb_morph_cell_reroot(b), HB_SUCCESS);
        hb_morph_cell_view va, vb;
        hb_morph_cell_get_view(a, &va);
        hb_morph_cell_get_view(b, &vb);
        int64_t best = INT64_MAX;
        for (int64_t r = 0; r < n; ++r) {
            int64_t dd = depth_rooted_at(n, va.parent, r);
            best = dd < best ? dd : best;
        }
        hb_tree_stats sa, sb;
        hb_morph_tree_stats(n, va.parent, &sa);
        hb_morph_tree_stats(n, vb.parent, &sb);
        HB_CHECK(sb.levels == best, "reroot n %lld: %lld levels, best root gives %lld (was %lld)",
                 (long long)n, (long long)sb.levels, (long long)best, (long long)sa.levels);
        /* The same linear system: inject the same currents (by source) and compare. */
        double *d[2], *u[2], *l[2], *rhs[2], *x[2];
        const hb_morph_cell_view *vv[2] = {&va, &vb};
        for (int i = 0; i < 2; ++i) {
            d[i] = malloc((size_t)n * sizeof(double)), u[i] = malloc((size_t)n * sizeof(double));
            l[i] = malloc((size_t)n * sizeof(double)), rhs[i] = malloc((size_t)n * sizeof(double));
            x[i] = malloc((size_t)n * sizeof(double));
            hb_morph_cell_matrix(i ? b : a, 0.025, d[i], u[i], l[i]);
        }
        double *cur = malloc((size_t)n * sizeof *cur);
        for (int64_t k = 0; k < n; ++k)
            cur[k] = hb_test_unit() - 0.5;
        for (int i = 0; i < 2; ++i)
            for (int64_t k = 0; k < n; ++k)
                rhs[i][k] = cur[vv[i]->source[k]];
        solve_one(ctx, oracle, n, va.parent, u[0], l[0], d[0], rhs[0], x[0], "before re-rooting");
        solve_one(ctx, oracle, n, vb.parent, u[1], l[1], d[1], rhs[1], x[1], "re-rooted");
        double *by_src = malloc((size_t)n * sizeof *by_src), worst = 0, xn = 0;
        for (int64_t k = 0; k < n; ++k)
            by_src[va.source[k]] = x[0][k], xn = fmax(xn, fabs(x[0][k]));
        for (int64_t k = 0; k < n; ++k)
            worst = fmax(worst, fabs(x[1][k] - by_src[vb.source[k]]));
        HB_CHECK(worst <= 1e-10 * xn, "reroot n %lld: solutions differ by %g", (long long)n, worst);
        for (int i = 0; i < 2; ++i)
            free(d[i]), free(u[i]), free(l[i]), free(rhs[i]), free(x[i]);
        free(cur), free(by_src);
        hb_morph_cell_destroy(a);
        hb_morph_cell_destroy(b);
    }
}

/* ---- generators -------------------------------------------------------- */
/* Branch lengths in Hines order (branch b starts at its head). */
static int64_t branch_lengths(const hb_morph_cell_view *v, int64_t *len)
{
    int64_t nb = 0, *nc = calloc((size_t)v->n, sizeof *nc);
    for (int64_t k = 1; k < v->n; ++k)
        ++nc[v->parent[k]];
    for (int64_t k = 0; k < v->n; ++k) {
        if (k == 0 || nc[v->parent[k]] >= 2)
            len[nb++] = 0;
        ++len[nb - 1];
    }
    free(nc);
    return nb;
}

static void test_generators(hb_context *ctx, hb_context *oracle)
{
    /* (a) the paper's example: 512 nodes, 4 levels: 256, 2x32, 4x16, 8x(8+8). */
    hb_morph_cell *c = NULL;
    hb_morph_cell_view v;
    int64_t len[4096];
    HB_CHECK_STATUS(hb_morph_synth_levels(512, 4, NULL, &c), HB_SUCCESS);
    if (c && hb_morph_cell_get_view(c, &v) == HB_SUCCESS) {
        int64_t want[15] = {256, 32, 32, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16};
        int64_t nb = branch_lengths(&v, len);
        HB_CHECK(v.n == 512 && nb == 15 && !memcmp(len, want, sizeof want),
                 "levels 512/4: %lld "
                 "nodes, %lld branches, first %lld",
                 (long long)v.n, (long long)nb, (long long)len[0]);
    }
    hb_morph_cell_destroy(c);
    for (int rep = 0; rep < 5; ++rep) {
        int32_t L = (int32_t)hb_test_range(1, 7);
        int64_t D = L - 1 > 4 ? L - 1 : 4;
        int64_t n = hb_test_range(L > 1 ? ((int64_t)1 << L) * D : 1, 3000);
        c = NULL;
        HB_CHECK_STATUS(hb_morph_synth_levels(n, L, NULL, &c), HB_SUCCESS);
        hb_tree_stats s = {0};
        int64_t pl[8] = {0};
        if (c && hb_morph_cell_get_view(c, &v) == HB_SUCCESS) {
            hb_morph_tree_stats(v.n, v.parent, &s);
            hb_morph_tree_level_counts(v.n, v.parent, 8, pl);
            branch_lengths(&v, len);
        }
        int ok = s.nodes == n && s.levels == L && len[0] == (L > 1 ? n / 2 : n);
        for (int j = 0; j < L; ++j)
            ok &= pl[j] == (int64_t)1 << j;
        HB_CHECK(ok, "levels n %lld L %d: %lld nodes, %lld levels, first branch %lld", (long long)n,
                 (int)L, (long long)s.nodes, (long long)s.levels, (long long)len[0]);
        hb_morph_cell_destroy(c);
    }
    c = NULL;
    HB_CHECK_STATUS(hb_morph_synth_levels(63, 4, NULL, &c), HB_ERR_INVALID_ARGUMENT); /* needs 64 */
    HB_CHECK(c == NULL, "output written on error");

    /* (b) Arbor's random branching: p = 1 gives the full binary tree, p = 0 one branch;
     * the same seed gives the same cell; lengths shrink with depth. */
    hb_synth_random_params rp = {(int32_t)hb_test_range(2, 6), 1, 1, 200, 20, hb_test_rand()};
    hb_synth_geometry g;
    hb_synth_geometry_init(&g);
    HB_CHECK_STATUS(hb_morph_synth_random(&rp, &g, &c), HB_SUCCESS);
    hb_tree_stats s = {0};
    if (c && hb_morph_cell_get_view(c, &v) == HB_SUCCESS) {
        hb_morph_tree_stats(v.n, v.parent, &s);
        int64_t nb = branch_lengths(&v, len);
        HB_CHECK(nb == ((int64_t)1 << rp.levels) - 1 && s.levels == rp.levels && len[0] == 20 &&
                     len[nb - 1] == 2,
                 "random p=1: %lld branches, %lld levels, lengths %lld..%lld", (long long)nb,
                 (long long)s.levels, (long long)len[0], (long long)len[nb - 1]);
    }
    hb_morph_cell_destroy(c);
    rp.p_start = rp.p_end = 0;
    HB_CHECK_STATUS(hb_morph_synth_random(&rp, NULL, &c), HB_SUCCESS);
    if (c && hb_morph_cell_get_view(c, &v) == HB_SUCCESS)
        HB_CHECK(v.n == 20, "random p=0: %lld nodes, expected one branch of 20", (long long)v.n);
    hb_morph_cell_destroy(c);
    rp.levels = 8, rp.p_start = 0.95, rp.p_end = 0.4;
    hb_morph_cell *c2 = NULL;
    HB_CHECK_STATUS(hb_morph_synth_random(&rp, NULL, &c), HB_SUCCESS);
    HB_CHECK_STATUS(hb_morph_synth_random(&rp, NULL, &c2), HB_SUCCESS);
    hb_morph_cell_view v2;
    if (c && c2 && hb_morph_cell_get_view(c, &v) == HB_SUCCESS &&
        hb_morph_cell_get_view(c2, &v2) == HB_SUCCESS) {
        hb_morph_tree_stats(v.n, v.parent, &s);
        HB_CHECK(v.n == v2.n && !memcmp(v.parent, v2.parent, (size_t)v.n * sizeof *v.parent),
                 "random: same seed, different cells");
        HB_CHECK(s.levels <= 8 && s.levels >= 1, "random: %lld levels > 8", (long long)s.levels);
    }
    hb_morph_cell_destroy(c2);
    hb_morph_cell *multi[12];
    int nm = 0;
    multi[nm++] = c;
    rp.levels = 0;
    HB_CHECK_STATUS(hb_morph_synth_random(&rp, NULL, &c2), HB_ERR_INVALID_ARGUMENT);

    /* (c) a given percentage of branch points. */
    for (int rep = 0; rep < 6; ++rep) {
        int64_t n = hb_test_range(1, 5000);
        double pct = 40 * hb_test_unit();
        int64_t B = llround(pct / 100 * n);
        c = NULL;
        hb_status st = hb_morph_synth_branchy(n, pct, hb_test_rand(), NULL, &c);
        if (2 * B + 1 > n) {
            HB_CHECK(st == HB_ERR_INVALID_ARGUMENT, "branchy n %lld %g%%: accepted", (long long)n,
                     pct);
            continue;
        }
        HB_CHECK(st == HB_SUCCESS, "branchy n %lld %g%%: %s", (long long)n, pct, hb_last_error());
        if (!c || hb_morph_cell_get_view(c, &v) != HB_SUCCESS)
            continue;
        hb_morph_tree_stats(v.n, v.parent, &s);
        HB_CHECK(s.nodes == n && s.branch_points == B && s.tips == B + 1 && s.branches == 2 * B + 1,
                 "branchy n %lld %g%%: %lld branch points, expected %lld", (long long)n, pct,
                 (long long)s.branch_points, (long long)B);
        if (nm < 12)
            multi[nm++] = c;
        else
            hb_morph_cell_destroy(c);
    }
    HB_CHECK_STATUS(hb_morph_synth_branchy(100, 60, 1, NULL, &c), HB_ERR_INVALID_ARGUMENT);

    /* Batches of generated cells through a plan on the backend under test. */
    hb_morph_batch *b = NULL;
    HB_CHECK_STATUS(hb_morph_batch_multi((const hb_morph_cell *const *)multi, nm, 0.025, &b),
                    HB_SUCCESS);
    hb_morph_batch_view bv;
    if (b && hb_morph_batch_get_view(b, &bv) == HB_SUCCESS) {
        int ok = bv.nsys == nm && bv.offsets[0] == 0 && bv.n == 0;
        for (int i = 0; i < nm; ++i) {
            hb_morph_cell_get_view(multi[i], &v);
            ok &= bv.offsets[i + 1] - bv.offsets[i] == v.n &&
                  !memcmp(bv.parent + bv.offsets[i], v.parent, (size_t)v.n * sizeof *v.parent);
        }
        HB_CHECK(ok, "multi batch: offsets or parents wrong");
        /* Row sums: d - sum |off-diagonals| = C/dt + gm*area (gm = 0 here). */
        double worst = 0;
        double *rs = calloc((size_t)bv.rows, sizeof *rs);
        for (int64_t s2 = 0; s2 < bv.nsys; ++s2)
            for (int64_t k = bv.offsets[s2]; k < bv.offsets[s2 + 1]; ++k) {
                rs[k] += bv.d[k];
                if (k > bv.offsets[s2])
                    rs[k] += bv.l[k], rs[bv.offsets[s2] + bv.parent[k]] += bv.u[k];
            }
        for (int64_t k = 0; k < bv.rows; ++k)
            worst = fmax(worst, fabs(rs[k] - bv.cdt[k]) / bv.cdt[k]);
        HB_CHECK(worst < 1e-9, "multi batch: row sums differ from C/dt by %g", worst);
        free(rs);
        double *rhs = malloc((size_t)bv.rows * sizeof *rhs);
        for (int64_t k = 0; k < bv.rows; ++k)
            rhs[k] = bv.cdt[k] * (-70 + 5 * hb_test_unit()) + 0.1 * (hb_test_unit() - 0.5);
        hb_oracle_batch bt;
        hb_oracle_init(&bt, &hb_oracle_hines, HB_DOUBLE, bv.nsys, bv.offsets, bv.parent, bv.u, bv.l,
                       bv.d, rhs);
        hb_oracle_reference(&bt, oracle, NULL, "multi batch of generated cells");
        hb_oracle_plan(ctx, &bt, NULL, 0, NULL, "multi batch of generated cells, default plan");
        hb_oracle_free(&bt);
        free(rhs);
    }
    hb_morph_batch_destroy(b);
    b = NULL;
    HB_CHECK_STATUS(hb_morph_batch_mono(multi[0], 0, 0.025, &b), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_morph_batch_mono(multi[0], 3, 0, &b), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK(b == NULL, "batch written on error");
    double dummy[1];
    HB_CHECK_STATUS(hb_morph_cell_matrix(multi[0], -1, dummy, dummy, dummy),
                    HB_ERR_INVALID_ARGUMENT);
    for (int i = 0; i < nm; ++i)
        hb_morph_cell_destroy(multi[i]);
}

int main(void)
{
    hb_test_begin("test_morph_cable");
    hb_context *ctx = hb_test_context(), *oracle = hb_test_oracle();
    test_cable(ctx, oracle);
    test_dlambda();
    test_stats();
    test_reroot(ctx, oracle);
    test_generators(ctx, oracle);
    hb_context_destroy(ctx);
    hb_context_destroy(oracle);
    return hb_test_finish();
}
