/* morph_neuron.c: NEURON's conventions: Import3d's sections and 3-D points from an SWC, NEURON's segment areas and resistances, zero-area nodes folded in. */
#include "hb_error.h"
#include "hinesbatch_morph.h"
#include "morph_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The value NEURON uses (its PI); the same digits as HB_PI elsewhere. */
#define NRN_PI 3.14159265358979323846

/* What follows reproduces, step by step, what NEURON 9 does with an SWC file
 * read by Import3d_SWC_read and instantiated by Import3d_GUI (read_swc.hoc,
 * import3d_gui.hoc) and with the 3-D points it stores (float coordinates and
 * diameters, arc lengths from float differences), then how it integrates
 * each segment's area and axial resistance over those points. The same steps
 * in the same floating-point order, so that the result agrees with NEURON to
 * rounding: tests/neuron_import_check.py compares every compartment. */

/* Samples in file-id order (Import3d sorts by id): index 0 is the root. */
typedef struct {
    int64_t n;
    double *x, *y, *z, *d; /* d: diameter (2r, exact in binary)          */
    int32_t *type;
    int64_t *pix;          /* parent index, -1 at the root                */
    int64_t *sorted;       /* the hb_morph sample index (sorted order)    */
    double *nchild;        /* Import3d's branch marks (1: not a section end) */
    double *nchild_soma;
    char *c2p;             /* Import3d's connect2prox                     */
} i3pts;

/* One section as Import3d leaves it. Raw column 0 of a section with a parent
 * is the parent point, then its own points first..last. */
typedef struct {
    int64_t first, last;
    int64_t parent;   /* section index, -1 for the root                          */
    double px;        /* where it connects on the parent (0, 0.5, 1)            */
    int skip1;        /* Import3d's sec.first: the parent point is not a 3-D point */
    int d0_own;       /* the parent point takes the second point's diameter       */
    int alive;        /* chk_valid removes one-point and zero-length sections       */
    int32_t type;
    int64_t ncol;     /* raw columns                                             */
} i3sec;

typedef struct {
    const char *name;
    long long line, id;
} where_t;

static where_t where_of(const hb_morph *m, int64_t sorted)
{
    hb_swc_sample q;
    where_t w = {hb__morph_name(m), 0, sorted};
    if (hb_morph_sample(m, sorted, &q) == HB_SUCCESS)
        w.line = q.line, w.id = q.id;
    return w;
}

static void pts_free(i3pts *p)
{
    free(p->x), free(p->y), free(p->z), free(p->d), free(p->type), free(p->pix);
    free(p->sorted), free(p->nchild), free(p->nchild_soma), free(p->c2p);
}

typedef struct {
    int64_t id, k;
} id_key;

static int by_id(const void *a, const void *b)
{
    const id_key *p = a, *q = b;
    return (p->id > q->id) - (p->id < q->id);
}

/* The samples in id order; every parent's id must be below its child's
 * (Import3d refuses other files). */
static hb_status pts_load(const hb_morph *m, const char *fn, i3pts *p)
{
    hb_morph_info info;
    HB_FORWARD(hb_morph_get_info(m, &info));
    int64_t n = info.samples;
    memset(p, 0, sizeof *p);
    p->n = n;
    p->x = hb__malloc_n(n, sizeof(double)), p->y = hb__malloc_n(n, sizeof(double));
    p->z = hb__malloc_n(n, sizeof(double)), p->d = hb__malloc_n(n, sizeof(double));
    p->type = hb__malloc_n(n, sizeof(int32_t)), p->pix = hb__malloc_n(n, sizeof(int64_t));
    p->sorted = hb__malloc_n(n, sizeof(int64_t)), p->nchild = hb__calloc_n(n, sizeof(double));
    p->nchild_soma = hb__calloc_n(n, sizeof(double)), p->c2p = hb__calloc_n(n, 1);
    id_key *key = hb__malloc_n(n, sizeof *key);
    int64_t *rank = hb__malloc_n(n, sizeof *rank);
    hb_status st = HB_SUCCESS;
    if (!p->x || !p->y || !p->z || !p->d || !p->type || !p->pix || !p->sorted || !p->nchild ||
        !p->nchild_soma || !p->c2p || !key || !rank) {
        st = hb__error(HB_ERR_OUT_OF_MEMORY, "%s: out of memory for %lld samples", fn,
                       (long long)n);
        goto done;
    }
    hb_swc_sample q;
    for (int64_t k = 0; k < n && st == HB_SUCCESS; ++k)
        if ((st = hb_morph_sample(m, k, &q)) == HB_SUCCESS)
            key[k].id = q.id, key[k].k = k;
    if (st != HB_SUCCESS)
        goto done;
    qsort(key, (size_t)n, sizeof *key, by_id);
    for (int64_t i = 0; i < n; ++i)
        rank[key[i].k] = i;
    for (int64_t i = 0; i < n && st == HB_SUCCESS; ++i) {
        if ((st = hb_morph_sample(m, key[i].k, &q)) != HB_SUCCESS)
            break;
        p->x[i] = q.x, p->y[i] = q.y, p->z[i] = q.z, p->d[i] = 2 * q.radius;
        p->type[i] = q.type, p->sorted[i] = key[i].k;
        p->pix[i] = q.parent < 0 ? -1 : rank[q.parent];
        if (p->pix[i] >= i) {
            where_t w = where_of(m, key[i].k);
            st = hb__error(HB_ERR_INVALID_ARGUMENT, "%s: %s:%lld: sample %lld: NEURON's "
                           "conventions (Import3d) need every parent's id below its child's; "
                           "its parent's id is not", fn, w.name, w.line, w.id);
        }
    }
done:
    free(key), free(rank);
    if (st != HB_SUCCESS)
        pts_free(p);
    return st;
}

static double dist_pts(const i3pts *p, int64_t i, int64_t j)
{
    double dx = p->x[i] - p->x[j], dy = p->y[i] - p->y[j], dz = p->z[i] - p->z[j];
    return sqrt(dx * dx + dy * dy + dz * dz);
}

/* Import3d's marks (mark_branch, the 3-point soma test, the soma's
 * contiguity): nchild[i] == 1 where point i does not end a section. Returns
 * whether the soma is NeuroMorpho's 3-point soma (then the root section is the
 * root point alone). */
static int pts_mark(i3pts *p)
{
    int64_t n = p->n;
    double *nc = p->nchild;
    for (int64_t i = 0; i < n; ++i) {
        int64_t q = p->pix[i];
        if (q < 0)
            continue;
        nc[q] += 1;
        if (q != i - 1) {
            nc[q] += .01; /* not contiguous: ends the parent's section */
            /* A branch off the first point of a dendrite wired to the soma, or
             * off a root that is not soma: joins the parent section's 0 end. */
            if (q > 1) {
                if (p->type[q] != 1 && p->type[p->pix[q]] == 1)
                    p->c2p[i] = 1, nc[q] = 1;
            } else if (q == 0 && p->type[q] != 1) {
                p->c2p[i] = 1, nc[q] = 1;
            }
        }
        if (p->type[q] != p->type[i])
            nc[q] += .01; /* a type change ends a section */
    }
    int64_t nsoma = p->type[0] == 1;
    for (int64_t i = 1; i < n; ++i)
        if (p->type[i] == 1) {
            ++nsoma;
            if (p->pix[i] >= 0 && p->type[p->pix[i]] == 1)
                p->nchild_soma[p->pix[i]] += 1;
        }
    int soma3 = 0;
    if (nsoma == 3 && n >= 3 && p->pix[1] == 0 && p->pix[2] == 0 && nc[1] == 0 && nc[2] == 0 &&
        p->d[1] == p->d[0] && p->d[2] == p->d[0]) {
        double len = dist_pts(p, 1, 0) + dist_pts(p, 2, 0);
        if (fabs(len / p->d[0] - 1) < .01) {
            soma3 = 1;
            p->pix[2] = 1; /* one soma section; its two extra points are dropped */
        }
    }
    for (int64_t i = 0; i + 1 < n; ++i)
        if (p->type[i] == 1 && p->type[i + 1] == 1 && p->pix[i + 1] == i &&
            !(i != 0 && p->nchild_soma[i] > 1))
            nc[i] = 1;
    return soma3;
}

/* Raw column c of section s: its point index. */
static int64_t raw_pt(const i3pts *p, const i3sec *s, int64_t c)
{
    if (s->parent < 0)
        return s->first + c;
    return c == 0 ? p->pix[s->first] : s->first + c - 1;
}

/* Import3d's sections (mksections, mksection, chk_valid) into sec (room for
 * n); sec_of[i]: the section of point i. Returns the count. */
static int64_t make_sections(const i3pts *p, int soma3, i3sec *sec, int64_t *sec_of)
{
    int64_t n = p->n, ns = 0;
    for (int64_t i = 0; i < n; ++i) {
        if (i == 0 || p->nchild[i - 1] != 1)
            sec[ns++] = (i3sec){.first = i, .parent = -1, .px = 1, .alive = 1};
        sec[ns - 1].last = i;
        sec_of[i] = ns - 1;
    }
    for (int64_t k = 0; k < ns; ++k) {
        i3sec *s = &sec[k];
        int64_t first = s->first, i = s->last + 1; /* i: one past, as Import3d's */
        s->type = p->type[first];
        if (k == 0) {
            s->ncol = soma3 ? 1 : i - first;
            if (soma3)
                s->last = first;
            continue;
        }
        int64_t pp = p->pix[first];
        s->parent = sec_of[pp];
        s->ncol = i - first + 1;
        const i3sec *ps = &sec[s->parent];
        int den_con_soma = ps->type == 1 && p->type[first] != 1, con_soma = ps->type == 1;
        int handled = 0;
        if (s->parent == 0) {
            handled = 1;
            if (den_con_soma && ps->ncol == 1) { /* single-point (or 3-point) soma */
                s->px = 0.5;
                if (i - first > 1)
                    s->skip1 = 1; /* joined by a wire to the middle */
            } else if (pp == ps->first) { /* the root's first point */
                s->px = 0.0;
                if (p->type[first] != 1 && p->nchild_soma[pp] > 1)
                    s->skip1 = 1;
            } else {
                handled = 0;
            }
        }
        if (!handled && con_soma) {
            int64_t offset = ps->first == 0 ? -1 : -2;
            if (pp < ps->first + ps->ncol + offset) { /* the soma's interior */
                s->px = 0.5;
                if (den_con_soma && i - first > 1)
                    s->skip1 = 1;
            } else if (i - first > 1 && p->nchild_soma[pp] > 1 && p->type[first] != 1) {
                s->skip1 = 1;
            }
        }
        s->d0_own = ps->type == 1 && s->type != 1;
        if (p->c2p[first])
            s->px = 0;
    }
    /* chk_valid: one-point sections and two-point sections of no length go;
     * their children take their parent and position. */
    for (int64_t k = ns - 1; k >= 1; --k) {
        i3sec *s = &sec[k];
        int gone = s->ncol - s->skip1 <= 1;
        if (!gone && s->ncol - s->skip1 <= 2) {
            int64_t a = raw_pt(p, s, s->skip1), b = raw_pt(p, s, s->skip1 + 1);
            gone = p->x[a] == p->x[b] && p->y[a] == p->y[b] && p->z[a] == p->z[b];
        }
        if (!gone)
            continue;
        s->alive = 0;
        for (int64_t j = k + 1; j < ns; ++j)
            if (sec[j].alive && sec[j].parent == k)
                sec[j].parent = s->parent, sec[j].px = s->px;
    }
    return ns;
}

/* One section's 3-D points as NEURON stores them (floats) and their arcs. */
typedef struct {
    float *x, *y, *z, *d;
    double *arc;
    int64_t *smp; /* sorted sample index of each point */
} pt3d;

/* Writes section s's 3-D points from index at; returns their count. */
static int64_t section_pt3d(const i3pts *p, const i3sec *s, pt3d *q, int64_t at)
{
    int64_t c0 = s->skip1, m = s->ncol - c0;
    if (m == 1) { /* sphere_rep: three points along x, length and diameter d */
        int64_t i = raw_pt(p, s, c0);
        double d = p->d[i];
        for (int k = 0; k < 3; ++k) {
            q->y[at + k] = (float)p->y[i], q->z[at + k] = (float)p->z[i];
            q->d[at + k] = (float)d, q->smp[at + k] = p->sorted[i];
        }
        /* x - d/2, x, x + d/2 in double (Import3d), then NEURON's floats. */
        q->x[at] = (float)(p->x[i] - d / 2), q->x[at + 1] = (float)p->x[i];
        q->x[at + 2] = (float)(p->x[i] + d / 2);
        m = 3;
    } else {
        for (int64_t c = 0; c < m; ++c) {
            int64_t i = raw_pt(p, s, c0 + c);
            double d = (c0 + c == 0 && s->parent >= 0 && s->d0_own) ? p->d[raw_pt(p, s, 1)]
                                                                   : p->d[i];
            q->x[at + c] = (float)p->x[i], q->y[at + c] = (float)p->y[i];
            q->z[at + c] = (float)p->z[i], q->d[at + c] = (float)d;
            q->smp[at + c] = p->sorted[i];
        }
    }
    q->arc[at] = 0;
    for (int64_t c = 1; c < m; ++c) {
        /* float differences, as NEURON's arc lengths */
        double t1 = q->x[at + c] - q->x[at + c - 1], t2 = q->y[at + c] - q->y[at + c - 1];
        double t3 = q->z[at + c] - q->z[at + c - 1];
        q->arc[at + c] = q->arc[at + c - 1] + sqrt(t1 * t1 + t2 * t2 + t3 * t3);
    }
    return m;
}

/* NEURON's d_lambda rule at 100 Hz on the 3-D points (stdlib's lambda_f). */
static double nseg_dlambda(const pt3d *q, int64_t at, int64_t m, double L, double d_lambda,
                           const hb_cable *cab)
{
    double lam = 0, x1 = q->arc[at], d1 = fabs((double)q->d[at]);
    for (int64_t i = 1; i < m; ++i) {
        double x2 = q->arc[at + i], d2 = fabs((double)q->d[at + i]);
        lam += (x2 - x1) / sqrt(d1 + d2);
        x1 = x2, d1 = d2;
    }
    lam *= sqrt(2) * 1e-5 * sqrt(4 * NRN_PI * 100.0 * cab->ra * cab->cm);
    double lf = L / lam;
    return floor((L / (d_lambda * lf) + 0.9) / 2) * 2 + 1;
}

/* NEURON's integration over the 3-D points of one section of ns segments:
 * area[j] (um^2), diam[j] (um: the mean of the interpolated diameter over the
 * segment, NEURON's seg.diam), gin[j] (uS, between segment j's centre and the
 * node before it: the section's 0 end for j = 0) and *gend (last centre to the
 * 1 end).
 * Each half segment is integrated piecewise-linearly in diameter, cutting the
 * pieces at the half-segment boundaries. */
static void section_integrate(const pt3d *q, int64_t at, int64_t m, int64_t ns, double ra,
                              double *area, double *diam, double *gin, double *gend)
{
    const double *arc = q->arc + at;
    const float *dm = q->d + at;
    int64_t j = 0;
    double x1 = arc[0], y1 = fabs((double)dm[0]), ds = arc[m - 1] / (double)ns, rprev = 0;
    for (int64_t node = 0; node < ns; ++node) {
        double si = (double)node * ds, ar = 0, rl = 0, rr = 0, di = 0, y0 = y1;
        for (int half = 0; half < 2; ++half) {
            double ri = 0, sip = si + ds / 2.;
            for (;;) {
                int64_t jp = j + 1, jn;
                double xj = arc[j], xjp = arc[jp], x2, y2;
                if (xjp > sip || jp == m - 1) {
                    double frac = fabs(xjp - xj) < 1e-10 ? 1 : (sip - xj) / (xjp - xj);
                    x2 = sip;
                    y2 = (1. - frac) * fabs((double)dm[j]) + frac * fabs((double)dm[jp]);
                    jn = j;
                } else {
                    x2 = xjp, y2 = fabs((double)dm[jp]), jn = jp;
                }
                double delta = x2 - x1;
                di += delta * .5 * (y1 + y2);
                if (delta < 1e-15)
                    delta = 1e-15;
                double t = y2 * y1 / delta;
                if (t == 0)
                    t = 1e-15;
                ri += 1 / t;
                t = .5 * (y2 - y1);
                t = sqrt(delta * delta + t * t);
                ar += (y2 + y1) * t;
                x1 = x2, y1 = y2;
                if (j == jn)
                    break;
                j = jn;
            }
            if (half == 0)
                rl = ri * ra / NRN_PI * (4. * .01); /* MOhm */
            else
                rr = ri * ra / NRN_PI * (4. * .01);
            si = sip;
        }
        gin[node] = 1. / (rprev + rl);
        area[node] = ar * .5 * NRN_PI;
        diam[node] = ds > 0 ? di / ds : y0;
        rprev = rr;
    }
    *gend = 1. / rprev;
}

/* Per section, after integration. */
typedef struct {
    int64_t at, m;      /* its 3-D points                          */
    int64_t ns, base;   /* segments and the first segment's node   */
    double L, d0;       /* length, path distance of its 0 end      */
} nsec_t;

/* The node where a child joins section k at x (NEURON's parent node): x = 0
 * climbs to k's own parent node (the root section's 0 end at the top). */
static int64_t join_node(const i3sec *sec, const nsec_t *ns, int64_t k, double x, int64_t root0,
                         const int64_t *end1)
{
    while (x == 0 && sec[k].parent >= 0)
        x = sec[k].px, k = sec[k].parent;
    if (x == 0)
        return root0;
    if (x == 1)
        return end1[k];
    int64_t j = (int64_t)(x * (double)ns[k].ns);
    return ns[k].base + (j < ns[k].ns ? j : ns[k].ns - 1);
}

/* Path distance of x on section k from the root section's middle. */
static double pos_on(const i3sec *sec, const nsec_t *ns, int64_t k, double x)
{
    return sec[k].parent < 0 ? fabs(x - 0.5) * ns[k].L : ns[k].d0 + x * ns[k].L;
}

hb_status hb__morph_cell_neuron(const hb_morph *morph, const hb_discretize_options *o,
                                const hb_cable *cab, const char *fn, hb_morph_cell **out)
{
    i3pts p;
    HB_FORWARD(pts_load(morph, fn, &p));
    int64_t n = p.n, nsec = 0, nodes = 0, nzero = 0, nedge = 0, kept = 0;
    hb_status st = HB_SUCCESS;
    i3sec *sec = hb__calloc_n(n, sizeof *sec);
    nsec_t *ns = hb__calloc_n(n, sizeof *ns);
    int64_t *sec_of = hb__malloc_n(n, sizeof *sec_of), *end1 = hb__malloc_n(n, sizeof *end1);
    pt3d q = {hb__malloc_n(2 * n + 3, sizeof(float)), hb__malloc_n(2 * n + 3, sizeof(float)),
              hb__malloc_n(2 * n + 3, sizeof(float)), hb__malloc_n(2 * n + 3, sizeof(float)),
              hb__malloc_n(2 * n + 3, sizeof(double)), hb__malloc_n(2 * n + 3, sizeof(int64_t))};
    /* Per node: area, distance, type, source; per edge: ends and conductance. */
    double *area = NULL, *diam = NULL, *dist = NULL, *eg = NULL, *gin = NULL;
    int32_t *type = NULL;
    int64_t *src = NULL, *ea = NULL, *eb = NULL, *deg = NULL, *inc = NULL, *newid = NULL;
    int64_t *adj0 = NULL, *adj = NULL, *order = NULL, *par = NULL, *pedge = NULL;
    hb_morph_cell *c = NULL;
    if (!sec || !ns || !sec_of || !end1 || !q.x || !q.y || !q.z || !q.d || !q.arc || !q.smp) {
        st = hb__error(HB_ERR_OUT_OF_MEMORY, "%s: out of memory for %lld samples", fn,
                       (long long)n);
        goto done;
    }
    int soma3 = pts_mark(&p);
    nsec = make_sections(&p, soma3, sec, sec_of);

    /* 3-D points, lengths and nseg, counted against the cap before any
     * per-compartment array is allocated. */
    int64_t at = 0;
    double total = 0;
    for (int64_t k = 0; k < nsec; ++k) {
        if (!sec[k].alive)
            continue;
        ns[k].at = at;
        ns[k].m = section_pt3d(&p, &sec[k], &q, at);
        at += ns[k].m;
        ns[k].L = q.arc[at - 1];
        where_t w = where_of(morph, p.sorted[sec[k].last]);
        for (int64_t i = ns[k].at; i < at; ++i)
            if (!isfinite(q.x[i]) || !isfinite(q.y[i]) || !isfinite(q.z[i]) || !isfinite(q.d[i])) {
                st = hb__error(HB_ERR_INVALID_ARGUMENT, "%s: %s:%lld: sample %lld: the section "
                               "ending here has a coordinate or diameter beyond single precision "
                               "(NEURON stores 3-D points as floats)", fn, w.name, w.line, w.id);
                goto done;
            }
        if (!(ns[k].L > 0) || !isfinite(ns[k].L)) {
            st = hb__error(HB_ERR_INVALID_ARGUMENT, "%s: %s:%lld: sample %lld: the section ending "
                           "here is %g um long under NEURON's conventions (its 3-D points "
                           "coincide); NEURON cannot integrate it", fn, w.name, w.line, w.id,
                           ns[k].L);
            goto done;
        }
        double nk = o->nseg > 0        ? (double)o->nseg
                    : o->seg_length > 0 ? hb__nseg_per_length(ns[k].L, o->seg_length)
                                        : nseg_dlambda(&q, ns[k].at, ns[k].m, ns[k].L,
                                                       o->d_lambda, cab);
        if (!(nk <= (double)o->max_compartments - total)) {
            st = hb__error(HB_ERR_INVALID_ARGUMENT, "%s: %s:%lld: sample %lld: the section ending "
                           "here (%g um) takes the cell to %.15g compartments (%s %.15g), more "
                           "than opts.max_compartments = %lld", fn, w.name, w.line, w.id, ns[k].L,
                           total + nk, hb__nseg_rule(o), hb__nseg_rule_value(o),
                           (long long)o->max_compartments);
            goto done;
        }
        ns[k].ns = (int64_t)nk, ns[k].base = (int64_t)total;
        total += nk;
    }
    /* Nodes: the segments, then every section's 1 end, then the root's 0 end. */
    int64_t nseg_all = (int64_t)total;
    nodes = nseg_all;
    for (int64_t k = 0; k < nsec; ++k)
        if (sec[k].alive)
            end1[k] = nodes++;
    int64_t root0 = nodes++;
    nzero = nodes - nseg_all;
    area = hb__calloc_n(nodes, sizeof *area), dist = hb__calloc_n(nodes, sizeof *dist);
    diam = hb__calloc_n(nodes, sizeof *diam);
    type = hb__calloc_n(nodes, sizeof *type), src = hb__calloc_n(nodes, sizeof *src);
    ea = hb__malloc_n(nodes, sizeof *ea), eb = hb__malloc_n(nodes, sizeof *eb);
    eg = hb__malloc_n(nodes, sizeof *eg), gin = hb__malloc_n(nseg_all + 1, sizeof *gin);
    deg = hb__calloc_n(nodes, sizeof *deg), newid = hb__malloc_n(nodes, sizeof *newid);
    inc = hb__malloc_n(2 * nodes, sizeof *inc);
    if (!area || !diam || !dist || !type || !src || !ea || !eb || !eg || !gin || !deg || !newid || !inc) {
        st = hb__error(HB_ERR_OUT_OF_MEMORY, "%s: out of memory for %lld nodes", fn,
                       (long long)nodes);
        goto done;
    }
    /* Areas, the edges (segment to segment, and to the end nodes) and distances. */
    for (int64_t k = 0; k < nsec; ++k) {
        if (!sec[k].alive)
            continue;
        nsec_t *S = &ns[k];
        double gend;
        section_integrate(&q, S->at, S->m, S->ns, cab->ra, area + S->base, diam + S->base, gin,
                          &gend);
        if (sec[k].parent >= 0)
            S->d0 = pos_on(sec, ns, sec[k].parent, sec[k].px);
        int64_t pt = 0;
        for (int64_t j = 0; j < S->ns; ++j) {
            int64_t v = S->base + j;
            double x = ((double)j + 0.5) / (double)S->ns, mid = x * S->L;
            while (pt + 1 < S->m && q.arc[S->at + pt] < mid)
                ++pt;
            dist[v] = pos_on(sec, ns, k, x), type[v] = sec[k].type, src[v] = q.smp[S->at + pt];
            ea[nedge] = v, eg[nedge] = gin[j];
            eb[nedge++] = j > 0 ? v - 1
                                : (sec[k].parent < 0 ? root0
                                                     : join_node(sec, ns, sec[k].parent,
                                                                 sec[k].px, root0, end1));
        }
        ea[nedge] = end1[k], eb[nedge] = S->base + S->ns - 1, eg[nedge++] = gend;
        /* The end nodes (kept where three or more sections meet): no
         * segment, the 3-D diameter at the point. */
        dist[end1[k]] = pos_on(sec, ns, k, 1), type[end1[k]] = sec[k].type;
        diam[end1[k]] = fabs((double)q.d[S->at + S->m - 1]);
        src[end1[k]] = q.smp[S->at + S->m - 1];
        if (sec[k].parent < 0) {
            dist[root0] = pos_on(sec, ns, k, 0), type[root0] = sec[k].type;
            diam[root0] = fabs((double)q.d[S->at]);
            src[root0] = q.smp[S->at];
        }
    }
    /* Zero-area nodes: a node where NEURON has no capacitance and no membrane.
     * One neighbour (a tip, the soma's ends): its voltage follows that
     * neighbour and nothing flows; dropped. Two: its row gives its voltage
     * as the conductance-weighted mean of the two, so the two conductances
     * combine in series, exactly. Three or more (a branch point): eliminating
     * it would join the neighbours pairwise (a loop), so it stays as a node of
     * area 0: no capacitance, no channels, a row of axial conductances only,
     * which every solver takes (the rows around it carry C/dt). */
    for (int64_t e = 0; e < nedge; ++e)
        ++deg[ea[e]], ++deg[eb[e]];
    int64_t *ifill = newid; /* incident-edge lists of the zero-area nodes */
    for (int64_t z = 0; z < nzero; ++z)
        ifill[nseg_all + z] = 0;
    for (int64_t e = 0; e < nedge; ++e) {
        int64_t ends[2] = {ea[e], eb[e]};
        for (int t = 0; t < 2; ++t)
            if (ends[t] >= nseg_all && ifill[ends[t]] < 2)
                inc[2 * (ends[t] - nseg_all) + ifill[ends[t]]++] = e;
    }
    for (int64_t z = nseg_all; z < nodes; ++z) {
        if (deg[z] == 1) {
            int64_t e = inc[2 * (z - nseg_all)];
            eb[e] = -1; /* gone */
            deg[z] = 0;
        } else if (deg[z] == 2) {
            int64_t e1 = inc[2 * (z - nseg_all)], e2 = inc[2 * (z - nseg_all) + 1];
            int64_t a = ea[e1] == z ? eb[e1] : ea[e1], b = ea[e2] == z ? eb[e2] : ea[e2];
            ea[e1] = a, eb[e1] = b, eg[e1] = 1. / (1. / eg[e1] + 1. / eg[e2]);
            eb[e2] = -1;
            deg[z] = 0;
        }
    }
    for (int64_t v = 0; v < nodes; ++v)
        newid[v] = (v < nseg_all || deg[v] > 0) ? kept++ : -1;
    if (kept > o->max_compartments) {
        st = hb__error(HB_ERR_INVALID_ARGUMENT, "%s: %s: %lld compartments with NEURON's kept "
                       "zero-area nodes, more than opts.max_compartments = %lld", fn,
                       hb__morph_name(morph), (long long)kept, (long long)o->max_compartments);
        goto done;
    }
    /* Breadth-first from the root section's middle (NEURON's soma(0.5)). */
    adj0 = hb__calloc_n(kept + 1, sizeof *adj0), adj = hb__malloc_n(2 * kept, sizeof *adj);
    order = hb__malloc_n(kept, sizeof *order), par = hb__malloc_n(kept, sizeof *par);
    pedge = hb__malloc_n(kept, sizeof *pedge);
    c = hb__morph_cell_alloc(kept);
    if (!adj0 || !adj || !order || !par || !pedge || !c) {
        st = hb__error(HB_ERR_OUT_OF_MEMORY, "%s: out of memory for %lld compartments", fn,
                       (long long)kept);
        goto done;
    }
    for (int64_t e = 0; e < nedge; ++e)
        if (eb[e] >= 0)
            ++adj0[newid[ea[e]] + 1], ++adj0[newid[eb[e]] + 1];
    for (int64_t v = 0; v < kept; ++v)
        adj0[v + 1] += adj0[v];
    for (int64_t v = 0; v < kept; ++v)
        par[v] = adj0[v]; /* fill cursor */
    for (int64_t e = 0; e < nedge; ++e)
        if (eb[e] >= 0)
            adj[par[newid[ea[e]]]++] = e, adj[par[newid[eb[e]]]++] = e;
    int64_t *old_of = hb__malloc_n(kept, sizeof *old_of);
    if (!old_of) {
        st = hb__error(HB_ERR_OUT_OF_MEMORY, "%s: out of memory", fn);
        goto done;
    }
    for (int64_t v = 0; v < nodes; ++v)
        if (newid[v] >= 0)
            old_of[newid[v]] = v;
    int64_t rootsec = 0;
    while (!sec[rootsec].alive)
        ++rootsec;
    int64_t root = newid[join_node(sec, ns, rootsec, 0.5, root0, end1)];
    for (int64_t v = 0; v < kept; ++v)
        par[v] = -2;
    int64_t head = 0, tail = 0;
    order[tail++] = root, par[root] = -1, pedge[root] = -1;
    while (head < tail) {
        int64_t v = order[head++];
        for (int64_t a = adj0[v]; a < adj0[v + 1]; ++a) {
            int64_t e = adj[a], w = newid[ea[e]] == v ? newid[eb[e]] : newid[ea[e]];
            if (par[w] != -2)
                continue;
            par[w] = v, pedge[w] = e, order[tail++] = w;
        }
    }
    if (tail != kept) { /* cannot happen: the sections form one tree */
        free(old_of);
        st = hb__error(HB_ERR_INVALID_TREE, "%s: internal error: %lld of %lld compartments "
                       "reached", fn, (long long)tail, (long long)kept);
        goto done;
    }
    for (int64_t i = 0; i < kept; ++i) /* position of each node in BFS order */
        adj[order[i]] = i;
    for (int64_t i = 0; i < kept; ++i) {
        int64_t v = order[i], old = old_of[v];
        c->parent[i] = par[v] < 0 ? -1 : (int32_t)adj[par[v]];
        c->g[i] = par[v] < 0 ? 0.0 : eg[pedge[v]];
        c->area[i] = area[old], c->diam[i] = diam[old], c->dist[i] = dist[old];
        c->type[i] = type[old];
        c->source[i] = src[old];
    }
    free(old_of);
done:
    pts_free(&p);
    free(sec), free(ns), free(sec_of), free(end1);
    free(q.x), free(q.y), free(q.z), free(q.d), free(q.arc), free(q.smp);
    free(area), free(diam), free(dist), free(type), free(src), free(ea), free(eb), free(eg);
    free(gin), free(deg), free(newid), free(inc), free(adj0), free(adj), free(order), free(par);
    free(pedge);
    if (st != HB_SUCCESS) {
        hb_morph_cell_destroy(c);
        return st;
    }
    *out = c;
    return HB_SUCCESS;
}
