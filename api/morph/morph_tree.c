/* morph_tree.c: tree statistics (branches, levels, tips) and the branch-contiguous Hines order, by the rules of hb_tree.h. */
#include "hb_error.h"
#include "hb_tree.h"
#include "hb_validate.h"
#include "hinesbatch_morph.h"

#include <stdlib.h>

static hb_status check(int64_t n, const int32_t *parent, const char *fn)
{
    if (!parent)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: parent is NULL", fn);
    if (n < 1 || n > INT32_MAX)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: n = %lld outside [1, 2^31)", fn,
                         (long long)n);
    return hb__check_tree(parent, n, 0);
}

/* Branches per level (0: the root's) into width[0 .. cap), cap >= cut->nlev. */
static void level_widths(const hb__tree_cut *cut, int64_t cap, int64_t *width)
{
    for (int64_t L = 0; L < cap; ++L)
        width[L] = 0;
    for (int64_t b = 0; b < cut->nb; ++b)
        width[cut->level[b]]++;
}

hb_status hb_morph_tree_stats(int64_t n, const int32_t *parent, hb_tree_stats *st)
{
    if (!st)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "hb_morph_tree_stats: stats is NULL");
    HB_FORWARD(check(n, parent, "hb_morph_tree_stats"));
    hb__tree_cut cut;
    HB_FORWARD(hb__tree_cut_make(parent, n, HB__DEPTH_BRANCHES, 0, &cut));
    int64_t *width = hb__calloc_n(cut.nlev, sizeof *width);
    if (!width) {
        hb__tree_cut_free(&cut);
        return hb__error(HB_ERR_OUT_OF_MEMORY, "hb_morph_tree_stats: out of memory");
    }
    level_widths(&cut, cut.nlev, width);
    hb_tree_stats s = {0};
    s.nodes = n;
    s.branches = cut.nb;
    s.levels = cut.nlev;
    for (int64_t k = 0; k < n; ++k) {
        s.branch_points += cut.nchild[k] >= 2;
        s.tips += cut.nchild[k] == 0;
    }
    for (int64_t b = 0; b < cut.nb; ++b)
        if (cut.blen[b] > s.longest_branch)
            s.longest_branch = cut.blen[b];
    for (int64_t L = 0; L < cut.nlev; ++L)
        if (width[L] > s.max_level_width)
            s.max_level_width = width[L];
    free(width);
    hb__tree_cut_free(&cut);
    *st = s;
    return HB_SUCCESS;
}

hb_status hb_morph_tree_level_counts(int64_t n, const int32_t *parent, int64_t cap,
                                     int64_t *counts)
{
    if (!counts)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "hb_morph_tree_level_counts: counts is NULL");
    HB_FORWARD(check(n, parent, "hb_morph_tree_level_counts"));
    hb__tree_cut cut;
    HB_FORWARD(hb__tree_cut_make(parent, n, HB__DEPTH_BRANCHES, 0, &cut));
    hb_status st = HB_SUCCESS;
    if (cap < cut.nlev)
        st = hb__error(HB_ERR_INVALID_ARGUMENT, "hb_morph_tree_level_counts: cap = %lld < %lld "
                       "levels", (long long)cap, (long long)cut.nlev);
    else
        level_widths(&cut, cap, counts);
    hb__tree_cut_free(&cut);
    return st;
}

hb_status hb_morph_tree_order(int64_t n, const int32_t *parent, int32_t *new_of_old,
                              int32_t *new_parent)
{
    if (!new_of_old || !new_parent)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "hb_morph_tree_order: %s is NULL",
                         !new_of_old ? "new_of_old" : "new_parent");
    HB_FORWARD(check(n, parent, "hb_morph_tree_order"));
    int64_t *cstart = hb__calloc_n(n + 1, sizeof *cstart);
    int64_t *child = hb__calloc_n(n, sizeof *child);
    int64_t *queue = hb__calloc_n(n, sizeof *queue);
    int32_t *map = hb__calloc_n(n, sizeof *map);
    if (!cstart || !child || !queue || !map) {
        free(cstart), free(child), free(queue), free(map);
        return hb__error(HB_ERR_OUT_OF_MEMORY, "hb_morph_tree_order: out of memory");
    }
    for (int64_t k = 1; k < n; ++k)
        ++cstart[parent[k] + 1];
    for (int64_t k = 0; k < n; ++k)
        cstart[k + 1] += cstart[k];
    for (int64_t k = 1; k < n; ++k)
        child[cstart[parent[k]]++] = k; /* cstart[p] now ends p's children */
    for (int64_t k = n; k > 0; --k)
        cstart[k] = cstart[k - 1];
    cstart[0] = 0;
    /* Branch heads breadth-first; each branch numbered down its run. */
    int64_t head = 0, tail = 0, next = 0;
    queue[tail++] = 0;
    while (head < tail) {
        int64_t v = queue[head++];
        for (;;) {
            map[v] = (int32_t)next++;
            int64_t nch = cstart[v + 1] - cstart[v];
            if (nch > 0 && !hb__tree_starts_branch(nch, HB__DEPTH_BRANCHES)) {
                v = child[cstart[v]];
                continue;
            }
            for (int64_t c = cstart[v]; c < cstart[v + 1]; ++c)
                queue[tail++] = child[c];
            break;
        }
    }
    /* Both outputs written only now, so input and output may not alias halfway. */
    for (int64_t k = 0; k < n; ++k)
        queue[map[k]] = parent[k] < 0 ? -1 : map[parent[k]];
    for (int64_t k = 0; k < n; ++k)
        new_parent[k] = (int32_t)queue[k], new_of_old[k] = map[k];
    free(cstart), free(child), free(queue), free(map);
    return HB_SUCCESS;
}
