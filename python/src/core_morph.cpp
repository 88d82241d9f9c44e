// core_morph.cpp: morphologies in hinesbatch._core: SWC files, cells (discretised or synthetic), their matrices, tree statistics and batches.
#include "core.h"

#include "core_morph.h"

namespace hbpy {

Morph::~Morph() { hb_morph_destroy(morph); }
Cell::~Cell() { hb_morph_cell_destroy(cell); }

template <class T> static nb::object copy_array(Dtype t, const T *src, size_t n) {
    nb::object arr = new_numpy(t, {n});
    if (n) std::memcpy(numpy_data(arr), src, n * sizeof(T));
    return arr;
}

static void cable_from(const nb::dict &d, hb_cable *c) {
    hb_cable_init(c);
    for (auto kv : d) {
        std::string k = nb::cast<std::string>(kv.first);
        try {
            if (kv.second.is_none()) continue;
            double v = nb::cast<double>(kv.second);
            if (k == "ra") c->ra = v;
            else if (k == "cm") c->cm = v;
            else if (k == "gm") c->gm = v;
            else invalid("cable " + k + ": unknown (ra, cm, gm)");
        } catch (const std::bad_cast &) {
            invalid("cable " + k + ": a value of the wrong type");
        }
    }
}

static void geometry_from(double length, double diam, const nb::dict &cable, hb_synth_geometry *g) {
    hb_synth_geometry_init(g);
    g->length = length;
    g->diam = diam;
    cable_from(cable, &g->cable);
}

static Morph *read_swc(const std::string &path, double scale, bool repair) {
    hb_swc_options o;
    hb_swc_options_init(&o);
    o.scale = scale;
    o.repair_radii = repair ? 1 : 0;
    hb_morph *m = nullptr;
    check(hb_morph_read_swc(c_arg(path, "path"), &o, &m));
    return new Morph(m);
}

static Morph *parse_swc(nb::bytes text, const std::string &name, double scale, bool repair) {
    hb_swc_options o;
    hb_swc_options_init(&o);
    o.scale = scale;
    o.repair_radii = repair ? 1 : 0;
    hb_morph *m = nullptr;
    check(hb_morph_parse_swc(text.c_str(), text.size(), c_arg(name, "name"), &o, &m));
    return new Morph(m);
}

static const char *soma_name(hb_soma_kind k) {
    switch (k) {
    case HB_SOMA_SINGLE_POINT: return "single-point";
    case HB_SOMA_THREE_POINT: return "three-point";
    case HB_SOMA_SAMPLES: return "samples";
    default: return "none";
    }
}

static nb::dict morph_info(const Morph &m) {
    hb_morph_info i;
    check(hb_morph_get_info(m.morph, &i));
    nb::dict d;
    d["samples"] = i.samples;
    d["repaired"] = i.repaired;
    d["soma"] = soma_name(i.soma);
    d["soma_radius"] = i.soma_radius;
    d["total_length"] = i.total_length;
    return d;
}

static nb::dict morph_samples(const Morph &m) {
    hb_morph_info info;
    check(hb_morph_get_info(m.morph, &info));
    size_t n = (size_t)info.samples;
    std::vector<int64_t> id(n), parent(n), line(n);
    std::vector<int32_t> type(n);
    std::vector<double> x(n), y(n), z(n), r(n);
    for (size_t k = 0; k < n; k++) {
        hb_swc_sample s;
        check(hb_morph_sample(m.morph, (int64_t)k, &s));
        id[k] = s.id; parent[k] = s.parent; line[k] = s.line; type[k] = s.type;
        x[k] = s.x; y[k] = s.y; z[k] = s.z; r[k] = s.radius;
    }
    nb::dict d;
    d["id"] = copy_array(Dtype::i64, id.data(), n);
    d["type"] = copy_array(Dtype::i32, type.data(), n);
    d["x"] = copy_array(Dtype::f64, x.data(), n);
    d["y"] = copy_array(Dtype::f64, y.data(), n);
    d["z"] = copy_array(Dtype::f64, z.data(), n);
    d["radius"] = copy_array(Dtype::f64, r.data(), n);
    d["parent"] = copy_array(Dtype::i64, parent.data(), n);
    d["line"] = copy_array(Dtype::i64, line.data(), n);
    return d;
}

static Cell *cell_create(const Morph &m, const std::string &policy, int32_t nseg, double d_lambda,
                         bool reroot, int64_t max_compartments, nb::dict cable,
                         const std::string &conventions, double seg_length) {
    hb_discretize_options o;
    hb_discretize_options_init(&o);
    if (policy == "sample") o.policy = HB_POLICY_SAMPLE;
    else if (policy == "section") o.policy = HB_POLICY_SECTION;
    else invalid("policy: '" + policy + "', expected 'sample' or 'section'");
    o.nseg = nseg;
    o.d_lambda = d_lambda;
    o.seg_length = seg_length;
    o.reroot = reroot ? 1 : 0;
    o.max_compartments = max_compartments;
    if (conventions == "hinesbatch") o.conventions = HB_CONVENTIONS_HINESBATCH;
    else if (conventions == "neuron") o.conventions = HB_CONVENTIONS_NEURON;
    else invalid("conventions: '" + conventions + "', expected 'hinesbatch' or 'neuron'");
    hb_cable c;
    cable_from(cable, &c);
    hb_morph_cell *cell = nullptr;
    check(hb_morph_cell_create(m.morph, &o, &c, &cell));
    return new Cell(cell);
}

static Cell *cell_from_parent(AnyArray parent, double length, double diam, nb::dict cable) {
    if (parent.ndim() != 1) invalid("parent: a 1-D array");
    require_host(parent, "parent", Dtype::i32, parent.shape(0));
    hb_cable c;
    cable_from(cable, &c);
    hb_morph_cell *cell = nullptr;
    check(hb_morph_cell_from_parent((int64_t)parent.shape(0), (const int32_t *)parent.data(),
                                    length, diam, &c, &cell));
    return new Cell(cell);
}

static Cell *synth_levels(int64_t n, int32_t levels, double length, double diam, nb::dict cable) {
    hb_synth_geometry g;
    geometry_from(length, diam, cable, &g);
    hb_morph_cell *cell = nullptr;
    check(hb_morph_synth_levels(n, levels, &g, &cell));
    return new Cell(cell);
}

static Cell *synth_random(int32_t levels, double p_start, double p_end, double len_start,
                          double len_end, uint64_t seed, double length, double diam,
                          nb::dict cable) {
    hb_synth_random_params p = {levels, p_start, p_end, len_start, len_end, seed};
    hb_synth_geometry g;
    geometry_from(length, diam, cable, &g);
    hb_morph_cell *cell = nullptr;
    check(hb_morph_synth_random(&p, &g, &cell));
    return new Cell(cell);
}

static Cell *synth_branchy(int64_t n, double percent, uint64_t seed, double length, double diam,
                           nb::dict cable) {
    hb_synth_geometry g;
    geometry_from(length, diam, cable, &g);
    hb_morph_cell *cell = nullptr;
    check(hb_morph_synth_branchy(n, percent, seed, &g, &cell));
    return new Cell(cell);
}

static hb_morph_cell_view view_of(const Cell &c) {
    hb_morph_cell_view v;
    check(hb_morph_cell_get_view(c.cell, &v));
    return v;
}

static nb::dict cell_arrays(const Cell &c) {
    hb_morph_cell_view v = view_of(c);
    size_t n = (size_t)v.n;
    nb::dict d;
    d["parent"] = copy_array(Dtype::i32, v.parent, n);
    d["area"] = copy_array(Dtype::f64, v.area, n);
    d["diam"] = copy_array(Dtype::f64, v.diam, n);
    d["g_axial"] = copy_array(Dtype::f64, v.g_axial, n);
    d["distance"] = copy_array(Dtype::f64, v.distance, n);
    d["type"] = copy_array(Dtype::i32, v.type, n);
    d["source"] = copy_array(Dtype::i64, v.source, n);
    return d;
}

static nb::dict cell_cable(const Cell &c) {
    hb_morph_cell_view v = view_of(c);
    nb::dict d;
    d["ra"] = v.cable.ra;
    d["cm"] = v.cable.cm;
    d["gm"] = v.cable.gm;
    return d;
}

static nb::tuple cell_matrix(const Cell &c, double dt) {
    size_t n = (size_t)view_of(c).n;
    nb::object d = new_numpy(Dtype::f64, {n}), u = new_numpy(Dtype::f64, {n}),
               l = new_numpy(Dtype::f64, {n});
    check(hb_morph_cell_matrix(c.cell, dt, (double *)numpy_data(d), (double *)numpy_data(u),
                               (double *)numpy_data(l)));
    return nb::make_tuple(d, u, l);
}

static nb::object cell_cdt(const Cell &c, double dt) {
    size_t n = (size_t)view_of(c).n;
    nb::object x = new_numpy(Dtype::f64, {n});
    check(hb_morph_cell_cdt(c.cell, dt, (double *)numpy_data(x)));
    return x;
}

static void parent_of(const AnyArray &parent) {
    if (parent.ndim() != 1) invalid("parent: a 1-D array");
    require_host(parent, "parent", Dtype::i32, parent.shape(0));
}

static nb::dict tree_stats(AnyArray parent) {
    parent_of(parent);
    hb_tree_stats s;
    check(hb_morph_tree_stats((int64_t)parent.shape(0), (const int32_t *)parent.data(), &s));
    nb::dict d;
    d["nodes"] = s.nodes;
    d["branches"] = s.branches;
    d["branch_points"] = s.branch_points;
    d["tips"] = s.tips;
    d["levels"] = s.levels;
    d["longest_branch"] = s.longest_branch;
    d["max_level_width"] = s.max_level_width;
    return d;
}

static nb::object tree_level_counts(AnyArray parent) {
    parent_of(parent);
    hb_tree_stats s;
    int64_t n = (int64_t)parent.shape(0);
    check(hb_morph_tree_stats(n, (const int32_t *)parent.data(), &s));
    nb::object x = new_numpy(Dtype::i64, {(size_t)s.levels});
    check(hb_morph_tree_level_counts(n, (const int32_t *)parent.data(), s.levels,
                                     (int64_t *)numpy_data(x)));
    return x;
}

static nb::tuple tree_order(AnyArray parent) {
    parent_of(parent);
    size_t n = parent.shape(0);
    nb::object a = new_numpy(Dtype::i32, {n}), b = new_numpy(Dtype::i32, {n});
    check(hb_morph_tree_order((int64_t)n, (const int32_t *)parent.data(),
                              (int32_t *)numpy_data(a), (int32_t *)numpy_data(b)));
    return nb::make_tuple(a, b);
}

// A batch's arrays as numpy copies (the batch is freed here).
static nb::dict batch_dict(hb_morph_batch *b) {
    hb_morph_batch_view v;
    hb_status st = hb_morph_batch_get_view(b, &v);
    if (st != HB_SUCCESS) {
        hb_morph_batch_destroy(b);
        check(st);
    }
    size_t r = (size_t)v.rows;
    nb::dict d;
    d["nsys"] = v.nsys;
    d["n"] = v.n;
    d["offsets"] = copy_array(Dtype::i64, v.offsets, (size_t)v.nsys + 1);
    d["parent"] = copy_array(Dtype::i32, v.parent, r);
    d["d"] = copy_array(Dtype::f64, v.d, r);
    d["u"] = copy_array(Dtype::f64, v.u, r);
    d["l"] = copy_array(Dtype::f64, v.l, r);
    d["cdt"] = copy_array(Dtype::f64, v.cdt, r);
    d["area"] = copy_array(Dtype::f64, v.area, r);
    hb_morph_batch_destroy(b);
    return d;
}

static nb::dict batch_mono(const Cell &c, int64_t nsys, double dt) {
    hb_morph_batch *b = nullptr;
    check(hb_morph_batch_mono(c.cell, nsys, dt, &b));
    return batch_dict(b);
}

static nb::dict batch_multi(std::vector<const Cell *> cells, double dt) {
    if (cells.empty()) invalid("cells: an empty list"); // the library would see a NULL array
    std::vector<const hb_morph_cell *> cs;
    for (const Cell *c : cells) {
        if (!c) invalid("cells: None in the list");
        cs.push_back(c->cell);
    }
    hb_morph_batch *b = nullptr;
    check(hb_morph_batch_multi(cs.data(), (int64_t)cs.size(), dt, &b));
    return batch_dict(b);
}

void bind_morph(nb::module_ &m) {
    nb::class_<Morph>(m, "Morph")
        .def_static("read_swc", &read_swc, nb::arg("path"), nb::arg("scale"), nb::arg("repair_radii"))
        .def_static("parse_swc", &parse_swc, nb::arg("text"), nb::arg("name"), nb::arg("scale"),
                    nb::arg("repair_radii"))
        .def("info", &morph_info)
        .def("samples", &morph_samples);
    nb::class_<Cell>(m, "Cell")
        .def_static("create", &cell_create)
        .def_static("from_parent", &cell_from_parent)
        .def_static("synth_levels", &synth_levels)
        .def_static("synth_random", &synth_random)
        .def_static("synth_branchy", &synth_branchy)
        .def_prop_ro("n", [](const Cell &c) { return view_of(c).n; })
        .def("arrays", &cell_arrays)
        .def("cable", &cell_cable)
        .def("matrix", &cell_matrix)
        .def("cdt", &cell_cdt)
        .def("reroot", [](Cell &c) { check(hb_morph_cell_reroot(c.cell)); });
    m.def("tree_stats", &tree_stats);
    m.def("tree_level_counts", &tree_level_counts);
    m.def("tree_order", &tree_order);
    m.def("batch_mono", &batch_mono);
    m.def("batch_multi", &batch_multi);
}

} // namespace hbpy
