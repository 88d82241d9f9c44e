/* cells.c: the OpenMP backend's fused simulation loop: one parallel region per segment of steps, each thread running every step for its own contiguous chunk of cells (cells of one tree several at a time). */
#define _POSIX_C_SOURCE 200809L
#include "../solver/hines_sweep.h"
#include "membrane_rows.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif

static double clock_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* First clamped row at or after flat row r (crow is sorted by row). */
static int64_t first_clamp_row(const hb_sim_dev *sd, int64_t r)
{
    const int64_t *crow = HB_I64(sd->crow);
    int64_t lo = 0, hi = sd->nclamp_rows;
    while (lo < hi) {
        const int64_t mid = lo + (hi - lo) / 2;
        if (crow[mid] < r)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Rows of every lane of a tile assembled (and updated) together: 64 rows x 8
 * lanes x 2 arrays of doubles is 8 KiB, well within L1. */
#define HB_SIM_BLOCK 64

#ifdef _OPENMP
#define HB_THREAD_ID(id, nt) ((id) = omp_get_thread_num(), (nt) = omp_get_num_threads())
#else
#define HB_THREAD_ID(id, nt) ((void)(id), (void)(nt))
#endif

/* Why cell-outer, step-inner: a cell's state (a CA1 cell of 1,508 rows is
 * about 200 KB over its arrays) stays in the caches for the whole segment,
 * and threads never wait on each other inside it (no barrier per step: on a
 * loaded machine a spinning barrier per stage ran at 0.3x serial). Cells of
 * one tree go HB_HOST_LANES at a time, their matrices assembled straight into
 * a tile swept side by side (tile_full_##S: a lone sweep is a chain of dependent
 * divisions); other cells one at a time in the plan's layout. */
#define HB_DEFINE_CELLS(T, S)                                                              \
    HB_DEFINE_HINES_SWEEP(T, S)                                                            \
    /* Clamped rows of cell c: [*j, new *j) (the cursor walks the sorted crow). */         \
    static inline void clamp_range_##S(const hb_sim_dev *sd, const hb_sim_cells *job,      \
                                       int64_t c, int64_t *j, int64_t *lo, int64_t *hi)    \
    {                                                                                      \
        const int64_t *crow = HB_I64(sd->crow), r1 = job->offsets[c + 1];                  \
        *lo = *j;                                                                          \
        while (*j < sd->nclamp_rows && crow[*j] < r1)                                      \
            ++*j;                                                                          \
        *hi = *j;                                                                          \
    }                                                                                      \
    /* t0 as the per-step path computes it: in double, then T. */                         \
    static inline T step_time_##S(const hb_sim_dev *sd, int64_t step)                      \
    {                                                                                      \
        return (T)((double)step * sd->dt);                                                 \
    }                                                                                      \
    static void one_cell_##S(const hb_sim_dev *sd, const hb_sim_cells *job, int64_t c,     \
                             int64_t *j, double *acc)                                      \
    {                                                                                      \
        const hb_layout_dev *lay = job->lay;                                               \
        const int64_t t = job->slot[c];                                               \
        const int64_t base = HB_I64(lay->base)[t], rows = HB_I64(lay->rows)[t];            \
        const int32_t *par = (const int32_t *)lay->parent->ptr + HB_I64(lay->poff)[t];     \
        const T *u = job->u->ptr, *l = job->l->ptr;                                        \
        T *d = job->d->ptr, *r = job->rhs->ptr, *v = sd->v->ptr;                           \
        const int64_t r0 = job->offsets[c], r1 = job->offsets[c + 1];                      \
        const int64_t *pc = sd->nprobe > 0 ? HB_I64(sd->prbcell) : NULL;                   \
        int64_t j0, j1;                                                                    \
        clamp_range_##S(sd, job, c, j, &j0, &j1);                                          \
        for (int64_t q = 0; q < job->nsteps; ++q) {                                        \
            const int64_t step = job->step0 + q;                                           \
            double t1 = job->timing ? clock_ms() : 0, t2;                                  \
            mem_assemble_##S(sd, step, c, r0, r1, j0, j1, d + base, r + base,              \
                             lay->stride);                                                 \
            if (job->timing)                                                               \
                t2 = clock_ms(), acc[0] += t2 - t1, t1 = t2;                               \
            hines_##S(rows, base, lay->stride, base, lay->stride, par, u, l, d, r);        \
            if (job->timing)                                                               \
                t2 = clock_ms(), acc[2] += t2 - t1, t1 = t2;                               \
            for (int64_t k = r0; k < r1; ++k)                                              \
                v[k] = v[k] + r[base + (k - r0) * lay->stride];                            \
            hb_host_mech_advance_serial_##S(sd, step, c, c + 1, r0, r1, 0);                      \
            spike_cell_##S(sd, c, step_time_##S(sd, step), job->rec_row0 + q);             \
            if (pc)                                                                        \
                probes_##S(sd, pc[2 * c], pc[2 * c + 2], job->rec_row0 + q);               \
            if (job->timing)                                                               \
                t2 = clock_ms(), acc[3] += t2 - t1;                                        \
        }                                                                                  \
    }                                                                                      \
    /* Cells cg .. cg + w - 1 of one tree of n rows (row i of a cell is its flat row       \
     * offsets[c] + i, as hb_plan_index places it) in the tile s: n x HB_HOST_LANES reals   \
     * per array (row i of lane x at i * W + x), U (also L: the couplings are symmetric),  \
     * D, R, V (the voltages), G (each row's axial conductance to its parent) and D0 (the \
     * diagonal's constant); IM: a block's membrane currents. Why V and G: the axial       \
     * currents of every lane go as one vector per row, edge by edge. Row i's edge adds    \
     * t = G (V_parent - V_i) to row i (first: its parent entry) and -t to its parent      \
     * (later, in row order: a child entry), which is HB_SIM_AXIAL's sum in its order, bit \
     * for bit (an edge's two table entries hold one conductance). Why D0 and IM: a block  \
     * of rows takes each lane's g and I (clamps included) in one copy, and then D = D0 +  \
     * g and R = axial - I (assemble_gi's operations) as vectors across the lanes. Lanes   \
     * past w are inert (U, V, G, D0 and IM zero, D one: every step D = 0 + 1 and R = 0),  \
     * so a tile of fewer cells is swept whole, as vectors. The plan's D and RHS are not   \
     * used: the tile holds them. */                                                       \
    HB_HOST_CLONES static void group_##S(const hb_sim_dev *sd, const hb_sim_cells *job,     \
                                         int64_t cg, int64_t w, int64_t n, int64_t *j, T *s, \
                                         double *acc)                                      \
    {                                                                                      \
        enum { W = HB_HOST_LANES };                                                        \
        const hb_layout_dev *lay = job->lay;                                               \
        const int64_t st = lay->stride;                                                    \
        const int32_t *par =                                                               \
            (const int32_t *)lay->parent->ptr + HB_I64(lay->poff)[job->slot[cg]];          \
        const T *u = job->u->ptr, *nbg = sd->nbg->ptr, *d0 = sd->d0->ptr;                  \
        const int64_t *nbptr = HB_I64(sd->nbptr);                                          \
        const T *gmem = sd->gmem->ptr, *imem = sd->imem->ptr;                              \
        T *v = sd->v->ptr;                                                                 \
        T *restrict U = s, *restrict D = s + n * W, *restrict R = s + 2 * n * W;           \
        T *restrict V = s + 3 * n * W, *restrict G = s + 4 * n * W;                        \
        T *restrict D0 = s + 5 * n * W;                                                    \
        const int64_t *pc = sd->nprobe > 0 ? HB_I64(sd->prbcell) : NULL;                   \
        int64_t j0[W], j1[W], r0[W];                                                       \
        T IM[HB_SIM_BLOCK * W] = {0}; /* lanes past w stay zero */                         \
        for (int64_t x = 0; x < W; ++x) {                                                  \
            const int64_t b = x < w ? HB_I64(lay->base)[job->slot[cg + x]] : 0;            \
            r0[x] = x < w ? job->offsets[cg + x] : 0;                                      \
            if (x < w)                                                                     \
                clamp_range_##S(sd, job, cg + x, j, &j0[x], &j1[x]);                       \
            for (int64_t i = 0; i < n; ++i) {                                              \
                U[i * W + x] = x < w ? u[b + i * st] : (T)0;                               \
                V[i * W + x] = x < w ? v[r0[x] + i] : (T)0;                                \
                /* Row i's first entry is its parent's (hb__sim_axial_tables). */          \
                G[i * W + x] = x < w && i > 0 ? nbg[nbptr[r0[x] + i]] : (T)0;              \
                D0[i * W + x] = x < w ? d0[r0[x] + i] : (T)0;                              \
                D[i * W + x] = (T)1;                                                       \
            }                                                                              \
        }                                                                                  \
        for (int64_t q = 0; q < job->nsteps; ++q) {                                        \
            const int64_t step = job->step0 + q;                                           \
            double t1 = job->timing ? clock_ms() : 0, t2;                                  \
            for (int64_t x = 0; x < w; ++x) {                                              \
                hb_host_mech_pass_serial_##S(sd, step, cg + x, cg + x + 1, r0[x],          \
                                             r0[x] + n, 0);                                \
                /* The clamps on at this step: i = i - their sum (as mem_rows). */         \
                for (int64_t c = j0[x]; c < j1[x]; ++c)                                    \
                    clamp_row_##S(sd, c, step);                                            \
            }                                                                              \
            for (int64_t x = 0; x < W; ++x)                                                \
                R[x] = (T)0;                                                               \
            for (int64_t i = 1; i < n; ++i) {                                              \
                const int64_t k = i * W, kp = (int64_t)par[i] * W;                         \
                /* The parent's R read before row i's is stored (par[i] < i: they never   \
                 * overlap), so each loop is a vector loop with no runtime overlap check. */ \
                T t[W], rp[W];                                                             \
                for (int64_t x = 0; x < W; ++x) {                                          \
                    t[x] = G[k + x] * (V[kp + x] - V[k + x]);                              \
                    rp[x] = R[kp + x];                                                     \
                }                                                                          \
                for (int64_t x = 0; x < W; ++x)                                            \
                    R[k + x] = (T)0 + t[x];                                                \
                for (int64_t x = 0; x < W; ++x)                                            \
                    R[kp + x] = rp[x] - t[x];                                              \
            }                                                                              \
            /* Rows a block at a time across the lanes: a block's tile lines are filled    \
             * while in L1, not once per lane (a lane's rows are W apart). */              \
            for (int64_t i0 = 0; i0 < n; i0 += HB_SIM_BLOCK) {                             \
                const int64_t i1 = n - i0 < HB_SIM_BLOCK ? n : i0 + HB_SIM_BLOCK;         \
                for (int64_t x = 0; x < w; ++x)                                            \
                    for (int64_t i = i0; i < i1; ++i) {                                    \
                        D[i * W + x] = gmem[r0[x] + i];                                    \
                        IM[(i - i0) * W + x] = imem[r0[x] + i];                            \
                    }                                                                      \
                for (int64_t i = i0 * W; i < i1 * W; ++i) {                                \
                    D[i] = D0[i] + D[i];                                                   \
                    R[i] = R[i] - IM[i - i0 * W];                                          \
                }                                                                          \
            }                                                                              \
            if (job->timing)                                                               \
                t2 = clock_ms(), acc[0] += t2 - t1, t1 = t2;                               \
            tile_full_##S(n, par, U, U, D, R);                                             \
            if (job->timing)                                                               \
                t2 = clock_ms(), acc[2] += t2 - t1, t1 = t2;                               \
            for (int64_t i0 = 0; i0 < n; i0 += HB_SIM_BLOCK) {                             \
                const int64_t i1 = n - i0 < HB_SIM_BLOCK ? n : i0 + HB_SIM_BLOCK;         \
                for (int64_t i = i0 * W; i < i1 * W; ++i)                                  \
                    V[i] = V[i] + R[i];                                                    \
                for (int64_t x = 0; x < w; ++x)                                            \
                    for (int64_t i = i0; i < i1; ++i)                                      \
                        v[r0[x] + i] = V[i * W + x];                                       \
            }                                                                              \
            for (int64_t x = 0; x < w; ++x) {                                              \
                hb_host_mech_advance_serial_##S(sd, step, cg + x, cg + x + 1, r0[x],       \
                                                r0[x] + n, 0);                             \
                spike_cell_##S(sd, cg + x, step_time_##S(sd, step), job->rec_row0 + q);    \
                if (pc)                                                                    \
                    probes_##S(sd, pc[2 * (cg + x)], pc[2 * (cg + x) + 2], job->rec_row0 + q); \
            }                                                                              \
            if (job->timing)                                                               \
                t2 = clock_ms(), acc[3] += t2 - t1;                                        \
        }                                                                                  \
    }                                                                                      \
    static void cells_##S(const hb_sim_dev *sd, hb_sim_cells *job, int par)                \
    {                                                                                      \
        const hb_layout_dev *lay = job->lay;                                               \
        const int64_t C = sd->ncells, n = lay->max_rows;                                   \
        /* Tiles for cells of one tree without padding, where a tile fits a core's         \
         * cache (as the batch solver, hines.c). */                                        \
        int tiled = lay->mono;                                                             \
        for (int64_t c = 0; tiled && c < C; ++c)                                           \
            tiled = job->offsets[c + 1] - job->offsets[c] == n &&                          \
                    HB_I64(lay->rows)[job->slot[c]] == n;                                  \
        /* And u = l, bit for bit (a cable's couplings are symmetric: the tile holds one;  \
         * otherwise one cell at a time). */                                               \
        const T *u = job->u->ptr, *l = job->l->ptr;                                        \
        for (int64_t c = 0; tiled && c < C; ++c) {                                         \
            const int64_t b = HB_I64(lay->base)[job->slot[c]];                             \
            for (int64_t i = 0; tiled && i < n; ++i)                                       \
                tiled = !memcmp(&u[b + i * lay->stride], &l[b + i * lay->stride], sizeof(T)); \
        }                                                                                  \
        (void)par;                                                                         \
        _Pragma("omp parallel if (par)")                                                  \
        {                                                                                  \
            int64_t id = 0, nt = 1;                                                        \
            double acc[4] = {0, 0, 0, 0};                                                  \
            HB_THREAD_ID(id, nt);                                                          \
            const int64_t c0 = C * id / nt, c1 = C * (id + 1) / nt;                        \
            int64_t j = c0 < c1 ? first_clamp_row(sd, job->offsets[c0]) : 0;              \
            T *s = tiled && c0 < c1 ? (T *)hb__host_tile(n, 6, sizeof(T)) : NULL;          \
            for (int64_t c = c0; c < c1;) {                                                \
                const int64_t w = s ? (c1 - c < HB_HOST_LANES ? c1 - c : HB_HOST_LANES) : 1; \
                if (s)                                                                     \
                    group_##S(sd, job, c, w, n, &j, s, acc);                               \
                else                                                                       \
                    one_cell_##S(sd, job, c, &j, acc);                                     \
                c += w;                                                                    \
            }                                                                              \
            free(s);                                                                       \
            if (job->timing) {                                                             \
                _Pragma("omp critical(hb_sim_cells_timing)")                              \
                for (int k = 0; k < 4; ++k)                                                \
                    job->stage_ms[k] += acc[k] / (double)nt;                               \
            }                                                                              \
        }                                                                                  \
    }

HB_DEFINE_CELLS(double, d)
HB_DEFINE_CELLS(float, s)

hb_status hb__host_sim_cells(hb_context *ctx, hb_precision p, const hb_sim_dev *sim,
                             hb_sim_cells *job)
{
    for (int s = 0; s < 4; ++s)
        job->stage_ms[s] = 0;
    HB_HOST_RUN(p, cells, sim, job, hb__host_parallel(ctx));
    return HB_SUCCESS;
}
