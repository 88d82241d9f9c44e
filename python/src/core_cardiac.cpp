// core_cardiac.cpp: cardiac batches in hinesbatch._core: the catalogue's models, per-cell parameters and states, the pace protocol, fibers, recording, runs.
#include "core.h"

#include "hinesbatch_cardiac.h"

namespace hbpy {

struct Cardiac {
    hb_cardiac *c = nullptr;
    int64_t n = 0;
    explicit Cardiac(hb_cardiac *x, int64_t cells) : c(x), n(cells) {}
    Cardiac(const Cardiac &) = delete;
    Cardiac &operator=(const Cardiac &) = delete;
    ~Cardiac() { hb_cardiac_destroy(c); }
};

static nb::list cardiac_models() {
    nb::list out;
    for (int32_t m = 0; m < hb_cardiac_model_count(); ++m) {
        hb_cardiac_model_info info;
        check(hb_cardiac_model_get_info(m, &info));
        nb::dict d;
        d["name"] = std::string(info.name);
        nb::list states, params;
        for (int32_t k = 0; k < info.nstate; ++k) {
            const char *nm = nullptr;
            double v = 0;
            check(hb_cardiac_model_state_name(m, k, &nm));
            check(hb_cardiac_model_state_init(m, k, &v));
            states.append(nb::make_tuple(std::string(nm), v));
        }
        for (int32_t k = 0; k < info.nparam; ++k) {
            const char *nm = nullptr;
            double v = 0;
            check(hb_cardiac_model_param_name(m, k, &nm));
            check(hb_cardiac_model_param_default(m, k, &v));
            params.append(nb::make_tuple(std::string(nm), v));
        }
        d["states"] = states;
        d["parameters"] = params;
        d["stimulus"] = info.stimulus ? nb::object(nb::str(info.stimulus)) : nb::none();
        d["protocol"] = nb::make_tuple(info.protocol[0], info.protocol[1], info.protocol[2]);
        out.append(d);
    }
    return out;
}

static Cardiac *cardiac_create(Context &ctx, const std::string &model, int64_t ncells,
                               const std::string &dtype, double dt) {
    int32_t m = 0;
    check(hb_cardiac_model_find(c_arg(model, "model"), &m));
    hb_precision p = HB_DOUBLE;
    if (dtype == "float32") p = HB_FLOAT;
    else if (dtype != "float64") invalid("dtype: '" + dtype + "', expected float64 or float32");
    hb_cardiac *c = nullptr;
    check(hb_cardiac_create(ctx.ctx, m, ncells, p, dt, &c));
    return new Cardiac(c, ncells);
}

static void cardiac_set_param(Cardiac &c, const std::string &name, const AnyArray &values) {
    require_host(values, "values", Dtype::f64, (size_t)c.n);
    check(hb_cardiac_set_param_cells(c.c, c_arg(name, "name"), (const double *)values.data()));
}

static void cardiac_set_state(Cardiac &c, const std::string &name, const AnyArray &values) {
    require_host(values, "values", Dtype::f64, (size_t)c.n);
    check(hb_cardiac_set_state(c.c, c_arg(name, "name"), (const double *)values.data()));
}

static nb::object cardiac_get_state(Cardiac &c, const std::string &name) {
    nb::object arr = new_numpy(Dtype::f64, {(size_t)c.n});
    check(hb_cardiac_get_state(c.c, c_arg(name, "name"), (double *)numpy_data(arr)));
    return arr;
}

static void cardiac_record(Cardiac &c, std::vector<int64_t> cells, std::vector<std::string> states,
                           int64_t every) {
    std::vector<const char *> names;
    for (const std::string &s : states) names.push_back(c_arg(s, "states"));
    check(hb_cardiac_record(c.c, (int64_t)cells.size(), cells.data(), (int32_t)names.size(),
                            names.data(), every));
}

static void cardiac_run(Cardiac &c, int64_t nsteps) {
    hb_status st;
    {
        nb::gil_scoped_release nogil;
        st = hb_cardiac_run(c.c, nsteps);
    }
    check(st);
}

static nb::object cardiac_recording(const Cardiac &c) {
    int64_t rows = 0, cols = 0;
    check(hb_cardiac_get_recording(c.c, nullptr, 0, &rows, &cols));
    nb::object arr = new_numpy(Dtype::f64, {(size_t)rows, (size_t)cols});
    if (rows * cols > 0)
        check(hb_cardiac_get_recording(c.c, (double *)numpy_data(arr), (size_t)(rows * cols),
                                       &rows, &cols));
    return arr;
}

void bind_cardiac(nb::module_ &m) {
    m.def("cardiac_models", &cardiac_models);
    nb::class_<Cardiac>(m, "Cardiac")
        .def_static("create", &cardiac_create, nb::rv_policy::take_ownership)
        .def("set_param", &cardiac_set_param)
        .def("set_param_all", [](Cardiac &c, const std::string &name, double v) {
            check(hb_cardiac_set_param(c.c, c_arg(name, "name"), v));
        })
        .def("set_state", &cardiac_set_state)
        .def("get_state", &cardiac_get_state)
        .def("set_protocol", [](Cardiac &c, double level, double start, double duration,
                                double period) {
            check(hb_cardiac_set_protocol(c.c, level, start, duration, period));
        })
        .def("set_fiber", [](Cardiac &c, int64_t nnodes, double sigma, double chi, double cm,
                             double dx) {
            check(hb_cardiac_set_fiber(c.c, nnodes, sigma, chi, cm, dx));
        })
        .def("record", &cardiac_record)
        .def("run", &cardiac_run)
        .def("steps", [](const Cardiac &c) { return hb_cardiac_steps(c.c); })
        .def("recording", &cardiac_recording);
}

} // namespace hbpy
