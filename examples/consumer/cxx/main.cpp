// main.cpp: a C++ consumer of the installed hinesbatch (a CXX-only project): a tridiagonal batch through a plan and a small simulation of synthetic neurons, checked.
#include <hinesbatch_sim.h> // with hinesbatch.h and hinesbatch_morph.h: every public header as C++

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace {

int failures = 0;

void check(bool ok, const std::string &what)
{
    if (!ok) {
        ++failures;
        std::fprintf(stderr, "FAIL: %s (last error: %s)\n", what.c_str(), hb_last_error());
    }
}

// The library's handles, owned: every destroy function accepts NULL.
struct destroy {
    void operator()(hb_context *p) const { hb_context_destroy(p); }
    void operator()(hb_plan *p) const { hb_plan_destroy(p); }
    void operator()(hb_morph_cell *p) const { hb_morph_cell_destroy(p); }
    void operator()(hb_sim *p) const { hb_sim_destroy(p); }
};
template <typename T> using owned = std::unique_ptr<T, destroy>;

// nsys diagonally dominant tridiagonal systems of n rows in a uniform plan;
// the solution checked by the library's residual ratio and by hand.
void tridiag(hb_context *ctx, int64_t nsys, int64_t n)
{
    const size_t rows = static_cast<size_t>(nsys * n), nn = static_cast<size_t>(n);
    std::vector<double> a(rows), b(rows), c(rows), d(rows), x(rows);
    std::vector<int64_t> offsets(static_cast<size_t>(nsys) + 1);
    unsigned long long rng = 88172645463325252ull;
    auto unit = [&rng]() { // xorshift64
        rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
        return static_cast<double>(rng >> 11) / 9007199254740992.0; // 2^53
    };
    for (size_t k = 0; k < rows; ++k) {
        const bool first = k % nn == 0, last = k % nn == nn - 1;
        a[k] = first ? 0 : unit() - 0.5;
        c[k] = last ? 0 : unit() - 0.5;
        b[k] = 1.5 + unit();
        d[k] = unit() - 0.5;
    }
    for (int64_t s = 0; s <= nsys; ++s)
        offsets[static_cast<size_t>(s)] = s * n;

    hb_plan_options opts;
    hb_plan_options_init(&opts);
    hb_plan *raw = nullptr;
    check(hb_plan_create_tridiag_uniform(ctx, HB_DOUBLE, nsys, n, &opts, &raw) == HB_SUCCESS,
          "tridiagonal plan");
    owned<hb_plan> plan(raw);
    if (!plan)
        return;
    check(hb_plan_set(plan.get(), HB_ARRAY_A, a.data()) == HB_SUCCESS, "set A");
    check(hb_plan_set(plan.get(), HB_ARRAY_B, b.data()) == HB_SUCCESS, "set B");
    check(hb_plan_set(plan.get(), HB_ARRAY_C, c.data()) == HB_SUCCESS, "set C");
    check(hb_plan_set(plan.get(), HB_ARRAY_RHS, d.data()) == HB_SUCCESS, "set RHS");
    check(hb_plan_solve(plan.get()) == HB_SUCCESS, "solve");
    check(hb_plan_get_solution(plan.get(), x.data()) == HB_SUCCESS, "solution");
    double ratio = 1e30;
    hb_tridiag_residual(HB_DOUBLE, nsys, offsets.data(), a.data(), b.data(), c.data(), x.data(),
                        d.data(), &ratio, nullptr);
    double worst = 0; // |b - A x| by hand
    for (size_t k = 0; k < rows; ++k) {
        double r = d[k] - b[k] * x[k];
        if (k % nn != 0)
            r -= a[k] * x[k - 1];
        if (k % nn != nn - 1)
            r -= c[k] * x[k + 1];
        worst = std::fmax(worst, std::fabs(r));
    }
    check(ratio < 30 && worst < 1e-12, "tridiagonal residual ratio " + std::to_string(ratio) +
                                           ", largest |b - Ax| " + std::to_string(worst));
    std::printf("tridiagonal %lld x %lld in a plan (%s): ratio %.2g, |b - Ax| <= %.2g\n",
                static_cast<long long>(nsys), static_cast<long long>(n),
                hb_plan_describe(plan.get()), ratio, worst);
}

// Copies of one synthetic neuron, HH everywhere, half of them clamped: the
// clamped ones spike alike, the others stay at rest.
void simulate(hb_context *ctx)
{
    hb_morph_cell *raw = nullptr;
    check(hb_morph_synth_levels(64, 3, nullptr, &raw) == HB_SUCCESS, "synthetic neuron");
    owned<hb_morph_cell> cell(raw);
    if (!cell)
        return;
    const int64_t ncells = 8;
    std::vector<const hb_morph_cell *> cells(static_cast<size_t>(ncells), cell.get());
    hb_sim_params params;
    hb_sim_params_init(&params);
    params.hh_everywhere = 1;
    hb_sim *sraw = nullptr;
    check(hb_sim_create(ctx, cells.data(), ncells, &params, &sraw) == HB_SUCCESS, "simulation");
    owned<hb_sim> sim(sraw);
    if (!sim)
        return;
    for (int64_t i = 1; i < ncells; i += 2)
        check(hb_sim_add_iclamp(sim.get(), i, -1, 1.0, 20.0, 1.0) == HB_SUCCESS, "clamp");
    check(hb_sim_run(sim.get(), 20.0) == HB_SUCCESS, "run");
    std::vector<int64_t> counts(static_cast<size_t>(ncells));
    for (int64_t i = 0; i < ncells; ++i) {
        double t[16];
        check(hb_sim_get_spikes(sim.get(), i, 16, t, &counts[static_cast<size_t>(i)]) ==
                  HB_SUCCESS,
              "spikes");
    }
    for (int64_t i = 0; i < ncells; ++i) {
        const int64_t got = counts[static_cast<size_t>(i)], want = i % 2 ? counts[1] : 0;
        check(got == want && counts[1] > 0, "cell " + std::to_string(i) + ": " +
                                                std::to_string(got) + " spikes, cell 1 " +
                                                std::to_string(counts[1]));
    }
    std::printf("simulation: %s: %lld spikes per clamped cell, none unclamped\n",
                hb_sim_describe(sim.get()), static_cast<long long>(counts[1]));
}

} // namespace

int main()
{
    hb_context *raw = nullptr;
    hb_status st = hb_context_create(HB_BACKEND_AUTO, &raw);
    owned<hb_context> ctx(raw);
    if (st != HB_SUCCESS) {
        const char *skip = std::getenv("HB_TEST_ALLOW_SKIP");
        std::printf("no context: %s: %s\n", hb_status_string(st), hb_last_error());
        return st == HB_ERR_BACKEND_UNAVAILABLE && skip && !std::strcmp(skip, "1") ? 77 : 1;
    }
    // hb_version() is the library linked, HB_VERSION the headers compiled with.
    check(hb_version() == HB_VERSION, "library " + std::to_string(hb_version()) +
                                          ", headers " + std::to_string(HB_VERSION));
#ifdef HB_EXPECTED_VERSION // the version the build system found (CMake package, pkg-config)
    check(std::string(HB_VERSION_STRING) == HB_EXPECTED_VERSION,
          std::string("headers ") + HB_VERSION_STRING + ", package " + HB_EXPECTED_VERSION);
#endif
    std::printf("hinesbatch %s (C++) on %s\n", HB_VERSION_STRING, hb_context_describe(ctx.get()));
    tridiag(ctx.get(), 200, 100);
    simulate(ctx.get());
    std::printf("%s\n", failures ? "FAILED" : "OK");
    return failures ? 1 : 0;
}
