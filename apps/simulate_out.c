/* simulate_out.c: the outputs of `hinesbatch simulate`: traces CSV, spike times, cell dump and the plot (apps/plot_traces.py). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_out.h"
#include "cli_spawn.h"
#include "simulate.h"

static int library_error(hb_status st)
{
    fprintf(stderr, "hinesbatch " SIM_CMD ": %s: %s\n", hb_status_string(st), hb_last_error());
    return 0;
}

/* t_ms, the soma voltage of every recorded cell (cellN_soma_mV) and the
 * model file's probes (cellN_compK_WHAT, in the probe's units). */
static int write_traces(const char *flag, const char *path, hb_sim *sim, double dt)
{
    int64_t nrec = 0, ns = 0;
    hb_status st = hb_sim_trace_count(sim, &nrec, &ns);
    if (st != HB_SUCCESS)
        return library_error(st);
    double *v = malloc((size_t)(nrec * ns) * sizeof *v + 1);
    int64_t *cell = malloc((size_t)nrec * sizeof *cell + 1);
    for (int64_t r = 0; r < nrec && v && cell && st == HB_SUCCESS; ++r)
        st = hb_sim_get_trace(sim, r, &cell[r], v + r * ns);
    if (!v || !cell || st != HB_SUCCESS) {
        free(v), free(cell);
        if (st != HB_SUCCESS)
            return library_error(st);
        fprintf(stderr, "hinesbatch " SIM_CMD ": %s: out of memory for %lld samples\n", flag,
                (long long)(nrec * ns));
        return 0;
    }
    FILE *f = cli_output_open(SIM_CMD, flag, path);
    if (f) {
        fprintf(f, "t_ms");
        for (int64_t r = 0; r < nrec; ++r) {
            hb_sim_trace_desc in;
            if (hb_sim_get_trace_info(sim, r, &in) == HB_SUCCESS && in.probe)
                fprintf(f, ",cell%lld_comp%lld_%s", (long long)in.cell,
                        (long long)in.compartment, in.what);
            else
                fprintf(f, ",cell%lld_soma_mV", (long long)cell[r]);
        }
        fprintf(f, "\n");
        for (int64_t j = 0; j < ns; ++j) {
            fprintf(f, "%.6f", (double)j * dt);
            for (int64_t r = 0; r < nrec; ++r)
                fprintf(f, ",%.9g", v[r * ns + j]);
            fprintf(f, "\n");
        }
    }
    free(v), free(cell);
    return f && cli_output_close(SIM_CMD, flag, path, f);
}

/* Every cell's spike times into path (NULL: none) and the summary lines. */
static int write_spikes(const sim_options *o, hb_sim *sim, const char *flag, const char *path)
{
    int64_t cap = 4096; /* grows to the largest count */
    double *times = malloc((size_t)cap * sizeof *times);
    FILE *sf = NULL;
    if (!times) {
        fprintf(stderr, "hinesbatch " SIM_CMD ": out of memory for spike times\n");
        return 0;
    }
    if (path && !(sf = cli_output_open(SIM_CMD, flag, path))) {
        free(times);
        return 0;
    }
    if (sf)
        fprintf(sf, "cell,spike_ms\n");
    int64_t total = 0, spiking = 0;
    hb_status st = HB_SUCCESS;
    for (int64_t c = 0; c < o->ncells; ++c) {
        int64_t n = 0;
        if ((st = hb_sim_get_spikes(sim, c, 0, NULL, &n)) != HB_SUCCESS)
            break;
        if (n > cap) {
            double *x = realloc(times, (size_t)n * sizeof *x);
            if (!x) {
                fprintf(stderr, "hinesbatch " SIM_CMD ": out of memory for %lld spike times\n",
                        (long long)n);
                free(times);
                if (sf)
                    fclose(sf);
                return 0;
            }
            times = x, cap = n;
        }
        if ((st = hb_sim_get_spikes(sim, c, cap, times, &n)) != HB_SUCCESS)
            break;
        total += n;
        spiking += n > 0;
        for (int64_t j = 0; sf && j < n; ++j)
            fprintf(sf, "%lld,%.6f\n", (long long)c, times[j]);
        if (c == 0) {
            printf("spikes of cell 0: %lld%s", (long long)n, n ? " at" : "\n");
            for (int64_t j = 0; j < n && j < 12; ++j)
                printf(" %.3f", times[j]);
            if (n)
                printf("%s ms\n", n > 12 ? " ..." : "");
        }
    }
    free(times);
    int ok = !sf || cli_output_close(SIM_CMD, flag, path, sf);
    if (st != HB_SUCCESS)
        return library_error(st);
    if (!ok)
        return 0;
    if (o->spikes)
        printf("spike times: %s\n", o->spikes);
    printf("spikes: %lld in %lld of %lld cells (threshold %g mV at the soma)\n", (long long)total,
           (long long)spiking, (long long)o->ncells, o->prm.threshold);
    return 1;
}

int sim_dump_cell(const char *path, const hb_morph_cell *cell, hb_sim *sim, int hh_all)
{
    hb_morph_cell_view v;
    int64_t soma;
    hb_status st = hb_morph_cell_get_view(cell, &v);
    if (st == HB_SUCCESS)
        st = hb_sim_soma(sim, 0, &soma);
    if (st != HB_SUCCESS)
        return library_error(st);
    FILE *f = cli_output_open(SIM_CMD, "--dump-cell", path);
    if (!f)
        return 0;
    int any_soma = 0;
    for (int64_t k = 0; k < v.n; ++k)
        any_soma |= v.type[k] == 1;
    fprintf(f, "index,parent,area_um2,g_axial_uS,type,hh,soma,diam_um\n");
    for (int64_t k = 0; k < v.n; ++k)
        fprintf(f, "%lld,%d,%.17g,%.17g,%d,%d,%d,%.17g\n", (long long)k, (int)v.parent[k],
                v.area[k], v.g_axial[k], (int)v.type[k],
                hh_all || v.type[k] == 1 || (!any_soma && k == 0), k == soma, v.diam[k]);
    return cli_output_close(SIM_CMD, "--dump-cell", path, f);
}

/* A new empty file "PNG.XXXXXX" next to the plot (mkstemp: never a file
 * that was there), for an input of the plot the user did not ask for; NULL
 * after a message. */
static char *temp_next_to(const char *png)
{
    size_t len = strlen(png) + 8;
    char *path = malloc(len);
    if (!path) {
        fprintf(stderr, "hinesbatch " SIM_CMD ": --plot: out of memory\n");
        return NULL;
    }
    snprintf(path, len, "%s.XXXXXX", png);
    int fd = mkstemp(path);
    if (fd < 0) {
        fprintf(stderr, "hinesbatch " SIM_CMD ": --plot: cannot make a temporary file '%s': %s\n",
                path, strerror(errno));
        free(path);
        return NULL;
    }
    close(fd);
    return path;
}

/* "--name=value", malloc'ed; NULL after a message. */
static char *named(const char *name, const char *value)
{
    size_t len = strlen(name) + strlen(value) + 4;
    char *arg = malloc(len);
    if (arg)
        snprintf(arg, len, "--%s=%s", name, value);
    else
        fprintf(stderr, "hinesbatch " SIM_CMD ": --plot: out of memory\n");
    return arg;
}

/* apps/plot_traces.py on the traces and spikes; 1, or 0 after the message. */
static int plot(const sim_options *o, const char *csv, const char *spikes, const char *title)
{
    char a_cells[64], a_stim[128], a_amps[128], a_thr[64], a_tstop[64], why[9000];
    /* --name=value: a value that starts with '-' (a file name, a negative
     * amplitude) stays a value; the file names come after "--". %.17g: the
     * numbers exactly. */
    snprintf(a_cells, sizeof a_cells, "--cells=%lld", (long long)o->ncells);
    snprintf(a_stim, sizeof a_stim, "--stim=%.17g,%.17g", o->onset, o->dur);
    snprintf(a_amps, sizeof a_amps, "--amps=%.17g,%.17g", sim_amp(o, 0), sim_amp(o, o->ncells - 1));
    snprintf(a_thr, sizeof a_thr, "--threshold=%.17g", o->prm.threshold);
    snprintf(a_tstop, sizeof a_tstop, "--tstop=%.17g", o->tstop);
    char *a_spikes = named("spikes", spikes), *a_title = named("title", title);
    int ok = 0;
    if (a_spikes && a_title) {
        char *args[] = {a_spikes, a_cells, a_stim, a_amps, a_thr, a_tstop, a_title,
                        "--", (char *)csv, (char *)o->plot, NULL};
        if ((ok = cli_run_script("plot_traces.py", args, why, sizeof why)))
            printf("plot: %s\n", o->plot);
        else
            fprintf(stderr, "hinesbatch " SIM_CMD ": --plot: not written: %s\n", why);
    }
    free(a_spikes);
    free(a_title);
    return ok;
}

int sim_write_outputs(const sim_options *o, hb_sim *sim, const char *title)
{
    /* The plot's inputs: the user's files, else temporary ones. */
    char *tmp_spikes = NULL, *tmp_csv = NULL;
    const char *spikes = o->spikes, *csv = o->csv;
    int ok = 1;
    if (o->plot && !spikes)
        ok = (spikes = tmp_spikes = temp_next_to(o->plot)) != NULL;
    if (ok && o->plot && !csv)
        ok = (csv = tmp_csv = temp_next_to(o->plot)) != NULL;
    ok = ok && write_spikes(o, sim, o->spikes ? "--spikes" : "--plot", spikes);
    if (ok && csv) {
        ok = write_traces(o->csv ? "--csv" : "--plot", csv, sim, o->prm.dt);
        if (ok && o->csv)
            printf("traces: %s\n", csv);
    }
    ok = ok && (!o->plot || plot(o, csv, spikes, title));
    if (tmp_spikes)
        remove(tmp_spikes);
    if (tmp_csv)
        remove(tmp_csv);
    free(tmp_spikes);
    free(tmp_csv);
    return ok;
}
