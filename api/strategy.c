/* strategy.c: the AUTO strategy rule for Hines plans (measurements behind it: docs/strategies.md). */
#include "hb_internal.h"

hb_strategy hb__strategy_auto(const hb_context *ctx, int64_t nsys, int64_t max_rows, int mono)
{
    /* CPUs: one system per core reads contiguous rows; the branch layouts only
     * add passes (measured 1.6-5x slower with OpenMP on 16 cores). */
    if (!ctx->is_gpu)
        return HB_STRATEGY_PER_SYSTEM;
    /* GPUs need on the order of 10^5 threads in flight to cover memory
     * latency. Few cells: one thread per cell leaves the device idle, and the
     * fine tree (one launch, a thread per branch) was fastest, shared tree or
     * not (1.5-2.3x faster than per-system on an H200 at 256-2,560 cells). */
    /* Tiny trees of one shape: a cell's whole solve is shorter than the
     * branch strategies' extra launches (4-row cells: per-system 1.8x faster
     * than either at 65,536 cells). */
    if (mono && max_rows < HB_AUTO_BRANCHES_FROM_ROWS)
        return HB_STRATEGY_PER_SYSTEM;
    if (nsys < HB_AUTO_FINE_TREE_BELOW)
        return HB_STRATEGY_FINE_TREE;
    /* Enough cells fill the device with per-system threads; one solve per
     * thread then beats the branch strategies' extra passes and launches, for
     * one shape (coalesced reads, shared parent array) and for a mix alike
     * (H200, 131,072 real mixed cells: per-system 7% faster, 256,000: 47%). */
    if (nsys >= HB_AUTO_PER_SYSTEM_FROM)
        return HB_STRATEGY_PER_SYSTEM;
    /* In between, a thread per branch of a level restores both parallelism
     * and coalescing. */
    return HB_STRATEGY_BRANCH_LEVEL;
}
