/* bench_suites.c: the named suites of `hinesbatch bench` (full and --quick) as lists of points; user selections replace a suite's lists. */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bench_morph.h"
#include "cli.h"
#include "cli_parse.h"

#define MAXL 32
#define ITEM 160 /* characters of one item, its NUL included */

#define CMD "bench"
#define MAX_SYSTEMS ((int64_t)1 << 40)

/* One dimension of a grid: up to MAXL strings. */
typedef struct {
    int  n;
    char v[MAXL][ITEM];
} list;

/* A comma-separated list, every item checked for form (cli_split). Only
 * a suite's default may be empty (no shipped neurons): no points. */
static int list_set(list *l, const char *csv, const char *flag, int may_be_empty)
{
    char buf[MAXL * ITEM];
    const char *item[MAXL];
    l->n = 0;
    if (!*csv && may_be_empty)
        return 1;
    int n = cli_split(CMD, flag, csv, ',', buf, sizeof buf, item, MAXL);
    for (int i = 0; i < n; ++i) {
        size_t len = strlen(item[i]);
        if (len >= ITEM)
            return cli_bad_value(CMD, flag, item[i], "is too long an item");
        memcpy(l->v[i], item[i], len + 1);
    }
    l->n = n;
    return n > 0;
}

/* A suite's default, unless the user gave this dimension. */
static int pick(list *l, const char *user, const char *dflt, const char *flag)
{
    return list_set(l, user ? user : dflt, flag, !user);
}

/* A --rows item: N or LO-HI, each in [1, 2^31 - 1] (rows are int32 indices). */
static int parse_rows(const char *s, bench_point *p)
{
    char lo[ITEM];
    const char *dash = strchr(s, '-');
    if (dash == s)
        return cli_bad_value(CMD, "--rows", s, "is not N or LO-HI with N, LO, HI >= 1");
    size_t len = dash ? (size_t)(dash - s) : strlen(s);
    if (len >= sizeof lo)
        return cli_bad_value(CMD, "--rows", s, "is too long an item");
    memcpy(lo, s, len);
    lo[len] = '\0';
    p->rows_lo = p->rows_hi = 0;
    if (!cli_int(CMD, "--rows", lo, 1, INT32_MAX, &p->rows))
        return 0;
    if (!dash)
        return 1;
    p->rows_lo = p->rows;
    if (!cli_int(CMD, "--rows LO-HI", dash + 1, 1, INT32_MAX, &p->rows_hi))
        return 0;
    if (p->rows_hi < p->rows_lo)
        return cli_bad_value(CMD, "--rows", s, "has LO > HI (LO-HI)");
    return 1;
}

/* A --layout item: NAME[:BS][/PADDING], NAME as cli_layout_from_name takes it. */
static int parse_layout(const char *s, bench_point *p)
{
    char name[ITEM];
    size_t len = strcspn(s, ":/");
    if (len >= sizeof name)
        return cli_bad_value(CMD, "--layout", s, "is too long an item");
    memcpy(name, s, len);
    name[len] = '\0';
    if (!cli_layout(CMD, "--layout", name, &p->layout))
        return 0;
    const char *rest = s + len, *pad = NULL;
    p->block_size = 0;
    if (*rest == ':') {
        char num[ITEM];
        size_t blen = strcspn(rest + 1, "/");
        memcpy(num, rest + 1, blen);
        num[blen] = '\0';
        if (!cli_int32(CMD, "--layout NAME:BS", num, 1, INT32_MAX, &p->block_size))
            return 0;
        rest += 1 + blen;
    }
    if (*rest == '/')
        pad = rest + 1;
    p->padding = HB_PADDING_AUTO;
    return !pad || cli_padding(CMD, "--layout NAME/PADDING", pad, &p->padding);
}

typedef struct {
    bench_point *p;
    int64_t n, cap;
} point_vec;

static hb_status push(point_vec *v, const bench_point *pt)
{
    if (v->n == v->cap) {
        int64_t cap = v->cap ? 2 * v->cap : 64;
        bench_point *p = realloc(v->p, (size_t)cap * sizeof *p);
        if (!p)
            return HB_ERR_OUT_OF_MEMORY;
        v->p = p, v->cap = cap;
    }
    v->p[v->n++] = *pt;
    return HB_SUCCESS;
}

/* The six dimensions of a grid, each a comma-separated list. */
typedef struct {
    const char *precision, *systems, *rows, *layout, *strategy, *morph;
} dims;

/* What the user chose for a kind: thomas points have no morphology to
 * choose (their strategy: auto, per-system or cooperative), Hines points no
 * rows (their cells set them). */
static dims user_dims(const bench_selection *sel, bench_kind kind)
{
    dims d = {sel->precision, sel->systems, sel->rows, sel->layout, sel->strategy, sel->morph};
    if (kind == BENCH_THOMAS)
        d.morph = NULL;
    else
        d.rows = NULL;
    if (kind == BENCH_SIM) /* a simulation has no solver options to choose here */
        d.layout = d.strategy = NULL;
    return d;
}

/* The full grid of the user's lists, or the suite's where the user gave none
 * (rows "N" or "LO-HI"). */
static hb_status grid(point_vec *v, const char *suite, bench_kind kind, const dims *user,
                      const dims *dflt)
{
    list prec, sys, rows, lay, strat, morph;
    if (!pick(&prec, user->precision, dflt->precision, "--precision") ||
        !pick(&sys, user->systems, dflt->systems, "--systems") ||
        !pick(&rows, user->rows, dflt->rows, "--rows") ||
        !pick(&lay, user->layout, dflt->layout, "--layout") ||
        !pick(&strat, user->strategy, dflt->strategy, "--strategy") ||
        !pick(&morph, user->morph, dflt->morph, "--morphology"))
        return HB_ERR_INVALID_ARGUMENT;
    /* Points of one batch (layouts, strategies) come together, so the batch
     * and its serial reference are made once. */
    for (int a = 0; a < prec.n; ++a)
        for (int m = 0; m < morph.n; ++m)
            for (int r = 0; r < rows.n; ++r)
                for (int s = 0; s < sys.n; ++s)
                    for (int l = 0; l < lay.n; ++l)
                        for (int g = 0; g < strat.n; ++g) {
                            bench_point p;
                            memset(&p, 0, sizeof p);
                            p.suite = suite, p.kind = kind;
                            snprintf(p.morph, sizeof p.morph, "%s", morph.v[m]);
                            if (!cli_precision(CMD, "--precision", prec.v[a], &p.precision) ||
                                !cli_int(CMD, "--systems", sys.v[s], 1, MAX_SYSTEMS, &p.systems) ||
                                !parse_rows(rows.v[r], &p) || !parse_layout(lay.v[l], &p) ||
                                !cli_strategy(CMD, "--strategy", strat.v[g], &p.strategy) ||
                                (kind == BENCH_HINES && !bench_morph_check(p.morph)) ||
                                (kind == BENCH_SIM && !bench_sim_morph_check(p.morph)))
                                return HB_ERR_INVALID_ARGUMENT;
                            hb_status st = push(v, &p);
                            if (st != HB_SUCCESS)
                                return st;
                        }
    return HB_SUCCESS;
}

/* The shipped neurons of dir as a list ("" when there are none). */
static void shipped(const char *dir, char *csv, size_t size)
{
    char **names = NULL;
    int n = bench_morph_list(dir, &names);
    size_t at = 0;
    csv[0] = '\0';
    for (int i = 0; i < n && i < MAXL; ++i) {
        int w = snprintf(csv + at, size - at, "%s%s", i ? "," : "", names[i]);
        if (w < 0 || at + (size_t)w >= size) { /* no room: the names so far */
            csv[at] = '\0';
            break;
        }
        at += (size_t)w;
    }
    for (int i = 0; i < n; ++i)
        free(names[i]);
    free(names);
    if (n == 0)
        fprintf(stderr, "hinesbatch bench: no SWC files in %s; hines-morphologies has no points\n",
                dir);
}

int bench_selection_check(const bench_selection *sel)
{
    const char *user[] = {sel->precision, sel->systems, sel->rows, sel->layout, sel->strategy,
                          sel->morph};
    const char *flag[] = {"--precision", "--systems", "--rows", "--layout", "--strategy",
                          "--morphology"};
    for (int d = 0; d < 6; ++d) {
        list l;
        l.n = 0;
        if (user[d] && !list_set(&l, user[d], flag[d], 0))
            return 0;
        for (int i = 0; user[d] && i < l.n; ++i) {
            bench_point p;
            memset(&p, 0, sizeof p);
            const char *t = l.v[i];
            int ok = d == 0   ? cli_precision(CMD, flag[d], t, &p.precision)
                     : d == 1 ? cli_int(CMD, flag[d], t, 1, MAX_SYSTEMS, &p.systems)
                     : d == 2 ? parse_rows(t, &p)
                     : d == 3 ? parse_layout(t, &p)
                     : d == 4 ? cli_strategy(CMD, flag[d], t, &p.strategy)
                              : bench_morph_check(t);
            if (!ok)
                return 0;
        }
    }
    return 1;
}

const char *bench_suite_names(void)
{
    return "thomas, thomas-vbatch, hines-layouts, hines-morphologies, multi, all, simulate";
}

static hb_status suite(point_vec *v, const char *name, const bench_selection *sel,
                       const bench_config *cfg)
{
    int q = sel->quick;
    const char *full = "256,2560,25600,256000";
    dims thomas = user_dims(sel, BENCH_THOMAS), hines = user_dims(sel, BENCH_HINES),
         sim = user_dims(sel, BENCH_SIM);
    hb_status st;
    if (!strcmp(name, "thomas")) {
        /* 256..256,000 short systems, then 20..20,000 long ones. */
        dims d = {"double,float", q ? "64,512" : full, q ? "64" : "64,128,256,512", "auto",
                  "auto", "-"};
        st = grid(v, name, BENCH_THOMAS, &thomas, &d);
        if (st == HB_SUCCESS && !sel->systems && !sel->rows) {
            d.systems = q ? "4" : "20,200,2000,20000";
            d.rows = q ? "1024" : "1024,2048,4096,8192";
            st = grid(v, name, BENCH_THOMAS, &thomas, &d);
        }
    } else if (!strcmp(name, "thomas-vbatch")) {
        /* Sizes drawn from 256..512, padded rows computed or skipped, against
         * fixed 256 and 512 in the same layouts. */
        dims d = {"double", q ? "256" : full, "256-512",
                  "interleaved/compute,interleaved/skip,block/compute,block/skip", "auto", "-"};
        st = grid(v, name, BENCH_THOMAS, &thomas, &d);
        if (st == HB_SUCCESS && !sel->rows && !sel->layout) {
            d.rows = "256,512";
            d.layout = "interleaved,block";
            st = grid(v, name, BENCH_THOMAS, &thomas, &d);
        }
    } else if (!strcmp(name, "hines-layouts")) {
        dims d = {"double", q ? "64" : full, "1",
                  "flat,interleaved,block:32,block:64,block:128,block:256,block:512,block-shared",
                  "per-system", "levels:512:4"};
        st = grid(v, name, BENCH_HINES, &hines, &d);
    } else if (!strcmp(name, "hines-morphologies")) {
        char neurons[MAXL * ITEM] = "";
        if (!sel->morph)
            shipped(cfg->morph_dir, neurons, sizeof neurons);
        dims d = {"double", q ? "8" : full, "1", "auto", "auto", neurons};
        st = grid(v, name, BENCH_HINES, &hines, &d);
    } else if (!strcmp(name, "multi")) {
        dims d = {"double", q ? "32" : "64,512,4096,32768", "1", "auto",
                  "per-system,branch-level,fine-tree,cell-group", "mix:real,mix:random"};
        st = grid(v, name, BENCH_HINES, &hines, &d);
    } else if (!strcmp(name, "simulate")) {
        /* The main job's cell (`hinesbatch simulate`'s default) from its
         * 200 cells to 10,000; bench_sim.c runs them. */
        dims d = {"double,float", q ? "8" : "200,1000,10000", "1", "auto", "auto",
                  "nrn__c91662"};
        st = grid(v, name, BENCH_SIM, &sim, &d);
    } else {
        fprintf(stderr, "hinesbatch bench: unknown suite '%s' (known: %s)\n", name,
                bench_suite_names());
        return HB_ERR_INVALID_ARGUMENT;
    }
    return st;
}

hb_status bench_suite_points(const bench_selection *sel, const bench_config *cfg,
                             bench_point **points, int64_t *npoints)
{
    point_vec v = {0};
    hb_status st = HB_SUCCESS;
    static const char *all[] = {"thomas", "thomas-vbatch", "hines-layouts", "hines-morphologies",
                                "multi"};
    if (sel->suite && strcmp(sel->suite, "all")) {
        st = suite(&v, sel->suite, sel, cfg);
    } else if (sel->suite || sel->quick) {
        for (size_t i = 0; i < sizeof all / sizeof all[0] && st == HB_SUCCESS; ++i)
            st = suite(&v, all[i], sel, cfg);
    } else {
        /* Single points from the selections alone. */
        int hines = sel->kind ? !strcmp(sel->kind, "hines") : sel->morph || sel->strategy;
        bench_kind kind = hines ? BENCH_HINES : BENCH_THOMAS;
        dims user = user_dims(sel, kind);
        dims d = {"double", "25600", hines ? "1" : "512", "auto", "auto",
                  hines ? "levels:512:4" : "-"};
        st = grid(&v, hines ? "hines" : "thomas", kind, &user, &d);
    }
    if (st != HB_SUCCESS) {
        free(v.p);
        return st;
    }
    *points = v.p;
    *npoints = v.n;
    return HB_SUCCESS;
}
