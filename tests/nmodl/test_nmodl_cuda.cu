/* test_nmodl_cuda.cu: the generated mechanism text compiled by nvcc through backend_cuda/cl_compat.cuh (both precisions) and run on the GPU against the same functions compiled for the host. */
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern "C" {
#include "hb_test_util.h"
}
#include "nmodl_device_check.h"

extern "C" const hb_mech_entry hb_mech_table_d[], hb_mech_table_s[];
extern "C" const int hb_mech_table_count_d, hb_mech_table_count_s;

#include "cl_compat.cuh"

/* Every shipped mechanism and the test kernels (hb_nmodl --test-kernels),
 * as namespaces hb_cl_d and hb_cl_s, as the backend's own kernels are. */
#define HB_CL_FILE "hb_mech_all.cl"
#include "cl_both_precisions.cuh"

template <typename real, typename kernel>
static double run(int dbl, const hb_mech_entry *m, kernel k)
{
    const int npts = HB_NMODL_DEV_NPTS;
    const hb_nmodl_dev_sizes z = hb_nmodl_dev_sizes_of(m, npts);
    const size_t sz[6] = {z.in, z.prm, z.st, z.st, z.out, z.st};
    void *host[6];
    real *dev[6];
    for (int i = 0; i < 6; ++i)
        host[i] = calloc(sz[i], sizeof(real));
    hb_nmodl_dev_inputs(dbl, m, npts, host[0], host[1], host[2], host[3], host[4], host[5]);
    for (int i = 0; i < 6; ++i) {
        HB_CHECK(cudaMalloc((void **)&dev[i], sz[i] * sizeof(real)) == cudaSuccess, "cudaMalloc");
        HB_CHECK(cudaMemcpy(dev[i], host[i], sz[i] * sizeof(real), cudaMemcpyHostToDevice) ==
                     cudaSuccess,
                 "cudaMemcpy");
    }
    k<<<(npts + 127) / 128, 128>>>(npts, dev[0], dev[1], dev[2], dev[3], dev[4], dev[5]);
    cudaError_t e = cudaDeviceSynchronize();
    HB_CHECK(e == cudaSuccess, "%s: kernel failed: %s", m->name, cudaGetErrorString(e));
    for (int i = 3; i < 6; ++i)
        HB_CHECK(cudaMemcpy(host[i], dev[i], sz[i] * sizeof(real), cudaMemcpyDeviceToHost) ==
                     cudaSuccess,
                 "cudaMemcpy back");
    const double w = hb_nmodl_dev_compare(dbl, m, npts, host[0], host[2], host[3], host[4], host[5]);
    for (int i = 0; i < 6; ++i) {
        cudaFree(dev[i]);
        free(host[i]);
    }
    return w;
}

int main(void)
{
    hb_test_begin("test_nmodl_cuda");
    int ndev = 0;
    if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
        /* as hb_test_backend_context: a skip only where the suite allows it */
        const char *allow = getenv("HB_TEST_ALLOW_SKIP");
        HB_CHECK(allow && strcmp(allow, "1") == 0, "no CUDA device");
        if (hb_test_failures)
            return hb_test_finish();
        printf("test_nmodl_cuda: no CUDA device: skipped\n");
        return 77;
    }
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    double worst[2] = {0, 0};
    for (int k = 0; k < hb_mech_table_count_d; ++k)
        worst[1] = fmax(worst[1], run<double>(1, &hb_mech_table_d[k],
                                              hb_cl_d::hb_mech_test_kernels_d[k]));
    for (int k = 0; k < hb_mech_table_count_s; ++k)
        worst[0] = fmax(worst[0], run<float>(0, &hb_mech_table_s[k],
                                             hb_cl_s::hb_mech_test_kernels_s[k]));
    printf("%s: %d mechanisms, largest relative difference from the host: double %.3g (bound %g), "
           "float %.3g (bound %g)\n", prop.name, hb_mech_table_count_d, worst[1],
           HB_NMODL_DEV_REL_DOUBLE, worst[0], HB_NMODL_DEV_REL_FLOAT);
    return hb_test_finish();
}
