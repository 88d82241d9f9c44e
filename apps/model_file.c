/* model_file.c: a model description file checked against the compiled catalogue, then applied to a simulation through the model API. */
#include "model_file.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "hinesbatch CMD: FILE:LINE:COL: KEY: what"; returns 0. */
static int bad(const char *cmd, const model_file *mf, const json_value *at, const char *key,
               const char *fmt, ...)
{
    fprintf(stderr, "hinesbatch %s: %s:%d:%d: %s: ", cmd, mf->path, at ? at->line : 1,
            at ? at->col : 1, key);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return 0;
}

/* The member's own position is its key's, for messages about the key. */
static json_value key_pos(const json_value *m)
{
    json_value k;
    memset(&k, 0, sizeof k);
    k.line = m->key_line, k.col = m->key_col;
    return k;
}

/* Every key of object v is one of `allowed` (NULL-terminated). */
static int only_keys(const char *cmd, const model_file *mf, const json_value *v, const char *where,
                     const char *const *allowed)
{
    for (size_t i = 0; i < v->n; ++i) {
        int ok = 0;
        for (const char *const *a = allowed; *a && !ok; ++a)
            ok = !strcmp(*a, v->items[i].key);
        if (!ok) {
            json_value k = key_pos(&v->items[i]);
            char list[512];
            size_t at = 0;
            list[0] = '\0';
            for (const char *const *a = allowed; *a && at < sizeof list; ++a)
                at += (size_t)snprintf(list + at, sizeof list - at, "%s%s", a == allowed ? "" : ", ", *a);
            return bad(cmd, mf, &k, where, "unknown key \"%s\" (known: %s)", v->items[i].key, list);
        }
    }
    return 1;
}

static int want_type(const char *cmd, const model_file *mf, const json_value *v, json_type t,
                     const char *key)
{
    if (v->type != t)
        return bad(cmd, mf, v, key, "is %s, expected %s", json_type_name(v->type),
                   json_type_name(t));
    return 1;
}

/* A number member in [lo, hi] (required or not: absent leaves *x). */
static int num_in(const char *cmd, const model_file *mf, const json_value *obj, const char *name,
                  const char *where, int required, double lo, double hi, double *x)
{
    const json_value *v = json_get(obj, name);
    char key[512];
    snprintf(key, sizeof key, "%s%s%s", where, where[0] ? "." : "", name);
    if (!v)
        return required ? bad(cmd, mf, obj, key, "missing") : 1;
    if (!want_type(cmd, mf, v, JSON_NUMBER, key))
        return 0;
    if (!(v->num >= lo && v->num <= hi))
        return bad(cmd, mf, v, key, "%g is outside [%g, %g]", v->num, lo, hi);
    *x = v->num;
    return 1;
}

static int find_mech(const char *name, hb_mech_desc *d)
{
    for (int64_t m = 0; m < hb_mech_count(); ++m)
        if (hb_mech_describe(m, d) == HB_SUCCESS && !strcmp(d->name, name))
            return 1;
    return 0;
}

static int find_param(const hb_mech_desc *d, const char *name)
{
    for (int p = 0; p < d->nparam; ++p)
        if (!strcmp(d->param_names[p], name))
            return 1;
    return 0;
}

/* A parameter's value: a finite number, or a distribution object. */
static int check_value(const char *cmd, const model_file *mf, const json_value *v,
                       const char *key)
{
    static const char *const keys[] = {"kind", "x", "a", "b", "c", "x0", "from", "to",
                                       "inside", "outside", "scale", NULL};
    if (v->type == JSON_NUMBER)
        return 1;
    if (v->type != JSON_OBJECT)
        return bad(cmd, mf, v, key, "is %s, expected a number or a distribution object",
                   json_type_name(v->type));
    if (!only_keys(cmd, mf, v, key, keys))
        return 0;
    const json_value *kind = json_get(v, "kind"), *x = json_get(v, "x");
    if (!kind || kind->type != JSON_STRING)
        return bad(cmd, mf, kind ? kind : v, key, "needs \"kind\": \"linear\", \"exp\" or \"window\"");
    if (!x || x->type != JSON_STRING ||
        (strcmp(x->str, "distance_um") && strcmp(x->str, "distance_normalized")))
        return bad(cmd, mf, x ? x : v, key, "needs \"x\": \"distance_um\" or \"distance_normalized\"");
    const char *const *need;
    static const char *const lin[] = {"a", "b", NULL}, *const ex[] = {"a", "b", "c", NULL},
                             *const win[] = {"from", "to", "inside", "outside", NULL};
    static const char *const lin_ok[] = {"kind", "x", "a", "b", "scale", NULL},
                             *const ex_ok[] = {"kind", "x", "a", "b", "c", "x0", "scale", NULL},
                             *const win_ok[] = {"kind", "x", "from", "to", "inside", "outside",
                                                "scale", NULL};
    const char *const *ok;
    if (!strcmp(kind->str, "linear"))
        need = lin, ok = lin_ok;
    else if (!strcmp(kind->str, "exp"))
        need = ex, ok = ex_ok;
    else if (!strcmp(kind->str, "window"))
        need = win, ok = win_ok;
    else
        return bad(cmd, mf, kind, key, "kind \"%s\" is not linear, exp or window", kind->str);
    if (!only_keys(cmd, mf, v, key, ok))
        return 0;
    double t;
    for (const char *const *n = need; *n; ++n)
        if (!num_in(cmd, mf, v, *n, key, 1, -1e300, 1e300, &t))
            return 0;
    for (const char *opt[] = {"x0", "scale"}, **n = opt; n < opt + 2; ++n)
        if (!num_in(cmd, mf, v, *n, key, 0, -1e300, 1e300, &t))
            return 0;
    return 1;
}

static int check_region(const char *cmd, model_file *mf, const json_value *r, size_t i,
                        const json_value *mechs, const json_value **first_ra)
{
    static const char *const keys[] = {"name", "swc_type", "cm", "Ra", "mechanisms", NULL};
    char where[64];
    snprintf(where, sizeof where, "regions[%zu]", i);
    if (!want_type(cmd, mf, r, JSON_OBJECT, where) || !only_keys(cmd, mf, r, where, keys))
        return 0;
    const json_value *name = json_get(r, "name");
    if (!name || name->type != JSON_STRING)
        return bad(cmd, mf, name ? name : r, where, "needs \"name\": a string");
    double t, cm = 1, ra = 0;
    if (!num_in(cmd, mf, r, "swc_type", where, 1, 0, 31, &t))
        return 0;
    if (t != floor(t))
        return bad(cmd, mf, json_get(r, "swc_type"), where, "swc_type %g is not an integer", t);
    if (!num_in(cmd, mf, r, "cm", where, 1, 0, 1e6, &cm) ||
        !num_in(cmd, mf, r, "Ra", where, 1, 1e-9, 1e12, &ra))
        return 0;
    const json_value *rv = json_get(r, "Ra");
    if (!*first_ra) {
        *first_ra = r;
        mf->ra = ra;
    } else if (ra != mf->ra)
        return bad(cmd, mf, rv, where,
                   "Ra %g in region \"%s\" differs from Ra %g in region \"%s\": the engine "
                   "takes one Ra per cell",
                   ra, name->str, mf->ra, json_get(*first_ra, "name")->str);
    const json_value *ms = json_get(r, "mechanisms");
    char key[512];
    snprintf(key, sizeof key, "%s.mechanisms", where);
    if (!ms)
        return bad(cmd, mf, r, key, "missing");
    if (!want_type(cmd, mf, ms, JSON_OBJECT, key))
        return 0;
    for (size_t m = 0; m < ms->n; ++m) {
        const json_value *mv = &ms->items[m];
        json_value k = key_pos(mv);
        snprintf(key, sizeof key, "%s.mechanisms.%s", where, mv->key);
        hb_mech_desc d;
        if (!json_get(mechs, mv->key))
            return bad(cmd, mf, &k, key, "mechanism \"%s\" is not in the file's \"mechanisms\"",
                       mv->key);
        if (!find_mech(mv->key, &d) || d.point)
            return bad(cmd, mf, &k, key, "\"%s\" is not a density mechanism of the catalogue",
                       mv->key);
        if (!want_type(cmd, mf, mv, JSON_OBJECT, key))
            return 0;
        for (size_t p = 0; p < mv->n; ++p) {
            const json_value *pv = &mv->items[p];
            json_value pk = key_pos(pv);
            char pkey[600];
            snprintf(pkey, sizeof pkey, "%s.%s", key, pv->key);
            if (!find_param(&d, pv->key))
                return bad(cmd, mf, &pk, pkey, "%s has no PARAMETER \"%s\"", d.name, pv->key);
            if (!check_value(cmd, mf, pv, pkey))
                return 0;
        }
    }
    return 1;
}

static int check_ions(const char *cmd, const model_file *mf, const json_value *ions)
{
    if (!want_type(cmd, mf, ions, JSON_OBJECT, "ions"))
        return 0;
    for (size_t i = 0; i < ions->n; ++i) {
        const json_value *v = &ions->items[i];
        char key[128], ci[64], co[64];
        snprintf(key, sizeof key, "ions.%s", v->key);
        if (strlen(v->key) > 32)
            return bad(cmd, mf, v, "ions", "ion name of %zu characters", strlen(v->key));
        snprintf(ci, sizeof ci, "%si0", v->key);
        snprintf(co, sizeof co, "%so0", v->key);
        const char *const keys[] = {"e", "valence", ci, co, NULL};
        if (!want_type(cmd, mf, v, JSON_OBJECT, key) || !only_keys(cmd, mf, v, key, keys))
            return 0;
        const json_value *e = json_get(v, "e");
        double t;
        if (!e)
            return bad(cmd, mf, v, key, "needs \"e\": a number (mV) or \"nernst\"");
        if (e->type == JSON_STRING ? strcmp(e->str, "nernst") != 0 : e->type != JSON_NUMBER)
            return bad(cmd, mf, e, key, "\"e\" must be a number (mV) or \"nernst\"");
        if ((e->type == JSON_NUMBER && !num_in(cmd, mf, v, "e", key, 0, -1000, 1000, &t)) ||
            !num_in(cmd, mf, v, "valence", key, 0, -10, 10, &t) ||
            !num_in(cmd, mf, v, ci, key, 0, 0, 1e6, &t) ||
            !num_in(cmd, mf, v, co, key, 0, 0, 1e6, &t))
            return 0;
    }
    return 1;
}

/* "probes": [{"cell": C, "compartment": K or "soma", or "location":
 * {"swc_type": T, "distance_um": D}, "what": "hh.m"}, ...]; what it names is
 * checked by hb_sim_probe when applied (model_file_probes). */
static int check_probes(const char *cmd, const model_file *mf, const json_value *ps)
{
    static const char *const keys[] = {"cell", "compartment", "location", "what", NULL};
    static const char *const lkeys[] = {"swc_type", "distance_um", NULL};
    if (!want_type(cmd, mf, ps, JSON_ARRAY, "probes"))
        return 0;
    for (size_t i = 0; i < ps->n; ++i) {
        const json_value *p = &ps->items[i];
        char key[64], lkey[80];
        snprintf(key, sizeof key, "probes[%zu]", i);
        snprintf(lkey, sizeof lkey, "%s.location", key);
        if (!want_type(cmd, mf, p, JSON_OBJECT, key) || !only_keys(cmd, mf, p, key, keys))
            return 0;
        const json_value *w = json_get(p, "what"), *c = json_get(p, "compartment"),
                         *l = json_get(p, "location");
        double t = 0;
        if (!w || w->type != JSON_STRING || !w->str[0] || strlen(w->str) >= 48)
            return bad(cmd, mf, w ? w : p, key,
                       "needs \"what\": \"v\", \"MECH.VAR\", \"iX\", \"Xi\", \"Xo\" or \"eX\" "
                       "(a string of 1 to 47 characters)");
        if (!num_in(cmd, mf, p, "cell", key, 0, 0, 1e15, &t))
            return 0;
        if (t != floor(t))
            return bad(cmd, mf, json_get(p, "cell"), key, "cell %g is not an integer", t);
        if (c && l)
            return bad(cmd, mf, l, key, "give \"compartment\" or \"location\", not both");
        if (c && !(c->type == JSON_STRING && !strcmp(c->str, "soma")) &&
            !(c->type == JSON_NUMBER && c->num >= 0 && c->num == floor(c->num) && c->num < 1e15))
            return bad(cmd, mf, c, key,
                       "\"compartment\" must be an integer >= 0 (the cell's compartment) or "
                       "\"soma\"");
        if (l) {
            if (!want_type(cmd, mf, l, JSON_OBJECT, lkey) || !only_keys(cmd, mf, l, lkey, lkeys) ||
                !num_in(cmd, mf, l, "swc_type", lkey, 1, 0, 31, &t))
                return 0;
            if (t != floor(t))
                return bad(cmd, mf, json_get(l, "swc_type"), lkey, "swc_type %g is not an integer",
                           t);
            if (!num_in(cmd, mf, l, "distance_um", lkey, 1, 0, 1e9, &t))
                return 0;
        }
    }
    return 1;
}

/* Lists the mechanisms the file names that the catalogue lacks; 0 when any. */
static int check_catalogue(const char *cmd, const model_file *mf, const json_value *mechs)
{
    char missing[2048];
    size_t at = 0;
    missing[0] = '\0';
    for (size_t i = 0; i < mechs->n; ++i) {
        hb_mech_desc d;
        if (mechs->items[i].type != JSON_STRING) {
            char key[300];
            snprintf(key, sizeof key, "mechanisms.%s", mechs->items[i].key);
            return want_type(cmd, mf, &mechs->items[i], JSON_STRING, key);
        }
        if (!find_mech(mechs->items[i].key, &d) && at < sizeof missing)
            at += (size_t)snprintf(missing + at, sizeof missing - at, "%s%s", at ? ", " : "",
                                   mechs->items[i].key);
    }
    if (at)
        return bad(cmd, mf, mechs, "mechanisms",
                   "not in this build's catalogue: %s (configure with "
                   "-DHINESBATCH_MECHANISMS=\"a.mod;b.mod;...\" naming their .mod files)",
                   missing);
    return 1;
}

int model_file_load(const char *cmd, const char *path, model_file *mf)
{
    memset(mf, 0, sizeof *mf);
    mf->celsius = mf->v_init = NAN;
    snprintf(mf->path, sizeof mf->path, "%s", path);
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "hinesbatch %s: --model: cannot open '%s'\n", cmd, path);
        return 0;
    }
    char *text = malloc(JSON_MAX_BYTES + 1);
    size_t len = text ? fread(text, 1, JSON_MAX_BYTES + 1, f) : 0;
    int rerr = ferror(f);
    fclose(f);
    if (!text || rerr) {
        free(text);
        fprintf(stderr, "hinesbatch %s: --model: cannot read '%s'\n", cmd, path);
        return 0;
    }
    char err[512];
    int ok = json_parse(text, len, &mf->root, err, sizeof err);
    free(text);
    if (!ok) {
        fprintf(stderr, "hinesbatch %s: %s:%s\n", cmd, path, err);
        return 0;
    }
    const json_value *r = mf->root;
    static const char *const top[] = {"format", "version", "name", "description", "morphology",
                                      "mechanisms", "celsius", "v_init", "discretization",
                                      "ions", "regions", "probes", NULL};
    if (!want_type(cmd, mf, r, JSON_OBJECT, "(top level)") || !only_keys(cmd, mf, r, "(top level)", top))
        goto fail;
    const json_value *fmt = json_get(r, "format"), *morph = json_get(r, "morphology");
    if (!fmt || fmt->type != JSON_STRING || strcmp(fmt->str, "hinesbatch-model")) {
        bad(cmd, mf, fmt ? fmt : r, "format", "must be \"hinesbatch-model\"");
        goto fail;
    }
    double version = 0;
    if (!num_in(cmd, mf, r, "version", "", 1, -1e300, 1e300, &version))
        goto fail;
    if (version != 1) {
        bad(cmd, mf, json_get(r, "version"), "version", "%g: this reader knows version 1", version);
        goto fail;
    }
    for (const char *s[] = {"name", "description"}, **k = s; k < s + 2; ++k)
        if (json_get(r, *k) && !want_type(cmd, mf, json_get(r, *k), JSON_STRING, *k))
            goto fail;
    if (!morph || morph->type != JSON_STRING || !morph->str[0]) {
        bad(cmd, mf, morph ? morph : r, "morphology", "needs a path (a string)");
        goto fail;
    }
    /* Relative to the file's folder. Too long a path is refused naming the
     * key (cut short it was opened as another, shorter path). */
    const char *slash = strrchr(path, '/');
    int plen = morph->str[0] == '/' || !slash
                   ? snprintf(mf->morphology, sizeof mf->morphology, "%s", morph->str)
                   : snprintf(mf->morphology, sizeof mf->morphology, "%.*s/%s",
                              (int)(slash - path), path, morph->str);
    if (plen < 0 || (size_t)plen >= sizeof mf->morphology) {
        bad(cmd, mf, morph, "morphology", "a path of %zu characters (with the file's folder), "
            "more than %zu", plen < 0 ? strlen(morph->str) : (size_t)plen,
            sizeof mf->morphology - 1);
        goto fail;
    }
    if (!num_in(cmd, mf, r, "celsius", "", 0, -273.15, 1000, &mf->celsius) ||
        !num_in(cmd, mf, r, "v_init", "", 0, -1000, 1000, &mf->v_init))
        goto fail;
    const json_value *disc = json_get(r, "discretization");
    if (disc) {
        static const char *const dk[] = {"kind", "length_um", NULL};
        if (!want_type(cmd, mf, disc, JSON_OBJECT, "discretization") ||
            !only_keys(cmd, mf, disc, "discretization", dk))
            goto fail;
        const json_value *kind = json_get(disc, "kind");
        if (!kind || kind->type != JSON_STRING || strcmp(kind->str, "odd_per_length")) {
            bad(cmd, mf, kind ? kind : disc, "discretization.kind", "must be \"odd_per_length\"");
            goto fail;
        }
        if (!num_in(cmd, mf, disc, "length_um", "discretization", 1, 1e-3, 1e9, &mf->seg_length))
            goto fail;
    }
    const json_value *mechs = json_get(r, "mechanisms"), *regions = json_get(r, "regions");
    if (!mechs) {
        bad(cmd, mf, r, "mechanisms", "missing");
        goto fail;
    }
    if (!want_type(cmd, mf, mechs, JSON_OBJECT, "mechanisms") || !check_catalogue(cmd, mf, mechs))
        goto fail;
    if (json_get(r, "ions") && !check_ions(cmd, mf, json_get(r, "ions")))
        goto fail;
    if (!regions) {
        bad(cmd, mf, r, "regions", "missing");
        goto fail;
    }
    if (!want_type(cmd, mf, regions, JSON_ARRAY, "regions"))
        goto fail;
    if (regions->n == 0) {
        bad(cmd, mf, regions, "regions", "empty");
        goto fail;
    }
    const json_value *first_ra = NULL;
    for (size_t i = 0; i < regions->n; ++i)
        if (!check_region(cmd, mf, &regions->items[i], i, mechs, &first_ra))
            goto fail;
    if (json_get(r, "probes") && !check_probes(cmd, mf, json_get(r, "probes")))
        goto fail;
    return 1;
fail:
    model_file_free(mf);
    return 0;
}

void model_file_free(model_file *mf)
{
    if (mf) {
        json_free(mf->root);
        mf->root = NULL;
    }
}

static double member(const json_value *o, const char *k, double dflt)
{
    const json_value *v = json_get(o, k);
    return v ? v->num : dflt;
}

/* The largest path distance of the far ends of the sections of type t: at
 * each leaf compartment, its centre plus half its length (the spacing to
 * its parent when that is the section's previous compartment, a parent
 * with one child; else the distance from the parent's centre, an upper
 * bound). */
static double far_end(const hb_morph_cell_view *v, int t)
{
    if (v->n < 1)
        return 0;
    int64_t *kids = calloc((size_t)v->n, sizeof *kids);
    double best = 0;
    if (!kids)
        return NAN;
    for (int64_t k = 1; k < v->n; ++k)
        kids[v->parent[k]]++;
    for (int64_t k = 0; k < v->n; ++k) {
        if (v->type[k] != t || kids[k])
            continue;
        const int64_t p = v->parent[k];
        double half = 0;
        if (p >= 0)
            half = kids[p] == 1 && v->type[p] == t ? 0.5 * (v->distance[k] - v->distance[p])
                                                   : v->distance[k] - v->distance[p];
        best = fmax(best, v->distance[k] + half);
    }
    free(kids);
    return best;
}

/* The engine measures distance from soma(0.5) under NEURON's conventions;
 * the file from the root sample, where Import3d puts a chain soma's 0 end
 * and hangs the trees that start on the soma: a zero-area soma node made
 * from the root sample. Its distance is the offset between the two for
 * every compartment reached through it (all but the soma's own). 0 when the
 * cell has no such node (the root is the soma's middle). */
static double origin_offset(const hb_morph_cell_view *v)
{
    for (int64_t k = 0; k < v->n; ++k)
        if (v->type[k] == 1 && v->area[k] == 0 && v->source[k] == 0)
            return v->distance[k];
    return 0;
}

static int apply_param(const char *cmd, const model_file *mf, hb_sim *sim, const char *mech,
                       const json_value *pv, const hb_sim_region *where, double dmax, double off)
{
    hb_status st;
    if (pv->type == JSON_NUMBER)
        st = hb_sim_set_param(sim, mech, pv->key, where, pv->num);
    else {
        const char *kind = json_get(pv, "kind")->str;
        const double D = strcmp(json_get(pv, "x")->str, "distance_normalized") ? 1.0 : dmax;
        if (!(D > 0))
            return bad(cmd, mf, pv, pv->key,
                       "distance_normalized in a region whose sections reach no farther than "
                       "the root (d_max %g um)",
                       dmax);
        const double s = member(pv, "scale", 1.0);
        if (!strcmp(kind, "window")) {
            hb_sim_region in = *where;
            in.dist_min = member(pv, "from", 0) * D + off;
            in.dist_max = member(pv, "to", 0) * D + off;
            st = hb_sim_set_param(sim, mech, pv->key, where, s * member(pv, "outside", 0));
            if (st == HB_SUCCESS)
                st = hb_sim_set_param(sim, mech, pv->key, &in, s * member(pv, "inside", 0));
        } else {
            /* In the engine's distance d = x D + off. */
            hb_sim_profile f = {s * member(pv, "a", 0), 0, 0, 0};
            if (!strcmp(kind, "linear")) {
                f.b = s * member(pv, "b", 0) / D;
                f.a -= f.b * off;
            } else {
                const double c = member(pv, "c", 0);
                f.k = c / D;
                f.c = s * member(pv, "b", 0) * exp(-c * member(pv, "x0", 0) - f.k * off);
            }
            st = hb_sim_set_param_profile(sim, mech, pv->key, where, &f);
        }
    }
    if (st != HB_SUCCESS)
        return bad(cmd, mf, pv, pv->key, "%s: %s", hb_status_string(st), hb_last_error());
    return 1;
}

int model_file_apply(const char *cmd, const model_file *mf, hb_sim *sim, const hb_morph_cell *cell)
{
    const json_value *regions = json_get(mf->root, "regions"), *ions = json_get(mf->root, "ions");
    hb_morph_cell_view v;
    hb_status st = hb_morph_cell_get_view(cell, &v);
    if (st != HB_SUCCESS) {
        fprintf(stderr, "hinesbatch %s: %s\n", cmd, hb_last_error());
        return 0;
    }
    /* Every compartment's type has a region: a membrane without one has no
     * mechanisms, which the file format calls an error. */
    for (int64_t k = 0; k < v.n; ++k) {
        int hit = 0;
        for (size_t i = 0; i < regions->n && !hit; ++i)
            hit = member(&regions->items[i], "swc_type", -1) == v.type[k];
        if (!hit)
            return bad(cmd, mf, regions, "regions",
                       "no region for SWC type %d, which compartment %lld of '%s' has",
                       (int)v.type[k], (long long)k, mf->morphology);
    }
    const double off = origin_offset(&v);
    char summary[1024];
    size_t at = 0;
    summary[0] = '\0';
    for (size_t i = 0; i < regions->n; ++i) {
        const json_value *r = &regions->items[i];
        const int t = (int)member(r, "swc_type", 0);
        hb_sim_region where;
        hb_sim_region_init(&where);
        where.types = HB_SIM_TYPE(t);
        int64_t count = 0;
        for (int64_t k = 0; k < v.n; ++k)
            count += v.type[k] == t;
        const double dmax = far_end(&v, t) - off;
        if (at < sizeof summary)
            at += (size_t)snprintf(summary + at, sizeof summary - at, "%s%s %lld (d_max %.1f um)",
                                   i ? ", " : "", json_get(r, "name")->str, (long long)count,
                                   fmax(dmax, 0.0));
        if (!count)
            continue; /* a region of a type the morphology lacks: nothing to do */
        if ((st = hb_sim_set_cm(sim, &where, member(r, "cm", 1.0))) != HB_SUCCESS)
            return bad(cmd, mf, json_get(r, "cm"), "cm", "%s", hb_last_error());
        const json_value *ms = json_get(r, "mechanisms");
        for (size_t m = 0; m < ms->n; ++m) {
            const json_value *mv = &ms->items[m];
            if ((st = hb_sim_insert(sim, mv->key, &where)) != HB_SUCCESS)
                return bad(cmd, mf, mv, mv->key, "%s", hb_last_error());
            for (size_t p = 0; p < mv->n; ++p)
                if (!apply_param(cmd, mf, sim, mv->key, &mv->items[p], &where, dmax, off))
                    return 0;
        }
    }
    for (size_t i = 0; ions && i < ions->n; ++i) {
        const json_value *ion = &ions->items[i];
        char ci[64], co[64];
        snprintf(ci, sizeof ci, "%si0", ion->key);
        snprintf(co, sizeof co, "%so0", ion->key);
        const json_value *e = json_get(ion, "e");
        const int nernst = e->type == JSON_STRING;
        st = hb_sim_set_ion(sim, ion->key, NULL, nernst ? NAN : e->num, member(ion, ci, NAN),
                            member(ion, co, NAN));
        if (st == HB_SUCCESS && nernst)
            st = hb_sim_set_ion_nernst(sim, ion->key, 1);
        if (st != HB_SUCCESS)
            return bad(cmd, mf, ion, ion->key, "%s", hb_last_error());
    }
    printf("model: %s: regions %s; Ra %g ohm*cm; distances from the root sample, %.3f um from "
           "soma(0.5)\n",
           mf->path, summary, mf->ra, off);
    return 1;
}

int model_file_probes(const char *cmd, const model_file *mf, hb_sim *sim,
                      const hb_morph_cell *cell, int64_t ncells)
{
    const json_value *ps = json_get(mf->root, "probes");
    hb_morph_cell_view v;
    if (!ps || ps->n == 0)
        return 1;
    if (hb_morph_cell_get_view(cell, &v) != HB_SUCCESS) {
        fprintf(stderr, "hinesbatch %s: %s\n", cmd, hb_last_error());
        return 0;
    }
    const double off = origin_offset(&v);
    for (size_t i = 0; i < ps->n; ++i) {
        const json_value *p = &ps->items[i], *c = json_get(p, "compartment"),
                         *l = json_get(p, "location");
        const char *what = json_get(p, "what")->str;
        const int64_t k = (int64_t)member(p, "cell", 0);
        char key[64];
        snprintf(key, sizeof key, "probes[%zu]", i);
        if (k >= ncells)
            return bad(cmd, mf, json_get(p, "cell"), key, "cell %lld: the run has %lld cells",
                       (long long)k, (long long)ncells);
        int64_t comp = c && c->type == JSON_NUMBER ? (int64_t)c->num : -1;
        if (l) {
            /* The compartment of that type whose centre is nearest the
             * distance (from the root sample, as the regions' distances). */
            const int t = (int)member(l, "swc_type", 0);
            const double d = member(l, "distance_um", 0) + off;
            double best = INFINITY;
            for (int64_t q = 0; q < v.n; ++q)
                if (v.type[q] == t && fabs(v.distance[q] - d) < best)
                    best = fabs(v.distance[q] - d), comp = q;
            if (!isfinite(best))
                return bad(cmd, mf, l, key, "no compartment of SWC type %d in '%s'", t,
                           mf->morphology);
        }
        int64_t id;
        if (hb_sim_probe(sim, k, comp, what, &id) != HB_SUCCESS)
            return bad(cmd, mf, p, key, "%s", hb_last_error());
    }
    printf("probes: %zu from %s\n", ps->n, mf->path);
    return 1;
}
