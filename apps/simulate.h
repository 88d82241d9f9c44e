/* simulate.h: what the two files of `hinesbatch simulate` share: its options and its output writers. */
#ifndef HB_APPS_SIMULATE_H
#define HB_APPS_SIMULATE_H

#include <stdint.h>

#include "hinesbatch_sim.h"

#define SIM_CMD "simulate"
#define SIM_MAX_FILES 64

typedef struct {
    const char *swc[SIM_MAX_FILES];
    int nswc;
    int64_t synthetic;       /* compartments of synthetic cells, 0 = SWC      */
    int64_t ncells;
    int mix;
    double tstop;
    double onset, dur, amp;
    double spread;           /* amplitudes from amp*(1-spread) to amp*(1+spread) */
    int64_t record;
    const char *csv, *plot, *spikes, *dump;
    int policy;              /* -1: not given, 0: sample, 1: section          */
    int nseg_given;
    int64_t max_compartments; /* --max-compartments, 0 = the library default  */
    int32_t nseg;
    uint64_t seed;
    hb_sim_params prm;
} sim_options;

/* simulate_out.c: each returns 1, or 0 after a message naming the option. */
/* --csv: t_ms and the soma voltage of every recorded cell. */
int sim_write_traces(const char *flag, const char *path, hb_sim *sim, double dt);
/* --spikes: every cell's spike times; prints the spike summary lines. */
int sim_write_spikes(const sim_options *o, hb_sim *sim);
/* --dump-cell: the compartments of cell 0 (what ci/neuron-check.sh rebuilds). */
int sim_dump_cell(const char *path, const hb_morph_cell *cell, hb_sim *sim, int hh_all);
/* --plot: apps/plot_traces.py on the traces, run by python3 from an
 * argument vector. The plot is optional: when python3, matplotlib or the
 * script is missing, or the script fails, it warns with the cause (not
 * found, status N, signal N) and the run still succeeds. */
void sim_plot(const char *csv, const char *png, const char *spikes);

#endif
