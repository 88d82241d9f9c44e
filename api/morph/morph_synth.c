/* morph_synth.c: synthetic neurons: the paper's levels, Arbor's random branching, branchiness. */
#include "hb_error.h"
#include "hinesbatch_morph.h"

#include <math.h>
#include <stdlib.h>

void hb_synth_geometry_init(hb_synth_geometry *g)
{
    if (g) {
        g->length = 10.0;
        g->diam = 1.0;
        hb_cable_init(&g->cable);
    }
}

static uint64_t rng_next(uint64_t *s)
{ /* splitmix64: seedable and identical on every platform */
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static double rng_unit(uint64_t *s) { return (double)(rng_next(s) >> 11) * 0x1.0p-53; }
static int64_t rng_below(uint64_t *s, int64_t n) { return (int64_t)(rng_next(s) % (uint64_t)n); }

/* Branches, breadth-first: bparent[b] = parent branch (-1 for the root),
 * blen[b] = nodes. Writes the node parent array (branch after branch, so it
 * is already in the branch-contiguous Hines order) and makes the cell. */
static hb_status cell_from_branches(int64_t nb, const int64_t *bparent, const int64_t *blen,
                                    const hb_synth_geometry *geometry, const char *fn,
                                    hb_morph_cell **cell)
{
    hb_synth_geometry g;
    hb_synth_geometry_init(&g);
    if (geometry)
        g = *geometry;
    int64_t n = 0;
    for (int64_t b = 0; b < nb && n <= INT32_MAX; ++b)
        n += blen[b]; /* each blen <= 2^31: stops before it could overflow */
    if (n > INT32_MAX)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: %lld nodes, more than 2^31-1", fn,
                         (long long)n);
    /* A lower bound of the cell (parent, area, axial conductance, distance,
     * type per node), refused before the nodes are written. */
    hb_status mst = hb__host_check((uint64_t)n * 32, fn);
    if (mst != HB_SUCCESS)
        return hb__error(mst, "%s (a cell of %lld nodes)", hb_last_error(), (long long)n);
    int32_t *parent = hb__calloc_n(n, sizeof *parent);
    int64_t *last = hb__calloc_n(nb, sizeof *last);
    if (!parent || !last) {
        free(parent), free(last);
        return hb__error(HB_ERR_OUT_OF_MEMORY, "%s: out of memory for %lld nodes", fn,
                         (long long)n);
    }
    int64_t k = 0;
    for (int64_t b = 0; b < nb; ++b) {
        for (int64_t i = 0; i < blen[b]; ++i, ++k)
            parent[k] = (int32_t)(i ? k - 1 : bparent[b] < 0 ? -1 : last[bparent[b]]);
        last[b] = k - 1;
    }
    hb_status st = hb_morph_cell_from_parent(n, parent, g.length, g.diam, &g.cable, cell);
    free(parent), free(last);
    return st;
}

hb_status hb_morph_synth_levels(int64_t n, int32_t levels, const hb_synth_geometry *geometry,
                                hb_morph_cell **cell)
{
    const char *fn = "hb_morph_synth_levels";
    if (!cell)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: cell is NULL", fn);
    if (levels < 1 || levels > 30)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: levels = %d outside [1, 30]", fn,
                         (int)levels);
    /* Level totals: (n/2)/D nodes each, D = max(levels-1, 4) (the paper's 512/4 example). */
    int64_t D = levels - 1 > 4 ? levels - 1 : 4;
    int64_t nmin = levels > 1 ? ((int64_t)1 << levels) * D : 1;
    if (n < nmin || n > INT32_MAX)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: n = %lld: %d levels need %lld <= n < 2^31",
                         fn, (long long)n, (int)levels, (long long)nmin);
    int64_t nb = ((int64_t)1 << levels) - 1;
    int64_t *bparent = hb__calloc_n(nb, sizeof *bparent), *blen = hb__calloc_n(nb, sizeof *blen);
    if (!bparent || !blen) {
        free(bparent), free(blen);
        return hb__error(HB_ERR_OUT_OF_MEMORY, "%s: out of memory", fn);
    }
    /* Branch b (heap numbering) is on level floor(log2(b+1)) + 1; its parent is (b-1)/2. */
    int64_t used = 0;
    for (int64_t b = 0; b < nb; ++b) {
        int j = 1;
        while (((int64_t)1 << j) <= b + 1)
            ++j;
        bparent[b] = b ? (b - 1) / 2 : -1;
        blen[b] = levels == 1 ? n : b == 0 ? n / 2 : (n / 2) / (((int64_t)1 << (j - 1)) * D);
        used += blen[b];
    }
    /* What the halving pattern leaves over goes to the last level's branches. */
    int64_t first_tip = ((int64_t)1 << (levels - 1)) - 1, ntips = nb - first_tip;
    int64_t left = n - used;
    for (int64_t t = 0; t < ntips && levels > 1; ++t)
        blen[first_tip + t] += left / ntips + (t < left % ntips);
    hb_status st = cell_from_branches(nb, bparent, blen, geometry, fn, cell);
    free(bparent), free(blen);
    return st;
}

hb_status hb_morph_synth_random(const hb_synth_random_params *p, const hb_synth_geometry *geometry,
                                hb_morph_cell **cell)
{
    const char *fn = "hb_morph_synth_random";
    if (!p || !cell)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: %s is NULL", fn, !p ? "params" : "cell");
    if (p->levels < 1 || p->levels > 30)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: levels = %d outside [1, 30]", fn,
                         (int)p->levels);
    if (!(p->p_start >= 0 && p->p_start <= 1 && p->p_end >= 0 && p->p_end <= 1))
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: p_start = %g, p_end = %g must be in [0, 1]",
                         fn, p->p_start, p->p_end);
    if (!(p->len_start > 0) || !(p->len_end > 0) || !isfinite(p->len_start) ||
        !isfinite(p->len_end))
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: len_start = %g, len_end = %g must be "
                         "positive and finite", fn, p->len_start, p->len_end);
    hb_synth_geometry g;
    hb_synth_geometry_init(&g);
    if (geometry)
        g = *geometry;
    if (!(g.length > 0) || !isfinite(g.length))
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: geometry length = %g", fn, g.length);
    uint64_t rng = p->seed;
    int64_t cap = 64, nb = 1, nodes = 0;
    int64_t *bparent = hb__calloc_n(cap, sizeof *bparent), *blen = hb__calloc_n(cap, sizeof *blen);
    int32_t *blev = hb__calloc_n(cap, sizeof *blev);
    hb_status st = HB_SUCCESS;
    if (!bparent || !blen || !blev)
        st = hb__error(HB_ERR_OUT_OF_MEMORY, "%s: out of memory", fn);
    if (st == HB_SUCCESS)
        bparent[0] = -1, blev[0] = 1;
    /* Branches breadth-first: the queue is the branch array itself. */
    for (int64_t b = 0; b < nb && st == HB_SUCCESS; ++b) {
        int j = blev[b];
        double t = p->levels > 1 ? (double)(j - 1) / (p->levels - 1) : 0.0;
        double len = p->len_start + (p->len_end - p->len_start) * t;
        double pb = p->p_start + (p->p_end - p->p_start) * t;
        /* Compared as a double first: llround of a value past int64 is unspecified. */
        double mlen = len / g.length;
        int64_t m = mlen <= INT32_MAX ? (int64_t)llround(mlen) : (int64_t)INT32_MAX + 1;
        blen[b] = m < 1 ? 1 : m;
        nodes += blen[b];
        if (nodes > INT32_MAX) {
            st = hb__error(HB_ERR_INVALID_ARGUMENT, "%s: the cell grows past 2^31-1 nodes", fn);
            break;
        }
        if (j < p->levels && rng_unit(&rng) < pb) {
            if (nb + 2 > cap) {
                cap *= 2; /* nb <= nodes <= 2^31: no overflow, nor in the sizes below */
                int64_t *a = realloc(bparent, (size_t)cap * sizeof *a);
                if (a)
                    bparent = a;
                int64_t *c = realloc(blen, (size_t)cap * sizeof *c);
                if (c)
                    blen = c;
                int32_t *d = realloc(blev, (size_t)cap * sizeof *d);
                if (d)
                    blev = d;
                if (!a || !c || !d) {
                    st = hb__error(HB_ERR_OUT_OF_MEMORY, "%s: out of memory", fn);
                    break;
                }
            }
            for (int i = 0; i < 2; ++i, ++nb)
                bparent[nb] = b, blev[nb] = j + 1;
        }
    }
    if (st == HB_SUCCESS)
        st = cell_from_branches(nb, bparent, blen, &g, fn, cell);
    free(bparent), free(blen), free(blev);
    return st;
}

hb_status hb_morph_synth_branchy(int64_t n, double percent, uint64_t seed,
                                 const hb_synth_geometry *geometry, hb_morph_cell **cell)
{
    const char *fn = "hb_morph_synth_branchy";
    if (!cell)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: cell is NULL", fn);
    if (n < 1 || n > INT32_MAX)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: n = %lld outside [1, 2^31)", fn,
                         (long long)n);
    if (!(percent >= 0 && percent <= 100))
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: percent = %g outside [0, 100]", fn, percent);
    int64_t B = (int64_t)llround(percent / 100.0 * (double)n), nb = 2 * B + 1;
    if (nb > n)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: %lld branch points need 2*%lld+1 = %lld "
                         "branches, more than n = %lld nodes (percent <= ~50)", fn, (long long)B,
                         (long long)B, (long long)nb, (long long)n);
    /* The branch tables (7 per branch) and the cell (32 bytes a node at
     * least), refused before they are filled. */
    hb_status mst = hb__host_check(hb__add_sat(hb__mul_sat((uint64_t)nb, 7 * sizeof(int64_t)),
                                                hb__mul_sat((uint64_t)n, 32)),
                                    fn);
    if (mst != HB_SUCCESS)
        return hb__error(mst, "%s (a cell of %lld nodes, %lld branches)", hb_last_error(),
                         (long long)n, (long long)nb);
    uint64_t rng = seed;
    /* Random binary branch tree: B times split a random leaf branch in two. */
    int64_t *tparent = hb__calloc_n(nb, sizeof *tparent); /* in creation order */
    int64_t *leaves = hb__calloc_n(nb, sizeof *leaves);
    int64_t *c0 = hb__calloc_n(nb, sizeof *c0), *len = hb__calloc_n(nb, sizeof *len);
    int64_t *bparent = hb__calloc_n(nb, sizeof *bparent), *blen = hb__calloc_n(nb, sizeof *blen);
    int64_t *map = hb__calloc_n(nb, sizeof *map);
    hb_status st = HB_SUCCESS;
    if (!tparent || !leaves || !c0 || !len || !bparent || !blen || !map) {
        st = hb__error(HB_ERR_OUT_OF_MEMORY, "%s: out of memory", fn);
        goto done;
    }
    int64_t made = 1, nleaves = 1;
    tparent[0] = -1, leaves[0] = 0, c0[0] = -1;
    for (int64_t i = 0; i < B; ++i) {
        int64_t li = rng_below(&rng, nleaves), b = leaves[li];
        c0[b] = made;
        tparent[made] = b, c0[made] = -1, leaves[li] = made++;
        tparent[made] = b, c0[made] = -1, leaves[nleaves++] = made++;
    }
    /* Every branch gets one node, the rest go to branches drawn at random. */
    for (int64_t b = 0; b < nb; ++b)
        len[b] = 1;
    for (int64_t k = nb; k < n; ++k)
        ++len[rng_below(&rng, nb)];
    /* Breadth-first branch order (children are made in pairs c0, c0+1). */
    int64_t head = 0, tail = 0;
    map[tail++] = 0;
    while (head < tail) {
        int64_t b = map[head++];
        if (c0[b] >= 0)
            map[tail++] = c0[b], map[tail++] = c0[b] + 1;
    }
    for (int64_t i = 0; i < nb; ++i)
        leaves[map[i]] = i; /* leaves reused: creation index -> BFS index */
    for (int64_t i = 0; i < nb; ++i) {
        int64_t b = map[i];
        bparent[i] = tparent[b] < 0 ? -1 : leaves[tparent[b]];
        blen[i] = len[b];
    }
    st = cell_from_branches(nb, bparent, blen, geometry, fn, cell);
done:
    free(tparent), free(leaves), free(c0), free(len), free(bparent), free(blen), free(map);
    return st;
}
