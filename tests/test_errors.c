/* test_errors.c: every error path of the public API: codes, messages naming argument/system/row, and outputs left untouched. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hb_test_util.h"

static hb_context *ctx;

/* The last error message mentions every given fragment. */
static void check_msg(const char *what, const char *f1, const char *f2)
{
    const char *m = hb_last_error();
    HB_CHECK(m && (!f1 || strstr(m, f1)) && (!f2 || strstr(m, f2)),
             "%s: message '%s' should mention '%s'%s%s", what, m ? m : "(null)", f1 ? f1 : "",
             f2 ? " and " : "", f2 ? f2 : "");
}

/* A solve the plan must refuse (HB_ERR_INVALID_ARGUMENT), saying why. */
static void expect_solve_refused(hb_plan *plan, const char *what, const char *fragment)
{
    HB_CHECK_STATUS(hb_plan_solve(plan), HB_ERR_INVALID_ARGUMENT);
    check_msg(what, fragment, NULL);
}

/* ---- A small valid batch, rebuilt for each case ---------------------------- */
#define NSYS 8
typedef struct {
    hb_precision p;
    int64_t off[NSYS + 1];
    int32_t parent[NSYS * 12];
    void *a, *b, *c, *x; /* Hines: a = u, b = l, c = d, x = rhs */
    void *before;        /* copy of x before the call            */
    int64_t nrows;
} batch;

static void refill(batch *bt, int hines);

static void make(batch *bt, hb_precision p, int hines)
{
    memset(bt, 0, sizeof *bt);
    bt->p = p;
    for (int s = 0; s < NSYS; ++s)
        bt->off[s + 1] = bt->off[s] + 6 + s % 4; /* 6..9 rows */
    bt->nrows = bt->off[NSYS];
    for (int s = 0; s < NSYS; ++s)
        hb_test_tree(bt->parent + bt->off[s], bt->off[s + 1] - bt->off[s], HB_TREE_RANDOM);
    bt->a = hb_test_alloc(p, bt->nrows);
    bt->b = hb_test_alloc(p, bt->nrows);
    bt->c = hb_test_alloc(p, bt->nrows);
    bt->x = hb_test_alloc(p, bt->nrows);
    bt->before = hb_test_alloc(p, bt->nrows);
    refill(bt, hines);
}

/* New random values in the batch's arrays. */
static void refill(batch *bt, int hines)
{
    hb_precision p = bt->p;
    if (hines)
        hb_test_hines_random(p, NSYS, bt->off, bt->parent, bt->a, bt->b, bt->c, bt->x, 1.0);
    else
        hb_test_tridiag_random(p, NSYS, bt->off, bt->a, bt->b, bt->c, bt->x, 1.0);
}

static void snapshot(batch *bt) { memcpy(bt->before, bt->x, (size_t)bt->nrows * hb_test_esize(bt->p)); }
static void check_untouched(const batch *bt, const char *what)
{
    HB_CHECK(hb_test_bitequal(bt->before, bt->x, (size_t)bt->nrows * hb_test_esize(bt->p)),
             "%s: output array changed by a failing call", what);
}
static void unmake(batch *bt) { free(bt->a), free(bt->b), free(bt->c), free(bt->x), free(bt->before); }

static hb_status tri(hb_context *c, hb_precision p, int64_t nsys, const int64_t *off, const void *a,
                     const void *b, const void *cc, void *d)
{
    return p == HB_DOUBLE ? hb_dtridiag_solve(c, nsys, off, a, b, cc, d)
                          : hb_stridiag_solve(c, nsys, off, a, b, cc, d);
}
static hb_status hin(hb_context *c, hb_precision p, int64_t nsys, const int64_t *off,
                     const int32_t *par, const void *u, const void *l, const void *d, void *r)
{
    return p == HB_DOUBLE ? hb_dhines_solve(c, nsys, off, par, u, l, d, r)
                          : hb_shines_solve(c, nsys, off, par, u, l, d, r);
}

/* Runs a one-shot call that must fail with `expect`, checks the message and
 * that the output is untouched. */
#define EXPECT_FAIL(bt, call, expect, what, f1, f2)                                          \
    do {                                                                                     \
        snapshot(bt);                                                                        \
        hb_status st_ = (call);                                                              \
        HB_CHECK(st_ == (expect), "%s: got %s, expected %s (%s)", what, hb_status_string(st_), \
                 hb_status_string(expect), hb_last_error());                                 \
        check_msg(what, f1, f2);                                                             \
        check_untouched(bt, what);                                                           \
    } while (0)

static void oneshot_arguments(hb_precision p, const char *pn, batch *tb, batch *hb)
{
    batch t = *tb, h = *hb;
    char w[160];
    /* NULL pointers, each argument. */
    snprintf(w, sizeof w, "%s tridiag ctx NULL", pn);
    EXPECT_FAIL(&t, tri(NULL, p, NSYS, t.off, t.a, t.b, t.c, t.x), HB_ERR_INVALID_ARGUMENT, w, "ctx", NULL);
    snprintf(w, sizeof w, "%s tridiag offsets NULL", pn);
    EXPECT_FAIL(&t, tri(ctx, p, NSYS, NULL, t.a, t.b, t.c, t.x), HB_ERR_INVALID_ARGUMENT, w, "offsets", NULL);
    snprintf(w, sizeof w, "%s tridiag a NULL", pn);
    EXPECT_FAIL(&t, tri(ctx, p, NSYS, t.off, NULL, t.b, t.c, t.x), HB_ERR_INVALID_ARGUMENT, w, "a is NULL", NULL);
    snprintf(w, sizeof w, "%s tridiag b NULL", pn);
    EXPECT_FAIL(&t, tri(ctx, p, NSYS, t.off, t.a, NULL, t.c, t.x), HB_ERR_INVALID_ARGUMENT, w, "b is NULL", NULL);
    snprintf(w, sizeof w, "%s tridiag c NULL", pn);
    EXPECT_FAIL(&t, tri(ctx, p, NSYS, t.off, t.a, t.b, NULL, t.x), HB_ERR_INVALID_ARGUMENT, w, "c is NULL", NULL);
    snprintf(w, sizeof w, "%s tridiag d NULL", pn);
    HB_CHECK_STATUS(tri(ctx, p, NSYS, t.off, t.a, t.b, t.c, NULL), HB_ERR_INVALID_ARGUMENT);
    check_msg(w, "d is NULL", NULL);
    snprintf(w, sizeof w, "%s hines ctx NULL", pn);
    EXPECT_FAIL(&h, hin(NULL, p, NSYS, h.off, h.parent, h.a, h.b, h.c, h.x), HB_ERR_INVALID_ARGUMENT, w, "ctx", NULL);
    snprintf(w, sizeof w, "%s hines offsets NULL", pn);
    EXPECT_FAIL(&h, hin(ctx, p, NSYS, NULL, h.parent, h.a, h.b, h.c, h.x), HB_ERR_INVALID_ARGUMENT, w, "offsets", NULL);
    snprintf(w, sizeof w, "%s hines parent NULL", pn);
    EXPECT_FAIL(&h, hin(ctx, p, NSYS, h.off, NULL, h.a, h.b, h.c, h.x), HB_ERR_INVALID_ARGUMENT, w, "parent", NULL);
    snprintf(w, sizeof w, "%s hines u NULL", pn);
    EXPECT_FAIL(&h, hin(ctx, p, NSYS, h.off, h.parent, NULL, h.b, h.c, h.x), HB_ERR_INVALID_ARGUMENT, w, "u is NULL", NULL);
    snprintf(w, sizeof w, "%s hines l NULL", pn);
    EXPECT_FAIL(&h, hin(ctx, p, NSYS, h.off, h.parent, h.a, NULL, h.c, h.x), HB_ERR_INVALID_ARGUMENT, w, "l is NULL", NULL);
    snprintf(w, sizeof w, "%s hines d NULL", pn);
    EXPECT_FAIL(&h, hin(ctx, p, NSYS, h.off, h.parent, h.a, h.b, NULL, h.x), HB_ERR_INVALID_ARGUMENT, w, "d is NULL", NULL);
    snprintf(w, sizeof w, "%s hines rhs NULL", pn);
    HB_CHECK_STATUS(hin(ctx, p, NSYS, h.off, h.parent, h.a, h.b, h.c, NULL), HB_ERR_INVALID_ARGUMENT);
    check_msg(w, "rhs is NULL", NULL);

    /* Negative nsys. */
    snprintf(w, sizeof w, "%s tridiag nsys -1", pn);
    EXPECT_FAIL(&t, tri(ctx, p, -1, t.off, t.a, t.b, t.c, t.x), HB_ERR_INVALID_ARGUMENT, w, "nsys", NULL);
    snprintf(w, sizeof w, "%s hines nsys -3", pn);
    EXPECT_FAIL(&h, hin(ctx, p, -3, h.off, h.parent, h.a, h.b, h.c, h.x), HB_ERR_INVALID_ARGUMENT, w, "nsys", NULL);

    /* nsys == 0: success, nothing written. */
    snapshot(&t);
    HB_CHECK_STATUS(tri(ctx, p, 0, t.off, t.a, t.b, t.c, t.x), HB_SUCCESS);
    check_untouched(&t, "tridiag nsys 0");
    snapshot(&h);
    HB_CHECK_STATUS(hin(ctx, p, 0, h.off, h.parent, h.a, h.b, h.c, h.x), HB_SUCCESS);
    check_untouched(&h, "hines nsys 0");

    /* Offsets: offsets[0] != 0, equal neighbours (empty system), decreasing. */
    int64_t bad[NSYS + 1];
    memcpy(bad, t.off, sizeof bad);
    bad[0] = 1;
    snprintf(w, sizeof w, "%s tridiag offsets[0] = 1", pn);
    EXPECT_FAIL(&t, tri(ctx, p, NSYS, bad, t.a, t.b, t.c, t.x), HB_ERR_INVALID_ARGUMENT, w, "offsets[0]", NULL);
    memcpy(bad, t.off, sizeof bad);
    bad[4] = bad[3];
    snprintf(w, sizeof w, "%s tridiag empty system 3", pn);
    EXPECT_FAIL(&t, tri(ctx, p, NSYS, bad, t.a, t.b, t.c, t.x), HB_ERR_INVALID_ARGUMENT, w, "system 3", NULL);
    memcpy(bad, h.off, sizeof bad);
    bad[6] = bad[5] - 1;
    snprintf(w, sizeof w, "%s hines decreasing offsets at system 5", pn);
    EXPECT_FAIL(&h, hin(ctx, p, NSYS, bad, h.parent, h.a, h.b, h.c, h.x), HB_ERR_INVALID_ARGUMENT, w, "system 5", NULL);
}

static void oneshot_trees(hb_precision p, const char *pn, batch *tb, batch *hb)
{
    batch h = *hb;
    (void)tb;
    struct {
        int sys, row, value;
        const char *what;
    } cases[] = {{2, 0, 0, "root parent 0 instead of -1"},
                 {0, 0, 3, "root parent 3"},
                 {5, 4, 4, "parent equal to own index"},
                 {1, 3, 5, "parent after own index"},
                 {6, 2, -1, "second root (parent -1)"},
                 {7, 5, -7, "negative parent"}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        int64_t at = h.off[cases[k].sys] + cases[k].row;
        int32_t keep = h.parent[at];
        h.parent[at] = cases[k].value;
        char w[160], fs[32], fr[32];
        snprintf(w, sizeof w, "%s hines %s", pn, cases[k].what);
        snprintf(fs, sizeof fs, "system %d ", cases[k].sys);
        snprintf(fr, sizeof fr, "row %d ", cases[k].row);
        EXPECT_FAIL(&h, hin(ctx, p, NSYS, h.off, h.parent, h.a, h.b, h.c, h.x), HB_ERR_INVALID_TREE, w, fs, fr);
        /* Through a plan too. */
        hb_plan *plan = NULL;
        HB_CHECK_STATUS(hb_plan_create_hines(ctx, p, NSYS, h.off, h.parent, NULL, &plan), HB_ERR_INVALID_TREE);
        check_msg(w, fs, fr);
        HB_CHECK(plan == NULL, "%s: plan written on failure", w);
        h.parent[at] = keep;
    }
    /* The uniform constructor checks its one tree (system 0). */
    int32_t par[5] = {-1, 0, 1, 3, 2};
    hb_plan *plan = NULL;
    HB_CHECK_STATUS(hb_plan_create_hines_uniform(ctx, p, 4, 5, par, NULL, &plan), HB_ERR_INVALID_TREE);
    check_msg("uniform tree parent[3] = 3", "system 0 ", "row 3 ");
}

/* Zero pivots and non-finite inputs: HB_ERR_NUMERICAL naming the first failing
 * system (and the row for inputs), output untouched. */
static void oneshot_numerical(hb_precision p, const char *pn, batch *tb, batch *hb)
{
    batch t = *tb, h = *hb;
    char w[160];
    /* Zero first pivot in system 3 and a zero pivot in row 1 of system 6:
     * rows 0 and 1 a singular block [1 1; 1 1] cut from the rows after it
     * (c_1 = 0), so that every strategy meets the zero, not only Thomas's
     * order (cyclic reduction eliminates row 1 with rows 0 and 2 at once,
     * and a nonsingular system with a zero Thomas pivot solves there). */
    hb_test_put(p, t.b, t.off[3], 0.0);
    int64_t k6 = t.off[6];
    hb_test_put(p, t.b, k6, 1.0), hb_test_put(p, t.c, k6, 1.0);
    hb_test_put(p, t.a, k6 + 1, 1.0), hb_test_put(p, t.b, k6 + 1, 1.0); /* 1 - 1*1 = 0 */
    hb_test_put(p, t.c, k6 + 1, 0.0);
    snprintf(w, sizeof w, "%s tridiag zero pivots in systems 3 and 6", pn);
    EXPECT_FAIL(&t, tri(ctx, p, NSYS, t.off, t.a, t.b, t.c, t.x), HB_ERR_NUMERICAL, w, "system 3 ", NULL);
    hb_test_put(p, t.b, t.off[3], 4.0);
    snprintf(w, sizeof w, "%s tridiag zero pivot in row 1 of system 6", pn);
    EXPECT_FAIL(&t, tri(ctx, p, NSYS, t.off, t.a, t.b, t.c, t.x), HB_ERR_NUMERICAL, w, "system 6 ", NULL);

    /* Hines: a zero diagonal at a leaf of system 4 (its elimination divides by it). */
    refill(&t, 0);
    int64_t leaf = h.off[5] - 1; /* the last row of a system is always a leaf */
    hb_test_put(p, h.c, leaf, 0.0);
    snprintf(w, sizeof w, "%s hines zero pivot in system 4", pn);
    EXPECT_FAIL(&h, hin(ctx, p, NSYS, h.off, h.parent, h.a, h.b, h.c, h.x), HB_ERR_NUMERICAL, w, "system 4 ", NULL);
    hb_test_put(p, h.c, leaf, 5.0);

    /* Non-finite inputs, each array; the first failing system is named. */
    void *tri_arrays[] = {t.a, t.b, t.c, t.x};
    const char *tri_names[] = {"a", "b", "c", "d"};
    for (int k = 0; k < 4; ++k) {
        hb_test_put(p, tri_arrays[k], t.off[6] + 2, INFINITY);
        hb_test_put(p, tri_arrays[k], t.off[4] + 2, NAN);
        snprintf(w, sizeof w, "%s tridiag non-finite %s", pn, tri_names[k]);
        if (k == 3) { /* d is the output: its content is checked as input, untouched */
            snapshot(&t);
            HB_CHECK_STATUS(tri(ctx, p, NSYS, t.off, t.a, t.b, t.c, t.x), HB_ERR_NUMERICAL);
            check_msg(w, "system 4 ", "row 2");
            check_untouched(&t, w);
        } else {
            EXPECT_FAIL(&t, tri(ctx, p, NSYS, t.off, t.a, t.b, t.c, t.x), HB_ERR_NUMERICAL, w, "system 4 ", "row 2");
        }
        hb_test_put(p, tri_arrays[k], t.off[6] + 2, 0.25);
        hb_test_put(p, tri_arrays[k], t.off[4] + 2, 0.25);
    }
    void *hin_arrays[] = {h.a, h.b, h.c, h.x};
    const char *hin_names[] = {"u", "l", "d", "rhs"};
    for (int k = 0; k < 4; ++k) {
        hb_test_put(p, hin_arrays[k], h.off[1] + 3, -INFINITY);
        snprintf(w, sizeof w, "%s hines non-finite %s", pn, hin_names[k]);
        EXPECT_FAIL(&h, hin(ctx, p, NSYS, h.off, h.parent, h.a, h.b, h.c, h.x), HB_ERR_NUMERICAL, w, "system 1 ", "row 3");
        hb_test_put(p, hin_arrays[k], h.off[1] + 3, k == 2 ? 40.0 : 0.125);
    }
    /* Entries the definition ignores may hold anything (a and u, l of a first
     * row, c of a last row): the solve succeeds. */
    hb_test_put(p, t.a, t.off[2], NAN);
    hb_test_put(p, t.c, t.off[3] - 1, INFINITY);
    HB_CHECK_STATUS(tri(ctx, p, NSYS, t.off, t.a, t.b, t.c, t.x), HB_SUCCESS);
    hb_test_put(p, h.a, h.off[2], NAN);
    hb_test_put(p, h.b, h.off[5], INFINITY);
    HB_CHECK_STATUS(hin(ctx, p, NSYS, h.off, h.parent, h.a, h.b, h.c, h.x), HB_SUCCESS);
}

/* ---- Plans ------------------------------------------------------------------ */
static void plan_creation(void)
{
    int64_t off[4] = {0, 3, 5, 9};
    int32_t par[9] = {-1, 0, 1, -1, 0, -1, 0, 0, 2};
    hb_plan *plan = NULL;
    hb_plan_options o;
    HB_CHECK_STATUS(hb_plan_create_tridiag(NULL, HB_DOUBLE, 3, off, NULL, &plan), HB_ERR_INVALID_ARGUMENT);
    check_msg("create ctx NULL", "ctx", NULL);
    HB_CHECK_STATUS(hb_plan_create_tridiag(ctx, HB_DOUBLE, 3, NULL, NULL, &plan), HB_ERR_INVALID_ARGUMENT);
    check_msg("create offsets NULL", "offsets", NULL);
    HB_CHECK_STATUS(hb_plan_create_tridiag(ctx, HB_DOUBLE, 3, off, NULL, NULL), HB_ERR_INVALID_ARGUMENT);
    check_msg("create plan NULL", "plan", NULL);
    HB_CHECK_STATUS(hb_plan_create_tridiag_uniform(ctx, HB_FLOAT, 3, 4, NULL, NULL), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_plan_create_tridiag_uniform(NULL, HB_FLOAT, 3, 4, NULL, &plan), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_plan_create_hines(ctx, HB_DOUBLE, 3, off, NULL, NULL, &plan), HB_ERR_INVALID_ARGUMENT);
    check_msg("create parent NULL", "parent", NULL);
    HB_CHECK_STATUS(hb_plan_create_hines(ctx, HB_DOUBLE, 3, NULL, par, NULL, &plan), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_plan_create_hines(NULL, HB_DOUBLE, 3, off, par, NULL, &plan), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_plan_create_hines(ctx, HB_DOUBLE, 3, off, par, NULL, NULL), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_plan_create_hines_uniform(ctx, HB_DOUBLE, 3, 3, NULL, NULL, &plan), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_plan_create_hines_uniform(NULL, HB_DOUBLE, 3, 3, par, NULL, &plan), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_plan_create_hines_uniform(ctx, HB_DOUBLE, 3, 3, par, NULL, NULL), HB_ERR_INVALID_ARGUMENT);
    /* Bad numbers and enum values. */
    HB_CHECK_STATUS(hb_plan_create_tridiag(ctx, (hb_precision)7, 3, off, NULL, &plan), HB_ERR_INVALID_ARGUMENT);
    check_msg("create precision 7", "precision", NULL);
    HB_CHECK_STATUS(hb_plan_create_tridiag(ctx, HB_DOUBLE, -2, off, NULL, &plan), HB_ERR_INVALID_ARGUMENT);
    check_msg("create nsys -2", "nsys", NULL);
    HB_CHECK_STATUS(hb_plan_create_tridiag_uniform(ctx, HB_DOUBLE, 3, 0, NULL, &plan), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_plan_create_hines_uniform(ctx, HB_DOUBLE, 3, -4, par, NULL, &plan), HB_ERR_INVALID_ARGUMENT);
    int64_t badoff[4] = {0, 3, 3, 9};
    HB_CHECK_STATUS(hb_plan_create_tridiag(ctx, HB_DOUBLE, 3, badoff, NULL, &plan), HB_ERR_INVALID_ARGUMENT);
    check_msg("create offsets not increasing", "system 1", NULL);
    hb_plan_options_init(&o);
    o.layout = (hb_layout)99;
    HB_CHECK_STATUS(hb_plan_create_tridiag(ctx, HB_DOUBLE, 3, off, &o, &plan), HB_ERR_INVALID_ARGUMENT);
    check_msg("create layout 99", "layout", NULL);
    hb_plan_options_init(&o);
    o.padding = (hb_padding)-1;
    HB_CHECK_STATUS(hb_plan_create_hines(ctx, HB_DOUBLE, 3, off, par, &o, &plan), HB_ERR_INVALID_ARGUMENT);
    check_msg("create padding -1", "padding", NULL);
    hb_plan_options_init(&o);
    o.strategy = (hb_strategy)12;
    HB_CHECK_STATUS(hb_plan_create_hines(ctx, HB_DOUBLE, 3, off, par, &o, &plan), HB_ERR_INVALID_ARGUMENT);
    check_msg("create strategy 12", "strategy", NULL);
    hb_plan_options_init(&o);
    o.layout = HB_LAYOUT_BLOCK_INTERLEAVED;
    o.block_size = -8;
    HB_CHECK_STATUS(hb_plan_create_tridiag(ctx, HB_FLOAT, 3, off, &o, &plan), HB_ERR_INVALID_ARGUMENT);
    check_msg("create block_size -8", "block_size", NULL);
    HB_CHECK(plan == NULL, "plan written by a failing create");
}

static void plan_misuse(hb_precision p, const char *pn, batch *tb, batch *hb)
{
    batch t = *tb, h = *hb;
    (void)pn;
    hb_plan *tp = NULL, *hp = NULL;
    HB_CHECK_STATUS(hb_plan_create_tridiag(ctx, p, NSYS, t.off, NULL, &tp), HB_SUCCESS);
    HB_CHECK_STATUS(hb_plan_create_hines(ctx, p, NSYS, h.off, h.parent, NULL, &hp), HB_SUCCESS);
    if (!tp || !hp)
        goto done;
    void *x = hb_test_alloc(p, t.nrows), *keep = hb_test_alloc(p, t.nrows);
    size_t bytes = (size_t)t.nrows * hb_test_esize(p);
    hb_test_poison(p, x, t.nrows);
    memcpy(keep, x, bytes);
    /* Solve and read-back before anything is set. */
    expect_solve_refused(tp, "solve before set", "never set");
    HB_CHECK_STATUS(hb_plan_get_solution(tp, x), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK(hb_test_bitequal(x, keep, bytes), "get_solution before solve wrote x");
    /* Wrong arrays for the kind, bad enum values, NULL pointers. */
    HB_CHECK_STATUS(hb_plan_set(tp, HB_ARRAY_U, t.a), HB_ERR_INVALID_ARGUMENT);
    check_msg("tridiag set U", "'u'", NULL);
    HB_CHECK_STATUS(hb_plan_set(tp, HB_ARRAY_D, t.a), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_plan_set(hp, HB_ARRAY_A, h.a), HB_ERR_INVALID_ARGUMENT);
    check_msg("hines set A", "'a'", NULL);
    HB_CHECK_STATUS(hb_plan_set(hp, HB_ARRAY_C, h.a), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_plan_set(tp, (hb_array)7, t.a), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_plan_set(tp, (hb_array)-1, t.a), HB_ERR_INVALID_ARGUMENT);
    check_msg("set which -1", "which", NULL);
    HB_CHECK_STATUS(hb_plan_set(NULL, HB_ARRAY_A, t.a), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_plan_set(tp, HB_ARRAY_A, NULL), HB_ERR_INVALID_ARGUMENT);
    void *handle = NULL;
    HB_CHECK_STATUS(hb_plan_buffer(tp, HB_ARRAY_L, &handle), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_plan_buffer(hp, HB_ARRAY_B, &handle), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_plan_buffer(tp, (hb_array)42, &handle), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_plan_buffer(tp, HB_ARRAY_A, NULL), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_plan_buffer(NULL, HB_ARRAY_A, &handle), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK(handle == NULL, "hb_plan_buffer wrote the handle on failure");
    HB_CHECK_STATUS(hb_plan_solve(NULL), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_plan_synchronize(NULL), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_plan_get_solution(NULL, x), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_plan_get_solution(tp, NULL), HB_ERR_INVALID_ARGUMENT);
    hb_layout_info info;
    int64_t bases[NSYS], idx;
    HB_CHECK_STATUS(hb_plan_layout_info(NULL, &info), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_plan_layout_info(tp, NULL), HB_ERR_INVALID_ARGUMENT);
    hb_plan_info pinfo, pkeep;
    memset(&pinfo, 0x5a, sizeof pinfo);
    pkeep = pinfo;
    HB_CHECK_STATUS(hb_plan_get_info(NULL, &pinfo), HB_ERR_INVALID_ARGUMENT);
    check_msg("get_info of a NULL plan", "plan", NULL);
    HB_CHECK(!memcmp(&pinfo, &pkeep, sizeof pinfo), "hb_plan_get_info wrote info on failure");
    HB_CHECK_STATUS(hb_plan_get_info(tp, NULL), HB_ERR_INVALID_ARGUMENT);
    check_msg("get_info into NULL", "info", NULL);
    HB_CHECK_STATUS(hb_plan_system_bases(NULL, bases), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_plan_system_bases(tp, NULL), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_plan_index(NULL, 0, 0, &idx), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_plan_index(tp, 0, 0, NULL), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_plan_index(tp, NSYS, 0, &idx), HB_ERR_INVALID_ARGUMENT);
    check_msg("index of system NSYS", "system", NULL);

    /* Set all but rhs: solve refuses. */
    HB_CHECK_STATUS(hb_plan_set(tp, HB_ARRAY_A, t.a), HB_SUCCESS);
    HB_CHECK_STATUS(hb_plan_set(tp, HB_ARRAY_B, t.b), HB_SUCCESS);
    expect_solve_refused(tp, "solve without c", "'c'");
    HB_CHECK_STATUS(hb_plan_set(tp, HB_ARRAY_C, t.c), HB_SUCCESS);
    expect_solve_refused(tp, "solve without rhs", "rhs");
    /* A non-finite value leaves the plan's array as it was. */
    void *bad = hb_test_alloc(p, t.nrows);
    memcpy(bad, t.b, bytes);
    hb_test_put(p, bad, t.off[5] + 1, NAN);
    HB_CHECK_STATUS(hb_plan_set(tp, HB_ARRAY_B, bad), HB_ERR_NUMERICAL);
    check_msg("set b with NaN", "system 5 ", "row 1");
    HB_CHECK_STATUS(hb_plan_set(tp, HB_ARRAY_RHS, t.x), HB_SUCCESS);
    HB_CHECK_STATUS(hb_plan_solve(tp), HB_SUCCESS);
    HB_CHECK_STATUS(hb_plan_get_solution(tp, x), HB_SUCCESS);
    double r = INFINITY;
    HB_CHECK_STATUS(hb_tridiag_residual(p, NSYS, t.off, t.a, t.b, t.c, x, t.x, &r, NULL), HB_SUCCESS);
    HB_CHECK(r < HB_TEST_RATIO_MAX, "plan after a refused set: residual ratio %g (the refused b leaked in?)", r);
    /* Solving twice without a new rhs is refused; reading twice is fine. */
    expect_solve_refused(tp, "second solve", "rhs");
    HB_CHECK_STATUS(hb_plan_get_solution(tp, x), HB_SUCCESS);
    /* A zero pivot: get_solution names the first failing system, x untouched. */
    memcpy(bad, t.b, bytes);
    hb_test_put(p, bad, t.off[2], 0.0);
    hb_test_put(p, bad, t.off[7], 0.0);
    HB_CHECK_STATUS(hb_plan_set(tp, HB_ARRAY_B, bad), HB_SUCCESS);
    HB_CHECK_STATUS(hb_plan_set(tp, HB_ARRAY_RHS, t.x), HB_SUCCESS);
    memcpy(keep, x, bytes);
    hb_status st = hb_plan_solve(tp);
    if (st == HB_SUCCESS)
        st = hb_plan_get_solution(tp, x);
    HB_CHECK(st == HB_ERR_NUMERICAL, "zero pivot through a plan: %s", hb_status_string(st));
    check_msg("zero pivot through a plan", "system 2 ", NULL);
    HB_CHECK(hb_test_bitequal(x, keep, bytes), "zero pivot through a plan: x changed");
    free(bad);

    /* Hines: a new rhs without a new d is refused (d holds the elimination). */
    HB_CHECK_STATUS(hb_plan_set(hp, HB_ARRAY_U, h.a), HB_SUCCESS);
    HB_CHECK_STATUS(hb_plan_set(hp, HB_ARRAY_L, h.b), HB_SUCCESS);
    HB_CHECK_STATUS(hb_plan_set(hp, HB_ARRAY_RHS, h.x), HB_SUCCESS);
    expect_solve_refused(hp, "hines solve without d", "'d'");
    HB_CHECK_STATUS(hb_plan_set(hp, HB_ARRAY_D, h.c), HB_SUCCESS);
    HB_CHECK_STATUS(hb_plan_solve(hp), HB_SUCCESS);
    HB_CHECK_STATUS(hb_plan_set(hp, HB_ARRAY_RHS, h.x), HB_SUCCESS);
    expect_solve_refused(hp, "hines second solve with stale d", "d not set");
    HB_CHECK_STATUS(hb_plan_set(hp, HB_ARRAY_D, h.c), HB_SUCCESS);
    HB_CHECK_STATUS(hb_plan_solve(hp), HB_SUCCESS);
    HB_CHECK_STATUS(hb_plan_get_solution(hp, x), HB_SUCCESS);
    HB_CHECK_STATUS(hb_hines_residual(p, NSYS, h.off, h.parent, h.a, h.b, h.c, x, h.x, &r, NULL), HB_SUCCESS);
    HB_CHECK(r < HB_TEST_RATIO_MAX, "hines plan after refused solves: residual ratio %g", r);
    free(x);
    free(keep);
done:
    hb_plan_destroy(tp);
    hb_plan_destroy(hp);
}

/* Every status code: its published value, its name and its message; values
 * not listed are "unknown hb_status". */
static void status_names(void)
{
    static const struct {
        hb_status code;
        int value;
        const char *name, *message;
    } codes[] = {
        {HB_SUCCESS, 0, "HB_SUCCESS", "success"},
        {HB_ERR_INVALID_ARGUMENT, 1, "HB_ERR_INVALID_ARGUMENT", "invalid argument"},
        {HB_ERR_INVALID_TREE, 2, "HB_ERR_INVALID_TREE", "invalid tree"},
        {HB_ERR_NUMERICAL, 3, "HB_ERR_NUMERICAL", "numerical failure"},
        {HB_ERR_OUT_OF_MEMORY, 4, "HB_ERR_OUT_OF_MEMORY", "out of memory"},
        {HB_ERR_BACKEND_UNAVAILABLE, 5, "HB_ERR_BACKEND_UNAVAILABLE", "backend unavailable"},
        {HB_ERR_BACKEND, 6, "HB_ERR_BACKEND", "backend error"},
        {HB_ERR_IO, 7, "HB_ERR_IO", "I/O error"},
        {HB_ERR_PARSE, 8, "HB_ERR_PARSE", "parse error"},
        {HB_ERR_BUSY, 9, "HB_ERR_BUSY", "object in use by another thread"},
    };
    const int n = (int)(sizeof codes / sizeof codes[0]);
#define HB_COUNT_CODE_(code, value, message) +1
    HB_CHECK(n == 0 HB_STATUS_LIST(HB_COUNT_CODE_),
             "HB_STATUS_LIST has %d codes, this test knows %d: a new code needs its line here",
             0 HB_STATUS_LIST(HB_COUNT_CODE_), n);
#undef HB_COUNT_CODE_
    for (int i = 0; i < n; ++i) {
        char full[128];
        snprintf(full, sizeof full, "%s: %s", codes[i].name, codes[i].message);
        HB_CHECK((int)codes[i].code == codes[i].value, "%s = %d, published as %d", codes[i].name,
                 (int)codes[i].code, codes[i].value);
        HB_CHECK(!strcmp(hb_status_name(codes[i].code), codes[i].name), "hb_status_name(%d) = '%s'",
                 codes[i].value, hb_status_name(codes[i].code));
        HB_CHECK(!strcmp(hb_status_string(codes[i].code), full), "hb_status_string(%d) = '%s'",
                 codes[i].value, hb_status_string(codes[i].code));
    }
    const int unknown[] = {-1, n, 99, 1 << 30};
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; ++i) {
        HB_CHECK(!strcmp(hb_status_name((hb_status)unknown[i]), "unknown hb_status"),
                 "hb_status_name(%d) = '%s'", unknown[i], hb_status_name((hb_status)unknown[i]));
        HB_CHECK(strstr(hb_status_string((hb_status)unknown[i]), "unknown") != NULL,
                 "hb_status_string(%d) = '%s'", unknown[i], hb_status_string((hb_status)unknown[i]));
    }
}

static void misc(void)
{
    hb_context *c = (hb_context *)&misc; /* must not be touched */
    HB_CHECK_STATUS(hb_context_create(HB_BACKEND_SERIAL, NULL), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_context_create((hb_backend)42, &c), HB_ERR_INVALID_ARGUMENT);
    check_msg("context backend 42", "backend", NULL);
    HB_CHECK_STATUS(hb_context_create((hb_backend)-1, &c), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK(c == (hb_context *)&misc, "hb_context_create wrote ctx on failure");
    hb_context_destroy(NULL);
    hb_plan_destroy(NULL);
    HB_CHECK(hb_context_describe(NULL) != NULL, "describe(NULL)");
    HB_CHECK(hb_plan_describe(NULL) != NULL, "plan describe(NULL)");
    /* Residual helpers. */
    int64_t off[3] = {0, 2, 4};
    int32_t par[4] = {-1, 0, 0, 0}; /* system 1 has no root */
    double v[4] = {1, 2, 3, 4}, r = 0;
    HB_CHECK_STATUS(hb_tridiag_residual(HB_DOUBLE, 2, off, v, v, v, v, v, NULL, NULL), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_tridiag_residual((hb_precision)5, 2, off, v, v, v, v, v, &r, NULL), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_tridiag_residual(HB_DOUBLE, -1, off, v, v, v, v, v, &r, NULL), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_tridiag_residual(HB_DOUBLE, 2, off, v, NULL, v, v, v, &r, NULL), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_tridiag_residual(HB_DOUBLE, 2, NULL, v, v, v, v, v, &r, NULL), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_hines_residual(HB_DOUBLE, 2, off, NULL, v, v, v, v, v, &r, NULL), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_hines_residual(HB_DOUBLE, 2, off, par, v, v, v, v, v, &r, NULL), HB_ERR_INVALID_TREE);
    check_msg("residual bad tree", "system 1 ", "row 0");
    /* Copy timing. */
    double ms = 0;
    HB_CHECK_STATUS(hb_context_copy_time(NULL, 1024, 3, &ms), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_context_copy_time(ctx, 0, 3, &ms), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_context_copy_time(ctx, 1024, 0, &ms), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_context_copy_time(ctx, 1024, 3, NULL), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_context_copy_time(ctx, 1 << 16, 3, &ms), HB_SUCCESS);
    HB_CHECK(ms >= 0 && isfinite(ms), "copy time %g ms", ms);
}

/* A NaN anywhere in a solution makes its system's residual ratio NaN (never
 * 0, as fmax would give) and names that system, whatever the systems around it. */
static void residual_nan(void)
{
    const int64_t off[4] = {0, 3, 6, 9};
    const int32_t par[9] = {-1, 0, 1, -1, 0, 0, -1, 0, 1};
    double a[9], b[9], c[9], x[9], rhs[9];
    for (int k = 0; k < 9; ++k)
        a[k] = c[k] = -1.0, b[k] = 4.0, x[k] = 1.0 + 0.25 * k, rhs[k] = 2.0;
    for (int bad = 0; bad < 9; ++bad) {
        double xb = x[bad];
        x[bad] = NAN;
        double r = 0;
        int64_t worst = -7;
        HB_CHECK_STATUS(hb_tridiag_residual(HB_DOUBLE, 3, off, a, b, c, x, rhs, &r, &worst),
                        HB_SUCCESS);
        HB_CHECK(isnan(r) && worst == bad / 3,
                 "tridiagonal residual with NaN at row %d: ratio %g, worst system %lld", bad, r,
                 (long long)worst);
        r = 0, worst = -7;
        HB_CHECK_STATUS(hb_hines_residual(HB_DOUBLE, 3, off, par, c, a, b, x, rhs, &r, &worst),
                        HB_SUCCESS);
        HB_CHECK(isnan(r) && worst == bad / 3,
                 "Hines residual with NaN at row %d: ratio %g, worst system %lld", bad, r,
                 (long long)worst);
        x[bad] = xb;
    }
}

/* A plan past memory is refused naming the function and the bytes; the plan
 * handle is left as it was. */
static void oom_message(void)
{
    hb_plan *plan = (hb_plan *)&oom_message; /* must not be touched */
    /* 2^53 bytes per array: past any 64-bit address space, so even an
     * overcommitting host refuses it. */
    hb_status st = hb_plan_create_tridiag_uniform(ctx, HB_DOUBLE, 1, (int64_t)1 << 50, NULL, &plan);
    HB_CHECK(st == HB_ERR_OUT_OF_MEMORY, "a plan of 2^50 rows: %s (%s)", hb_status_string(st),
             hb_last_error());
    HB_CHECK(plan == (hb_plan *)&oom_message, "plan written on failure");
    const char *m = hb_last_error();
    HB_CHECK(strstr(m, "hb_plan_create_tridiag_uniform: needs") && strstr(m, "bytes"),
             "out-of-memory message should name the function and the bytes: '%s'", m);
    /* Size products that would wrap are refused before anything is sized. */
    const int64_t shapes[][2] = {{((int64_t)1 << 61) + 1, 1}, {(int64_t)1 << 40, (int64_t)1 << 40},
                                 {INT64_MAX, 2}};
    for (int i = 0; i < 3; ++i) {
        st = hb_plan_create_tridiag_uniform(ctx, HB_DOUBLE, shapes[i][0], shapes[i][1], NULL, &plan);
        HB_CHECK(st == HB_ERR_OUT_OF_MEMORY, "%lld x %lld rows: %s (%s)", (long long)shapes[i][0],
                 (long long)shapes[i][1], hb_status_string(st), hb_last_error());
        HB_CHECK(plan == (hb_plan *)&oom_message, "plan written on failure");
    }
}

/* Huge batches fail before any table is filled (the audit's 2^30 x 128
 * spent a minute filling 48 GiB of host tables first), naming the bytes
 * needed and available; the handle is left as it was. */
static void fail_fast(void)
{
    hb_plan *plan = (hb_plan *)&fail_fast;
    const int64_t shapes[][2] = {{(int64_t)1 << 30, 128}, {(int64_t)1 << 36, 2},
                                 {(int64_t)1 << 20, (int64_t)1 << 26}};
    for (int i = 0; i < 3; ++i) {
        for (int hines = 0; hines < 2; ++hines) {
            double t0 = hb_test_seconds();
            hb_status st;
            if (hines) {
                /* A chain is checked row by row: keep the tree short, the batch long. */
                int32_t par[128];
                for (int k = 0; k < 128; ++k)
                    par[k] = k - 1;
                st = hb_plan_create_hines_uniform(ctx, HB_DOUBLE, shapes[i][0] * shapes[i][1] / 128,
                                                  128, par, NULL, &plan);
            } else {
                st = hb_plan_create_tridiag_uniform(ctx, HB_DOUBLE, shapes[i][0], shapes[i][1],
                                                    NULL, &plan);
            }
            double secs = hb_test_seconds() - t0;
            const char *m = hb_last_error();
            HB_CHECK(st == HB_ERR_OUT_OF_MEMORY, "%s %lld x %lld: %s (%s)",
                     hines ? "hines" : "tridiagonal", (long long)shapes[i][0],
                     (long long)shapes[i][1], hb_status_string(st), m);
            HB_CHECK(strstr(m, "needs") && strstr(m, "bytes") &&
                         (strstr(m, "available") || strstr(m, "machine has")),
                     "the message should name the bytes needed and available: '%s'", m);
            HB_CHECK(secs < 1.0, "refusing %lld x %lld took %.2f s: not fail-fast",
                     (long long)shapes[i][0], (long long)shapes[i][1], secs);
            HB_CHECK(plan == (hb_plan *)&fail_fast, "plan written on failure");
        }
    }
    /* Block layouts pad every block to its longest system: an element count
     * past int64 is refused, not wrapped. */
    int64_t off[3] = {0, 1, INT64_MAX / 4};
    hb_plan_options o;
    hb_plan_options_init(&o);
    o.layout = HB_LAYOUT_BLOCK_INTERLEAVED;
    o.padding = HB_PADDING_COMPUTE;
    o.block_size = 1 << 20;
    hb_status st = hb_plan_create_tridiag(ctx, HB_DOUBLE, 2, off, &o, &plan);
    HB_CHECK(st == HB_ERR_OUT_OF_MEMORY, "padded block layout past int64: %s (%s)",
             hb_status_string(st), hb_last_error());
    HB_CHECK(plan == (hb_plan *)&fail_fast, "plan written on failure");
}

/* A NULL array of the residual functions is named, not numbered. */
static void residual_names(void)
{
    const int64_t off[2] = {0, 2};
    const int32_t par[2] = {-1, 0};
    double v[2] = {1, 1}, r = 0;
    const double *t[5] = {v, v, v, v, v};
    const char *tn[5] = {"a", "b", "c", "x", "rhs"};
    for (int i = 0; i < 5; ++i) {
        const double *p[5];
        for (int k = 0; k < 5; ++k)
            p[k] = k == i ? NULL : t[k];
        HB_CHECK_STATUS(hb_tridiag_residual(HB_DOUBLE, 1, off, p[0], p[1], p[2], p[3], p[4], &r,
                                            NULL),
                        HB_ERR_INVALID_ARGUMENT);
        char want[32];
        snprintf(want, sizeof want, ": %s is NULL", tn[i]);
        HB_CHECK(strstr(hb_last_error(), want), "tridiagonal residual, %s NULL: '%s'", tn[i],
                 hb_last_error());
    }
    const char *hn[6] = {"parent", "u", "l", "d", "x", "rhs"};
    for (int i = 0; i < 6; ++i) {
        const void *p[6] = {par, v, v, v, v, v};
        p[i] = NULL;
        HB_CHECK_STATUS(hb_hines_residual(HB_DOUBLE, 1, off, p[0], p[1], p[2], p[3], p[4], p[5],
                                          &r, NULL),
                        HB_ERR_INVALID_ARGUMENT);
        char want[32];
        snprintf(want, sizeof want, ": %s is NULL", hn[i]);
        HB_CHECK(strstr(hb_last_error(), want), "Hines residual, %s NULL: '%s'", hn[i],
                 hb_last_error());
    }
}

/* Runs a case in both precisions, on a fresh tridiagonal and Hines batch. */
static void in_both_precisions(void (*run)(hb_precision, const char *, batch *, batch *))
{
    for (int ip = 0; ip < 2; ++ip) {
        hb_precision p = ip ? HB_FLOAT : HB_DOUBLE;
        batch t, h;
        make(&t, p, 0);
        make(&h, p, 1);
        run(p, hb_test_precision_name(p), &t, &h);
        unmake(&t);
        unmake(&h);
    }
}

int main(void)
{
    hb_test_begin("test_errors");
    ctx = hb_test_context();
    in_both_precisions(oneshot_arguments);
    in_both_precisions(oneshot_trees);
    in_both_precisions(oneshot_numerical);
    plan_creation();
    in_both_precisions(plan_misuse);
    status_names();
    misc();
    residual_nan();
    oom_message();
    fail_fast();
    residual_names();
    hb_context_destroy(ctx);
    return hb_test_finish();
}
