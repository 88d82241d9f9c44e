// core_plan.h: the plan wrapper of hinesbatch._core, shared by the plan bindings and the device solves.
#pragma once

#include "core.h"

namespace hbpy {

struct Plan {
    hb_plan *plan = nullptr;
    int64_t nsys = 0, nrows = 0;
    bool hines = false;
    hb_precision precision = HB_DOUBLE;
    int device = 0; // CUDA device of the context
    explicit Plan(hb_plan *p) : plan(p) {}
    Plan(const Plan &) = delete;
    Plan &operator=(const Plan &) = delete;
    ~Plan();
    void fill(); // nsys, nrows, hines, precision from hb_plan_get_info
};

// Plan options from a dict of names (layout, padding, strategy, ...).
void plan_options_from(const nb::dict &d, hb_plan_options *o);
// The CUDA device of a plan's context (0 for the other backends).
int plan_device(const Plan &p);
// Element type of a plan's arrays.
inline Dtype plan_dtype(const Plan &p) { return p.precision == HB_DOUBLE ? Dtype::f64 : Dtype::f32; }
// The plan array of a name (a, b, c, u, l, d, rhs).
hb_array array_of(const std::string &name);

} // namespace hbpy
