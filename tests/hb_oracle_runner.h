/* hb_oracle_runner.h: one runner for both system kinds (tridiagonal, Hines): a batch, the serial oracle's solution of it, and solves on the backend under test (one-shot and plans), each checked by residual and against the oracle under the tolerance policy of hb_test_util.h. */
#ifndef HB_ORACLE_RUNNER_H
#define HB_ORACLE_RUNNER_H

#include "hb_test_util.h"

typedef struct hb_oracle_batch hb_oracle_batch;

/* What differs between the kinds; the runner does the rest. */
typedef struct {
    const char *name;    /* "tridiagonal", "hines"                              */
    int         hines;
    hb_array    arrays[3]; /* the matrix arrays: A, B, C or U, L, D             */
    hb_status (*oneshot)(hb_context *ctx, const hb_oracle_batch *bt, void *x);
    hb_status (*create)(hb_context *ctx, const hb_oracle_batch *bt, const hb_plan_options *o,
                        int use_uniform, hb_plan **plan);
    hb_status (*residual)(const hb_oracle_batch *bt, const void *x, double *ratio, int64_t *worst);
    double (*ratio)(const hb_oracle_batch *bt, const void *x, int64_t *worst); /* long double */
    void (*random)(hb_oracle_batch *bt, double scale);
} hb_oracle_kind;
extern const hb_oracle_kind hb_oracle_tridiag, hb_oracle_hines;

struct hb_oracle_batch {
    const hb_oracle_kind *kind;
    hb_precision p;
    int64_t nsys, nrows;
    int64_t *off;         /* nsys + 1 flat offsets                              */
    int32_t *parent;      /* Hines: flat local parents; NULL for tridiagonal    */
    int uniform;          /* every system has the same size ...                 */
    int shared;           /* ... and (Hines) the same tree: the uniform
                             constructors apply                                 */
    void *m[3];           /* flat a, b, c (tridiagonal) or u, l, d (Hines)      */
    void *rhs;
    void *xref;           /* the oracle's solution (hb_oracle_reference)        */
    hb_strategy ref_strategy;
};

/* Random batch shapes: nsys systems of lo..hi rows (lo == hi: uniform). Hines
 * systems get trees of kind `tree` (HB_TREE_KINDS: a random kind per system);
 * a uniform batch of one kind gets one tree, drawn once, for every system. */
typedef struct {
    const char *name;
    int64_t nsys, lo, hi;
    int tree;
} hb_oracle_shape;

/* A batch of the shape with random values (hb_test_*_random, scaled). */
void hb_oracle_make(hb_oracle_batch *bt, const hb_oracle_kind *kind, hb_precision p,
                    const hb_oracle_shape *sh, double scale);
/* A batch of the given systems, arrays zeroed (the caller fills m[] and rhs),
 * or copied from m0, m1, m2 and rhs when those are not NULL. */
void hb_oracle_init(hb_oracle_batch *bt, const hb_oracle_kind *kind, hb_precision p, int64_t nsys,
                    const int64_t *offsets, const int32_t *parent, const void *m0, const void *m1,
                    const void *m2, const void *rhs);
void hb_oracle_free(hb_oracle_batch *bt);

/* The oracle's solution through a plan with options o (NULL: defaults), itself
 * checked by residual; sets xref and ref_strategy. */
void hb_oracle_reference(hb_oracle_batch *bt, hb_context *oracle, const hb_plan_options *o,
                         const char *what);
/* Residual ratios of x (the library's and the independent long double one)
 * under HB_TEST_RATIO_MAX, and x against xref under the tolerance policy for a
 * solve with strategy `used` on ctx. */
void hb_oracle_check(const hb_context *ctx, const hb_oracle_batch *bt, const void *x,
                     hb_strategy used, const char *what);

/* One-shot solve on ctx, checked; the solution into x_out when not NULL. */
void hb_oracle_oneshot(hb_context *ctx, const hb_oracle_batch *bt, void *x_out, const char *what);

/* Plans in steps: create (use_uniform: the _uniform constructor), set all
 * four arrays, and finish: solve, synchronize and read the solution into a
 * poisoned x. Statuses are checked; create returns its status. */
hb_status hb_oracle_plan_create(hb_context *ctx, const hb_oracle_batch *bt,
                                const hb_plan_options *o, int use_uniform, hb_plan **plan);
void hb_oracle_plan_set(hb_plan *plan, const hb_oracle_batch *bt);
void hb_oracle_plan_finish(hb_plan *plan, const hb_oracle_batch *bt, void *x);

/* Options forcing strategy s with group_size group (the cooperative and
 * cell-group tests). */
hb_plan_options hb_oracle_options(hb_strategy s, int32_t group);
/* Whether ctx runs cooperative plans: 1 when a small one is made; 0 when
 * it is refused with HB_ERR_BACKEND_UNAVAILABLE naming the strategy, which
 * must be on a host backend (checked); any other failure is checked too. */
int hb_oracle_coop_available(hb_context *ctx);
/* Each of the n values bad[] of the environment variable var must fail the
 * creation of a cooperative tridiagonal plan (float, the library's group
 * size) with HB_ERR_INVALID_ARGUMENT, leave no plan and name the variable
 * and the value; var is unset afterwards. */
void hb_oracle_coop_env_refused(hb_context *ctx, const char *var, const char *const *bad,
                                size_t n);
/* A tridiagonal batch of nsys systems of lo..hi rows, each row scaled by
 * 10^k, k in [-kmax, kmax] (the same solution: Thomas without pivoting is
 * row-scaling invariant up to rounding), or, with weak != 0, a diagonal
 * barely over the off-diagonal sum (1.001 x, near-singular: for residual
 * checks only, the policy's difference bound being for well-conditioned
 * systems). */
void hb_oracle_tridiag_hard(hb_oracle_batch *bt, hb_precision p, int64_t nsys, int64_t lo,
                            int64_t hi, int kmax, int weak);
/* Solves bt through a plan with options o on ctx and checks the residual
 * ratio alone against bound (near-singular batches). */
void hb_oracle_residual_only(hb_context *ctx, const hb_oracle_batch *bt, const hb_plan_options *o,
                             double bound, const char *what);
/* ... checked: the solution of a step against the reference. */
void hb_oracle_plan_check(const hb_context *ctx, const hb_plan *plan, const hb_oracle_batch *bt,
                          const void *x, const char *what);
/* One time step of a plan whose arrays the caller has set: finish into x, the
 * oracle's reference of the batch as it now is (options ref_opts), check. */
void hb_oracle_plan_step(const hb_context *ctx, hb_context *oracle, const hb_plan_options *ref_opts,
                         hb_plan *plan, hb_oracle_batch *bt, void *x, const char *what);
/* All of it: a plan with options o on ctx, its hb_plan_get_info against o,
 * one solve checked; the solution into x_out when not NULL. */
void hb_oracle_plan(hb_context *ctx, const hb_oracle_batch *bt, const hb_plan_options *o,
                    int use_uniform, void *x_out, const char *what);

/* The suite of test_tridiag and test_hines: in both precisions, every shape
 * one-shot and in every layout of hb_test_layouts (uniform batches also
 * through the uniform constructor); then the shapes listed in scaled, scaled
 * near underflow and near overflow, one-shot and in four layouts. Returns
 * the exit code. */
int hb_oracle_suite(const char *test, const hb_oracle_kind *kind, const hb_oracle_shape *shapes,
                    int nshapes, const int *scaled, int nscaled);

#endif
