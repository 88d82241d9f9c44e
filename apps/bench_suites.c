/* bench_suites.c: the named suites of `hinesbatch bench` (full and --quick) as lists of points; user selections replace a suite's lists. */
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#define MAXL 32

/* One dimension of a grid: up to MAXL strings. */
typedef struct {
    int  n;
    char v[MAXL][160];
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

static hb_status parse_layout(const char *s, bench_point *p)
{
    char name[64];
    size_t len = strcspn(s, ":/");
    if (len >= sizeof name)
        return HB_ERR_INVALID_ARGUMENT;
    memcpy(name, s, len);
    name[len] = '\0';
    p->layout = !strcmp(name, "auto")           ? HB_LAYOUT_AUTO
                : !strcmp(name, "flat")         ? HB_LAYOUT_FLAT
                : !strcmp(name, "interleaved")  ? HB_LAYOUT_INTERLEAVED
                : !strcmp(name, "block")        ? HB_LAYOUT_BLOCK_INTERLEAVED
                : !strcmp(name, "block-shared") ? HB_LAYOUT_BLOCK_SHARED
                                                : (hb_layout)-1;
    if ((int)p->layout < 0)
        return HB_ERR_INVALID_ARGUMENT;
    const char *bs = strchr(s, ':'), *pad = strchr(s, '/');
    p->block_size = bs ? (int32_t)atoi(bs + 1) : 0;
    if (bs && p->block_size < 1)
        return HB_ERR_INVALID_ARGUMENT;
    p->padding = !pad                        ? HB_PADDING_AUTO
                 : !strcmp(pad, "/compute")  ? HB_PADDING_COMPUTE
                 : !strcmp(pad, "/skip")     ? HB_PADDING_SKIP
                                             : (hb_padding)-1;
    return (int)p->padding < 0 ? HB_ERR_INVALID_ARGUMENT : HB_SUCCESS;
}

static hb_status parse_strategy(const char *s, hb_strategy *out)
{
    *out = !strcmp(s, "auto")           ? HB_STRATEGY_AUTO
           : !strcmp(s, "per-system")   ? HB_STRATEGY_PER_SYSTEM
           : !strcmp(s, "branch-level") ? HB_STRATEGY_BRANCH_LEVEL
           : !strcmp(s, "fine-tree")    ? HB_STRATEGY_FINE_TREE
                                        : (hb_strategy)-1;
    return (int)*out < 0 ? HB_ERR_INVALID_ARGUMENT : HB_SUCCESS;
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

/* The full grid of the given lists (rows "N" or "LO-HI"). */
static hb_status grid(point_vec *v, const char *suite, bench_kind kind, const list *prec,
                      const list *sys, const list *rows, const list *lay, const list *strat,
                      const list *morph)
{
    /* Points of one batch (layouts, strategies) come together, so the batch
     * and its serial reference are made once. */
    for (int a = 0; a < prec->n; ++a)
        for (int m = 0; m < morph->n; ++m)
            for (int r = 0; r < rows->n; ++r)
                for (int s = 0; s < sys->n; ++s)
                    for (int l = 0; l < lay->n; ++l)
                        for (int g = 0; g < strat->n; ++g) {
                            bench_point p;
                            memset(&p, 0, sizeof p);
                            p.suite = suite, p.kind = kind;
                            if (!strcmp(prec->v[a], "double"))
                                p.precision = HB_DOUBLE;
                            else if (!strcmp(prec->v[a], "float"))
                                p.precision = HB_FLOAT;
                            else
                                return bad("--precision", prec->v[a]);
                            p.systems = atoll(sys->v[s]);
                            const char *dash = strchr(rows->v[r], '-');
                            p.rows = atoll(rows->v[r]);
                            if (dash)
                                p.rows_lo = p.rows, p.rows_hi = atoll(dash + 1);
                            if (p.systems < 1)
                                return bad("--systems", sys->v[s]);
                            if (p.rows < 1 || (dash && p.rows_hi < p.rows_lo))
                                return bad("--rows", rows->v[r]);
                            snprintf(p.morph, sizeof p.morph, "%s", morph->v[m]);
                            if (parse_layout(lay->v[l], &p) != HB_SUCCESS)
                                return bad("--layout", lay->v[l]);
                            if (parse_strategy(strat->v[g], &p.strategy) != HB_SUCCESS)
                                return bad("--strategy", strat->v[g]);
                            hb_status st = push(v, &p);
                            if (st != HB_SUCCESS)
                                return st;
                        }
    return HB_SUCCESS;
}

const char *bench_suite_names(void)
{
    return "thomas, thomas-vbatch, hines-layouts, hines-morphologies, multi, all";
}

static hb_status suite(point_vec *v, const char *name, const bench_selection *sel,
                       const bench_config *cfg)
{
    int q = sel->quick;
    list prec, sys, rows, lay, strat, morph;
    list one_auto, no_morph;
    list_set(&one_auto, "auto");
    list_set(&no_morph, "-");
    hb_status st = HB_SUCCESS;
    if (!strcmp(name, "thomas")) {
        /* 256..256,000 short systems, then 20..20,000 long ones. */
        pick(&prec, sel->precision, "double,float");
        pick(&lay, sel->layout, "auto");
        pick(&sys, sel->systems, q ? "64,512" : "256,2560,25600,256000");
        pick(&rows, sel->rows, q ? "64" : "64,128,256,512");
        st = grid(v, name, BENCH_THOMAS, &prec, &sys, &rows, &lay, &one_auto, &no_morph);
        if (st == HB_SUCCESS && !sel->systems && !sel->rows) {
            list_set(&sys, q ? "4" : "20,200,2000,20000");
            list_set(&rows, q ? "1024" : "1024,2048,4096,8192");
            st = grid(v, name, BENCH_THOMAS, &prec, &sys, &rows, &lay, &one_auto, &no_morph);
        }
    } else if (!strcmp(name, "thomas-vbatch")) {
        /* Sizes drawn from 256..512, padded rows computed or skipped, against
         * fixed 256 and 512 in the same layouts. */
        pick(&prec, sel->precision, "double");
        pick(&sys, sel->systems, q ? "256" : "256,2560,25600,256000");
        pick(&rows, sel->rows, "256-512");
        pick(&lay, sel->layout, "interleaved/compute,interleaved/skip,block/compute,block/skip");
        st = grid(v, name, BENCH_THOMAS, &prec, &sys, &rows, &lay, &one_auto, &no_morph);
        if (st == HB_SUCCESS && !sel->rows && !sel->layout) {
            list_set(&rows, "256,512");
            list_set(&lay, "interleaved,block");
            st = grid(v, name, BENCH_THOMAS, &prec, &sys, &rows, &lay, &one_auto, &no_morph);
        }
    } else if (!strcmp(name, "hines-layouts")) {
        pick(&prec, sel->precision, "double");
        pick(&sys, sel->systems, q ? "64" : "256,2560,25600,256000");
        pick(&lay, sel->layout,
             "flat,interleaved,block:32,block:64,block:128,block:256,block:512,block-shared");
        pick(&strat, sel->strategy, "per-system");
        pick(&morph, sel->morph, "levels:512:4");
        list_set(&rows, "1");
        st = grid(v, name, BENCH_HINES, &prec, &sys, &rows, &lay, &strat, &morph);
    } else if (!strcmp(name, "hines-morphologies")) {
        pick(&prec, sel->precision, "double");
        pick(&sys, sel->systems, q ? "8" : "256,2560,25600,256000");
        pick(&lay, sel->layout, "auto");
        pick(&strat, sel->strategy, "auto");
        if (sel->morph) {
            list_set(&morph, sel->morph);
        } else {
            char **names = NULL;
            int n = bench_morph_list(cfg->morph_dir, &names);
            morph.n = 0;
            for (int i = 0; i < n && morph.n < MAXL; ++i)
                snprintf(morph.v[morph.n++], sizeof morph.v[0], "%s", names[i]);
            for (int i = 0; i < n; ++i)
                free(names[i]);
            free(names);
            if (morph.n == 0)
                fprintf(stderr, "hinesbatch bench: no SWC files in %s; hines-morphologies has no "
                                "points\n", cfg->morph_dir);
        }
        list_set(&rows, "1");
        st = grid(v, name, BENCH_HINES, &prec, &sys, &rows, &lay, &strat, &morph);
    } else if (!strcmp(name, "multi")) {
        pick(&prec, sel->precision, "double");
        pick(&sys, sel->systems, q ? "32" : "64,512,4096,32768");
        pick(&lay, sel->layout, "auto");
        pick(&strat, sel->strategy, "per-system,branch-level,fine-tree");
        pick(&morph, sel->morph, "mix:real,mix:random");
        list_set(&rows, "1");
        st = grid(v, name, BENCH_HINES, &prec, &sys, &rows, &lay, &strat, &morph);
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
        list prec, sys, rows, lay, strat, morph;
        pick(&prec, sel->precision, "double");
        pick(&sys, sel->systems, "25600");
        pick(&rows, hines ? "1" : sel->rows, "512");
        pick(&lay, sel->layout, "auto");
        pick(&strat, hines ? sel->strategy : NULL, "auto");
        pick(&morph, hines ? sel->morph : NULL, hines ? "levels:512:4" : "-");
        st = grid(&v, hines ? "hines" : "thomas", hines ? BENCH_HINES : BENCH_THOMAS, &prec, &sys,
                  &rows, &lay, &strat, &morph);
    }
    if (st != HB_SUCCESS) {
        free(v.p);
        return st;
    }
    *points = v.p;
    *npoints = v.n;
    return HB_SUCCESS;
}
