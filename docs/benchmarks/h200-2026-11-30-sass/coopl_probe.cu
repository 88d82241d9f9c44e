/* coopl_probe.cu: the resident Thomas kernel (kernels_cl/solver/thomas_coop_local.cl, as the CUDA backend compiles it) on a uniform batch outside the library: median device time (CUDA events around the launch) and host time of launch + synchronize, d restored from a copy before each solve. */
#include "cl_compat.cuh"

#define HB_CL_FILE "solver/thomas_coop_local.cl"
#include "cl_both_precisions.cuh"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CK(x)                                                                              \
    do {                                                                                   \
        cudaError_t e_ = (x);                                                              \
        if (e_ != cudaSuccess) {                                                           \
            std::fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_));                  \
            return 1;                                                                      \
        }                                                                                  \
    } while (0)

template <typename T>
static int run(long long nslots, int n, int P, int S, int ld, int reps)
{
    const size_t rows = (size_t)nslots * n;
    std::vector<T> h(rows);
    std::vector<long long> base(nslots), len(nslots, n);
    for (long long t = 0; t < nslots; ++t)
        base[t] = t * n;
    T *a, *b, *c, *d, *d0;
    long long *db, *dr;
    CK(cudaMalloc(&a, rows * sizeof(T)));
    CK(cudaMalloc(&b, rows * sizeof(T)));
    CK(cudaMalloc(&c, rows * sizeof(T)));
    CK(cudaMalloc(&d, rows * sizeof(T)));
    CK(cudaMalloc(&d0, rows * sizeof(T)));
    CK(cudaMalloc(&db, nslots * sizeof(long long)));
    CK(cudaMalloc(&dr, nslots * sizeof(long long)));
    CK(cudaMemcpy(db, base.data(), nslots * sizeof(long long), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dr, len.data(), nslots * sizeof(long long), cudaMemcpyHostToDevice));
    srand(7);
    T *arr[4] = {a, b, c, d0};
    std::vector<T> hs[4];
    for (int k = 0; k < 4; ++k) {
        for (size_t i = 0; i < rows; ++i) {
            const double u = rand() / (double)RAND_MAX;
            h[i] = (T)(k == 1 ? 3 + u : k == 3 ? u : -u);
        }
        CK(cudaMemcpy(arr[k], h.data(), rows * sizeof(T), cudaMemcpyHostToDevice));
        hs[k] = h;
    }
    const size_t smem = (size_t)3 * S * P * ld * sizeof(T);
    const bool dbl = sizeof(T) == 8;
    const void *fn = dbl ? (const void *)hb_cl_d::hb_thomas_coop_local_d
                         : (const void *)hb_cl_s::hb_thomas_coop_local_s;
    CK(cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    const unsigned grid = (unsigned)((nslots + S - 1) / S);
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    const char *rf = std::getenv("PROBE_REFRESH");
    const bool refresh_host = rf && std::strcmp(rf, "host") == 0;
    std::vector<double> dev, host;
    for (int r = 0; r < reps + 20; ++r) {
        /* PROBE_REFRESH=host: d written from the host, as the library's
         * bench re-arms a plan; else a device copy. */
        if (refresh_host)
            CK(cudaMemcpy(d, hs[3].data(), rows * sizeof(T), cudaMemcpyHostToDevice));
        else
            CK(cudaMemcpy(d, d0, rows * sizeof(T), cudaMemcpyDeviceToDevice));
        CK(cudaDeviceSynchronize());
        const auto t0 = std::chrono::steady_clock::now();
        CK(cudaEventRecord(e0));
        if (dbl)
            hb_cl_d::hb_thomas_coop_local_d<<<grid, S * P, smem>>>(
                nslots, P, ld, db, dr, (const double *)a, (const double *)b, (const double *)c,
                (double *)d);
        else
            hb_cl_s::hb_thomas_coop_local_s<<<grid, S * P, smem>>>(
                nslots, P, ld, db, dr, (const float *)a, (const float *)b, (const float *)c,
                (float *)d);
        CK(cudaEventRecord(e1));
        CK(cudaStreamSynchronize(0));
        const auto t1 = std::chrono::steady_clock::now();
        CK(cudaGetLastError());
        float ms = 0;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        if (r >= 20) {
            dev.push_back(ms * 1e3);
            host.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
        }
    }
    /* The last solve's worst residual row, relative to |b x|, over every system. */
    CK(cudaMemcpy(h.data(), d, rows * sizeof(T), cudaMemcpyDeviceToHost));
    double worst = 0;
    for (size_t i = 0; i < rows; ++i) {
        const size_t r0 = i % (size_t)n;
        double s = (double)hs[1][i] * h[i] - hs[3][i];
        if (r0 > 0)
            s += (double)hs[0][i] * h[i - 1];
        if (r0 + 1 < (size_t)n)
            s += (double)hs[2][i] * h[i + 1];
        worst = std::max(worst, std::abs(s) / (std::abs((double)hs[1][i] * h[i]) + 1e-300));
    }
    std::sort(dev.begin(), dev.end());
    std::sort(host.begin(), host.end());
    std::printf("cuda %s %lld x %d (P %d, S %d, ld %d): device %.2f us, launch+sync%s %.2f us, residual %.1e\n",
                dbl ? "double" : "float", nslots, n, P, S, ld, dev[dev.size() / 2],
                refresh_host ? " after a host write" : "", host[host.size() / 2], worst);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 8) {
        std::fprintf(stderr, "usage: %s double|float NSLOTS N P S LD REPS\n", argv[0]);
        return 2;
    }
    const long long ns = atoll(argv[2]);
    const int n = atoi(argv[3]), P = atoi(argv[4]), S = atoi(argv[5]), ld = atoi(argv[6]),
              reps = atoi(argv[7]);
    return std::strcmp(argv[1], "double") == 0 ? run<double>(ns, n, P, S, ld, reps)
                                                : run<float>(ns, n, P, S, ld, reps);
}
