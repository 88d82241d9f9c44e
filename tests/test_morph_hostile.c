/* test_morph_hostile.c: hostile SWC input and options: overflowing values, binary streams, compartment counts past the cap, deep trees; each refused with its code and a message naming the place, outputs untouched. */
#define _XOPEN_SOURCE 700 /* mkdtemp */
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "hb_test_util.h"

static char tmpdir[256];

/* Writes text to a file of the temp dir; returns its path (static buffer). */
static const char *write_file(const char *name, const char *text)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "wb");
    size_t len = strlen(text);
    if (!f || fwrite(text, 1, len, f) != len) {
        fprintf(stderr, "cannot write %s\n", path);
        exit(1);
    }
    fclose(f);
    return path;
}

/* The last message holds every one of the (up to three) substrings. */
static void check_message(const char *what, const char *a, const char *b, const char *c)
{
    const char *msg = hb_last_error(), *want[3] = {a, b, c};
    for (int i = 0; i < 3; ++i)
        HB_CHECK(!want[i] || strstr(msg, want[i]), "%s: message '%s' does not name '%s'", what,
                 msg, want[i]);
}

/* Reads text as a file (so messages carry its path) or returns NULL. */
static hb_morph *read_text(const char *name, const char *text, const hb_swc_options *so)
{
    hb_morph *m = NULL;
    HB_CHECK_STATUS(hb_morph_read_swc(write_file(name, text), so, &m), HB_SUCCESS);
    return m;
}

/* ---- a stream of binary garbage: refused at its first block ------------ */
typedef struct {
    int fd;
    int64_t written; /* bytes the reader took before it closed the pipe */
} zero_writer;

/* Writes up to 256 MiB of NUL bytes, stopping when the reader closes. */
static void *write_zeros(void *arg)
{
    zero_writer *z = arg;
    static const char block[65536];
    while (z->written < ((int64_t)256 << 20)) {
        ssize_t w = write(z->fd, block, sizeof block);
        if (w <= 0)
            break; /* EPIPE: the reader is done */
        z->written += w;
    }
    close(z->fd);
    return NULL;
}

/* Reading /dev/zero (or any binary stream) filled memory without end: 8 GB
 * in 20 s, never a message. A NUL byte outside a comment now ends the
 * reading, so the reader takes at most a block or two of this 256 MiB pipe. */
static void test_binary_stream(void)
{
    int fds[2];
    if (pipe(fds) != 0) {
        fprintf(stderr, "cannot make a pipe\n");
        exit(1);
    }
    signal(SIGPIPE, SIG_IGN);
    zero_writer z = {fds[1], 0};
    pthread_t th;
    if (pthread_create(&th, NULL, write_zeros, &z) != 0) {
        fprintf(stderr, "cannot start the writer\n");
        exit(1);
    }
    char path[64];
    snprintf(path, sizeof path, "/dev/fd/%d", fds[0]);
    hb_morph *sentinel = (hb_morph *)&z, *m = sentinel;
    HB_CHECK_STATUS(hb_morph_read_swc(path, NULL, &m), HB_ERR_PARSE);
    HB_CHECK(m == sentinel, "binary stream: output written on error");
    check_message("binary stream", path, ":1: NUL byte in the line", NULL);
    close(fds[0]);
    pthread_join(th, NULL);
    HB_CHECK(z.written < ((int64_t)4 << 20), "binary stream: %lld bytes taken before the refusal",
             (long long)z.written);
    /* A NUL inside a comment is no error: the lines after it are read. */
    static const char text[] = "# a\0b\n1 1 0 0 0 5 -1\n# \0\n2 3 10 0 0 1 1\n";
    const char *file = write_file("nulcomment.swc", "");
    FILE *f = fopen(file, "wb");
    if (!f || fwrite(text, 1, sizeof text - 1, f) != sizeof text - 1) {
        fprintf(stderr, "cannot write %s\n", file);
        exit(1);
    }
    fclose(f);
    m = NULL;
    HB_CHECK_STATUS(hb_morph_read_swc(file, NULL, &m), HB_SUCCESS);
    hb_morph_info info;
    if (m && hb_morph_get_info(m, &info) == HB_SUCCESS)
        HB_CHECK(info.samples == 2, "NUL in comments: %lld samples, expected 2",
                 (long long)info.samples);
    hb_morph_destroy(m);
}

/* ---- values that are finite in the file but not once scaled or combined -- */
static void test_reader_values(void)
{
    struct {
        const char *what, *text;
        double scale;
        int line;
        const char *names; /* a word the message must hold */
    } bad[] = {
        {"coordinate 1e300 (length overflows)", "1 3 0 0 0 1 -1\n2 3 1e300 0 0 1 1\n", 1, 2,
         "length"},
        {"opposite 1.7e308 (difference overflows)", "1 3 -1.7e308 0 0 1 -1\n2 3 1.7e308 0 0 1 1\n",
         1, 2, "length"},
        {"NaN text", "1 3 0 0 0 1 -1\n2 3 nan 0 0 1 1\n", 1, 2, "x"},
        {"-NaN radius", "1 3 0 0 0 1 -1\n2 3 1 0 0 -nan 1\n", 1, 2, "radius"},
        {"1e999", "1 3 0 0 0 1 -1\n2 3 1 1e999 0 1 1\n", 1, 2, "y"},
        {"hex float 0x1p5000", "1 3 0 0 0 1 -1\n2 3 1 0 0x1p5000 1 1\n", 1, 2, "z"},
        {"scale 1e308", "1 3 0 0 0 1 -1\n2 3 10 0 0 1 1\n", 1e308, 2, "scale"},
        {"radius times scale", "1 3 0 0 0 1e10 -1\n", 1e300, 1, "radius"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        char name[64];
        snprintf(name, sizeof name, "value%zu.swc", i);
        const char *path = write_file(name, bad[i].text);
        hb_swc_options so;
        hb_swc_options_init(&so);
        so.scale = bad[i].scale;
        hb_morph *sentinel = (hb_morph *)&bad[i], *m = sentinel;
        HB_CHECK_STATUS(hb_morph_read_swc(path, &so, &m), HB_ERR_PARSE);
        HB_CHECK(m == sentinel, "%s: output written on error", bad[i].what);
        char where[600];
        snprintf(where, sizeof where, "%s:%d:", path, bad[i].line);
        check_message(bad[i].what, where, bad[i].names, NULL);
        /* The same text from memory: the same refusal under the given name. */
        m = sentinel;
        HB_CHECK_STATUS(hb_morph_parse_swc(bad[i].text, strlen(bad[i].text), "mem", &so, &m),
                        HB_ERR_PARSE);
        HB_CHECK(m == sentinel, "%s (memory): output written on error", bad[i].what);
        snprintf(where, sizeof where, "mem:%d:", bad[i].line);
        check_message(bad[i].what, where, NULL, NULL);
    }
}

/* A cell from the file, expected to fail with code and a message holding a and b. */
static void expect_cell_fail(const char *what, const char *text, const hb_discretize_options *o,
                             const hb_cable *cab, hb_status code, const char *a, const char *b)
{
    hb_morph *m = read_text("cell.swc", text, NULL);
    if (!m)
        return;
    hb_morph_cell *sentinel = (hb_morph_cell *)&m, *c = sentinel;
    clock_t t0 = clock();
    HB_CHECK_STATUS(hb_morph_cell_create(m, o, cab, &c), code);
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    HB_CHECK(c == sentinel, "%s: output written on error", what);
    /* Refused before the work: none of these takes more than a moment. */
    HB_CHECK(secs < 2.0, "%s: refused after %.2f s of CPU", what, secs);
    check_message(what, a, b, NULL);
    hb_morph_destroy(m);
}

static void test_cell_values(void)
{
    hb_discretize_options o;
    hb_cable cab;
    hb_discretize_options_init(&o);
    hb_cable_init(&cab);
    char where[600];
    snprintf(where, sizeof where, "%s/cell.swc:1: sample 1", tmpdir);
    expect_cell_fail("soma radius 1e300 (area overflows)", "1 1 0 0 0 1e300 -1\n", &o, NULL,
                     HB_ERR_INVALID_ARGUMENT, where, "membrane area");
    snprintf(where, sizeof where, "%s/cell.swc:2: sample 7", tmpdir);
    expect_cell_fail("radii 1e-300 (conductance underflows to 0)",
                     "1 3 0 0 0 1e-300 -1\n7 3 10 0 0 1e-300 1\n", &o, NULL,
                     HB_ERR_INVALID_ARGUMENT, where, "axial conductance");
    o.policy = HB_POLICY_SECTION, o.nseg = 2; /* nseg 1 would be the root alone */
    expect_cell_fail("radii 1e-300, sections", "1 3 0 0 0 1e-300 -1\n7 3 10 0 0 1e-300 1\n", &o,
                     NULL, HB_ERR_INVALID_ARGUMENT, "cell.swc:2: sample 7", "axial conductance");
    o.policy = HB_POLICY_SAMPLE;
    cab.ra = 1e-306;
    expect_cell_fail("cable ra 1e-306 (conductance overflows)",
                     "1 3 0 0 0 100 -1\n2 3 10 0 0 100 1\n", &o, &cab, HB_ERR_INVALID_ARGUMENT,
                     "cell.swc:2: sample 2", "axial conductance");
    expect_cell_fail("every segment of zero length (no membrane)",
                     "1 3 5 5 5 1 -1\n2 3 5 5 5 1 1\n3 3 5 5 5 1 2\n", &o, NULL,
                     HB_ERR_INVALID_ARGUMENT, "membrane area", "cell.swc");

    /* Synthetic cells and cells from parent arrays are held to the same rule. */
    int32_t parent[3] = {-1, 0, 1};
    hb_morph_cell *sentinel = (hb_morph_cell *)parent, *c = sentinel;
    HB_CHECK_STATUS(hb_morph_cell_from_parent(3, parent, 1e300, 1e300, NULL, &c),
                    HB_ERR_INVALID_ARGUMENT);
    HB_CHECK(c == sentinel, "from_parent: output written on error");
    check_message("from_parent 1e300", "membrane area", NULL, NULL);
    hb_synth_random_params rp = {3, 1.0, 1.0, 1e300, 1e300, 1};
    hb_synth_geometry geo;
    hb_synth_geometry_init(&geo);
    geo.length = 1e-300; /* 1e600 compartments per branch: never converted to an integer */
    HB_CHECK_STATUS(hb_morph_synth_random(&rp, &geo, &c), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK(c == sentinel, "synth_random: output written on error");
    check_message("synth_random 1e600 nodes", "2^31-1", NULL, NULL);
}

/* ---- the compartment cap ------------------------------------------------- */
static void test_cap(void)
{
    hb_discretize_options o;
    hb_discretize_options_init(&o);
    HB_CHECK(o.max_compartments == 0, "options_init: max_compartments %lld, expected 0",
             (long long)o.max_compartments);
    /* 32 bytes: a 1 km thin dendrite, 47 million compartments by the d_lambda rule. */
    const char *thin = "1 1 0 0 0 1 -1\n2 3 0 0 1e9 .1 1\n";
    char where[600];
    snprintf(where, sizeof where, "%s/cell.swc:2: sample 2", tmpdir);
    o.policy = HB_POLICY_SECTION, o.nseg = 0, o.d_lambda = 0.1;
    expect_cell_fail("38 bytes, d_lambda 0.1", thin, &o, NULL, HB_ERR_INVALID_ARGUMENT, where,
                     "max_compartments = 1000000");
    check_message("38 bytes, d_lambda 0.1", "d_lambda", NULL, NULL);
    o.d_lambda = 1e-300; /* an infinite count, never converted */
    expect_cell_fail("d_lambda 1e-300", "1 3 0 0 0 1 -1\n2 3 10 0 0 1 1\n", &o, NULL,
                     HB_ERR_INVALID_ARGUMENT, "cell.swc:2: sample 2", "max_compartments");
    /* nseg 1000000 ran 55 s to 10 GB: two sections pass the cap. */
    const char *two = "1 1 0 0 0 5 -1\n2 3 10 0 0 1 1\n3 3 -10 0 0 1 1\n";
    o.nseg = 1000000;
    expect_cell_fail("nseg 1000000", two, &o, NULL, HB_ERR_INVALID_ARGUMENT, "nseg 1000000",
                     "max_compartments = 1000000");
    o.nseg = INT32_MAX;
    expect_cell_fail("nseg 2^31-1", two, &o, NULL, HB_ERR_INVALID_ARGUMENT, "cell.swc:2: sample 2",
                     "max_compartments");
    o.max_compartments = INT32_MAX; /* the largest cap: still refused before allocating */
    o.nseg = INT32_MAX - 1;         /* the sphere and the first section fit exactly */
    expect_cell_fail("nseg 2^31-2, cap 2^31-1", two, &o, NULL, HB_ERR_INVALID_ARGUMENT,
                     "cell.swc:3: sample 3", "max_compartments = 2147483647");
    o.max_compartments = -1;
    expect_cell_fail("cap -1", two, &o, NULL, HB_ERR_INVALID_ARGUMENT, "opts.max_compartments = -1",
                     NULL);
    o.max_compartments = (int64_t)INT32_MAX + 1;
    expect_cell_fail("cap 2^31", two, &o, NULL, HB_ERR_INVALID_ARGUMENT,
                     "opts.max_compartments = 2147483648", NULL);

    /* The cap is inclusive, under both policies. Sphere + 2 sections of nseg 5 = 11. */
    hb_morph *m = read_text("two.swc", two, NULL);
    o.nseg = 5;
    for (int64_t cap = 10; cap <= 11 && m; ++cap) {
        hb_morph_cell *c = NULL;
        o.max_compartments = cap;
        HB_CHECK_STATUS(hb_morph_cell_create(m, &o, NULL, &c), cap == 11 ? HB_SUCCESS
                                                                         : HB_ERR_INVALID_ARGUMENT);
        hb_morph_cell_view v;
        if (c && hb_morph_cell_get_view(c, &v) == HB_SUCCESS)
            HB_CHECK(v.n == 11, "sections: %lld compartments, expected 11", (long long)v.n);
        hb_morph_cell_destroy(c);
    }
    o.policy = HB_POLICY_SAMPLE;
    for (int64_t cap = 2; cap <= 3 && m; ++cap) {
        hb_morph_cell *c = NULL;
        o.max_compartments = cap;
        HB_CHECK_STATUS(hb_morph_cell_create(m, &o, NULL, &c), cap == 3 ? HB_SUCCESS
                                                                        : HB_ERR_INVALID_ARGUMENT);
        if (cap == 2)
            check_message("samples past the cap", "3 compartments (one per sample)",
                          "max_compartments = 2", NULL);
        hb_morph_cell_destroy(c);
    }
    hb_morph_destroy(m);
}

/* ---- dt that makes the matrix overflow: nothing written ---------------- */
static void test_matrix_dt(void)
{
    hb_morph *m = read_text("m.swc", "1 1 0 0 0 5 -1\n2 3 10 0 0 1 1\n", NULL);
    hb_morph_cell *c = NULL;
    HB_CHECK_STATUS(hb_morph_cell_create(m, NULL, NULL, &c), HB_SUCCESS);
    if (!c) {
        hb_morph_destroy(m);
        return;
    }
    double d[2] = {777, 777}, u[2] = {777, 777}, l[2] = {777, 777}, cdt[2] = {777, 777};
    HB_CHECK_STATUS(hb_morph_cell_matrix(c, 1e-320, d, u, l), HB_ERR_INVALID_ARGUMENT);
    check_message("matrix dt 1e-320", "dt = ", "not finite", NULL);
    HB_CHECK_STATUS(hb_morph_cell_cdt(c, 1e-320, cdt), HB_ERR_INVALID_ARGUMENT);
    int untouched = 1;
    for (int k = 0; k < 2; ++k)
        untouched &= d[k] == 777 && u[k] == 777 && l[k] == 777 && cdt[k] == 777;
    HB_CHECK(untouched, "matrix / cdt written on error");
    hb_morph_batch *sentinel = (hb_morph_batch *)&m, *b = sentinel;
    HB_CHECK_STATUS(hb_morph_batch_mono(c, 3, 1e-320, &b), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK(b == sentinel, "batch written on error");
    HB_CHECK_STATUS(hb_morph_batch_mono(c, INT64_MAX / 2, 0.025, &b), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK(b == sentinel, "batch written on error");
    hb_morph_cell_destroy(c);
    hb_morph_destroy(m);
}

/* ---- deep trees: no recursion anywhere --------------------------------- */
/* A chain of n samples (listed backwards) or a comb (a chain with a side
 * leaf at every sample: n/2 branch levels). */
static char *deep_text(int64_t n, int comb, size_t *len)
{
    size_t cap = (size_t)n * 48 + 64, o = 0;
    char *t = malloc(cap);
    for (int64_t k = n; k >= 1; --k) {
        int64_t parent = k == 1 ? -1 : comb ? (k % 2 ? k - 2 : k - 1) : k - 1;
        if (comb && k == 2)
            parent = 1;
        o += (size_t)snprintf(t + o, cap - o, "%lld 3 %lld %d 0 1 %lld\n", (long long)k,
                              (long long)k, comb && k % 2 == 0 ? 3 : 0, (long long)parent);
    }
    *len = o;
    return t;
}

static void test_deep(hb_context *ctx)
{
    /* One million samples: exactly the default cap. */
    int64_t n = 1000000;
    size_t len;
    char *t = deep_text(n, 0, &len);
    hb_morph *m = NULL;
    HB_CHECK_STATUS(hb_morph_parse_swc(t, len, "chain", NULL, &m), HB_SUCCESS);
    free(t);
    hb_discretize_options o;
    hb_discretize_options_init(&o);
    o.reroot = 1;
    hb_morph_cell *c = NULL;
    if (m)
        HB_CHECK_STATUS(hb_morph_cell_create(m, &o, NULL, &c), HB_SUCCESS);
    hb_morph_cell_view v;
    if (c && hb_morph_cell_get_view(c, &v) == HB_SUCCESS) {
        hb_tree_stats ts = {0};
        HB_CHECK_STATUS(hb_morph_tree_stats(v.n, v.parent, &ts), HB_SUCCESS);
        HB_CHECK(ts.nodes == n && ts.levels <= 2, "1e6 chain: %lld nodes, %lld levels",
                 (long long)ts.nodes, (long long)ts.levels);
        /* Solved on the backend under test: residual ratio under LAPACK's 30. */
        hb_morph_batch *b = NULL;
        hb_morph_batch_view bv;
        HB_CHECK_STATUS(hb_morph_batch_mono(c, 1, 0.025, &b), HB_SUCCESS);
        if (b && hb_morph_batch_get_view(b, &bv) == HB_SUCCESS) {
            double *x = malloc((size_t)bv.rows * sizeof *x), *rhs = malloc((size_t)bv.rows * sizeof *rhs);
            double *d = malloc((size_t)bv.rows * sizeof *d);
            for (int64_t k = 0; k < bv.rows; ++k)
                rhs[k] = bv.cdt[k] * -65.0 + (k % 1000 == 0 ? 0.1 : 0.0), x[k] = rhs[k];
            memcpy(d, bv.d, (size_t)bv.rows * sizeof *d);
            HB_CHECK_STATUS(hb_dhines_solve(ctx, bv.nsys, bv.offsets, bv.parent, bv.u, bv.l, d, x),
                            HB_SUCCESS);
            double ratio = hb_test_hines_ratio(HB_DOUBLE, bv.nsys, bv.offsets, bv.parent, bv.u,
                                               bv.l, bv.d, x, rhs, NULL);
            HB_CHECK(ratio < HB_TEST_RATIO_MAX, "1e6 chain: residual ratio %g", ratio);
            free(x), free(rhs), free(d);
        }
        hb_morph_batch_destroy(b);
    }
    hb_morph_cell_destroy(c);
    /* One more sample than the cap. */
    if (m) {
        hb_morph_destroy(m);
        t = deep_text(n + 1, 0, &len);
        m = NULL;
        HB_CHECK_STATUS(hb_morph_parse_swc(t, len, "chain", NULL, &m), HB_SUCCESS);
        free(t);
        c = NULL;
        if (m)
            HB_CHECK_STATUS(hb_morph_cell_create(m, NULL, NULL, &c), HB_ERR_INVALID_ARGUMENT);
        check_message("1e6+1 chain", "1000001 compartments", NULL, NULL);
        hb_morph_cell_destroy(c);
        /* Sections: one section of 7; then the branch levels of a deep comb. */
        o.policy = HB_POLICY_SECTION, o.nseg = 7, o.reroot = 0;
        if (m)
            HB_CHECK_STATUS(hb_morph_cell_create(m, &o, NULL, &c), HB_SUCCESS);
        if (c && hb_morph_cell_get_view(c, &v) == HB_SUCCESS)
            HB_CHECK(v.n == 7, "1e6 chain in one section of 7: %lld", (long long)v.n);
        hb_morph_cell_destroy(c);
    }
    hb_morph_destroy(m);
    int64_t nc = 400000;
    t = deep_text(nc, 1, &len);
    m = NULL;
    HB_CHECK_STATUS(hb_morph_parse_swc(t, len, "comb", NULL, &m), HB_SUCCESS);
    free(t);
    o.policy = HB_POLICY_SAMPLE, o.reroot = 1;
    c = NULL;
    if (m)
        HB_CHECK_STATUS(hb_morph_cell_create(m, &o, NULL, &c), HB_SUCCESS);
    if (c && hb_morph_cell_get_view(c, &v) == HB_SUCCESS) {
        hb_tree_stats ts = {0};
        HB_CHECK_STATUS(hb_morph_tree_stats(v.n, v.parent, &ts), HB_SUCCESS);
        /* Re-rooted in the middle: about a quarter of n levels each way. */
        HB_CHECK(ts.nodes == nc && ts.levels > nc / 8 && ts.levels < nc / 2,
                 "comb: %lld nodes, %lld levels", (long long)ts.nodes, (long long)ts.levels);
        int64_t *counts = calloc((size_t)ts.levels, sizeof *counts);
        HB_CHECK_STATUS(hb_morph_tree_level_counts(v.n, v.parent, ts.levels, counts), HB_SUCCESS);
        free(counts);
    }
    hb_morph_cell_destroy(c);
    hb_morph_destroy(m);
}

int main(void)
{
    hb_test_begin("test_morph_hostile");
    snprintf(tmpdir, sizeof tmpdir, "%s/hb_hostile_XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(tmpdir)) {
        fprintf(stderr, "cannot make a temp dir\n");
        return 1;
    }
    hb_context *ctx = hb_test_context();
    test_reader_values();
    test_binary_stream();
    test_cell_values();
    test_cap();
    test_matrix_dt();
    test_deep(ctx);
    const char *names[] = {"cell.swc", "two.swc", "m.swc", "nulcomment.swc"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i) {
        char p[600];
        snprintf(p, sizeof p, "%s/%s", tmpdir, names[i]);
        remove(p);
    }
    for (int i = 0; i < 16; ++i) {
        char p[600];
        snprintf(p, sizeof p, "%s/value%d.swc", tmpdir, i);
        remove(p);
    }
    rmdir(tmpdir);
    hb_context_destroy(ctx);
    return hb_test_finish();
}
