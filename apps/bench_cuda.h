/* bench_cuda.h: C-callable CUDA benchmark: hinesbatch interleaved Thomas against cuSPARSE and a device copy. */
#ifndef HB_BENCH_CUDA_H
#define HB_BENCH_CUDA_H

#include <stdint.h>

#include "hinesbatch.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One case: nsys systems of n rows, diagonally dominant, random. Times are
 * medians in milliseconds per solve (or per copy) over calls on `sets`
 * different input sets in turn (sets > 1 when one set would sit in L2):
 * with host_clock, each call timed alone by the host clock around the call
 * and a stream synchronisation (how bench_run.c times a suite's rows); else
 * CUDA events around a group of back-to-back calls. */
typedef struct {
    double ms_hb;          /* hb_plan_solve, full-interleaved layout                 */
    double ms_interleaved; /* cusparse<t>gtsvInterleavedBatch, algo 0 (Thomas)       */
    double ms_strided;     /* cusparse<t>gtsv2StridedBatch                           */
    double ms_copy;        /* cudaMemcpyAsync D2D moving the solve's compulsory bytes
                              (half of them read, half written)                      */
    double res_hb, res_interleaved, res_strided; /* largest LAPACK-style residual ratio */
    double compulsory_bytes; /* 5 values per row: a, b, c, d read; x written         */
    int    sets, reps;
} hb_bench_thomas;

/* Runs one case on the CUDA context ctx (HB_BACKEND_CUDA); seed makes the
 * inputs. On failure the message is in hb_bench_cuda_error();
 * HB_ERR_BACKEND_UNAVAILABLE when cuSPARSE could not be loaded (it is opened
 * at the first call, not linked). */
hb_status hb_bench_cuda_thomas(hb_context *ctx, hb_precision p, int64_t nsys, int64_t n,
                               uint64_t seed, int host_clock, hb_bench_thomas *out);
const char *hb_bench_cuda_error(void);

#ifdef __cplusplus
}
#endif
#endif
