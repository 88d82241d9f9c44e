/* branches.c: cuts Hines systems into branches, groups them by level (and by work-group for the fine tree), lays them out. */
#include "hb_internal.h"

#include <stdlib.h>
#include <string.h>

/* Branches of one tree, computed in one ascending pass (parent < child, so no
 * recursion): row i starts a branch when it is the root, when its parent has
 * several children, or when the parent's branch reached split_length. */
typedef struct {
    int64_t n, nb;
    int32_t *bid, *bj;      /* per row: local branch and index in it          */
    int64_t *head, *blen;   /* per local branch                               */
    int32_t *level;
} tree_cut;

static void cut_free(tree_cut *t)
{
    free(t->bid);
    free(t->bj);
    free(t->head);
    free(t->blen);
    free(t->level);
}

static hb_status cut_tree(const int32_t *par, int64_t n, int64_t split, tree_cut *t)
{
    memset(t, 0, sizeof *t);
    t->n = n;
    int32_t *nch = calloc((size_t)n, sizeof *nch);
    t->bid = malloc((size_t)n * sizeof *t->bid);
    t->bj = malloc((size_t)n * sizeof *t->bj);
    t->head = malloc((size_t)n * sizeof *t->head);
    t->blen = malloc((size_t)n * sizeof *t->blen);
    t->level = malloc((size_t)n * sizeof *t->level);
    if (!nch || !t->bid || !t->bj || !t->head || !t->blen || !t->level) {
        free(nch);
        cut_free(t);
        return hb__error(HB_ERR_OUT_OF_MEMORY, "branch decomposition of %lld rows", (long long)n);
    }
    for (int64_t i = 1; i < n; ++i)
        nch[par[i]]++;
    for (int64_t i = 0; i < n; ++i) {
        int64_t p = i > 0 ? par[i] : -1;
        int starts = p < 0 || nch[p] != 1 || (split > 0 && t->bj[p] + 1 >= split);
        if (starts) {
            int64_t b = t->nb++;
            t->bid[i] = (int32_t)b;
            t->bj[i] = 0;
            t->head[b] = i;
            t->blen[b] = 1;
            t->level[b] = p < 0 ? 0 : t->level[t->bid[p]] + 1;
        } else {
            t->bid[i] = t->bid[p];
            t->bj[i] = t->bj[p] + 1;
            t->blen[t->bid[p]]++;
        }
    }
    free(nch);
    return HB_SUCCESS;
}

typedef struct {
    int64_t group, level, len, sys, local;
} br_rec;

static int rec_cmp(const void *x, const void *y)
{
    const br_rec *a = x, *b = y;
    if (a->group != b->group)
        return a->group < b->group ? -1 : 1;
    if (a->level != b->level)
        return a->level < b->level ? -1 : 1;
    if (a->len != b->len)
        return a->len > b->len ? -1 : 1; /* longest first: a chunk pads to its first */
    if (a->sys != b->sys)
        return a->sys < b->sys ? -1 : 1;
    return (a->local > b->local) - (a->local < b->local);
}

/* Lanes of one interleaved chunk of a segment: a warp, so that neighbouring
 * work-items read neighbouring addresses. */
#define HB_BRANCH_CHUNK 32

void hb__branches_free(hb_plan *plan)
{
    hb_branch_dev *br = &plan->br;
    hb_buffer *bufs[] = {br->pos0, br->bstride, br->len,     br->ppos,  br->chptr,
                         br->chidx, br->seg_ptr, br->grp_ptr, br->rowmap};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; ++i)
        if (bufs[i])
            plan->ctx->ops->release(plan->ctx, bufs[i]);
    free(br->host_seg_ptr);
    free(br->host_grp_ptr);
    free(plan->host_rowmap);
    plan->host_rowmap = NULL;
    memset(br, 0, sizeof *br);
}

static hb_status upload(hb_plan *plan, hb_buffer **buf, const void *src, size_t bytes)
{
    hb_context *ctx = plan->ctx;
    hb_status st = ctx->ops->alloc(ctx, bytes ? bytes : 8, buf);
    if (st == HB_SUCCESS && bytes)
        st = ctx->ops->write(ctx, plan->stream, *buf, 0, src, bytes);
    return st;
}

hb_status hb__branches_build(hb_plan *plan, const int32_t *parent, const hb_branch_options *o)
{
    const int64_t nsys = plan->nsys;
    const int mono = plan->mono;
    const int64_t ntrees = mono ? 1 : nsys;
    hb_status st = HB_SUCCESS;
    tree_cut *cuts = calloc((size_t)ntrees, sizeof *cuts);
    int64_t *sys_off = malloc((size_t)(nsys + 1) * sizeof *sys_off); /* first branch of s */
    if (!cuts || !sys_off) {
        free(cuts);
        free(sys_off);
        return hb__error(HB_ERR_OUT_OF_MEMORY, "branch tables for %lld systems", (long long)nsys);
    }
#define ROW0(s) (plan->offsets ? plan->offsets[s] : (s) * plan->n_uniform)
#define NROWS(s) (plan->offsets ? plan->offsets[(s) + 1] - plan->offsets[s] : plan->n_uniform)
#define CUT(s) (&cuts[mono ? 0 : (s)])
    for (int64_t t = 0; t < ntrees && st == HB_SUCCESS; ++t)
        st = cut_tree(parent + ROW0(t), NROWS(t), o->split_length, &cuts[t]);
    br_rec *rec = NULL;
    int64_t *rank = NULL, *pos0 = NULL, *bst = NULL, *blen = NULL, *ppos = NULL;
    int64_t *chptr = NULL, *chidx = NULL, *seg = NULL, *grp = NULL, *rowmap = NULL;
    int64_t nbr = 0;
    if (st != HB_SUCCESS)
        goto done;
    sys_off[0] = 0;
    for (int64_t s = 0; s < nsys; ++s)
        sys_off[s + 1] = sys_off[s] + CUT(s)->nb;
    nbr = sys_off[nsys];
    rec = malloc((size_t)nbr * sizeof *rec);
    rank = malloc((size_t)nbr * sizeof *rank);
    if (!rec || !rank) {
        st = hb__error(HB_ERR_OUT_OF_MEMORY, "%lld branch records", (long long)nbr);
        goto done;
    }
    /* Fine tree: pack whole cells greedily into groups while every level's
     * branch count stays within the group size. */
    int64_t maxlev = 0;
    for (int64_t t = 0; t < ntrees; ++t)
        for (int64_t b = 0; b < cuts[t].nb; ++b)
            if (cuts[t].level[b] > maxlev)
                maxlev = cuts[t].level[b];
    int64_t *fill = calloc((size_t)maxlev + 1, sizeof *fill);
    int64_t *mine = calloc((size_t)maxlev + 1, sizeof *mine);
    if (!fill || !mine) {
        free(fill);
        free(mine);
        st = hb__error(HB_ERR_OUT_OF_MEMORY, "level histograms");
        goto done;
    }
    int64_t group = 0, in_group = 0;
    for (int64_t s = 0; s < nsys; ++s) {
        const tree_cut *c = CUT(s);
        if (o->group_size > 0) {
            memset(mine, 0, (size_t)(maxlev + 1) * sizeof *mine);
            for (int64_t b = 0; b < c->nb; ++b)
                mine[c->level[b]]++;
            int fits = 1;
            for (int64_t L = 0; L <= maxlev && fits; ++L)
                fits = fill[L] + mine[L] <= o->group_size;
            if (!fits && in_group > 0) {
                ++group;
                in_group = 0;
                memset(fill, 0, (size_t)(maxlev + 1) * sizeof *fill);
            }
            for (int64_t L = 0; L <= maxlev; ++L)
                fill[L] += mine[L];
            ++in_group;
        }
        for (int64_t b = 0; b < c->nb; ++b)
            rec[sys_off[s] + b] = (br_rec){group, c->level[b], c->blen[b], s, b};
    }
    free(fill);
    free(mine);
    const int64_t ngroups = nsys > 0 ? group + 1 : 0;
    qsort(rec, (size_t)nbr, sizeof *rec, rec_cmp);
    for (int64_t b = 0; b < nbr; ++b)
        rank[sys_off[rec[b].sys] + rec[b].local] = b;

    pos0 = malloc((size_t)nbr * sizeof *pos0);
    bst = malloc((size_t)nbr * sizeof *bst);
    blen = malloc((size_t)nbr * sizeof *blen);
    ppos = malloc((size_t)nbr * sizeof *ppos);
    chptr = calloc((size_t)nbr + 1, sizeof *chptr);
    chidx = malloc((size_t)(nbr > 0 ? nbr : 1) * sizeof *chidx);
    seg = malloc((size_t)(nbr + 1) * sizeof *seg);
    grp = malloc((size_t)(nbr + 1) * sizeof *grp);
    rowmap = malloc((size_t)(plan->nrows > 0 ? plan->nrows : 1) * sizeof *rowmap);
    if (!pos0 || !bst || !blen || !ppos || !chptr || !chidx || !seg || !grp || !rowmap) {
        st = hb__error(HB_ERR_OUT_OF_MEMORY, "branch layout of %lld branches", (long long)nbr);
        goto done;
    }
    /* Segments (one level of one group) and groups, then positions: each
     * segment is cut into chunks of HB_BRANCH_CHUNK branches, interleaved and
     * padded to the chunk's longest (first) branch. */
    int64_t nseg = 0, off = 0, maxseg = 0;
    grp[0] = 0;
    for (int64_t b = 0; b < nbr; ++b) {
        if (b == 0 || rec[b].group != rec[b - 1].group || rec[b].level != rec[b - 1].level) {
            if (b > 0 && rec[b].group != rec[b - 1].group)
                grp[rec[b].group] = nseg;
            seg[nseg++] = b;
        }
        blen[b] = rec[b].len;
    }
    seg[nseg] = nbr;
    grp[ngroups] = nseg;
    for (int64_t sgi = 0; sgi < nseg; ++sgi) {
        int64_t lo = seg[sgi], hi = seg[sgi + 1];
        if (hi - lo > maxseg)
            maxseg = hi - lo;
        for (int64_t c0 = lo; c0 < hi; c0 += HB_BRANCH_CHUNK) {
            int64_t w = hi - c0 < HB_BRANCH_CHUNK ? hi - c0 : HB_BRANCH_CHUNK;
            for (int64_t b = c0; b < c0 + w; ++b) {
                pos0[b] = off + (b - c0);
                bst[b] = w;
            }
            off += w * blen[c0];
        }
    }
    /* Row map, parent positions and child lists. */
    for (int64_t s = 0; s < nsys; ++s) {
        const tree_cut *c = CUT(s);
        int64_t r0 = ROW0(s);
        for (int64_t i = 0; i < c->n; ++i) {
            int64_t b = rank[sys_off[s] + c->bid[i]];
            rowmap[r0 + i] = pos0[b] + (int64_t)c->bj[i] * bst[b];
        }
    }
    for (int64_t s = 0; s < nsys; ++s) {
        const tree_cut *c = CUT(s);
        const int32_t *par = parent + (mono ? 0 : ROW0(s));
        int64_t r0 = ROW0(s);
        for (int64_t lb = 0; lb < c->nb; ++lb) {
            int64_t b = rank[sys_off[s] + lb], h = c->head[lb];
            ppos[b] = h == 0 ? -1 : rowmap[r0 + par[h]];
            if (h != 0)
                chptr[rank[sys_off[s] + c->bid[par[h]]] + 1]++;
        }
    }
    for (int64_t b = 0; b < nbr; ++b)
        chptr[b + 1] += chptr[b];
    {
        /* Children in ascending branch order: a fixed order of the junction
         * updates makes the result deterministic. */
        int64_t *next = malloc((size_t)(nbr > 0 ? nbr : 1) * sizeof *next);
        int64_t *owner = malloc((size_t)(nbr > 0 ? nbr : 1) * sizeof *owner);
        if (!next || !owner) {
            free(next);
            free(owner);
            st = hb__error(HB_ERR_OUT_OF_MEMORY, "child lists");
            goto done;
        }
        for (int64_t b = 0; b < nbr; ++b) {
            next[b] = chptr[b];
            owner[b] = -1;
        }
        for (int64_t s = 0; s < nsys; ++s) {
            const tree_cut *c = CUT(s);
            const int32_t *par = parent + (mono ? 0 : ROW0(s));
            for (int64_t lb = 0; lb < c->nb; ++lb)
                if (c->head[lb] != 0)
                    owner[rank[sys_off[s] + lb]] = rank[sys_off[s] + c->bid[par[c->head[lb]]]];
        }
        for (int64_t b = 0; b < nbr; ++b)
            if (owner[b] >= 0)
                chidx[next[owner[b]]++] = b;
        free(next);
        free(owner);
    }
    hb_branch_dev *br = &plan->br;
    br->nbranches = nbr;
    br->nsegments = nseg;
    br->ngroups = ngroups;
    br->length = off;
    br->nrows = plan->nrows;
    br->max_seg_branches = maxseg;
    br->group_size = o->group_size;
    br->host_seg_ptr = seg;
    br->host_grp_ptr = grp;
    plan->host_rowmap = rowmap;
    seg = grp = rowmap = NULL;
    size_t nb8 = (size_t)nbr * sizeof(int64_t);
    if ((st = upload(plan, &br->pos0, pos0, nb8)) || (st = upload(plan, &br->bstride, bst, nb8)) ||
        (st = upload(plan, &br->len, blen, nb8)) || (st = upload(plan, &br->ppos, ppos, nb8)) ||
        (st = upload(plan, &br->chptr, chptr, nb8 + sizeof(int64_t))) ||
        (st = upload(plan, &br->chidx, chidx, (size_t)chptr[nbr] * sizeof(int64_t))) ||
        (st = upload(plan, &br->seg_ptr, br->host_seg_ptr, (size_t)(nseg + 1) * sizeof(int64_t))) ||
        (st = upload(plan, &br->grp_ptr, br->host_grp_ptr,
                     (size_t)(ngroups + 1) * sizeof(int64_t))) ||
        (st = upload(plan, &br->rowmap, plan->host_rowmap,
                     (size_t)plan->nrows * sizeof(int64_t))))
        goto done;
done:
#undef ROW0
#undef NROWS
#undef CUT
    for (int64_t t = 0; t < ntrees; ++t)
        cut_free(&cuts[t]);
    free(cuts);
    free(sys_off);
    free(rec);
    free(rank);
    free(pos0);
    free(bst);
    free(blen);
    free(ppos);
    free(chptr);
    free(chidx);
    free(seg);
    free(grp);
    free(rowmap);
    return st;
}
