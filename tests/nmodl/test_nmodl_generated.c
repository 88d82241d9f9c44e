/* test_nmodl_generated.c: the mechanisms hb_nmodl generates from the .mod files of data/mechanisms, tests/nmodl/mod and data/models/l5pc/mod, run on the host: float against double over -100..60 mV, HH at its 0/0 voltages, HH against the hand-written formulas. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hb_mech_table.h"
#include "hb_test_util.h"
#include "nmodl_device_check.h"

extern const hb_mech_entry hb_mech_table_d[], hb_mech_table_s[];
extern const int hb_mech_table_count_d, hb_mech_table_count_s;

/* Float against double, relative to max(|double|, floor): the floor is the
 * output's own scale. States: 1e-2, since a gate (in [0, 1]) that moves by
 * O(1) in one step lands on a small value as the difference of O(1)
 * numbers, which float rounds to about 6e-8 absolute (6e-5 relative to a
 * result of 1e-3 was seen at -97 mV). Currents: |g| * 1 mV, since
 * i = g (v - e) loses digits to cancellation near e in either precision.
 * Seen: up to about 7e-6; an unguarded 0/0 near -40 mV gives errors of
 * order 1. */
#define FLOAT_REL 1e-4
/* Generated HH against the hand-written formulas, in double, relative to
 * max(|oracle|, 1e-3) for gates (a gate landing near 0 after an O(1) move
 * keeps O(1) rounding: about 1e-16 absolute) and to max(|i|, g * 1e-3 mV)
 * for currents. Seen: up to 2.3e-13 (the two spell the rates differently:
 * -v/10 - 4 against -(v + 40)/10, 3^(celsius/10 - 0.63)). */
#define ORACLE_REL 1e-12

static const hb_mech_entry *find(const hb_mech_entry *t, int n, const char *name)
{
    for (int k = 0; k < n; ++k)
        if (strcmp(t[k].name, name) == 0)
            return &t[k];
    return NULL;
}

static double worst_float = 0;
static char worst_where[160];

static void compare(const char *mech, const char *what, int k, double v, double d, double f,
                    double floor)
{
    const double den = fmax(fabs(d), floor);
    const double err = fabs(f - d) / den;
    if (err > worst_float || isnan(err)) {
        worst_float = isnan(err) ? INFINITY : err;
        snprintf(worst_where, sizeof worst_where, "%s[%d] at v = %.9g: double %.9g, float %.9g",
                 what, k, v, d, f);
    }
    HB_CHECK(isfinite(d) && isfinite(f) && err <= FLOAT_REL,
             "%s %s[%d] at v = %.9g: double %.17g, float %.9g (relative %.3g > %g)", mech, what, k,
             v, d, f, err, FLOAT_REL);
}

/* Ion inputs by name (nmodl_device_check.c). */
static void ion_inputs(const hb_mech_entry *m, double *in)
{
    for (int k = 0; k < m->nion_in; ++k)
        in[3 + k] = hb_nmodl_ion_input(m->ion_in_names[k]);
}

static void sweep_one(const hb_mech_entry *md, const hb_mech_entry *ms, const double *vs, int nv)
{
    /* st0 past the state: a connection's values not yet set up (NET_RECEIVE
     * with arguments after the weight keeps them there, from a flag of 0). */
    double in[HB_MECH_MAX_SLOTS], st0[HB_MECH_MAX_SLOTS] = {0}, sd[HB_MECH_MAX_SLOTS],
        ss[HB_MECH_MAX_SLOTS], od[HB_MECH_MAX_SLOTS], os[HB_MECH_MAX_SLOTS];
    HB_CHECK(md->nstate == ms->nstate && md->nparam == ms->nparam && md->nion_in == ms->nion_in,
             "%s: float and double tables differ", md->name);
    const double *prm = md->param_defaults;
    for (int j = 0; j < nv; ++j) {
        const double v = (double)(float)vs[j]; /* one input for both precisions */
        in[0] = v;
        in[1] = 0.025;
        in[2] = (double)(float)(6.3 + 30 * hb_test_unit());
        ion_inputs(md, in);
        /* the time (mechanisms that read t), the same float value for both: below
         * 5 ms, where a phase 2 pi t / 5 ms keeps float's digits (at 1000 ms a float
         * t is 6e-5 ms coarse, and tdrive's cos of it 2e-4 off the double's) */
        in[3 + md->nion_in] = 5 * hb_test_unit();
        for (int k = 3; k < 4 + md->nion_in; ++k)
            in[k] = (double)(float)in[k];
        /* init: steady states at v */
        md->init(in, prm, sd);
        ms->init(in, prm, ss);
        for (int k = 0; k < md->nstate; ++k)
            compare(md->name, "init st", k, v, sd[k], ss[k], 1e-2);
        /* states drawn at random (gates in [0, 1], synaptic conductances in uS),
         * values kept between calls from init; the same floats for both */
        for (int k = 0; k < md->nstate; ++k)
            st0[k] = (double)(float)(k < md->nstatevar ? hb_test_unit() : sd[k]);
        for (int k = 0; k < HB_MECH_MAX_SLOTS; ++k)
            od[k] = os[k] = NAN;
        md->current(in, prm, st0, od);
        ms->current(in, prm, st0, os);
        const double gscale = fabs(od[0]) * 1.0;
        for (int k = 0; k < 2 + md->nion_out; ++k)
            compare(md->name, k == 0 ? "g" : k == 1 ? "i" : "ion current", k, v, od[k], os[k],
                    k == 0 ? 1e-12 : fmax(gscale, 1e-12));
        /* one state step */
        memcpy(sd, st0, sizeof sd);
        memcpy(ss, st0, sizeof ss);
        md->state(in, prm, sd);
        ms->state(in, prm, ss);
        for (int k = 0; k < md->nstate; ++k)
            compare(md->name, "state st", k, v, sd[k], ss[k], 1e-2);
        if (md->net_receive) {
            memcpy(sd, st0, sizeof sd);
            memcpy(ss, st0, sizeof ss);
            md->net_receive(0.25, in[3 + md->nion_in], prm, sd);
            ms->net_receive(0.25, in[3 + md->nion_in], prm, ss);
            for (int k = 0; k < md->nstate; ++k)
                compare(md->name, "net_receive st", k, v, sd[k], ss[k], 1e-2);
        }
    }
}

/* The hand-written HH of kernels_cl/sim/membrane.cl (our own code), in
 * double: the oracle of the generated hh. */
static double oracle_exprelr(double x)
{
    if (fabs(x) < 1e-4)
        return 1.0 - x * (0.5 - x * (1.0 / 12.0));
    return x / expm1(x);
}

static void oracle_gate(double alpha, double beta, double dt, double q10, double *x)
{
    const double sum = alpha + beta;
    const double inf = alpha / sum;
    *x = *x + (-expm1(-dt * q10 * sum)) * (inf - *x);
}

static void oracle_hh_advance(double v, double dt, double q10, double *m, double *h, double *n)
{
    const double am = oracle_exprelr(-(v + 40) / 10);
    const double bm = 4 * exp(-(v + 65) / 18);
    const double ah = 0.07 * exp(-(v + 65) / 20);
    const double bh = 1 / (exp(-(v + 35) / 10) + 1);
    const double an = 0.1 * oracle_exprelr(-(v + 55) / 10);
    const double bn = 0.125 * exp(-(v + 65) / 80);
    oracle_gate(am, bm, dt, q10, m);
    oracle_gate(ah, bh, dt, q10, h);
    oracle_gate(an, bn, dt, q10, n);
}

static double rel(double a, double b) { return fabs(a - b) / fmax(fabs(b), 1e-300); }
static double rel_gate(double a, double b) { return fabs(a - b) / fmax(fabs(b), 1e-3); }

static void hh_against_oracle(const hb_mech_entry *hh)
{
    /* prm: gnabar, gkbar, gl, el (data/mechanisms/hh.mod) */
    HB_CHECK(hh->nparam == 4 && hh->nstate == 3 && hh->nion_in == 2 && hh->nion_out == 2,
             "hh: unexpected shape");
    if (hh->nparam != 4 || hh->nstate != 3)
        return;
    double worst = 0;
    for (int j = 0; j < 2000; ++j) {
        const double v = j == 0 ? -40.0 : j == 1 ? -55.0 : -100 + 160 * hb_test_unit();
        const double dt = j % 3 == 0 ? 0.025 : j % 3 == 1 ? 0.1 : 1.0;
        const double celsius = 40 * hb_test_unit();
        const double q10 = pow(3.0, (celsius - 6.3) / 10.0);
        const double prm[4] = {0.05 + 0.2 * hb_test_unit(), 0.01 + 0.05 * hb_test_unit(),
                               1e-4 + 1e-3 * hb_test_unit(), -70 + 20 * hb_test_unit()};
        const double in[5] = {v, dt, celsius, 40 + 20 * hb_test_unit(), -90 + 20 * hb_test_unit()};
        double st[3] = {hb_test_unit(), hb_test_unit(), hb_test_unit()};
        double m = st[0], h = st[1], n = st[2];
        /* current first, at the drawn gates */
        double out[4];
        hh->current(in, prm, st, out);
        const double gna = prm[0] * m * m * m * h, gk = prm[1] * n * n * n * n;
        const double g = prm[2] + gna + gk;
        const double i = prm[2] * (v - prm[3]) + gna * (v - in[3]) + gk * (v - in[4]);
        /* The total current is a sum whose terms can cancel (near the
         * reversal potentials): its error is relative to the terms' sizes. */
        const double isize = fabs(prm[2] * (v - prm[3])) + fabs(gna * (v - in[3])) +
                             fabs(gk * (v - in[4]));
        const double e1 = rel(out[0], g), e2 = fabs(out[1] - i) / fmax(isize, g * 1e-3);
        const double e3 = fabs(out[2] - gna * (v - in[3])) / fmax(gna * fabs(v - in[3]), g * 1e-3);
        const double e4 = fabs(out[3] - gk * (v - in[4])) / fmax(gk * fabs(v - in[4]), g * 1e-3);
        worst = fmax(worst, fmax(fmax(e1, e2), fmax(e3, e4)));
        HB_CHECK(e1 <= ORACLE_REL && e2 <= ORACLE_REL && e3 <= ORACLE_REL && e4 <= ORACLE_REL,
                 "hh current at v = %.17g: g %.17g / %.17g, i %.17g / %.17g", v, out[0], g,
                 out[1], i);
        hh->state(in, prm, st);
        oracle_hh_advance(v, dt, q10, &m, &h, &n);
        const double ew = fmax(rel_gate(st[0], m), fmax(rel_gate(st[1], h), rel_gate(st[2], n)));
        worst = fmax(worst, ew);
        HB_CHECK(ew <= ORACLE_REL,
                 "hh state at v = %.17g dt %g celsius %g: m %.17g / %.17g, h %.17g / %.17g, "
                 "n %.17g / %.17g", v, dt, celsius, st[0], m, st[1], h, st[2], n);
    }
    printf("hh against the hand-written formulas (double): largest relative difference %.3g "
           "(bound %g)\n", worst, ORACLE_REL);
}

/* At v = -40 (alpha_m) and -55 mV (alpha_n) the .mod file's quotients are
 * 0/0; the generated code must give the limits alpha_m = 1, alpha_n = 0.1. */
static void hh_singular_points(const hb_mech_entry *hd, const hb_mech_entry *hs)
{
    const double prm[4] = {0.12, 0.036, 0.0003, -54.3};
    const double minf = 1.0 / (1.0 + 4 * exp(-25.0 / 18.0));     /* alpha_m(-40) = 1 */
    const double ninf = 0.1 / (0.1 + 0.125 * exp(-10.0 / 80.0)); /* alpha_n(-55) = 0.1 */
    const struct {
        double v;
        int slot;
        double expect;
    } pt[2] = {{-40.0, 0, minf}, {-55.0, 2, ninf}};
    for (int k = 0; k < 2; ++k) {
        double in[5] = {pt[k].v, 0.025, 6.3, 50, -77}, sd[3], ss[3];
        hd->init(in, prm, sd);
        hs->init(in, prm, ss);
        HB_CHECK(isfinite(sd[0]) && isfinite(sd[1]) && isfinite(sd[2]) && isfinite(ss[0]) &&
                     isfinite(ss[1]) && isfinite(ss[2]),
                 "hh init at v = %g is not finite", pt[k].v);
        HB_CHECK(rel(sd[pt[k].slot], pt[k].expect) <= 1e-14,
                 "hh steady state at v = %g: double %.17g, limit %.17g", pt[k].v,
                 sd[pt[k].slot], pt[k].expect);
        HB_CHECK(rel(ss[pt[k].slot], pt[k].expect) <= 1e-6,
                 "hh steady state at v = %g: float %.9g, limit %.17g", pt[k].v, ss[pt[k].slot],
                 pt[k].expect);
        /* a long step lands on the steady state: the rate itself is finite */
        double st[3] = {0.5, 0.5, 0.5};
        in[1] = 1e4;
        hd->state(in, prm, st);
        HB_CHECK(rel(st[pt[k].slot], pt[k].expect) <= 1e-14,
                 "hh state step at v = %g: %.17g, limit %.17g", pt[k].v, st[pt[k].slot],
                 pt[k].expect);
    }
}

int main(void)
{
    hb_test_begin("test_nmodl_generated");
    HB_CHECK(hb_mech_table_count_d == hb_mech_table_count_s && hb_mech_table_count_d >= 4,
             "tables: %d double, %d float mechanisms", hb_mech_table_count_d,
             hb_mech_table_count_s);
    /* -100..60 mV every 0.01 mV, and around the 0/0 points as close as float
     * allows: HH's -40 and -55, the GHK current's 0 (mod/cal.mod),
     * mod/nat.mod's vshift - 38, - 50, - 75 (-43, -55, -80) and mod/nap.mod's
     * -38 (and -38.0001, where it steps v at -38); the L5PC channels'
     * (data/models/l5pc/mod: NaTa_t -38, -66; Nap_Et2 -38, -17, -64.4;
     * Ca_HVA -27; Ih -154.9, outside the sweep) */
    enum { NROOT = 11, NOFF = 12, NV = 16001 + NROOT * 2 * NOFF };
    static double vs[NV];
    int nv = 0;
    for (int j = 0; j <= 16000; ++j)
        vs[nv++] = -100 + 0.01 * j;
    const double root[NROOT] = {-40, -55, 0, -43, -80, -38, -66, -17, -64.4, -27, -154.9};
    const double off[NOFF] = {0, 1e-6, 4e-6, 1e-5, 3e-5, 1e-4, 3e-4, 1e-3, 1e-2, 3e-2, 0.1, 0.5};
    for (int r = 0; r < NROOT; ++r)
        for (int k = 0; k < NOFF; ++k) {
            vs[nv++] = root[r] + off[k];
            vs[nv++] = root[r] - off[k];
        }
    for (int k = 0; k < hb_mech_table_count_d; ++k) {
        const hb_mech_entry *md = &hb_mech_table_d[k];
        const hb_mech_entry *ms = find(hb_mech_table_s, hb_mech_table_count_s, md->name);
        HB_CHECK(ms != NULL, "%s: not in the float table", md->name);
        if (!ms)
            continue;
        const double before = worst_float;
        worst_float = 0;
        sweep_one(md, ms, vs, nv);
        printf("%s: float against double over %d voltages: largest relative difference %.3g "
               "(bound %g; %s)\n", md->name, nv, worst_float, FLOAT_REL, worst_where);
        worst_float = fmax(before, worst_float);
    }
    const hb_mech_entry *hd = find(hb_mech_table_d, hb_mech_table_count_d, "hh");
    const hb_mech_entry *hs = find(hb_mech_table_s, hb_mech_table_count_s, "hh");
    HB_CHECK(hd && hs, "no hh mechanism in the table");
    if (hd && hs) {
        hh_against_oracle(hd);
        hh_singular_points(hd, hs);
    }
    return hb_test_finish();
}
