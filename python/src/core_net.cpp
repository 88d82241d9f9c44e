// core_net.cpp: networks in hinesbatch._core: simulations as parts, connections and their NET_RECEIVE values, runs in epochs, spikes (hinesbatch_net.h, one process).
#include "core.h"

#include "hinesbatch_net.h"

namespace hbpy {

struct Net {
    hb_net *net = nullptr;
    explicit Net(hb_net *n) : net(n) {}
    Net(const Net &) = delete;
    Net &operator=(const Net &) = delete;
    ~Net() { hb_net_destroy(net); }
};

static Net *net_create(const std::string &delivery) {
    hb_net_delivery d;
    if (delivery == "step_end") d = HB_NET_STEP_END;
    else if (delivery == "spike_time") d = HB_NET_SPIKE_TIME;
    else invalid("delivery: '" + delivery + "', expected step_end or spike_time");
    hb_net *n = nullptr;
    check(hb_net_create(nullptr, d, &n));
    return new Net(n);
}

static int32_t net_add_part(Net &n, Sim &s, const std::vector<int64_t> &gids) {
    // The library reads one gid per cell: the count is checked here, where C
    // can only trust the caller.
    if ((int64_t)gids.size() != s.ncells)
        invalid("gids: " + std::to_string(gids.size()) + " given, the simulation has " +
                std::to_string(s.ncells) + " cells");
    int32_t part = -1;
    check(hb_net_add_part(n.net, s.sim, gids.data(), &part));
    return part;
}

static int64_t net_connect(Net &n, int64_t src, int32_t part, int64_t point, double weight,
                           double delay) {
    int64_t before = 0;
    check(hb_net_connection_count(n.net, &before));
    check(hb_net_connect(n.net, src, part, point, weight, delay));
    return before; // its index: connections are numbered in the order made
}

static nb::object net_get_values(Net &n, int64_t conn) {
    int32_t count = 0;
    check(hb_net_get_values(n.net, conn, 0, nullptr, &count));
    nb::object arr = new_numpy(Dtype::f64, {(size_t)count});
    if (count > 0)
        check(hb_net_get_values(n.net, conn, count, (double *)numpy_data(arr), &count));
    return arr;
}

static nb::tuple net_spikes(Net &n, bool all) {
    int64_t count = 0;
    check(hb_net_spikes(n.net, all ? 1 : 0, 0, nullptr, &count));
    std::vector<hb_net_spike> sp((size_t)(count > 0 ? count : 1));
    check(hb_net_spikes(n.net, all ? 1 : 0, count, sp.data(), &count));
    nb::object gid = new_numpy(Dtype::i64, {(size_t)count});
    nb::object t = new_numpy(Dtype::f64, {(size_t)count});
    int64_t *g = (int64_t *)numpy_data(gid);
    double *tt = (double *)numpy_data(t);
    for (int64_t k = 0; k < count; ++k) g[k] = sp[(size_t)k].gid, tt[k] = sp[(size_t)k].t;
    return nb::make_tuple(gid, t);
}

void bind_net(nb::module_ &m) {
    nb::class_<Net>(m, "Net")
        .def_static("create", &net_create)
        // The network reads the simulation at every run: it keeps it alive.
        .def("add_part", &net_add_part, nb::keep_alive<1, 2>())
        .def("connect", &net_connect)
        .def("connection_count",
             [](const Net &n) {
                 int64_t c = 0;
                 check(hb_net_connection_count(n.net, &c));
                 return c;
             })
        .def("set_values",
             [](Net &n, int64_t conn, std::vector<double> v) {
                 if (v.size() > (size_t)INT32_MAX) invalid("values: too many");
                 check(hb_net_set_values(n.net, conn, (int32_t)v.size(), v.data()));
             })
        .def("get_values", &net_get_values)
        .def("run",
             [](Net &n, double tstop) {
                 hb_status st;
                 {
                     nb::gil_scoped_release nogil;
                     st = hb_net_run(n.net, tstop);
                 }
                 check(st);
             })
        .def("epoch",
             [](const Net &n) {
                 double ms = 0;
                 int64_t epochs = 0;
                 check(hb_net_epoch(n.net, &ms, &epochs));
                 return nb::make_tuple(ms, epochs);
             })
        .def("spikes", &net_spikes);
}

} // namespace hbpy
