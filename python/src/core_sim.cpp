// core_sim.cpp: simulations in hinesbatch._core: parameters from a dict, clamps, recordings and probes, runs, traces, spikes, state and timing.
#include "core_morph.h"
#include "core_plan.h"

namespace hbpy {

static void params_from(const nb::dict &d, hb_sim_params *p) {
    hb_sim_params_init(p);
    nb::dict plan;
    for (auto kv : d) {
        std::string k = nb::cast<std::string>(kv.first);
        try {
            nb::handle v = kv.second;
            if (v.is_none()) continue;
            if (k == "dt") p->dt = nb::cast<double>(v);
            else if (k == "celsius") p->celsius = nb::cast<double>(v);
            else if (k == "v_init") p->v_init = nb::cast<double>(v);
            else if (k == "gnabar") p->gnabar = nb::cast<double>(v);
            else if (k == "gkbar") p->gkbar = nb::cast<double>(v);
            else if (k == "gl") p->gl = nb::cast<double>(v);
            else if (k == "el") p->el = nb::cast<double>(v);
            else if (k == "ena") p->ena = nb::cast<double>(v);
            else if (k == "ek") p->ek = nb::cast<double>(v);
            else if (k == "hh_everywhere") p->hh_everywhere = nb::cast<bool>(v) ? 1 : 0;
            else if (k == "threshold") p->threshold = nb::cast<double>(v);
            else if (k == "max_spikes") p->max_spikes = nb::cast<int64_t>(v);
            else if (k == "record_chunk") p->record_chunk = nb::cast<int64_t>(v);
            else if (k == "timing") p->timing = nb::cast<bool>(v) ? 1 : 0;
            else if (k == "epoch_steps") p->epoch_steps = nb::cast<int64_t>(v);
            else if (k == "engine") {
                std::string s = nb::cast<std::string>(v);
                if (s == "auto") p->engine = HB_SIM_ENGINE_AUTO;
                else if (s == "stages") p->engine = HB_SIM_ENGINE_STAGES;
                else if (s == "cells") p->engine = HB_SIM_ENGINE_CELLS;
                else invalid("engine: '" + s + "', expected auto, stages or cells");
            }
            else if (k == "dtype") {
                std::string s = nb::cast<std::string>(v);
                if (s == "float64") p->precision = HB_DOUBLE;
                else if (s == "float32") p->precision = HB_FLOAT;
                else invalid("dtype: '" + s + "', expected float64 or float32");
            } else if (k == "plan") plan = nb::cast<nb::dict>(v);
            else invalid("simulation parameter " + k + ": unknown");
        } catch (const std::bad_cast &) {
            invalid("simulation parameter " + k + ": a value of the wrong type");
        }
    }
    plan_options_from(plan, &p->plan);
}

static Sim *sim_create(Context &c, std::vector<const Cell *> cells, nb::dict params) {
    hb_sim_params p;
    params_from(params, &p);
    if (cells.empty()) invalid("cells: an empty list"); // the library would see a NULL array
    std::vector<const hb_morph_cell *> cs;
    for (const Cell *x : cells) {
        if (!x) invalid("cells: None in the list");
        cs.push_back(x->cell);
    }
    hb_sim *s = nullptr;
    hb_status st;
    {
        nb::gil_scoped_release nogil;
        st = hb_sim_create(c.ctx, cs.data(), (int64_t)cs.size(), &p, &s);
    }
    check(st);
    return new Sim(s, (int64_t)cs.size());
}

static nb::tuple sim_traces(const Sim &s) {
    int64_t nrec = 0, ns = 0;
    check(hb_sim_trace_count(s.sim, &nrec, &ns));
    nb::object v = new_numpy(Dtype::f64, {(size_t)nrec, (size_t)ns});
    nb::object cells = new_numpy(Dtype::i64, {(size_t)nrec});
    double *vp = (double *)numpy_data(v);
    int64_t *cp = (int64_t *)numpy_data(cells);
    for (int64_t r = 0; r < nrec; r++) check(hb_sim_get_trace(s.sim, r, &cp[r], vp + r * ns));
    return nb::make_tuple(cells, v);
}

static nb::tuple sim_spikes(Sim &s, int64_t cell) {
    int64_t count = 0;
    check(hb_sim_get_spikes(s.sim, cell, 0, nullptr, &count));
    size_t cap = (size_t)count;
    std::vector<double> t(cap ? cap : 1);
    check(hb_sim_get_spikes(s.sim, cell, (int64_t)cap, t.data(), &count));
    size_t kept = cap < (size_t)count ? cap : (size_t)count;
    nb::object arr = new_numpy(Dtype::f64, {kept});
    if (kept) std::memcpy(numpy_data(arr), t.data(), kept * sizeof(double));
    return nb::make_tuple(arr, count);
}

static nb::object sim_state(Sim &s, const std::string &which) {
    hb_sim_state w;
    if (which == "v") w = HB_SIM_V;
    else if (which == "m") w = HB_SIM_M;
    else if (which == "h") w = HB_SIM_H;
    else if (which == "n") w = HB_SIM_N;
    else invalid("which: '" + which + "', expected v, m, h or n");
    int64_t rows = 0;
    check(hb_sim_rows(s.sim, &rows));
    nb::object arr = new_numpy(Dtype::f64, {(size_t)rows});
    check(hb_sim_get_state(s.sim, w, (double *)numpy_data(arr)));
    return arr;
}

static nb::dict sim_timing(const Sim &s) {
    hb_sim_timing t;
    check(hb_sim_get_timing(s.sim, &t));
    nb::dict d;
    d["membrane_ms"] = t.membrane_ms;
    d["assembly_ms"] = t.assembly_ms;
    d["solve_ms"] = t.solve_ms;
    d["update_ms"] = t.update_ms;
    d["readback_ms"] = t.readback_ms;
    d["total_ms"] = t.total_ms;
    d["steps"] = t.steps;
    d["compartment_steps"] = t.compartment_steps;
    d["onchip_ms"] = t.onchip_ms;
    d["epochs"] = t.epochs;
    d["compulsory_bytes"] = t.compulsory_bytes;
    return d;
}

// A region from its parts (hb_sim_region): cell (-1 all), SWC type bits, path distance window.
static hb_sim_region region_of(int64_t cell, uint32_t types, double dmin, double dmax) {
    hb_sim_region r;
    hb_sim_region_init(&r);
    r.cell = cell;
    r.types = types;
    r.dist_min = dmin;
    r.dist_max = dmax;
    return r;
}

static nb::object sim_mech_state(Sim &s, const std::string &mech, const std::string &var) {
    int64_t rows = 0, n = 0;
    check(hb_sim_rows(s.sim, &rows));
    // Enough for every compartment or every point process of the mechanism.
    std::vector<double> buf((size_t)rows + 1);
    hb_status st =
        hb_sim_get_mech_state(s.sim, c_arg(mech, "mech"), c_arg(var, "var"), buf.data(), &n);
    if (st == HB_SUCCESS && n > rows) {
        buf.resize((size_t)n);
        st = hb_sim_get_mech_state(s.sim, c_arg(mech, "mech"), c_arg(var, "var"), buf.data(), &n);
    }
    check(st);
    nb::object arr = new_numpy(Dtype::f64, {(size_t)n});
    if (n) std::memcpy(numpy_data(arr), buf.data(), (size_t)n * sizeof(double));
    return arr;
}

static nb::list mechanisms() {
    nb::list out;
    for (int64_t i = 0; i < hb_mech_count(); ++i) {
        hb_mech_desc d;
        check(hb_mech_describe(i, &d));
        nb::dict m;
        m["name"] = std::string(d.name);
        m["kind"] = std::string(d.point ? "point" : "density");
        m["net_receive"] = d.net_receive != 0;
        nb::dict prm;
        for (int p = 0; p < d.nparam; ++p) prm[d.param_names[p]] = d.param_defaults[p];
        m["parameters"] = prm;
        nb::list st;
        for (int k = 0; k < d.nstate; ++k) st.append(std::string(d.state_names[k]));
        m["states"] = st;
        nb::list cur;
        for (int k = 0; k < d.ncurrent; ++k) cur.append(std::string(d.current_names[k]));
        m["currents"] = cur;
        out.append(m);
    }
    return out;
}

void bind_sim(nb::module_ &m) {
    nb::class_<Sim>(m, "Sim")
        .def_static("create", &sim_create)
        .def("describe", [](const Sim &s) { return std::string(hb_sim_describe(s.sim)); })
        .def("rows", [](const Sim &s) { int64_t r = 0; check(hb_sim_rows(s.sim, &r)); return r; })
        .def("cell_rows",
             [](const Sim &s, int64_t c) {
                 int64_t off = 0, n = 0;
                 check(hb_sim_cell_rows(s.sim, c, &off, &n));
                 return nb::make_tuple(off, n);
             })
        .def("soma",
             [](const Sim &s, int64_t c) {
                 int64_t k = 0;
                 check(hb_sim_soma(s.sim, c, &k));
                 return k;
             })
        .def("add_iclamp",
             [](Sim &s, int64_t cell, int64_t comp, double onset, double dur, double amp) {
                 check(hb_sim_add_iclamp(s.sim, cell, comp, onset, dur, amp));
             })
        .def("record", [](Sim &s, int64_t cell) { check(hb_sim_record(s.sim, cell)); })
        .def("set_spike_detector",
             [](Sim &s, int64_t cell, int64_t comp) {
                 check(hb_sim_set_spike_detector(s.sim, cell, comp));
             })
        .def("probe",
             [](Sim &s, int64_t cell, int64_t comp, const std::string &what) {
                 int64_t id = -1;
                 check(hb_sim_probe(s.sim, cell, comp, c_arg(what, "what"), &id));
                 return id;
             })
        .def("probe_point",
             [](Sim &s, int64_t point, const std::string &var) {
                 int64_t id = -1;
                 check(hb_sim_probe_point(s.sim, point, c_arg(var, "var"), &id));
                 return id;
             })
        .def("trace_count",
             [](const Sim &s) {
                 int64_t n = 0;
                 check(hb_sim_trace_count(s.sim, &n, nullptr));
                 return n;
             })
        .def("trace_info",
             [](const Sim &s, int64_t r) {
                 hb_sim_trace_desc in;
                 check(hb_sim_get_trace_info(s.sim, r, &in));
                 return nb::make_tuple(in.cell, in.compartment, in.point, in.probe != 0,
                                       std::string(in.what));
             })
        .def("run",
             [](Sim &s, double tstop) {
                 hb_status st;
                 {
                     nb::gil_scoped_release nogil;
                     st = hb_sim_run(s.sim, tstop);
                 }
                 check(st);
             })
        .def("time",
             [](const Sim &s) {
                 double t = 0;
                 int64_t steps = 0;
                 check(hb_sim_get_time(s.sim, &t, &steps));
                 return nb::make_tuple(t, steps);
             })
        .def("traces", &sim_traces)
        .def("spikes", &sim_spikes)
        .def("state", &sim_state)
        .def("insert",
             [](Sim &s, const std::string &mech, int64_t cell, uint32_t types, double lo,
                double hi) {
                 hb_sim_region r = region_of(cell, types, lo, hi);
                 check(hb_sim_insert(s.sim, c_arg(mech, "mech"), &r));
             })
        .def("set_param",
             [](Sim &s, const std::string &mech, const std::string &param, double a, double b,
                double c, double k, int64_t cell, uint32_t types, double lo, double hi) {
                 hb_sim_region r = region_of(cell, types, lo, hi);
                 hb_sim_profile f = {a, b, c, k};
                 check(hb_sim_set_param_profile(s.sim, c_arg(mech, "mech"), c_arg(param, "param"),
                                                &r, &f));
             })
        .def("set_ion",
             [](Sim &s, const std::string &ion, double e, double ci, double co, int64_t cell,
                uint32_t types, double lo, double hi) {
                 hb_sim_region r = region_of(cell, types, lo, hi);
                 check(hb_sim_set_ion(s.sim, c_arg(ion, "ion"), &r, e, ci, co));
             })
        .def("set_ion_nernst",
             [](Sim &s, const std::string &ion, bool on) {
                 check(hb_sim_set_ion_nernst(s.sim, c_arg(ion, "ion"), on ? 1 : 0));
             })
        .def("add_point",
             [](Sim &s, const std::string &mech, int64_t cell, int64_t comp) {
                 int64_t id = -1;
                 check(hb_sim_add_point(s.sim, c_arg(mech, "mech"), cell, comp, &id));
                 return id;
             })
        .def("set_point_param",
             [](Sim &s, int64_t id, const std::string &param, double v) {
                 check(hb_sim_set_point_param(s.sim, id, c_arg(param, "param"), v));
             })
        .def("add_events",
             [](Sim &s, int64_t id, std::vector<double> times, double w) {
                 check(hb_sim_add_events(s.sim, id, (int64_t)times.size(), times.data(), w));
             })
        .def("add_spike_train",
             [](Sim &s, int64_t id, bool poisson, double start, double stop, double interval,
                double rate, uint64_t seed, double w) {
                 hb_spike_train t = {poisson ? HB_TRAIN_POISSON : HB_TRAIN_REGULAR,
                                     start, stop, interval, rate, seed, w};
                 check(hb_sim_add_spike_train(s.sim, id, &t));
             })
        .def("mech_state", &sim_mech_state)
        .def("set_cm",
             [](Sim &s, double cm, int64_t cell, uint32_t types, double lo, double hi) {
                 hb_sim_region r = region_of(cell, types, lo, hi);
                 check(hb_sim_set_cm(s.sim, &r, cm));
             })
        .def("timing", &sim_timing);
    m.def("mechanisms", &mechanisms);
    m.def("sim_exprelr", [](const std::string &dt, double x) {
        return hb_sim_exprelr(dt == "float32" ? HB_FLOAT : HB_DOUBLE, x);
    });
}

} // namespace hbpy
