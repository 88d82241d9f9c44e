// core_plan.cpp: plans in hinesbatch._core: creation from options, set, solve, solution, info, layout and buffers.
#include "core.h"

#include "core_plan.h"

namespace hbpy {

void plan_options_from(const nb::dict &d, hb_plan_options *o) {
    hb_plan_options_init(o);
    for (auto kv : d) {
        std::string k = nb::cast<std::string>(kv.first);
        try {
            nb::handle v = kv.second;
            if (v.is_none()) continue;
            if (k == "layout")
                check(hb_layout_from_name(c_arg(nb::cast<std::string>(v), "layout"), &o->layout));
            else if (k == "padding")
                check(hb_padding_from_name(c_arg(nb::cast<std::string>(v), "padding"), &o->padding));
            else if (k == "strategy")
                check(hb_strategy_from_name(c_arg(nb::cast<std::string>(v), "strategy"),
                                            &o->strategy));
            else if (k == "block_size") o->block_size = nb::cast<int32_t>(v);
            else if (k == "group_size") o->group_size = nb::cast<int32_t>(v);
            else if (k == "cell_chain") o->cell_chain = nb::cast<int32_t>(v);
            else if (k == "reroot") o->reroot = nb::cast<bool>(v) ? 1 : 0;
            else if (k == "split_branches") o->split_branches = nb::cast<bool>(v) ? 1 : 0;
            else if (k == "shared_couplings") o->shared_couplings = nb::cast<bool>(v) ? 1 : 0;
            else if (k == "auto_estimate") o->auto_estimate = nb::cast<bool>(v) ? 1 : 0;
            else if (k == "stream") o->stream = (void *)nb::cast<uintptr_t>(v);
            else invalid("plan option " + k + ": unknown (layout, block_size, padding, strategy, "
                                              "stream, group_size, cell_chain, reroot, "
                                              "split_branches, shared_couplings, "
                                              "auto_estimate)");
        } catch (const std::bad_cast &) {
            invalid("plan option " + k + ": a value of the wrong type");
        }
    }
}

hb_array array_of(const std::string &name) {
    static const char *names[] = {"a", "b", "c", "u", "l", "d", "rhs"};
    for (int i = 0; i < 7; i++)
        if (name == names[i]) return (hb_array)i;
    invalid("which: '" + name + "' is no plan array (a, b, c, u, l, d, rhs)");
}

static hb_precision precision_of(const std::string &p) {
    if (p == "float64" || p == "double") return HB_DOUBLE;
    if (p == "float32" || p == "float" || p == "single") return HB_FLOAT;
    invalid("dtype: '" + p + "', expected float64 or float32");
}

Plan::~Plan() { hb_plan_destroy(plan); }

void Plan::fill() {
    hb_plan_info info;
    check(hb_plan_get_info(plan, &info));
    nsys = info.nsys;
    nrows = info.nrows;
    max_rows = info.max_rows;
    shared = info.shared_couplings != 0;
    hines = info.hines != 0;
    precision = info.precision;
}

static Plan *make(Context &c, hb_status st, hb_plan *p) {
    check(st);
    Plan *r = new Plan(p);
    r->fill();
    hb_context_options o;
    if (hb_context_get_options(c.ctx, &o) == HB_SUCCESS && o.device > 0) r->device = o.device;
    return r;
}

int plan_device(const Plan &p) { return p.device; }

static Plan *create_tridiag(Context &c, const std::string &dt, AnyArray off, nb::dict opts) {
    hb_plan_options o;
    plan_options_from(opts, &o);
    if (off.ndim() != 1 || off.shape(0) < 1) invalid("offsets: a 1-D array of nsys + 1 entries");
    require_host(off, "offsets", Dtype::i64, off.shape(0));
    hb_plan *p = nullptr;
    hb_status st = hb_plan_create_tridiag(c.ctx, precision_of(dt), (int64_t)off.shape(0) - 1,
                                          (const int64_t *)off.data(), &o, &p);
    return make(c, st, p);
}

static Plan *create_tridiag_uniform(Context &c, const std::string &dt, int64_t nsys, int64_t n,
                                    nb::dict opts) {
    hb_plan_options o;
    plan_options_from(opts, &o);
    hb_plan *p = nullptr;
    hb_status st = hb_plan_create_tridiag_uniform(c.ctx, precision_of(dt), nsys, n, &o, &p);
    return make(c, st, p);
}

static Plan *create_hines(Context &c, const std::string &dt, AnyArray off, AnyArray parent,
                          nb::dict opts) {
    hb_plan_options o;
    plan_options_from(opts, &o);
    if (off.ndim() != 1 || off.shape(0) < 1) invalid("offsets: a 1-D array of nsys + 1 entries");
    require_host(off, "offsets", Dtype::i64, off.shape(0));
    int64_t nsys = (int64_t)off.shape(0) - 1;
    int64_t rows = ((const int64_t *)off.data())[nsys];
    require_host(parent, "parent", Dtype::i32, rows < 0 ? 0 : (size_t)rows);
    hb_plan *p = nullptr;
    hb_status st = hb_plan_create_hines(c.ctx, precision_of(dt), nsys, (const int64_t *)off.data(),
                                        (const int32_t *)parent.data(), &o, &p);
    return make(c, st, p);
}

static Plan *create_hines_uniform(Context &c, const std::string &dt, int64_t nsys,
                                  AnyArray parent, nb::dict opts) {
    hb_plan_options o;
    plan_options_from(opts, &o);
    if (parent.ndim() != 1) invalid("parent: a 1-D array (one tree)");
    require_host(parent, "parent", Dtype::i32, parent.shape(0));
    hb_plan *p = nullptr;
    hb_status st = hb_plan_create_hines_uniform(c.ctx, precision_of(dt), nsys,
                                                (int64_t)parent.shape(0),
                                                (const int32_t *)parent.data(), &o, &p);
    return make(c, st, p);
}


static void plan_set(Plan &p, const std::string &which, AnyArray x) {
    hb_array w = array_of(which);
    require_host(x, which.c_str(), plan_dtype(p), (size_t)plan_count(p, w));
    hb_status st;
    {
        nb::gil_scoped_release nogil;
        st = hb_plan_set(p.plan, w, x.data());
    }
    check(st);
}

static void plan_solve(Plan &p) {
    hb_status st;
    {
        nb::gil_scoped_release nogil;
        st = hb_plan_solve(p.plan);
    }
    check(st);
}

static void plan_synchronize(Plan &p) {
    hb_status st;
    {
        nb::gil_scoped_release nogil;
        st = hb_plan_synchronize(p.plan);
    }
    check(st);
}

static void plan_solution(Plan &p, AnyArray x) {
    require_host(x, "out", plan_dtype(p), (size_t)p.nrows);
    hb_status st;
    {
        nb::gil_scoped_release nogil;
        st = hb_plan_get_solution(p.plan, x.data());
    }
    check(st);
}

static nb::dict plan_info(const Plan &p) {
    hb_plan_info i;
    check(hb_plan_get_info(p.plan, &i));
    nb::dict d;
    d["backend"] = hb_backend_name(i.backend);
    d["dtype"] = i.precision == HB_DOUBLE ? "float64" : "float32";
    d["hines"] = (bool)i.hines;
    d["shared_tree"] = (bool)i.shared_tree;
    d["shared_couplings"] = (bool)i.shared_couplings;
    d["nsys"] = i.nsys;
    d["nrows"] = i.nrows;
    d["max_rows"] = i.max_rows;
    d["variable"] = (bool)i.variable;
    d["strategy"] = hb_strategy_name(i.strategy);
    d["layout"] = hb_layout_name(i.layout);
    d["block_size"] = i.block_size;
    d["padding"] = hb_padding_name(i.padding);
    d["sorted"] = (bool)i.sorted;
    d["nbranches"] = i.nbranches;
    d["nlevels"] = i.nlevels;
    d["ngroups"] = i.ngroups;
    d["group_size"] = i.group_size;
    d["local_bytes"] = i.local_bytes;
    d["resident"] = (bool)i.resident;
    d["systems_per_group"] = i.systems_per_group;
    d["rows_per_item"] = i.rows_per_item;
    d["rerooted"] = (bool)i.rerooted;
    d["split"] = (bool)i.split;
    return d;
}

static nb::dict plan_layout(const Plan &p) {
    hb_layout_info i;
    check(hb_plan_layout_info(p.plan, &i));
    nb::dict d;
    d["layout"] = hb_layout_name(i.layout);
    d["dtype"] = i.precision == HB_DOUBLE ? "float64" : "float32";
    d["nsys"] = i.nsys;
    d["stride"] = i.stride;
    d["length"] = i.length;
    d["block_size"] = i.block_size;
    d["padded"] = (bool)i.padded;
    return d;
}

static nb::object plan_bases(const Plan &p) {
    nb::object arr = new_numpy(Dtype::i64, {(size_t)p.nsys});
    check(hb_plan_system_bases(p.plan, (int64_t *)numpy_data(arr)));
    return arr;
}

static int64_t plan_index(const Plan &p, int64_t s, int64_t i) {
    int64_t idx = 0;
    check(hb_plan_index(p.plan, s, i, &idx));
    return idx;
}

static uintptr_t plan_handle(Plan &p, const std::string &which) {
    void *h = nullptr;
    check(hb_plan_buffer(p.plan, array_of(which), &h));
    return (uintptr_t)h;
}

// The plan array as an array object over the plan's own memory (no copy):
// a numpy array on the host backends, a DLPack CUDA array on CUDA (give it to
// cupy.from_dlpack / torch.from_dlpack). OpenCL buffers are cl_mem handles:
// handle() gives them.
static nb::object plan_buffer(nb::handle self, const std::string &which) {
    Plan &p = nb::cast<Plan &>(self);
    hb_plan_info info;
    check(hb_plan_get_info(p.plan, &info));
    hb_layout_info li;
    check(hb_plan_layout_info(p.plan, &li));
    if (info.backend == HB_BACKEND_OPENCL)
        invalid("buffer: an OpenCL plan's arrays are cl_mem objects; use handle()");
    void *h = nullptr;
    check(hb_plan_buffer(p.plan, array_of(which), &h));
    size_t shape[1] = {(size_t)li.length};
    nb::dlpack::dtype dt = p.precision == HB_DOUBLE ? nb::dtype<double>() : nb::dtype<float>();
    if (info.backend == HB_BACKEND_CUDA) {
        int dev = plan_device(p);
        return nb::cast(nb::ndarray<>(h, 1, shape, self, nullptr, dt, nb::device::cuda::value, dev),
                        nb::rv_policy::reference);
    }
    return nb::cast(nb::ndarray<nb::numpy>(h, 1, shape, self, nullptr, dt),
                    nb::rv_policy::reference);
}

void bind_plan(nb::module_ &m) {
    nb::class_<Plan>(m, "Plan")
        .def_static("tridiag", &create_tridiag, nb::arg("ctx"), nb::arg("dtype"),
                    nb::arg("offsets"), nb::arg("options"))
        .def_static("tridiag_uniform", &create_tridiag_uniform, nb::arg("ctx"), nb::arg("dtype"),
                    nb::arg("nsys"), nb::arg("n"), nb::arg("options"))
        .def_static("hines", &create_hines, nb::arg("ctx"), nb::arg("dtype"), nb::arg("offsets"),
                    nb::arg("parent"), nb::arg("options"))
        .def_static("hines_uniform", &create_hines_uniform, nb::arg("ctx"), nb::arg("dtype"),
                    nb::arg("nsys"), nb::arg("parent"), nb::arg("options"))
        .def_ro("nsys", &Plan::nsys)
        .def_ro("nrows", &Plan::nrows)
        .def_ro("is_hines", &Plan::hines)
        .def_ro("max_rows", &Plan::max_rows)
        .def_ro("shared_couplings", &Plan::shared)
        .def("set", &plan_set)
        .def("solve", &plan_solve)
        .def("synchronize", &plan_synchronize)
        .def("solution", &plan_solution)
        .def("describe", [](const Plan &p) { return std::string(hb_plan_describe(p.plan)); })
        .def("info", &plan_info)
        .def("layout", &plan_layout)
        .def("system_bases", &plan_bases)
        .def("index", &plan_index)
        .def("handle", &plan_handle)
        .def("buffer", &plan_buffer)
        .def("device", [](const Plan &p) { return plan_device(p); });
}

} // namespace hbpy
