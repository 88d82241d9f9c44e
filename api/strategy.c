/* strategy.c: the AUTO strategy rule for Hines plans (see docs/strategies.md for the measurements behind it). */
#include "hb_internal.h"

hb_strategy hb__strategy_auto(const hb_context *ctx, int64_t nsys, int mono)
{
    /* CPUs: one system per core reads contiguous rows; branches only add
     * passes. Same tree everywhere: per-system threads take the same path and
     * read the shared parent array from cache, so the interleaved layout is
     * already coalesced. */
    if (!ctx->is_gpu || mono)
        return HB_STRATEGY_PER_SYSTEM;
    /* Different trees on a GPU: few cells cannot fill the device with one
     * thread per branch and level either, but the fine tree does it in one
     * launch; many cells fill it level by level with coalesced branches. */
    return nsys < HB_AUTO_FINE_TREE_BELOW ? HB_STRATEGY_FINE_TREE : HB_STRATEGY_BRANCH_LEVEL;
}
