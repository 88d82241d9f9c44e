// _core.cpp: the module hinesbatch._core: errors, array checks, names, contexts, one-shot solves and residuals on host arrays.
#include "core.h"

#include <cstring>

namespace hbpy {

// Python callable (status, name, message) -> exception instance, set by
// hinesbatch/_errors.py; kept for the module's life.
static PyObject *g_error_factory = nullptr;

void check(hb_status st) {
    if (st != HB_SUCCESS) {
        const char *msg = hb_last_error();
        throw Error{(int)st, (msg && *msg) ? msg : hb_status_string(st)};
    }
}

void invalid(const std::string &msg) { throw Error{(int)HB_ERR_INVALID_ARGUMENT, msg}; }

const char *c_arg(const std::string &s, const char *name) {
    size_t nul = s.find('\0');
    if (nul != std::string::npos)
        invalid(std::string(name) + ": a NUL byte at character " + std::to_string(nul) + " of " +
                std::to_string(s.size()) + " (C would read only '" + s.substr(0, nul) + "')");
    return s.c_str();
}

Dtype dtype_of(const AnyArray &a) {
    if (a.dtype() == nb::dtype<double>()) return Dtype::f64;
    if (a.dtype() == nb::dtype<float>()) return Dtype::f32;
    if (a.dtype() == nb::dtype<int32_t>()) return Dtype::i32;
    if (a.dtype() == nb::dtype<int64_t>()) return Dtype::i64;
    return Dtype::other;
}

static const char *dtype_name(Dtype t) {
    switch (t) {
    case Dtype::f64: return "float64";
    case Dtype::f32: return "float32";
    case Dtype::i32: return "int32";
    case Dtype::i64: return "int64";
    default: return "another type";
    }
}

size_t count_of(const AnyArray &a) {
    size_t n = 1;
    for (size_t i = 0; i < a.ndim(); i++) n *= a.shape(i);
    return n;
}

// C order: each stride the product of the later extents (extents of 1 are free).
static bool is_c_contiguous(const AnyArray &a) {
    if (count_of(a) == 0) return true; // no element to place
    int64_t expect = 1;
    for (size_t i = a.ndim(); i-- > 0;) {
        if (a.shape(i) != 1 && a.stride(i) != expect) return false;
        expect *= (int64_t)a.shape(i);
    }
    return true;
}

void require_host(const AnyArray &a, const char *name, Dtype want, size_t n) {
    if (a.device_type() != nb::device::cpu::value)
        invalid(std::string(name) + ": a host array is needed here (a device array goes to the "
                                    "CUDA backend)");
    if (dtype_of(a) != want)
        invalid(std::string(name) + ": dtype " + dtype_name(dtype_of(a)) + ", expected " +
                dtype_name(want));
    if (!is_c_contiguous(a)) invalid(std::string(name) + ": not C-contiguous");
    if (count_of(a) != n)
        invalid(std::string(name) + ": " + std::to_string(count_of(a)) + " elements, expected " +
                std::to_string(n));
}

nb::object new_numpy(Dtype t, const std::vector<size_t> &shape) {
    nb::object np = nb::module_::import_("numpy");
    nb::tuple sh = nb::steal<nb::tuple>(PyTuple_New((Py_ssize_t)shape.size()));
    for (size_t i = 0; i < shape.size(); i++)
        PyTuple_SET_ITEM(sh.ptr(), (Py_ssize_t)i, PyLong_FromSize_t(shape[i]));
    return np.attr("empty")(sh, dtype_name(t));
}

void *numpy_data(nb::handle arr) { return nb::cast<AnyArray>(arr).data(); }

hb_backend backend_of_name(const std::string &name) {
    hb_backend b;
    check(hb_backend_from_name(c_arg(name, "backend"), &b));
    return b;
}

// The flat offsets of a one-shot solve: int64, host, nsys + 1; returns nrows.
static int64_t offsets_rows(const AnyArray &off, int64_t *nsys) {
    if (off.ndim() != 1 || off.shape(0) < 1) invalid("offsets: a 1-D array of nsys + 1 entries");
    require_host(off, "offsets", Dtype::i64, off.shape(0));
    *nsys = (int64_t)off.shape(0) - 1;
    const int64_t *o = (const int64_t *)off.data();
    return o[*nsys] < 0 ? 0 : o[*nsys];
}

static Dtype float_dtype(const AnyArray &x, const char *name) {
    Dtype t = dtype_of(x);
    if (t != Dtype::f64 && t != Dtype::f32)
        invalid(std::string(name) + ": dtype " + dtype_name(t) + ", expected float64 or float32");
    return t;
}

static void tridiag_solve(Context &c, AnyArray off, AnyArray a, AnyArray b, AnyArray cc,
                          AnyArray d) {
    int64_t nsys;
    size_t n = (size_t)offsets_rows(off, &nsys);
    Dtype t = float_dtype(d, "d");
    require_host(a, "a", t, n);
    require_host(b, "b", t, n);
    require_host(cc, "c", t, n);
    require_host(d, "d", t, n);
    if (d.is_valid() && (d.data() == a.data() || d.data() == b.data() || d.data() == cc.data()))
        invalid("d: shares memory with a coefficient array");
    hb_status st;
    {
        nb::gil_scoped_release nogil;
        const int64_t *o = (const int64_t *)off.data();
        st = t == Dtype::f64
                 ? hb_dtridiag_solve(c.ctx, nsys, o, (const double *)a.data(),
                                     (const double *)b.data(), (const double *)cc.data(),
                                     (double *)d.data())
                 : hb_stridiag_solve(c.ctx, nsys, o, (const float *)a.data(),
                                     (const float *)b.data(), (const float *)cc.data(),
                                     (float *)d.data());
    }
    check(st);
}

static void hines_solve(Context &c, AnyArray off, AnyArray parent, AnyArray u, AnyArray l,
                        AnyArray d, AnyArray rhs) {
    int64_t nsys;
    size_t n = (size_t)offsets_rows(off, &nsys);
    Dtype t = float_dtype(rhs, "rhs");
    require_host(parent, "parent", Dtype::i32, n);
    require_host(u, "u", t, n);
    require_host(l, "l", t, n);
    require_host(d, "d", t, n);
    require_host(rhs, "rhs", t, n);
    hb_status st;
    {
        nb::gil_scoped_release nogil;
        const int64_t *o = (const int64_t *)off.data();
        const int32_t *p = (const int32_t *)parent.data();
        st = t == Dtype::f64
                 ? hb_dhines_solve(c.ctx, nsys, o, p, (const double *)u.data(),
                                   (const double *)l.data(), (const double *)d.data(),
                                   (double *)rhs.data())
                 : hb_shines_solve(c.ctx, nsys, o, p, (const float *)u.data(),
                                   (const float *)l.data(), (const float *)d.data(),
                                   (float *)rhs.data());
    }
    check(st);
}

static nb::tuple tridiag_residual(AnyArray off, AnyArray a, AnyArray b, AnyArray c, AnyArray x,
                                  AnyArray rhs) {
    int64_t nsys;
    size_t n = (size_t)offsets_rows(off, &nsys);
    Dtype t = float_dtype(x, "x");
    require_host(a, "a", t, n);
    require_host(b, "b", t, n);
    require_host(c, "c", t, n);
    require_host(x, "x", t, n);
    require_host(rhs, "rhs", t, n);
    double ratio = 0;
    int64_t worst = -1;
    check(hb_tridiag_residual(t == Dtype::f64 ? HB_DOUBLE : HB_FLOAT, nsys,
                              (const int64_t *)off.data(), a.data(), b.data(), c.data(), x.data(),
                              rhs.data(), &ratio, &worst));
    return nb::make_tuple(ratio, worst);
}

static nb::tuple hines_residual(AnyArray off, AnyArray parent, AnyArray u, AnyArray l, AnyArray d,
                                AnyArray x, AnyArray rhs) {
    int64_t nsys;
    size_t n = (size_t)offsets_rows(off, &nsys);
    Dtype t = float_dtype(x, "x");
    require_host(parent, "parent", Dtype::i32, n);
    require_host(u, "u", t, n);
    require_host(l, "l", t, n);
    require_host(d, "d", t, n);
    require_host(x, "x", t, n);
    require_host(rhs, "rhs", t, n);
    double ratio = 0;
    int64_t worst = -1;
    check(hb_hines_residual(t == Dtype::f64 ? HB_DOUBLE : HB_FLOAT, nsys,
                            (const int64_t *)off.data(), (const int32_t *)parent.data(), u.data(),
                            l.data(), d.data(), x.data(), rhs.data(), &ratio, &worst));
    return nb::make_tuple(ratio, worst);
}

static Context *context_new(const std::string &backend, int32_t device, int32_t platform,
                            uintptr_t cuda_stream) {
    hb_context_options o;
    hb_context_options_init(&o);
    o.backend = backend_of_name(backend);
    o.device = device;
    o.platform = platform;
    o.cuda_stream = (void *)cuda_stream;
    hb_context *ctx = nullptr;
    hb_status st;
    {
        nb::gil_scoped_release nogil;
        st = hb_context_create_with(&o, &ctx);
    }
    check(st);
    return new Context(ctx);
}

static nb::dict context_options(const Context &c) {
    hb_context_options o;
    check(hb_context_get_options(c.ctx, &o));
    nb::dict d;
    d["backend"] = hb_backend_name(o.backend);
    d["device"] = o.device;
    d["platform"] = o.platform;
    d["cuda_stream"] = (uintptr_t)o.cuda_stream;
    d["cl_context"] = (uintptr_t)o.cl_context;
    d["cl_device"] = (uintptr_t)o.cl_device;
    d["cl_queue"] = (uintptr_t)o.cl_queue;
    return d;
}

static std::vector<std::string> device_names(const std::string &backend, int32_t platform) {
    hb_backend b = backend_of_name(backend);
    int32_t count = 0;
    check(hb_backend_device_count(b, platform, &count));
    std::vector<std::string> names;
    for (int32_t i = 0; i < count; i++) {
        char buf[256];
        check(hb_backend_device_name(b, platform, i, buf, sizeof buf));
        names.emplace_back(buf);
    }
    return names;
}

} // namespace hbpy

using namespace hbpy;

NB_MODULE(_core, m) {
    m.doc() = "hinesbatch's C API, bound with nanobind (use the package hinesbatch, not this)";

    nb::register_exception_translator([](const std::exception_ptr &p, void *) {
        try {
            std::rethrow_exception(p);
        } catch (const Error &e) {
            if (!g_error_factory) {
                PyErr_SetString(PyExc_RuntimeError, e.message.c_str());
                return;
            }
            nb::object exc = nb::borrow(g_error_factory)(
                e.status, hb_status_name((hb_status)e.status), e.message);
            PyErr_SetObject((PyObject *)Py_TYPE(exc.ptr()), exc.ptr());
        }
    });
    m.def("_set_error_factory", [](nb::object f) {
        Py_XDECREF(g_error_factory);
        g_error_factory = f.release().ptr();
    });

    m.def("version", &hb_version, "Library version as MAJOR*10000 + MINOR*100 + PATCH.");
    m.def("status_name", [](int s) { return std::string(hb_status_name((hb_status)s)); });
    m.def("status_string", [](int s) { return std::string(hb_status_string((hb_status)s)); });
    m.def("backend_compiled",
          [](const std::string &name) { return hb_backend_compiled(backend_of_name(name)) != 0; });
    m.def("device_names", &device_names, nb::arg("backend"), nb::arg("platform") = -1);

    nb::class_<Context>(m, "Context")
        .def("__init__",
             [](Context *self, const std::string &backend, int32_t device, int32_t platform,
                uintptr_t cuda_stream) {
                 Context *c = context_new(backend, device, platform, cuda_stream);
                 new (self) Context(c->ctx);
                 c->ctx = nullptr;
                 delete c;
             },
             nb::arg("backend") = "auto", nb::arg("device") = -1, nb::arg("platform") = -1,
             nb::arg("cuda_stream") = 0)
        .def_prop_ro("backend",
                     [](const Context &c) {
                         return std::string(hb_backend_name(hb_context_backend(c.ctx)));
                     })
        .def("describe", [](const Context &c) { return std::string(hb_context_describe(c.ctx)); })
        .def("options", &context_options)
        .def("copy_time", [](Context &c, size_t bytes, int reps) {
            double ms = 0;
            check(hb_context_copy_time(c.ctx, bytes, reps, &ms));
            return ms;
        });

    m.def("tridiag_solve", &tridiag_solve);
    m.def("hines_solve", &hines_solve);
    m.def("tridiag_residual", &tridiag_residual);
    m.def("hines_residual", &hines_residual);
    m.attr("cuda_interop") = nb::bool_(
#ifdef HBPY_CUDA
        true
#else
        false
#endif
    );

    bind_plan(m);
    bind_morph(m);
    bind_sim(m);
    bind_net(m);
    bind_cardiac(m);
    bind_device(m);
}
