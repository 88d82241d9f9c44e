/* layout.c: the layout engine: slot order, per-system bases and padding for every layout. */
#include "hb_plan.h"

#include <stdlib.h>
#include <string.h>

void hb__layout_free(hb_layout_host *lay)
{
    free(lay->perm);
    free(lay->slot_of);
    free(lay->base);
    free(lay->rows);
    free(lay->nown);
    free(lay->flat);
    memset(lay, 0, sizeof *lay);
}

/* Sorts slots by size, longest first; ties keep system order so the layout
 * is deterministic. Merge sort on indices: O(n log n) for millions of systems. */
static void sort_by_size_desc(int64_t *idx, int64_t *tmp, const int64_t *size, int64_t n)
{
    for (int64_t width = 1; width < n; width *= 2) {
        for (int64_t lo = 0; lo < n; lo += 2 * width) {
            int64_t mid = lo + width < n ? lo + width : n;
            int64_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            int64_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                tmp[k++] = size[idx[j]] > size[idx[i]] ? idx[j++] : idx[i++];
            while (i < mid)
                tmp[k++] = idx[i++];
            while (j < hi)
                tmp[k++] = idx[j++];
        }
        memcpy(idx, tmp, (size_t)n * sizeof *idx);
    }
}

hb_status hb__layout_build(hb_layout_host *lay, hb_layout layout, int32_t block_size,
                           hb_padding padding, int64_t nsys, const int64_t *offsets,
                           int64_t n_uniform)
{
    memset(lay, 0, sizeof *lay);
    lay->layout = layout;
    lay->padding = padding;
    lay->nslots = nsys;
    size_t bytes;
    if (!hb__mul_size((size_t)(nsys > 0 ? nsys : 1), sizeof(int64_t), &bytes) ||
        bytes > (size_t)PTRDIFF_MAX)
        return hb__error(HB_ERR_OUT_OF_MEMORY, "layout tables: %lld systems do not fit in memory",
                         (long long)nsys);
    lay->perm = malloc(bytes);
    lay->slot_of = malloc(bytes);
    lay->base = malloc(bytes);
    lay->rows = malloc(bytes);
    lay->nown = malloc(bytes);
    lay->flat = malloc(bytes);
    int64_t *size = lay->nown; /* filled per system first, permuted below */
    if (!lay->perm || !lay->slot_of || !lay->base || !lay->rows || !lay->nown || !lay->flat) {
        hb__layout_free(lay);
        return hb__error(HB_ERR_OUT_OF_MEMORY, "layout tables: 6 x %zu bytes", bytes);
    }
    int64_t maxn = 0;
    for (int64_t s = 0; s < nsys; ++s) {
        size[s] = offsets ? offsets[s + 1] - offsets[s] : n_uniform;
        lay->flat[s] = offsets ? offsets[s] : s * n_uniform;
        lay->perm[s] = s;
        if (size[s] != size[0])
            lay->variable = 1;
        if (size[s] > maxn)
            maxn = size[s];
    }
    lay->max_rows = maxn;
    /* Interleaved variable batches are sorted so each block pads to its own
     * longest member and neighbouring threads finish together. */
    if (layout != HB_LAYOUT_FLAT && lay->variable) {
        int64_t *tmp = malloc(bytes);
        if (!tmp) {
            hb__layout_free(lay);
            return hb__error(HB_ERR_OUT_OF_MEMORY, "layout sort: %zu bytes", bytes);
        }
        sort_by_size_desc(lay->perm, tmp, size, nsys);
        /* Permute size and flat into slot order, using tmp and base as scratch. */
        for (int64_t t = 0; t < nsys; ++t) {
            tmp[t] = size[lay->perm[t]];
            lay->base[t] = lay->flat[lay->perm[t]];
        }
        memcpy(size, tmp, bytes);
        memcpy(lay->flat, lay->base, bytes);
        free(tmp);
        lay->sorted = 1;
    }
    for (int64_t t = 0; t < nsys; ++t)
        lay->slot_of[lay->perm[t]] = t;

    switch (layout) {
    case HB_LAYOUT_FLAT:
        lay->stride = 1;
        lay->block_size = 0;
        lay->length = nsys > 0 ? lay->flat[nsys - 1] + size[nsys - 1] : 0;
        for (int64_t t = 0; t < nsys; ++t) {
            lay->base[t] = lay->flat[t];
            lay->rows[t] = size[t];
        }
        break;
    case HB_LAYOUT_INTERLEAVED:
        lay->stride = nsys;
        lay->block_size = 0;
        if (maxn > 0 && nsys > INT64_MAX / maxn) {
            hb__layout_free(lay);
            return hb__error(HB_ERR_OUT_OF_MEMORY, "layout: %lld x %lld elements overflow",
                             (long long)nsys, (long long)maxn);
        }
        lay->length = nsys * maxn;
        for (int64_t t = 0; t < nsys; ++t) {
            lay->base[t] = t;
            lay->rows[t] = padding == HB_PADDING_COMPUTE ? maxn : size[t];
        }
        break;
    case HB_LAYOUT_BLOCK_INTERLEAVED:
    case HB_LAYOUT_BLOCK_SHARED: {
        if (block_size <= 0) {
            hb__layout_free(lay);
            return hb__error(HB_ERR_INVALID_ARGUMENT, "layout: block_size = %d must be > 0",
                             (int)block_size);
        }
        lay->block_size = block_size;
        lay->stride = block_size;
        int64_t off = 0;
        for (int64_t b0 = 0; b0 < nsys; b0 += block_size) {
            /* Sorted (or uniform), so the block's first slot is its longest. */
            int64_t bmax = size[b0];
            int64_t end = b0 + block_size < nsys ? b0 + block_size : nsys;
            for (int64_t t = b0; t < end; ++t) {
                lay->base[t] = off + (t - b0);
                lay->rows[t] = padding == HB_PADDING_COMPUTE ? bmax : size[t];
            }
            int64_t span;
            if (!hb__mul_i64(bmax, block_size, &span) || off > INT64_MAX - span) {
                hb__layout_free(lay);
                return hb__error(HB_ERR_OUT_OF_MEMORY,
                                 "layout: %lld systems in blocks of %d overflow the element count",
                                 (long long)nsys, (int)block_size);
            }
            off += span;
        }
        lay->length = off;
        break;
    }
    case HB_LAYOUT_AUTO:
    default:
        hb__layout_free(lay);
        return hb__error(HB_ERR_INVALID_ARGUMENT, "layout: %d is not a concrete hb_layout",
                         (int)layout);
    }
    return HB_SUCCESS;
}
