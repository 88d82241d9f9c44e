/* morph_swc.c: SWC reader: parse, check, sort parents before children, recognise the soma. */
#include "hb_error.h"
#include "hinesbatch_morph.h"
#include "morph_internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct hb_morph {
    int64_t n;
    int64_t *id, *parent, *line; /* sorted order; parent as an index */
    int32_t *type;
    double *x, *y, *z, *r;
    hb_morph_info info;
    char *name; /* for the messages of later steps (morph_cell.c) */
};

/* Raw samples as read, in file order. */
typedef struct {
    int64_t n, cap;
    int64_t *id, *pid, *line;
    int32_t *type;
    double *x, *y, *z, *r;
} swc_raw;

static void raw_free(swc_raw *w)
{
    free(w->id), free(w->pid), free(w->line), free(w->type);
    free(w->x), free(w->y), free(w->z), free(w->r);
}

static int raw_grow(swc_raw *w)
{
    int64_t cap = 0;
    if (!hb__mul_i64(w->cap ? w->cap : 512, 2, &cap))
        return 0;
#define HB_GROW(f)                                                     \
    do {                                                               \
        size_t b_;                                                     \
        if (!hb__mul_size((size_t)cap, sizeof *w->f, &b_) ||           \
            b_ > (size_t)PTRDIFF_MAX)                                  \
            return 0;                                                  \
        void *p_ = realloc(w->f, b_);                                  \
        if (!p_)                                                       \
            return 0;                                                  \
        w->f = p_;                                                     \
    } while (0)
    HB_GROW(id);
    HB_GROW(pid);
    HB_GROW(line);
    HB_GROW(type);
    HB_GROW(x);
    HB_GROW(y);
    HB_GROW(z);
    HB_GROW(r);
#undef HB_GROW
    w->cap = cap;
    return 1;
}

void hb_swc_options_init(hb_swc_options *opts)
{
    if (opts) {
        opts->scale = 1.0;
        opts->repair_radii = 0;
    }
}

void hb_morph_destroy(hb_morph *m)
{
    if (!m)
        return;
    free(m->id), free(m->parent), free(m->line), free(m->type);
    free(m->x), free(m->y), free(m->z), free(m->r);
    free(m->name);
    free(m);
}

const char *hb__morph_name(const hb_morph *m)
{
    return m && m->name ? m->name : "<morphology>";
}

static int parse_int(const char *tok, int64_t *v)
{
    char *end;
    errno = 0;
    long long x = strtoll(tok, &end, 10);
    if (end == tok || *end || errno)
        return 0;
    *v = x;
    return 1;
}

static int parse_real(const char *tok, double *v)
{
    char *end;
    double x = strtod(tok, &end);
    if (end == tok || *end || !isfinite(x))
        return 0;
    *v = x;
    return 1;
}

static const char *column_name[7] = {"id", "type", "x", "y", "z", "radius", "parent"};

/* One data line (comment and line end already cut) into w; 1 = parsed or blank. */
static hb_status parse_line(swc_raw *w, char *s, int64_t lineno, const char *name, double scale)
{
    char *tok[8];
    int nt = 0;
    for (char *p = s; *p;) {
        while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\v' || *p == '\f')
            *p++ = '\0';
        if (!*p)
            break;
        if (nt < 8)
            tok[nt] = p;
        ++nt;
        while (*p && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\v' && *p != '\f')
            ++p;
    }
    if (nt == 0)
        return HB_SUCCESS;
    if (nt != 7)
        return hb__error(HB_ERR_PARSE, "%s:%lld: %d columns, an SWC sample has 7 "
                         "(id type x y z radius parent)", name, (long long)lineno, nt);
    if (w->n == w->cap && !raw_grow(w))
        return hb__error(HB_ERR_OUT_OF_MEMORY, "%s:%lld: out of memory", name, (long long)lineno);
    int64_t id, type, pid;
    double v[4];
    int bad = !parse_int(tok[0], &id) ? 0 : !parse_int(tok[1], &type) ? 1 : -1;
    for (int c = 0; bad < 0 && c < 4; ++c)
        if (!parse_real(tok[2 + c], &v[c]))
            bad = 2 + c;
    if (bad < 0 && !parse_int(tok[6], &pid))
        bad = 6;
    if (bad >= 0)
        return hb__error(HB_ERR_PARSE, "%s:%lld: cannot read column %d (%s) '%s' as %s", name,
                         (long long)lineno, bad + 1, column_name[bad], tok[bad],
                         bad == 0 || bad == 1 || bad == 6 ? "an integer" : "a finite number");
    if (id < 0)
        return hb__error(HB_ERR_PARSE, "%s:%lld: id %lld is negative", name, (long long)lineno,
                         (long long)id);
    if (type < 0 || type > INT32_MAX)
        return hb__error(HB_ERR_PARSE, "%s:%lld: type %lld is out of range", name,
                         (long long)lineno, (long long)type);
    if (pid < -1)
        return hb__error(HB_ERR_PARSE, "%s:%lld: parent %lld: must be -1 (root) or an id",
                         name, (long long)lineno, (long long)pid);
    /* Finite in the file is not enough: 1e300 times a scale of 1e10 is not. */
    for (int c = 0; c < 4; ++c)
        if (!isfinite(v[c] * scale))
            return hb__error(HB_ERR_PARSE, "%s:%lld: %s %g times scale %g is not finite", name,
                             (long long)lineno, column_name[2 + c], v[c], scale);
    int64_t k = w->n++;
    w->id[k] = id, w->pid[k] = pid, w->line[k] = lineno, w->type[k] = (int32_t)type;
    w->x[k] = v[0] * scale, w->y[k] = v[1] * scale, w->z[k] = v[2] * scale;
    w->r[k] = v[3] * scale;
    return HB_SUCCESS;
}

typedef struct {
    int64_t id, k;
} id_key;

static int cmp_id(const void *a, const void *b)
{
    const id_key *p = a, *q = b;
    if (p->id != q->id)
        return p->id < q->id ? -1 : 1;
    return p->k < q->k ? -1 : p->k > q->k;
}

static int64_t find_id(const id_key *keys, int64_t n, int64_t id)
{
    int64_t lo = 0, hi = n;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (keys[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && keys[lo].id == id ? keys[lo].k : -1;
}

/* Checks the tree of raw samples and builds the sorted morphology. */
static hb_status build(swc_raw *w, const char *name, int repair, hb_morph **out)
{
    int64_t n = w->n;
    if (n == 0)
        return hb__error(HB_ERR_PARSE, "%s: no samples", name);
    hb_status st = HB_SUCCESS;
    id_key *keys = hb__calloc_n(n, sizeof *keys);
    int64_t *pidx = hb__calloc_n(n, sizeof *pidx);
    int64_t *cstart = hb__calloc_n(n + 1, sizeof *cstart);
    int64_t *child = hb__calloc_n(n, sizeof *child);
    int64_t *order = hb__calloc_n(n, sizeof *order);
    int64_t *pos = hb__calloc_n(n, sizeof *pos);
    hb_morph *m = calloc(1, sizeof *m);
    size_t name_len = strlen(name);
    if (m)
        m->name = malloc(name_len + 1);
    if (!keys || !pidx || !cstart || !child || !order || !pos || !m || !m->name) {
        st = hb__error(HB_ERR_OUT_OF_MEMORY, "%s: out of memory for %lld samples", name,
                       (long long)n);
        goto done;
    }
    memcpy(m->name, name, name_len + 1);
    for (int64_t k = 0; k < n; ++k)
        keys[k].id = w->id[k], keys[k].k = k;
    qsort(keys, (size_t)n, sizeof *keys, cmp_id);
    for (int64_t k = 1; k < n; ++k)
        if (keys[k].id == keys[k - 1].id) {
            st = hb__error(HB_ERR_PARSE, "%s:%lld: duplicate id %lld (first at line %lld)", name,
                           (long long)w->line[keys[k].k], (long long)keys[k].id,
                           (long long)w->line[keys[k - 1].k]);
            goto done;
        }
    int64_t root = -1;
    for (int64_t k = 0; k < n; ++k) {
        if (w->pid[k] == -1) {
            if (root >= 0) {
                st = hb__error(HB_ERR_PARSE, "%s:%lld: a second root (parent -1; the first is "
                               "at line %lld): one tree per file", name, (long long)w->line[k],
                               (long long)w->line[root]);
                goto done;
            }
            root = k;
            pidx[k] = -1;
            continue;
        }
        pidx[k] = find_id(keys, n, w->pid[k]);
        if (pidx[k] < 0) {
            st = hb__error(HB_ERR_PARSE, "%s:%lld: parent %lld of sample %lld is not in the file",
                           name, (long long)w->line[k], (long long)w->pid[k], (long long)w->id[k]);
            goto done;
        }
        ++cstart[pidx[k] + 1];
    }
    if (root < 0) {
        /* Every sample has a parent: the parent links must close a cycle. */
        int64_t k = 0;
        for (int64_t step = 0; step < n; ++step)
            k = pidx[k]; /* after n steps we are on the cycle */
        st = hb__error(HB_ERR_PARSE, "%s:%lld: no root (parent -1): sample %lld lies on a cycle "
                       "of parents", name, (long long)w->line[k], (long long)w->id[k]);
        goto done;
    }
    for (int64_t k = 0; k < n; ++k)
        cstart[k + 1] += cstart[k];
    {
        int64_t *fill = pos; /* reused as a cursor */
        memcpy(fill, cstart, (size_t)n * sizeof *fill);
        for (int64_t k = 0; k < n; ++k)
            if (pidx[k] >= 0)
                child[fill[pidx[k]]++] = k;
    }
    /* Pre-order walk with an explicit stack (no recursion), children in file
     * order: parents precede children and each unbranched run stays together. */
    int64_t cnt = 0, sp = 0;
    int64_t *stack = pos; /* free again; holds at most n entries */
    stack[sp++] = root;
    while (sp > 0) {
        int64_t k = stack[--sp];
        order[cnt++] = k;
        for (int64_t c = cstart[k + 1]; c-- > cstart[k];)
            stack[sp++] = child[c];
    }
    if (cnt < n) {
        /* Unreached samples hang from a cycle; walk up from the first one. */
        char *seen = hb__calloc_n(n, 1);
        for (int64_t c = 0; c < cnt; ++c)
            pidx[order[c]] = -2; /* reached: mark */
        int64_t k = 0;
        while (pidx[k] == -2)
            ++k;
        if (seen)
            while (!seen[k])
                seen[k] = 1, k = pidx[k];
        free(seen);
        st = hb__error(HB_ERR_PARSE, "%s:%lld: sample %lld lies on a cycle of parents "
                       "(not connected to the root)", name, (long long)w->line[k],
                       (long long)w->id[k]);
        goto done;
    }
    for (int64_t c = 0; c < n; ++c)
        pos[order[c]] = c;
    if (!repair)
        for (int64_t k = 0; k < n; ++k)
            if (!(w->r[k] > 0)) {
                st = hb__error(HB_ERR_PARSE, "%s:%lld: radius %g of sample %lld is not positive "
                               "(hb_swc_options.repair_radii takes the parent's)", name,
                               (long long)w->line[k], w->r[k], (long long)w->id[k]);
                goto done;
            }
    m->n = n;
    m->id = hb__calloc_n(n, sizeof *m->id);
    m->parent = hb__calloc_n(n, sizeof *m->parent);
    m->line = hb__calloc_n(n, sizeof *m->line);
    m->type = hb__calloc_n(n, sizeof *m->type);
    m->x = hb__calloc_n(n, sizeof *m->x);
    m->y = hb__calloc_n(n, sizeof *m->y);
    m->z = hb__calloc_n(n, sizeof *m->z);
    m->r = hb__calloc_n(n, sizeof *m->r);
    if (!m->id || !m->parent || !m->line || !m->type || !m->x || !m->y || !m->z || !m->r) {
        st = hb__error(HB_ERR_OUT_OF_MEMORY, "%s: out of memory", name);
        goto done;
    }
    for (int64_t c = 0; c < n; ++c) {
        int64_t k = order[c];
        m->id[c] = w->id[k], m->line[c] = w->line[k], m->type[c] = w->type[k];
        m->parent[c] = c == 0 ? -1 : pos[pidx[k]];
        m->x[c] = w->x[k], m->y[c] = w->y[k], m->z[c] = w->z[k], m->r[c] = w->r[k];
    }
    if (!(m->r[0] > 0)) {
        double best = INFINITY;
        for (int64_t c = cstart[root]; c < cstart[root + 1]; ++c)
            if (w->r[child[c]] > 0 && w->r[child[c]] < best)
                best = w->r[child[c]];
        if (!isfinite(best)) {
            st = hb__error(HB_ERR_PARSE, "%s:%lld: radius %g of the root is not positive and no "
                           "child has a positive radius to repair it with", name,
                           (long long)m->line[0], m->r[0]);
            goto done;
        }
        m->r[0] = best, ++m->info.repaired;
    }
    for (int64_t c = 1; c < n; ++c)
        if (!(m->r[c] > 0))
            m->r[c] = m->r[m->parent[c]], ++m->info.repaired;

    /* Soma: sphere for one point or NeuroMorpho's three points. */
    m->info.samples = n;
    m->info.soma = HB_SOMA_NONE;
    int64_t three_a = -1, three_b = -1;
    if (m->type[0] == 1) {
        int64_t soma_children = 0, tips = 0, a = -1, b = -1;
        for (int64_t c = cstart[root]; c < cstart[root + 1]; ++c) {
            int64_t k = child[c];
            if (w->type[k] != 1)
                continue;
            ++soma_children;
            if (cstart[k + 1] == cstart[k]) {
                ++tips;
                if (a < 0)
                    a = pos[k];
                else
                    b = pos[k];
            }
        }
        if (soma_children == 0) {
            m->info.soma = HB_SOMA_SINGLE_POINT;
        } else if (soma_children == 2 && tips == 2) {
            double r0 = m->r[0], ok = 1;
            double sx = 0, sy = 0, sz = 0;
            int64_t ab[2] = {a, b};
            for (int j = 0; j < 2; ++j) {
                int64_t k = ab[j];
                double dx = m->x[k] - m->x[0], dy = m->y[k] - m->y[0], dz = m->z[k] - m->z[0];
                double dist = sqrt(dx * dx + dy * dy + dz * dz);
                sx += dx, sy += dy, sz += dz;
                if (fabs(m->r[k] - r0) > 0.01 * r0 || fabs(dist - r0) > 0.05 * r0)
                    ok = 0;
            }
            /* The two points sit on opposite sides of the centre. */
            if (ok && sqrt(sx * sx + sy * sy + sz * sz) <= 0.1 * r0)
                m->info.soma = HB_SOMA_THREE_POINT, three_a = a, three_b = b;
            else
                m->info.soma = HB_SOMA_SAMPLES;
        } else {
            m->info.soma = HB_SOMA_SAMPLES;
        }
        if (m->info.soma == HB_SOMA_SINGLE_POINT || m->info.soma == HB_SOMA_THREE_POINT)
            m->info.soma_radius = m->r[0];
    }
    for (int64_t c = 1; c < n; ++c) {
        if (c == three_a || c == three_b)
            continue;
        int64_t p = m->parent[c];
        double dx = m->x[c] - m->x[p], dy = m->y[c] - m->y[p], dz = m->z[c] - m->z[p];
        double len = sqrt(dx * dx + dy * dy + dz * dz);
        /* Every later length, area and conductance derives from these. */
        if (!isfinite(len)) {
            st = hb__error(HB_ERR_PARSE, "%s:%lld: the segment from sample %lld to its parent %lld "
                           "has a length that is not finite (%g um)", name, (long long)m->line[c],
                           (long long)m->id[c], (long long)m->id[p], len);
            goto done;
        }
        m->info.total_length += len;
    }
    if (!isfinite(m->info.total_length)) {
        st = hb__error(HB_ERR_PARSE, "%s: the total length of the segments is not finite", name);
        goto done;
    }
done:
    free(keys), free(pidx), free(cstart), free(child), free(order), free(pos);
    if (st != HB_SUCCESS) {
        hb_morph_destroy(m);
        return st;
    }
    *out = m;
    return HB_SUCCESS;
}

hb_status hb_morph_parse_swc(const char *text, size_t len, const char *name,
                             const hb_swc_options *opts, hb_morph **morph)
{
    if (!name)
        name = "<string>";
    if (!morph)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "hb_morph_parse_swc: morph is NULL");
    if (!text && len > 0)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "hb_morph_parse_swc: text is NULL");
    hb_swc_options o;
    hb_swc_options_init(&o);
    if (opts)
        o = *opts;
    if (!(o.scale > 0) || !isfinite(o.scale))
        return hb__error(HB_ERR_INVALID_ARGUMENT, "hb_morph_parse_swc: opts.scale = %g, must be "
                         "positive and finite", o.scale);
    swc_raw w = {0};
    char *buf = NULL;
    size_t bcap = 0;
    hb_status st = HB_SUCCESS;
    int64_t lineno = 0;
    size_t i = 0;
    while (i < len && st == HB_SUCCESS) {
        size_t j = i;
        while (j < len && text[j] != '\n')
            ++j;
        ++lineno;
        size_t ll = j - i;
        if (ll + 1 > bcap) {
            char *nb = realloc(buf, ll + 1);
            if (!nb) {
                st = hb__error(HB_ERR_OUT_OF_MEMORY, "%s:%lld: out of memory", name,
                               (long long)lineno);
                break;
            }
            buf = nb, bcap = ll + 1;
        }
        memcpy(buf, text + i, ll);
        buf[ll] = '\0';
        char *hash = memchr(buf, '#', ll);
        if (hash)
            *hash = '\0';
        if (strlen(buf) != (hash ? (size_t)(hash - buf) : ll))
            st = hb__error(HB_ERR_PARSE, "%s:%lld: NUL byte in the line", name, (long long)lineno);
        else
            st = parse_line(&w, buf, lineno, name, o.scale);
        i = j + 1;
    }
    free(buf);
    if (st == HB_SUCCESS)
        st = build(&w, name, o.repair_radii, morph);
    raw_free(&w);
    return st;
}

hb_status hb_morph_read_swc(const char *path, const hb_swc_options *opts, hb_morph **morph)
{
    if (!path || !morph)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "hb_morph_read_swc: %s is NULL",
                         !path ? "path" : "morph");
    FILE *f = fopen(path, "rb");
    if (!f)
        return hb__error(HB_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    char *text = NULL;
    size_t len = 0, cap = 0;
    /* A NUL byte outside a comment makes its line an error whatever follows
     * (hb_morph_parse_swc stops at the first bad line): reading ends there,
     * so /dev/zero, a binary stream or a pipe of garbage is refused at its
     * first block instead of filling memory. */
    int in_comment = 0;
    for (int stop = 0; !stop;) {
        if (len == cap) {
            char *nt = hb__mul_size(cap ? cap : 32768, 2, &cap) && cap <= (size_t)PTRDIFF_MAX
                           ? realloc(text, cap) : NULL;
            if (!nt) {
                free(text), fclose(f);
                return hb__error(HB_ERR_OUT_OF_MEMORY, "%s: out of memory reading", path);
            }
            text = nt;
        }
        size_t got = fread(text + len, 1, cap - len, f);
        for (size_t i = len; i < len + got && !stop; ++i) {
            if (text[i] == '\n')
                in_comment = 0;
            else if (text[i] == '#')
                in_comment = 1;
            else if (text[i] == '\0' && !in_comment)
                stop = 1, got = i + 1 - len; /* keep through the NUL: the parser names it */
        }
        len += got;
        if (got == 0)
            break;
    }
    int err = ferror(f);
    fclose(f);
    if (err) {
        free(text);
        return hb__error(HB_ERR_IO, "%s: read error", path);
    }
    hb_status st = hb_morph_parse_swc(text, len, path, opts, morph);
    free(text);
    return st;
}

hb_status hb_morph_get_info(const hb_morph *m, hb_morph_info *info)
{
    if (!m || !info)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "hb_morph_get_info: %s is NULL",
                         !m ? "morph" : "info");
    *info = m->info;
    return HB_SUCCESS;
}

hb_status hb_morph_sample(const hb_morph *m, int64_t k, hb_swc_sample *s)
{
    if (!m || !s)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "hb_morph_sample: %s is NULL",
                         !m ? "morph" : "sample");
    if (k < 0 || k >= m->n)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "hb_morph_sample: k = %lld outside [0, %lld)",
                         (long long)k, (long long)m->n);
    s->id = m->id[k], s->type = m->type[k], s->parent = m->parent[k], s->line = m->line[k];
    s->x = m->x[k], s->y = m->y[k], s->z = m->z[k], s->radius = m->r[k];
    return HB_SUCCESS;
}
