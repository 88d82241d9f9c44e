// core.h: what the parts of the binding module hinesbatch._core share: errors, array helpers, the context wrapper.
#pragma once

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <cstring>
#include <typeinfo>
#include <string>
#include <vector>

#include "hinesbatch.h"
#include "hinesbatch_morph.h"
#include "hinesbatch_sim.h"

namespace nb = nanobind;

namespace hbpy {

// A failed library call: turned into hinesbatch.Error (or its subclass for
// the status) by the translator registered in _core.cpp.
struct Error {
    int status;
    std::string message;
};

// Throws Error with the library's thread-local message when st is not success.
void check(hb_status st);
// Throws Error(HB_ERR_INVALID_ARGUMENT, msg): a check of the binding's own.
[[noreturn]] void invalid(const std::string &msg);
// s as the C string a library call takes, or Error naming `name` when s holds
// a NUL byte (C would read only the text before it: "hh\0x" as "hh", a path
// "a.swc\0b" as "a.swc").
const char *c_arg(const std::string &s, const char *name);

// A host or device array, as nanobind sees any DLPack / buffer object.
using AnyArray = nb::ndarray<>;

// Element type codes of the arrays the library takes.
enum class Dtype { f64, f32, i32, i64, other };
Dtype dtype_of(const AnyArray &a);
// Elements of a (product of its shape).
size_t count_of(const AnyArray &a);
// Checks a host, C-contiguous array of `n` elements of dtype `want`; names it.
void require_host(const AnyArray &a, const char *name, Dtype want, size_t n);
// A new numpy array of the shape, float64 / float32 / int32 / int64.
nb::object new_numpy(Dtype t, const std::vector<size_t> &shape);
// Its data pointer (from a numpy array made by new_numpy).
void *numpy_data(nb::handle arr);

// A context as Python holds it: the library counts references, so plans and
// simulations made on it stay valid after it is collected.
struct Context {
    hb_context *ctx = nullptr;
    explicit Context(hb_context *c) : ctx(c) {}
    Context(const Context &) = delete;
    Context &operator=(const Context &) = delete;
    ~Context() { hb_context_destroy(ctx); }
};

// A simulation as Python holds it (a network that runs it keeps it alive:
// core_net.cpp).
struct Sim {
    hb_sim *sim = nullptr;
    int64_t ncells = 0;
    Sim(hb_sim *s, int64_t n) : sim(s), ncells(n) {}
    Sim(const Sim &) = delete;
    Sim &operator=(const Sim &) = delete;
    ~Sim() { hb_sim_destroy(sim); }
};

hb_backend backend_of_name(const std::string &name);

void bind_plan(nb::module_ &m);
void bind_morph(nb::module_ &m);
void bind_sim(nb::module_ &m);
void bind_device(nb::module_ &m);
void bind_cardiac(nb::module_ &m);
void bind_net(nb::module_ &m);

} // namespace hbpy
