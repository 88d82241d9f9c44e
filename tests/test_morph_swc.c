/* test_morph_swc.c: SWC reader: shipped neurons under every policy, features, bad files. */
#define _XOPEN_SOURCE 700 /* mkdtemp, dirent */
#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hb_oracle_runner.h"

#define PI 3.14159265358979323846

#ifndef HB_DATA_DIR
#error "HB_DATA_DIR must name the data directory (tests/CMakeLists.txt sets it)"
#endif

static char tmpdir[256];

/* Writes text to a file of the temp dir; returns its path (static buffer). */
static const char *write_file(const char *name, const char *text, size_t len)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(text, 1, len, f) != len) {
        fprintf(stderr, "cannot write %s\n", path);
        exit(1);
    }
    fclose(f);
    return path;
}

static char *read_all(const char *path, size_t *len)
{
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *t = malloc((size_t)n + 1);
    if (t && fread(t, 1, (size_t)n, f) != (size_t)n)
        n = 0;
    fclose(f);
    if (t)
        t[n] = '\0';
    *len = (size_t)n;
    return t;
}

/* Data lines counted independently of the library: not blank after cutting '#'. */
static int64_t count_samples(const char *t, size_t len)
{
    int64_t n = 0;
    int data = 0, comment = 0;
    for (size_t i = 0; i <= len; ++i) {
        char c = i < len ? t[i] : '\n';
        if (c == '\n') {
            n += data;
            data = comment = 0;
        } else if (c == '#') {
            comment = 1;
        } else if (!comment && c != ' ' && c != '\t' && c != '\r') {
            data = 1;
        }
    }
    return n;
}

/* Hines order with every branch contiguous and branch levels breadth-first. */
static int check_hines_order(const hb_morph_cell_view *v)
{
    int64_t n = v->n;
    int64_t *nc = calloc((size_t)n, sizeof *nc), *lev = malloc((size_t)n * sizeof *lev);
    int ok = v->parent[0] == -1;
    for (int64_t k = 1; k < n && ok; ++k)
        ok = v->parent[k] >= 0 && v->parent[k] < k, ++nc[v->parent[k]];
    int64_t last_head_level = 1;
    lev[0] = 1;
    for (int64_t k = 1; k < n && ok; ++k) {
        int head = nc[v->parent[k]] >= 2;
        lev[k] = lev[v->parent[k]] + head;
        if (!head && v->parent[k] != k - 1)
            ok = 0; /* a branch continues only from the node just before */
        if (head) {
            if (lev[k] < last_head_level)
                ok = 0; /* branches breadth-first */
            last_head_level = lev[k];
        }
    }
    free(nc), free(lev);
    return ok;
}

static double sum(const double *x, int64_t n)
{
    double s = 0;
    for (int64_t k = 0; k < n; ++k)
        s += x[k];
    return s;
}

/* A batch of cells in the view (rhs: a random current balance), solved on
 * the backend one-shot or through a plan (uniform: the uniform constructor),
 * checked by residual and against the oracle (hb_oracle_runner.c). */
static void solve_view(hb_context *ctx, hb_context *oracle, const hb_morph_batch_view *v,
                       int plan, int uniform, const char *what)
{
    double *rhs = malloc((size_t)v->rows * sizeof *rhs);
    for (int64_t k = 0; k < v->rows; ++k)
        rhs[k] = v->cdt[k] * (-65 + 10 * hb_test_unit()) + (hb_test_unit() - 0.5);
    hb_oracle_batch bt;
    hb_oracle_init(&bt, &hb_oracle_hines, HB_DOUBLE, v->nsys, v->offsets, v->parent, v->u, v->l,
                   v->d, rhs);
    hb_oracle_reference(&bt, oracle, NULL, what);
    if (plan)
        hb_oracle_plan(ctx, &bt, NULL, uniform, NULL, what);
    else
        hb_oracle_oneshot(ctx, &bt, NULL, what);
    printf("%s: %lld systems, %lld rows\n", what, (long long)v->nsys, (long long)v->rows);
    hb_oracle_free(&bt);
    free(rhs);
}

static void test_shipped(hb_context *ctx, hb_context *oracle)
{
    DIR *dir = opendir(HB_DATA_DIR "/morphologies");
    HB_CHECK(dir != NULL, "cannot open %s", HB_DATA_DIR "/morphologies");
    if (!dir)
        return;
    int files = 0;
    struct dirent *e;
    hb_morph_cell *cells[64];
    int ncells = 0;
    while ((e = readdir(dir))) {
        size_t nl = strlen(e->d_name);
        if (nl < 5 || strcmp(e->d_name + nl - 4, ".swc"))
            continue;
        ++files;
        char path[1024];
        snprintf(path, sizeof path, "%s/morphologies/%s", HB_DATA_DIR, e->d_name);
        size_t len;
        char *text = read_all(path, &len);
        hb_morph *m = NULL;
        HB_CHECK_STATUS(hb_morph_read_swc(path, NULL, &m), HB_SUCCESS);
        if (!m || !text) {
            free(text);
            continue;
        }
        hb_morph_info info;
        hb_morph_get_info(m, &info);
        HB_CHECK(info.samples == count_samples(text, len), "%s: %lld samples, file has %lld",
                 e->d_name, (long long)info.samples, (long long)count_samples(text, len));
        /* SOURCES.md: c91662 and arbor's pyramidal cell have 3-point somata. */
        hb_soma_kind want = strstr(e->d_name, "c91662") || strstr(e->d_name, "pyramidal")
                                ? HB_SOMA_THREE_POINT : HB_SOMA_SAMPLES;
        HB_CHECK(info.soma == want, "%s: soma kind %d, expected %d", e->d_name, (int)info.soma,
                 (int)want);
        int sorted = 1;
        for (int64_t k = 0; k < info.samples; ++k) {
            hb_swc_sample s;
            hb_morph_sample(m, k, &s);
            sorted &= k == 0 ? s.parent == -1 : s.parent >= 0 && s.parent < k;
        }
        HB_CHECK(sorted, "%s: samples not sorted parents first", e->d_name);
        /* Every policy: valid Hines order, positive areas and conductances; the
         * total membrane area does not depend on how the cell is cut. */
        struct {
            hb_morph_policy policy;
            int nseg, reroot;
        } pol[] = {{HB_POLICY_SAMPLE, 1, 0}, {HB_POLICY_SAMPLE, 1, 1}, {HB_POLICY_SECTION, 1, 0},
                   {HB_POLICY_SECTION, 3, 0}, {HB_POLICY_SECTION, 0, 0}, {HB_POLICY_SECTION, 0, 1}};
        double area0 = 0;
        for (size_t p = 0; p < sizeof pol / sizeof pol[0]; ++p) {
            hb_discretize_options o;
            hb_discretize_options_init(&o);
            o.policy = pol[p].policy, o.nseg = pol[p].nseg, o.reroot = pol[p].reroot;
            hb_morph_cell *c = NULL;
            HB_CHECK_STATUS(hb_morph_cell_create(m, &o, NULL, &c), HB_SUCCESS);
            if (!c)
                continue;
            hb_morph_cell_view v;
            hb_morph_cell_get_view(c, &v);
            int good = 1;
            for (int64_t k = 0; k < v.n; ++k)
                good &= v.area[k] > 0 && isfinite(v.area[k]) && isfinite(v.distance[k]) &&
                        (k == 0 ? v.g_axial[k] == 0 : v.g_axial[k] > 0 && isfinite(v.g_axial[k]));
            HB_CHECK(good, "%s policy %zu: non-positive area or conductance", e->d_name, p);
            HB_CHECK(check_hines_order(&v), "%s policy %zu: not a branch-contiguous Hines order",
                     e->d_name, p);
            if (pol[p].policy == HB_POLICY_SAMPLE)
                HB_CHECK(v.n == info.samples - (info.soma == HB_SOMA_THREE_POINT ? 2 : 0),
                         "%s: %lld compartments for %lld samples", e->d_name, (long long)v.n,
                         (long long)info.samples);
            if (pol[p].nseg == 3)
                HB_CHECK(v.n % 3 == (info.soma == HB_SOMA_THREE_POINT), "%s: nseg 3 gave %lld "
                         "compartments", e->d_name, (long long)v.n);
            double area = sum(v.area, v.n);
            if (p == 0)
                area0 = area;
            HB_CHECK(fabs(area - area0) <= 1e-6 * area0, "%s policy %zu: area %.12g, sample "
                     "policy %.12g", e->d_name, p, area, area0);
            hb_tree_stats ts;
            HB_CHECK_STATUS(hb_morph_tree_stats(v.n, v.parent, &ts), HB_SUCCESS);
            HB_CHECK(ts.nodes == v.n && ts.tips >= 1 && ts.levels >= 1, "%s: stats", e->d_name);
            if (p == 2 || p == 4 || ncells >= 64)
                hb_morph_cell_destroy(c);
            else
                cells[ncells++] = c;
        }
        hb_morph_destroy(m);
        free(text);
    }
    closedir(dir);
    HB_CHECK(files >= 7, "only %d .swc files shipped in %s", files, HB_DATA_DIR "/morphologies");
    hb_morph_batch *b = NULL;
    hb_morph_batch_view v;
    HB_CHECK_STATUS(hb_morph_batch_multi((const hb_morph_cell *const *)cells, ncells, 0.025, &b),
                    HB_SUCCESS);
    if (b && hb_morph_batch_get_view(b, &v) == HB_SUCCESS)
        solve_view(ctx, oracle, &v, 0, 0, "shipped neurons, one-shot");
    hb_morph_batch_destroy(b);
    /* Mono: one neuron replicated, through a uniform plan on the backend. */
    if (ncells > 0) {
        int64_t nsys = 37;
        b = NULL;
        HB_CHECK_STATUS(hb_morph_batch_mono(cells[0], nsys, 0.025, &b), HB_SUCCESS);
        if (b && hb_morph_batch_get_view(b, &v) == HB_SUCCESS) {
            HB_CHECK(v.n > 0 && v.rows == nsys * v.n && v.offsets[nsys] == v.rows, "mono shape");
            solve_view(ctx, oracle, &v, 1, 1, "one shipped neuron 37 times, uniform plan");
        }
        hb_morph_batch_destroy(b);
    }
    for (int i = 0; i < ncells; ++i)
        hb_morph_cell_destroy(cells[i]);
}

/* ---- file features ---------------------------------------------------- */
#define NS 40
typedef struct {
    int64_t id, pid;
    int type;
    double x, y, z, r;
} row;

/* A random tree of NS samples (ids 1..NS, parents first): soma root then dendrites. */
static void random_rows(row *rw)
{
    for (int k = 0; k < NS; ++k) {
        rw[k].id = k + 1;
        rw[k].pid = k == 0 ? -1 : hb_test_unit() < 0.8 ? k : 1 + hb_test_range(0, k - 1);
        int types[4] = {2, 3, 4, 7}; /* codes beyond 4 are kept */
        rw[k].type = k == 0 ? 1 : types[hb_test_range(0, 3)];
        rw[k].x = k == 0 ? 0 : rw[rw[k].pid - 1].x + 1 + 5 * hb_test_unit();
        rw[k].y = 10 * hb_test_unit() - 5, rw[k].z = 10 * hb_test_unit() - 5;
        rw[k].r = k == 0 ? 6 : 0.2 + hb_test_unit();
    }
}

/* Prints rows in the given order with ids mapped by idmap, scale, line end, comments. */
static size_t print_rows(char *buf, size_t cap, const row *rw, const int *order,
                         const int64_t *idmap, double scale, const char *eol, int comments)
{
    size_t o = 0;
    if (comments)
        o += snprintf(buf + o, cap - o, "# a test neuron%s#%s", eol, eol);
    for (int i = 0; i < NS; ++i) {
        const row *q = &rw[order[i]];
        o += snprintf(buf + o, cap - o, "%lld %d %.17g %.17g %.17g %.17g %lld%s%s",
                      (long long)idmap[q->id], q->type, q->x * scale, q->y * scale, q->z * scale,
                      q->r * scale, (long long)(q->pid < 0 ? -1 : idmap[q->pid]),
                      comments && i % 3 == 0 ? "  # trailing comment" : "", eol);
        if (comments && i % 7 == 0)
            o += snprintf(buf + o, cap - o, "%s   \t%s", eol, eol); /* blank lines */
    }
    return o;
}

/* Same tree (by id) as the reference rows: coordinates and parent ids. */
static int same_tree(const hb_morph *m, const row *rw, const int64_t *idmap, double tol)
{
    hb_morph_info info;
    if (hb_morph_get_info(m, &info) != HB_SUCCESS || info.samples != NS)
        return 0;
    for (int64_t k = 0; k < NS; ++k) {
        hb_swc_sample s, p;
        hb_morph_sample(m, k, &s);
        int j = 0;
        while (j < NS && idmap[rw[j].id] != s.id)
            ++j;
        if (j == NS)
            return 0;
        if (fabs(s.x - rw[j].x) > tol || fabs(s.y - rw[j].y) > tol || fabs(s.z - rw[j].z) > tol ||
            fabs(s.radius - rw[j].r) > tol || s.type != rw[j].type)
            return 0;
        if (s.parent < 0 ? rw[j].pid != -1
                         : (hb_morph_sample(m, s.parent, &p), p.id != idmap[rw[j].pid]))
            return 0;
    }
    return 1;
}

static void test_features(void)
{
    row rw[NS];
    random_rows(rw);
    int order[NS];
    int64_t ident[NS + 1], gaps[NS + 1];
    for (int k = 0; k < NS; ++k)
        order[k] = k;
    for (int k = 0; k <= NS; ++k)
        ident[k] = k, gaps[k] = 1000 + 7 * k + hb_test_range(0, 5);
    size_t cap = 1 << 16;
    char *buf = malloc(cap);
    struct {
        const char *what;
        const int64_t *ids;
        const char *eol;
        int comments, shuffle;
        double scale;
    } cs[] = {{"plain LF", ident, "\n", 0, 0, 1},
              {"CRLF", ident, "\r\n", 0, 0, 1},
              {"comments", ident, "\n", 1, 0, 1},
              {"ids with gaps", gaps, "\r\n", 1, 0, 1},
              {"parents after children", gaps, "\n", 1, 1, 1},
              {"nm, scale 1e-3", ident, "\n", 0, 1, 1000}};
    for (size_t c = 0; c < sizeof cs / sizeof cs[0]; ++c) {
        if (cs[c].shuffle)
            for (int k = NS - 1; k > 0; --k) {
                int j = (int)hb_test_range(0, k), t = order[k];
                order[k] = order[j], order[j] = t;
            }
        else
            for (int k = 0; k < NS; ++k)
                order[k] = k;
        size_t len = print_rows(buf, cap, rw, order, cs[c].ids, cs[c].scale, cs[c].eol,
                                cs[c].comments);
        hb_swc_options so;
        hb_swc_options_init(&so);
        so.scale = 1.0 / cs[c].scale;
        hb_morph *m = NULL, *mf = NULL;
        HB_CHECK_STATUS(hb_morph_parse_swc(buf, len, cs[c].what, &so, &m), HB_SUCCESS);
        HB_CHECK_STATUS(hb_morph_read_swc(write_file("feature.swc", buf, len), &so, &mf),
                        HB_SUCCESS);
        HB_CHECK(m && same_tree(m, rw, cs[c].ids, 1e-9), "%s: tree differs from the reference",
                 cs[c].what);
        HB_CHECK(mf && same_tree(mf, rw, cs[c].ids, 1e-9), "%s (file): tree differs", cs[c].what);
        /* Same cell whatever the file's order: same total area and statistics. */
        if (m) {
            hb_morph_cell *cell = NULL;
            hb_morph_info info;
            hb_morph_get_info(m, &info);
            HB_CHECK(info.soma == HB_SOMA_SINGLE_POINT, "%s: single-point soma not seen",
                     cs[c].what);
            HB_CHECK_STATUS(hb_morph_cell_create(m, NULL, NULL, &cell), HB_SUCCESS);
            hb_morph_cell_view v;
            if (cell && hb_morph_cell_get_view(cell, &v) == HB_SUCCESS) {
                HB_CHECK(check_hines_order(&v), "%s: not a Hines order", cs[c].what);
                /* The sphere soma: 4 pi r^2 plus the halves of its children's segments. */
                HB_CHECK(v.area[0] >= 4 * PI * 36 && v.source[0] == 0, "%s: soma area %g",
                         cs[c].what, v.area[0]);
            }
            hb_morph_cell_destroy(cell);
        }
        hb_morph_destroy(m);
        hb_morph_destroy(mf);
    }

    /* NeuroMorpho 3-point soma -> one sphere compartment of area 4 pi r^2
     * plus half of each child segment; multi-sample soma -> frusta. */
    {
        double r = 2 + 8 * hb_test_unit();
        char t[1024];
        int len = snprintf(t, sizeof t,
                           "1 1 0 0 0 %.17g -1\n2 1 0 %.17g 0 %.17g 1\n3 1 0 %.17g 0 %.17g 1\n"
                           "4 3 %.17g 0 0 1 1\n5 3 %.17g 0 0 1 4\n",
                           r, -r, r, r, r, r + 10, r + 20);
        hb_morph *m = NULL;
        HB_CHECK_STATUS(hb_morph_parse_swc(t, (size_t)len, "3pt", NULL, &m), HB_SUCCESS);
        hb_morph_info info = {0};
        hb_morph_get_info(m, &info);
        HB_CHECK(info.soma == HB_SOMA_THREE_POINT && info.soma_radius == r, "3-point soma: kind %d",
                 (int)info.soma);
        hb_morph_cell *c = NULL;
        HB_CHECK_STATUS(hb_morph_cell_create(m, NULL, NULL, &c), HB_SUCCESS);
        hb_morph_cell_view v;
        if (c && hb_morph_cell_get_view(c, &v) == HB_SUCCESS) {
            /* Child 4 starts on the surface: its segment is a 10 um cylinder of radius 1. */
            double want0 = 4 * PI * r * r + PI * 10.0;
            HB_CHECK(v.n == 3 && fabs(v.area[0] - want0) < 1e-9 * want0,
                     "3-point soma: n %lld, soma area %.12g, expected %.12g", (long long)v.n,
                     v.area[0], want0);
            double g = 100 * PI * 1 * 1 / (35.4 * 10);
            HB_CHECK(fabs(v.g_axial[1] - g) < 1e-12 * g, "3-point soma: g %.12g, expected %.12g",
                     v.g_axial[1], g);
        }
        hb_morph_cell_destroy(c);
        hb_morph_destroy(m);
        len =
            snprintf(t, sizeof t, "1 1 0 0 0 3 -1\n2 1 2 0 0 4 1\n3 1 4 0 0 3 2\n4 3 6 0 0 1 3\n");
        HB_CHECK_STATUS(hb_morph_parse_swc(t, (size_t)len, "multi", NULL, &m), HB_SUCCESS);
        hb_morph_get_info(m, &info);
        HB_CHECK(info.soma == HB_SOMA_SAMPLES && fabs(info.total_length - 6) < 1e-12,
                 "multi-sample soma: kind %d length %g", (int)info.soma, info.total_length);
        hb_morph_destroy(m);
    }

    /* Sections break at type changes; nseg 2 each; edges are half compartments in series. */
    {
        const char *t = "1 3 0 0 0 1 -1\n2 3 10 0 0 1 1\n3 4 20 0 0 1 2\n4 4 30 0 0 1 3\n";
        hb_morph *m = NULL;
        hb_morph_cell *c = NULL;
        hb_discretize_options o;
        hb_discretize_options_init(&o);
        o.policy = HB_POLICY_SECTION, o.nseg = 2;
        HB_CHECK_STATUS(hb_morph_parse_swc(t, strlen(t), "types", NULL, &m), HB_SUCCESS);
        HB_CHECK_STATUS(hb_morph_cell_create(m, &o, NULL, &c), HB_SUCCESS);
        hb_morph_cell_view v;
        if (c && hb_morph_cell_get_view(c, &v) == HB_SUCCESS) {
            double dist[4] = {2.5, 7.5, 15, 25}, half[4] = {0, 5, 7.5, 10};
            int ok = v.n == 4;
            for (int k = 0; ok && k < 4; ++k) {
                double g = k ? 100 * PI / (35.4 * half[k]) : 0;
                ok &= v.type[k] == (k < 2 ? 3 : 4) && fabs(v.distance[k] - dist[k]) < 1e-12 &&
                      fabs(v.g_axial[k] - g) <= 1e-12 * g && v.parent[k] == k - 1 &&
                      fabs(v.area[k] - 2 * PI * (k < 2 ? 5 : 10)) < 1e-9;
            }
            HB_CHECK(ok, "sections at a type change: wrong compartments");
        }
        hb_morph_cell_destroy(c);
        hb_morph_destroy(m);
    }

    /* Radius repair: a zero radius takes the parent's; the root its smallest child's. */
    {
        const char *t = "1 3 0 0 0 0 -1\n2 3 1 0 0 0.5 1\n3 3 2 0 0 -1 2\n4 3 0 1 0 0.7 1\n";
        hb_morph *m = NULL;
        HB_CHECK_STATUS(hb_morph_parse_swc(t, strlen(t), "zero", NULL, &m), HB_ERR_PARSE);
        HB_CHECK(strstr(hb_last_error(), "zero:1:") != NULL, "radius message: %s", hb_last_error());
        hb_swc_options so;
        hb_swc_options_init(&so);
        so.repair_radii = 1;
        HB_CHECK_STATUS(hb_morph_parse_swc(t, strlen(t), "zero", &so, &m), HB_SUCCESS);
        hb_morph_info info = {0};
        hb_morph_get_info(m, &info);
        HB_CHECK(info.repaired == 2, "repaired %lld radii, expected 2", (long long)info.repaired);
        for (int64_t k = 0; m && k < 4; ++k) {
            hb_swc_sample s;
            hb_morph_sample(m, k, &s);
            double want = s.id == 1 ? 0.5 : s.id == 2 ? 0.5 : s.id == 3 ? 0.5 : 0.7;
            HB_CHECK(s.radius == want, "sample %lld radius %g, expected %g", (long long)s.id,
                     s.radius, want);
        }
        hb_morph_destroy(m);
    }
    free(buf);
}

/* 100,000 samples in one chain, listed backwards (every parent after its child). */
static void test_long_chain(void)
{
    int64_t n = 100000;
    size_t cap = (size_t)n * 48;
    char *t = malloc(cap);
    size_t o = 0;
    for (int64_t k = n; k >= 1; --k)
        o += snprintf(t + o, cap - o, "%lld 3 %lld 0 0 1 %lld\n", (long long)k, (long long)k,
                      (long long)(k == 1 ? -1 : k - 1));
    hb_morph *m = NULL;
    HB_CHECK_STATUS(hb_morph_parse_swc(t, o, "chain", NULL, &m), HB_SUCCESS);
    hb_discretize_options opt;
    hb_discretize_options_init(&opt);
    for (int p = 0; p < 3 && m; ++p) {
        opt.policy = p ? HB_POLICY_SECTION : HB_POLICY_SAMPLE;
        opt.nseg = p == 1 ? 7 : 0;
        hb_morph_cell *c = NULL;
        HB_CHECK_STATUS(hb_morph_cell_create(m, &opt, NULL, &c), HB_SUCCESS);
        hb_morph_cell_view v;
        hb_tree_stats ts = {0};
        if (c && hb_morph_cell_get_view(c, &v) == HB_SUCCESS)
            HB_CHECK_STATUS(hb_morph_tree_stats(v.n, v.parent, &ts), HB_SUCCESS);
        HB_CHECK(ts.levels == 1 && ts.branches == 1 && ts.tips == 1 &&
                     ts.longest_branch == ts.nodes && (p != 0 || ts.nodes == n) &&
                     (p != 1 || ts.nodes == 7),
                 "chain policy %d: %lld nodes, %lld levels", p, (long long)ts.nodes,
                 (long long)ts.levels);
        hb_morph_cell_destroy(c);
    }
    hb_morph_destroy(m);
    free(t);
}

/* Every bad file gets its code and a message naming the line. */
static void test_bad_files(void)
{
    struct {
        const char *what, *text;
        hb_status code;
        int line; /* 0: no line in the message */
    } bad[] = {
        {"unparseable radius", "1 1 0 0 0 5 -1\n2 3 1 0 0 abc 1\n", HB_ERR_PARSE, 2},
        {"unparseable id", "# c\n1.5 1 0 0 0 5 -1\n", HB_ERR_PARSE, 2},
        {"six columns", "1 1 0 0 0 5 -1\n2 3 1 0 0 1\n", HB_ERR_PARSE, 2},
        {"eight columns", "1 1 0 0 0 5 -1\n\n2 3 1 0 0 1 1 9\n", HB_ERR_PARSE, 3},
        {"non-finite", "1 1 0 0 0 5 -1\n2 3 inf 0 0 1 1\n", HB_ERR_PARSE, 2},
        {"duplicate id", "1 1 0 0 0 5 -1\n2 3 1 0 0 1 1\r\n3 3 2 0 0 1 2\n2 3 3 0 0 1 3\n",
         HB_ERR_PARSE, 4},
        {"missing parent", "1 1 0 0 0 5 -1\n2 3 1 0 0 1 1\n3 3 2 0 0 1 7\n", HB_ERR_PARSE, 3},
        {"cycle", "1 1 0 0 0 5 -1\n2 3 1 0 0 1 3\n3 3 2 0 0 1 2\n", HB_ERR_PARSE, 2},
        {"self parent", "1 1 0 0 0 5 -1\n# x\n2 3 1 0 0 1 2\n", HB_ERR_PARSE, 3},
        {"no root", "1 1 0 0 0 5 2\n2 3 1 0 0 1 1\n", HB_ERR_PARSE, 1},
        {"two roots", "1 1 0 0 0 5 -1\n2 3 1 0 0 1 1\n3 3 2 0 0 1 -1\n", HB_ERR_PARSE, 3},
        {"zero radius", "1 1 0 0 0 5 -1\n2 3 1 0 0 0 1\n", HB_ERR_PARSE, 2},
        {"negative radius", "1 1 0 0 0 5 -1\n2 3 1 0 0 1 1\n3 3 1 0 0 -0.5 2\n", HB_ERR_PARSE, 3},
        {"bad parent", "1 1 0 0 0 5 -1\n2 3 1 0 0 1 -3\n", HB_ERR_PARSE, 2},
        {"no samples", "# only a comment\n\n", HB_ERR_PARSE, 0},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        char name[64];
        snprintf(name, sizeof name, "bad%zu.swc", i);
        const char *path = write_file(name, bad[i].text, strlen(bad[i].text));
        hb_morph *sentinel = (hb_morph *)&bad[i], *m = sentinel;
        HB_CHECK_STATUS(hb_morph_read_swc(path, NULL, &m), bad[i].code);
        HB_CHECK(m == sentinel, "%s: output written on error", bad[i].what);
        char want[600];
        snprintf(want, sizeof want, "%s:%d:", path, bad[i].line);
        if (bad[i].line)
            HB_CHECK(strstr(hb_last_error(), want) != NULL,
                     "%s: message '%s' does not name line %d", bad[i].what, hb_last_error(),
                     bad[i].line);
        else
            HB_CHECK(strstr(hb_last_error(), path) != NULL, "%s: message '%s'", bad[i].what,
                     hb_last_error());
    }
    hb_morph *m = NULL;
    char path[600];
    snprintf(path, sizeof path, "%s/does-not-exist.swc", tmpdir);
    HB_CHECK_STATUS(hb_morph_read_swc(path, NULL, &m), HB_ERR_IO);
    HB_CHECK(m == NULL && strstr(hb_last_error(), "does-not-exist.swc"), "missing file: %s",
             hb_last_error());
    HB_CHECK_STATUS(hb_morph_read_swc(tmpdir, NULL, &m), HB_ERR_IO); /* a directory */
    hb_swc_options so;
    hb_swc_options_init(&so);
    so.scale = 0;
    HB_CHECK_STATUS(hb_morph_parse_swc("1 1 0 0 0 1 -1\n", 15, NULL, &so, &m),
                    HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_morph_read_swc(NULL, NULL, &m), HB_ERR_INVALID_ARGUMENT);
}

int main(void)
{
    hb_test_begin("test_morph_swc");
    snprintf(tmpdir, sizeof tmpdir, "%s/hb_morph_XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(tmpdir)) {
        fprintf(stderr, "cannot make a temp dir\n");
        return 1;
    }
    hb_context *ctx = hb_test_context(), *oracle = hb_test_oracle();
    test_shipped(ctx, oracle);
    test_features();
    test_long_chain();
    test_bad_files();
    /* Remove what we wrote. */
    DIR *d = opendir(tmpdir);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        char p[600];
        if (e->d_name[0] == '.')
            continue;
        snprintf(p, sizeof p, "%s/%s", tmpdir, e->d_name);
        remove(p);
    }
    if (d)
        closedir(d);
    rmdir(tmpdir);
    hb_context_destroy(ctx);
    hb_context_destroy(oracle);
    return hb_test_finish();
}
