/* morph_tree.c: tree statistics (branches, levels, tips) and the branch-contiguous Hines order. */
#include "hb_error.h"
#include "hb_validate.h"
#include "hinesbatch_morph.h"

#include <stdlib.h>
#include <string.h>

static hb_status check(int64_t n, const int32_t *parent, const char *fn)
{
    if (!parent)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: parent is NULL", fn);
    if (n < 1 || n > INT32_MAX)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "%s: n = %lld outside [1, 2^31)", fn,
                         (long long)n);
    return hb__check_tree(parent, n, 0);
}

/* Children per node. */
static int64_t *child_counts(int64_t n, const int32_t *parent)
{
    int64_t *nc = calloc((size_t)n, sizeof *nc);
    if (nc)
        for (int64_t k = 1; k < n; ++k)
            ++nc[parent[k]];
    return nc;
}

/* Level of each node (1 = the root's branch); a branch starts at the root and
 * at each child of a node with two or more children. */
static void node_levels(int64_t n, const int32_t *parent, const int64_t *nc, int64_t *level)
{
    level[0] = 1;
    for (int64_t k = 1; k < n; ++k)
        level[k] = level[parent[k]] + (nc[parent[k]] >= 2);
}

hb_status hb_morph_tree_stats(int64_t n, const int32_t *parent, hb_tree_stats *st)
{
    if (!st)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "hb_morph_tree_stats: stats is NULL");
    HB_FORWARD(check(n, parent, "hb_morph_tree_stats"));
    int64_t *nc = child_counts(n, parent);
    int64_t *level = malloc((size_t)n * sizeof *level);
    int64_t *blen = malloc((size_t)n * sizeof *blen); /* nodes so far in k's branch */
    if (!nc || !level || !blen) {
        free(nc), free(level), free(blen);
        return hb__error(HB_ERR_OUT_OF_MEMORY, "hb_morph_tree_stats: out of memory");
    }
    node_levels(n, parent, nc, level);
    hb_tree_stats s = {0};
    s.nodes = n;
    for (int64_t k = 0; k < n; ++k) {
        int start = k == 0 || nc[parent[k]] >= 2;
        blen[k] = start ? 1 : blen[parent[k]] + 1;
        s.branches += start;
        s.branch_points += nc[k] >= 2;
        s.tips += nc[k] == 0;
        if (level[k] > s.levels)
            s.levels = level[k];
        if (blen[k] > s.longest_branch)
            s.longest_branch = blen[k];
    }
    /* Widest level, counted on branch starts. */
    int64_t *width = calloc((size_t)s.levels + 1, sizeof *width);
    if (!width) {
        free(nc), free(level), free(blen);
        return hb__error(HB_ERR_OUT_OF_MEMORY, "hb_morph_tree_stats: out of memory");
    }
    for (int64_t k = 0; k < n; ++k)
        if (k == 0 || nc[parent[k]] >= 2)
            if (++width[level[k]] > s.max_level_width)
                s.max_level_width = width[level[k]];
    free(width), free(nc), free(level), free(blen);
    *st = s;
    return HB_SUCCESS;
}

hb_status hb_morph_tree_level_counts(int64_t n, const int32_t *parent, int64_t cap,
                                     int64_t *counts)
{
    if (!counts)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "hb_morph_tree_level_counts: counts is NULL");
    HB_FORWARD(check(n, parent, "hb_morph_tree_level_counts"));
    int64_t *nc = child_counts(n, parent);
    int64_t *level = malloc((size_t)n * sizeof *level);
    if (!nc || !level) {
        free(nc), free(level);
        return hb__error(HB_ERR_OUT_OF_MEMORY, "hb_morph_tree_level_counts: out of memory");
    }
    node_levels(n, parent, nc, level);
    int64_t levels = 0;
    for (int64_t k = 0; k < n; ++k)
        if (level[k] > levels)
            levels = level[k];
    hb_status st = HB_SUCCESS;
    if (cap < levels) {
        st = hb__error(HB_ERR_INVALID_ARGUMENT, "hb_morph_tree_level_counts: cap = %lld < %lld "
                       "levels", (long long)cap, (long long)levels);
    } else {
        memset(counts, 0, (size_t)cap * sizeof *counts);
        for (int64_t k = 0; k < n; ++k)
            if (k == 0 || nc[parent[k]] >= 2)
                ++counts[level[k] - 1];
    }
    free(nc), free(level);
    return st;
}

hb_status hb_morph_tree_order(int64_t n, const int32_t *parent, int32_t *new_of_old,
                              int32_t *new_parent)
{
    if (!new_of_old || !new_parent)
        return hb__error(HB_ERR_INVALID_ARGUMENT, "hb_morph_tree_order: %s is NULL",
                         !new_of_old ? "new_of_old" : "new_parent");
    HB_FORWARD(check(n, parent, "hb_morph_tree_order"));
    int64_t *cstart = calloc((size_t)n + 1, sizeof *cstart);
    int64_t *child = malloc((size_t)n * sizeof *child);
    int64_t *queue = malloc((size_t)n * sizeof *queue);
    int32_t *map = malloc((size_t)n * sizeof *map);
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
            if (nch == 1) {
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
