/* hb_mech_table.h: the uniform table of generated mechanisms that `hb_nmodl --host-table` writes (double arguments, any precision inside). */
#ifndef HB_MECH_TABLE_H
#define HB_MECH_TABLE_H

#include <stddef.h> /* NULL: a mechanism without NET_RECEIVE */

/* One entry per .mod file. Arrays in, in this order:
 *   in:  v, dt, celsius, then the ion inputs (ion_in_names), then t (ms: read only
 *        where uses_t);
 *   out: g, i, then the ion currents (ion_out_names);
 * prm and st as in the mechanism's own functions (docs/mechanisms.md). The
 * wrappers round to the table's precision, call the generated function and
 * widen the results. */
typedef struct {
    const char *name;
    int point;      /* 1: point process (nA, uS); 0: density (mA/cm2, S/cm2) */
    int nstate;     /* st[] length (STATEs, then values kept between calls) */
    int nstatevar;  /* of which STATEs */
    int nparam;
    int nion_in, nion_out;
    int has_state, has_net_receive;
    const char *const *state_names;
    const char *const *param_names;
    const double *param_defaults;
    const char *const *ion_in_names;  /* e.g. "ena", "cai" */
    const char *const *ion_out_names; /* e.g. "ina" */
    void (*init)(const double *in, const double *prm, double *st);
    void (*current)(const double *in, const double *prm, const double *st, double *out);
    void (*state)(const double *in, const double *prm, double *st);
    /* NULL: none; t the event's delivery time (ms). A mechanism keeping
     * values per connection (NET_RECEIVE's arguments after the weight) keeps
     * one connection's after the states: st[nstate] a flag, 0 until its first
     * event runs NET_RECEIVE's INITIAL, then the values. */
    void (*net_receive)(double weight, double t, const double *prm, double *st);
    int uses_t;     /* 1: some block reads the simulation time t (in[3 + nion_in]) */
} hb_mech_entry;

#define HB_MECH_MAX_SLOTS 64 /* the wrappers' buffers; hb_nmodl refuses larger tables */

#endif
