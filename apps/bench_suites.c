/* bench_suites.c: the named suites of `hinesbatch bench` (full and --quick) as lists of points; user selections replace a suite's lists. */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bench_morph.h"
#include "cli.h"

#define MAXL 32
#define ITEM 160 /* characters of one item, its NUL included */

/* One dimension of a grid: up to MAXL strings. */
typedef struct {
    int  n;
    char v[MAXL][ITEM];
} list;

static void list_set(list *l, const char *csv)
{
    l->n = 0;
    while (csv && *csv && l->n < MAXL) {
        size_t len = strcspn(csv, ",");
        if (len > 0 && len < sizeof l->v[0]) {
            memcpy(l->v[l->n], csv, len);
            l->v[l->n++][len] = '\0';
        }
        csv += len + (csv[len] == ',');
    }
}

/* A suite's default, unless the user gave this dimension. */
static void pick(list *l, const char *user, const char *dflt) { list_set(l, user ? user : dflt); }

/* A --layout item: NAME[:BS][/PADDING], NAME as cli_layout_from_name takes it. */
static hb_status parse_layout(const char *s, bench_point *p)
{
    char name[64];
    size_t len = strcspn(s, ":/");
    if (len >= sizeof name)
        return HB_ERR_INVALID_ARGUMENT;
    memcpy(name, s, len);
    name[len] = '\0';
    if (cli_layout_from_name(name, &p->layout) != HB_SUCCESS)
        return HB_ERR_INVALID_ARGUMENT;
    const char *bs = strchr(s, ':'), *pad = strchr(s, '/');
    p->block_size = bs ? (int32_t)atoi(bs + 1) : 0;
    if (bs && p->block_size < 1)
        return HB_ERR_INVALID_ARGUMENT;
    p->padding = HB_PADDING_AUTO;
    return pad ? hb_padding_from_name(pad + 1, &p->padding) : HB_SUCCESS;
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

static hb_status bad(const char *option, const char *value)
{
    fprintf(stderr, "hinesbatch bench: bad %s value '%s'\n", option, value);
    return HB_ERR_INVALID_ARGUMENT;
}

/* The six dimensions of a grid, each a comma-separated list. */
typedef struct {
    const char *precision, *systems, *rows, *layout, *strategy, *morph;
} dims;

/* What the user chose for a kind: thomas points have no strategy or
 * morphology to choose, Hines points no rows (their cells set them). */
static dims user_dims(const bench_selection *sel, bench_kind kind)
{
    dims d = {sel->precision, sel->systems, sel->rows, sel->layout, sel->strategy, sel->morph};
    if (kind == BENCH_THOMAS)
        d.strategy = d.morph = NULL;
    else
        d.rows = NULL;
    return d;
}

/* The full grid of the user's lists, or the suite's where the user gave none
 * (rows "N" or "LO-HI"). */
static hb_status grid(point_vec *v, const char *suite, bench_kind kind, const dims *user,
                      const dims *dflt)
{
    list prec, sys, rows, lay, strat, morph;
    pick(&prec, user->precision, dflt->precision);
    pick(&sys, user->systems, dflt->systems);
    pick(&rows, user->rows, dflt->rows);
    pick(&lay, user->layout, dflt->layout);
    pick(&strat, user->strategy, dflt->strategy);
    pick(&morph, user->morph, dflt->morph);
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
                            if (!strcmp(prec.v[a], "double"))
                                p.precision = HB_DOUBLE;
                            else if (!strcmp(prec.v[a], "float"))
                                p.precision = HB_FLOAT;
                            else
                                return bad("--precision", prec.v[a]);
                            p.systems = atoll(sys.v[s]);
                            const char *dash = strchr(rows.v[r], '-');
                            p.rows = atoll(rows.v[r]);
                            if (dash)
                                p.rows_lo = p.rows, p.rows_hi = atoll(dash + 1);
                            if (p.systems < 1)
                                return bad("--systems", sys.v[s]);
                            if (p.rows < 1 || (dash && p.rows_hi < p.rows_lo))
                                return bad("--rows", rows.v[r]);
                            snprintf(p.morph, sizeof p.morph, "%s", morph.v[m]);
                            if (parse_layout(lay.v[l], &p) != HB_SUCCESS)
                                return bad("--layout", lay.v[l]);
                            if (hb_strategy_from_name(strat.v[g], &p.strategy) != HB_SUCCESS)
                                return bad("--strategy", strat.v[g]);
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

const char *bench_suite_names(void)
{
    return "thomas, thomas-vbatch, hines-layouts, hines-morphologies, multi, all";
}

static hb_status suite(point_vec *v, const char *name, const bench_selection *sel,
                       const bench_config *cfg)
{
    int q = sel->quick;
    const char *full = "256,2560,25600,256000";
    dims thomas = user_dims(sel, BENCH_THOMAS), hines = user_dims(sel, BENCH_HINES);
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
                  "per-system,branch-level,fine-tree", "mix:real,mix:random"};
        st = grid(v, name, BENCH_HINES, &hines, &d);
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
