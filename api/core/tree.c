/* tree.c: the rules of trees in one place: branches and levels, the root of least depth, breadth-first renumbering. */
#include "hb_tree.h"

#include <stdlib.h>
#include <string.h>

void hb__tree_cut_free(hb__tree_cut *t)
{
    free(t->nchild), free(t->bid), free(t->bj), free(t->head), free(t->blen), free(t->level);
    memset(t, 0, sizeof *t); /* freeing twice is then harmless */
}

/* One ascending pass (parent < child, so no recursion): node i starts a
 * branch when it is the root, when its parent's children say so, or when
 * limit (per level of the earlier cut ref, or NULL) is reached by the
 * parent's branch. */
static hb_status cut_pass(const int32_t *par, int64_t n, hb__depth depth, const int64_t *limit,
                          const hb__tree_cut *ref, hb__tree_cut *t)
{
    memset(t, 0, sizeof *t);
    t->n = n;
    int64_t *nch = t->nchild = hb__calloc_n(n, sizeof *nch);
    t->bid = hb__calloc_n(n, sizeof *t->bid);
    t->bj = hb__calloc_n(n, sizeof *t->bj);
    t->head = hb__calloc_n(n, sizeof *t->head);
    t->blen = hb__calloc_n(n, sizeof *t->blen);
    t->level = hb__calloc_n(n, sizeof *t->level);
    if (!nch || !t->bid || !t->bj || !t->head || !t->blen || !t->level) {
        hb__tree_cut_free(t);
        return hb__error(HB_ERR_OUT_OF_MEMORY, "branch decomposition of %lld rows", (long long)n);
    }
    for (int64_t i = 1; i < n; ++i)
        nch[par[i]]++;
    for (int64_t i = 0; i < n; ++i) {
        int64_t p = i > 0 ? par[i] : -1;
        int starts = p < 0 || hb__tree_starts_branch(nch[p], depth) ||
                     (limit && t->bj[p] + 1 >= limit[ref->level[ref->bid[p]]]);
        if (starts) {
            int64_t b = t->nb++;
            t->bid[i] = (int32_t)b;
            t->bj[i] = 0;
            t->head[b] = i;
            t->blen[b] = 1;
            t->level[b] = p < 0 ? 0 : t->level[t->bid[p]] + 1;
            if (t->level[b] + 1 > t->nlev)
                t->nlev = t->level[b] + 1;
        } else {
            t->bid[i] = t->bid[p];
            t->bj[i] = t->bj[p] + 1;
            t->blen[t->bid[p]]++;
        }
    }
    return HB_SUCCESS;
}

hb_status hb__tree_cut_make(const int32_t *par, int64_t n, hb__depth depth, int split,
                            hb__tree_cut *cut)
{
    HB_FORWARD(cut_pass(par, n, depth, NULL, NULL, cut));
    if (!split)
        return HB_SUCCESS;
    hb__tree_cut ref = *cut; /* the unsplit cut gives each level's average */
    memset(cut, 0, sizeof *cut);
    int64_t nlev = ref.nlev;
    int64_t *sum = hb__calloc_n(nlev, sizeof *sum), *cnt = hb__calloc_n(nlev, sizeof *cnt);
    if (!sum || !cnt) {
        free(sum), free(cnt), hb__tree_cut_free(&ref);
        return hb__error(HB_ERR_OUT_OF_MEMORY, "branch splitting");
    }
    for (int64_t b = 0; b < ref.nb; ++b)
        sum[ref.level[b]] += ref.blen[b], cnt[ref.level[b]]++;
    for (int64_t L = 0; L < nlev; ++L) /* limit = ceil(average), at least 1 */
        sum[L] = cnt[L] ? (sum[L] + cnt[L] - 1) / cnt[L] : 1;
    hb_status st = cut_pass(par, n, depth, sum, &ref, cut);
    hb__tree_cut_free(&ref);
    free(sum), free(cnt);
    return st;
}

/* Along the path from a root r to a tip, a level starts below r when r's
 * deg(r) children say so, and below every inner node p when its deg(p) - 1
 * children do, whatever the orientation. So the depth from r is r's weight as
 * root plus the heaviest path leaving r, counting inner nodes' weights: a
 * node-weighted eccentricity, found for every r by one pass down and one up
 * the original tree (iterative: parent < child). */
hb_status hb__tree_best_root(const int32_t *par, int64_t n, hb__depth depth, hb__root_rule rule,
                             int64_t *root)
{
    *root = 0;
    if (n <= 2)
        return HB_SUCCESS;
    int64_t n6 = 0;
    int64_t *w = hb__mul_i64(n, 6, &n6) ? hb__calloc_n(n6, sizeof *w) : NULL;
    if (!w)
        return hb__error(HB_ERR_OUT_OF_MEMORY, "re-rooting a tree of %lld rows", (long long)n);
    /* far: the heaviest path leaving each node, its own weight excluded (the
     * down pass keeps there the heaviest path into each subtree);
     * b1, b2, arg: the two heaviest paths down through a child, and that
     * child; up: the heaviest path from v up through its parent. */
    int64_t *deg = w, *far = w + n, *b1 = w + 2 * n, *b2 = w + 3 * n, *arg = w + 4 * n,
            *up = w + 5 * n;
#define AS_ROOT(v) hb__tree_starts_branch(deg[v], depth)
#define INNER(v) hb__tree_starts_branch(deg[v] - 1, depth)
    for (int64_t v = 1; v < n; ++v)
        deg[v]++, deg[par[v]]++;
    for (int64_t v = 0; v < n; ++v)
        b1[v] = b2[v] = -1, arg[v] = -1;
    for (int64_t v = n - 1; v >= 1; --v) {
        /* h: from v's parent down through v to its heaviest tip, v counted
         * when it is not itself the tip. */
        int64_t p = par[v], h = deg[v] > 1 ? INNER(v) + far[v] : 0;
        if (h > far[p])
            far[p] = h;
        if (h > b1[p])
            b2[p] = b1[p], b1[p] = h, arg[p] = v;
        else if (h > b2[p])
            b2[p] = h;
    }
    up[0] = -1;
    for (int64_t v = 1; v < n; ++v) {
        int64_t p = par[v];
        int64_t sib = arg[p] == v ? b2[p] : b1[p];
        int64_t best = p != 0 && up[p] > sib ? up[p] : sib;
        up[v] = best < 0 ? 0 : INNER(p) + best; /* best < 0: p is a tip seen from v */
    }
    for (int64_t v = 0; v < n; ++v) {
        int64_t m = b1[v] > up[v] ? b1[v] : up[v];
        far[v] = m < 0 ? 0 : m;
    }
    if (rule == HB__ROOT_FIRST) {
        int64_t best = -1;
        for (int64_t r = 0; r < n; ++r)
            if (best < 0 || AS_ROOT(r) + far[r] < best)
                best = AS_ROOT(r) + far[r], *root = r;
    } else {
        /* Nodes whose weight is the same as root and as inner node end a
         * level whichever root is chosen; among them far + 1 is the
         * eccentricity in the tree of those nodes alone, so the least far is
         * that tree's centre: one node, or two neighbours, of which the one
         * nearer node n-1 (hops, reusing b2). This is the centre that
         * hb_morph_cell_reroot found by two breadth-first sweeps, the first
         * from n-1, and it is always among the shallowest roots (the tests
         * compare it with every root). */
        int64_t *hops = b2, c = -1;
        for (int64_t v = 0; v < n; ++v)
            hops[v] = -1;
        for (int64_t v = n - 1, k = 0; v >= 0; v = par[v])
            hops[v] = k++; /* n-1's ancestors, 0 last */
        for (int64_t v = 1; v < n; ++v)
            if (hops[v] < 0)
                hops[v] = hops[par[v]] + 1;
        for (int64_t v = 0; v < n; ++v)
            if (AS_ROOT(v) == INNER(v) &&
                (c < 0 || far[v] < far[c] || (far[v] == far[c] && hops[v] < hops[c])))
                c = v;
        if (AS_ROOT(c) + far[c] < AS_ROOT(0) + far[0])
            *root = c;
    }
#undef AS_ROOT
#undef INNER
    free(w);
    return HB_SUCCESS;
}

hb_status hb__tree_renumber(const int32_t *par, int64_t n, int64_t root, int32_t **perm_out,
                            int32_t **inv_out, int32_t **npar_out)
{
    /* Adjacency lists: start (n + 1), adj (2n), fill (n). */
    int64_t words = 0;
    int64_t *w = hb__mul_i64(n, 4, &words) ? hb__calloc_n(words + 1, sizeof *w) : NULL;
    int32_t *perm = hb__calloc_n(n, sizeof *perm), *inv = hb__calloc_n(n, sizeof *inv);
    int32_t *npar = hb__calloc_n(n, sizeof *npar);
    *perm_out = *inv_out = *npar_out = NULL;
    if (!w || !perm || !inv || !npar) {
        free(w), free(perm), free(inv), free(npar);
        return hb__error(HB_ERR_OUT_OF_MEMORY, "renumbering a tree of %lld rows", (long long)n);
    }
    int64_t *start = w, *adj = w + n + 1, *fill = w + 3 * n + 1;
    for (int64_t v = 1; v < n; ++v)
        start[v + 1]++, start[par[v] + 1]++;
    for (int64_t v = 0; v < n; ++v)
        start[v + 1] += start[v];
    for (int64_t v = 0; v < n; ++v)
        fill[v] = start[v], inv[v] = -1;
    for (int64_t v = 1; v < n; ++v) /* v's parent comes before its children */
        adj[fill[v]++] = par[v], adj[fill[par[v]]++] = v;
    int64_t head = 0, tail = 0;
    perm[tail++] = (int32_t)root;
    inv[root] = 0;
    npar[0] = -1;
    while (head < tail) {
        int64_t v = perm[head];
        for (int64_t e = start[v]; e < start[v + 1]; ++e) {
            int64_t u = adj[e];
            if (inv[u] < 0) {
                inv[u] = (int32_t)tail;
                npar[tail] = (int32_t)head;
                perm[tail++] = (int32_t)u;
            }
        }
        ++head;
    }
    free(w);
    *perm_out = perm, *inv_out = inv, *npar_out = npar;
    return HB_SUCCESS;
}
