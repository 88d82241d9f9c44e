/* hb_test_util.h: shared test helpers: seeded RNG, backend context from the environment, checks, comparisons. */
#ifndef HB_TEST_UTIL_H
#define HB_TEST_UTIL_H

#include <stdint.h>
#include <stdio.h>

#include "hinesbatch_sim.h" /* with the morphology and solver headers */

/* Seed from HB_TEST_SEED or the clock; printed so a failure can be replayed. */
uint64_t hb_test_begin(const char *name);
uint64_t hb_test_rand(void);            /* splitmix64 on the test seed          */
double   hb_test_unit(void);            /* uniform in [0, 1)                     */
int64_t  hb_test_range(int64_t lo, int64_t hi); /* uniform integer in [lo, hi]   */

/* The backend under test (HINESBATCH_BACKEND, through HB_BACKEND_AUTO). When it
 * finds no device and HB_TEST_ALLOW_SKIP=1 the test exits 77 (skipped). */
hb_context *hb_test_context(void);
/* The serial oracle. */
hb_context *hb_test_oracle(void);
/* 1 when the backend under test runs the same host loops as the oracle
 * (serial, openmp), so results must be bit-identical. */
int hb_test_bitwise(const hb_context *ctx);

extern int hb_test_failures;
extern int hb_test_checks;
#define HB_CHECK(cond, ...)                                                          \
    do {                                                                             \
        ++hb_test_checks;                                                            \
        if (!(cond)) {                                                               \
            ++hb_test_failures;                                                      \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                      \
            fprintf(stderr, __VA_ARGS__);                                            \
            fputc('\n', stderr);                                                     \
        }                                                                            \
    } while (0)
/* Checks that a call returned the expected status (message printed if not). */
#define HB_CHECK_STATUS(call, expect)                                                \
    do {                                                                             \
        hb_status hb_st_ = (call);                                                   \
        HB_CHECK(hb_st_ == (expect), "%s returned %s, expected %s (%s)", #call,      \
                 hb_status_string(hb_st_), hb_status_string(expect), hb_last_error()); \
    } while (0)

/* Checks that every element of x is within 2 ulp of the oracle's ref (the
 * GPU bound of docs/cuda.md and docs/opencl.md: the kernels do the oracle's
 * operations in its order, without contraction, with IEEE division; bit-
 * identical is expected) and prints how many elements differ. */
void hb_test_check_ulp(hb_precision p, int64_t n, const void *x, const void *ref,
                       const char *what);

/* Exits 1 with the library's message (which operation is missing) when the
 * backend cannot run a simulation, so the test fails once, not per check. */
void hb_test_require_sim(hb_context *ctx);

/* Prints "N passed, M failed" and returns the process exit code. */
int hb_test_finish(void);

/* Largest per-system normwise difference ||x - y||_inf / ||y||_inf over a flat
 * batch (precision p); 0 when identical. */
double hb_test_max_rel_diff(hb_precision p, int64_t nsys, const int64_t *offsets, const void *x,
                            const void *y);
/* 1 if the two arrays are bit-identical. */
int hb_test_bitequal(const void *x, const void *y, size_t bytes);
/* Fills n values with a signalling pattern (NaN) so unwritten outputs show. */
void hb_test_poison(hb_precision p, void *x, int64_t n);

/* ---- Random test batches ------------------------------------------------- */
/* Element access in either precision. */
double hb_test_get(hb_precision p, const void *x, int64_t k);
void   hb_test_put(hb_precision p, void *x, int64_t k, double v);
/* calloc of n elements of precision p (exits on failure: tests only). */
void  *hb_test_alloc(hb_precision p, int64_t n);
void  *hb_test_xalloc(size_t bytes);
size_t hb_test_esize(hb_precision p);

/* Offsets (nsys+1) of nsys systems of n rows each. */
int64_t *hb_test_offsets_uniform(int64_t nsys, int64_t n);
/* Offsets of nsys systems with random sizes in [lo, hi]; when nsys >= 2 one
 * system has lo rows and one hi rows, so the extremes are always present. */
int64_t *hb_test_offsets_random(int64_t nsys, int64_t lo, int64_t hi);

/* Tree shapes in Hines order (parent[0] = -1, 0 <= parent[i] < i). */
typedef enum {
    HB_TREE_CHAIN = 0, /* parent i-1: a cable, i.e. a tridiagonal system       */
    HB_TREE_STAR,      /* every node hangs off the root                          */
    HB_TREE_BINARY,    /* complete binary tree                                   */
    HB_TREE_RANDOM,    /* parent uniform in [0, i)                               */
    HB_TREE_NEURON,    /* long unbranched runs with rare branch points           */
    HB_TREE_KINDS
} hb_test_tree_kind;
const char *hb_test_tree_name(hb_test_tree_kind kind);
void hb_test_tree(int32_t *parent, int64_t n, hb_test_tree_kind kind);

/* Random diagonally dominant (well-conditioned) systems: off-diagonals in
 * [-1, 1], diagonal of random sign with a margin of 0.5..1.5 over the row's
 * off-diagonal sum, right-hand side in [-1, 1]. Every value of the batch is
 * then multiplied by scale (1 for plain batches; near-underflow or
 * near-overflow to test scaling), so solutions stay O(1). */
void hb_test_tridiag_random(hb_precision p, int64_t nsys, const int64_t *offsets, void *a, void *b,
                            void *c, void *rhs, double scale);
void hb_test_hines_random(hb_precision p, int64_t nsys, const int64_t *offsets,
                          const int32_t *parent, void *u, void *l, void *d, void *rhs,
                          double scale);

/* Independent LAPACK-style residual ratio ||b - A x||_inf / (||A||_inf ||x||_inf eps)
 * per system, in long double (eps of precision p); returns the largest and
 * its system in *worst (may be NULL). NaN/Inf anywhere gives INFINITY. Kept
 * apart from hb_tridiag_residual so a check never trusts the library alone. */
double hb_test_tridiag_ratio(hb_precision p, int64_t nsys, const int64_t *offsets, const void *a,
                             const void *b, const void *c, const void *x, const void *rhs,
                             int64_t *worst);
double hb_test_hines_ratio(hb_precision p, int64_t nsys, const int64_t *offsets,
                           const int32_t *parent, const void *u, const void *l, const void *d,
                           const void *x, const void *rhs, int64_t *worst);

/* Residual ratios at or above this fail (LAPACK's threshold). */
#define HB_TEST_RATIO_MAX 30.0
/* Normwise relative difference per system allowed between a GPU backend and
 * the serial oracle on the well-conditioned random batches above. */
#define HB_TEST_DIFF_DOUBLE 1e-12
#define HB_TEST_DIFF_FLOAT 1e-4
double hb_test_diff_bound(hb_precision p);

/* The layouts x paddings x block sizes every solver test runs (block sizes
 * include 1, non-powers of two and one larger than any test batch). */
typedef struct {
    hb_layout  layout;
    int32_t    block_size;
    hb_padding padding;
} hb_test_layout;
extern const hb_test_layout hb_test_layouts[];
extern const int hb_test_nlayouts;
/* "block-interleaved(bs=7)/compute" and the like. */
const char *hb_test_layout_name(const hb_test_layout *l);

#endif
