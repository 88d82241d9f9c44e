// core_device.cpp: solves on arrays that live on the GPU (DLPack, __cuda_array_interface__): device-to-device copies through a flat plan, on the CUDA backend.
#include "core_plan.h"

#ifdef HBPY_CUDA
#include <cuda_runtime_api.h>
#endif

namespace hbpy {

#ifdef HBPY_CUDA

static void cuda_check(cudaError_t e, const char *what) {
    if (e != cudaSuccess)
        throw Error{(int)HB_ERR_BACKEND, std::string("cuda: ") + what + ": " + cudaGetErrorString(e)};
}

// A CUDA array of n elements of dtype t on `device`, C-contiguous; names it.
static void require_device(const AnyArray &a, const char *name, Dtype t, size_t n, int device) {
    if (a.device_type() != nb::device::cuda::value)
        invalid(std::string(name) + ": a CUDA device array is needed (the others are)");
    if (a.device_id() != device)
        invalid(std::string(name) + ": on CUDA device " + std::to_string(a.device_id()) +
                ", the context is on device " + std::to_string(device));
    if (dtype_of(a) != t) invalid(std::string(name) + ": dtype differs from the other arrays'");
    int64_t expect = 1;
    for (size_t i = a.ndim(); count_of(a) && i-- > 0;) {
        if (a.shape(i) != 1 && a.stride(i) != expect)
            invalid(std::string(name) + ": not C-contiguous");
        expect *= (int64_t)a.shape(i);
    }
    if (count_of(a) != n)
        invalid(std::string(name) + ": " + std::to_string(count_of(a)) + " elements, expected " +
                std::to_string(n));
}

// The plan's arrays must be the flat rows, so one copy moves a whole array.
static void require_flat(const Plan &p, const int64_t *offsets) {
    hb_layout_info li;
    check(hb_plan_layout_info(p.plan, &li));
    bool ok = li.layout == HB_LAYOUT_FLAT && li.stride == 1 && !li.padded && li.length == p.nrows;
    if (ok && offsets) {
        std::vector<int64_t> base((size_t)p.nsys);
        if (p.nsys) check(hb_plan_system_bases(p.plan, base.data()));
        for (int64_t s = 0; s < p.nsys && ok; s++) ok = base[(size_t)s] == offsets[s];
    }
    if (!ok)
        invalid("plan: device arrays are copied in flat layout; this plan's layout is " +
                std::string(hb_layout_name(li.layout)) + " (make it with layout='flat' and "
                "strategy 'per-system' or 'cooperative')");
}

static cudaStream_t plan_stream(Context &c) {
    hb_context_options o;
    check(hb_context_get_options(c.ctx, &o));
    return (cudaStream_t)o.cuda_stream;
}

// One solve of device arrays: coefficients copied into a flat plan, solved,
// the solution copied to out (which may be the right-hand side itself).
static void device_solve(Context &c, bool hines, AnyArray off, nb::object parent_obj,
                         AnyArray x1, AnyArray x2, AnyArray x3, AnyArray rhs, AnyArray out) {
    if (hb_context_backend(c.ctx) != HB_BACKEND_CUDA)
        throw Error{(int)HB_ERR_BACKEND_UNAVAILABLE,
                    std::string("device arrays need a CUDA context; this one is ") +
                        hb_context_describe(c.ctx)};
    if (off.ndim() != 1 || off.shape(0) < 1) invalid("offsets: a 1-D array of nsys + 1 entries");
    require_host(off, "offsets", Dtype::i64, off.shape(0));
    int64_t nsys = (int64_t)off.shape(0) - 1;
    const int64_t *o = (const int64_t *)off.data();
    size_t n = o[nsys] < 0 ? 0 : (size_t)o[nsys];
    hb_context_options co;
    check(hb_context_get_options(c.ctx, &co));
    int dev = co.device < 0 ? 0 : co.device;
    Dtype t = dtype_of(rhs);
    if (t != Dtype::f64 && t != Dtype::f32) invalid("rhs: dtype must be float64 or float32");
    const char *names[3] = {hines ? "u" : "a", hines ? "l" : "b", hines ? "d" : "c"};
    AnyArray xs[3] = {x1, x2, x3};
    for (int i = 0; i < 3; i++) require_device(xs[i], names[i], t, n, dev);
    require_device(rhs, hines ? "rhs" : "d", t, n, dev);
    require_device(out, "out", t, n, dev);
    hb_plan_options po;
    hb_plan_options_init(&po);
    po.layout = HB_LAYOUT_FLAT;
    po.strategy = HB_STRATEGY_PER_SYSTEM;
    hb_precision prec = t == Dtype::f64 ? HB_DOUBLE : HB_FLOAT;
    hb_plan *hp = nullptr;
    if (hines) {
        AnyArray parent = nb::cast<AnyArray>(parent_obj);
        require_host(parent, "parent", Dtype::i32, n);
        check(hb_plan_create_hines(c.ctx, prec, nsys, o, (const int32_t *)parent.data(), &po, &hp));
    } else {
        check(hb_plan_create_tridiag(c.ctx, prec, nsys, o, &po, &hp));
    }
    Plan p(hp);
    p.fill();
    if (n == 0) return;
    require_flat(p, o);
    size_t bytes = n * (t == Dtype::f64 ? 8 : 4);
    hb_array which[4] = {hines ? HB_ARRAY_U : HB_ARRAY_A, hines ? HB_ARRAY_L : HB_ARRAY_B,
                         hines ? HB_ARRAY_D : HB_ARRAY_C, HB_ARRAY_RHS};
    const void *src[4] = {x1.data(), x2.data(), x3.data(), rhs.data()};
    void *dst = out.data();
    cudaStream_t stream = plan_stream(c);
    nb::gil_scoped_release nogil;
    cuda_check(cudaSetDevice(dev), "cudaSetDevice");
    // The caller's arrays may still be written on a stream of the caller's.
    cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    for (int i = 0; i < 4; i++) {
        void *h = nullptr;
        check(hb_plan_buffer(p.plan, which[i], &h));
        cuda_check(cudaMemcpyAsync(h, src[i], bytes, cudaMemcpyDeviceToDevice, stream),
                   "cudaMemcpyAsync");
    }
    check(hb_plan_solve(p.plan));
    void *x = nullptr;
    check(hb_plan_buffer(p.plan, HB_ARRAY_RHS, &x));
    cuda_check(cudaMemcpyAsync(dst, x, bytes, cudaMemcpyDeviceToDevice, stream), "cudaMemcpyAsync");
    cuda_check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
}

static void plan_copy(Plan &p, Context *c, const std::string &which, AnyArray arr, bool into) {
    (void)c;
    hb_plan_info info;
    check(hb_plan_get_info(p.plan, &info));
    if (info.backend != HB_BACKEND_CUDA)
        throw Error{(int)HB_ERR_BACKEND_UNAVAILABLE,
                    std::string("device arrays need a plan on the CUDA backend; this one is on ") +
                        hb_backend_name(info.backend)};
    require_flat(p, nullptr);
    // Shared couplings: U and L hold one system's rows.
    const int64_t count = into ? plan_count(p, array_of(which)) : p.nrows;
    require_device(arr, into ? which.c_str() : "out", plan_dtype(p), (size_t)count, p.device);
    if (count == 0) return;
    size_t bytes = (size_t)count * (p.precision == HB_DOUBLE ? 8 : 4);
    void *h = nullptr;
    nb::gil_scoped_release nogil;
    cuda_check(cudaSetDevice(p.device), "cudaSetDevice");
    // Plan work runs on the plan's stream: finish it (solution) or the
    // caller's writes (set) before the copy, which then completes here.
    check(hb_plan_synchronize(p.plan));
    cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    check(hb_plan_buffer(p.plan, into ? array_of(which) : HB_ARRAY_RHS, &h));
    if (into) cuda_check(cudaMemcpy(h, arr.data(), bytes, cudaMemcpyDeviceToDevice), "cudaMemcpy");
    else cuda_check(cudaMemcpy(arr.data(), h, bytes, cudaMemcpyDeviceToDevice), "cudaMemcpy");
}

#else

[[noreturn]] static void no_cuda() {
    throw Error{(int)HB_ERR_BACKEND_UNAVAILABLE,
                "device arrays: this build of hinesbatch has no CUDA backend"};
}
static void device_solve(Context &, bool, AnyArray, nb::object, AnyArray, AnyArray, AnyArray,
                         AnyArray, AnyArray) {
    no_cuda();
}
static void plan_copy(Plan &, Context *, const std::string &, AnyArray, bool) { no_cuda(); }

#endif

void bind_device(nb::module_ &m) {
    m.def("device_solve", &device_solve, nb::arg("ctx"), nb::arg("hines"), nb::arg("offsets"),
          nb::arg("parent").none(), nb::arg("x1"), nb::arg("x2"), nb::arg("x3"), nb::arg("rhs"),
          nb::arg("out"));
    m.def("plan_set_device", [](Plan &p, const std::string &which, AnyArray a) {
        array_of(which);
        plan_copy(p, nullptr, which, a, true);
    });
    m.def("plan_solution_device", [](Plan &p, AnyArray out) { plan_copy(p, nullptr, "rhs", out, false); });
}

} // namespace hbpy
