/* nmodl_device_check.c: inputs for the device tests of generated mechanisms and their check against the host functions of the same precision. */
#include "nmodl_device_check.h"

#include <math.h>
#include <string.h>

#include "hb_test_util.h"

extern const hb_mech_entry hb_mech_table_d[], hb_mech_table_s[];
extern const int hb_mech_table_count_d, hb_mech_table_count_s;

double hb_nmodl_ion_input(const char *name)
{
    const size_t n = strlen(name);
    if (name[0] == 'i')
        return -0.01 + 0.02 * hb_test_unit();
    if (name[0] == 'e')
        return -100 + 240 * hb_test_unit();
    if (n > 1 && name[n - 1] == 'o')
        return 0.1 * pow(2000.0, hb_test_unit());
    return 1e-5 * pow(2e7, hb_test_unit());
}

hb_nmodl_dev_sizes hb_nmodl_dev_sizes_of(const hb_mech_entry *m, int npts)
{
    hb_nmodl_dev_sizes z;
    z.nin = 4 + m->nion_in; /* v, dt, celsius, ion inputs, t */
    z.ns = m->nstate > 0 ? m->nstate : 1;
    z.no = 2 + m->nion_out;
    z.in = (size_t)npts * (size_t)z.nin;
    z.prm = m->nparam > 0 ? (size_t)m->nparam : 1;
    z.st = (size_t)npts * (size_t)z.ns;
    z.out = (size_t)npts * (size_t)z.no;
    return z;
}

const hb_mech_entry *hb_nmodl_host_entry(int dbl, const char *name)
{
    const hb_mech_entry *t = dbl ? hb_mech_table_d : hb_mech_table_s;
    const int n = dbl ? hb_mech_table_count_d : hb_mech_table_count_s;
    for (int k = 0; k < n; ++k)
        if (strcmp(t[k].name, name) == 0)
            return &t[k];
    return NULL;
}

static double get(int dbl, const void *a, size_t k)
{
    return dbl ? ((const double *)a)[k] : (double)((const float *)a)[k];
}

static void put(int dbl, void *a, size_t k, double v)
{
    if (dbl)
        ((double *)a)[k] = v;
    else
        ((float *)a)[k] = (float)v;
}

void hb_nmodl_dev_inputs(int dbl, const hb_mech_entry *m, int npts, void *in, void *prm, void *st0,
                         void *st_init, void *out, void *st_step)
{
    const hb_nmodl_dev_sizes z = hb_nmodl_dev_sizes_of(m, npts);
    for (int j = 0; j < m->nparam; ++j)
        put(dbl, prm, (size_t)j, m->param_defaults[j]);
    for (int k = 0; k < npts; ++k) {
        const size_t r = (size_t)k * (size_t)z.nin;
        const double v =
            k < 8 ? (k % 2 ? -55.0 : -40.0) + (k / 2) * 1e-5 : -100 + 160 * hb_test_unit();
        put(dbl, in, r, v);
        put(dbl, in, r + 1, 0.025);
        put(dbl, in, r + 2, 6.3 + 30 * hb_test_unit());
        for (int j = 3; j < z.nin - 1; ++j)
            put(dbl, in, r + (size_t)j, hb_nmodl_ion_input(m->ion_in_names[j - 3]));
        put(dbl, in, r + (size_t)z.nin - 1, 1000 * hb_test_unit());
        for (int j = 0; j < z.ns; ++j)
            put(dbl, st0, (size_t)k * (size_t)z.ns + (size_t)j, hb_test_unit());
        /* values kept between calls (exp2syn's factor and tau1) come from init */
        double x[HB_MECH_MAX_SLOTS], s[HB_MECH_MAX_SLOTS];
        for (int j = 0; j < z.nin; ++j)
            x[j] = get(dbl, in, r + (size_t)j);
        m->init(x, m->param_defaults, s);
        for (int j = m->nstatevar; j < m->nstate; ++j)
            put(dbl, st0, (size_t)k * (size_t)z.ns + (size_t)j, s[j]);
    }
    for (size_t k = 0; k < z.st; ++k) {
        put(dbl, st_init, k, NAN);
        put(dbl, st_step, k, NAN);
    }
    for (size_t k = 0; k < z.out; ++k)
        put(dbl, out, k, NAN);
}

static double check(int dbl, const char *mech, const char *what, int j, double v, double dev,
                    double host, double floor)
{
    const double bound = dbl ? HB_NMODL_DEV_REL_DOUBLE : HB_NMODL_DEV_REL_FLOAT;
    const double err = fabs(dev - host) / fmax(fabs(host), floor);
    HB_CHECK(isfinite(dev) && err <= bound, "%s %s %s[%d] at v = %.9g: device %.17g, host %.17g",
             dbl ? "double" : "float", mech, what, j, v, dev, host);
    return isnan(err) ? INFINITY : err;
}

double hb_nmodl_dev_compare(int dbl, const hb_mech_entry *m, int npts, const void *in,
                            const void *st0, const void *st_init, const void *out,
                            const void *st_step)
{
    const hb_nmodl_dev_sizes z = hb_nmodl_dev_sizes_of(m, npts);
    double worst = 0;
    for (int k = 0; k < npts; ++k) {
        double x[HB_MECH_MAX_SLOTS], s0[HB_MECH_MAX_SLOTS], si[HB_MECH_MAX_SLOTS],
            o[HB_MECH_MAX_SLOTS], ss[HB_MECH_MAX_SLOTS];
        for (int j = 0; j < z.nin; ++j)
            x[j] = get(dbl, in, (size_t)k * (size_t)z.nin + (size_t)j);
        for (int j = 0; j < z.ns; ++j)
            s0[j] = ss[j] = get(dbl, st0, (size_t)k * (size_t)z.ns + (size_t)j);
        m->init(x, m->param_defaults, si);
        m->current(x, m->param_defaults, s0, o);
        m->state(x, m->param_defaults, ss);
        for (int j = 0; j < m->nstate; ++j) {
            const size_t at = (size_t)k * (size_t)z.ns + (size_t)j;
            worst = fmax(worst, check(dbl, m->name, "init", j, x[0], get(dbl, st_init, at), si[j], 1e-2));
            worst = fmax(worst, check(dbl, m->name, "state", j, x[0], get(dbl, st_step, at), ss[j], 1e-2));
        }
        for (int j = 0; j < z.no; ++j)
            worst = fmax(worst, check(dbl, m->name, j == 0 ? "g" : "i", j, x[0],
                                      get(dbl, out, (size_t)k * (size_t)z.no + (size_t)j), o[j],
                                      j == 0 ? 1e-12 : fmax(fabs(o[0]), 1e-12)));
    }
    return worst;
}
