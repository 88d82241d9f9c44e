/* auto.c: every AUTO rule, keyed on device traits: layout, block size, strategy (docs/strategies.md) and the block-shared fit. */
#include "hb_plan.h"

/* GPUs want coalesced rows: interleaved for uniform batches, block-interleaved
 * (sorted, padded per block to its own longest member instead of the batch's
 * longest) for variable ones. CPUs run one system per core from their caches:
 * contiguous rows (flat). */
hb_layout hb__auto_layout(const hb_device_traits *dev, int uniform)
{
    if (!dev->is_gpu)
        return HB_LAYOUT_FLAT;
    return uniform ? HB_LAYOUT_INTERLEAVED : HB_LAYOUT_BLOCK_INTERLEAVED;
}

size_t hb__block_shared_bytes(const hb_context *ctx, const hb_layout_dev *lay, size_t esize,
                              size_t kernel_local, size_t kernel_max_group)
{
    const hb_device_traits *dev = &ctx->traits;
    /* One work-group per layout block: the layout must be made of blocks, and
     * a block must be one work-group. */
    if (lay->block_size <= 0 || lay->stride != lay->block_size || lay->nslots <= 0 ||
        (size_t)lay->block_size > kernel_max_group)
        return 0;
    size_t per_row, need;
    if (!hb__mul_size((size_t)lay->block_size, esize, &per_row) ||
        !hb__mul_size(per_row, (size_t)lay->max_rows, &need) || need > dev->local_mem ||
        kernel_local > dev->local_mem - need) {
        hb__log("block-shared: a block of %d x %lld rows does not fit on chip (%zu bytes of "
                "local memory); running block-interleaved",
                (int)lay->block_size, (long long)lay->max_rows, dev->local_mem);
        return 0;
    }
    return need;
}

/* Cells per compute unit below which cell-group beats per-system. A
 * per-system thread walks its cell's rows one after another: its time
 * followed the rows at about 1.95 us a row, whatever the tree, from 32,768
 * to 65,536 cells in both precisions. A cell-group solve costs a compute
 * unit about a + b x rows per cell when the device is full: double a 0.19
 * us, b 4.9 ns; float 0.22 us, 2.9 ns (44- and 728-row cells; H200,
 * docs/benchmarks/h200-2026-12-01-prof, call 3). The two meet at 1.95 us x
 * R / (a + b R) cells per unit: PER_UNIT x R / (R + ROWS), ROWS = a / b,
 * PER_UNIT set by the 728-row CA1 cell's measured crossing (384 in double,
 * 512 in float; docs/benchmarks/h200-2026-12-01-cellug, calls 3-4). A
 * one-threshold rule sent the 44-row cell to cell-group at 32,768 cells in
 * double (1.18x per-system's time) and 65,536 in float (2.0x), and the
 * 418- and 433-row cells at 65,536 in float (1.13x, 1.20x). */
int64_t hb__auto_cell_group_per_unit(int64_t max_rows, size_t esize)
{
    const int64_t t = esize == 4 ? HB_AUTO_CELL_GROUP_PER_UNIT_FLOAT : HB_AUTO_CELL_GROUP_PER_UNIT;
    const int64_t r0 = esize == 4 ? HB_AUTO_CELL_GROUP_ROWS_FLOAT : HB_AUTO_CELL_GROUP_ROWS;
    if (max_rows <= 0)
        return 0;
    if (max_rows > INT64_MAX / t - r0) /* t x R overflows long before: the asymptote */
        return t;
    return t * max_rows / (max_rows + r0);
}

/* AUTO's cost model: each strategy's solve time, in us, for a batch of n
 * copies of one tree on U compute units (m = n / U cells per unit).
 * Fitted on an H200 (132 SMs), 18 trees of 418-2,000 rows (five shipped
 * neurons, nine of gen_trees.py, four of the bench's synthetic kinds),
 * 16,384-65,536 cells in double and 32,768-65,536 in float
 * (docs/benchmarks/h200-2026-12-01-shape, call 1; fit.py there derives
 * these constants from the recorded times):
 *  - per-system: one thread walks its cell's rows, R (a + b m): a chain of
 *    dependent loads per row, slowed as the device fills (within 3%);
 *  - branch-level: two launches a level, each as long as its longest
 *    branch's walk, and the bytes of every row and branch: c Lb + d Cb +
 *    m (e R + f nb) (within 10%);
 *  - cell-group: waves of cells, each as long as its schedule's longest
 *    chain walk, trunk sweep and barriers (two a level), and the staging
 *    of every cell's rows: waves (g C + h nt + k Lc) + m (i + j R)
 *    (within 12% in double, 17% in float).
 * The fastest modelled strategy ran within 8% of the fastest forced one at
 * every point of the fit, and within 3% at 40 of 42 points of 15 trees
 * held out of it (call 2; the L5PC cell 1.09x and 1.14x at the other two,
 * the latter in float with constants fitted to waves from a 64-register
 * estimate; refitted to the library's own waves, as here, the float
 * model's choice is within 3% at all 14 float points of call 2, computed
 * from that call's recorded times, not run again).
 * The rule on rows alone (hb__auto_cell_group_per_unit) had sent a tree
 * whose schedule has 123 levels to cell-group at 16,384 cells, 3.3x
 * branch-level's time, and the L5PC cell, whose compute unit holds 6
 * cells in double, 1.2x (branch-level, never chosen for copies of one
 * cell, was fastest there). */
typedef struct {
    double ps_a, ps_b;                                   /* per-system: a, b        */
    double bl_lev, bl_path, bl_row, bl_branch;           /* branch-level: c, d, e, f */
    double cg_path, cg_trunk, cg_level, cg_cell, cg_row; /* cell-group: g, h, k, i, j */
} auto_model;
static const auto_model model_double = {1.681,  0.001113, 3.968,  1.357,  0.002371, 0.006974,
                                        0.1765, 0.1653,   0.4736, 0.4769, 0.001906};
static const auto_model model_float = {1.634,  0.0005842, 3.071,  1.121,  0.001615, 0.005799,
                                       0.1869, 0.139,     0.3698, 0.6036, 0.0009067};
/* Shared couplings: per-system moves 7 values a row where it moved 10
 * (H200, CA1 cells in double, shared / repeated: 1.09 / 1.43 ms at 32,768
 * cells, 1.24 / 1.62 at 65,536; docs/benchmarks/h200-2026-12-01-cellug,
 * call 3). Cell-group stages 2 arrays of rows where it staged 4, so a
 * compute unit holds more cells: the waves (from the backend's query for
 * the shared kernel) already say so. Scaling its time as well, by the 0.71
 * measured for CA1, sent 16,384 cells of levels:1024:6 to cell-group, 1.52x
 * per-system's time (h200-2026-12-01-shape, call 3); unscaled, the model
 * chose the faster of the two at all 8 points of that call. */
#define HB_AUTO_SHARED_PER_SYSTEM 0.76

void hb__auto_times(const hb_device_traits *dev, int64_t nsys, const hb_auto_shape *s,
                    size_t esize, int shared, hb_auto_times *t)
{
    const auto_model *k = esize == 4 ? &model_float : &model_double;
    const double units = dev->compute_units > 0 ? (double)dev->compute_units : 1.0;
    const double m = (double)nsys / units, R = (double)s->rows;
    t->per_system = R * (k->ps_a + k->ps_b * m) * (shared ? HB_AUTO_SHARED_PER_SYSTEM : 1.0);
    t->branch_level = -1.0;
    if (!shared && s->branches > 0)
        t->branch_level = k->bl_lev * (double)s->blevels + k->bl_path * (double)s->bpath +
                          m * (k->bl_row * R + k->bl_branch * (double)s->branches);
    t->cell_group = -1.0;
    if (s->waves > 0)
        t->cell_group = (double)s->waves * (k->cg_path * (double)s->cpath +
                                            k->cg_trunk * (double)s->trunk +
                                            k->cg_level * (double)s->clevels) +
                        m * (k->cg_cell + k->cg_row * R);
}

hb_strategy hb__auto_fastest(const hb_auto_times *t)
{
    hb_strategy best = HB_STRATEGY_PER_SYSTEM;
    double tb = t->per_system;
    if (t->branch_level >= 0 && t->branch_level < tb)
        best = HB_STRATEGY_BRANCH_LEVEL, tb = t->branch_level;
    if (t->cell_group >= 0 && t->cell_group < tb)
        best = HB_STRATEGY_CELL_GROUP;
    return best;
}

int hb__auto_candidates(const hb_auto_times *t, size_t esize, hb_strategy out[3])
{
    const double cg_err = esize == 4 ? HB_AUTO_ERR_CELL_GROUP_FLOAT : HB_AUTO_ERR_CELL_GROUP;
    const struct {
        hb_strategy s;
        double time, err;
    } all[3] = {{HB_STRATEGY_PER_SYSTEM, t->per_system, HB_AUTO_ERR_PER_SYSTEM},
                {HB_STRATEGY_BRANCH_LEVEL, t->branch_level, HB_AUTO_ERR_BRANCH_LEVEL},
                {HB_STRATEGY_CELL_GROUP, t->cell_group, cg_err}};
    const hb_strategy fastest = hb__auto_fastest(t);
    int f = 0;
    while (all[f].s != fastest)
        ++f;
    const double hi = all[f].time * (1 + all[f].err);
    int n = 0;
    out[n++] = fastest;
    /* The rest in order of modelled time (three entries: a pass per slot). */
    for (int k = 0; k < 2; ++k) {
        int pick = -1;
        for (int i = 0; i < 3; ++i) {
            int taken = 0;
            for (int j = 0; j < n; ++j)
                taken |= out[j] == all[i].s;
            if (!taken && all[i].time >= 0 && all[i].time * (1 - all[i].err) <= hi &&
                (pick < 0 || all[i].time < all[pick].time))
                pick = i;
        }
        if (pick < 0)
            break;
        out[n++] = all[pick].s;
    }
    return n;
}

hb_strategy hb__auto_strategy(const hb_device_traits *dev, int64_t nsys, int64_t max_rows, int mono,
                              int cell_ok, size_t esize)
{
    /* CPUs: one system per core reads contiguous rows; the branch layouts only
     * add passes (measured 1.6-5x slower with OpenMP on 16 cores). */
    if (!dev->is_gpu)
        return HB_STRATEGY_PER_SYSTEM;
    /* GPUs need on the order of 10^5 threads in flight to cover memory
     * latency. Few cells: one thread per cell leaves the device idle, and the
     * fine tree (one launch, a thread per branch) was fastest, shared tree or
     * not (1.5-2.3x faster than per-system on an H200 at 256-2,560 cells). */
    /* Tiny trees of one shape: a cell's whole solve is shorter than the
     * branch strategies' extra launches (4-row cells: per-system 1.8x faster
     * than either at 65,536 cells), and than a work-group's staging (H200,
     * 4,096 cells of 4 rows: per-system 0.014 ms, cell-group 0.016). From
     * some tens of rows cell-group wins again for few cells (44 rows, 4,096
     * cells: 0.027 against 0.071; docs/benchmarks/h200-2026-12-01-cellug,
     * call 5): the threshold lies between the two. */
    if (mono && max_rows < HB_AUTO_BRANCHES_FROM_ROWS)
        return HB_STRATEGY_PER_SYSTEM;
    /* Where the fine tree was best, one work-group per cell does the same
     * levels from local memory, one node per work-item (not one branch), with
     * no branch layout to convert: cell-group wherever a cell fits (H100,
     * docs/benchmarks/h100-2026-11-24-onchip: 2,560 CA1 cells 0.135 ms against
     * the fine tree's 0.247, 256 cells 0.047 against 0.200; at 25,600 cells
     * branch-level was ahead then, 0.66 against 0.79, before the cell-group
     * solver's later gains, below). */
    if (nsys < HB_AUTO_FINE_TREE_BELOW)
        return cell_ok ? HB_STRATEGY_CELL_GROUP : HB_STRATEGY_FINE_TREE;
    /* Where the device gives its compute units, cell-group far past the fine
     * tree's range, one tree or a mix; from there, copies of one cell run
     * per-system, whose coalesced reads of one parent array then beat the
     * branch strategies too. H200 (132 SMs), double, cell-group / per-system
     * / branch-level (docs/benchmarks/h200-2026-12-01-cellug, call 3): CA1
     * cells of 728 rows, 4,096 cells 0.168 / 1.21 / 0.705 ms; 32,768 0.990
     * / 1.43 / 1.15; 65,536 1.91 / 1.62 / 1.80; shared couplings 32,768
     * 0.704 / 1.09, 65,536 1.36 / 1.24; the real-cell mix 4,096 0.175 / 1.88
     * / 0.896, 16,384 0.482 / 2.06 / 1.02, 65,536 1.62 / 2.30 / 1.66. In
     * float a compute unit holds more cells, and cell-group stays ahead
     * longer: CA1, 65,536 cells 1.16 / 1.40 / 1.40, 131,072 2.24 / 1.62 /
     * 2.42. Smaller cells cross over sooner (hb__auto_cell_group_per_unit). */
    const int64_t units = (int64_t)dev->compute_units;
    const int64_t per_unit = hb__auto_cell_group_per_unit(max_rows, esize);
    if (cell_ok && units > 0 && nsys < per_unit * units)
        return HB_STRATEGY_CELL_GROUP;
    /* Enough cells fill the device with per-system threads; one solve per
     * thread then beats the branch strategies' extra passes and launches, for
     * one shape (coalesced reads, shared parent array) and for a mix alike
     * (H200, 131,072 real mixed cells: per-system 7% faster, 256,000: 47%). */
    if (nsys >= HB_AUTO_PER_SYSTEM_FROM || (mono && units > 0 && nsys >= per_unit * units))
        return HB_STRATEGY_PER_SYSTEM;
    /* In between, a thread per branch of a level restores both parallelism
     * and coalescing. */
    return HB_STRATEGY_BRANCH_LEVEL;
}

/* Work-items per system of the cooperative kernels: requested when > 0, else
 * the next power of two >= max_rows / rows_per_item, at most cap; then at
 * most the device's work-group limit. */
static int64_t coop_items(const hb_device_traits *dev, int64_t max_rows, int64_t rows_per_item,
                          int64_t cap, int32_t requested)
{
    int64_t p = requested;
    if (p <= 0) {
        const int64_t want = (max_rows + rows_per_item - 1) / rows_per_item;
        p = 1;
        while (p < want && p < cap)
            p *= 2;
    }
    if (dev->max_group > 0 && (uint64_t)p > (uint64_t)dev->max_group)
        p = (int64_t)dev->max_group;
    return p;
}

int32_t hb__coop_group(const hb_device_traits *dev, int64_t max_rows, size_t esize,
                       int32_t requested)
{
    int64_t p = coop_items(dev, max_rows, HB_COOP_ROWS_PER_ITEM, HB_COOP_MAX_GROUP, requested);
    while (p > 1 && dev->local_mem > 0 && (uint64_t)HB_COOP_LOCAL_REALS(p) * esize > dev->local_mem)
        p /= 2;
    return (int32_t)(p < 1 ? 1 : p);
}

/* Rows per work-item of the resident solver, from the batch's size. Measured
 * on an H100 (docs/benchmarks/h100-2026-11-24-onchip, work-items per system
 * swept from 8 to 256 at 256, 2,560 and 256,000 systems of 64 and 512 rows):
 * a batch that fills the device is bound by local-memory traffic, most of it
 * the PCR of the chunks' end rows, so long chunks (8 rows) win (256,000 x 512
 * double: 2.74 ms against 3.95 at 4 rows); a small batch is bound by latency,
 * so short chunks win (256 x 64: 1 row, 0.0139 ms against 0.0195 at 8). With
 * cyclic reduction of the end rows in place of PCR, 8 rows still won on an
 * H200 (docs/benchmarks/h200-2026-11-29-banks: 1.85 ms against 2.26 at 16
 * and 2.39 at 4). */
int64_t hb__coop_resident_rows_per_item(int64_t nsys, int64_t max_rows)
{
    const uint64_t rows = hb__mul_sat((uint64_t)(nsys > 0 ? nsys : 0),
                                      (uint64_t)(max_rows > 0 ? max_rows : 0));
    if (rows >= HB_COOP_FULL_ROWS)
        return 8;
    if (rows >= HB_COOP_HALF_ROWS)
        return 4;
    return 1;
}

/* The local stride of a chunk: q = min(P, n/2) chunks of ceil(n/q) rows at
 * most, which is 3 while n < 2P (chunks of 2 rows, one more for some); odd
 * so that work-items walking their chunks side by side hit different banks
 * (thomas_coop_local.cl). */
static int64_t coop_chunk_stride(int64_t max_rows, int64_t p)
{
    int64_t ld = (max_rows + p - 1) / p;
    if (ld < 3)
        ld = 3;
    return ld | 1;
}

/* HB_COOP_RESIDENT_REALS(s, p, ld) = 3 x s x p x ld reals of esize bytes, 0
 * on overflow or past the int32 ranges of the kernel's arguments. */
static size_t coop_resident_bytes(int64_t s, int64_t p, int64_t ld, size_t esize)
{
    size_t reals = 0, bytes = 0;
    if (ld > INT32_MAX || s * p > INT32_MAX ||
        !hb__mul_size((size_t)3 * (size_t)s, (size_t)p, &reals) ||
        !hb__mul_size(reals, (size_t)ld, &reals) || !hb__mul_size(reals, esize, &bytes))
        return 0;
    return bytes;
}

int hb__coop_resident(const hb_device_traits *dev, int64_t nsys, int64_t max_rows, size_t esize,
                      int32_t requested, size_t alone, hb_coop_resident *out)
{
    if (max_rows < 1 || nsys < 1 || dev->local_mem == 0)
        return 0;
    int64_t p = coop_items(dev, max_rows, hb__coop_resident_rows_per_item(nsys, max_rows),
                           HB_COOP_MAX_GROUP, requested);
    int64_t ld = coop_chunk_stride(max_rows, p);
    int64_t s = HB_COOP_RESIDENT_ITEMS / p;
    if (s < 1)
        s = 1;
    if (s > nsys)
        s = nsys;
    if (dev->max_group > 0)
        while (s > 1 && (uint64_t)(s * p) > (uint64_t)dev->max_group)
            s /= 2;
    size_t budget =
        dev->local_mem < HB_COOP_RESIDENT_BUDGET ? dev->local_mem : HB_COOP_RESIDENT_BUDGET;
    size_t bytes = 0;
    for (; s > 1; s /= 2)
        if ((bytes = coop_resident_bytes(s, p, ld, esize)) && bytes <= budget)
            break;
    /* One system alone may take up to the device's local memory (alone, when
     * set, caps it): a group per system then occupies a multiprocessor, but
     * moves only the 5 compulsory values per row where the staged kernel
     * moves 14 once chunks outgrow its blocks. */
    if (s == 1) {
        const size_t wide = alone && alone < dev->local_mem ? alone : dev->local_mem;
        bytes = coop_resident_bytes(1, p, ld, esize);
        if (requested <= 0 && (!bytes || bytes > budget)) {
            /* Past the several-per-group budget: chunks of at least
             * HB_COOP_ALONE_CHUNK_BYTES of each array, up to the device's
             * group limit, never fewer work-items than above, where that
             * fits. */
            const int64_t rows = esize < HB_COOP_ALONE_CHUNK_BYTES
                                     ? (int64_t)(HB_COOP_ALONE_CHUNK_BYTES / esize)
                                     : 1;
            int64_t pa = coop_items(dev, max_rows, rows, HB_COOP_ALONE_MAX_GROUP, 0);
            if (pa > p && pa * rows > max_rows)
                pa /= 2;
            if (pa < p)
                pa = p;
            const int64_t la = coop_chunk_stride(max_rows, pa);
            const size_t ba = coop_resident_bytes(1, pa, la, esize);
            if (ba && ba <= wide)
                p = pa, ld = la;
        }
        if (wide > budget)
            budget = wide;
    }
    if (!(bytes = coop_resident_bytes(s, p, ld, esize)) || bytes > budget)
        return 0;
    out->group = (int32_t)p;
    out->systems = (int32_t)s;
    out->ld = (int32_t)ld;
    out->local_bytes = bytes;
    return 1;
}

int32_t hb__coop_span(const hb_device_traits *dev, int64_t nsys, int64_t max_rows,
                      int32_t requested)
{
    if (requested > 0)
        return requested;
    if (dev->compute_units <= 0 || nsys <= 0)
        return 1;
    const int64_t target = (int64_t)HB_COOP_SPAN_FILL * dev->compute_units;
    int64_t g = 1;
    while (nsys * g < target && max_rows / (2 * g) >= HB_COOP_SPAN_MIN_ROWS)
        g *= 2;
    return (int32_t)g;
}

int hb__coop_warp_shape(size_t esize, int64_t max_rows, int32_t *rows_per_lane, int32_t *lanes)
{
    if (max_rows > HB_COOP_WARP_MAX_ROWS(esize))
        return 0;
    const int32_t m = max_rows <= 256 ? 8 : max_rows <= 512 ? 16 : 32;
    int32_t w = 1;
    while ((int64_t)w * m < max_rows)
        w *= 2;
    *rows_per_lane = m;
    *lanes = w;
    return 1;
}

/* Measured on an H200 against the resident kernel, each side in its own
 * bench call with cuSPARSE beside it (docs/benchmarks/h200-2026-12-02-warp,
 * the seeds' grid): 8 rows per lane ran 0.99-1.27x as fast in double and
 * 1.16-1.72x in float (256..256,000 systems of 64..256 rows); 16 rows per
 * lane 1.02-1.50x in float but 0.88-0.97x in double (162 registers: 18% of
 * the warp slots filled, the rows' latency chains left uncovered; 0.94-0.96x
 * with two sub-chunks per lane, call 4); 32 floats per lane 0.85x at 20
 * systems of 1,024 rows, 1.00x at 2,000 and 1.13x at 20,000. */
int hb__coop_warp_rule(const hb_device_traits *dev, size_t esize, int64_t nsys, int64_t max_rows)
{
    if (esize == sizeof(double))
        return max_rows <= 256;
    if (max_rows <= 512)
        return 1;
    return dev->compute_units > 0 && nsys >= HB_COOP_WARP_MIN_WAVES * (int64_t)dev->compute_units;
}

/* Measured on an H100 (docs/benchmarks/h100-2026-11-24-onchip, one run, both
 * sides timed alike): with its variants (resident, staged, span) and the
 * group sizes of the rules above, the cooperative solver beats one
 * work-item per system at every point of the seeds' grid, 256..256,000
 * systems of 64..512 rows and 20..20,000 of 1,024..8,192: 2-20x below
 * 25,600 systems, and still at 256,000 (x 512 double: 2.74 ms against 3.43;
 * x 64: 0.386 against 0.427), where per-system threads fill the GPU but move
 * c' through memory twice. */
hb_strategy hb__auto_tridiag_strategy(const hb_device_traits *dev, int has_coop, int64_t nsys,
                                      int64_t max_rows)
{
    (void)nsys, (void)max_rows;
    if (dev->is_gpu && has_coop)
        return HB_STRATEGY_COOPERATIVE;
    return HB_STRATEGY_PER_SYSTEM;
}

size_t hb__cell_local_bytes(int64_t max_rows, size_t esize, int staged, int ul_shared)
{
    /* HB_CELL_LAUNCH_BYTES with every product checked. */
    size_t reals, bytes, words;
    if (max_rows < 0 || !hb__mul_size((size_t)max_rows, HB_CELL_ARRAYS(ul_shared), &reals) ||
        !hb__mul_size(reals, esize, &bytes) || !hb__mul_size((size_t)max_rows, 8, &words) ||
        words > SIZE_MAX / sizeof(int32_t) - 16 || bytes > SIZE_MAX - (words + 16) * sizeof(int32_t))
        return SIZE_MAX;
    return staged ? bytes + (words + 16) * sizeof(int32_t) : bytes;
}

int hb__cell_staged(const hb_device_traits *dev, int64_t max_rows, size_t esize, int ul_shared)
{
    return dev->local_mem > 0 &&
           hb__cell_local_bytes(max_rows, esize, 1, ul_shared) <= dev->local_mem;
}

int hb__cell_fits(const hb_device_traits *dev, int64_t max_rows, size_t esize, int ul_shared)
{
    return dev->local_mem > 0 &&
           hb__cell_local_bytes(max_rows, esize, 0, ul_shared) <= dev->local_mem;
}

int32_t hb__cell_group(const hb_device_traits *dev, int64_t widest, int32_t requested)
{
    int64_t p = requested;
    if (p <= 0) {
        p = HB_CELL_MIN_GROUP;
        while (p < widest && p < HB_CELL_MAX_GROUP)
            p *= 2;
    }
    if (dev->max_group > 0 && (uint64_t)p > (uint64_t)dev->max_group)
        p = (int64_t)dev->max_group;
    return (int32_t)(p < 1 ? 1 : p);
}
