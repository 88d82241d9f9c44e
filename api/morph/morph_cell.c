/* morph_cell.c: morphology -> compartments (per sample or sections), re-rooting, Euler matrix. */
#include "hb_error.h"
#include "hb_tree.h"
#include "hb_validate.h"
#include "hinesbatch_morph.h"
#include "morph_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define HB_PI 3.14159265358979323846
/* Segments shorter than this (um) count as this long in axial resistances:
 * some writers (MorphIO) repeat a section's first point, which would make an
 * infinite conductance. */
#define HB_MIN_LENGTH 0.01

void hb_discretize_options_init(hb_discretize_options *o)
{
    if (o) {
        o->policy = HB_POLICY_SAMPLE;
        o->nseg = 1;
        o->d_lambda = 0.1;
        o->reroot = 0;
        o->max_compartments = 0;
        o->conventions = HB_CONVENTIONS_HINESBATCH;
        o->seg_length = 0.0;
    }
}

void hb_cable_init(hb_cable *c)
{
    if (c) {
        c->ra = 35.4;
        c->cm = 1.0;
        c->gm = 0.0;
    }
}

void hb_morph_cell_destroy(hb_morph_cell *c)
{
    if (!c)
        return;
    free(c->parent), free(c->type), free(c->area), free(c->diam), free(c->g), free(c->dist);
    free(c->source);
    free(c);
}

hb_morph_cell *hb__morph_cell_alloc(int64_t n)
{
    hb_morph_cell *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->n = n;
    c->parent = hb__calloc_n(n, sizeof *c->parent);
    c->type = hb__calloc_n(n, sizeof *c->type);
    c->area = hb__calloc_n(n, sizeof *c->area);
    c->diam = hb__calloc_n(n, sizeof *c->diam);
    c->g = hb__calloc_n(n, sizeof *c->g);
    c->dist = hb__calloc_n(n, sizeof *c->dist);
    c->source = hb__calloc_n(n, sizeof *c->source);
    if (!c->parent || !c->type || !c->area || !c->diam || !c->g || !c->dist || !c->source) {
        hb_morph_cell_destroy(c);
        return NULL;
    }
    return c;
}

/* Renumbers a cell (parent < child already) into the branch-contiguous Hines order. */
static hb_status cell_order(hb_morph_cell *c)
{
    int64_t n = c->n;
    int32_t *map = hb__calloc_n(n, sizeof *map);
    int32_t *np = hb__calloc_n(n, sizeof *np);
    void *tmp = hb__calloc_n(n, sizeof(double));
    if (!map || !np || !tmp) {
        free(map), free(np), free(tmp);
        return hb__error(HB_ERR_OUT_OF_MEMORY, "morphology: out of memory for %lld compartments",
                         (long long)n);
    }
    hb_status st = hb_morph_tree_order(n, c->parent, map, np);
    if (st == HB_SUCCESS) {
        memcpy(c->parent, np, (size_t)n * sizeof *np);
#define HB_PERMUTE(f, T)                                          \
    do {                                                          \
        T *t_ = tmp;                                              \
        for (int64_t k = 0; k < n; ++k)                           \
            t_[map[k]] = c->f[k];                                 \
        memcpy(c->f, t_, (size_t)n * sizeof(T));                  \
    } while (0)
        HB_PERMUTE(type, int32_t);
        HB_PERMUTE(area, double);
        HB_PERMUTE(diam, double);
        HB_PERMUTE(g, double);
        HB_PERMUTE(dist, double);
        HB_PERMUTE(source, int64_t);
#undef HB_PERMUTE
    }
    free(map), free(np), free(tmp);
    return st;
}

/* ---- polyline geometry of a section (arc positions a, radii r, m+1 points) */
typedef struct {
    const double *a, *r;
    int64_t m;    /* pieces */
    int64_t cur;  /* first piece that may overlap the next query (queries ascend) */
} poly;

/* Lateral area (um^2), resistance integral (1/um: int dx/(pi r^2)) and
 * diameter integral (um^2: int 2r dx) over [lo, hi]; zero-length pieces (a
 * radius step) count once, in the interval holding them (area only). */
static void poly_measure(poly *p, double lo, double hi, int last, double *area, double *res,
                         double *dint)
{
    double ar = 0, rs = 0, di = 0;
    while (p->cur < p->m && p->a[p->cur + 1] < lo)
        ++p->cur;
    for (int64_t i = p->cur; i < p->m && p->a[i] <= hi; ++i) {
        double s = p->a[i], e = p->a[i + 1], r0 = p->r[i], r1 = p->r[i + 1];
        if (e <= s) {
            if (s >= lo && (s < hi || last))
                ar += HB_PI * (r0 + r1) * fabs(r1 - r0);
            continue;
        }
        double x0 = fmax(s, lo), x1 = fmin(e, hi);
        if (x1 <= x0)
            continue;
        double ra = r0 + (r1 - r0) * (x0 - s) / (e - s), rb = r0 + (r1 - r0) * (x1 - s) / (e - s);
        ar += HB_PI * (ra + rb) * sqrt((x1 - x0) * (x1 - x0) + (rb - ra) * (rb - ra));
        rs += (x1 - x0) / (HB_PI * ra * rb);
        di += (x1 - x0) * (ra + rb);
    }
    if (area)
        *area = ar;
    if (res)
        *res = rs;
    if (dint)
        *dint = di;
}

static double dist3(const double *x, const double *y, const double *z, int64_t i, int64_t j)
{
    double dx = x[i] - x[j], dy = y[i] - y[j], dz = z[i] - z[j];
    return sqrt(dx * dx + dy * dy + dz * dz);
}

/* Host copy of a morphology's samples. */
typedef struct {
    const hb_morph *m; /* for messages: name, line and id of a sample */
    int64_t n;
    double *x, *y, *z, *r;
    int32_t *type;
    int64_t *parent;
    char *skip;     /* the two extra points of a 3-point soma */
    int sphere;     /* sample 0 is a sphere of radius r[0]    */
    int64_t *nc;    /* children (not skipped)                 */
    int64_t *cstart, *child;
} samples;

static void samples_free(samples *s)
{
    free(s->x), free(s->y), free(s->z), free(s->r), free(s->type), free(s->parent);
    free(s->skip), free(s->nc), free(s->cstart), free(s->child);
}

static hb_status samples_load(const hb_morph *m, samples *s)
{
    hb_morph_info info;
    HB_FORWARD(hb_morph_get_info(m, &info));
    int64_t n = info.samples;
    memset(s, 0, sizeof *s);
    s->m = m, s->n = n;
    s->x = hb__calloc_n(n, sizeof(double)), s->y = hb__calloc_n(n, sizeof(double));
    s->z = hb__calloc_n(n, sizeof(double)), s->r = hb__calloc_n(n, sizeof(double));
    s->type = hb__calloc_n(n, sizeof(int32_t)), s->parent = hb__calloc_n(n, sizeof(int64_t));
    s->skip = hb__calloc_n(n, 1), s->nc = hb__calloc_n(n, sizeof(int64_t));
    s->cstart = hb__calloc_n(n + 1, sizeof(int64_t));
    s->child = hb__calloc_n(n, sizeof(int64_t));
    if (!s->x || !s->y || !s->z || !s->r || !s->type || !s->parent || !s->skip || !s->nc ||
        !s->cstart || !s->child) {
        samples_free(s);
        return hb__error(HB_ERR_OUT_OF_MEMORY, "morphology: out of memory for %lld samples",
                         (long long)n);
    }
    for (int64_t k = 0; k < n; ++k) {
        hb_swc_sample q;
        hb_status st = hb_morph_sample(m, k, &q);
        if (st != HB_SUCCESS) {
            samples_free(s);
            return st;
        }
        s->x[k] = q.x, s->y[k] = q.y, s->z[k] = q.z, s->r[k] = q.radius;
        s->type[k] = q.type, s->parent[k] = q.parent;
    }
    s->sphere = info.soma == HB_SOMA_SINGLE_POINT || info.soma == HB_SOMA_THREE_POINT;
    if (info.soma == HB_SOMA_THREE_POINT)
        for (int64_t k = 1; k < n; ++k)
            if (s->parent[k] == 0 && s->type[k] == 1)
                s->skip[k] = 1;
    int64_t kept = 0;
    for (int64_t k = 0; k < n; ++k)
        kept += !s->skip[k];
    if (kept == 1)
        s->sphere = 1; /* a lone sample is a sphere, whatever its type */
    for (int64_t k = 1; k < n; ++k)
        if (!s->skip[k])
            ++s->nc[s->parent[k]], ++s->cstart[s->parent[k] + 1];
    for (int64_t k = 0; k < n; ++k)
        s->cstart[k + 1] += s->cstart[k];
    int64_t *fill = hb__calloc_n(n, sizeof *fill);
    if (!fill) {
        samples_free(s);
        return hb__error(HB_ERR_OUT_OF_MEMORY, "morphology: out of memory");
    }
    for (int64_t k = 1; k < n; ++k)
        if (!s->skip[k])
            s->child[s->cstart[s->parent[k]] + fill[s->parent[k]]++] = k;
    free(fill);
    return HB_SUCCESS;
}

/* Radius where the segment parent(k) -> k starts: the parent's, unless the
 * type changes or the parent is a sphere (then k's own: a dendrite does not
 * start with the soma's radius). */
static double start_radius(const samples *s, int64_t k)
{
    int64_t p = s->parent[k];
    return (s->type[p] == s->type[k] && !(p == 0 && s->sphere)) ? s->r[p] : s->r[k];
}

/* Length of segment parent(k) -> k as geometry: from the sphere's surface
 * when the parent is a sphere soma. */
static double seg_length(const samples *s, int64_t k)
{
    double L = dist3(s->x, s->y, s->z, k, s->parent[k]);
    if (s->parent[k] == 0 && s->sphere)
        L = fmax(L - s->r[0], 0.0);
    return L;
}

/* Where sample k came from, for messages: "NAME:LINE: sample ID". */
typedef struct {
    const char *name;
    long long line, id;
} sample_where;

static sample_where where(const hb_morph *m, int64_t k)
{
    hb_swc_sample q;
    sample_where w = {hb__morph_name(m), 0, k};
    if (hb_morph_sample(m, k, &q) == HB_SUCCESS)
        w.line = q.line, w.id = q.id;
    return w;
}

static hb_status discretize_sample(const samples *s, const hb_discretize_options *o,
                                   const hb_cable *cab, const char *fn, hb_morph_cell **out)
{
    int64_t n = s->n, nk = 0;
    for (int64_t k = 0; k < n; ++k)
        nk += !s->skip[k];
    if (nk > o->max_compartments)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: %s: %lld compartments (one per sample), "
                         "more than opts.max_compartments = %lld", fn, hb__morph_name(s->m),
                         (long long)nk, (long long)o->max_compartments);
    int64_t *comp = hb__calloc_n(n, sizeof *comp);
    double *len = hb__calloc_n(nk, sizeof *len); /* each compartment's length, for diam */
    hb_morph_cell *c = comp && len ? hb__morph_cell_alloc(nk) : NULL;
    if (!c) {
        free(comp), free(len);
        return hb__error(HB_ERR_OUT_OF_MEMORY, "%s: out of memory for %lld compartments", fn,
                         (long long)nk);
    }
    nk = 0;
    for (int64_t k = 0; k < n; ++k)
        comp[k] = s->skip[k] ? -1 : nk++;
    if (s->sphere)
        c->area[0] = 4 * HB_PI * s->r[0] * s->r[0];
    c->parent[0] = -1, c->type[0] = s->type[0], c->source[0] = 0;
    for (int64_t k = 1; k < n; ++k) {
        if (s->skip[k])
            continue;
        int64_t p = s->parent[k], ck = comp[k], cp = comp[p];
        double rs = start_radius(s, k), re = s->r[k], L = seg_length(s, k);
        double rm = 0.5 * (rs + re), h = 0.5 * L;
        /* Half of the frustum to each end's compartment. */
        c->area[cp] += HB_PI * (rs + rm) * sqrt(h * h + (rm - rs) * (rm - rs));
        c->area[ck] += HB_PI * (rm + re) * sqrt(h * h + (re - rm) * (re - rm));
        /* Diameter integrals (int 2r dx) of the two halves, over lengths. */
        c->diam[cp] += h * (rs + rm), len[cp] += h;
        c->diam[ck] += h * (rm + re), len[ck] += h;
        c->g[ck] = 100.0 * HB_PI * rs * re / (cab->ra * fmax(L, HB_MIN_LENGTH));
        c->dist[ck] = c->dist[cp] + dist3(s->x, s->y, s->z, k, p);
        c->parent[ck] = (int32_t)cp, c->type[ck] = s->type[k], c->source[ck] = k;
    }
    /* The mean diameter over each compartment's pieces (a lone or zero-length
     * sample: its own); a sphere soma's is the sphere's. */
    for (int64_t k = 0; k < n; ++k)
        if (!s->skip[k])
            c->diam[comp[k]] = len[comp[k]] > 0 ? c->diam[comp[k]] / len[comp[k]] : 2 * s->r[k];
    if (s->sphere)
        c->diam[0] = 2 * s->r[0];
    free(comp), free(len);
    *out = c;
    return HB_SUCCESS;
}

/* Whether sample k starts a section: a child of the root, of a branch point
 * or of a sample of another type. */
static int section_head(const samples *s, int64_t k)
{
    int64_t p = s->parent[k];
    return !s->skip[k] && (p == 0 || s->nc[p] >= 2 || s->type[p] != s->type[k]);
}

/* The polyline of the section that sample k starts: arc positions a[0..m]
 * (0 at its start), radii r and samples smp; *last: its last sample;
 * *d_surface: where it starts on a sphere soma (path distance from the
 * centre), else 0. A section of no length becomes a short cylinder. */
static int64_t section_run(const samples *s, int64_t k, double *a, double *r, int64_t *smp,
                           int64_t *last, double *d_surface)
{
    int64_t p = s->parent[k], m = 0, v = k;
    *d_surface = 0;
    if (p == 0 && s->sphere) {
        double L = dist3(s->x, s->y, s->z, k, 0);
        *d_surface = L > s->r[0] ? s->r[0] : L; /* starts on the surface */
    }
    a[0] = 0, r[0] = start_radius(s, k), smp[0] = k;
    for (;;) { /* the run: k, then only children of the same type */
        ++m;
        a[m] = a[m - 1] + (m == 1 ? seg_length(s, v) : dist3(s->x, s->y, s->z, v, s->parent[v]));
        r[m] = s->r[v], smp[m] = v;
        if (s->nc[v] != 1)
            break;
        int64_t w = s->child[s->cstart[v]];
        if (s->type[w] != s->type[v])
            break;
        v = w;
    }
    if (a[m] < HB_MIN_LENGTH) /* a section of no length: a short cylinder */
        r[1] = r[m], smp[1] = smp[m], a[1] = HB_MIN_LENGTH, m = 1;
    *last = v;
    return m;
}

/* Compartments of a section of m pieces: opts.nseg, the odd count per
 * opts.seg_length, or NEURON's d_lambda rule at 100 Hz on the polyline (its lambda_f). A double, so that a count
 * too large for any integer (or infinite) is compared, never converted. */
static double section_nseg(const double *a, const double *r, int64_t m,
                           const hb_discretize_options *o, const hb_cable *cab)
{
    if (o->nseg > 0)
        return o->nseg;
    if (o->seg_length > 0)
        return hb__nseg_per_length(a[m], o->seg_length);
    double lam = 0; /* the section's length in lambdas at 100 Hz */
    for (int64_t i = 0; i < m; ++i)
        lam += (a[i + 1] - a[i]) / sqrt(2 * r[i] + 2 * r[i + 1]);
    lam *= sqrt(2.0) * 1e-5 * sqrt(4 * HB_PI * 100.0 * cab->ra * cab->cm);
    return floor((lam / o->d_lambda + 0.9) / 2) * 2 + 1;
}

typedef struct {
    int64_t first, nseg; /* first compartment, count        */
    double L, h, d0;     /* length, compartment length, path distance of the start */
    double r_start, r_end; /* resistance integral of the first and last half compartments */
} section;

static hb_status discretize_section(const samples *s, const hb_discretize_options *o,
                                    const hb_cable *cab, const char *fn, hb_morph_cell **out)
{
    int64_t n = s->n;
    hb_status st = HB_SUCCESS;
    int64_t *sec_of = hb__calloc_n(n, sizeof *sec_of); /* last sample -> section */
    int64_t *nseg_of = hb__calloc_n(n, sizeof *nseg_of); /* first sample -> its nseg */
    section *sec = hb__calloc_n(n, sizeof *sec);
    double *a = hb__calloc_n(n + 1, sizeof *a), *r = hb__calloc_n(n + 1, sizeof *r);
    int64_t *smp = hb__calloc_n(n + 1, sizeof *smp);
    hb_morph_cell *c = NULL;
    int64_t nk = 0, nsec = 0, root_sec = -1;
    if (!sec_of || !nseg_of || !sec || !a || !r || !smp) {
        st = hb__error(HB_ERR_OUT_OF_MEMORY, "%s: out of memory for %lld samples", fn,
                       (long long)n);
        goto done;
    }
    /* First pass: count the compartments, against the cap, before allocating
     * any (an untrusted file or option may ask for billions). */
    int64_t total = s->sphere ? 1 : 0, last;
    for (int64_t k = 1; k < n; ++k) {
        if (!section_head(s, k))
            continue;
        double d_surface;
        int64_t m = section_run(s, k, a, r, smp, &last, &d_surface);
        sample_where w = where(s->m, k);
        if (!isfinite(a[m])) {
            st = hb__error(HB_ERR_INVALID_ARGUMENT, "%s: %s:%lld: sample %lld: the section "
                           "starting here is %g um long, not finite", fn, w.name, w.line, w.id,
                           a[m]);
            goto done;
        }
        double ns = section_nseg(a, r, m, o, cab);
        if (!(ns <= (double)(o->max_compartments - total))) {
            st = hb__error(HB_ERR_INVALID_ARGUMENT, "%s: %s:%lld: sample %lld: the section "
                           "starting here (%g um) takes the cell to %.15g compartments (%s %.15g), "
                           "more than opts.max_compartments = %lld", fn, w.name, w.line, w.id,
                           a[m], (double)total + ns, hb__nseg_rule(o),
                           hb__nseg_rule_value(o),
                           (long long)o->max_compartments);
            goto done;
        }
        nseg_of[k] = (int64_t)ns; /* in [1, 2^31): converting is safe */
        total += nseg_of[k];
    }
    c = hb__morph_cell_alloc(total);
    if (!c) {
        st = hb__error(HB_ERR_OUT_OF_MEMORY, "%s: out of memory for %lld compartments", fn,
                       (long long)total);
        goto done;
    }
    if (s->sphere) {
        /* The soma sphere: one isopotential compartment. */
        c->area[0] = 4 * HB_PI * s->r[0] * s->r[0];
        c->diam[0] = 2 * s->r[0];
        c->parent[0] = -1, c->type[0] = s->type[0], c->source[0] = 0, c->dist[0] = 0;
        sec[0] = (section){0, 1, 0, 0, 0, 0, 0};
        sec_of[0] = 0, nsec = 1, nk = 1, root_sec = 0;
    }
    for (int64_t k = 1; k < n; ++k) {
        if (!section_head(s, k))
            continue;
        int64_t p = s->parent[k], v;
        double d_surface;
        int64_t m = section_run(s, k, a, r, smp, &v, &d_surface);
        double L = a[m];
        int64_t ns = nseg_of[k];
        section *S = &sec[nsec];
        S->first = nk, S->nseg = ns, S->L = L, S->h = L / (double)ns;
        poly pl = {a, r, m, 0};
        poly_measure(&pl, 0, 0.5 * S->h, 0, NULL, &S->r_start, NULL);
        /* Where the section hangs: parent compartment, extra resistance, start distance. */
        int64_t pc;
        double extra;
        if (p == 0 && s->sphere) {
            pc = 0, extra = 0, S->d0 = d_surface;
        } else if (p == 0 && root_sec < 0) {
            pc = -1, extra = 0, S->d0 = 0, root_sec = nsec;
        } else if (p == 0) {
            /* Another child of a point root: hangs on the root section's 0 end. */
            pc = sec[root_sec].first, extra = sec[root_sec].r_start, S->d0 = 0;
        } else {
            section *P = &sec[sec_of[p]];
            pc = P->first + P->nseg - 1, extra = P->r_end, S->d0 = P->d0 + P->L;
        }
        pl.cur = 0;
        poly pr = {a, r, m, 0}; /* resistances between centres, ascending too */
        int64_t piece = 0;
        for (int64_t j = 0; j < ns; ++j) {
            int64_t q = nk + j;
            double lo = j * S->h, hi = j + 1 == ns ? L : (j + 1) * S->h, mid = (j + 0.5) * S->h;
            double ar, res, di;
            poly_measure(&pl, lo, hi, j + 1 == ns, &ar, NULL, &di);
            if (j == 0) {
                res = S->r_start + extra;
            } else {
                poly_measure(&pr, mid - S->h, mid, 0, NULL, &res, NULL);
            }
            while (piece + 1 < m && a[piece + 1] < mid)
                ++piece;
            c->area[q] = ar;
            /* The mean diameter over the compartment (NEURON's seg.diam). */
            c->diam[q] = hi > lo ? di / (hi - lo) : 2 * r[piece];
            c->g[q] = j == 0 && pc < 0 ? 0.0 : 100.0 / (cab->ra * res); /* res > 0 */
            c->parent[q] = (int32_t)(j == 0 ? pc : q - 1);
            c->type[q] = s->type[k], c->source[q] = smp[piece + 1], c->dist[q] = S->d0 + mid;
        }
        {
            poly pe = {a, r, m, 0};
            poly_measure(&pe, L - 0.5 * S->h, L, 0, NULL, &S->r_end, NULL);
        }
        nk += ns;
        sec_of[v] = nsec++;
    }
    if (nk != total || c->parent[0] != -1) /* cannot happen: both passes cut the same sections */
        st = hb__error(HB_ERR_INVALID_TREE, "%s: internal error: %lld compartments of %lld, root "
                       "parent %d", fn, (long long)nk, (long long)total, (int)c->parent[0]);
done:
    free(sec_of), free(nseg_of), free(sec), free(a), free(r), free(smp);
    if (st != HB_SUCCESS) {
        hb_morph_cell_destroy(c);
        return st;
    }
    *out = c;
    return HB_SUCCESS;
}

/* The last check of every new cell: untrusted geometry within finite numbers
 * can still give values that are not (radii of 1e200 make areas overflow,
 * radii of 1e-200 make conductances underflow to 0). Every area finite and
 * >= 0 with a positive total, every conductance below the root positive and
 * finite, every distance finite. m: the morphology the sources index (names
 * the sample), or NULL (names the compartment's source node). */
static hb_status cell_check(const hb_morph_cell *c, const hb_morph *m, const char *fn)
{
    double total = 0;
    for (int64_t k = 0; k < c->n; ++k) {
        const char *what = NULL;
        double val = 0;
        if (!(c->area[k] >= 0) || !isfinite(c->area[k]))
            what = "membrane area (um^2)", val = c->area[k];
        else if (!(c->diam[k] >= 0) || !isfinite(c->diam[k]))
            what = "mean diameter (um)", val = c->diam[k];
        else if (k > 0 && (!(c->g[k] > 0) || !isfinite(c->g[k])))
            what = "axial conductance (uS)", val = c->g[k];
        else if (!isfinite(c->dist[k]))
            what = "path distance (um)", val = c->dist[k];
        if (what && m) {
            sample_where w = where(m, c->source[k]);
            return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: %s:%lld: sample %lld: its compartment's "
                             "%s is %g, must be positive and finite (radius, length or cable "
                             "constants out of range)", fn, w.name, w.line, w.id, what, val);
        }
        if (what)
            return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: node %lld: its compartment's %s is %g, "
                             "must be positive and finite (length, diameter or cable constants "
                             "out of range)", fn, (long long)c->source[k], what, val);
        total += c->area[k];
    }
    if (!(total > 0) || !isfinite(total))
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: %s: the cell's membrane area is %g um^2, "
                         "must be positive and finite (every segment of zero length?)", fn,
                         m ? hb__morph_name(m) : "cell", total);
    return HB_SUCCESS;
}

static hb_status check_cable(const hb_cable *cab, const char *fn)
{
    if (!(cab->ra > 0) || !isfinite(cab->ra) || !(cab->cm >= 0) || !isfinite(cab->cm) ||
        !(cab->gm >= 0) || !isfinite(cab->gm))
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: cable ra = %g (must be > 0), cm = %g, "
                         "gm = %g (must be >= 0), all finite", fn, cab->ra, cab->cm, cab->gm);
    return HB_SUCCESS;
}

hb_status hb_morph_cell_create(const hb_morph *morph, const hb_discretize_options *opts,
                               const hb_cable *cable, hb_morph_cell **cell)
{
    const char *fn = "hb_morph_cell_create";
    if (!morph || !cell)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: %s is NULL", fn, !morph ? "morph" : "cell");
    hb_discretize_options o;
    hb_discretize_options_init(&o);
    if (opts)
        o = *opts;
    hb_cable cab;
    hb_cable_init(&cab);
    if (cable)
        cab = *cable;
    HB_FORWARD(check_cable(&cab, fn));
    if (o.policy != HB_POLICY_SAMPLE && o.policy != HB_POLICY_SECTION)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: opts.policy = %d is not a policy", fn,
                         (int)o.policy);
    if (o.conventions != HB_CONVENTIONS_HINESBATCH && o.conventions != HB_CONVENTIONS_NEURON)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: opts.conventions = %d is not a convention",
                         fn, (int)o.conventions);
    if (o.conventions == HB_CONVENTIONS_NEURON && o.policy != HB_POLICY_SECTION)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: opts.conventions NEURON needs opts.policy "
                         "SECTION (NEURON cuts sections), got policy %d", fn, (int)o.policy);
    if (o.policy == HB_POLICY_SECTION && o.nseg < 0)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: opts.nseg = %d < 0", fn, (int)o.nseg);
    if (!(o.seg_length >= 0) || !isfinite(o.seg_length))
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: opts.seg_length = %g um, must be finite "
                         "and >= 0 (0: off)", fn, o.seg_length);
    const int by_length = o.policy == HB_POLICY_SECTION && o.nseg == 0 && o.seg_length > 0;
    if (o.policy == HB_POLICY_SECTION && o.nseg == 0 && !by_length &&
        (!(o.d_lambda > 0) || !isfinite(o.d_lambda)))
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: opts.d_lambda = %g, must be > 0 for the "
                         "d_lambda rule (nseg = 0)", fn, o.d_lambda);
    if (o.policy == HB_POLICY_SECTION && o.nseg == 0 && !by_length && !(cab.cm > 0))
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: the d_lambda rule needs cable cm > 0", fn);
    if (o.max_compartments < 0 || o.max_compartments > INT32_MAX)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: opts.max_compartments = %lld outside "
                         "[0, 2^31-1] (0: the default, %d)", fn, (long long)o.max_compartments,
                         HB_DEFAULT_MAX_COMPARTMENTS);
    if (o.max_compartments == 0)
        o.max_compartments = HB_DEFAULT_MAX_COMPARTMENTS;
    hb_morph_cell *c = NULL;
    hb_status st;
    if (o.conventions == HB_CONVENTIONS_NEURON) {
        st = hb__morph_cell_neuron(morph, &o, &cab, fn, &c);
    } else {
        samples s;
        HB_FORWARD(samples_load(morph, &s));
        st = o.policy == HB_POLICY_SAMPLE ? discretize_sample(&s, &o, &cab, fn, &c)
                                          : discretize_section(&s, &o, &cab, fn, &c);
        samples_free(&s);
    }
    if (st == HB_SUCCESS)
        st = cell_check(c, morph, fn);
    if (st == HB_SUCCESS) {
        c->cable = cab;
        st = cell_order(c);
    }
    if (st == HB_SUCCESS && o.reroot)
        st = hb_morph_cell_reroot(c);
    if (st != HB_SUCCESS) {
        hb_morph_cell_destroy(c);
        return st;
    }
    *cell = c;
    return HB_SUCCESS;
}

hb_status hb_morph_cell_from_parent(int64_t n, const int32_t *parent, double length, double diam,
                                    const hb_cable *cable, hb_morph_cell **cell)
{
    const char *fn = "hb_morph_cell_from_parent";
    if (!parent || !cell)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: %s is NULL", fn,
                         !parent ? "parent" : "cell");
    if (n < 1 || n > INT32_MAX)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: n = %lld outside [1, 2^31)", fn,
                         (long long)n);
    if (!(length > 0) || !isfinite(length) || !(diam > 0) || !isfinite(diam))
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: length = %g and diam = %g must be positive "
                         "and finite", fn, length, diam);
    hb_cable cab;
    hb_cable_init(&cab);
    if (cable)
        cab = *cable;
    HB_FORWARD(check_cable(&cab, fn));
    HB_FORWARD(hb__check_tree(parent, n, 0));
    hb_morph_cell *c = hb__morph_cell_alloc(n);
    if (!c)
        return hb__error(HB_ERR_OUT_OF_MEMORY, "%s: out of memory for %lld compartments", fn,
                         (long long)n);
    double rad = 0.5 * diam;
    for (int64_t k = 0; k < n; ++k) {
        c->parent[k] = parent[k], c->type[k] = 3, c->source[k] = k;
        c->area[k] = HB_PI * diam * length;
        c->diam[k] = diam;
        c->g[k] = k ? 100.0 * HB_PI * rad * rad / (cab.ra * length) : 0;
        c->dist[k] = k ? c->dist[parent[k]] + length : 0.5 * length;
    }
    c->cable = cab;
    hb_status st = cell_check(c, NULL, fn);
    if (st == HB_SUCCESS)
        st = cell_order(c);
    if (st != HB_SUCCESS) {
        hb_morph_cell_destroy(c);
        return st;
    }
    *cell = c;
    return HB_SUCCESS;
}

hb_status hb_morph_cell_get_view(const hb_morph_cell *c, hb_morph_cell_view *v)
{
    if (!c || !v)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "hb_morph_cell_get_view: %s is NULL",
                         !c ? "cell" : "view");
    v->n = c->n, v->parent = c->parent, v->area = c->area, v->diam = c->diam, v->g_axial = c->g;
    v->distance = c->dist, v->type = c->type, v->source = c->source, v->cable = c->cable;
    return HB_SUCCESS;
}

/* ---- re-rooting ------------------------------------------------------------ */
hb_status hb_morph_cell_reroot(hb_morph_cell *c)
{
    if (!c)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "hb_morph_cell_reroot: cell is NULL");
    int64_t n = c->n, root = 0;
    /* The centre rule, whose roots this function has always given (hb_tree.h). */
    HB_FORWARD(hb__tree_best_root(c->parent, n, HB__DEPTH_BRANCHES, HB__ROOT_CENTRE, &root));
    if (root == 0)
        return HB_SUCCESS; /* the root is already optimal */
    int32_t *perm = NULL, *inv = NULL, *npar = NULL;
    HB_FORWARD(hb__tree_renumber(c->parent, n, root, &perm, &inv, &npar));
    hb_morph_cell *t = hb__morph_cell_alloc(n);
    hb_status st = HB_SUCCESS;
    if (!t) {
        st = hb__error(HB_ERR_OUT_OF_MEMORY, "hb_morph_cell_reroot: out of memory");
        goto done;
    }
    /* Copy in breadth-first order from the new root; each edge keeps its
     * conductance and length, whichever end is now the child. */
    for (int64_t i = 0; i < n; ++i) {
        int64_t v = perm[i], q = npar[i];
        t->type[i] = c->type[v], t->area[i] = c->area[v], t->source[i] = c->source[v];
        t->diam[i] = c->diam[v];
        if (q < 0) {
            t->parent[i] = -1, t->g[i] = 0, t->dist[i] = 0;
            continue;
        }
        int64_t p = perm[q], e = c->parent[v] == p ? v : p; /* the edge is stored at the old child */
        t->parent[i] = (int32_t)q;
        t->g[i] = c->g[e];
        t->dist[i] = t->dist[q] + fabs(c->dist[e] - c->dist[c->parent[e]]);
    }
    t->cable = c->cable;
    st = cell_check(t, NULL, "hb_morph_cell_reroot"); /* distances are sums again */
    if (st == HB_SUCCESS)
        st = cell_order(t);
    if (st == HB_SUCCESS) {
        /* Swap contents so the caller's handle holds the re-rooted cell. */
        hb_morph_cell x = *c;
        *c = *t, *t = x;
    }
done:
    free(perm), free(inv), free(npar);
    hb_morph_cell_destroy(t);
    return st;
}

/* ---- the implicit Euler matrix ------------------------------------------ */
/* dt > 0, and every entry finite at this dt, before anything is written: the
 * sum of all the non-negative terms (C/dt, G, twice each conductance; only
 * C/dt for the cdt array) bounds every entry. */
static hb_status check_dt(const hb_morph_cell *c, double dt, int matrix, const char *fn)
{
    if (!c)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: cell is NULL", fn);
    if (!(dt > 0))
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: dt = %g ms, must be > 0 (INFINITY for the "
                         "steady state)", fn, dt);
    double sum = 0;
    for (int64_t k = 0; k < c->n; ++k) {
        sum += isinf(dt) ? 0.0 : 1e-5 * c->cable.cm * c->area[k] / dt;
        if (matrix)
            sum += 1e-2 * c->cable.gm * c->area[k] + 2 * c->g[k];
    }
    if (!isfinite(sum))
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: dt = %g ms: %s not finite (cm %g, gm %g)",
                         fn, dt, matrix ? "the matrix entries (C/dt + G + axial conductances) are"
                                        : "C/dt is", c->cable.cm, c->cable.gm);
    return HB_SUCCESS;
}

hb_status hb_morph_cell_cdt(const hb_morph_cell *c, double dt, double *cdt)
{
    HB_FORWARD(check_dt(c, dt, 0, "hb_morph_cell_cdt"));
    if (!cdt)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "hb_morph_cell_cdt: cdt is NULL");
    /* cm [uF/cm^2] * area [um^2] * 1e-8 [cm^2/um^2] / dt [ms] = 1e-5 * ... uS. */
    for (int64_t k = 0; k < c->n; ++k)
        cdt[k] = isinf(dt) ? 0.0 : 1e-5 * c->cable.cm * c->area[k] / dt;
    return HB_SUCCESS;
}

hb_status hb_morph_cell_matrix(const hb_morph_cell *c, double dt, double *d, double *u, double *l)
{
    const char *fn = "hb_morph_cell_matrix";
    HB_FORWARD(check_dt(c, dt, 1, fn));
    if (!d || !u || !l)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: %s is NULL", fn, !d ? "d" : !u ? "u" : "l");
    HB_FORWARD(hb_morph_cell_cdt(c, dt, d));
    /* gm [S/cm^2] * area [um^2] * 1e-8 * 1e6 [uS/S] = 1e-2 * ... uS. */
    for (int64_t k = 0; k < c->n; ++k) {
        d[k] += 1e-2 * c->cable.gm * c->area[k] + c->g[k];
        u[k] = l[k] = k ? -c->g[k] : 0.0;
    }
    for (int64_t k = 1; k < c->n; ++k)
        d[c->parent[k]] += c->g[k];
    return HB_SUCCESS;
}
