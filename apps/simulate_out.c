/* simulate_out.c: the outputs of `hinesbatch simulate`: traces CSV, spike times, cell dump and the plot through python3. */
#define _POSIX_C_SOURCE 200809L
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

int sim_write_traces(const char *flag, const char *path, hb_sim *sim, double dt)
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
        for (int64_t r = 0; r < nrec; ++r)
            fprintf(f, ",cell%lld_soma_mV", (long long)cell[r]);
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

int sim_write_spikes(const sim_options *o, hb_sim *sim)
{
    enum { CAP = 4096 }; /* more than params.max_spikes keeps */
    double *times = malloc(CAP * sizeof *times);
    FILE *sf = NULL;
    if (!times) {
        fprintf(stderr, "hinesbatch " SIM_CMD ": out of memory for spike times\n");
        return 0;
    }
    if (o->spikes && !(sf = cli_output_open(SIM_CMD, "--spikes", o->spikes))) {
        free(times);
        return 0;
    }
    if (sf)
        fprintf(sf, "cell,spike_ms\n");
    int64_t total = 0, spiking = 0;
    hb_status st = HB_SUCCESS;
    for (int64_t c = 0; c < o->ncells; ++c) {
        int64_t n = 0;
        if ((st = hb_sim_get_spikes(sim, c, CAP, times, &n)) != HB_SUCCESS)
            break;
        total += n;
        spiking += n > 0;
        for (int64_t j = 0; sf && j < n && j < CAP; ++j)
            fprintf(sf, "%lld,%.6f\n", (long long)c, times[j]);
        if (c == 0) {
            printf("spikes of cell 0: %lld at", (long long)n);
            for (int64_t j = 0; j < n && j < 12; ++j)
                printf(" %.3f", times[j]);
            printf("%s ms\n", n > 12 ? " ..." : "");
        }
    }
    free(times);
    int ok = !sf || cli_output_close(SIM_CMD, "--spikes", o->spikes, sf);
    if (st != HB_SUCCESS)
        return library_error(st);
    if (!ok)
        return 0;
    if (sf)
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
    fprintf(f, "index,parent,area_um2,g_axial_uS,type,hh,soma\n");
    for (int64_t k = 0; k < v.n; ++k)
        fprintf(f, "%lld,%d,%.17g,%.17g,%d,%d,%d\n", (long long)k, (int)v.parent[k], v.area[k],
                v.g_axial[k], (int)v.type[k], hh_all || v.type[k] == 1 || (!any_soma && k == 0),
                k == soma);
    return cli_output_close(SIM_CMD, "--dump-cell", path, f);
}

/* apps/plot_traces.py next to this source file, else from the current
 * directory; NULL when neither is there (both paths in tried). */
static const char *plot_script(char *buf, size_t size, char *tried, size_t tsize)
{
    const char *src = __FILE__, *slash = strrchr(src, '/');
    if (slash) {
        snprintf(buf, size, "%.*s/plot_traces.py", (int)(slash - src), src);
        if (access(buf, R_OK) == 0)
            return buf;
    }
    snprintf(tried, tsize, "%s%sapps/plot_traces.py", slash ? buf : "", slash ? " and " : "");
    snprintf(buf, size, "apps/plot_traces.py");
    return access(buf, R_OK) == 0 ? buf : NULL;
}

void sim_plot(const char *csv, const char *png, const char *spikes)
{
    char script[4096], tried[8300], why[512];
    if (!plot_script(script, sizeof script, tried, sizeof tried)) {
        fprintf(stderr, "hinesbatch " SIM_CMD ": warning: --plot: not written: the plot script "
                        "was not found (looked for %s)\n", tried);
        return;
    }
    /* Options before "--", file names after it: a name that starts with
     * '-' stays a file name for the script's argument parser too. */
    char *spikes_arg = NULL;
    if (spikes) {
        size_t len = strlen(spikes) + 10;
        if (!(spikes_arg = malloc(len))) {
            fprintf(stderr, "hinesbatch " SIM_CMD ": warning: --plot: not written: out of memory\n");
            return;
        }
        snprintf(spikes_arg, len, "--spikes=%s", spikes);
    }
    char *argv[] = {"python3", script, "--", (char *)csv, (char *)png, NULL, NULL};
    if (spikes_arg) /* in front of "--" */
        memmove(argv + 3, argv + 2, 4 * sizeof *argv), argv[2] = spikes_arg;
    int ok = cli_spawn(argv, why, sizeof why);
    free(spikes_arg);
    if (ok)
        printf("plot: %s\n", png);
    else
        fprintf(stderr, "hinesbatch " SIM_CMD ": warning: --plot: not written: %s (script %s; it "
                        "needs python3 with matplotlib)\n", why, script);
}
