/* cu_floor.cu: the host cost of one small CUDA launch: a one-block kernel (the arguments of cl_floor.c's) launched and waited for (cudaStreamSynchronize), launches alone, and the synchronize after one launch. Median microseconds of 2,000 each. */
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <algorithm>

static double now_us()
{
    timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec * 1e-3;
}
#define N 2000
static double t[N];
static double median()
{
    std::sort(t, t + N);
    return t[N / 2];
}
#define CK(x)                                                                                   \
    do {                                                                                        \
        cudaError_t e_ = (x);                                                                   \
        if (e_ != cudaSuccess) {                                                                \
            fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_));                            \
            return 1;                                                                           \
        }                                                                                       \
    } while (0)

__global__ void k(double *x, long long n, int a, int b, double *y, double *z, double *w, double *u,
                  double *v)
{
    extern __shared__ double s[];
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    s[threadIdx.x] = 1.0;
    if (i < n)
        x[i] += (double)(a + b);
}

int main()
{
    double *m;
    CK(cudaMalloc(&m, 64 * sizeof(double)));
    cudaStream_t q;
    CK(cudaStreamCreate(&q));
    for (int r = 0; r < 200; ++r)
        k<<<1, 64, 64 * sizeof(double), q>>>(m, 64, 1, 2, m, m, m, m, m);
    CK(cudaStreamSynchronize(q));
    for (int r = 0; r < N; ++r) {
        double t0 = now_us();
        k<<<1, 64, 64 * sizeof(double), q>>>(m, 64, 1, 2, m, m, m, m, m);
        CK(cudaGetLastError());
        CK(cudaStreamSynchronize(q));
        t[r] = now_us() - t0;
    }
    printf("launch + cudaStreamSynchronize: %.2f us\n", median());
    for (int r = 0; r < N; ++r) {
        double t0 = now_us();
        k<<<1, 64, 64 * sizeof(double), q>>>(m, 64, 1, 2, m, m, m, m, m);
        t[r] = now_us() - t0;
        if (r % 1000 == 999)
            CK(cudaStreamSynchronize(q));
    }
    CK(cudaStreamSynchronize(q));
    printf("launch alone (stream drained every 1,000): %.2f us\n", median());
    for (int r = 0; r < N; ++r) {
        k<<<1, 64, 64 * sizeof(double), q>>>(m, 64, 1, 2, m, m, m, m, m);
        double t0 = now_us();
        CK(cudaStreamSynchronize(q));
        t[r] = now_us() - t0;
    }
    printf("cudaStreamSynchronize after one launch: %.2f us\n", median());
    CK(cudaFree(m));
    return 0;
}
