/* hb_tree.h: the one place for the rules of trees: what a branch and a level are, the root of least depth, breadth-first renumbering; used by the core and morphology. */
#ifndef HB_TREE_H
#define HB_TREE_H

#include "hb_error.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* FNV-1a of n bytes, continuing from h: how tables of trees (the
 * cell-group schedules, the epoch's shared couplings) find equal ones. */
static inline uint64_t hb__fnv1a(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = (const unsigned char *)p;
    for (size_t i = 0; i < n; ++i)
        h = (h ^ b[i]) * 1099511628211u;
    return h;
}

/* Trees are parent arrays with parent[0] = -1 and parent[k] < k.
 *
 * What a level counts. A node opens a new level (starts a branch) when it is
 * the root or when the rule says so of its parent: for branches, a parent with
 * two or more children (a branch is a maximal run of only children); for
 * nodes, every parent (a level is then a node's depth). */
typedef enum { HB__DEPTH_BRANCHES = 0, HB__DEPTH_NODES } hb__depth;

/* Whether a child of a node with nchild children starts a branch. */
static inline int hb__tree_starts_branch(int64_t nchild, hb__depth depth)
{
    return depth == HB__DEPTH_NODES || nchild >= 2;
}

/* A tree cut into branches, numbered in the order of their heads. */
typedef struct {
    int64_t n, nb, nlev;  /* nodes, branches, levels                                */
    int64_t *nchild;      /* per node: children                                     */
    int32_t *bid, *bj;    /* per node: its branch, its index in the branch (0: head) */
    int64_t *head, *blen; /* per branch: first node, nodes                          */
    int32_t *level;       /* per branch: 0 for the root's, parent branch's + 1      */
} hb__tree_cut;

/* Cuts a tree (n >= 1) into branches in one ascending pass. split: branches
 * are also cut where they reach the ceiling of their level's average length
 * (in the unsplit cut), so a level's branches do similar work. */
hb_status hb__tree_cut_make(const int32_t *parent, int64_t n, hb__depth depth, int split,
                            hb__tree_cut *cut);
void hb__tree_cut_free(hb__tree_cut *cut); /* a zeroed cut is fine */

/* Which of several equally shallow roots to take: both measure the same
 * depth and keep root 0 when no root is strictly shallower; they differ only
 * among ties, and each caller's results rest on its own rule.
 * FIRST: the lowest-numbered shallowest node (the branch strategies' plans).
 * CENTRE: the centre of the nodes that end a level whichever root is chosen
 * (degree != 2 for branches, every node for nodes), nearer node n-1 when
 * there are two; taken only when shallower than root 0
 * (hb_morph_cell_reroot, docs/morphology.md). */
typedef enum { HB__ROOT_FIRST = 0, HB__ROOT_CENTRE } hb__root_rule;

/* The root of least depth (levels below it, as counted by depth), for every
 * candidate at once in two linear passes. *root is 0 for n <= 2. */
hb_status hb__tree_best_root(const int32_t *parent, int64_t n, hb__depth depth,
                             hb__root_rule rule, int64_t *root);

/* Renumbers the tree (n >= 1) breadth-first from root (neighbours: parent
 * first, then children in index order), so that parent < child holds again:
 * perm[new] = old, inv[old] = new, npar[new] = new parent (-1 at the root).
 * Allocates the three arrays of n entries; the caller frees them (on an
 * error they are NULL). */
hb_status hb__tree_renumber(const int32_t *parent, int64_t n, int64_t root, int32_t **perm,
                            int32_t **inv, int32_t **npar);

#ifdef __cplusplus
}
#endif
#endif /* HB_TREE_H */
