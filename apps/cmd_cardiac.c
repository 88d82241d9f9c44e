/* cmd_cardiac.c: `hinesbatch cardiac`: a batch of paced cardiac cells of a catalogue model on any backend: traces (CSV), action potential measures of the recorded cells, speed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_opts.h"
#include "cli_out.h"
#include "cli_parse.h"
#include "commands.h"
#include "hinesbatch_cardiac.h"

#define CMD "cardiac"
#define MAXREC 64
#define MAXPRM 32

static void usage(void)
{
    printf("usage: hinesbatch cardiac [options]\n"
           "Runs --cells independent cells of a cardiac model of the catalogue (docs/cardiac.md)\n"
           "paced by a periodic stimulus, and prints per recorded cell the resting potential\n"
           "(before the last stimulus), the last action potential's peak and APD90, and the\n"
           "speed in cell-steps per second.\n"
           "  --list                  the catalogue's models, states and parameters, then exit\n"
           "  --model NAME            the model (default: the catalogue's first)\n"
           "  --backend NAME          auto (default), serial, openmp, opencl, cuda\n"
           "  --precision P           double (default) or float\n"
           "  --cells N               cells (default 1)\n"
           "  --dt MS                 time step (default 0.01)\n"
           "  --duration MS           time simulated (default 1000)\n"
           "  --stim-start MS         first stimulus (default 10)\n"
           "  --stim-duration MS      its length (default: the model file's protocol, else 2)\n"
           "  --stim-period MS        period (default 1000; 0: once)\n"
           "  --stim-level X          pace during a stimulus (default 1)\n"
           "  --param NAME=VALUE      a parameter of every cell (repeatable)\n"
           "  --param-range NAME=A:B  the parameter from A (cell 0) to B (last cell), linearly\n"
           "  --record LIST           cells recorded, e.g. 0,10 (default 0; 'none': none)\n"
           "  --record-states LIST    states recorded (default: the membrane potential)\n"
           "  --record-every N        steps between recorded rows (default 10)\n"
           "  --csv FILE              the recorded rows: t_ms, then cell:state columns\n"
           "Fibers (the monodomain cable equation, docs/cardiac.md): --cells fibers x nodes\n"
           "  --fiber NODES           nodes per fiber (cells fiber-major); stimulus at one end\n"
           "  --sigma S               conductivity, mS/cm (default 1.2)\n"
           "  --chi X                 surface to volume, 1/cm (default 1400)\n"
           "  --cm C                  membrane capacitance, uF/cm^2 (default 1)\n"
           "  --dx CM                 node spacing, cm (default 0.01)\n"
           "  --stim-nodes K          nodes stimulated at the start of each fiber (default 5)\n"
           "  --cv-nodes A,B          conduction velocity from the -30 mV upstroke crossings\n"
           "                          of nodes A and B of fiber 0 (default: 1/4 and 3/4)\n"
           "  --activation FILE       activation time (-30 mV upward crossing) of every node\n"
           "                          of fiber 0 as CSV (node, x_cm, t_ms): records them all\n"
           CLI_EXIT_HELP);
}

static int list_models(void)
{
    for (int32_t m = 0; m < hb_cardiac_model_count(); ++m) {
        hb_cardiac_model_info info;
        hb_cardiac_model_get_info(m, &info);
        printf("%s: %d states, %d parameters, stimulus amplitude %s\n  states:", info.name,
               (int)info.nstate, (int)info.nparam, info.stimulus ? info.stimulus : "(none found)");
        for (int32_t k = 0; k < info.nstate; ++k) {
            const char *n = NULL;
            hb_cardiac_model_state_name(m, k, &n);
            printf(" %s", n);
        }
        printf("\n  parameters:");
        for (int32_t k = 0; k < info.nparam; ++k) {
            const char *n = NULL;
            hb_cardiac_model_param_name(m, k, &n);
            printf(" %s", n);
        }
        printf("\n");
    }
    return CLI_EXIT_OK;
}

/* Resting potential, peak and APD90 of the last action potential of one
 * column (V, mV) of rows taken every t_row ms: rest = V at the last
 * stimulus onset (the row before it), peak = the largest V after it, APD90
 * = time between the up- and downward crossings of rest + 0.1 (peak - rest),
 * interpolated. NAN where there is none. */
static void measures(const double *r, int64_t rows, int64_t cols, int64_t col, double t_row,
                     double t_stim, double *rest, double *peak, double *apd)
{
    *rest = *peak = *apd = NAN;
    int64_t k0 = (int64_t)floor(t_stim / t_row) - 1;
    if (k0 < 0 || k0 >= rows)
        return;
    *rest = r[k0 * cols + col];
    double pk = -INFINITY;
    for (int64_t k = k0; k < rows; ++k)
        pk = fmax(pk, r[k * cols + col]);
    *peak = pk;
    double lvl = *rest + 0.1 * (pk - *rest), up = NAN;
    for (int64_t k = k0 + 1; k < rows; ++k) {
        double a = r[(k - 1) * cols + col], b = r[k * cols + col];
        if (isnan(up) && a < lvl && b >= lvl)
            up = t_row * ((double)k + (lvl - a) / (b - a));
        else if (!isnan(up) && a >= lvl && b < lvl) {
            *apd = t_row * ((double)k + (a - lvl) / (a - b)) - up;
            return;
        }
    }
}

int hb_cmd_cardiac(int argc, char **argv)
{
    enum { O_LIST = 1, O_MODEL, O_BACKEND, O_PREC, O_CELLS, O_DT, O_DUR, O_SSTART, O_SDUR,
           O_SPER, O_SLEVEL, O_PARAM, O_RANGE, O_REC, O_RSTATES, O_REVERY, O_CSV, O_FIBER,
           O_SIGMA, O_CHI, O_CM, O_DX, O_SNODES, O_CVN, O_ACT };
    static const struct option opts[] = {
        {"help", no_argument, 0, 'h'}, {"list", no_argument, 0, O_LIST},
        {"model", required_argument, 0, O_MODEL}, {"backend", required_argument, 0, O_BACKEND},
        {"precision", required_argument, 0, O_PREC}, {"cells", required_argument, 0, O_CELLS},
        {"dt", required_argument, 0, O_DT}, {"duration", required_argument, 0, O_DUR},
        {"stim-start", required_argument, 0, O_SSTART},
        {"stim-duration", required_argument, 0, O_SDUR},
        {"stim-period", required_argument, 0, O_SPER},
        {"stim-level", required_argument, 0, O_SLEVEL},
        {"param", required_argument, 0, O_PARAM}, {"param-range", required_argument, 0, O_RANGE},
        {"record", required_argument, 0, O_REC}, {"record-states", required_argument, 0, O_RSTATES},
        {"record-every", required_argument, 0, O_REVERY}, {"csv", required_argument, 0, O_CSV},
        {"fiber", required_argument, 0, O_FIBER}, {"sigma", required_argument, 0, O_SIGMA},
        {"chi", required_argument, 0, O_CHI}, {"cm", required_argument, 0, O_CM},
        {"dx", required_argument, 0, O_DX}, {"stim-nodes", required_argument, 0, O_SNODES},
        {"cv-nodes", required_argument, 0, O_CVN}, {"activation", required_argument, 0, O_ACT},
        {0, 0, 0, 0}};
    int64_t nnodes = 0, stim_nodes = 5, cv_a = -1, cv_b = -1;
    double sigma = 1.2, chi = 1400, cmem = 1, dx = 0.01;
    const char *act_csv = NULL;
    const char *model_name = NULL, *csv = NULL, *rec_text = "0", *states_text = NULL;
    hb_backend backend = HB_BACKEND_AUTO;
    hb_precision prec = HB_DOUBLE;
    int64_t ncells = 1, every = 10;
    double dt = 0.01, duration = 1000, s_start = 10, s_dur = NAN, s_per = 1000, s_level = 1;
    const char *prm_text[MAXPRM];
    int prm_range[MAXPRM], nprm = 0;
    cli_opts o;
    cli_opts_init(&o, CMD, argc, argv, opts);
    for (int c; (c = cli_opts_next(&o)) != CLI_OPTS_END;) {
        const char *v = o.value, *f = o.flag;
        int ok = 1;
        switch (c) {
        case 'h': usage(); return CLI_EXIT_OK;
        case O_LIST: return list_models();
        case O_MODEL: model_name = v; break;
        case O_BACKEND: ok = cli_backend(CMD, f, v, 1, &backend); break;
        case O_PREC: ok = cli_precision(CMD, f, v, &prec); break;
        case O_CELLS: ok = cli_int(CMD, f, v, 1, INT64_C(1) << 40, &ncells); break;
        case O_DT: ok = cli_real(CMD, f, v, 0, 10, CLI_LO_OPEN, &dt); break;
        case O_DUR: ok = cli_real(CMD, f, v, 0, 1e9, CLI_LO_CLOSED, &duration); break;
        case O_SSTART: ok = cli_real(CMD, f, v, 0, 1e9, CLI_LO_CLOSED, &s_start); break;
        case O_SDUR: ok = cli_real(CMD, f, v, 0, 1e9, CLI_LO_OPEN, &s_dur); break;
        case O_SPER: ok = cli_real(CMD, f, v, 0, 1e9, CLI_LO_CLOSED, &s_per); break;
        case O_SLEVEL: ok = cli_real(CMD, f, v, -1e9, 1e9, CLI_LO_CLOSED, &s_level); break;
        case O_PARAM:
        case O_RANGE:
            if (nprm == MAXPRM)
                ok = cli_bad_value(CMD, f, v, "is one parameter too many (at most 32)");
            else {
                prm_range[nprm] = c == O_RANGE;
                prm_text[nprm++] = v;
            }
            break;
        case O_REC: rec_text = v; break;
        case O_RSTATES: states_text = v; break;
        case O_REVERY: ok = cli_int(CMD, f, v, 1, INT64_C(1) << 40, &every); break;
        case O_CSV: csv = v; ok = cli_output_check(CMD, f, v); break;
        case O_FIBER: ok = cli_int(CMD, f, v, 2, INT64_C(1) << 40, &nnodes); break;
        case O_SIGMA: ok = cli_real(CMD, f, v, 0, 1e6, CLI_LO_OPEN, &sigma); break;
        case O_CHI: ok = cli_real(CMD, f, v, 0, 1e9, CLI_LO_OPEN, &chi); break;
        case O_CM: ok = cli_real(CMD, f, v, 0, 1e6, CLI_LO_OPEN, &cmem); break;
        case O_DX: ok = cli_real(CMD, f, v, 0, 1e3, CLI_LO_OPEN, &dx); break;
        case O_SNODES: ok = cli_int(CMD, f, v, 1, INT64_C(1) << 40, &stim_nodes); break;
        case O_CVN: {
            char b2[64];
            const char *it[2];
            ok = cli_split(CMD, f, v, ',', b2, sizeof b2, it, 2) == 2 &&
                 cli_int(CMD, f, it[0], 0, INT64_C(1) << 40, &cv_a) &&
                 cli_int(CMD, f, it[1], 0, INT64_C(1) << 40, &cv_b);
            if (ok && cv_a >= cv_b)
                ok = cli_bad_value(CMD, f, v, "is not A,B with A < B");
            break;
        }
        case O_ACT: act_csv = v; ok = cli_output_check(CMD, f, v); break;
        default: return CLI_EXIT_USAGE;
        }
        if (!ok)
            return CLI_EXIT_USAGE;
    }
    char **rest;
    if (cli_opts_operands(&o, &rest, 0) < 0)
        return CLI_EXIT_USAGE;

    int32_t model = 0;
    if (model_name && hb_cardiac_model_find(model_name, &model) != HB_SUCCESS) {
        fprintf(stderr, "hinesbatch cardiac: --model: %s\n", hb_last_error());
        return CLI_EXIT_USAGE;
    }
    hb_cardiac_model_info info;
    hb_cardiac_model_get_info(model, &info);
    if (isnan(s_dur))
        s_dur = info.protocol[1] > 0 ? info.protocol[1] : 2;
    /* Recorded cells and states. */
    char cbuf[1024], sbuf[2048];
    const char *citems[MAXREC], *sitems[MAXREC];
    int64_t cells[MAXREC];
    int nrec = 0, nst = 1;
    if (strcmp(rec_text, "none") != 0) {
        nrec = cli_split(CMD, "--record", rec_text, ',', cbuf, sizeof cbuf, citems, MAXREC);
        if (nrec == 0)
            return CLI_EXIT_USAGE;
        for (int j = 0; j < nrec; ++j)
            if (!cli_int(CMD, "--record", citems[j], 0, ncells - 1, &cells[j]))
                return CLI_EXIT_USAGE;
    }
    if (states_text) {
        nst = cli_split(CMD, "--record-states", states_text, ',', sbuf, sizeof sbuf, sitems, MAXREC);
        if (nst == 0)
            return CLI_EXIT_USAGE;
    } else
        hb_cardiac_model_state_name(model, 0, &sitems[0]);

    hb_context *ctx = NULL;
    hb_cardiac *c = NULL;
    hb_status st = hb_context_create(backend, &ctx);
    if (st == HB_SUCCESS)
        st = hb_cardiac_create(ctx, model, ncells, prec, dt, &c);
    if (st != HB_SUCCESS) {
        fprintf(stderr, "hinesbatch cardiac: %s\n", hb_last_error());
        hb_context_destroy(ctx);
        return CLI_EXIT_FAIL;
    }
    int rc = CLI_EXIT_OK;
    double *vals = NULL, *rows = NULL;
    for (int q = 0; q < nprm && rc == CLI_EXIT_OK; ++q) {
        char name[256];
        const char *eq = strchr(prm_text[q], '=');
        const char *flag = prm_range[q] ? "--param-range" : "--param";
        if (!eq || eq == prm_text[q] || (size_t)(eq - prm_text[q]) >= sizeof name) {
            cli_bad_value(CMD, flag, prm_text[q], "is not NAME=VALUE");
            rc = CLI_EXIT_USAGE;
            break;
        }
        memcpy(name, prm_text[q], (size_t)(eq - prm_text[q]));
        name[eq - prm_text[q]] = '\0';
        if (!prm_range[q]) {
            double x = 0;
            if (!cli_real(CMD, flag, eq + 1, -INFINITY, INFINITY, CLI_LO_CLOSED, &x))
                rc = CLI_EXIT_USAGE;
            else
                st = hb_cardiac_set_param(c, name, x);
        } else {
            char lo[64], hi[64];
            const char *colon = strchr(eq + 1, ':');
            double a = 0, b = 0;
            if (!colon || (size_t)(colon - eq - 1) >= sizeof lo || strlen(colon + 1) >= sizeof hi) {
                cli_bad_value(CMD, flag, prm_text[q], "is not NAME=A:B");
                rc = CLI_EXIT_USAGE;
                break;
            }
            memcpy(lo, eq + 1, (size_t)(colon - eq - 1));
            lo[colon - eq - 1] = '\0';
            strcpy(hi, colon + 1);
            if (!cli_real(CMD, flag, lo, -INFINITY, INFINITY, CLI_LO_CLOSED, &a) ||
                !cli_real(CMD, flag, hi, -INFINITY, INFINITY, CLI_LO_CLOSED, &b)) {
                rc = CLI_EXIT_USAGE;
                break;
            }
            free(vals);
            vals = malloc((size_t)ncells * sizeof(double));
            if (!vals) {
                fprintf(stderr, "hinesbatch cardiac: out of memory\n");
                rc = CLI_EXIT_FAIL;
                break;
            }
            for (int64_t i = 0; i < ncells; ++i)
                vals[i] = ncells > 1 ? a + (b - a) * (double)i / (double)(ncells - 1) : a;
            st = hb_cardiac_set_param_cells(c, name, vals);
        }
        if (rc == CLI_EXIT_OK && st != HB_SUCCESS) {
            fprintf(stderr, "hinesbatch cardiac: %s: %s\n", flag, hb_last_error());
            rc = CLI_EXIT_USAGE;
        }
    }
    if (rc == CLI_EXIT_OK && nnodes > 0) {
        if (cv_a < 0) {
            cv_a = nnodes / 4;
            cv_b = 3 * nnodes / 4;
        }
        if (cv_b >= nnodes) {
            fprintf(stderr, "hinesbatch cardiac: --cv-nodes: node %lld is past the fiber's %lld\n",
                    (long long)cv_b, (long long)nnodes);
            rc = CLI_EXIT_USAGE;
        } else if ((st = hb_cardiac_set_fiber(c, nnodes, sigma, chi, cmem, dx)) != HB_SUCCESS) {
            fprintf(stderr, "hinesbatch cardiac: --fiber: %s\n", hb_last_error());
            rc = CLI_EXIT_USAGE;
        } else if (info.stimulus) {
            /* The stimulus only at the start of each fiber: its amplitude
             * (the file's value, or --param's) kept there, 0 elsewhere. */
            double amp = 0;
            int32_t k = 0;
            for (k = 0; k < info.nparam; ++k) {
                const char *nm = NULL;
                hb_cardiac_model_param_name(model, k, &nm);
                if (strcmp(nm, info.stimulus) == 0)
                    break;
            }
            hb_cardiac_model_param_default(model, k, &amp);
            for (int q = 0; q < nprm; ++q) {
                size_t ln = strlen(info.stimulus);
                if (!prm_range[q] && strncmp(prm_text[q], info.stimulus, ln) == 0 &&
                    prm_text[q][ln] == '=')
                    amp = strtod(prm_text[q] + ln + 1, NULL);
            }
            free(vals);
            vals = malloc((size_t)ncells * sizeof(double));
            if (!vals) {
                fprintf(stderr, "hinesbatch cardiac: out of memory\n");
                rc = CLI_EXIT_FAIL;
            } else {
                for (int64_t i = 0; i < ncells; ++i)
                    vals[i] = i % nnodes < stim_nodes ? amp : 0;
                st = hb_cardiac_set_param_cells(c, info.stimulus, vals);
            }
        }
        /* The CV nodes (and, for --activation, every node of fiber 0) are recorded. */
        if (rc == CLI_EXIT_OK && act_csv) {
            nrec = (int)(nnodes < MAXREC ? nnodes : MAXREC);
            if (nnodes > MAXREC) {
                fprintf(stderr, "hinesbatch cardiac: --activation: at most %d nodes\n", MAXREC);
                rc = CLI_EXIT_USAGE;
            }
            for (int j = 0; j < nrec; ++j)
                cells[j] = j;
        } else if (rc == CLI_EXIT_OK && nrec + 2 <= MAXREC) {
            cells[nrec++] = cv_a;
            cells[nrec++] = cv_b;
            for (int j = 0; j < nrec - 2; ++j)
                if (cells[j] == cv_a || cells[j] == cv_b) {
                    fprintf(stderr, "hinesbatch cardiac: --record: give the CV nodes %lld and "
                            "%lld with --cv-nodes, not --record\n", (long long)cv_a, (long long)cv_b);
                    rc = CLI_EXIT_USAGE;
                }
        }
    }
    if (rc == CLI_EXIT_OK && (st = hb_cardiac_set_protocol(c, s_level, s_start, s_dur, s_per)) !=
                                 HB_SUCCESS) {
        fprintf(stderr, "hinesbatch cardiac: --stim-*: %s\n", hb_last_error());
        rc = CLI_EXIT_USAGE;
    }
    if (rc == CLI_EXIT_OK &&
        (st = hb_cardiac_record(c, nrec, cells, nst, sitems, every)) != HB_SUCCESS) {
        fprintf(stderr, "hinesbatch cardiac: --record: %s\n", hb_last_error());
        rc = CLI_EXIT_USAGE;
    }
    int64_t nsteps = (int64_t)floor(duration / dt + 0.5);
    double secs = 0;
    if (rc == CLI_EXIT_OK) {
        printf("cardiac: %s, %lld cells, %s, dt %g ms, %lld steps, on %s\n", info.name,
               (long long)ncells, prec == HB_DOUBLE ? "double" : "float", dt, (long long)nsteps,
               hb_context_describe(ctx));
        /* A first short run builds the kernels (OpenCL) outside the timing. */
        int64_t warm = nsteps < 10 ? nsteps : 10;
        st = hb_cardiac_run(c, warm);
        double t0 = cli_now_s();
        if (st == HB_SUCCESS)
            st = hb_cardiac_run(c, nsteps - warm);
        secs = cli_now_s() - t0;
        if (st != HB_SUCCESS) {
            fprintf(stderr, "hinesbatch cardiac: %s\n", hb_last_error());
            rc = CLI_EXIT_FAIL;
        }
    }
    if (rc == CLI_EXIT_OK) {
        double rate = secs > 0 ? (double)ncells * (double)(nsteps - (nsteps < 10 ? nsteps : 10)) / secs
                               : 0;
        printf("time %.3f s, %.4g cell-steps/s\n", secs, rate);
        int64_t nr = 0, nc = 0;
        hb_cardiac_get_recording(c, NULL, 0, &nr, &nc);
        rows = malloc((size_t)(nr * nc > 0 ? nr * nc : 1) * sizeof(double));
        if (!rows) {
            fprintf(stderr, "hinesbatch cardiac: out of memory for %lld rows\n", (long long)nr);
            rc = CLI_EXIT_FAIL;
        } else
            hb_cardiac_get_recording(c, rows, (size_t)(nr * nc), &nr, &nc);
        /* The last stimulus onset within the run. */
        double t_last = s_start;
        if (s_per > 0)
            while (t_last + s_per < duration)
                t_last += s_per;
        for (int j = 0; rows && j < nrec; ++j) {
            double rest = 0, peak = 0, apd = 0;
            measures(rows, nr, nc, (int64_t)j * nst, dt * (double)every, t_last, &rest, &peak,
                     &apd);
            printf("cell %lld: rest %.3f mV, peak %.3f mV, APD90 %.3f ms\n", (long long)cells[j],
                   rest, peak, apd);
        }
        if (rows && nnodes > 0) {
            /* Activation: the first upward crossing of -30 mV, interpolated. */
            const double t_row = dt * (double)every;
            double ta = NAN, tb = NAN;
            FILE *af = act_csv ? cli_output_open(CMD, "--activation", act_csv) : NULL;
            if (act_csv && !af)
                rc = CLI_EXIT_FAIL;
            if (af)
                fprintf(af, "node,x_cm,t_ms\n");
            for (int j = 0; j < nrec; ++j) {
                double t_act = NAN;
                for (int64_t k = 1; k < nr; ++k) {
                    double a0 = rows[(k - 1) * nc + (int64_t)j * nst], b0 = rows[k * nc + (int64_t)j * nst];
                    if (a0 < -30 && b0 >= -30) {
                        t_act = t_row * ((double)k + 1 + (-30 - a0) / (b0 - a0) - 1);
                        break;
                    }
                }
                if (cells[j] == cv_a)
                    ta = t_act;
                if (cells[j] == cv_b)
                    tb = t_act;
                if (af)
                    fprintf(af, "%lld,%.6g,%.6f\n", (long long)cells[j], dx * (double)cells[j], t_act);
            }
            if (af && !cli_output_close(CMD, "--activation", act_csv, af))
                rc = CLI_EXIT_FAIL;
            double cv = (double)(cv_b - cv_a) * dx / (tb - ta) * 10; /* cm/ms -> m/s */
            printf("conduction velocity %.4f m/s (nodes %lld and %lld, %g cm apart, activated at "
                   "%.4f and %.4f ms)\n", cv, (long long)cv_a, (long long)cv_b,
                   (double)(cv_b - cv_a) * dx, ta, tb);
        }
        if (rows && csv) {
            FILE *f = cli_output_open(CMD, "--csv", csv);
            if (!f)
                rc = CLI_EXIT_FAIL;
            else {
                fprintf(f, "t_ms");
                for (int j = 0; j < nrec; ++j)
                    for (int s = 0; s < nst; ++s)
                        fprintf(f, ",%lld:%s", (long long)cells[j], sitems[s]);
                fprintf(f, "\n");
                for (int64_t k = 0; k < nr; ++k) {
                    fprintf(f, "%.10g", dt * (double)(every * (k + 1)));
                    for (int64_t q = 0; q < nc; ++q)
                        fprintf(f, ",%.10g", rows[k * nc + q]);
                    fprintf(f, "\n");
                }
                if (!cli_output_close(CMD, "--csv", csv, f))
                    rc = CLI_EXIT_FAIL;
            }
        }
    }
    free(vals);
    free(rows);
    hb_cardiac_destroy(c);
    hb_context_destroy(ctx);
    return rc;
}
