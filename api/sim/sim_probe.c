/* sim_probe.c: probes (recording of any voltage, mechanism variable, ion variable or point process variable), their device table, and what each trace is. */
#include "sim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NMECH HB_CAT_INFO_NMECH
#define NION HB_CAT_INFO_NION

/* A column of rec and a host trace: a soma recording (probe < 0) or probe
 * `probe`; the arrays grow together, so they never disagree. */
hb_status hb__sim_add_column(hb_sim *sim, int64_t cell, int64_t probe, const char *fn)
{
    const int64_t n = sim->dev.nrec;
    if (n == sim->rec_cap) {
        const int64_t want = sim->rec_cap ? 2 * sim->rec_cap : 8;
        int64_t *a = hb__realloc_n(sim->rec_cells, want, sizeof *a);
        if (!a)
            return hb__error(HB_ERR_OUT_OF_MEMORY, "%s: %lld recordings", fn, (long long)want);
        sim->rec_cells = a;
        int64_t *b = hb__realloc_n(sim->rec_probe, want, sizeof *b);
        if (!b)
            return hb__error(HB_ERR_OUT_OF_MEMORY, "%s: %lld recordings", fn, (long long)want);
        sim->rec_probe = b;
        sim->rec_cap = want;
    }
    sim->rec_cells[n] = cell;
    sim->rec_probe[n] = probe;
    sim->dev.nrec = n + 1;
    return HB_SUCCESS;
}

static int find_name(const char *const *names, int n, const char *x)
{
    for (int k = 0; k < n; ++k)
        if (names[k] && !strcmp(names[k], x))
            return k;
    return -1;
}

/* Variable var of mechanism m: a state slot (STATEs, then the values it
 * keeps), a PARAMETER, or one of its currents (*cur: kept in the slots after
 * the state); the names it has listed in the message otherwise. */
static hb_status find_var(int m, const char *var, int *slot, int *is_param, int *cur,
                          const char *fn, const char *where)
{
    const hb_cat_mech *cm = &hb_cat_mechs[m];
    *is_param = *cur = 0;
    if ((*slot = find_name(cm->state_names, cm->nstate, var)) >= 0)
        return HB_SUCCESS;
    if ((*slot = find_name(cm->param_names, cm->nparam, var)) >= 0) {
        *is_param = 1;
        return HB_SUCCESS;
    }
    if ((*slot = find_name(cm->cur_names, cm->ncur, var)) >= 0) {
        *slot += cm->nstate;
        *cur = 1;
        return HB_SUCCESS;
    }
    char names[400];
    size_t n = 0;
    names[0] = 0;
    const int ns = cm->nstate, np = cm->nparam;
    for (int k = 0; k < ns + np + cm->ncur && n < sizeof names; ++k)
        n += (size_t)snprintf(names + n, sizeof names - n, "%s%s", k ? ", " : "",
                              k < ns        ? cm->state_names[k]
                              : k < ns + np ? cm->param_names[k - ns]
                                            : cm->cur_names[k - ns - np]);
    return hb__error(HB_ERR_INVALID_ARGUMENT,
                     "%s: %s: %s has no recordable variable \"%s\" (it has: %s)", fn, where,
                     cm->name, var, n ? names : "none");
}

/* A probe of mechanism m's current: its instances keep their currents from
 * the model's setup on (the slots are made then). */
static hb_status want_currents(hb_sim *sim, int m, const char *what, const char *fn,
                               const char *where)
{
    if (sim->model.built && !sim->model.keepi[m])
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "%s: \"%s\" at %s: %s's currents are kept only when probed before the "
                         "model is set up (the first hb_sim_run or state read)",
                         fn, what, where, hb_cat_mechs[m].name);
    return HB_SUCCESS;
}

/* Whether density mechanism m is in row k now: inserted there, or, when
 * nothing was inserted yet, placed there by the default model (sim_model.c:
 * pas everywhere; hh in the soma compartments, everywhere with
 * hh_everywhere, or in a cell's first compartment when it has no soma). */
static int has_mech(const hb_sim *sim, int m, int64_t k)
{
    const hb_sim_model *md = &sim->model;
    if (md->inserted || md->built)
        return md->dens[m].on && md->dens[m].on[k];
    const char *name = hb_cat_mechs[m].name;
    if (!strcmp(name, "pas"))
        return 1;
    if (strcmp(name, "hh"))
        return 0;
    if (sim->prm.hh_everywhere)
        return 1;
    const int64_t c = md->cellof[k], o = sim->offsets[c];
    if (md->type[o + sim->soma[c]] == 1)
        return md->type[k] == 1;
    return k == o;
}

/* "iX", "Xi", "Xo", "eX" of a catalogue ion: *ion, *slot (0 e, 1 i, 2 o,
 * 3 current: the row's slot, where the mechanisms sum it); 0 when what is
 * none of them. */
static int ion_var(const char *what, int *ion, int *slot)
{
    const size_t n = strlen(what);
    for (int x = 0; x < NION; ++x) {
        const char *nm = hb_cat_ions[x].name;
        const size_t l = strlen(nm);
        if (n != l + 1)
            continue;
        *ion = x;
        if (what[0] == 'e' && !strcmp(what + 1, nm))
            return *slot = 0, 1;
        if (what[0] == 'i' && !strcmp(what + 1, nm))
            return *slot = 3, 1;
        if (!strncmp(what, nm, l) && (what[l] == 'i' || what[l] == 'o'))
            return *slot = what[l] == 'i' ? 1 : 2, 1;
    }
    return 0;
}

/* Whether a mechanism of the catalogue uses ion current var ("ina"). */
static int writes_current(const char *var)
{
    for (int m = 0; m < NMECH; ++m)
        for (const char *const *v = hb_cat_mechs[m].ion_vars; v && *v; ++v)
            if (!strcmp(*v, var))
                return 1;
    return 0;
}

static hb_status grow_probes(hb_sim *sim, const char *fn)
{
    if (sim->nprobes < sim->probe_cap)
        return HB_SUCCESS;
    const int64_t want = sim->probe_cap ? 2 * sim->probe_cap : 8;
    hb_sim_probe_spec *p = hb__realloc_n(sim->probes, want, sizeof *p);
    if (!p)
        return hb__error(HB_ERR_OUT_OF_MEMORY, "%s: %lld probes", fn, (long long)want);
    sim->probes = p;
    sim->probe_cap = want;
    return HB_SUCCESS;
}

/* Adds the probe and its trace column, or nothing. */
static hb_status add_probe(hb_sim *sim, const hb_sim_probe_spec *ps, int64_t *id, const char *fn)
{
    HB_FORWARD(grow_probes(sim, fn));
    const int64_t col = sim->dev.nrec;
    HB_FORWARD(hb__sim_add_column(sim, ps->cell, sim->nprobes, fn));
    sim->probes[sim->nprobes] = *ps;
    sim->probes[sim->nprobes].col = col;
    sim->nprobes++;
    if (ps->cur)
        sim->model.keepi[ps->mech] = 1;
    *id = col;
    return HB_SUCCESS;
}

static hb_status check_open(const hb_sim *sim, const char *fn)
{
    if (sim->started)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: add probes before the first hb_sim_run",
                         fn);
    return HB_SUCCESS;
}

static hb_status probe(hb_sim *sim, int64_t cell, int64_t comp, const char *what, int64_t *id)
{
    const char *fn = "hb_sim_probe";
    HB_FORWARD(check_open(sim, fn));
    if (!id)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: id (output) is NULL", fn);
    if (!what)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: what is NULL", fn);
    HB_FORWARD(hb__sim_check_location(sim, cell, comp, fn));
    if (comp < 0)
        comp = sim->soma[cell];
    if (strlen(what) >= sizeof sim->probes[0].what)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: what = \"%.40s...\" is too long", fn,
                         what);
    hb_sim_probe_spec ps;
    memset(&ps, 0, sizeof ps);
    ps.cell = cell, ps.comp = comp, ps.row = sim->offsets[cell] + comp, ps.point = -1;
    ps.mech = ps.slot = ps.ion = -1;
    snprintf(ps.what, sizeof ps.what, "%s", what);
    char where[96];
    snprintf(where, sizeof where, "cell %lld compartment %lld", (long long)cell, (long long)comp);
    const char *dot = strchr(what, '.');
    int x, s;
    if (!strcmp(what, "v"))
        ps.kind = HB_SIM_PROBE_V;
    else if (dot) {
        char mech[64];
        const size_t l = (size_t)(dot - what);
        snprintf(mech, sizeof mech, "%.*s", (int)l, what);
        int m = 0;
        while (m < NMECH && strcmp(hb_cat_mechs[m].name, mech))
            ++m;
        if (m == NMECH)
            return hb__error(HB_ERR_INVALID_ARGUMENT,
                             "%s: \"%s\" at %s: no mechanism \"%s\" in the catalogue", fn, what,
                             where, mech);
        if (hb_cat_mechs[m].point)
            return hb__error(HB_ERR_INVALID_ARGUMENT,
                             "%s: \"%s\" at %s: %s is a point process; probe it with "
                             "hb_sim_probe_point",
                             fn, what, where, mech);
        int is_param;
        HB_FORWARD(find_var(m, dot + 1, &ps.slot, &is_param, &ps.cur, fn, where));
        if (!has_mech(sim, m, ps.row))
            return hb__error(HB_ERR_INVALID_ARGUMENT,
                             "%s: \"%s\": %s is not inserted at %s", fn, what, mech, where);
        if (ps.cur)
            HB_FORWARD(want_currents(sim, m, what, fn, where));
        ps.kind = is_param ? HB_SIM_PROBE_PARAM : HB_SIM_PROBE_STATE;
        ps.mech = m;
    } else if (ion_var(what, &x, &s)) {
        if (s == 3 && !writes_current(what))
            return hb__error(HB_ERR_INVALID_ARGUMENT,
                             "%s: \"%s\" at %s: no mechanism of the catalogue writes it", fn,
                             what, where);
        ps.kind = s == 0 ? HB_SIM_PROBE_ION_E : HB_SIM_PROBE_ION;
        ps.ion = x, ps.slot = s;
    } else
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "%s: \"%s\" at %s is not \"v\", \"MECH.VAR\" nor an ion's \"eX\", "
                         "\"Xi\", \"Xo\" (ions: na, k, ca and the catalogue's)",
                         fn, what, where);
    return add_probe(sim, &ps, id, fn);
}

static hb_status probe_point(hb_sim *sim, int64_t point, const char *var, int64_t *id)
{
    const char *fn = "hb_sim_probe_point";
    HB_FORWARD(check_open(sim, fn));
    if (!id)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: id (output) is NULL", fn);
    if (!var)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: var is NULL", fn);
    if (point < 0 || point >= sim->model.npoints)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: point process %lld not in [0, %lld)", fn,
                         (long long)point, (long long)sim->model.npoints);
    const hb_sim_point *pt = &sim->model.points[point];
    const hb_cat_mech *cm = &hb_cat_mechs[pt->mech];
    hb_sim_probe_spec ps;
    memset(&ps, 0, sizeof ps);
    ps.row = pt->row, ps.cell = sim->model.cellof[pt->row];
    ps.comp = pt->row - sim->offsets[ps.cell], ps.point = point, ps.mech = pt->mech, ps.ion = -1;
    if (strlen(var) + strlen(cm->name) + 2 > sizeof ps.what)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: var = \"%.40s...\" is too long", fn, var);
    char where[96];
    snprintf(where, sizeof where, "point process %lld (cell %lld compartment %lld)",
             (long long)point, (long long)ps.cell, (long long)ps.comp);
    int is_param;
    snprintf(ps.what, sizeof ps.what, "%s.%s", cm->name, var);
    HB_FORWARD(find_var(pt->mech, var, &ps.slot, &is_param, &ps.cur, fn, where));
    if (ps.cur)
        HB_FORWARD(want_currents(sim, pt->mech, ps.what, fn, where));
    ps.kind = is_param ? HB_SIM_PROBE_PARAM : HB_SIM_PROBE_STATE;
    return add_probe(sim, &ps, id, fn);
}

/* The element of probe ps in its table, with the model built; inst: the
 * instance index of each row of ps's density mechanism (filled on first
 * use per mechanism). */
static hb_status element(hb_sim *sim, const hb_sim_probe_spec *ps, int64_t **inst, int64_t *e)
{
    const hb_sim_model *md = &sim->model;
    const int64_t R = sim->nrows;
    if (ps->kind == HB_SIM_PROBE_V) {
        *e = ps->row;
        return HB_SUCCESS;
    }
    if (ps->kind == HB_SIM_PROBE_ION || ps->kind == HB_SIM_PROBE_ION_E) {
        *e = (4 * (int64_t)ps->ion + ps->slot) * R + ps->row;
        return HB_SUCCESS;
    }
    const int m = ps->mech;
    const int64_t count = md->mtab[5 * m];
    int64_t i = 0;
    if (ps->point >= 0) {
        /* Instances of a point process mechanism are in row then id order. */
        const hb_sim_point *pt = &md->points[ps->point];
        for (int64_t q = 0; q < md->npoints; ++q) {
            const hb_sim_point *o = &md->points[q];
            i += o->mech == m && (o->row < pt->row || (o->row == pt->row && q < ps->point));
        }
    } else {
        if (!md->dens[m].on || !md->dens[m].on[ps->row])
            return hb__error(HB_ERR_INVALID_ARGUMENT,
                             "hb_sim_run: probe \"%s\" at cell %lld compartment %lld: %s is not "
                             "inserted there (the model changed after hb_sim_probe)",
                             ps->what, (long long)ps->cell, (long long)ps->comp,
                             hb_cat_mechs[m].name);
        if (!inst[m]) {
            /* Density instances are in row order. */
            inst[m] = hb__malloc_n(R > 0 ? R : 1, sizeof *inst[m]);
            if (!inst[m])
                return hb__error(HB_ERR_OUT_OF_MEMORY, "hb_sim_run: probe tables of %lld rows",
                                 (long long)R);
            for (int64_t k = 0, n = 0; k < R; ++k)
                inst[m][k] = md->dens[m].on[k] ? n++ : -1;
        }
        i = inst[m][ps->row];
    }
    const int is_param = ps->kind == HB_SIM_PROBE_PARAM;
    *e = md->mtab[5 * m + (is_param ? 1 : 2)] + (int64_t)ps->slot * count + i;
    return HB_SUCCESS;
}

/* Whether only the work-item that owns the probe's row may read it in the
 * on-chip epoch (hb_sim_dev.prbcell): a point process's state, which that
 * work-item advanced with no barrier after, and an ion current or a
 * mechanism's kept current, which it clears or overwrites next (and
 * concentrations, where a point process writes one). */
static int owner_only(const hb_sim_probe_spec *ps)
{
    /* A point process that writes a concentration (HB_CAT_CONC) writes it
     * in the row's own pass too. */
    int point_conc = 0;
    for (int m = 0; m < NMECH; ++m)
        point_conc |= hb_cat_mechs[m].point && (hb_cat_mechs[m].flags & 4);
    return (ps->point >= 0 && ps->kind == HB_SIM_PROBE_STATE) || ps->cur ||
           (ps->kind == HB_SIM_PROBE_ION && ps->slot == 3) ||
           (point_conc && (ps->kind == HB_SIM_PROBE_ION || ps->kind == HB_SIM_PROBE_ION_E));
}

/* Probes ordered by cell, then owner-only, then column (each cell's two
 * groups are ranges). */
typedef struct {
    int64_t cell, own, col, q;
} cell_col;
static int cmp_cell_col(const void *a, const void *b)
{
    const cell_col *x = a, *y = b;
    if (x->cell != y->cell)
        return (x->cell > y->cell) - (x->cell < y->cell);
    if (x->own != y->own)
        return (x->own > y->own) - (x->own < y->own);
    return (x->col > y->col) - (x->col < y->col);
}

hb_status hb__sim_probe_start(hb_sim *sim)
{
    hb_sim_dev *d = &sim->dev;
    const int64_t P = sim->nprobes, C = sim->ncells;
    int64_t *tab = hb__malloc_n(P > 0 ? 4 * P : 1, sizeof *tab);
    int64_t *pc = hb__calloc_n(2 * C + 1, sizeof *pc);
    cell_col *ord = hb__malloc_n(P > 0 ? P : 1, sizeof *ord);
    int64_t *inst[NMECH] = {0};
    hb_status st = HB_SUCCESS;
    if (!tab || !pc || !ord)
        st = hb__error(HB_ERR_OUT_OF_MEMORY, "hb_sim_run: %lld probes", (long long)P);
    for (int64_t q = 0; st == HB_SUCCESS && q < P; ++q)
        ord[q] = (cell_col){sim->probes[q].cell, owner_only(&sim->probes[q]),
                            sim->probes[q].col, q};
    if (st == HB_SUCCESS && P > 0)
        qsort(ord, (size_t)P, sizeof *ord, cmp_cell_col);
    for (int64_t k = 0; st == HB_SUCCESS && k < P; ++k) {
        const hb_sim_probe_spec *ps = &sim->probes[ord[k].q];
        int64_t e = 0;
        st = element(sim, ps, inst, &e);
        tab[4 * k] = ps->kind, tab[4 * k + 1] = e, tab[4 * k + 2] = ps->row;
        tab[4 * k + 3] = ps->col;
        pc[2 * ps->cell + 1 + ord[k].own]++;
    }
    for (int64_t i = 0; pc && i < 2 * C; ++i)
        pc[i + 1] += pc[i];
    for (int m = 0; m < NMECH; ++m)
        free(inst[m]);
    free(ord);
    if (st == HB_SUCCESS && !d->probe && !d->prbcell &&
        ((st = hb__sim_alloc(sim, &d->probe, sizeof(int64_t), 4 * P, tab)) ||
         (st = hb__sim_alloc(sim, &d->prbcell, sizeof(int64_t), 2 * C + 1, pc)))) {
    }
    free(tab), free(pc);
    /* The currents probed are summed from the first step on (a flag per
     * ion after the Nernst factors; the model is built: ionk exists). */
    for (int x = 0; st == HB_SUCCESS && x < NION; ++x) {
        int want = 0;
        for (int64_t q = 0; q < P; ++q)
            want |= sim->probes[q].ion == x && sim->probes[q].slot == 3;
        if (!want)
            continue;
        const double one = 1.0;
        const float onef = 1.0f;
        st = sim->ctx->ops->write(sim->ctx, sim->prm.plan.stream, d->ionk,
                                  (size_t)(NION + x) * sim->esize,
                                  sim->esize == sizeof one ? (const void *)&one : (const void *)&onef,
                                  sim->esize);
    }
    if (st == HB_SUCCESS)
        d->nprobe = P;
    return st;
}

hb_status hb__sim_probe_first(hb_sim *sim)
{
    hb_sim_dev *d = &sim->dev;
    if (d->nprobe == 0)
        return HB_SUCCESS;
    /* Currents at t = 0 are those of the state after INITIAL (NEURON's
     * finitialize computes them too): one membrane pass at a step before the
     * first (no event or clamp is due), which writes only the current slots
     * and the step's scratch (every step recomputes them). */
    int currents = 0;
    for (int64_t q = 0; q < sim->nprobes; ++q)
        currents |= sim->probes[q].cur ||
                    (sim->probes[q].kind == HB_SIM_PROBE_ION && sim->probes[q].slot == 3);
    if (currents)
        HB_FORWARD(sim->ops->membrane(sim->ctx, sim->prm.plan.stream, sim->prm.precision, d, -1));
    /* The values at t = 0 (after INITIAL), through the kernel that samples
     * every step, into row 0 of rec (the first step overwrites it). */
    HB_FORWARD(sim->ops->probe(sim->ctx, sim->prm.plan.stream, sim->prm.precision, d, 0));
    double *row = hb__malloc_n(d->nrec, sizeof *row);
    if (!row)
        return hb__error(HB_ERR_OUT_OF_MEMORY, "hb_sim_run: %lld samples", (long long)d->nrec);
    hb_status st = hb__sim_read_real(sim, d->rec, 0, d->nrec, row);
    for (int64_t q = 0; st == HB_SUCCESS && q < sim->nprobes; ++q)
        sim->traces[sim->probes[q].col][0] = row[sim->probes[q].col];
    free(row);
    return st;
}

static hb_status trace_info(const hb_sim *sim, int64_t r, hb_sim_trace_desc *info)
{
    const char *fn = "hb_sim_get_trace_info";
    if (r < 0 || r >= sim->dev.nrec)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: trace %lld not in [0, %lld)", fn,
                         (long long)r, (long long)sim->dev.nrec);
    if (!info)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: info (output) is NULL", fn);
    const int64_t q = sim->rec_probe[r];
    memset(info, 0, sizeof *info);
    if (q < 0) {
        const int64_t c = sim->rec_cells[r];
        info->cell = c, info->compartment = sim->soma[c], info->point = -1;
        snprintf(info->what, sizeof info->what, "v");
        return HB_SUCCESS;
    }
    const hb_sim_probe_spec *ps = &sim->probes[q];
    info->cell = ps->cell, info->compartment = ps->comp, info->point = ps->point;
    info->probe = 1;
    snprintf(info->what, sizeof info->what, "%s", ps->what);
    return HB_SUCCESS;
}

hb_status hb_sim_probe(hb_sim *sim, int64_t cell, int64_t compartment, const char *what,
                       int64_t *id)
{
    HB_SIM_GUARDED(sim, "hb_sim_probe", probe(sim, cell, compartment, what, id));
}

hb_status hb_sim_probe_point(hb_sim *sim, int64_t point_id, const char *var, int64_t *id)
{
    HB_SIM_GUARDED(sim, "hb_sim_probe_point", probe_point(sim, point_id, var, id));
}

hb_status hb_sim_get_trace_info(const hb_sim *sim, int64_t r, hb_sim_trace_desc *info)
{
    HB_SIM_GUARDED(sim, "hb_sim_get_trace_info", trace_info(sim, r, info));
}
