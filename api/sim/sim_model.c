/* sim_model.c: a simulation's model: mechanisms by region, parameters by region and distance, ions, point processes, events and spike trains; set up on the backend once. */
#include "sim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NMECH HB_CAT_INFO_NMECH
#define NION HB_CAT_INFO_NION

/* NEURON 9's constants: R in J/(K mol), Faraday in C/mol. */
#define HB_GAS_R 8.31446261815324
#define HB_FARADAY 96485.33212331001

int64_t hb_mech_count(void) { return NMECH; }

hb_status hb_mech_describe(int64_t index, hb_mech_desc *desc)
{
    if (index < 0 || index >= NMECH)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "hb_mech_describe: index %lld not in [0, %d)",
                         (long long)index, NMECH);
    if (!desc)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "hb_mech_describe: desc (output) is NULL");
    const hb_cat_mech *m = &hb_cat_mechs[index];
    desc->name = m->name;
    desc->point = m->point;
    desc->nparam = m->nparam;
    desc->nstate = m->nstate;
    desc->net_receive = m->has_net_receive;
    desc->param_names = m->param_names;
    desc->param_defaults = m->param_defaults;
    desc->state_names = m->state_names;
    desc->ncurrent = m->ncur;
    desc->current_names = m->cur_names;
    return HB_SUCCESS;
}

void hb_sim_region_init(hb_sim_region *where)
{
    if (!where)
        return;
    where->cell = -1;
    where->types = 0;
    where->dist_min = 0;
    where->dist_max = INFINITY;
}

/* The catalogue's names, for messages. */
static void catalogue_names(char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = 0;
    for (int m = 0; m < NMECH && n < cap; ++m)
        n += (size_t)snprintf(buf + n, cap - n, "%s%s", m ? ", " : "", hb_cat_mechs[m].name);
}

static hb_status find_mech(const char *name, int point, const char *fn, int *out)
{
    char names[400];
    if (!name)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: mech is NULL", fn);
    for (int m = 0; m < NMECH; ++m)
        if (!strcmp(hb_cat_mechs[m].name, name)) {
            if (point >= 0 && hb_cat_mechs[m].point != point)
                return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: %s is a %s; %s", fn, name,
                                 point ? "density mechanism" : "point process",
                                 point ? "insert it with hb_sim_insert"
                                       : "place it with hb_sim_add_point");
            *out = m;
            return HB_SUCCESS;
        }
    catalogue_names(names, sizeof names);
    return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: no mechanism \"%s\" in the catalogue (%s)", fn,
                     name, names);
}

static hb_status find_param(int m, const char *param, const char *fn, int *out)
{
    const hb_cat_mech *d = &hb_cat_mechs[m];
    if (!param)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: param is NULL", fn);
    for (int p = 0; p < d->nparam; ++p)
        if (!strcmp(d->param_names[p], param)) {
            /* The parameter is named as the view's field (diam, area). */
            const int g = hb__sim_geometry_param(param);
            if (g)
                return hb__error(HB_ERR_INVALID_ARGUMENT,
                                 "%s: %s.%s is the compartment's %s, set from the morphology "
                                 "(hb_morph_cell_view.%s); it cannot be set",
                                 fn, d->name, param,
                                 g == HB_SIM_GEOM_AREA ? "membrane area (um2)"
                                                       : "mean diameter (um)",
                                 param);
            *out = p;
            return HB_SUCCESS;
        }
    char names[400];
    size_t n = 0;
    names[0] = 0;
    for (int p = 0; p < d->nparam && n < sizeof names; ++p)
        n += (size_t)snprintf(names + n, sizeof names - n, "%s%s", p ? ", " : "",
                              d->param_names[p]);
    return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: %s has no PARAMETER \"%s\" (it has: %s)", fn,
                     d->name, param, d->nparam ? names : "none");
}

static hb_status find_ion(const char *ion, const char *fn, int *out)
{
    if (!ion)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: ion is NULL", fn);
    for (int x = 0; x < NION; ++x)
        if (!strcmp(hb_cat_ions[x].name, ion)) {
            *out = x;
            return HB_SUCCESS;
        }
    return hb__error(HB_ERR_INVALID_ARGUMENT,
                     "%s: no ion \"%s\" in the catalogue (na, k, ca and the ions its mechanisms "
                     "name)",
                     fn, ion);
}

hb_status hb__sim_check_location(const hb_sim *sim, int64_t cell, int64_t comp, const char *fn)
{
    if (cell < 0 || cell >= sim->ncells)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: cell %lld not in [0, %lld)", fn,
                         (long long)cell, (long long)sim->ncells);
    const int64_t n = sim->offsets[cell + 1] - sim->offsets[cell];
    if (comp < -1 || comp >= n)
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "%s: compartment %lld of cell %lld not in [0, %lld) (or -1 for the soma)",
                         fn, (long long)comp, (long long)cell, (long long)n);
    return HB_SUCCESS;
}

hb_status hb__sim_check_open(const hb_sim *sim, const char *fn)
{
    if (sim->model.built)
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "%s: the model is set up at the first hb_sim_run or state read; change "
                         "it before",
                         fn);
    return HB_SUCCESS;
}

hb_status hb__sim_check_region(const hb_sim *sim, const hb_sim_region *w, const char *fn)
{
    if (!w)
        return HB_SUCCESS;
    if (w->cell < -1 || w->cell >= sim->ncells)
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "%s: where->cell = %lld not in [0, %lld) (or -1 for every cell)", fn,
                         (long long)w->cell, (long long)sim->ncells);
    if (isnan(w->dist_min) || isnan(w->dist_max))
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: where->dist_min or dist_max is NaN", fn);
    return HB_SUCCESS;
}

int hb__sim_in_region(const hb_sim *sim, const hb_sim_region *w, int64_t k)
{
    if (!w)
        return 1;
    const hb_sim_model *md = &sim->model;
    const int32_t t = md->type[k];
    if (w->cell >= 0 && md->cellof[k] != w->cell)
        return 0;
    if (w->types && (t < 0 || t > 31 || !(w->types & (1u << t))))
        return 0;
    return md->dist[k] >= w->dist_min && md->dist[k] < w->dist_max;
}

/* The rows of the region, [r0, r1): one cell's or all. */
void hb__sim_region_rows(const hb_sim *sim, const hb_sim_region *w, int64_t *r0, int64_t *r1)
{
    *r0 = w && w->cell >= 0 ? sim->offsets[w->cell] : 0;
    *r1 = w && w->cell >= 0 ? sim->offsets[w->cell + 1] : sim->nrows;
}

hb_status hb__sim_model_rows(hb_sim *sim, const hb_morph_cell *const *cells,
                             const hb_morph_batch_view *bv)
{
    hb_sim_model *md = &sim->model;
    const int64_t R = sim->nrows;
    md->type = hb__malloc_n(R, sizeof *md->type);
    md->dist = hb__malloc_n(R, sizeof *md->dist);
    md->area = hb__malloc_n(R, sizeof *md->area);
    md->diam = hb__malloc_n(R, sizeof *md->diam);
    md->cellof = hb__malloc_n(R, sizeof *md->cellof);
    md->ion = hb__malloc_n(R * 3 * NION, sizeof *md->ion); /* R * 3 * NION: R bounded by the batch */
    sim->cm = hb__malloc_n(R, sizeof *sim->cm);
    sim->gax = hb__malloc_n(R, sizeof *sim->gax);
    sim->lparent = hb__malloc_n(R, sizeof *sim->lparent);
    if (!md->type || !md->dist || !md->area || !md->diam || !md->cellof || !md->ion || !sim->cm ||
        !sim->gax || !sim->lparent)
        return hb__error(HB_ERR_OUT_OF_MEMORY, "hb_sim_create: model tables of %lld rows",
                         (long long)R);
    for (int64_t c = 0; c < sim->ncells; ++c) {
        hb_morph_cell_view cv;
        HB_FORWARD(hb_morph_cell_get_view(cells[c], &cv));
        const int64_t o = sim->offsets[c];
        for (int64_t i = 0; i < cv.n; ++i) {
            md->type[o + i] = cv.type[i];
            md->dist[o + i] = cv.distance[i];
            md->area[o + i] = bv->area[o + i];
            md->diam[o + i] = cv.diam[i];
            md->cellof[o + i] = c;
            /* What hb_sim_set_cm rebuilds C/dt and the diagonal from. */
            sim->cm[o + i] = cv.cable.cm;
            sim->gax[o + i] = cv.g_axial[i];
            sim->lparent[o + i] = cv.parent[i];
        }
    }
    for (int x = 0; x < NION; ++x) {
        const char *n = hb_cat_ions[x].name;
        double e = 0, ci = 1, co = 1;
        if (!strcmp(n, "na"))
            e = sim->prm.ena, ci = 10, co = 140;
        else if (!strcmp(n, "k"))
            e = sim->prm.ek, ci = 54.4, co = 2.5;
        else if (!strcmp(n, "ca"))
            e = 132.4579341637009, ci = 5e-5, co = 2;
        for (int64_t k = 0; k < R; ++k) {
            md->ion[(3 * x) * R + k] = e;
            md->ion[(3 * x + 1) * R + k] = ci;
            md->ion[(3 * x + 2) * R + k] = co;
        }
    }
    return HB_SUCCESS;
}

void hb__sim_model_free(hb_sim *sim)
{
    hb_sim_model *md = &sim->model;
    for (int m = 0; m < NMECH; ++m)
        free(md->dens[m].on), free(md->dens[m].prm);
    free(md->points), free(md->point_prm), free(md->events), free(md->entry), free(md->ion);
    free(md->stream_point), free(md->stream_last), free(md->stream_off), free(md->conn_vals);
    free(md->type), free(md->dist), free(md->area), free(md->diam), free(md->cellof);
    memset(md, 0, sizeof *md);
}

/* A mechanism's parameters at their defaults, its geometry (parameters
 * named diam and area: NMODL's, apps/nmodl/hb_nmodl/model.py) from row k.
 * A row of zero area (a kept branch point, a section's end) reads area 100
 * um2, as NEURON gives its zero-area nodes: a point process there converts
 * its current by 100/area = 1, and no mechanism divides by 0. */
static void default_params(const hb_sim *sim, const hb_cat_mech *cm, int64_t k, double *prm)
{
    const hb_sim_model *md = &sim->model;
    for (int p = 0; p < cm->nparam; ++p) {
        const int g = hb__sim_geometry_param(cm->param_names[p]);
        prm[p] = g == HB_SIM_GEOM_DIAM   ? md->diam[k]
                 : g == HB_SIM_GEOM_AREA ? (md->area[k] > 0 ? md->area[k] : 100.0)
                                         : cm->param_defaults[p];
    }
}

/* Compartment k gets the mechanism (no change when it has it). */
static void insert_row(const hb_sim *sim, hb_sim_density *d, const hb_cat_mech *cm, int64_t k)
{
    if (d->on[k])
        return;
    d->on[k] = 1;
    d->count++;
    default_params(sim, cm, k, d->prm + k * cm->nparam);
}

static hb_status insert(hb_sim *sim, int m, const hb_sim_region *where, const char *fn)
{
    hb_sim_model *md = &sim->model;
    hb_sim_density *d = &md->dens[m];
    const hb_cat_mech *cm = &hb_cat_mechs[m];
    const int64_t R = sim->nrows;
    if (!d->on) {
        /* Both tables or neither: nothing changes when one cannot be had. */
        uint8_t *on = hb__calloc_n(R, 1);
        double *prm = hb__malloc_n(R, (size_t)(cm->nparam > 0 ? cm->nparam : 1) * sizeof *prm);
        if (!on || !prm) {
            free(on), free(prm);
            return hb__error(HB_ERR_OUT_OF_MEMORY, "%s: %s on %lld compartments", fn, cm->name,
                             (long long)R);
        }
        d->on = on, d->prm = prm;
    }
    int64_t r0, r1;
    hb__sim_region_rows(sim, where, &r0, &r1);
    for (int64_t k = r0; k < r1; ++k)
        if (hb__sim_in_region(sim, where, k))
            insert_row(sim, d, cm, k);
    md->inserted = 1;
    return HB_SUCCESS;
}

static hb_status set_param(hb_sim *sim, const char *mech, const char *param,
                           const hb_sim_region *where, const hb_sim_profile *f, const char *fn)
{
    int m, p;
    HB_FORWARD(hb__sim_check_open(sim, fn));
    HB_FORWARD(find_mech(mech, 0, fn, &m));
    HB_FORWARD(find_param(m, param, fn, &p));
    HB_FORWARD(hb__sim_check_region(sim, where, fn));
    if (!isfinite(f->a) || !isfinite(f->b) || !isfinite(f->c) || !isfinite(f->k))
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: %s.%s: value or profile not finite", fn,
                         mech, param);
    hb_sim_density *d = &sim->model.dens[m];
    const int np = hb_cat_mechs[m].nparam;
    int64_t r0, r1, hit = 0;
    hb__sim_region_rows(sim, where, &r0, &r1);
    /* Every value is checked before one is written. */
    for (int pass = 0; pass < 2; ++pass)
        for (int64_t k = r0; d->on && k < r1; ++k) {
            if (!d->on[k] || !hb__sim_in_region(sim, where, k))
                continue;
            const double x = sim->model.dist[k];
            const double v = f->a + f->b * x + (f->c != 0 ? f->c * exp(f->k * x) : 0.0);
            if (pass == 0 && !isfinite(v))
                return hb__error(HB_ERR_INVALID_ARGUMENT,
                                 "%s: %s.%s is not finite at cell %lld compartment %lld "
                                 "(distance %g um)",
                                 fn, mech, param, (long long)sim->model.cellof[k],
                                 (long long)(k - sim->offsets[sim->model.cellof[k]]), x);
            if (pass == 1)
                d->prm[k * np + p] = v;
            hit += pass == 0;
        }
    if (!hit)
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "%s: no compartment of the region carries %s (hb_sim_insert it first)",
                         fn, mech);
    return HB_SUCCESS;
}

hb_status hb_sim_insert(hb_sim *sim, const char *mech, const hb_sim_region *where)
{
    const char *fn = "hb_sim_insert";
    if (!sim)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: sim is NULL", fn);
    HB_FORWARD(hb__sim_enter(sim, fn));
    int m = 0;
    hb_status st = hb__sim_check_open(sim, fn);
    if (st == HB_SUCCESS)
        st = find_mech(mech, 0, fn, &m);
    if (st == HB_SUCCESS)
        st = hb__sim_check_region(sim, where, fn);
    if (st == HB_SUCCESS)
        st = insert(sim, m, where, fn);
    hb__sim_leave(sim);
    return st;
}

hb_status hb_sim_set_param(hb_sim *sim, const char *mech, const char *param,
                           const hb_sim_region *where, double value)
{
    const hb_sim_profile f = {value, 0, 0, 0};
    HB_SIM_GUARDED(sim, "hb_sim_set_param",
                   set_param(sim, mech, param, where, &f, "hb_sim_set_param"));
}

hb_status hb_sim_set_param_profile(hb_sim *sim, const char *mech, const char *param,
                                   const hb_sim_region *where, const hb_sim_profile *profile)
{
    if (!profile)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "hb_sim_set_param_profile: profile is NULL");
    HB_SIM_GUARDED(sim, "hb_sim_set_param_profile",
                   set_param(sim, mech, param, where, profile, "hb_sim_set_param_profile"));
}

static hb_status set_ion(hb_sim *sim, const char *ion, const hb_sim_region *where, double e,
                         double ci, double co)
{
    const char *fn = "hb_sim_set_ion";
    int x = 0;
    HB_FORWARD(hb__sim_check_open(sim, fn));
    HB_FORWARD(find_ion(ion, fn, &x));
    HB_FORWARD(hb__sim_check_region(sim, where, fn));
    if (isinf(e) || (!isnan(ci) && !(ci > 0 && isfinite(ci))) ||
        (!isnan(co) && !(co > 0 && isfinite(co))))
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "%s: %s: e = %g mV must be finite, ci = %g and co = %g mM finite and "
                         "> 0 (NaN: unchanged)",
                         fn, ion, e, ci, co);
    const double val[3] = {e, ci, co};
    const int64_t R = sim->nrows;
    int64_t r0, r1;
    hb__sim_region_rows(sim, where, &r0, &r1);
    for (int64_t k = r0; k < r1; ++k)
        if (hb__sim_in_region(sim, where, k))
            for (int s = 0; s < 3; ++s)
                if (!isnan(val[s]))
                    sim->model.ion[(3 * x + s) * R + k] = val[s];
    return HB_SUCCESS;
}

hb_status hb_sim_set_ion(hb_sim *sim, const char *ion, const hb_sim_region *where, double e,
                         double ci, double co)
{
    HB_SIM_GUARDED(sim, "hb_sim_set_ion", set_ion(sim, ion, where, e, ci, co));
}

static hb_status set_nernst(hb_sim *sim, const char *ion, int nernst)
{
    int x = 0;
    HB_FORWARD(hb__sim_check_open(sim, "hb_sim_set_ion_nernst"));
    HB_FORWARD(find_ion(ion, "hb_sim_set_ion_nernst", &x));
    sim->model.nernst[x] = nernst != 0;
    return HB_SUCCESS;
}

hb_status hb_sim_set_ion_nernst(hb_sim *sim, const char *ion, int nernst)
{
    HB_SIM_GUARDED(sim, "hb_sim_set_ion_nernst", set_nernst(sim, ion, nernst));
}

/* Room for one more element (capacity doubles from first). */
hb_status hb__sim_grow(void **arr, int64_t *cap, int64_t need, int64_t first, size_t esize,
                       const char *what, const char *fn)
{
    if (need <= *cap)
        return HB_SUCCESS;
    int64_t want = *cap ? *cap : first;
    while (want < need && want <= INT64_MAX / 2)
        want *= 2;
    if (want < need)
        return hb__error(HB_ERR_OUT_OF_MEMORY, "%s: %lld %s", fn, (long long)need, what);
    void *p = hb__realloc_n(*arr, want, esize);
    if (!p)
        return hb__error(HB_ERR_OUT_OF_MEMORY, "%s: %lld %s", fn, (long long)want, what);
    *arr = p;
    *cap = want;
    return HB_SUCCESS;
}

static hb_status add_point(hb_sim *sim, const char *mech, int64_t cell, int64_t comp,
                           int64_t *id)
{
    const char *fn = "hb_sim_add_point";
    hb_sim_model *md = &sim->model;
    int m;
    HB_FORWARD(hb__sim_check_open(sim, fn));
    HB_FORWARD(find_mech(mech, 1, fn, &m));
    if (!id)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: id (output) is NULL", fn);
    HB_FORWARD(hb__sim_check_location(sim, cell, comp, fn));
    const int np = hb_cat_mechs[m].nparam;
    HB_FORWARD(hb__sim_grow((void **)&md->points, &md->point_cap, md->npoints + 1, 16,
                    sizeof *md->points, "point processes", fn));
    HB_FORWARD(hb__sim_grow((void **)&md->point_prm, &md->point_prm_cap, md->point_prm_n + np + 1, 64,
                    sizeof *md->point_prm, "point process parameters", fn));
    hb_sim_point *pt = &md->points[md->npoints];
    pt->mech = m;
    pt->row = sim->offsets[cell] + (comp < 0 ? sim->soma[cell] : comp);
    pt->prm = md->point_prm_n;
    default_params(sim, &hb_cat_mechs[m], pt->row, md->point_prm + md->point_prm_n);
    md->point_prm_n += np;
    /* Point processes add to the model: the default one still applies when
     * no density mechanism is inserted. */
    *id = md->npoints++;
    return HB_SUCCESS;
}

hb_status hb_sim_add_point(hb_sim *sim, const char *mech, int64_t cell, int64_t compartment,
                           int64_t *id)
{
    HB_SIM_GUARDED(sim, "hb_sim_add_point", add_point(sim, mech, cell, compartment, id));
}

static hb_status check_point(const hb_sim *sim, int64_t id, const char *fn)
{
    if (id < 0 || id >= sim->model.npoints)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: point process %lld not in [0, %lld)", fn,
                         (long long)id, (long long)sim->model.npoints);
    return HB_SUCCESS;
}

static hb_status set_point_param(hb_sim *sim, int64_t id, const char *param, double value)
{
    const char *fn = "hb_sim_set_point_param";
    int p;
    HB_FORWARD(hb__sim_check_open(sim, fn));
    HB_FORWARD(check_point(sim, id, fn));
    const hb_sim_point *pt = &sim->model.points[id];
    HB_FORWARD(find_param(pt->mech, param, fn, &p));
    if (!isfinite(value))
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: point process %lld: %s = %g is not finite",
                         fn, (long long)id, param, value);
    sim->model.point_prm[pt->prm + p] = value;
    return HB_SUCCESS;
}

hb_status hb_sim_set_point_param(hb_sim *sim, int64_t id, const char *param, double value)
{
    HB_SIM_GUARDED(sim, "hb_sim_set_point_param", set_point_param(sim, id, param, value));
}

/* First step whose midpoint n dt + dt/2 is at or after t (as sim.c's clamps). */
int64_t hb__sim_event_step(double t, double dt)
{
    double x = ceil(t / dt - 0.5 - 1e-9);
    return x < 0 ? 0 : x >= 0x1p62 ? (int64_t)1 << 62 : (int64_t)x;
}

static hb_status add_events(hb_sim *sim, int64_t id, int64_t n, const double *times,
                            double weight, const char *fn)
{
    hb_sim_model *md = &sim->model;
    HB_FORWARD(check_point(sim, id, fn));
    const hb_cat_mech *cm = &hb_cat_mechs[md->points[id].mech];
    if (!cm->has_net_receive)
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "%s: point process %lld (%s) has no NET_RECEIVE block: it takes no "
                         "events",
                         fn, (long long)id, cm->name);
    if (n < 0 || (n > 0 && !times))
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: n = %lld with times %s", fn, (long long)n,
                         times ? "set" : "NULL");
    if (!isfinite(weight))
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: weight %g is not finite", fn, weight);
    /* Events may come between runs (sim_events.c), never into steps already run. */
    for (int64_t i = 0; i < n; ++i) {
        if (!(times[i] >= 0) || !isfinite(times[i]))
            return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: times[%lld] = %g ms is not finite and >= 0",
                             fn, (long long)i, times[i]);
        if (hb__sim_event_step(times[i], sim->prm.dt) < sim->steps)
            return hb__error(HB_ERR_INVALID_ARGUMENT,
                             "%s: times[%lld] = %g ms is before the step the simulation is at "
                             "(t = %g ms)",
                             fn, (long long)i, times[i], (double)sim->steps * sim->prm.dt);
    }
    HB_FORWARD(hb__sim_grow((void **)&md->events, &md->ev_cap, md->nev + n, 64, sizeof *md->events,
                    "events", fn));
    for (int64_t i = 0; i < n; ++i)
        md->events[md->nev + i] = (hb_sim_event){id, hb__sim_event_step(times[i], sim->prm.dt),
                                                 md->ev_seq + i, weight, times[i], -1};
    md->nev += n;
    md->ev_seq += n;
    return HB_SUCCESS;
}

hb_status hb__sim_add_stream(hb_sim *sim, int64_t point, int64_t *stream)
{
    hb_sim_model *md = &sim->model;
    *stream = -1;
    if (hb_cat_mechs[md->points[point].mech].nconn == 0)
        return HB_SUCCESS;
    if (md->built)
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "hb_net_connect: the simulation of point %lld has run: a connection "
                         "into %s (values kept per connection) must come before",
                         (long long)point, hb_cat_mechs[md->points[point].mech].name);
    HB_FORWARD(hb__sim_grow((void **)&md->stream_point, &md->stream_cap, md->nstream + 1, 64,
                            sizeof *md->stream_point, "connections", "hb_net_connect"));
    HB_FORWARD(hb__sim_grow((void **)&md->stream_last, &md->stream_last_cap, md->nstream + 1, 64,
                            sizeof *md->stream_last, "connections", "hb_net_connect"));
    md->stream_point[md->nstream] = point;
    md->stream_last[md->nstream] = -1;
    *stream = md->nstream++;
    return HB_SUCCESS;
}

hb_status hb__sim_set_stream_values(hb_sim *sim, int64_t stream, int32_t n, const double *values,
                                    const char *fn)
{
    hb_sim_model *md = &sim->model;
    if (md->built)
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "%s: the simulation has run: a connection's values are set before", fn);
    if (n <= 0)
        return HB_SUCCESS;
    HB_FORWARD(hb__sim_grow((void **)&md->conn_vals, &md->conn_vals_cap, md->nconn_vals + n, 64,
                            sizeof *md->conn_vals, "connection values", fn));
    const int64_t first = md->nconn_vals;
    for (int32_t q = 0; q < n; ++q)
        md->conn_vals[md->nconn_vals++] = (hb_sim_conn_value){stream, q, 0, -1, values[q]};
    md->conn_vals[first].n = n;
    md->conn_vals[first].prev = md->stream_last[stream];
    md->stream_last[stream] = first;
    return HB_SUCCESS;
}

hb_status hb__sim_get_stream_values(hb_sim *sim, int64_t stream, int32_t n, double *values)
{
    const hb_sim_model *md = &sim->model;
    if (md->built)
        return hb__sim_read_real(sim, sim->dev.mst, md->stream_off[stream] + 1, n, values);
    /* The stream's calls, the last first: each sets q = 0 .. its n - 1, so
     * an older call adds only the values past every later call's count. */
    int32_t done = 0;
    for (int64_t f = md->stream_last[stream]; f >= 0 && done < n; f = md->conn_vals[f].prev) {
        const int32_t m = md->conn_vals[f].n < n ? md->conn_vals[f].n : n;
        for (int32_t q = done; q < m; ++q)
            values[q] = md->conn_vals[f + q].value;
        if (m > done)
            done = m;
    }
    for (int32_t q = done; q < n; ++q)
        values[q] = 0;
    return HB_SUCCESS;
}

hb_status hb_sim_add_events(hb_sim *sim, int64_t id, int64_t n, const double *times,
                            double weight)
{
    HB_SIM_GUARDED(sim, "hb_sim_add_events",
                   add_events(sim, id, n, times, weight, "hb_sim_add_events"));
}

/* splitmix64: a seeded stream of 64-bit values, the same on every platform. */
static uint64_t splitmix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static hb_status add_train(hb_sim *sim, int64_t id, const hb_spike_train *tr)
{
    const char *fn = "hb_sim_add_spike_train";
    if (!tr)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: train is NULL", fn);
    if (!(tr->start >= 0) || !isfinite(tr->start) || isnan(tr->stop) || tr->stop < tr->start)
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "%s: start %g ms must be finite and >= 0, stop %g ms >= start", fn,
                         tr->start, tr->stop);
    double span = tr->stop - tr->start;
    double mean;
    if (tr->kind == HB_TRAIN_REGULAR) {
        if (!(tr->interval > 0) || !isfinite(tr->interval))
            return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: interval %g ms must be > 0", fn,
                             tr->interval);
        mean = tr->interval;
    } else if (tr->kind == HB_TRAIN_POISSON) {
        if (!(tr->rate > 0) || !isfinite(tr->rate))
            return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: rate %g Hz must be > 0", fn, tr->rate);
        mean = 1e3 / tr->rate;
    } else
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: kind %d is not an hb_train_kind", fn,
                         (int)tr->kind);
    /* An open-ended train stops at 2^31 events: beyond any run a buffer holds. */
    double expect = isfinite(span) ? span / mean : INFINITY;
    if (!(expect < 2147483647.0 / 4))
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "%s: [%g, %g) ms at one event per %g ms is %g events; give a finite "
                         "stop",
                         fn, tr->start, tr->stop, mean, expect);
    int64_t cap = 0, n = 0;
    double *t = NULL;
    uint64_t s = tr->seed;
    double x = tr->start;
    for (;;) {
        if (tr->kind == HB_TRAIN_REGULAR)
            x = tr->start + (double)n * tr->interval;
        else {
            /* Exponential interval from a uniform in (0, 1]. */
            double u = ((double)(splitmix64(&s) >> 11) + 1.0) * 0x1p-53;
            x += -mean * log(u);
        }
        if (!(x < tr->stop))
            break;
        if (n == cap) {
            hb_status st = hb__sim_grow((void **)&t, &cap, n + 1, 64, sizeof *t, "train events", fn);
            if (st != HB_SUCCESS) {
                free(t);
                return st;
            }
        }
        t[n++] = x;
    }
    hb_status st = add_events(sim, id, n, t, tr->weight, fn);
    free(t);
    return st;
}

hb_status hb_sim_add_spike_train(hb_sim *sim, int64_t id, const hb_spike_train *train)
{
    HB_SIM_GUARDED(sim, "hb_sim_add_spike_train", add_train(sim, id, train));
}

/* The model of hb_sim_params when nothing was inserted (hinesbatch_sim.h). */
static hb_status default_model(hb_sim *sim, const char *fn)
{
    const hb_sim_params *p = &sim->prm;
    int pas, hh, k;
    HB_FORWARD(find_mech("pas", 0, fn, &pas));
    HB_FORWARD(find_mech("hh", 0, fn, &hh));
    HB_FORWARD(insert(sim, pas, NULL, fn));
    hb_sim_region soma;
    hb_sim_region_init(&soma);
    for (int64_t c = 0; c < sim->ncells; ++c) {
        soma.cell = c;
        if (p->hh_everywhere)
            soma.types = 0;
        else if (sim->model.type[sim->offsets[c] + sim->soma[c]] == 1)
            soma.types = HB_SIM_TYPE(1);
        else {
            /* No soma: the cell's first compartment alone (the empty region
             * only makes hh's tables). */
            HB_FORWARD(insert(sim, hh, &(hb_sim_region){c, HB_SIM_TYPE(0), 0, 0}, fn));
            insert_row(sim, &sim->model.dens[hh], &hb_cat_mechs[hh], sim->offsets[c]);
            continue;
        }
        HB_FORWARD(insert(sim, hh, &soma, fn));
    }
    const struct {
        int m;
        const char *name;
        double v;
    } set[] = {{pas, "g", p->gl},        {pas, "e", p->el},         {hh, "gnabar", p->gnabar},
               {hh, "gkbar", p->gkbar},  {hh, "gl", 0.0},           {hh, "el", p->el}};
    for (size_t i = 0; i < sizeof set / sizeof set[0]; ++i) {
        hb_sim_density *d = &sim->model.dens[set[i].m];
        const int np = hb_cat_mechs[set[i].m].nparam;
        HB_FORWARD(find_param(set[i].m, set[i].name, fn, &k));
        for (int64_t r = 0; d->on && r < sim->nrows; ++r)
            if (d->on[r])
                d->prm[r * np + k] = set[i].v;
    }
    return HB_SUCCESS;
}

/* Point processes ordered by row, then id: the rows' lists. */
typedef struct {
    int64_t row, id;
} row_id;
static int cmp_row_id(const void *a, const void *b)
{
    const row_id *x = a, *y = b;
    if (x->row != y->row)
        return (x->row > y->row) - (x->row < y->row);
    return (x->id > y->id) - (x->id < y->id);
}

/* The ids of the point processes (of mechanism m, or all: m < 0) in row then
 * id order, into ids; their count. */
static int64_t points_in_row_order(const hb_sim_model *md, int m, int64_t *ids, row_id *tmp)
{
    int64_t n = 0;
    for (int64_t i = 0; i < md->npoints; ++i)
        if (m < 0 || md->points[i].mech == m)
            tmp[n++] = (row_id){md->points[i].row, i};
    if (n > 0)
        qsort(tmp, (size_t)n, sizeof *tmp, cmp_row_id);
    for (int64_t i = 0; i < n; ++i)
        ids[i] = tmp[i].id;
    return n;
}

/* Host tables of the instances, their parameters and the events, uploaded in
 * one go; freed on every path. */
typedef struct {
    int64_t *mtab, *inode, *mcell, *pptr, *pidx, *evptr, *order, *entry, *selfq;
    int32_t *pmech, *dmap;
    double  *mprm, *ion, *ionk, *scale;
    double  *zeros; /* the state's start where connections keep values, else NULL */
} build_tables;

static void free_tables(build_tables *t)
{
    free(t->mtab), free(t->inode), free(t->mcell), free(t->pptr), free(t->pidx);
    free(t->evptr), free(t->order), free(t->entry), free(t->selfq);
    free(t->pmech), free(t->dmap), free(t->mprm), free(t->ion), free(t->ionk), free(t->scale);
    free(t->zeros);
}

/* hb_sim_dev.dmap from the density instances (t->inode, t->mcell): a column
 * for each mechanism whose instances in some cell leave gaps between its
 * first and last row there, row k of cell c holding the index of k's
 * instance among c's (-1: none). *n: its entries. */
static hb_status build_dmap(const hb_sim *sim, build_tables *t, const char *fn, int64_t *n)
{
    const int64_t R = sim->nrows, C = sim->ncells;
    int32_t col[NMECH], ncol = 0;
    for (int m = 0; m < NMECH; ++m) {
        col[m] = -1;
        if (hb_cat_mechs[m].point)
            continue;
        const int64_t *node = t->inode + t->mtab[5 * m + 3];
        for (int64_t c = 0; c < C && col[m] < 0; ++c) {
            const int64_t a = t->mcell[c * NMECH + m], b = t->mcell[(c + 1) * NMECH + m];
            if (b > a && b - a < node[b - 1] - node[a] + 1)
                col[m] = ncol++;
        }
    }
    int64_t cells;
    if (!hb__mul_i64(ncol, R, &cells) || cells > INT64_MAX - NMECH)
        return hb__error(HB_ERR_OUT_OF_MEMORY, "%s: %d partial mechanisms over %lld rows", fn,
                         (int)ncol, (long long)R);
    *n = NMECH + cells;
    t->dmap = hb__malloc_n(*n, sizeof *t->dmap);
    if (!t->dmap)
        return hb__error(HB_ERR_OUT_OF_MEMORY, "%s: the row table of %d partial mechanisms", fn,
                         (int)ncol);
    for (int m = 0; m < NMECH; ++m) {
        t->dmap[m] = col[m];
        if (col[m] < 0)
            continue;
        int32_t *row = t->dmap + NMECH + (int64_t)col[m] * R;
        const int64_t *node = t->inode + t->mtab[5 * m + 3];
        for (int64_t c = 0; c < C; ++c) {
            const int64_t a = t->mcell[c * NMECH + m], b = t->mcell[(c + 1) * NMECH + m];
            int64_t i = a;
            for (int64_t k = sim->offsets[c]; k < sim->offsets[c + 1]; ++k)
                row[k] = i < b && node[i] == k ? (int32_t)(i++ - a) : -1;
        }
    }
    return HB_SUCCESS;
}

static hb_status build(hb_sim *sim, const char *fn)
{
    hb_sim_model *md = &sim->model;
    const int64_t R = sim->nrows, C = sim->ncells, P = md->npoints;
    if (!md->inserted)
        HB_FORWARD(default_model(sim, fn));
    /* Instances per mechanism: a density mechanism's in row order (so a
     * cell's are a range: mcell), a point process mechanism's in row then id
     * order (so a row's point processes are a range: pptr). */
    int64_t count[NMECH] = {0}, ninst = 0, nprm = 0, nst = 0;
    for (int m = 0; m < NMECH; ++m)
        count[m] = md->dens[m].count;
    for (int64_t i = 0; i < P; ++i)
        count[md->points[i].mech]++;
    build_tables t = {0};
    t.mtab = hb__malloc_n(5 * NMECH, sizeof *t.mtab);
    for (int m = 0; t.mtab && m < NMECH; ++m) {
        int64_t a, b;
        /* Slots for its currents after the state where a probe records one. */
        const int nslot = hb_cat_mechs[m].nstate + (md->keepi[m] ? hb_cat_mechs[m].ncur : 0);
        if (!hb__mul_i64(count[m], hb_cat_mechs[m].nparam, &a) ||
            !hb__mul_i64(count[m], nslot, &b) || nprm > INT64_MAX - a ||
            nst > INT64_MAX - b) {
            free_tables(&t);
            return hb__error(HB_ERR_OUT_OF_MEMORY, "%s: %s: %lld instances overflow the tables",
                             fn, hb_cat_mechs[m].name, (long long)count[m]);
        }
        const int64_t row[5] = {count[m], nprm, nst, ninst,
                                hb_cat_mechs[m].flags | (md->keepi[m] ? HB_SIM_MT_KEEPI : 0)};
        for (int k = 0; k < 5; ++k)
            t.mtab[5 * m + k] = md->mtab[5 * m + k] = row[k];
        nprm += a, nst += b, ninst += count[m];
    }
    /* After the mechanisms' slots: each connection's values (a flag, 0 until
     * its first event runs NET_RECEIVE's INITIAL, then nconn values), the
     * connections first, then each point's own; zero at the start. */
    const int64_t nstream_all = md->nstream + P, nst_mech = nst;
    free(md->stream_off); /* a build that failed before may have made it */
    md->stream_off = hb__malloc_n(nstream_all > 0 ? nstream_all : 1, sizeof *md->stream_off);
    if (!md->stream_off) {
        free_tables(&t);
        return hb__error(HB_ERR_OUT_OF_MEMORY, "%s: %lld connections", fn,
                         (long long)nstream_all);
    }
    for (int64_t sid = 0; sid < nstream_all; ++sid) {
        const int64_t pt = sid < md->nstream ? md->stream_point[sid] : sid - md->nstream;
        const int k = hb_cat_mechs[md->points[pt].mech].nconn;
        md->stream_off[sid] = k > 0 ? nst : -1;
        if (k > 0 && nst > INT64_MAX - (1 + k)) {
            free_tables(&t);
            return hb__error(HB_ERR_OUT_OF_MEMORY, "%s: %lld connections overflow the tables",
                             fn, (long long)nstream_all);
        }
        nst += k > 0 ? 1 + k : 0;
    }
    /* Then each self-event sender's queue, empty (all 0). */
    md->nself = 0, md->self_off = nst;
    for (int64_t i = 0; i < P; ++i)
        md->nself += (hb_cat_mechs[md->points[i].mech].flags & HB_CAT_INFO_SEND) != 0;
    int64_t qall;
    if (!hb__mul_i64(md->nself, HB_SIM_SELF_LEN, &qall) || nst > INT64_MAX - qall) {
        free_tables(&t);
        return hb__error(HB_ERR_OUT_OF_MEMORY, "%s: self-event queues of %lld points overflow "
                         "the tables", fn, (long long)md->nself);
    }
    nst += qall;
    if (nst > nst_mech && !(t.zeros = hb__calloc_n(nst, sizeof *t.zeros))) {
        free_tables(&t);
        return hb__error(HB_ERR_OUT_OF_MEMORY, "%s: %lld state slots", fn, (long long)nst);
    }
    /* The values set for connections (NET_RECEIVE's INITIAL, at each one's
     * first event, starts from them). */
    for (int64_t j = 0; j < md->nconn_vals; ++j)
        t.zeros[md->stream_off[md->conn_vals[j].stream] + 1 + md->conn_vals[j].q] =
            md->conn_vals[j].value;
    int64_t mcells; /* (C + 1) x NMECH, C bounded by the batch */
    if (!hb__mul_i64(C + 1, NMECH, &mcells)) {
        free_tables(&t);
        return hb__error(HB_ERR_OUT_OF_MEMORY, "%s: %lld cells", fn, (long long)C);
    }
    t.inode = hb__malloc_n(ninst > 0 ? ninst : 1, sizeof *t.inode);
    t.mcell = hb__malloc_n(mcells, sizeof *t.mcell);
    t.pptr = hb__calloc_n(R + 1, sizeof *t.pptr);
    t.pmech = hb__malloc_n(P > 0 ? P : 1, sizeof *t.pmech);
    t.pidx = hb__malloc_n(P > 0 ? P : 1, sizeof *t.pidx);
    t.order = hb__malloc_n(P > 0 ? P : 1, sizeof *t.order);
    t.entry = hb__malloc_n(P > 0 ? P : 1, sizeof *t.entry);
    t.mprm = hb__malloc_n(nprm > 0 ? nprm : 1, sizeof *t.mprm);
    t.ion = hb__malloc_n(R, (size_t)(4 * NION) * sizeof *t.ion);
    t.ionk = hb__calloc_n(2 * NION, sizeof *t.ionk); /* Nernst factors, probe flags (0) */
    t.scale = hb__malloc_n(R, sizeof *t.scale);
    t.evptr = hb__calloc_n(P + 1, sizeof *t.evptr);
    t.selfq = hb__malloc_n(P + 1, sizeof *t.selfq);
    if (!t.mtab || !t.inode || !t.mcell || !t.pptr || !t.pmech || !t.pidx || !t.order ||
        !t.entry || !t.mprm || !t.ion || !t.ionk || !t.scale || !t.evptr || !t.selfq) {
        free_tables(&t);
        return hb__error(HB_ERR_OUT_OF_MEMORY, "%s: mechanism tables of %lld instances", fn,
                         (long long)ninst);
    }
    /* Density instances, row by row; mcell: each cell's first. */
    int64_t next[NMECH] = {0};
    for (int64_t c = 0; c <= C; ++c) {
        for (int m = 0; m < NMECH; ++m)
            t.mcell[c * NMECH + m] = next[m];
        if (c == C)
            break;
        for (int64_t k = sim->offsets[c]; k < sim->offsets[c + 1]; ++k)
            for (int m = 0; m < NMECH; ++m) {
                const hb_sim_density *d = &md->dens[m];
                if (!d->on || !d->on[k])
                    continue;
                const int np = hb_cat_mechs[m].nparam;
                const int64_t i = next[m]++, n = count[m];
                t.inode[t.mtab[5 * m + 3] + i] = k;
                for (int p = 0; p < np; ++p)
                    t.mprm[t.mtab[5 * m + 1] + p * n + i] = d->prm[k * np + p];
            }
    }
    /* A density mechanism whose instances all have the same parameters:
     * the device's flag (kernels_cl/sim/hb_mech_passes.cl, HB_MT_UNIFORM)
     * lets the on-chip engine read instance 0's for every row. */
    for (int m = 0; m < NMECH; ++m) {
        const int64_t n = count[m], off = t.mtab[5 * m + 1];
        int same = !hb_cat_mechs[m].point && n > 0;
        for (int p = 0; same && p < hb_cat_mechs[m].nparam; ++p)
            for (int64_t i = 1; same && i < n; ++i)
                same = t.mprm[off + p * n + i] == t.mprm[off + p * n];
        if (same)
            t.mtab[5 * m + 4] |= HB_SIM_MT_UNIFORM;
    }
    int64_t ndmap = 0;
    hb_status st = build_dmap(sim, &t, fn, &ndmap);
    if (st) {
        free_tables(&t);
        return st;
    }
    /* Point processes: entries q in row then id order; entry[id] = q. */
    row_id *tmp = hb__malloc_n(P > 0 ? P : 1, sizeof *tmp);
    if (!tmp) {
        free_tables(&t);
        return hb__error(HB_ERR_OUT_OF_MEMORY, "%s: %lld point processes", fn, (long long)P);
    }
    points_in_row_order(md, -1, t.order, tmp);
    free(tmp);
    t.selfq[0] = 0;
    for (int64_t q = 0, k = 0; q < P; ++q) {
        const hb_sim_point *pt = &md->points[t.order[q]];
        const int m = pt->mech, np = hb_cat_mechs[m].nparam;
        const int64_t i = next[m]++, n = count[m];
        t.selfq[1 + q] = -1;
        if (hb_cat_mechs[m].flags & HB_CAT_INFO_SEND) {
            /* The queue's head: the point's own connection, for INITIAL's
             * self-events (-1: its mechanism keeps no values). */
            const int64_t at = md->self_off + HB_SIM_SELF_LEN * k++;
            const int64_t own = md->stream_off[md->nstream + t.order[q]];
            t.selfq[1 + q] = at;
            t.zeros[at + 2] = own < 0 ? -1.0 : (double)(own >> 20);
            t.zeros[at + 3] = own < 0 ? 0.0 : (double)(own & 1048575);
        }
        t.entry[t.order[q]] = q;
        t.pmech[q] = m;
        t.pidx[q] = i;
        t.pptr[pt->row + 1]++;
        t.inode[t.mtab[5 * m + 3] + i] = pt->row;
        for (int p = 0; p < np; ++p)
            t.mprm[t.mtab[5 * m + 1] + p * n + i] = md->point_prm[pt->prm + p];
    }
    for (int64_t k = 0; k < R; ++k)
        t.pptr[k + 1] += t.pptr[k];
    /* Ions: e, ci, co as set; currents 0; Nernst factors in mV. */
    for (int x = 0; x < NION; ++x) {
        for (int64_t k = 0; k < R; ++k) {
            for (int s = 0; s < 3; ++s)
                t.ion[(4 * x + s) * R + k] = md->ion[(3 * x + s) * R + k];
            t.ion[(4 * x + 3) * R + k] = 0;
        }
        const int z = hb_cat_ions[x].valence;
        t.ionk[x] = md->nernst[x] && z != 0
                        ? 1e3 * HB_GAS_R * (sim->prm.celsius + 273.15) / (z * HB_FARADAY)
                        : 0.0;
    }
    for (int64_t k = 0; k < R; ++k)
        t.scale[k] = md->area[k] * 1e-2;
    hb_sim_dev *d = &sim->dev;
    d->nmech = NMECH;
    d->npoints = P;
    d->mtab_host = md->mtab;
    d->celsius = sim->prm.celsius;
    int64_t nion_rows = 4 * NION * R;
    if ((st = hb__sim_alloc(sim, &d->mtab, sizeof(int64_t), 5 * NMECH, t.mtab)) ||
        (st = hb__sim_alloc(sim, &d->dmap, sizeof(int32_t), ndmap, t.dmap)) ||
        (st = hb__sim_alloc(sim, &d->inode, sizeof(int64_t), ninst, t.inode)) ||
        (st = hb__sim_alloc(sim, &d->mcell, sizeof(int64_t), mcells, t.mcell)) ||
        (st = hb__sim_alloc(sim, &d->pptr, sizeof(int64_t), R + 1, t.pptr)) ||
        (st = hb__sim_alloc(sim, &d->pmech, sizeof(int32_t), P, t.pmech)) ||
        (st = hb__sim_alloc(sim, &d->pidx, sizeof(int64_t), P, t.pidx)) ||
        (st = hb__sim_alloc_real(sim, &d->mprm, nprm, t.mprm)) ||
        (st = hb__sim_alloc_real(sim, &d->mst, nst, t.zeros)) ||
        (st = hb__sim_alloc_real(sim, &d->ion, nion_rows, t.ion)) ||
        (st = hb__sim_alloc_real(sim, &d->ionk, 2 * NION, t.ionk)) ||
        (st = hb__sim_alloc_real(sim, &d->scale, R, t.scale)) ||
        /* No events yet: each run uploads those due (sim_events.c). */
        (st = hb__sim_alloc(sim, &d->evptr, sizeof(int64_t), P + 1, t.evptr)) ||
        (st = hb__sim_alloc(sim, &d->evcur, sizeof(int64_t), P, t.evptr)) ||
        (st = hb__sim_alloc(sim, &d->evstep, 2 * sizeof(int64_t), 1, NULL)) ||
        (st = hb__sim_alloc(sim, &d->evw, sim->esize, 1, NULL)) ||
        (st = hb__sim_alloc(sim, &d->evt, sim->esize, 1, NULL)) ||
        (st = hb__sim_alloc(sim, &d->selfq, sizeof(int64_t), P + 1, t.selfq))) {
        free_tables(&t);
        return st;
    }
    /* The point entries, for the event tables of each run. */
    md->entry = t.entry, t.entry = NULL;
    free_tables(&t);
    /* What one pass over the model moves: parameters in, state in and out
     * (the mechanisms'; connections' values move only at their events), ion
     * slots in and out, the instance rows, the point lists and the scale in. */
    md->bytes = (nprm + 2 * nst_mech + 2 * nion_rows + R) * (int64_t)sim->esize + ninst * 8 +
                (R + 1) * 8 + P * 12;
    /* INITIAL at v_init, with the kernels' own functions. */
    HB_FORWARD(sim->ops->mech_init(sim->ctx, sim->prm.plan.stream, sim->prm.precision, d));
    md->built = 1;
    return HB_SUCCESS;
}

hb_status hb__sim_model_build(hb_sim *sim, const char *fn)
{
    if (sim->model.built)
        return HB_SUCCESS;
    return build(sim, fn);
}

void hb__sim_model_summary(const hb_sim *sim, char *buf, size_t cap)
{
    const hb_sim_model *md = &sim->model;
    size_t n = 0;
    int64_t pts[NMECH] = {0};
    buf[0] = 0;
    for (int64_t i = 0; i < md->npoints; ++i)
        pts[md->points[i].mech]++;
    for (int m = 0; m < NMECH && n < cap; ++m)
        if (md->dens[m].count || pts[m])
            n += (size_t)snprintf(buf + n, cap - n, "%s%s %lld", n ? ", " : "",
                                  hb_cat_mechs[m].name,
                                  (long long)(md->dens[m].count + pts[m]));
    if (n == 0)
        snprintf(buf, cap, "no mechanisms");
    else if (n < cap)
        snprintf(buf + n, cap - n, " (load %.3g per compartment)", hb__sim_model_load(sim));
}

double hb__sim_model_load(const hb_sim *sim)
{
    const hb_sim_model *md = &sim->model;
    double w = 0;
    for (int m = 0; m < NMECH; ++m)
        if (!hb_cat_mechs[m].point)
            w += (double)md->mtab[5 * m] * (1 + hb_cat_mechs[m].nstatevar);
    return sim->nrows > 0 ? w / (double)sim->nrows : 0.0;
}

hb_status hb__sim_read_mech(hb_sim *sim, int m, int slot, int is_param, double *out,
                            double absent, int64_t *nout)
{
    const hb_sim_model *md = &sim->model;
    const hb_cat_mech *cm = &hb_cat_mechs[m];
    const int64_t R = sim->nrows;
    const int64_t count = md->mtab[5 * m];
    const int64_t off = md->mtab[5 * m + (is_param ? 1 : 2)];
    double *vals = hb__malloc_n(count > 0 ? count : 1, sizeof *vals);
    if (!vals)
        return hb__error(HB_ERR_OUT_OF_MEMORY, "hb_sim_get_mech_state: %lld values",
                         (long long)count);
    hb_status st = hb__sim_read_real(sim, is_param ? sim->dev.mprm : sim->dev.mst,
                                     off + (int64_t)slot * count, count, vals);
    if (st == HB_SUCCESS) {
        if (cm->point) {
            /* Instance i of the mechanism is its i-th point process in row
             * then id order (build): out in id order. */
            int64_t *ids = hb__malloc_n(count > 0 ? count : 1, sizeof *ids);
            row_id *tmp = hb__malloc_n(count > 0 ? count : 1, sizeof *tmp);
            if (!ids || !tmp) {
                free(vals), free(ids), free(tmp);
                return hb__error(HB_ERR_OUT_OF_MEMORY, "hb_sim_get_mech_state: %lld ids",
                                 (long long)count);
            }
            const int64_t j = points_in_row_order(md, m, ids, tmp);
            free(tmp);
            /* ids[i]: the point of instance i; its rank among this mechanism's
             * point processes in id order is its output slot. */
            int64_t *rank = hb__malloc_n(md->npoints > 0 ? md->npoints : 1, sizeof *rank);
            if (!rank) {
                free(vals), free(ids);
                return hb__error(HB_ERR_OUT_OF_MEMORY, "hb_sim_get_mech_state: %lld ranks",
                                 (long long)md->npoints);
            }
            for (int64_t i = 0, k = 0; i < md->npoints; ++i)
                if (md->points[i].mech == m)
                    rank[i] = k++;
            for (int64_t i = 0; i < j; ++i)
                out[rank[ids[i]]] = vals[i];
            free(ids), free(rank);
            *nout = j;
        } else {
            int64_t j = 0;
            for (int64_t k = 0; k < R; ++k)
                out[k] = md->dens[m].on && md->dens[m].on[k] ? vals[j++] : absent;
            *nout = R;
        }
    }
    free(vals);
    return st;
}
