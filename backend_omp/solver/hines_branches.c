/* hines_branches.c: Hines by branches (branch-level and fine-tree strategies) on the host (serial / OpenMP). */
#include "host_backend.h"

/* Branch b: first the junction updates from its child branches (already
 * eliminated, applied in the fixed order of the child list), then the
 * elimination up the branch; a root branch ends by solving its root. Same
 * operations, in the same order, as kernels_cl/solver/hines_branches.cl. */
#define HB_DEFINE_BRANCH(T, S)                                                             \
    /* Row k eliminated into its parent row kp. */                                         \
    static inline void eliminate_##S(int64_t k, int64_t kp, const T *u, const T *l, T *d,  \
                                     T *r)                                                 \
    {                                                                                      \
        T f = u[k] / d[k];                                                                 \
        d[kp] -= f * l[k];                                                                 \
        r[kp] -= f * r[k];                                                                 \
    }                                                                                      \
    static void backward_##S(int64_t b, const hb_branch_dev *br, const T *u, const T *l,   \
                             T *d, T *r)                                                   \
    {                                                                                      \
        const int64_t *pos0 = HB_I64(br->pos0), *ppos = HB_I64(br->ppos);                  \
        const int64_t *chptr = HB_I64(br->chptr), *chidx = HB_I64(br->chidx);              \
        for (int64_t q = chptr[b]; q < chptr[b + 1]; ++q)                                  \
            eliminate_##S(pos0[chidx[q]], ppos[chidx[q]], u, l, d, r);                     \
        const int64_t o = pos0[b], st = HB_I64(br->bstride)[b];                            \
        for (int64_t j = HB_I64(br->len)[b] - 1; j >= 1; --j)                              \
            eliminate_##S(o + j * st, o + (j - 1) * st, u, l, d, r);                       \
        if (ppos[b] < 0)                                                                   \
            r[o] = r[o] / d[o];                                                            \
    }                                                                                      \
    static void forward_##S(int64_t b, const hb_branch_dev *br, const T *l, const T *d,    \
                            T *r)                                                          \
    {                                                                                      \
        const int64_t o = HB_I64(br->pos0)[b], st = HB_I64(br->bstride)[b];                \
        const int64_t P = HB_I64(br->ppos)[b];                                             \
        if (P >= 0)                                                                        \
            r[o] = (r[o] - l[o] * r[P]) / d[o];                                            \
        for (int64_t j = 1; j < HB_I64(br->len)[b]; ++j) {                                 \
            int64_t k = o + j * st;                                                        \
            r[k] = (r[k] - l[k] * r[k - st]) / d[k];                                       \
        }                                                                                  \
    }                                                                                      \
    /* Branch level: every branch of a level at once, deepest level first. */             \
    static void level_##S(const hb_branch_dev *br, const T *u, const T *l, T *d, T *r,    \
                          int par)                                                         \
    {                                                                                      \
        const int64_t *seg = br->host_seg_ptr;                                             \
        (void)par;                                                                         \
        for (int64_t s = br->nsegments - 1; s >= 0; --s) {                                 \
            _Pragma("omp parallel for schedule(guided) if (par)")                         \
            for (int64_t b = seg[s]; b < seg[s + 1]; ++b)                                  \
                backward_##S(b, br, u, l, d, r);                                           \
        }                                                                                  \
        for (int64_t s = 0; s < br->nsegments; ++s) {                                      \
            _Pragma("omp parallel for schedule(guided) if (par)")                         \
            for (int64_t b = seg[s]; b < seg[s + 1]; ++b)                                  \
                forward_##S(b, br, l, d, r);                                               \
        }                                                                                  \
    }                                                                                      \
    /* Fine tree: one group of cells per iteration, its levels in order. */              \
    static void fine_##S(const hb_branch_dev *br, const T *u, const T *l, T *d, T *r,     \
                         int par)                                                          \
    {                                                                                      \
        const int64_t *seg = br->host_seg_ptr, *grp = br->host_grp_ptr;                    \
        (void)par;                                                                         \
        _Pragma("omp parallel for schedule(dynamic) if (par)")                            \
        for (int64_t g = 0; g < br->ngroups; ++g) {                                        \
            for (int64_t s = grp[g + 1] - 1; s >= grp[g]; --s)                             \
                for (int64_t b = seg[s]; b < seg[s + 1]; ++b)                              \
                    backward_##S(b, br, u, l, d, r);                                       \
            for (int64_t s = grp[g]; s < grp[g + 1]; ++s)                                  \
                for (int64_t b = seg[s]; b < seg[s + 1]; ++b)                              \
                    forward_##S(b, br, l, d, r);                                           \
        }                                                                                  \
    }

HB_DEFINE_BRANCH(double, d)
HB_DEFINE_BRANCH(float, s)

hb_status hb__host_hines_branch_level(hb_context *ctx, void *stream, hb_precision p,
                                      const hb_branch_dev *br, hb_buffer *u, hb_buffer *l,
                                      hb_buffer *d, hb_buffer *rhs)
{
    (void)stream;
    HB_HOST_RUN(p, level, br, u->ptr, l->ptr, d->ptr, rhs->ptr, hb__host_parallel(ctx));
    return HB_SUCCESS;
}

hb_status hb__host_hines_fine_tree(hb_context *ctx, void *stream, hb_precision p,
                                   const hb_branch_dev *br, hb_buffer *u, hb_buffer *l,
                                   hb_buffer *d, hb_buffer *rhs)
{
    (void)stream;
    HB_HOST_RUN(p, fine, br, u->ptr, l->ptr, d->ptr, rhs->ptr, hb__host_parallel(ctx));
    return HB_SUCCESS;
}
