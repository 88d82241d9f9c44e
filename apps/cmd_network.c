/* cmd_network.c: `hinesbatch network`: the standard network benchmarks (a ring, a random network) of shipped neurons with ExpSyn synapses, over parts (devices) and MPI ranks; spikes and speed. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_opts.h"
#include "cli_out.h"
#include "cli_parse.h"
#include "cli_paths.h"
#include "commands.h"
#include "hinesbatch_morph.h"
#include "hinesbatch_net.h"
#ifdef HB_HAVE_MPI
#include "hinesbatch_net_mpi.h"
#endif

#define CMD "network"
#define DEFAULT_SWC "jaxley__morph_minimal.swc"

typedef struct {
    int     random;          /* 0 ring, 1 random, 2 none (independent cells) */
    double  iclamp[3];
    int     engine;          /* hb_sim_engine: auto, stages, cells        */
    int64_t record;          /* soma voltage of gids 0 .. record - 1      */
    const char *csv;         /* ... written here by rank 0                */       /* none: onset, duration (ms), amplitude (nA) */
    int64_t ncells, fanin, parts;
    double  weight, delay, delay_max, tstop, dt, kick;
    int     neuron;          /* NEURON's conventions, HH in the soma    */
    int     delivery;
    hb_precision precision;
    uint64_t seed;
    const char *swc, *spikes, *connections;
    int64_t *csrc, *cdst;    /* --connections: the file's rows            */
    double  *cw, *cd;
    int64_t  ncf;
    int64_t *cby;            /* ncf: the rows by target, in file order    */
    int64_t *cptr;           /* ncells + 1: target g's are cby[cptr[g] ..] */
    char    default_swc[4096];
} net_options;

static void usage(void)
{
    printf("usage: hinesbatch network [--topology ring|random|none] [--cells N] [--swc FILE]\n"
           "         [--fanin K] [--weight US] [--delay MS] [--delay-max MS] [--tstop MS]\n"
           "         [--dt MS] [--precision float|double] [--parts P] [--seed S]\n"
           "         [--delivery step-end|spike-time] [--neuron-conventions] [--spikes FILE]\n"
           "         [--connections FILE.csv] [--iclamp ONSET,DUR,AMP]\n"
           "         [--engine auto|stages|cells] [--record K] [--csv FILE]\n"
           "A network of N copies (1000) of a neuron (default the shipped " DEFAULT_SWC ",\n"
           "sections by d_lambda; --neuron-conventions as NEURON's Import3d) with passive\n"
           "leak everywhere, Hodgkin-Huxley channels in the soma and one ExpSyn (tau 2 ms,\n"
           "e 0 mV) at each soma. ring: cell i excites cell i+1 (mod N) with --weight\n"
           "(0.5 uS) after --delay (1 ms), cell 0 kicked at 1 ms (as NEURON's and Arbor's\n"
           "ring examples). random: each cell gets --fanin K (10) connections from cells\n"
           "drawn with --seed, weights in [0, 2 w] (w = --weight / K), delays uniform in\n"
           "[--delay, --delay-max] (1, 5 ms); the first tenth of the cells kicked at 1 ms.\n"
           "none: no connections, a current clamp at every soma (--iclamp, 5,40,1: the main\n"
           "job's), the batch split over parts and ranks all the same (one epoch per run).\n"
           "--connections: the connections of a CSV file (header src,dst,weight,delay: gids,\n"
           "uS, ms) in place of the topology's, the first tenth of the cells kicked.\n"
           "Spike detection: the soma crossing -20 mV upwards. The run goes in epochs of the\n"
           "smallest delay; --parts P splits this process's cells over P simulations (one\n"
           "context each: with several GPUs, part i on device i mod the device count) that\n"
           "run concurrently. Under mpirun (built with MPI) the cells are dealt over the\n"
           "ranks by cost (compartments), spikes exchanged with MPI_Allgatherv every epoch,\n"
           "and rank 0 prints and writes every rank's spikes. --delivery: when an event is\n"
           "due: the end of the step its source crossed in plus the delay (NEURON's fixed\n"
           "step, default) or the interpolated crossing plus the delay. Prints compartment-\n"
           "steps per second, epochs and spikes; --spikes writes gid,spike_ms of every spike\n"
           "(in time then gid order); --csv the soma voltage of gids 0 .. K-1 (--record K,\n"
           "4 with --csv) every step, gathered from every rank (t_ms, then one column per\n"
           "gid). --engine as simulate's. Backend: HINESBATCH_BACKEND.\n");
}

/* The longest row of --connections, in characters without the line end. */
#define CONN_LINE_MAX 510
#define HB_STR_(x) #x
#define HB_STR(x) HB_STR_(x)

/* One line of f into buf without its line end ("\n" or "\r\n"): 1, or 0 at
 * the end of the file, -1 for a line that does not fit (its rest would
 * otherwise be read as a row of its own), -2 for a line with a NUL byte. */
static int read_line(FILE *f, char *buf, size_t size)
{
    if (!fgets(buf, (int)size, f))
        return 0;
    size_t n = strlen(buf);
    if (n > 0 && buf[n - 1] == '\n')
        buf[--n] = '\0';
    else if (!feof(f))
        return n + 1 < size ? -2 : -1; /* fgets stops early only at a line end */
    if (n > 0 && buf[n - 1] == '\r')
        buf[--n] = '\0';
    return 1;
}

/* A row "src,dst,weight,delay": all of the text, each integer and number
 * whole and in range (sscanf took "1xyz" as 1 and overflowed silently). */
static int parse_row(const char *s, long long *a, long long *b, double *w, double *d)
{
    char *end;
    errno = 0;
    *a = strtoll(s, &end, 10);
    if (end == s || *end != ',' || errno)
        return 0;
    s = end + 1;
    *b = strtoll(s, &end, 10);
    if (end == s || *end != ',' || errno)
        return 0;
    s = end + 1;
    *w = strtod(s, &end);
    if (end == s || *end != ',')
        return 0;
    s = end + 1;
    *d = strtod(s, &end);
    while (end != s && (*end == ' ' || *end == '\t'))
        ++end;
    return end != s && *end == '\0';
}

/* --connections: every row checked (gids in [0, cells), finite weight,
 * delay >= dt), then indexed by target for inputs() (a counting sort: each
 * target's rows in file order). */
static int read_connections(net_options *o)
{
    FILE *f = fopen(o->connections, "r");
    if (!f) {
        fprintf(stderr, "hinesbatch " CMD ": --connections: cannot read '%s'\n", o->connections);
        return 0;
    }
    char line[CONN_LINE_MAX + 2]; /* the characters, the line end, the NUL */
    int64_t cap = 0, lineno = 1;
    int ok = read_line(f, line, sizeof line) == 1 && !strcmp(line, "src,dst,weight,delay");
    if (!ok)
        fprintf(stderr, "hinesbatch " CMD ": --connections %s: the header must be "
                        "src,dst,weight,delay\n", o->connections);
    int got;
    while (ok && (got = read_line(f, line, sizeof line)) != 0) {
        ++lineno;
        long long a, b;
        double w, d;
        if (got < 0) {
            fprintf(stderr, "hinesbatch " CMD ": --connections %s:%lld: %s\n", o->connections,
                    (long long)lineno, got == -2 ? "a NUL byte in the line"
                                                 : "a line of more than " HB_STR(CONN_LINE_MAX)
                                                   " characters");
            ok = 0;
            break;
        }
        if (!parse_row(line, &a, &b, &w, &d)) {
            fprintf(stderr, "hinesbatch " CMD ": --connections %s:%lld: '%s' is not "
                            "src,dst,weight,delay (two integers, two numbers)\n",
                    o->connections, (long long)lineno, line);
            ok = 0;
            break;
        }
        if (a < 0 || b < 0 || a >= o->ncells || b >= o->ncells || !isfinite(w) || !isfinite(d) ||
            d < o->dt) {
            fprintf(stderr, "hinesbatch " CMD ": --connections %s:%lld: need src,dst in [0, %lld), "
                            "a finite weight and a delay >= dt\n",
                    o->connections, (long long)lineno, (long long)o->ncells);
            ok = 0;
            break;
        }
        if (o->ncf == cap) {
            cap = cap ? 2 * cap : 256;
            int64_t *x = realloc(o->csrc, (size_t)cap * sizeof *x), *y = x ? realloc(o->cdst, (size_t)cap * sizeof *y) : NULL;
            if (x) o->csrc = x;
            if (y) o->cdst = y;
            double *u = y ? realloc(o->cw, (size_t)cap * sizeof *u) : NULL;
            if (u) o->cw = u;
            double *v = u ? realloc(o->cd, (size_t)cap * sizeof *v) : NULL;
            if (v) o->cd = v;
            if (!v) {
                fprintf(stderr, "hinesbatch " CMD ": out of memory for connections\n");
                ok = 0;
                break;
            }
        }
        o->csrc[o->ncf] = a, o->cdst[o->ncf] = b, o->cw[o->ncf] = w, o->cd[o->ncf] = d;
        o->ncf++;
    }
    fclose(f);
    if (!ok)
        return 0;
    o->cptr = calloc((size_t)o->ncells + 1, sizeof *o->cptr);
    o->cby = malloc((size_t)(o->ncf > 0 ? o->ncf : 1) * sizeof *o->cby);
    int64_t *at = malloc(((size_t)o->ncells + 1) * sizeof *at);
    if (!o->cptr || !o->cby || !at) {
        free(at);
        fprintf(stderr, "hinesbatch " CMD ": out of memory for connections\n");
        return 0;
    }
    for (int64_t j = 0; j < o->ncf; ++j)
        o->cptr[o->cdst[j] + 1]++;
    for (int64_t g = 0; g < o->ncells; ++g)
        o->cptr[g + 1] += o->cptr[g];
    memcpy(at, o->cptr, ((size_t)o->ncells + 1) * sizeof *at);
    for (int64_t j = 0; j < o->ncf; ++j)
        o->cby[at[o->cdst[j]]++] = j;
    free(at);
    return 1;
}

enum { OPT_TOPO = 256, OPT_DELIV, OPT_CELLS, OPT_FANIN, OPT_PARTS, OPT_WEIGHT, OPT_DELAY,
       OPT_DELAYMAX, OPT_TSTOP, OPT_DT, OPT_PREC, OPT_SEED, OPT_SWC, OPT_SPIKES, OPT_CONN,
       OPT_NRNCONV, OPT_ICLAMP, OPT_ENGINE, OPT_RECORD, OPT_CSV };
static const char *const topo_name[] = {"ring", "random", "none"};

static int parse(int argc, char **argv, net_options *o)
{
    static const struct option opts[] = {
        {"topology", required_argument, 0, OPT_TOPO}, {"delivery", required_argument, 0, OPT_DELIV},
        {"cells", required_argument, 0, OPT_CELLS},   {"fanin", required_argument, 0, OPT_FANIN},
        {"parts", required_argument, 0, OPT_PARTS},   {"weight", required_argument, 0, OPT_WEIGHT},
        {"delay", required_argument, 0, OPT_DELAY},
        {"delay-max", required_argument, 0, OPT_DELAYMAX},
        {"tstop", required_argument, 0, OPT_TSTOP},   {"dt", required_argument, 0, OPT_DT},
        {"precision", required_argument, 0, OPT_PREC}, {"seed", required_argument, 0, OPT_SEED},
        {"swc", required_argument, 0, OPT_SWC},       {"spikes", required_argument, 0, OPT_SPIKES},
        {"connections", required_argument, 0, OPT_CONN},
        {"neuron-conventions", no_argument, 0, OPT_NRNCONV},
        {"iclamp", required_argument, 0, OPT_ICLAMP},
        {"engine", required_argument, 0, OPT_ENGINE},
        {"record", required_argument, 0, OPT_RECORD}, {"csv", required_argument, 0, OPT_CSV},
        {"help", no_argument, 0, 'h'},                {0, 0, 0, 0}};
    static const char *const topo[] = {"ring", "random", "none"}, *const deliv[] = {"step-end", "spike-time"};
    memset(o, 0, sizeof *o);
    o->ncells = 1000, o->fanin = 10, o->parts = 1;
    o->weight = 0.5, o->delay = 1.0, o->delay_max = 5.0, o->tstop = 50, o->dt = 0.025;
    o->precision = HB_DOUBLE, o->seed = 1, o->kick = 1.0;
    o->iclamp[0] = 5, o->iclamp[1] = 40, o->iclamp[2] = 1;
    if (!cli_data_file(CLI_DATA_MORPHOLOGIES, DEFAULT_SWC, o->default_swc, sizeof o->default_swc,
                       NULL)) {
        fprintf(stderr, "hinesbatch " CMD ": data path too long\n");
        return CLI_EXIT_USAGE;
    }
    o->swc = o->default_swc;
    cli_opts op;
    cli_opts_init(&op, CMD, argc, argv, opts);
    for (int c; (c = cli_opts_next(&op)) != CLI_OPTS_END;) {
        const char *a = op.flag, *v = op.value;
        int ok = 1;
        switch (c) {
        case 'h':
            usage();
            return -1;
        case OPT_NRNCONV:
            o->neuron = 1;
            break;
        case OPT_TOPO:
            ok = cli_choice(CMD, a, v, topo, 3, &o->random);
            break;
        case OPT_DELIV:
            ok = cli_choice(CMD, a, v, deliv, 2, &o->delivery);
            break;
        case OPT_CELLS:
            ok = cli_int(CMD, a, v, 1, 100000000, &o->ncells);
            break;
        case OPT_FANIN:
            ok = cli_int(CMD, a, v, 1, 100000, &o->fanin);
            break;
        case OPT_PARTS:
            ok = cli_int(CMD, a, v, 1, 64, &o->parts);
            break;
        case OPT_WEIGHT:
            ok = cli_real(CMD, a, v, 0, 1e3, CLI_LO_CLOSED, &o->weight);
            break;
        case OPT_DELAY:
            ok = cli_real(CMD, a, v, 0, 1e4, CLI_LO_OPEN, &o->delay);
            break;
        case OPT_DELAYMAX:
            ok = cli_real(CMD, a, v, 0, 1e4, CLI_LO_OPEN, &o->delay_max);
            break;
        case OPT_TSTOP:
            ok = cli_real(CMD, a, v, 0, 1e7, CLI_LO_CLOSED, &o->tstop);
            break;
        case OPT_DT:
            ok = cli_real(CMD, a, v, 0, 10, CLI_LO_OPEN, &o->dt);
            break;
        case OPT_PREC:
            ok = cli_precision(CMD, a, v, &o->precision);
            break;
        case OPT_SEED:
            ok = cli_u64(CMD, a, v, &o->seed);
            break;
        case OPT_SWC:
            o->swc = v;
            break;
        case OPT_SPIKES:
            o->spikes = v;
            break;
        case OPT_CONN:
            o->connections = v;
            break;
        case OPT_RECORD:
            ok = cli_int(CMD, a, v, 0, 100000, &o->record);
            break;
        case OPT_CSV:
            o->csv = v;
            break;
        case OPT_ENGINE: {
            static const char *const eng[] = {"auto", "stages", "cells"};
            ok = cli_choice(CMD, a, v, eng, 3, &o->engine);
            break;
        }
        case OPT_ICLAMP: {
            char buf[256];
            const char *f[3];
            const int k = cli_split(CMD, a, v, ',', buf, sizeof buf, f, 3);
            if (k != 3) {
                ok = k ? cli_bad_value(CMD, a, v, "is not ONSET,DUR,AMP") : 0;
                break;
            }
            ok = cli_real(CMD, a, f[0], 0, 1e7, CLI_LO_CLOSED, &o->iclamp[0]) &&
                 cli_real(CMD, a, f[1], 0, 1e7, CLI_LO_CLOSED, &o->iclamp[1]) &&
                 cli_real(CMD, a, f[2], -1e6, 1e6, CLI_LO_CLOSED, &o->iclamp[2]);
            break;
        }
        default:
            ok = 0;
        }
        if (!ok)
            return CLI_EXIT_USAGE;
    }
    char **rest;
    if (cli_opts_operands(&op, &rest, 0) < 0)
        return CLI_EXIT_USAGE;
    /* A typo in an output path fails now, not after the run. */
    if (o->spikes && !cli_output_check(CMD, "--spikes", o->spikes))
        return CLI_EXIT_FAIL;
    if (o->csv && !o->record)
        o->record = 4;
    if (o->csv && !cli_output_check(CMD, "--csv", o->csv))
        return CLI_EXIT_FAIL;
    if (o->connections && !read_connections(o))
        return CLI_EXIT_FAIL; /* an input file: not a usage error */
    if (o->delay_max < o->delay) {
        fprintf(stderr, "hinesbatch " CMD ": --delay-max %g < --delay %g\n", o->delay_max, o->delay);
        return CLI_EXIT_USAGE;
    }
    if (o->delay < o->dt) {
        fprintf(stderr, "hinesbatch " CMD ": --delay %g ms is below --dt %g ms\n", o->delay, o->dt);
        return CLI_EXIT_USAGE;
    }
    return 0;
}

/* The connections into cell dst (global): their sources, weights, delays,
 * drawn from the seed and dst alone, so every rank draws the same. */
static int64_t inputs(const net_options *o, int64_t dst, int64_t *src, double *w, double *d)
{
    if (o->connections) {
        int64_t n = 0;
        for (int64_t k = o->cptr[dst]; k < o->cptr[dst + 1]; ++k, ++n) {
            const int64_t j = o->cby[k];
            src[n] = o->csrc[j], w[n] = o->cw[j], d[n] = o->cd[j];
        }
        return n;
    }
    if (o->random == 2)
        return 0;
    if (!o->random) {
        src[0] = (dst + o->ncells - 1) % o->ncells, w[0] = o->weight, d[0] = o->delay;
        return 1;
    }
    uint64_t s = o->seed * 0x9E3779B97F4A7C15ull + (uint64_t)dst;
    int64_t n = 0;
    for (int64_t k = 0; k < o->fanin; ++k) {
        int64_t a = (int64_t)(cli_unit(&s) * (double)o->ncells);
        double ww = 2.0 * cli_unit(&s) * o->weight / (double)o->fanin;
        double dd = o->delay + (o->delay_max - o->delay) * cli_unit(&s);
        if (a == dst || o->ncells == 1)
            continue;
        src[n] = a, w[n] = ww, d[n] = dd, ++n;
    }
    return n;
}

static int fail(hb_status st, const char *what)
{
    fprintf(stderr, "hinesbatch " CMD ": %s: %s\n", what, hb_last_error());
    (void)st;
    return CLI_EXIT_FAIL;
}

typedef struct {
    int64_t gid, row;
} gid_row;
static int cmp_gid_row(const void *a, const void *b)
{
    const gid_row *x = a, *y = b;
    return (x->gid > y->gid) - (x->gid < y->gid);
}

/* The recorded soma voltages of every rank into --csv (t, then one column
 * per gid, in gid order): each rank's traces gathered on rank 0. 0 on
 * failure (*rc set). */
static int write_traces(const net_options *o, int rank, int size, hb_sim **sim, size_t P,
                        const int64_t *first, const int64_t *gids, int *rc)
{
    /* This rank's traces as rows (gid, samples ...). */
    int64_t nrec_all = 0, ns = 0;
    for (size_t q = 0; q < P; ++q) {
        int64_t nr = 0, n = 0;
        hb_sim_trace_count(sim[q], &nr, &n);
        if (nr > 0) /* a part that records nothing keeps no samples */
            ns = n;
        nrec_all += nr;
    }
    const int64_t width = ns + 1;
    double *mine = malloc((size_t)(nrec_all * width + 1) * sizeof *mine);
    if (!mine) {
        fprintf(stderr, "hinesbatch " CMD ": out of memory for traces\n");
        *rc = CLI_EXIT_FAIL;
        return 0;
    }
    /* Part q's cell c is this rank's cell first[q] + c: gid gids[...]. */
    int64_t k = 0;
    for (size_t q = 0; q < P; ++q) {
        int64_t nr = 0;
        hb_sim_trace_count(sim[q], &nr, NULL);
        for (int64_t r = 0; r < nr; ++r, ++k) {
            int64_t cell = 0;
            hb_sim_get_trace(sim[q], r, &cell, mine + k * width + 1);
            mine[k * width] = (double)gids[first[q] + cell];
        }
    }
    double *all = mine;
    int64_t nall = nrec_all;
#ifdef HB_HAVE_MPI
    if (size > 1) {
        int cnt = (int)(nrec_all * width), *counts = malloc(2 * (size_t)size * sizeof *counts);
        if (!counts) {
            free(mine);
            *rc = CLI_EXIT_FAIL;
            return 0;
        }
        MPI_Gather(&cnt, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
        int64_t tot = 0;
        for (int r = 0; rank == 0 && r < size; ++r)
            counts[size + r] = (int)tot, tot += counts[r];
        all = rank == 0 ? malloc((size_t)(tot > 0 ? tot : 1) * sizeof *all) : NULL;
        MPI_Gatherv(mine, cnt, MPI_DOUBLE, all, counts, counts + size, MPI_DOUBLE, 0,
                    MPI_COMM_WORLD);
        free(counts);
        nall = tot / width;
        if (rank != 0) {
            free(mine);
            return 1;
        }
        free(mine);
        mine = all;
    }
#else
    (void)size;
#endif
    /* In gid order. */
    FILE *f = all ? cli_output_open(CMD, "--csv", o->csv) : NULL;
    if (!f) {
        free(all);
        *rc = CLI_EXIT_FAIL;
        return 0;
    }
    gid_row *order = malloc((size_t)(nall > 0 ? nall : 1) * sizeof *order);
    for (int64_t i = 0; order && i < nall; ++i)
        order[i] = (gid_row){(int64_t)all[i * width], i};
    if (order && nall > 1)
        qsort(order, (size_t)nall, sizeof *order, cmp_gid_row);
    fprintf(f, "t_ms");
    for (int64_t i = 0; order && i < nall; ++i)
        fprintf(f, ",gid%lld_mV", (long long)order[i].gid);
    fprintf(f, "\n");
    for (int64_t j = 0; order && j < ns; ++j) {
        fprintf(f, "%.6f", (double)j * o->dt);
        for (int64_t i = 0; i < nall; ++i)
            fprintf(f, ",%.6f", all[order[i].row * width + 1 + j]);
        fprintf(f, "\n");
    }
    free(order);
    free(all);
    if (!cli_output_close(CMD, "--csv", o->csv, f)) {
        *rc = CLI_EXIT_FAIL;
        return 0;
    }
    return 1;
}

static int run(net_options *o, int rank, int size, const hb_net_comm *comm)
{
    hb_swc_options so;
    hb_swc_options_init(&so);
    hb_morph *m = NULL;
    hb_morph_cell *cell = NULL;
    hb_status st = hb_morph_read_swc(o->swc, &so, &m);
    if (st != HB_SUCCESS)
        return fail(st, o->swc);
    hb_discretize_options dopt;
    hb_discretize_options_init(&dopt);
    dopt.policy = HB_POLICY_SECTION;
    dopt.nseg = 0;
    if (o->neuron)
        dopt.conventions = HB_CONVENTIONS_NEURON;
    hb_cable cable;
    hb_cable_init(&cable);
    st = hb_morph_cell_create(m, &dopt, &cable, &cell);
    hb_morph_destroy(m);
    if (st != HB_SUCCESS)
        return fail(st, o->swc);
    hb_morph_cell_view view;
    hb_morph_cell_get_view(cell, &view);
    /* One kind of cell: the cost deal is round robin (gid mod size). */
    int64_t mine = 0;
    for (int64_t g = rank; g < o->ncells; g += size)
        ++mine;
    /* Refused before anything is sized from --cells: this rank's cells, their
     * compartments and their incoming connections (a source, a weight and a
     * delay each), as simulate counts them. */
    char what[160];
    snprintf(what, sizeof what, "--cells %lld (%lld compartments each, --fanin %lld)",
             (long long)o->ncells, (long long)view.n, (long long)o->fanin);
    const uint64_t per_cell = CLI_SIM_CELL_BYTES + 24 * (uint64_t)o->fanin +
                              cli_mul_sat((uint64_t)view.n, CLI_SIM_ROW_BYTES);
    if (!cli_memory_fits(CMD, what, cli_mul_sat((uint64_t)mine, per_cell))) {
        hb_morph_cell_destroy(cell);
        return CLI_EXIT_FAIL;
    }
    /* 1 <= P <= 64 (--parts), at most one part per cell. */
    int64_t parts = o->parts < mine ? o->parts : mine;
    if (parts < 1 || parts > 64)
        parts = 1;
    const size_t P = (size_t)parts;
    hb_context **ctx = calloc(P, sizeof *ctx);
    hb_sim **sim = calloc(P, sizeof *sim);
    int32_t *pid = calloc(P, sizeof *pid);
    const size_t nm = mine > 0 ? (size_t)mine : 1;
    int64_t *point = malloc(nm * sizeof *point);
    int64_t *gids = malloc(nm * sizeof *gids);
    const hb_morph_cell **cells = malloc(nm * sizeof *cells);
    hb_net *net = NULL;
    int64_t *first = NULL; /* part q: this rank's cells first[q] .. first[q + 1] - 1 */
    int rc = CLI_EXIT_FAIL;
    if (!ctx || !sim || !pid || !point || !gids || !cells) {
        fprintf(stderr, "hinesbatch " CMD ": out of memory\n");
        goto done;
    }
    int64_t k = 0;
    for (int64_t g = rank; g < o->ncells; g += size)
        gids[k] = g, cells[k++] = cell;
    int32_t ndev = 1;
    {
        hb_context *probe = NULL;
        if ((st = hb_context_create(HB_BACKEND_AUTO, &probe)) != HB_SUCCESS) {
            rc = fail(st, "context");
            goto done;
        }
        hb_backend b = hb_context_backend(probe);
        hb_context_destroy(probe);
        if (b == HB_BACKEND_CUDA || b == HB_BACKEND_OPENCL)
            hb_backend_device_count(b, -1, &ndev);
        if (ndev < 1)
            ndev = 1;
        for (size_t q = 0; q < P; ++q) {
            hb_context_options co;
            hb_context_options_init(&co);
            co.backend = b;
            if (b == HB_BACKEND_CUDA || b == HB_BACKEND_OPENCL)
                co.device = (int32_t)((q + (size_t)rank * P) % (size_t)ndev);
            if ((st = hb_context_create_with(&co, &ctx[q])) != HB_SUCCESS) {
                rc = fail(st, "context");
                goto done;
            }
        }
    }
    if ((st = hb_net_create(comm, o->delivery ? HB_NET_SPIKE_TIME : HB_NET_STEP_END, &net)))
        goto net_fail;
    /* Part q gets a contiguous share of this rank's cells. */
    first = malloc((P + 1) * sizeof *first);
    if (!first)
        goto done;
    for (size_t q = 0; q <= P; ++q)
        first[q] = mine * (int64_t)q / (int64_t)P;
    for (size_t q = 0; q < P && st == HB_SUCCESS; ++q) {
        hb_sim_params prm;
        hb_sim_params_init(&prm);
        prm.dt = o->dt;
        prm.precision = o->precision;
        prm.engine = (hb_sim_engine)o->engine;
        const int64_t n = first[q + 1] - first[q];
        if ((st = hb_sim_create(ctx[q], cells + first[q], n, &prm, &sim[q])) != HB_SUCCESS)
            break;
        for (int64_t c = 0; c < n && st == HB_SUCCESS; ++c) {
            int64_t soma = 0, *pt = &point[first[q] + c];
            if ((st = hb_sim_soma(sim[q], c, &soma)) == HB_SUCCESS &&
                (st = hb_sim_add_point(sim[q], "ExpSyn", c, soma, pt)) == HB_SUCCESS)
                st = hb_sim_set_point_param(sim[q], *pt, "tau", 2.0);
            const int64_t g = gids[first[q] + c];
            const int tenth = o->random == 1 || o->connections;
            if (st == HB_SUCCESS && o->random == 2 && !o->connections)
                st = hb_sim_add_iclamp(sim[q], c, soma, o->iclamp[0], o->iclamp[1], o->iclamp[2]);
            else if (st == HB_SUCCESS && (tenth ? g < (o->ncells + 9) / 10 : g == 0))
                st = hb_sim_add_events(sim[q], *pt, 1, &o->kick, tenth ? o->weight : 0.5);
        }
        for (int64_t c = 0; c < n && st == HB_SUCCESS; ++c)
            if (gids[first[q] + c] < o->record)
                st = hb_sim_record(sim[q], c);
        if (st == HB_SUCCESS)
            st = hb_net_add_part(net, sim[q], gids + first[q], &pid[q]);
    }
    int64_t nconn = 0;
    {
        int64_t cap = o->random == 1 ? o->fanin : 1;
        if (o->connections) { /* the largest fan-in of the file */
            cap = 1;
            for (int64_t g = 0; g < o->ncells; ++g)
                cap = o->cptr[g + 1] - o->cptr[g] > cap ? o->cptr[g + 1] - o->cptr[g] : cap;
        }
        int64_t *src = malloc((size_t)cap * sizeof *src);
        double *w = malloc((size_t)cap * sizeof *w), *d = malloc((size_t)cap * sizeof *d);
        for (size_t q = 0; q < P && st == HB_SUCCESS && src && w && d; ++q)
            for (int64_t i = first[q]; i < first[q + 1] && st == HB_SUCCESS; ++i) {
                const int64_t n = inputs(o, gids[i], src, w, d);
                for (int64_t j = 0; j < n && st == HB_SUCCESS; ++j, ++nconn)
                    st = hb_net_connect(net, src[j], pid[q], point[i], w[j], d[j]);
            }
        free(src), free(w), free(d);
    }
    if (st != HB_SUCCESS)
        goto net_fail;
    /* The set-up (connections sorted, models and device tables built) apart. */
    double t0 = cli_now_s();
    if ((st = hb_net_run(net, 0.0)) != HB_SUCCESS)
        goto net_fail;
    const double setup = cli_now_s() - t0;
    t0 = cli_now_s();
    if ((st = hb_net_run(net, o->tstop)) != HB_SUCCESS)
        goto net_fail;
    double secs = cli_now_s() - t0;
    double epoch_ms = 0;
    int64_t epochs = 0, nspk = 0, steps = 0;
    hb_net_epoch(net, &epoch_ms, &epochs);
    hb_sim_get_time(sim[0], NULL, &steps);
    hb_net_spikes(net, 1, 0, NULL, &nspk);
    if (rank == 0) {
        printf("network: %s of %lld cells x %lld compartments, %lld connections on rank 0, "
               "%d rank%s x %lld part%s (%s)\n",
               o->connections ? "file" : topo_name[o->random], (long long)o->ncells, (long long)view.n,
               (long long)nconn, size, size > 1 ? "s" : "", (long long)P, P > 1 ? "s" : "",
               hb_context_describe(ctx[0]));
        char ep[64];
        if (epoch_ms > 0)
            snprintf(ep, sizeof ep, "%lld epochs of %g ms", (long long)epochs, epoch_ms);
        else
            snprintf(ep, sizeof ep, "one epoch (no connections)");
        printf("run: %g ms in %s, %.3f s wall (set-up %.3f s before): %.3g "
               "compartment-steps/s; %lld spikes\n",
               o->tstop, ep, secs, setup,
               secs > 0 ? (double)o->ncells * (double)view.n * (double)steps / secs : 0.0,
               (long long)nspk);
    }
    if (o->csv && !write_traces(o, rank, size, sim, P, first, gids, &rc))
        goto done;
    if (rank == 0 && o->spikes) {
        hb_net_spike *all = malloc((size_t)(nspk > 0 ? nspk : 1) * sizeof *all);
        if (!all) {
            fprintf(stderr, "hinesbatch " CMD ": out of memory for %lld spikes\n", (long long)nspk);
            goto done;
        }
        FILE *f = cli_output_open(CMD, "--spikes", o->spikes);
        if (!f) {
            free(all);
            goto done;
        }
        hb_net_spikes(net, 1, nspk, all, &nspk);
        fprintf(f, "gid,spike_ms\n");
        for (int64_t i = 0; i < nspk; ++i)
            fprintf(f, "%lld,%.6f\n", (long long)all[i].gid, all[i].t);
        free(all);
        if (!cli_output_close(CMD, "--spikes", o->spikes, f))
            goto done;
    }
    rc = CLI_EXIT_OK;
    goto done;
net_fail:
    rc = fail(st, "network");
done:
    hb_net_destroy(net);
    for (size_t q = 0; sim && q < P; ++q)
        hb_sim_destroy(sim[q]);
    for (size_t q = 0; ctx && q < P; ++q)
        hb_context_destroy(ctx[q]);
    free(ctx), free(sim), free(pid), free(point), free(gids), free(cells), free(first);
    hb_morph_cell_destroy(cell);
    free(o->csrc), free(o->cdst), free(o->cw), free(o->cd), free(o->cby), free(o->cptr);
    return rc;
}

int hb_cmd_network(int argc, char **argv)
{
    net_options o;
    int r = parse(argc, argv, &o);
    if (r) {
        free(o.csrc), free(o.cdst), free(o.cw), free(o.cd), free(o.cby), free(o.cptr);
        return r < 0 ? CLI_EXIT_OK : r;
    }
#ifdef HB_HAVE_MPI
    /* MPI only under a launcher (Open MPI, MPICH/PMI, PMIx set these): a
     * plain run stays one process without MPI's start-up. */
    if (!getenv("OMPI_COMM_WORLD_SIZE") && !getenv("PMI_SIZE") && !getenv("PMIX_RANK"))
        return run(&o, 0, 1, NULL);
    int inited = 0;
    MPI_Initialized(&inited);
    if (!inited)
        MPI_Init(NULL, NULL);
    MPI_Comm world = MPI_COMM_WORLD;
    hb_net_comm comm;
    hb_net_comm_mpi(&world, &comm);
    int rc = run(&o, comm.rank, comm.size, comm.size > 1 ? &comm : NULL);
    MPI_Finalize();
    return rc;
#else
    return run(&o, 0, 1, NULL);
#endif
}
