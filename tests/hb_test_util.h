/* hb_test_util.h: shared test helpers: seeded RNG, backend contexts, checks, the tolerance policy against the serial oracle, plan facts, random batches. */
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
double   hb_test_seconds(void);         /* wall clock (C11 timespec_get)         */

/* The suite's HINESBATCH_* settings (backend, strategy, device, platform):
 * saved once, put back after each part of a test that changes them, freed
 * at the end. */
void hb_test_env_save(void);
void hb_test_env_restore(void);
void hb_test_env_free(void);

/* ---- Contexts -------------------------------------------------------------
 * hb_test_context: the backend under test (HINESBATCH_BACKEND, through
 * HB_BACKEND_AUTO); hb_test_backend_context: a named backend (the
 * backend-specific tests, test_<backend>_*.c). Either exits 1 when the
 * backend does not open, with one exception: a backend that is compiled in
 * but finds no device, under HB_TEST_ALLOW_SKIP=1 (tests/CMakeLists.txt sets
 * it for cuda only), exits 77 (skipped), unless a check already failed. */
hb_context *hb_test_context(void);
hb_context *hb_test_backend_context(hb_backend backend);
/* The serial oracle. */
hb_context *hb_test_oracle(void);
/* A shipped neuron (data/morphologies/NAME) cut by opts (NULL: defaults);
 * exits 1 with the library's message when it cannot be loaded. */
hb_morph_cell *hb_test_load_swc(const char *name, const hb_discretize_options *opts);
/* The same cut as NEURON-style sections of nseg compartments (0: d_lambda). */
hb_morph_cell *hb_test_load_sections(const char *name, int nseg);
/* A cell's compartments. */
int64_t hb_test_cell_rows(const hb_morph_cell *cell);
/* 1 when the backend runs on the host (serial, openmp): its buffers are host
 * memory and it runs the oracle's own loops. */
int hb_test_host_backend(hb_backend backend);
int hb_test_on_host(const hb_context *ctx);

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

/* Exits 1 with the library's message (which operation is missing) when the
 * backend cannot run a simulation, so the test fails once, not per check. */
void hb_test_require_sim(hb_context *ctx);

/* Prints the oracle comparisons made (see the policy below), "N passed, M
 * failed" and returns the process exit code. */
int hb_test_finish(void);

/* ---- Tolerance policy: a backend's solution against the serial oracle -----
 * Every comparison of a solver result with the serial oracle goes through
 * hb_test_compare_to_oracle; this is the one rule (tests/README.md states it
 * too). It depends on the backend and on whether both sides eliminate in the
 * same order (same_order: the same strategy; per-system is the same order in
 * every layout and padding):
 *
 *   same order, host backend (serial, openmp): bit-identical. They run the
 *       oracle's own loops.
 *   same order, GPU backend (opencl, cuda): every element within
 *       HB_TEST_ULP_MAX = 2 ulp of the oracle's. The kernels do the oracle's
 *       operations in its order with IEEE division and no contraction into
 *       fma (docs/opencl.md, docs/cuda.md); observed bit-identical.
 *   another order, any backend (a branch strategy against the per-system
 *       oracle, or AUTO picking one for a one-shot solve on a GPU): junction
 *       sums are added in another order, so results differ by rounding,
 *       amplified by the matrix's condition: per system, ||x - ref||_inf /
 *       ||ref||_inf <= HB_TEST_DIFF_DOUBLE (1e-12) or HB_TEST_DIFF_FLOAT
 *       (1e-4). This holds for the well-conditioned random batches of the
 *       suite (diagonally dominant; see hb_test_hines_random), not for any
 *       matrix; the residual ratio (below) is the check that holds for all.
 *
 * NaN anywhere (an unwritten, poisoned output) fails every tier. Simulations
 * compare traces, not solutions; they follow the same split (bit-identical on
 * host backends in the same order) with the bounds HB_TEST_SIM_*. */
#define HB_TEST_ULP_MAX 2.0
#define HB_TEST_DIFF_DOUBLE 1e-12
#define HB_TEST_DIFF_FLOAT 1e-4
double hb_test_diff_bound(hb_precision p);
/* Applies the policy to the flat solutions x (backend under test) and ref
 * (oracle) of nsys systems with flat offsets; checks (HB_CHECK) and returns 1
 * when within. */
int hb_test_compare_to_oracle(hb_backend backend, int same_order, hb_precision p, int64_t nsys,
                              const int64_t *offsets, const void *x, const void *ref,
                              const char *what);

/* Simulations against the serial backend (test_sim_backend, test_opencl_sim)
 * compare soma traces, the same split again: same order on a host backend:
 * bit-identical; otherwise the same spike counts, spike times within
 * HB_TEST_SIM_MS and soma voltages within HB_TEST_SIM_MV; in float away from
 * spikes, and from depolarisations above HB_TEST_SIM_EXCURSION_MV, by more
 * than HB_TEST_SIM_SPIKE_WINDOW ms (a spike moved by a few microseconds
 * changes the voltage on its flanks by mV), up to the first one in one run
 * only (below). Double: the bounds
 * absorb the device's exp/expm1 (last bits) and another order of sums. Float,
 * same order: only exp/expm1 differ (seen: 0.014 mV on PoCL); another order:
 * rounding differences grow in HH dynamics near threshold over milliseconds
 * (in 360 random scenarios: 9 in 10 under 0.06 mV, the largest 2.4 mV), and a
 * cell that reaches threshold slowly turns them into a later crossing (the
 * largest of 300 seeds 0.018 ms; seed 8248132679739: 0.21 ms). */
#define HB_TEST_SIM_MS(p, same_order) ((p) == HB_DOUBLE ? 1e-6 : (same_order) ? 0.05 : 0.5)
#define HB_TEST_SIM_MV(p, same_order) ((p) == HB_DOUBLE ? 1e-6 : (same_order) ? 0.5 : 5.0)
#define HB_TEST_SIM_SPIKE_WINDOW 1.0
/* Float can also decide whether a near-threshold depolarisation fires or
 * fails: seed 6092059641002 (test_sim_backend, float twins, vx) has the
 * serial run's failed spike reach -29.6 mV at 9 ms where PoCL's stayed at
 * -52 mV, with equal spike counts, and the voltages differ by up to 5.7 mV
 * for a millisecond after it. So in float the window is also kept around
 * every sample above this voltage in either trace, and a cell's voltages are
 * compared only up to a window before the first sample above it in one run
 * that the other run has nothing above it within the window of (the runs
 * part at an all-or-none event there; spikes are still compared). */
#define HB_TEST_SIM_EXCURSION_MV (-45.0)
/* And whether the voltage crosses the spike threshold there at all: seed
 * 8669040056574 (test_sim_backend, float twins, vx) has one run dip below
 * the -20 mV threshold between two peaks and cross it again (a fifth spike)
 * where the other stays just above it (traces within 0.025 mV all along).
 * So in float a spike in one run only is no failure where, within the window
 * of it, both traces agree within this and the other comes within this of
 * the threshold; the cell's spike times are compared up to it. A spike lost
 * or added by a fault parts the traces by tens of mV and still fails. */
#define HB_TEST_SIM_GRAZE_MV 1.0
/* Compares ncells traces of nsamples (sample j at t = j*dt) and spike times
 * (times[c*max_times + k], counts[c]) with the serial run's. */
typedef struct {
    int64_t ncells, nsamples, max_times;
    double dt;
    const double *trace;  /* ncells x nsamples */
    const double *times;  /* ncells x max_times */
    const int64_t *count; /* ncells */
    double threshold;     /* the spike threshold, mV (the traces are at the detector) */
} hb_test_sim_run;
void hb_test_compare_sim(hb_backend backend, int same_order, hb_precision p,
                         const hb_test_sim_run *x, const hb_test_sim_run *ref, const char *what);

/* ---- Plans ------------------------------------------------------------------ */
/* hb_plan_get_info, checked; a zeroed struct on failure. */
hb_plan_info hb_test_plan_info(const hb_plan *plan);
/* The smallest chain, doubling from 1,024 rows, whose forced cell-group
 * plan (couplings shared or not) runs the strategy `instead` (its cell is
 * past local memory); 0 where none up to 2^22 rows does, or a create
 * failed (checked). */
int64_t hb_test_cell_fallback_rows(hb_context *ctx, hb_precision p, int shared,
                                   hb_strategy instead);
/* Checks every field of hb_plan_get_info against what the plan was made of:
 * ctx, precision, nsys systems with flat offsets, parent (flat, NULL for a
 * tridiagonal plan) and the options (NULL: defaults). HINESBATCH_STRATEGY
 * must be unset (AUTO then means the library's rule). */
void hb_test_check_info(const hb_plan *plan, const hb_context *ctx, hb_precision p, int64_t nsys,
                        const int64_t *offsets, const int32_t *parent, const hb_plan_options *o,
                        const char *what);

/* Largest per-system normwise difference ||x - y||_inf / ||y||_inf over a flat
 * batch (precision p); 0 when identical, INFINITY with a NaN. */
double hb_test_max_rel_diff(hb_precision p, int64_t nsys, const int64_t *offsets, const void *x,
                            const void *y);
/* 1 if the two arrays are bit-identical. */
int hb_test_bitequal(const void *x, const void *y, size_t bytes);
/* Fills n values with NaN so unwritten outputs show. */
void hb_test_poison(hb_precision p, void *x, int64_t n);

/* ---- Random test batches ------------------------------------------------- */
/* Element access in either precision. */
double hb_test_get(hb_precision p, const void *x, int64_t k);
void   hb_test_put(hb_precision p, void *x, int64_t k, double v);
/* calloc of n elements of precision p (exits on failure: tests only). */
void  *hb_test_alloc(hb_precision p, int64_t n);
void  *hb_test_xalloc(size_t bytes);
size_t hb_test_esize(hb_precision p);
const char *hb_test_precision_name(hb_precision p); /* "double", "float" */

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
/* Plan options with the layout, block size and padding of l. */
hb_plan_options hb_test_layout_options(const hb_test_layout *l);

#endif
