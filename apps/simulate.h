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
    char default_swc[4096];  /* the shipped neuron, when no --swc (cli_paths.h) */
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
    int reroot;              /* --reroot                                      */
    int neuron_conventions;  /* --neuron-conventions (implies --policy section) */
    double d_lambda;         /* --d-lambda, 0 = not given                     */
    double seg_length;       /* --seg-length UM, 0 = not given                */
    const char *model;       /* --model FILE.json                             */
    int celsius_given, vinit_given, cable_given, hh_given;
    hb_swc_options swc_opts; /* --scale, --repair-radii                       */
    hb_cable cable;          /* --ra, --cm                                    */
    int swc_only_given;      /* one of the SWC-only options above was given   */
    int64_t max_compartments; /* --max-compartments, 0 = the library default  */
    int32_t nseg;
    uint64_t seed;
    hb_sim_params prm;
} sim_options;

/* The stimulus amplitude of cell c, nA: amp*(1-spread) at cell 0 to
 * amp*(1+spread) at the last, evenly spaced; amp for a batch of one. */
double sim_amp(const sim_options *o, int64_t c);

/* simulate_out.c: each returns 1, or 0 after a message naming the option. */
/* The spike summary lines, --spikes, --csv and --plot. The plot is
 * apps/plot_traces.py (a raster of every cell, the recorded traces, the
 * stimulus), run through cli_run_script from an argument vector, on the
 * traces and spikes (temporary files next to the PNG where --csv or --spikes
 * was not given, removed after); title: the run, one or two lines. A plot
 * that cannot be made is a failure like any output file, with its one cause
 * (no Python, no script, no matplotlib, the script failed). */
int sim_write_outputs(const sim_options *o, hb_sim *sim, const char *title);
/* --dump-cell: the compartments of cell 0 (what ci/neuron-check.sh rebuilds). */
int sim_dump_cell(const char *path, const hb_morph_cell *cell, hb_sim *sim, int hh_all);

#endif
