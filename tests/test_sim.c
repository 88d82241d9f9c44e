/* test_sim.c: simulation physics: HH rate singularities in both precisions, passive cells against the analytic charging curve, HH spike sanity, bad inputs. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hb_test_util.h"

#define PI 3.14159265358979323846

/* A cylinder cell of n compartments (a chain), length and diameter in um. */
static hb_morph_cell *cylinder(int64_t n, double length, double diam)
{
    int32_t *parent = hb_test_xalloc((size_t)n * sizeof *parent);
    hb_test_tree(parent, n, HB_TREE_CHAIN);
    hb_morph_cell *cell = NULL;
    hb_status st = hb_morph_cell_from_parent(n, parent, length, diam, NULL, &cell);
    free(parent);
    if (st != HB_SUCCESS) {
        fprintf(stderr, "cannot make a cylinder: %s\n", hb_last_error());
        exit(1);
    }
    return cell;
}

/* x/(exp(x)-1) in long double, the reference. */
static long double exprelr_ref(long double x)
{
    return x == 0 ? 1.0L : x / expm1l(x);
}

/* (1) The rate helper at and around its removable singularity (x = 0: v = -40
 * for alpha_m, -55 for alpha_n): within a few ulps of the long double value in
 * each precision, so float and double agree. */
static void test_exprelr(void)
{
    double worst[2] = {0, 0};
    double xs[64];
    int nx = 0;
    xs[nx++] = 0.0;
    for (int e = -12; e <= 0; ++e) {
        xs[nx++] = pow(10.0, e);
        xs[nx++] = -pow(10.0, e);
    }
    /* Both sides of the series/expm1 switch at 1e-4, and random points. */
    xs[nx++] = 0.99999e-4, xs[nx++] = 1.00001e-4, xs[nx++] = -0.99999e-4, xs[nx++] = -1.00001e-4;
    while (nx < 64)
        xs[nx++] = (hb_test_unit() - 0.5) * 2e-3;
    for (int i = 0; i < nx; ++i) {
        for (int p = 0; p < 2; ++p) {
            hb_precision prec = p ? HB_FLOAT : HB_DOUBLE;
            double x = p ? (double)(float)xs[i] : xs[i];
            double got = hb_sim_exprelr(prec, x);
            double ref = (double)exprelr_ref((long double)x);
            double rel = fabs(got - ref) / fabs(ref);
            if (!(rel <= worst[p]))
                worst[p] = rel;
            HB_CHECK(isfinite(got), "exprelr(%s, %.17g) = %g is not finite", p ? "float" : "double",
                     x, got);
        }
        double d = hb_sim_exprelr(HB_DOUBLE, (double)(float)xs[i]);
        double f = hb_sim_exprelr(HB_FLOAT, (double)(float)xs[i]);
        HB_CHECK(fabs(f - d) <= 4 * 0x1p-24 * fabs(d),
                 "exprelr float %.9g and double %.17g differ at x = %g", f, d, xs[i]);
    }
    HB_CHECK(worst[0] <= 4 * 0x1p-53, "exprelr double: relative error %g > 4 ulp", worst[0]);
    HB_CHECK(worst[1] <= 4 * 0x1p-24, "exprelr float: relative error %g > 4 ulp", worst[1]);
    printf("exprelr: %d points near 0, worst relative error double %.2g, float %.2g\n", nx,
           worst[0], worst[1]);
}

/* (1b) Gates at the singular voltages: a simulation started at v_init = -40
 * and -55 mV holds m and n at their steady states there (the limits), in both
 * precisions. */
static void test_singular_gates(hb_context *ctx)
{
    hb_morph_cell *cell = cylinder(1, 20.0, 20.0);
    const double vs[2] = {-40.0, -55.0};
    for (int i = 0; i < 2; ++i) {
        double v = vs[i];
        long double am = exprelr_ref(-(v + 40) / 10.0L), bm = 4 * expl(-(v + 65) / 18.0L);
        long double an = 0.1L * exprelr_ref(-(v + 55) / 10.0L), bn = 0.125L * expl(-(v + 65) / 80.0L);
        double minf = (double)(am / (am + bm)), ninf = (double)(an / (an + bn));
        for (int p = 0; p < 2; ++p) {
            hb_sim_params prm;
            hb_sim_params_init(&prm);
            prm.v_init = v;
            prm.precision = p ? HB_FLOAT : HB_DOUBLE;
            hb_sim *sim = NULL;
            const hb_morph_cell *cells[1] = {cell};
            HB_CHECK_STATUS(hb_sim_create(ctx, cells, 1, &prm, &sim), HB_SUCCESS);
            if (!sim)
                continue;
            double m = NAN, n = NAN;
            HB_CHECK_STATUS(hb_sim_get_state(sim, HB_SIM_M, &m), HB_SUCCESS);
            HB_CHECK_STATUS(hb_sim_get_state(sim, HB_SIM_N, &n), HB_SUCCESS);
            double tol = p ? 1e-6 : 1e-14;
            HB_CHECK(fabs(m - minf) <= tol, "%s: m at v = %g: %.17g, expected %.17g",
                     p ? "float" : "double", v, m, minf);
            HB_CHECK(fabs(n - ninf) <= tol, "%s: n at v = %g: %.17g, expected %.17g",
                     p ? "float" : "double", v, n, ninf);
            /* A few steps sitting exactly at the singular point stay finite. */
            HB_CHECK_STATUS(hb_sim_run(sim, 1.0), HB_SUCCESS);
            hb_sim_destroy(sim);
        }
    }
    hb_morph_cell_destroy(cell);
}

/* (2) Passive cells against V(t) = el + I R (1 - exp(-(t - t_on)/tau)):
 * a single compartment, and a cylinder with the same current density in every
 * compartment (isopotential, so the axial terms must cancel). Implicit Euler
 * gives exactly V_n = V_inf + (el - V_inf) (1 + dt/tau)^-n: checked to the
 * bound below; the continuous curve to its first-order error, dt/tau * I R,
 * plus that bound. */
static void test_passive(hb_context *ctx, hb_precision prec)
{
    for (int shape = 0; shape < 2; ++shape) {
        int64_t n = shape == 0 ? 1 : 20 + (int64_t)hb_test_range(0, 20);
        double length = 5.0 + 45.0 * hb_test_unit(), diam = 0.5 + 4.5 * hb_test_unit();
        hb_morph_cell *cell = cylinder(n, length, diam);
        hb_sim_params prm;
        hb_sim_params_init(&prm);
        prm.precision = prec;
        prm.gnabar = prm.gkbar = 0;
        prm.gl = 1e-4 + 9e-4 * hb_test_unit();
        prm.el = -70.0 + 20.0 * hb_test_unit();
        prm.v_init = prm.el;
        prm.dt = 0.01 + 0.04 * hb_test_unit();
        prm.record_chunk = 1 + hb_test_range(0, 300);
        const hb_morph_cell *cells[1] = {cell};
        hb_sim *sim = NULL;
        HB_CHECK_STATUS(hb_sim_create(ctx, cells, 1, &prm, &sim), HB_SUCCESS);
        if (!sim) {
            hb_morph_cell_destroy(cell);
            continue;
        }
        double area = PI * diam * length;                       /* um^2 per compartment */
        double R = 1.0 / (prm.gl * area * 1e-2);                 /* MOhm                 */
        double tau = 1.0 /* uF/cm^2 */ / prm.gl * 1e-3;          /* ms                   */
        double IR = 5.0 + 20.0 * hb_test_unit();                 /* mV                   */
        int64_t kon = hb_test_range(0, 40);
        for (int64_t k = 0; k < n; ++k)
            HB_CHECK_STATUS(hb_sim_add_iclamp(sim, 0, k, (double)kon * prm.dt, 1e9, IR / R),
                            HB_SUCCESS);
        HB_CHECK_STATUS(hb_sim_record(sim, 0), HB_SUCCESS);
        double tstop = 3 * tau + kon * prm.dt;
        HB_CHECK_STATUS(hb_sim_run(sim, tstop), HB_SUCCESS);
        int64_t nrec = 0, ns = 0;
        hb_sim_trace_count(sim, &nrec, &ns);
        double *v = hb_test_xalloc((size_t)(ns > 0 ? ns : 1) * sizeof *v);
        hb_test_poison(HB_DOUBLE, v, ns);
        HB_CHECK_STATUS(hb_sim_get_trace(sim, 0, NULL, v), HB_SUCCESS);
        double err_disc = 0, err_cont = 0;
        double vinf = prm.el + IR, q = 1.0 / (1.0 + prm.dt / tau);
        for (int64_t j = 0; j < ns; ++j) {
            double disc = j <= kon ? prm.el : vinf + (prm.el - vinf) * pow(q, (double)(j - kon));
            double t = (double)(j - kon) * prm.dt;
            double cont = j <= kon ? prm.el : prm.el + IR * (1 - exp(-t / tau));
            double e1 = fabs(v[j] - disc), e2 = fabs(v[j] - cont);
            if (!(e1 <= err_disc))
                err_disc = e1; /* NaN propagates as a failure */
            if (!(e2 <= err_cont))
                err_cont = e2;
        }
        /* v itself is solved for, so rounding is relative to |v| and grows with the
         * condition of the matrix, kappa = 1 + 4 g_axial/(C/dt) for the cylinder:
         * bound (in units of IR) 1e-9 in double; in float 2 eps |v|max kappa
         * (1 + tau/dt): a rounding error per step, kept for about tau/dt steps. */
        double g_ax = 100.0 * PI * 0.25 * diam * diam / (35.4 * length);
        double kappa = 1.0 + (n > 1 ? 4.0 * g_ax / (area * 1e-5 / prm.dt) : 0.0);
        double bound = prec == HB_DOUBLE
                           ? 1e-9
                           : 2 * 0x1p-24 * (fabs(prm.el) + IR) * kappa * (1 + tau / prm.dt) / IR;
        HB_CHECK(ns == (int64_t)ceil(tstop / prm.dt - 0.5 - 1e-9) + 1, "passive: %lld samples",
                 (long long)ns);
        HB_CHECK(err_disc <= bound * IR,
                 "passive %s (%lld compartments): |V - implicit Euler| = %g mV > %g mV",
                 shape ? "cylinder" : "compartment", (long long)n, err_disc, bound * IR);
        HB_CHECK(err_cont <= (prm.dt / tau + bound) * IR,
                 "passive %s: |V - analytic| = %g mV > (dt/tau + bound) IR = %g mV",
                 shape ? "cylinder" : "compartment", err_cont, (prm.dt / tau + bound) * IR);
        /* Every compartment of the cylinder at the same voltage. */
        int64_t rows = 0;
        hb_sim_rows(sim, &rows);
        double *all = hb_test_xalloc((size_t)rows * sizeof *all);
        hb_test_poison(HB_DOUBLE, all, rows);
        HB_CHECK_STATUS(hb_sim_get_state(sim, HB_SIM_V, all), HB_SUCCESS);
        double spread = 0;
        for (int64_t k = 0; k < rows; ++k)
            spread = fmax(spread, fabs(all[k] - v[ns - 1]));
        HB_CHECK(spread <= bound * IR * 10, "passive cylinder not isopotential: spread %g mV",
                 spread);
        printf("passive %s %s: %lld compartments, tau %.3g ms, IR %.3g mV, dt %.3g: error vs "
               "implicit Euler %.2g mV (bound %.2g), vs analytic %.2g mV\n",
               prec == HB_DOUBLE ? "double" : "float", shape ? "cylinder" : "compartment",
               (long long)n, tau, IR, prm.dt, err_disc, bound * IR, err_cont);
        free(all);
        free(v);
        hb_sim_destroy(sim);
        hb_morph_cell_destroy(cell);
    }
}

/* (3) HH single compartment (NEURON's defaults, 6.3 degC): at rest it stays
 * near -65 mV without spiking; 0.5 uA/cm^2 gives no spike; 10 uA/cm^2 for
 * 50 ms fires repetitively (3 to 6 spikes, 10 to 20 ms apart, peaks above
 * 0 mV); float spike times within 0.05 ms of double. */
static void test_hh(hb_context *ctx)
{
    double diam = 10.0 + 20.0 * hb_test_unit();
    hb_morph_cell *cell = cylinder(1, diam, diam);
    double area = PI * diam * diam;
    const double dens[3] = {0.0, 0.5, 10.0}; /* uA/cm^2 */
    double tdouble[16];
    int64_t ndouble = 0;
    for (int p = 0; p < 2; ++p)
        for (int s = 0; s < 3; ++s) {
            hb_sim_params prm;
            hb_sim_params_init(&prm);
            prm.precision = p ? HB_FLOAT : HB_DOUBLE;
            const hb_morph_cell *cells[1] = {cell};
            hb_sim *sim = NULL;
            HB_CHECK_STATUS(hb_sim_create(ctx, cells, 1, &prm, &sim), HB_SUCCESS);
            if (!sim)
                continue;
            /* uA/cm^2 * um^2 = 1e-14 A = 1e-5 nA */
            HB_CHECK_STATUS(hb_sim_add_iclamp(sim, 0, -1, 10.0, 50.0, dens[s] * area * 1e-5),
                            HB_SUCCESS);
            HB_CHECK_STATUS(hb_sim_record(sim, 0), HB_SUCCESS);
            HB_CHECK_STATUS(hb_sim_run(sim, 60.0), HB_SUCCESS);
            int64_t ns = 0, count = -1;
            hb_sim_trace_count(sim, NULL, &ns);
            double *v = hb_test_xalloc((size_t)ns * sizeof *v), times[16];
            hb_test_poison(HB_DOUBLE, v, ns);
            hb_test_poison(HB_DOUBLE, times, 16);
            HB_CHECK_STATUS(hb_sim_get_trace(sim, 0, NULL, v), HB_SUCCESS);
            HB_CHECK_STATUS(hb_sim_get_spikes(sim, 0, 16, times, &count), HB_SUCCESS);
            double vmax = -1e9, vrest = v[(int64_t)(9.9 / prm.dt)];
            for (int64_t j = 0; j < ns; ++j)
                vmax = v[j] > vmax || isnan(v[j]) ? v[j] : vmax;
            const char *pr = p ? "float" : "double";
            HB_CHECK(fabs(vrest + 65.0) < 0.1, "HH %s: rest at %g mV, not -65 +- 0.1", pr, vrest);
            if (s < 2) {
                HB_CHECK(count == 0, "HH %s %g uA/cm^2: %lld spikes, expected none", pr, dens[s],
                         (long long)count);
                HB_CHECK(vmax < -20.0, "HH %s %g uA/cm^2: peak %g mV", pr, dens[s], vmax);
            } else {
                HB_CHECK(count >= 3 && count <= 6, "HH %s 10 uA/cm^2: %lld spikes, expected 3..6",
                         pr, (long long)count);
                HB_CHECK(vmax > 0.0, "HH %s: spike peak %g mV <= 0", pr, vmax);
                for (int64_t j = 0; j < count && j < 16; ++j) {
                    HB_CHECK(times[j] > 10.0 && times[j] < 60.0, "HH %s: spike at %g ms", pr,
                             times[j]);
                    if (j > 0)
                        HB_CHECK(times[j] - times[j - 1] > 10.0 && times[j] - times[j - 1] < 20.0,
                                 "HH %s: interspike interval %g ms", pr, times[j] - times[j - 1]);
                    /* The spike time lies where the trace crosses -20 mV. */
                    int64_t k = (int64_t)floor(times[j] / prm.dt);
                    HB_CHECK(k + 1 < ns && v[k] < prm.threshold && v[k + 1] >= prm.threshold,
                             "HH %s: spike %lld at %g ms is not at a crossing of the trace", pr,
                             (long long)j, times[j]);
                }
                if (!p) {
                    ndouble = count < 16 ? count : 16;
                    memcpy(tdouble, times, (size_t)ndouble * sizeof *times);
                } else {
                    HB_CHECK(count == ndouble, "HH: float %lld spikes, double %lld",
                             (long long)count, (long long)ndouble);
                    for (int64_t j = 0; j < count && j < ndouble; ++j)
                        HB_CHECK(fabs(times[j] - tdouble[j]) <= 0.05,
                                 "HH: spike %lld float %g ms, double %g ms", (long long)j,
                                 times[j], tdouble[j]);
                }
                printf("HH %s: %lld spikes at 10 uA/cm^2, first %.4f ms, peak %.2f mV\n", pr,
                       (long long)count, count > 0 ? times[0] : NAN, vmax);
            }
            free(v);
            hb_sim_destroy(sim);
        }
    hb_morph_cell_destroy(cell);
}

/* (4) Bad inputs get HB_ERR_INVALID_ARGUMENT (or NUMERICAL) and leave outputs alone. */
static void test_errors(hb_context *ctx)
{
    hb_morph_cell *cell = cylinder(3, 10.0, 1.0);
    const hb_morph_cell *cells[2] = {cell, NULL};
    hb_sim_params prm;
    hb_sim *sim = (hb_sim *)&prm; /* must stay as is on failure */
    hb_sim_params_init(&prm);
    HB_CHECK_STATUS(hb_sim_create(NULL, cells, 1, &prm, &sim), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_sim_create(ctx, cells, 0, &prm, &sim), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_sim_create(ctx, cells, 2, &prm, &sim), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK_STATUS(hb_sim_create(ctx, NULL, 1, &prm, &sim), HB_ERR_INVALID_ARGUMENT);
    prm.dt = 0;
    HB_CHECK_STATUS(hb_sim_create(ctx, cells, 1, &prm, &sim), HB_ERR_INVALID_ARGUMENT);
    hb_sim_params_init(&prm);
    prm.gl = -1e-4;
    HB_CHECK_STATUS(hb_sim_create(ctx, cells, 1, &prm, &sim), HB_ERR_INVALID_ARGUMENT);
    hb_sim_params_init(&prm);
    prm.celsius = NAN;
    HB_CHECK_STATUS(hb_sim_create(ctx, cells, 1, &prm, &sim), HB_ERR_INVALID_ARGUMENT);
    prm.celsius = 1e300; /* a finite temperature whose rate factor is inf */
    HB_CHECK_STATUS(hb_sim_create(ctx, cells, 1, &prm, &sim), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK(strstr(hb_last_error(), "celsius") != NULL, "message: %s", hb_last_error());
    prm.celsius = -300;
    HB_CHECK_STATUS(hb_sim_create(ctx, cells, 1, &prm, &sim), HB_ERR_INVALID_ARGUMENT);
    hb_sim_params_init(&prm);
    prm.plan.shared_couplings = 1; /* the engine sets the couplings per cell */
    HB_CHECK_STATUS(hb_sim_create(ctx, cells, 1, &prm, &sim), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK(strstr(hb_last_error(), "shared_couplings") != NULL, "message: %s", hb_last_error());
    hb_sim_params_init(&prm);
    prm.max_spikes = 0;
    HB_CHECK_STATUS(hb_sim_create(ctx, cells, 1, &prm, &sim), HB_ERR_INVALID_ARGUMENT);
    HB_CHECK(sim == (hb_sim *)&prm, "hb_sim_create wrote its output on failure");
    /* Spike tables whose size wraps are refused, naming the parameter (the
     * audit's max_spikes = 2^61 sized a 1-byte buffer that kernels overran);
     * one that fits the arithmetic but not the memory is out of memory. */
    const int64_t spikes[2] = {(int64_t)1 << 61, (int64_t)1 << 50};
    const hb_status spike_st[2] = {HB_ERR_INVALID_ARGUMENT, HB_ERR_OUT_OF_MEMORY};
    for (int i = 0; i < 2; ++i) {
        hb_sim_params_init(&prm);
        prm.max_spikes = spikes[i];
        HB_CHECK_STATUS(hb_sim_create(ctx, cells, 1, &prm, &sim), spike_st[i]);
        /* The out-of-memory message quotes the memory check's own (both intact). */
        HB_CHECK(strstr(hb_last_error(), "max_spikes") != NULL &&
                     (i == 0 || strstr(hb_last_error(), "hb_sim_create: needs") != NULL),
                 "message: %s", hb_last_error());
        HB_CHECK(sim == (hb_sim *)&prm, "hb_sim_create wrote its output on failure");
    }
    /* A cell with its own membrane conductance in the matrix. */
    hb_cable cab;
    hb_cable_init(&cab);
    cab.gm = 1e-4;
    int32_t par[2] = {-1, 0};
    hb_morph_cell *gm_cell = NULL;
    HB_CHECK_STATUS(hb_morph_cell_from_parent(2, par, 10.0, 1.0, &cab, &gm_cell), HB_SUCCESS);
    const hb_morph_cell *gm_cells[1] = {gm_cell};
    hb_sim_params_init(&prm);
    HB_CHECK_STATUS(hb_sim_create(ctx, gm_cells, 1, &prm, &sim), HB_ERR_INVALID_ARGUMENT);
    hb_morph_cell_destroy(gm_cell);

    /* The recording buffer likewise, checked at the first run (recordings
     * are added after creation). */
    for (int i = 0; i < 2; ++i) {
        hb_sim_params_init(&prm);
        prm.record_chunk = spikes[i];
        sim = NULL;
        HB_CHECK_STATUS(hb_sim_create(ctx, cells, 1, &prm, &sim), HB_SUCCESS);
        if (!sim)
            continue;
        HB_CHECK_STATUS(hb_sim_record(sim, 0), HB_SUCCESS);
        HB_CHECK_STATUS(hb_sim_run(sim, 0.1), spike_st[i]);
        HB_CHECK(strstr(hb_last_error(), "record_chunk") != NULL, "message: %s", hb_last_error());
        hb_sim_destroy(sim);
    }
    sim = NULL;
    HB_CHECK_STATUS(hb_sim_create(ctx, cells, 1, NULL, &sim), HB_SUCCESS);
    if (sim) {
        HB_CHECK_STATUS(hb_sim_add_iclamp(sim, 1, 0, 0, 1, 1), HB_ERR_INVALID_ARGUMENT);
        HB_CHECK_STATUS(hb_sim_add_iclamp(sim, 0, 3, 0, 1, 1), HB_ERR_INVALID_ARGUMENT);
        HB_CHECK_STATUS(hb_sim_add_iclamp(sim, 0, -2, 0, 1, 1), HB_ERR_INVALID_ARGUMENT);
        HB_CHECK_STATUS(hb_sim_add_iclamp(sim, 0, 0, -1, 1, 1), HB_ERR_INVALID_ARGUMENT);
        HB_CHECK_STATUS(hb_sim_add_iclamp(sim, 0, 0, 0, NAN, 1), HB_ERR_INVALID_ARGUMENT);
        /* Times far past any run are valid (the clamp never turns on), and
         * their step numbers are computed without overflow (UBSan checks). */
        HB_CHECK_STATUS(hb_sim_add_iclamp(sim, 0, 0, 1e300, 1e300, 0.0), HB_SUCCESS);
        HB_CHECK_STATUS(hb_sim_record(sim, -1), HB_ERR_INVALID_ARGUMENT);
        HB_CHECK_STATUS(hb_sim_record(sim, 0), HB_SUCCESS);
        HB_CHECK_STATUS(hb_sim_record(sim, 0), HB_ERR_INVALID_ARGUMENT);
        HB_CHECK_STATUS(hb_sim_run(sim, NAN), HB_ERR_INVALID_ARGUMENT);
        /* A step count that does not fit is refused, not run as 0 steps. */
        HB_CHECK_STATUS(hb_sim_run(sim, 1e30), HB_ERR_INVALID_ARGUMENT);
        HB_CHECK(strstr(hb_last_error(), "tstop") != NULL, "message: %s", hb_last_error());
        HB_CHECK_STATUS(hb_sim_run(sim, 1.0), HB_SUCCESS);
        HB_CHECK_STATUS(hb_sim_add_iclamp(sim, 0, 0, 0, 1, 1), HB_ERR_INVALID_ARGUMENT);
        HB_CHECK_STATUS(hb_sim_record(sim, 0), HB_ERR_INVALID_ARGUMENT);
        double keep[2] = {7, 7};
        int64_t cell_out = 42;
        HB_CHECK_STATUS(hb_sim_get_trace(sim, 1, &cell_out, keep), HB_ERR_INVALID_ARGUMENT);
        HB_CHECK(cell_out == 42 && keep[0] == 7, "hb_sim_get_trace wrote on failure");
        int64_t count = 5;
        HB_CHECK_STATUS(hb_sim_get_spikes(sim, 2, 2, keep, &count), HB_ERR_INVALID_ARGUMENT);
        HB_CHECK_STATUS(hb_sim_get_spikes(sim, 0, 2, NULL, &count), HB_ERR_INVALID_ARGUMENT);
        HB_CHECK(count == 5, "hb_sim_get_spikes wrote count on failure");
        HB_CHECK_STATUS(hb_sim_get_state(sim, (hb_sim_state)9, keep), HB_ERR_INVALID_ARGUMENT);
        hb_sim_destroy(sim);
    }
    /* A voltage that overflows is reported, naming the cell and compartment. */
    hb_sim_params_init(&prm);
    prm.v_init = 1e300;
    prm.gl = 1e10; /* g v overflows double */
    sim = NULL;
    HB_CHECK_STATUS(hb_sim_create(ctx, cells, 1, &prm, &sim), HB_SUCCESS);
    if (sim) {
        HB_CHECK_STATUS(hb_sim_run(sim, 0.1), HB_ERR_NUMERICAL);
        HB_CHECK(strstr(hb_last_error(), "cell 0 compartment") != NULL,
                 "numerical error does not name the cell: %s", hb_last_error());
    }
    hb_sim_destroy(sim);
    hb_sim_destroy(NULL);
    hb_morph_cell_destroy(cell);
}

int main(void)
{
    hb_test_begin("test_sim");
    hb_context *ctx = hb_test_context();
    hb_test_require_sim(ctx);
    test_exprelr();
    test_singular_gates(ctx);
    test_passive(ctx, HB_DOUBLE);
    test_passive(ctx, HB_FLOAT);
    test_hh(ctx);
    test_errors(ctx);
    hb_context_destroy(ctx);
    return hb_test_finish();
}
