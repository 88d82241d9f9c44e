/* hb_test_util.h: shared test helpers: seeded RNG, backend context from the environment, checks, comparisons. */
#ifndef HB_TEST_UTIL_H
#define HB_TEST_UTIL_H

#include <stdint.h>
#include <stdio.h>

#include "hinesbatch.h"

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

#endif
