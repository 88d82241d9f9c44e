/* cells.c: the OpenMP backend's fused simulation loop: one parallel region per segment of steps, each thread running every step for its own contiguous chunk of cells. */
#define _POSIX_C_SOURCE 200809L
#include "../solver/hines_sweep.h"
#include "membrane_rows.h"

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

/* Why cell-outer, step-inner: a cell's state (a CA1 cell of 1,508 rows is
 * about 200 KB over its arrays) stays in its core's cache for the whole
 * segment, and threads never wait on each other inside it (no barrier per
 * step: on a loaded machine a spinning barrier per stage ran at 0.3x serial). */
#define HB_DEFINE_CELLS(T, S)                                                              \
    HB_DEFINE_HINES_SWEEP(T, S)                                                            \
    static void cells_##S(const hb_sim_dev *sd, hb_sim_cells *job, int par)                \
    {                                                                                      \
        const hb_layout_dev *lay = job->lay;                                               \
        const int64_t *base = HB_I64(lay->base), *rows = HB_I64(lay->rows);                \
        const int64_t *poff = HB_I64(lay->poff), *pos = HB_I64(sd->pos);                   \
        const int32_t *parent = (const int32_t *)lay->parent->ptr;                         \
        const T *u = job->u->ptr, *l = job->l->ptr;                                        \
        T *d = job->d->ptr, *r = job->rhs->ptr, *v = sd->v->ptr;                           \
        const int64_t C = sd->ncells, ncr = sd->nclamp_rows;                               \
        const int timing = job->timing;                                                    \
        double acc[4] = {0, 0, 0, 0};                                                      \
        (void)par;                                                                         \
        _Pragma("omp parallel if (par) firstprivate(acc)")                                \
        {                                                                                  \
            int64_t id = 0, nt = 1;                                                        \
            HB_THREAD_ID(id, nt);                                                          \
            const int64_t c0 = C * id / nt, c1 = C * (id + 1) / nt;                        \
            int64_t j = c0 < c1 ? first_clamp_row(sd, job->offsets[c0]) : 0;              \
            for (int64_t c = c0; c < c1; ++c) {                                            \
                const int64_t r0 = job->offsets[c], r1 = job->offsets[c + 1];              \
                const int64_t j0 = j;                                                      \
                while (j < ncr && HB_I64(sd->crow)[j] < r1)                                \
                    ++j;                                                                   \
                const int64_t t = job->slot[c];                                            \
                for (int64_t q = 0; q < job->nsteps; ++q) {                                \
                    const int64_t step = job->step0 + q;                                   \
                    double t1 = timing ? clock_ms() : 0, t2;                               \
                    /* Gates move with the voltage the previous step produced. */          \
                    for (int64_t k = r0; k < r1; ++k)                                      \
                        mem_row_##S(sd, step > 0, k);                                      \
                    for (int64_t jj = j0; jj < j; ++jj)                                    \
                        clamp_row_##S(sd, jj, step);                                       \
                    if (timing)                                                            \
                        t2 = clock_ms(), acc[0] += t2 - t1, t1 = t2;                       \
                    for (int64_t k = r0; k < r1; ++k)                                      \
                        assemble_row_##S(sd, d, r, k);                                     \
                    if (timing)                                                            \
                        t2 = clock_ms(), acc[1] += t2 - t1, t1 = t2;                       \
                    hines_##S(rows[t], base[t], lay->stride, parent + poff[t], u, l, d, r); \
                    if (timing)                                                            \
                        t2 = clock_ms(), acc[2] += t2 - t1, t1 = t2;                       \
                    for (int64_t k = r0; k < r1; ++k)                                      \
                        v[k] = r[pos[k]];                                                  \
                    /* t0 as the per-step path computes it: in double, then T. */          \
                    spike_cell_##S(sd, c, (T)((double)step * sd->dt), job->rec_row0 + q);  \
                    if (timing)                                                            \
                        t2 = clock_ms(), acc[3] += t2 - t1;                                \
                }                                                                          \
            }                                                                              \
            if (timing) {                                                                  \
                _Pragma("omp critical(hb_sim_cells_timing)")                              \
                for (int s = 0; s < 4; ++s)                                                \
                    job->stage_ms[s] += acc[s] / (double)nt;                               \
            }                                                                              \
        }                                                                                  \
    }

#ifdef _OPENMP
#define HB_THREAD_ID(id, nt) ((id) = omp_get_thread_num(), (nt) = omp_get_num_threads())
#else
#define HB_THREAD_ID(id, nt) ((void)(id), (void)(nt))
#endif

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
