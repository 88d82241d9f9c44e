/* bench_cuda.cu: times the hinesbatch CUDA interleaved Thomas solve, cuSPARSE gtsvInterleavedBatch / gtsv2StridedBatch and a D2D copy. */
#include "bench_cuda.h"
#include "cli.h"

#include <cuda_runtime.h>
#include <cusparse.h> /* types and prototypes only: the library is loaded at run time */
#include <dlfcn.h>

#include <algorithm>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>

static char bench_msg[1024];

const char *hb_bench_cuda_error(void) { return bench_msg; }

static hb_status fail(hb_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(bench_msg, sizeof bench_msg, fmt, ap);
    va_end(ap);
    return st;
}

/* ---- cuSPARSE, loaded when the first comparison runs --------------------
 * Not linked: the CLI then needs neither libcusparse nor the nvJitLink it
 * pulls in to solve or simulate; only these rows need them. The soname of
 * the toolkit built against first (the loader's path), then the toolkit's
 * own library folder (HB_CUSPARSE_DIR, from CMake). */
#define HB_CUSPARSE_FUNCTIONS(X)                                                          \
    X(cusparseCreate) X(cusparseDestroy) X(cusparseSetStream) X(cusparseGetErrorString)   \
    X(cusparseDgtsvInterleavedBatch_bufferSizeExt)                                        \
    X(cusparseSgtsvInterleavedBatch_bufferSizeExt)                                        \
    X(cusparseDgtsvInterleavedBatch) X(cusparseSgtsvInterleavedBatch)                     \
    X(cusparseDgtsv2StridedBatch_bufferSizeExt) X(cusparseSgtsv2StridedBatch_bufferSizeExt) \
    X(cusparseDgtsv2StridedBatch) X(cusparseSgtsv2StridedBatch)
#define HB_CUSPARSE_POINTER(name) static decltype(&name) p_##name;
HB_CUSPARSE_FUNCTIONS(HB_CUSPARSE_POINTER)
#undef HB_CUSPARSE_POINTER

#define HB_STR_(x) #x
#define HB_STR(x) HB_STR_(x)
#define HB_CUSPARSE_SONAME "libcusparse.so." HB_STR(CUSPARSE_VER_MAJOR)

/* 1 when every function is there, 0 with the reason in load_msg. Tried once. */
static int cusparse_state = -1;
static char load_msg[768];

static int load_cusparse(void)
{
    if (cusparse_state >= 0)
        return cusparse_state;
    const char *names[] = {HB_CUSPARSE_SONAME,
#ifdef HB_CUSPARSE_DIR
                           HB_CUSPARSE_DIR "/" HB_CUSPARSE_SONAME
#endif
    };
    void *lib = 0;
    size_t used = 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0] && !lib; ++i) {
        lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
        if (!lib && used < sizeof load_msg) {
            const char *e = dlerror();
            used += (size_t)snprintf(load_msg + used, sizeof load_msg - used, "%s%s",
                                     used ? "; " : "", e ? e : names[i]);
        }
    }
    cusparse_state = 0;
    if (!lib)
        return 0;
#define HB_CUSPARSE_LOAD(name)                                                            \
    if (!(p_##name = (decltype(&name))dlsym(lib, #name))) {                               \
        snprintf(load_msg, sizeof load_msg, "%s has no %s", HB_CUSPARSE_SONAME, #name);   \
        return 0;                                                                         \
    }
    HB_CUSPARSE_FUNCTIONS(HB_CUSPARSE_LOAD)
#undef HB_CUSPARSE_LOAD
    return cusparse_state = 1; /* kept loaded until the process ends */
}

/* The text of a failed CUDA or cuSPARSE status; NULL for success. */
static const char *why(cudaError_t e) { return e == cudaSuccess ? 0 : cudaGetErrorString(e); }
static const char *why(cusparseStatus_t e)
{
    return e == CUSPARSE_STATUS_SUCCESS ? 0 : p_cusparseGetErrorString(e);
}

/* A CUDA or cuSPARSE call that fails names itself in bench_msg and ends the case. */
#define CK(call)                                                                          \
    do {                                                                                  \
        const char *why_ = why(call);                                                     \
        if (why_) {                                                                       \
            st = fail(HB_ERR_BACKEND, "%s: %s", #call, why_);                             \
            goto done;                                                                    \
        }                                                                                 \
    } while (0)
#define CKH(call)                                                                         \
    do {                                                                                  \
        st = (call);                                                                      \
        if (st != HB_SUCCESS) {                                                           \
            fail(st, "%s: %s", #call, hb_last_error());                                   \
            goto done;                                                                    \
        }                                                                                 \
    } while (0)

/* cuSPARSE by precision. */
static cusparseStatus_t il_size(cusparseHandle_t h, int m, const double *dl, const double *d,
                                const double *du, const double *x, int b, size_t *s)
{
    return p_cusparseDgtsvInterleavedBatch_bufferSizeExt(h, 0, m, dl, d, du, x, b, s);
}
static cusparseStatus_t il_size(cusparseHandle_t h, int m, const float *dl, const float *d,
                                const float *du, const float *x, int b, size_t *s)
{
    return p_cusparseSgtsvInterleavedBatch_bufferSizeExt(h, 0, m, dl, d, du, x, b, s);
}
static cusparseStatus_t il_solve(cusparseHandle_t h, int m, double *dl, double *d, double *du,
                                 double *x, int b, void *w)
{
    return p_cusparseDgtsvInterleavedBatch(h, 0, m, dl, d, du, x, b, w);
}
static cusparseStatus_t il_solve(cusparseHandle_t h, int m, float *dl, float *d, float *du,
                                 float *x, int b, void *w)
{
    return p_cusparseSgtsvInterleavedBatch(h, 0, m, dl, d, du, x, b, w);
}
static cusparseStatus_t st_size(cusparseHandle_t h, int m, const double *dl, const double *d,
                                const double *du, const double *x, int b, size_t *s)
{
    return p_cusparseDgtsv2StridedBatch_bufferSizeExt(h, m, dl, d, du, x, b, m, s);
}
static cusparseStatus_t st_size(cusparseHandle_t h, int m, const float *dl, const float *d,
                                const float *du, const float *x, int b, size_t *s)
{
    return p_cusparseSgtsv2StridedBatch_bufferSizeExt(h, m, dl, d, du, x, b, m, s);
}
static cusparseStatus_t st_solve(cusparseHandle_t h, int m, const double *dl, const double *d,
                                 const double *du, double *x, int b, void *w)
{
    return p_cusparseDgtsv2StridedBatch(h, m, dl, d, du, x, b, m, w);
}
static cusparseStatus_t st_solve(cusparseHandle_t h, int m, const float *dl, const float *d,
                                 const float *du, float *x, int b, void *w)
{
    return p_cusparseSgtsv2StridedBatch(h, m, dl, d, du, x, b, m, w);
}

static double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? NAN : v[v.size() / 2];
}

/* Per-case timing: a group = restore every set's inputs (untimed), then the
 * calls on sets 0..k-1. One warm-up group, then enough groups for about
 * 0.3 s of timed work (10 to 200). host: each call timed alone by the host
 * clock around the call and a stream synchronisation (as apps/bench_run.c
 * times hinesbatch's rows of a suite, so that a suite's rows compare like
 * with like); else CUDA events around the group's back-to-back calls. */
struct timer {
    cudaStream_t s;
    cudaEvent_t e0, e1;
    int host;
};

template <typename Restore, typename Run>
static hb_status time_groups(timer &tm, int sets, Restore restore, Run run, double *ms_per_call,
                             int *reps_out)
{
    std::vector<double> t;
    int reps = 1;
    for (int g = 0; g < 1 + reps; ++g) {
        hb_status st = restore();
        if (st != HB_SUCCESS)
            return st;
        cudaError_t e = cudaStreamSynchronize(tm.s);
        if (e != cudaSuccess)
            return fail(HB_ERR_BACKEND, "restore: %s", cudaGetErrorString(e));
        double group_ms = 0;
        if (tm.host) {
            for (int j = 0; j < sets; ++j) {
                const double t0 = cli_now_s();
                if ((st = run(j)) != HB_SUCCESS)
                    return st;
                if ((e = cudaStreamSynchronize(tm.s)) != cudaSuccess)
                    return fail(HB_ERR_BACKEND, "timed call: %s", cudaGetErrorString(e));
                const double ms = (cli_now_s() - t0) * 1e3;
                group_ms += ms;
                if (g > 0)
                    t.push_back(ms);
            }
        } else {
            cudaEventRecord(tm.e0, tm.s);
            for (int j = 0; j < sets; ++j)
                if ((st = run(j)) != HB_SUCCESS)
                    return st;
            cudaEventRecord(tm.e1, tm.s);
            if ((e = cudaEventSynchronize(tm.e1)) != cudaSuccess)
                return fail(HB_ERR_BACKEND, "timed group: %s", cudaGetErrorString(e));
            float ms = 0;
            cudaEventElapsedTime(&ms, tm.e0, tm.e1);
            group_ms = ms;
            if (g > 0)
                t.push_back((double)ms / sets);
        }
        if (g == 0) /* warm-up: sets the number of timed groups */
            reps = (int)std::min(200.0, std::max(10.0, 300.0 / std::max(group_ms, 1e-3)));
    }
    *ms_per_call = median(t);
    if (reps_out)
        *reps_out = reps;
    return HB_SUCCESS;
}

/* Interleaved (i*nsys + s) to flat (s*n + i). */
template <typename T>
static void to_flat(const T *il, T *flat, int64_t nsys, int64_t n)
{
    for (int64_t i = 0; i < n; ++i)
        for (int64_t s = 0; s < nsys; ++s)
            flat[s * n + i] = il[i * nsys + s];
}

/* One case: its host inputs (flat) and what its timings share. */
template <typename T>
struct thomas_case {
    hb_precision p;
    int64_t nsys, n, N;
    size_t bytes; /* one array of N values */
    std::vector<T> a, b, c, d, x, xt;
    std::vector<int64_t> offs;
    timer tm;
    int sets;
    cusparseHandle_t sp;
    thomas_case(hb_precision p_, int64_t nsys_, int64_t n_)
        : p(p_), nsys(nsys_), n(n_), N(nsys_ * n_), bytes((size_t)N * sizeof(T)), a(N), b(N),
          c(N), d(N), x(N), xt(N), offs(nsys_ + 1), tm(), sets(1), sp(0)
    {
    }
};

/* Times a cuSPARSE solver, gtsvInterleavedBatch (algo 0) on interleaved data
 * or gtsv2StridedBatch on flat data, on its own copy per set of the four
 * device arrays src (dl, d, du, rhs: it solves in place), then checks set 0's
 * solution against the host inputs. */
template <typename T>
static hb_status time_cusparse(thomas_case<T> &tc, bool interleaved, const T *const src[4],
                               double *ms, double *res)
{
    hb_status st = HB_SUCCESS;
    const char *name = interleaved ? "gtsvInterleavedBatch" : "gtsv2StridedBatch";
    const int m = (int)tc.n, batch = (int)tc.nsys;
    const int64_t N = tc.N;
    T *work = 0;
    void *wbuf = 0;
    size_t wsize = 0;
    int64_t worst = 0;
    CK(cudaMalloc(&work, 4 * tc.bytes * tc.sets));
    CK(interleaved ? il_size(tc.sp, m, work, work, work, work, batch, &wsize)
                    : st_size(tc.sp, m, work, work, work, work, batch, &wsize));
    CK(cudaMalloc(&wbuf, wsize ? wsize : 1));
    st = time_groups(
        tc.tm, tc.sets,
        [&]() -> hb_status {
            for (int j = 0; j < tc.sets; ++j)
                for (int q = 0; q < 4; ++q)
                    if (cudaMemcpyAsync(work + (size_t)(4 * j + q) * N, src[q], tc.bytes,
                                        cudaMemcpyDeviceToDevice, tc.tm.s) != cudaSuccess)
                        return fail(HB_ERR_BACKEND, "restore %s inputs", name);
            return HB_SUCCESS;
        },
        [&](int j) -> hb_status {
            T *w = work + (size_t)4 * j * N;
            cusparseStatus_t e =
                interleaved ? il_solve(tc.sp, m, w, w + N, w + 2 * N, w + 3 * N, batch, wbuf)
                            : st_solve(tc.sp, m, w, w + N, w + 2 * N, w + 3 * N, batch, wbuf);
            return e == CUSPARSE_STATUS_SUCCESS
                       ? HB_SUCCESS
                       : fail(HB_ERR_BACKEND, "%s: %s", name, p_cusparseGetErrorString(e));
        },
        ms, 0);
    if (st != HB_SUCCESS)
        goto done;
    CK(cudaMemcpy(interleaved ? tc.xt.data() : tc.x.data(), work + 3 * N, tc.bytes,
                  cudaMemcpyDeviceToHost));
    if (interleaved)
        to_flat(tc.xt.data(), tc.x.data(), tc.nsys, tc.n);
    CKH(hb_tridiag_residual(tc.p, tc.nsys, tc.offs.data(), tc.a.data(), tc.b.data(), tc.c.data(),
                            tc.x.data(), tc.d.data(), res, &worst));
done:
    cudaFree(work);
    cudaFree(wbuf);
    return st;
}

template <typename T>
static hb_status bench(hb_context *ctx, hb_precision p, int64_t nsys, int64_t n, uint64_t seed,
                       int host_clock, hb_bench_thomas *out)
{
    hb_status st = HB_SUCCESS;
    thomas_case<T> tc(p, nsys, n);
    const int64_t N = tc.N;
    const size_t bytes = tc.bytes;
    std::vector<T> &a = tc.a, &b = tc.b, &c = tc.c, &d = tc.d, &x = tc.x;
    std::vector<hb_plan *> plans;
    T *P = 0, *flat0 = 0, *csrc = 0, *cdst = 0;
    cudaDeviceProp prop;
    int dev = 0;
    int64_t worst = 0;
    hb_plan_options opts;
    uint64_t rng = seed;

    for (int64_t s = 0; s < nsys; ++s) {
        tc.offs[s] = s * n;
        for (int64_t i = 0; i < n; ++i) {
            int64_t k = s * n + i;
            a[k] = i == 0 ? (T)0 : (T)(2 * cli_unit(&rng) - 1);
            c[k] = i == n - 1 ? (T)0 : (T)(2 * cli_unit(&rng) - 1);
            b[k] = (T)(fabs((double)a[k]) + fabs((double)c[k]) + 0.5 + cli_unit(&rng));
            d[k] = (T)(2 * cli_unit(&rng) - 1);
        }
    }
    tc.offs[nsys] = N;
    memset(out, 0, sizeof *out);
    out->compulsory_bytes = 5.0 * (double)bytes;

    CK(cudaGetDevice(&dev));
    CK(cudaGetDeviceProperties(&prop, dev));
    /* Enough sets that one group's inputs are three times the L2. */
    tc.sets = (int)std::min<double>(
        256, std::max<double>(1, ceil(3.0 * prop.l2CacheSize / (4.0 * bytes))));
    out->sets = tc.sets;
    tc.tm.host = host_clock;
    CK(cudaStreamCreate(&tc.tm.s));
    CK(cudaEventCreate(&tc.tm.e0));
    CK(cudaEventCreate(&tc.tm.e1));

    /* ---- hinesbatch: one interleaved plan per set, on our stream ---- */
    hb_plan_options_init(&opts);
    opts.layout = HB_LAYOUT_INTERLEAVED;
    opts.stream = tc.tm.s;
    plans.assign(tc.sets, (hb_plan *)0);
    for (int j = 0; j < tc.sets; ++j) {
        CKH(hb_plan_create_tridiag_uniform(ctx, p, nsys, n, &opts, &plans[j]));
        CKH(hb_plan_set(plans[j], HB_ARRAY_A, a.data()));
        CKH(hb_plan_set(plans[j], HB_ARRAY_B, b.data()));
        CKH(hb_plan_set(plans[j], HB_ARRAY_C, c.data()));
        CKH(hb_plan_set(plans[j], HB_ARRAY_RHS, d.data()));
    }
    {
        void *rhs0 = 0;
        CK(cudaMalloc(&P, bytes));
        CKH(hb_plan_buffer(plans[0], HB_ARRAY_RHS, &rhs0));
        CK(cudaMemcpyAsync(P, rhs0, bytes, cudaMemcpyDeviceToDevice, tc.tm.s));
        CK(cudaStreamSynchronize(tc.tm.s));
    }
    st = time_groups(
        tc.tm, tc.sets,
        [&]() -> hb_status {
            for (int j = 0; j < tc.sets; ++j) {
                void *r = 0;
                hb_status s2 = hb_plan_buffer(plans[j], HB_ARRAY_RHS, &r); /* marks rhs set */
                if (s2 != HB_SUCCESS)
                    return fail(s2, "hb_plan_buffer: %s", hb_last_error());
                if (cudaMemcpyAsync(r, P, bytes, cudaMemcpyDeviceToDevice, tc.tm.s) != cudaSuccess)
                    return fail(HB_ERR_BACKEND, "restore rhs");
            }
            return HB_SUCCESS;
        },
        [&](int j) -> hb_status {
            hb_status s2 = hb_plan_solve(plans[j]);
            return s2 == HB_SUCCESS ? s2 : fail(s2, "hb_plan_solve: %s", hb_last_error());
        },
        &out->ms_hb, &out->reps);
    if (st != HB_SUCCESS)
        goto done;
    CKH(hb_plan_get_solution(plans[0], x.data()));
    CKH(hb_tridiag_residual(p, nsys, tc.offs.data(), a.data(), b.data(), c.data(), x.data(),
                            d.data(), &out->res_hb, &worst));

    /* ---- cuSPARSE gtsvInterleavedBatch on the plan's interleaved data ---- */
    CK(p_cusparseCreate(&tc.sp));
    CK(p_cusparseSetStream(tc.sp, tc.tm.s));
    {
        void *hA = 0, *hB = 0, *hC = 0;
        CKH(hb_plan_buffer(plans[0], HB_ARRAY_A, &hA));
        CKH(hb_plan_buffer(plans[0], HB_ARRAY_B, &hB));
        CKH(hb_plan_buffer(plans[0], HB_ARRAY_C, &hC));
        const T *src[4] = {(const T *)hA, (const T *)hB, (const T *)hC, P};
        st = time_cusparse(tc, true, src, &out->ms_interleaved, &out->res_interleaved);
        if (st != HB_SUCCESS)
            goto done;
    }
    /* The plans' memory goes back before the strided and copy runs. */
    for (int j = 0; j < tc.sets; ++j)
        hb_plan_destroy(plans[j]);
    plans.clear();
    cudaFree(P);
    P = 0;

    /* ---- cuSPARSE gtsv2StridedBatch on the flat data (batch stride n) ---- */
    {
        CK(cudaMalloc(&flat0, 4 * bytes));
        const T *host[4] = {a.data(), b.data(), c.data(), d.data()}, *src[4];
        for (int q = 0; q < 4; ++q) {
            CK(cudaMemcpy(flat0 + q * N, host[q], bytes, cudaMemcpyHostToDevice));
            src[q] = flat0 + q * N;
        }
        st = time_cusparse(tc, false, src, &out->ms_strided, &out->res_strided);
        if (st != HB_SUCCESS)
            goto done;
        cudaFree(flat0);
        flat0 = 0;
    }

    /* ---- device-to-device copy moving the same bytes (2.5 values per row each way) ---- */
    {
        const size_t cb = (size_t)(2.5 * (double)bytes);
        CK(cudaMalloc(&csrc, cb * tc.sets));
        CK(cudaMalloc(&cdst, cb * tc.sets));
        CK(cudaMemset(csrc, 0x3c, cb * tc.sets)); /* non-zero data */
        st = time_groups(
            tc.tm, tc.sets, [&]() -> hb_status { return HB_SUCCESS; },
            [&](int j) -> hb_status {
                return cudaMemcpyAsync((char *)cdst + cb * j, (char *)csrc + cb * j, cb,
                                       cudaMemcpyDeviceToDevice, tc.tm.s) == cudaSuccess
                           ? HB_SUCCESS
                           : fail(HB_ERR_BACKEND, "copy");
            },
            &out->ms_copy, 0);
    }
done:
    for (size_t j = 0; j < plans.size(); ++j)
        hb_plan_destroy(plans[j]);
    cudaFree(P);
    cudaFree(flat0);
    cudaFree(csrc);
    cudaFree(cdst);
    if (tc.sp)
        p_cusparseDestroy(tc.sp);
    if (tc.tm.e0)
        cudaEventDestroy(tc.tm.e0);
    if (tc.tm.e1)
        cudaEventDestroy(tc.tm.e1);
    if (tc.tm.s)
        cudaStreamDestroy(tc.tm.s);
    return st;
}

hb_status hb_bench_cuda_thomas(hb_context *ctx, hb_precision p, int64_t nsys, int64_t n,
                               uint64_t seed, int host_clock, hb_bench_thomas *out)
{
    bench_msg[0] = 0;
    if (!ctx || !out || nsys < 1 || n < 2)
        return fail(HB_ERR_INVALID_ARGUMENT, "hb_bench_cuda_thomas: ctx, out, nsys >= 1, n >= 2");
    if (hb_context_backend(ctx) != HB_BACKEND_CUDA)
        return fail(HB_ERR_INVALID_ARGUMENT, "hb_bench_cuda_thomas: ctx is %s, not cuda",
                    hb_context_describe(ctx));
    if (nsys * n > INT32_MAX)
        return fail(HB_ERR_INVALID_ARGUMENT, "hb_bench_cuda_thomas: cuSPARSE takes int sizes");
    if (!load_cusparse())
        return fail(HB_ERR_BACKEND_UNAVAILABLE,
                    "cannot load cuSPARSE (%s): the cuSPARSE rows need the CUDA toolkit's "
                    "%s where the loader finds it (LD_LIBRARY_PATH)",
                    load_msg, HB_CUSPARSE_SONAME);
    return p == HB_DOUBLE ? bench<double>(ctx, p, nsys, n, seed, host_clock, out)
                          : bench<float>(ctx, p, nsys, n, seed, host_clock, out);
}
