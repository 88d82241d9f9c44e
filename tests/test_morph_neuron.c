/* test_morph_neuron.c: NEURON's conventions (HB_CONVENTIONS_NEURON): small cells checked against hand-computed areas and conductances, hostile inputs, every shipped neuron solved on the backend against the oracle. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hb_oracle_runner.h"
#include "hb_test_util.h"
#include "hinesbatch_morph.h"

#define PI 3.14159265358979323846
#define RA 35.4
#define REL 1e-12 /* every hand-computed value: the cells are cylinders on exact coordinates */

/* Axial conductance (uS) of a cylinder of diameter d and length len (um) at RA. */
static double g_cyl(double d, double len)
{
    return 100.0 * PI * d * d / (4.0 * RA * len);
}

static int close_rel(double x, double want)
{
    return fabs(x - want) <= REL * fabs(want) || (want == 0 && x == 0);
}

/* The NEURON-conventions cell of SWC text with the given nseg (0: d_lambda 0.1). */
static hb_morph_cell *cell_of(const char *text, int nseg, int reroot, hb_morph **keep)
{
    hb_morph *m = NULL;
    HB_CHECK_STATUS(hb_morph_parse_swc(text, strlen(text), "case", NULL, &m), HB_SUCCESS);
    if (!m)
        return NULL;
    hb_discretize_options o;
    hb_discretize_options_init(&o);
    o.policy = HB_POLICY_SECTION, o.nseg = nseg, o.reroot = reroot;
    o.conventions = HB_CONVENTIONS_NEURON;
    hb_morph_cell *c = NULL;
    HB_CHECK_STATUS(hb_morph_cell_create(m, &o, NULL, &c), HB_SUCCESS);
    if (keep)
        *keep = m;
    else
        hb_morph_destroy(m);
    return c;
}

typedef struct {
    double area, g, dist;
    int type;
} want_row;

/* The cell's rows against the hand values, matched in any order (the Hines
 * order is test_morph_swc's subject): each wanted row takes one compartment
 * of the same type whose area, conductance to its parent and distance agree. */
static void check_rows(const char *what, const hb_morph_cell *c, const want_row *w, int64_t n)
{
    hb_morph_cell_view v;
    if (!c || hb_morph_cell_get_view(c, &v) != HB_SUCCESS)
        return;
    HB_CHECK(v.n == n, "%s: %lld compartments, expected %lld", what, (long long)v.n,
             (long long)n);
    HB_CHECK(v.n < 1 || (v.g_axial[0] == 0 && v.distance[0] == 0 && v.type[0] == 1),
             "%s: the root is not the soma's middle", what);
    char used[64] = {0};
    for (int64_t i = 0; i < n && v.n <= 64; ++i) {
        int64_t hit = -1;
        for (int64_t k = 0; k < v.n && hit < 0; ++k)
            if (!used[k] && v.type[k] == w[i].type && close_rel(v.area[k], w[i].area) &&
                close_rel(v.g_axial[k], w[i].g) && fabs(v.distance[k] - w[i].dist) <= 1e-9)
                hit = k;
        HB_CHECK(hit >= 0, "%s: no compartment of type %d, area %.15g um2, g %.15g uS, distance "
                 "%.15g um", what, w[i].type, w[i].area, w[i].g, w[i].dist);
        if (hit >= 0)
            used[hit] = 1;
    }
}

/* NeuroMorpho 3-point soma (r = 5 at the origin) and a dendrite from the
 * first sample at x = 10 to x = 110 (r = 1). Import3d: the soma is a cylinder
 * of length and diameter 10 (area 100 pi); the dendrite starts at its first
 * sample (not on the soma's surface, not at its centre) and joins soma(0.5)
 * with no resistance, so its first segment's conductance is that of its
 * first half segment alone. The soma's two end nodes and the dendrite's far
 * end node have one neighbour each and drop out. */
static const char *soma3_dend =
    "1 1 0 0 0 5 -1\n2 1 0 -5 0 5 1\n3 1 0 5 0 5 1\n4 3 10 0 0 1 1\n5 3 110 0 0 1 4\n";

static void test_two_sections(void)
{
    hb_morph *m = NULL;
    hb_morph_cell *c = cell_of(soma3_dend, 1, 0, &m);
    want_row w1[] = {{100 * PI, 0, 0, 1}, {200 * PI, g_cyl(2, 50), 50, 3}};
    check_rows("3-point soma + dendrite, nseg 1", c, w1, 2);
    if (c) {
        hb_morph_cell_view v;
        hb_morph_cell_get_view(c, &v);
        hb_swc_sample s;
        hb_morph_sample(m, v.source[1], &s);
        HB_CHECK(s.id == 5, "dendrite's source: sample %lld, expected 5", (long long)s.id);
    }
    hb_morph_cell_destroy(c);
    hb_morph_destroy(m);

    /* nseg 3 everywhere: the soma's middle segment is the root, its outer
     * segments hang on it (their far end nodes drop out), the dendrite too. */
    c = cell_of(soma3_dend, 3, 0, NULL);
    double h = 100.0 / 3, hs = 10.0 / 3;
    want_row w3[] = {{100 * PI / 3, 0, 0, 1},
                     {100 * PI / 3, g_cyl(10, hs), hs, 1},
                     {100 * PI / 3, g_cyl(10, hs), hs, 1},
                     {2 * PI * h, g_cyl(2, h / 2), h / 2, 3},
                     {2 * PI * h, g_cyl(2, h), 1.5 * h, 3},
                     {2 * PI * h, g_cyl(2, h), 2.5 * h, 3}};
    check_rows("3-point soma + dendrite, nseg 3", c, w3, 6);
    hb_morph_cell_destroy(c);

    /* Two soma samples (a 10 um cylinder of diameter 10) and a dendrite from
     * the soma's last sample: it starts at that sample with its own diameter
     * (Import3d), 110 um to its last sample. The soma's 1 end is a zero-area
     * node between two segments: its two half-segment resistances in series. */
    const char *soma2 = "1 1 0 0 0 5 -1\n2 1 0 10 0 5 1\n3 3 0 20 0 1 2\n4 3 0 120 0 1 3\n";
    c = cell_of(soma2, 1, 0, NULL);
    double gs = g_cyl(10, 5), gd = g_cyl(2, 55);
    want_row w2[] = {{100 * PI, 0, 0, 1}, {220 * PI, 1 / (1 / gs + 1 / gd), 60, 3}};
    check_rows("2-sample soma + dendrite, nseg 1", c, w2, 2);
    hb_morph_cell_destroy(c);

    /* d_lambda: a 1000 um dendrite of diameter 2: lambda(100 Hz) =
     * 1e5 sqrt(d / (4 pi f Ra cm)) um, nseg = int((L/(0.1 lambda) + 0.9)/2)*2 + 1. */
    const char *longd =
        "1 1 0 0 0 5 -1\n2 1 0 -5 0 5 1\n3 1 0 5 0 5 1\n4 3 10 0 0 1 1\n5 3 1010 0 0 1 4\n";
    double lam = 1e5 * sqrt(2.0 / (4 * PI * 100 * RA * 1.0));
    int64_t ns_soma = (int64_t)((10 / (0.1 * 1e5 * sqrt(10.0 / (4 * PI * 100 * RA))) + 0.9) / 2) * 2 + 1;
    int64_t ns = (int64_t)((1000 / (0.1 * lam) + 0.9) / 2) * 2 + 1;
    c = cell_of(longd, 0, 0, NULL);
    if (c) {
        hb_morph_cell_view v;
        hb_morph_cell_get_view(c, &v);
        HB_CHECK(ns_soma == 1 && v.n == ns + 1, "d_lambda: %lld compartments, expected soma %lld "
                 "+ dendrite %lld", (long long)v.n, (long long)ns_soma, (long long)ns);
        printf("d_lambda 0.1: a 1000 um dendrite of 2 um: nseg %lld (lambda %.1f um)\n",
               (long long)ns, lam);
    }
    hb_morph_cell_destroy(c);
}

/* A fork: the dendrite above ends in two children of 50 um (r = 1). Their
 * shared node has three neighbours: it stays as a compartment of area 0,
 * joined by each half segment's conductance. Re-rooting keeps the system. */
static void test_fork(void)
{
    const char *fork = "1 1 0 0 0 5 -1\n2 1 0 -5 0 5 1\n3 1 0 5 0 5 1\n4 3 10 0 0 1 1\n"
                       "5 3 110 0 0 1 4\n6 3 110 50 0 1 5\n7 3 110 -50 0 1 5\n";
    hb_morph_cell *c = cell_of(fork, 1, 0, NULL);
    want_row w[] = {{100 * PI, 0, 0, 1},
                    {200 * PI, g_cyl(2, 50), 50, 3},
                    {0, g_cyl(2, 50), 100, 3},
                    {100 * PI, g_cyl(2, 25), 125, 3},
                    {100 * PI, g_cyl(2, 25), 125, 3}};
    check_rows("fork, nseg 1", c, w, 5);
    hb_morph_cell *r = cell_of(fork, 1, 1, NULL);
    if (c && r) {
        hb_morph_cell_view a, b;
        hb_morph_cell_get_view(c, &a);
        hb_morph_cell_get_view(r, &b);
        double sa = 0, sb = 0, ga = 0, gb = 0;
        for (int64_t k = 0; k < a.n; ++k)
            sa += a.area[k], ga += a.g_axial[k];
        for (int64_t k = 0; k < b.n; ++k)
            sb += b.area[k], gb += b.g_axial[k];
        HB_CHECK(a.n == b.n && fabs(sa - sb) <= 1e-12 * sa && fabs(ga - gb) <= 1e-12 * ga,
                 "re-rooted fork: %lld compartments, area %.15g, conductances %.15g (before: "
                 "%lld, %.15g, %.15g)", (long long)b.n, sb, gb, (long long)a.n, sa, ga);
    }
    hb_morph_cell_destroy(c);
    hb_morph_cell_destroy(r);
}

/* The mean diameter of each compartment (NEURON's seg.diam: the 3-D
 * diameters interpolated along the segment, averaged over its length), by
 * hand: a dendrite tapering from diameter 2 to 4 over 100 um in two segments
 * has 2.5 and 3.5; the soma cylinder 10; the fork's kept zero-area node the
 * diameter at its point. The same taper under the library's own conventions,
 * per section and per sample, and a cell from a parent array. */
static void check_diams(const char *what, const hb_morph_cell *c, const double *want, int64_t n)
{
    hb_morph_cell_view v;
    if (!c || hb_morph_cell_get_view(c, &v) != HB_SUCCESS)
        return;
    HB_CHECK(v.n == n && v.diam != NULL, "%s: %lld compartments, expected %lld", what,
             (long long)v.n, (long long)n);
    char used[16] = {0};
    for (int64_t i = 0; i < n && v.n == n && n <= 16; ++i) {
        int64_t hit = -1;
        for (int64_t k = 0; k < v.n && hit < 0; ++k)
            if (!used[k] && close_rel(v.diam[k], want[i]))
                hit = k;
        HB_CHECK(hit >= 0, "%s: no compartment of diameter %.15g um", what, want[i]);
        if (hit >= 0)
            used[hit] = 1;
    }
}

static void test_diam(void)
{
    const char *taper =
        "1 1 0 0 0 5 -1\n2 1 0 -5 0 5 1\n3 1 0 5 0 5 1\n4 3 10 0 0 1 1\n5 3 110 0 0 2 4\n";
    hb_morph_cell *c = cell_of(taper, 2, 0, NULL);
    const double w1[] = {10, 10, 2.5, 3.5};
    check_diams("tapered dendrite, nseg 2", c, w1, 4);
    hb_morph_cell_destroy(c);
    c = cell_of(taper, 1, 0, NULL);
    const double w2[] = {10, 3};
    check_diams("tapered dendrite, nseg 1", c, w2, 2);
    hb_morph_cell_destroy(c);
    const char *fork = "1 1 0 0 0 5 -1\n2 1 0 -5 0 5 1\n3 1 0 5 0 5 1\n4 3 10 0 0 1 1\n"
                       "5 3 110 0 0 1 4\n6 3 110 50 0 1 5\n7 3 110 -50 0 1 5\n";
    c = cell_of(fork, 1, 0, NULL);
    const double w3[] = {10, 2, 2, 2, 2};
    check_diams("fork, nseg 1 (the zero-area node: 2)", c, w3, 5);
    hb_morph_cell_destroy(c);

    /* The library's conventions: a root sample of radius 1 and one of radius
     * 2 at 100 um (no soma), per section in two compartments, per sample. */
    const char *chain = "1 3 0 0 0 1 -1\n2 3 100 0 0 2 1\n";
    for (int pol = 0; pol < 2; ++pol) {
        hb_morph *m = NULL;
        HB_CHECK_STATUS(hb_morph_parse_swc(chain, strlen(chain), "chain", NULL, &m), HB_SUCCESS);
        hb_discretize_options o;
        hb_discretize_options_init(&o);
        o.policy = pol ? HB_POLICY_SAMPLE : HB_POLICY_SECTION;
        o.nseg = pol ? 0 : 2;
        c = NULL;
        if (m)
            HB_CHECK_STATUS(hb_morph_cell_create(m, &o, NULL, &c), HB_SUCCESS);
        const double w4[] = {2.5, 3.5};
        check_diams(pol ? "taper per sample" : "taper per section, nseg 2", c, w4, 2);
        hb_morph_cell_destroy(c);
        hb_morph_destroy(m);
    }
    const int32_t parent[3] = {-1, 0, 1};
    c = NULL;
    HB_CHECK_STATUS(hb_morph_cell_from_parent(3, parent, 10.0, 1.5, NULL, &c), HB_SUCCESS);
    const double w5[] = {1.5, 1.5, 1.5};
    check_diams("from a parent array", c, w5, 3);
    hb_morph_cell_destroy(c);
}

/* Sections of one sample, zero-length sections, a lone sample. */
static void test_small_sections(void)
{
    /* One dendrite sample at 20 um: Import3d starts its section at the soma's
     * centre with the dendrite's own diameter: a 20 um cylinder. */
    hb_morph_cell *c = cell_of("1 1 0 0 0 5 -1\n2 1 0 -5 0 5 1\n3 1 0 5 0 5 1\n4 3 20 0 0 1 1\n",
                               1, 0, NULL);
    want_row w1[] = {{100 * PI, 0, 0, 1}, {40 * PI, g_cyl(2, 10), 10, 3}};
    check_rows("one-sample dendrite", c, w1, 2);
    hb_morph_cell_destroy(c);

    /* A one-sample dendrite at the soma's centre has no length: Import3d
     * removes it and hangs its child (an axon, 30 um) where it hung. */
    c = cell_of("1 1 0 0 0 5 -1\n2 1 0 -5 0 5 1\n3 1 0 5 0 5 1\n4 3 0 0 0 1 1\n5 2 0 30 0 1 4\n",
                1, 0, NULL);
    want_row w2[] = {{100 * PI, 0, 0, 1}, {60 * PI, g_cyl(2, 15), 15, 2}};
    check_rows("zero-length section removed, child re-hung", c, w2, 2);
    hb_morph_cell_destroy(c);

    /* A file of one sample: Import3d's sphere_rep, a cylinder of length and
     * diameter 2r (area 4 pi r^2). */
    c = cell_of("1 1 0 0 0 5 -1\n", 1, 0, NULL);
    want_row w3[] = {{100 * PI, 0, 0, 1}};
    check_rows("one sample", c, w3, 1);
    hb_morph_cell_destroy(c);
}

/* Each refused with its code and a message naming the cause; *cell untouched. */
static void test_hostile(void)
{
    struct {
        const char *what, *text, *says;
        hb_conventions conv;
        hb_morph_policy policy;
        int64_t cap;
    } bad[] = {
        {"root section of no length (two soma samples at one point)",
         "1 1 0 0 0 5 -1\n2 1 0 0 0 5 1\n", "um long", HB_CONVENTIONS_NEURON, HB_POLICY_SECTION, 0},
        {"root section of no length (three coincident samples)",
         "1 3 1 1 1 1 -1\n2 3 1 1 1 1 1\n3 3 1 1 1 1 2\n", "um long", HB_CONVENTIONS_NEURON,
         HB_POLICY_SECTION, 0},
        {"a coordinate past single precision (found by fuzz_cell_solve)",
         "1 1 0 0 0 5 -1\n2 1 0 -5 0 5 1\n3 1 0 5 0 5 1\n4 3 10 0 1e39 1 1\n5 3 110 0 0 1 4\n",
         "single precision", HB_CONVENTIONS_NEURON, HB_POLICY_SECTION, 0},
        {"parent's id above its child's", "1 1 0 0 0 5 -1\n2 3 10 0 0 1 3\n3 3 5 0 0 1 1\n",
         "parent's id", HB_CONVENTIONS_NEURON, HB_POLICY_SECTION, 0},
        {"NEURON conventions with policy SAMPLE", soma3_dend, "conventions",
         HB_CONVENTIONS_NEURON, HB_POLICY_SAMPLE, 0},
        {"conventions out of range", soma3_dend, "conventions", (hb_conventions)7,
         HB_POLICY_SECTION, 0},
        {"past the compartment cap", soma3_dend, "max_compartments", HB_CONVENTIONS_NEURON,
         HB_POLICY_SECTION, 1},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        hb_morph *m = NULL;
        HB_CHECK_STATUS(hb_morph_parse_swc(bad[i].text, strlen(bad[i].text), "hostile", NULL, &m),
                        HB_SUCCESS);
        if (!m)
            continue;
        hb_discretize_options o;
        hb_discretize_options_init(&o);
        o.policy = bad[i].policy, o.conventions = bad[i].conv, o.max_compartments = bad[i].cap;
        hb_morph_cell *sentinel = (hb_morph_cell *)&o, *c = sentinel;
        HB_CHECK_STATUS(hb_morph_cell_create(m, &o, NULL, &c), HB_ERR_INVALID_ARGUMENT);
        HB_CHECK(c == sentinel, "%s: output written on error", bad[i].what);
        HB_CHECK(strstr(hb_last_error(), bad[i].says) != NULL, "%s: message '%s' does not say "
                 "'%s'", bad[i].what, hb_last_error(), bad[i].says);
        hb_morph_destroy(m);
    }
    /* The default is unchanged: HINESBATCH's conventions. */
    hb_discretize_options o;
    hb_discretize_options_init(&o);
    HB_CHECK(o.conventions == HB_CONVENTIONS_HINESBATCH, "default conventions %d",
             (int)o.conventions);
}

/* Every shipped neuron under NEURON's conventions (nseg 1, 3, d_lambda):
 * areas >= 0 and a zero area only where three or more compartments meet;
 * all of them solved as one batch on the backend under test against the
 * oracle (rows of area 0 have no C/dt: the matrix is still diagonally
 * dominant through its neighbours). */
static void test_shipped(hb_context *ctx, hb_context *oracle)
{
    static const char *files[] = {"arbor__pyramidal", "jaxley__morph_ca1_n120",
                                  "jaxley__morph_ca1_n120_250", "jaxley__morph_l5pc_with_axon",
                                  "jaxley__morph_minimal", "netpyne__BS0284", "nrn__c91662"};
    const int nf = (int)(sizeof files / sizeof files[0]);
    hb_morph_cell *cells[3 * 7] = {0};
    int ncells = 0;
    for (int f = 0; f < nf; ++f) {
        char path[1024];
        snprintf(path, sizeof path, "%s/morphologies/%s.swc", HB_DATA_DIR, files[f]);
        hb_morph *m = NULL;
        HB_CHECK_STATUS(hb_morph_read_swc(path, NULL, &m), HB_SUCCESS);
        if (!m)
            continue;
        int nsegs[3] = {1, 3, 0};
        for (int s = 0; s < 3; ++s) {
            hb_discretize_options o;
            hb_discretize_options_init(&o);
            o.policy = HB_POLICY_SECTION, o.nseg = nsegs[s];
            o.conventions = HB_CONVENTIONS_NEURON;
            hb_morph_cell *c = NULL;
            HB_CHECK_STATUS(hb_morph_cell_create(m, &o, NULL, &c), HB_SUCCESS);
            if (!c)
                continue;
            hb_morph_cell_view v;
            hb_morph_cell_get_view(c, &v);
            int64_t *deg = calloc((size_t)v.n, sizeof *deg), zero = 0, bad = 0;
            for (int64_t k = 1; k < v.n; ++k)
                ++deg[k], ++deg[v.parent[k]];
            for (int64_t k = 0; k < v.n; ++k) {
                zero += v.area[k] == 0;
                bad += !(v.area[k] >= 0) || (v.area[k] == 0 && deg[k] < 3) ||
                       (k > 0 && !(v.g_axial[k] > 0));
            }
            free(deg);
            HB_CHECK(bad == 0 && v.type[0] == 1, "%s nseg %d: %lld bad compartments, root type %d",
                     files[f], nsegs[s], (long long)bad, (int)v.type[0]);
            printf("%s, nseg %d: %lld compartments (%lld of area 0)\n", files[f], nsegs[s],
                   (long long)v.n, (long long)zero);
            cells[ncells++] = c;
        }
        hb_morph_destroy(m);
    }
    hb_morph_batch *b = NULL;
    HB_CHECK_STATUS(hb_morph_batch_multi((const hb_morph_cell *const *)cells, ncells, 0.025, &b),
                    HB_SUCCESS);
    if (b) {
        hb_morph_batch_view v;
        hb_morph_batch_get_view(b, &v);
        double *rhs = malloc((size_t)v.rows * sizeof *rhs);
        for (int64_t k = 0; k < v.rows; ++k)
            rhs[k] = v.cdt[k] * (-65 + 10 * hb_test_unit()) + (hb_test_unit() - 0.5);
        hb_oracle_batch bt;
        hb_oracle_init(&bt, &hb_oracle_hines, HB_DOUBLE, v.nsys, v.offsets, v.parent, v.u, v.l,
                       v.d, rhs);
        hb_oracle_reference(&bt, oracle, NULL, "NEURON-conventions cells");
        hb_oracle_oneshot(ctx, &bt, NULL, "NEURON-conventions cells, one-shot");
        hb_oracle_plan(ctx, &bt, NULL, 0, NULL, "NEURON-conventions cells, plan");
        printf("solved %lld cells, %lld rows on the backend against the oracle\n",
               (long long)v.nsys, (long long)v.rows);
        hb_oracle_free(&bt);
        free(rhs);
    }
    hb_morph_batch_destroy(b);
    for (int i = 0; i < ncells; ++i)
        hb_morph_cell_destroy(cells[i]);
}

int main(void)
{
    hb_test_begin("test_morph_neuron");
    hb_context *ctx = hb_test_context(), *oracle = hb_test_oracle();
    test_two_sections();
    test_fork();
    test_small_sections();
    test_diam();
    test_hostile();
    test_shipped(ctx, oracle);
    hb_context_destroy(ctx);
    hb_context_destroy(oracle);
    return hb_test_finish();
}
