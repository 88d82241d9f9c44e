// core_plan.h: the plan wrapper of hinesbatch._core, shared by the plan bindings and the device solves.
#pragma once

#include "core.h"

namespace hbpy {

struct Plan {
    hb_plan *plan = nullptr;
    int64_t nsys = 0, nrows = 0, max_rows = 0;
    bool hines = false;
    bool shared = false; // U and L are one system's max_rows values (shared couplings)
    hb_precision precision = HB_DOUBLE;
    int device = 0; // CUDA device of the context
    explicit Plan(hb_plan *p) : plan(p) {}
    Plan(const Plan &) = delete;
    Plan &operator=(const Plan &) = delete;
    ~Plan();
    void fill(); // nsys, nrows, max_rows, hines, shared, precision from hb_plan_get_info
};

// Plan options from a dict of names (layout, padding, strategy, ...).
void plan_options_from(const nb::dict &d, hb_plan_options *o);
// The CUDA device of a plan's context (0 for the other backends).
int plan_device(const Plan &p);
// Element type of a plan's arrays.
inline Dtype plan_dtype(const Plan &p) { return p.precision == HB_DOUBLE ? Dtype::f64 : Dtype::f32; }
// The plan array of a name (a, b, c, u, l, d, rhs).
hb_array array_of(const std::string &name);
// Elements of a plan array: nrows, or max_rows for U and L of shared couplings.
inline int64_t plan_count(const Plan &p, hb_array w) {
    return p.shared && (w == HB_ARRAY_U || w == HB_ARRAY_L) ? p.max_rows : p.nrows;
}

} // namespace hbpy
