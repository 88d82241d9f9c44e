/* cmd_solve.c: `hinesbatch solve`: random Hines batch on the chosen backend; time, throughput, residual. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "cli_opts.h"
#include "cli_parse.h"
#include "commands.h"
#include "hinesbatch.h"

/* A random tree in Hines order: mostly unbranched runs with branch points,
 * like a neuron. */
static void random_tree(int32_t *parent, int64_t n, uint64_t *rng)
{
    parent[0] = -1;
    for (int64_t k = 1; k < n; ++k)
        parent[k] = cli_unit(rng) < 0.9 ? (int32_t)(k - 1) : (int32_t)(cli_rand(rng) % (uint64_t)k);
}

static void usage(void)
{
    printf("usage: hinesbatch solve [--systems N] [--rows N] [--multi] [--precision float|double]\n"
           "                        [--layout auto|flat|interleaved|block|block-shared] [--reps N] [--seed S]\n"
           "Solves N random Hines systems (10000 of 256 rows; a random tree each with --multi,\n"
           "else one tree shared by all) on the backend chosen by HINESBATCH_BACKEND, --reps\n"
           "times (10), and prints the time per solve, rows per second and the worst\n"
           "LAPACK-style residual ratio (a ratio of 30 or more is a failure).\n" CLI_EXIT_HELP);
}

#define CMD "solve"
#define MAX_ROWS_TOTAL ((int64_t)1 << 56) /* 5 arrays of 8 bytes per row stay far below 2^63 */

enum { OPT_SYSTEMS = 256, OPT_ROWS, OPT_MULTI, OPT_PRECISION, OPT_LAYOUT, OPT_REPS, OPT_SEED };

int hb_cmd_solve(int argc, char **argv)
{
    static const struct option opts[] = {
        {"systems", required_argument, 0, OPT_SYSTEMS}, {"rows", required_argument, 0, OPT_ROWS},
        {"multi", no_argument, 0, OPT_MULTI},         {"precision", required_argument, 0, OPT_PRECISION},
        {"layout", required_argument, 0, OPT_LAYOUT}, {"reps", required_argument, 0, OPT_REPS},
        {"seed", required_argument, 0, OPT_SEED},     {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0}};
    int64_t nsys = 10000, n = 256, reps64 = 10;
    int multi = 0;
    uint64_t seed = (uint64_t)time(NULL);
    hb_precision prec = HB_DOUBLE;
    hb_plan_options opts_plan;
    hb_plan_options_init(&opts_plan);
    cli_opts o;
    cli_opts_init(&o, CMD, argc, argv, opts);
    for (int c; (c = cli_opts_next(&o)) != CLI_OPTS_END;) {
        int ok = 1;
        switch (c) {
        case 'h':
            usage();
            return CLI_EXIT_OK;
        case OPT_SYSTEMS:
            ok = cli_int(CMD, o.flag, o.value, 1, MAX_ROWS_TOTAL, &nsys);
            break;
        case OPT_ROWS: /* parent indices are int32 */
            ok = cli_int(CMD, o.flag, o.value, 1, INT32_MAX, &n);
            break;
        case OPT_MULTI:
            multi = 1;
            break;
        case OPT_PRECISION:
            ok = cli_precision(CMD, o.flag, o.value, &prec);
            break;
        case OPT_LAYOUT:
            ok = cli_layout(CMD, o.flag, o.value, &opts_plan.layout);
            break;
        case OPT_REPS:
            ok = cli_int(CMD, o.flag, o.value, 1, 1000000, &reps64);
            break;
        case OPT_SEED:
            ok = cli_u64(CMD, o.flag, o.value, &seed);
            break;
        default:
            ok = 0;
        }
        if (!ok)
            return CLI_EXIT_USAGE;
    }
    char **rest;
    if (cli_opts_operands(&o, &rest, 0) < 0)
        return CLI_EXIT_USAGE;
    if (nsys > MAX_ROWS_TOTAL / n) {
        fprintf(stderr, "hinesbatch solve: --systems %lld x --rows %lld is more than 2^56 rows\n",
                (long long)nsys, (long long)n);
        return CLI_EXIT_USAGE;
    }
    /* The inputs (5 values, a parent and its copy per row, an offset per
     * system) meet the machine before they are allocated and written; the
     * plan needs as much again, which the library checks itself. */
    char what[96];
    snprintf(what, sizeof what, "--systems %lld x --rows %lld", (long long)nsys, (long long)n);
    size_t row_bytes = 5 * (prec == HB_DOUBLE ? sizeof(double) : sizeof(float)) + 8;
    if (!cli_memory_fits("solve", what,
                         cli_add_sat(cli_mul_sat((uint64_t)(nsys * n), row_bytes),
                                     cli_mul_sat((uint64_t)nsys + 1, sizeof(int64_t)))))
        return CLI_EXIT_FAIL;
    int reps = (int)reps64;
    hb_context *ctx = NULL;
    hb_plan *plan = NULL;
    int64_t *offsets = NULL;
    int32_t *parent = NULL, *full = NULL;
    char *buf = NULL;
    int rc = CLI_EXIT_FAIL;
    hb_status st = hb_context_create(HB_BACKEND_AUTO, &ctx);
    if (st != HB_SUCCESS)
        goto done;
    printf("backend: %s\nseed: %llu\n", hb_context_describe(ctx), (unsigned long long)seed);
    int64_t total = nsys * n;
    size_t es = prec == HB_DOUBLE ? sizeof(double) : sizeof(float);
    offsets = malloc((size_t)(nsys + 1) * sizeof *offsets);
    parent = malloc((size_t)(multi ? total : n) * sizeof *parent);
    buf = malloc((size_t)total * es * 5);
    /* The residual check wants one parent run per system. */
    full = multi ? parent : malloc((size_t)total * sizeof *full);
    if (!offsets || !parent || !buf || !full) {
        fprintf(stderr, "hinesbatch solve: out of host memory for %lld rows\n", (long long)total);
        goto done;
    }
    void *u = buf, *l = buf + total * es, *d = buf + 2 * total * es, *rhs = buf + 3 * total * es;
    void *x = buf + 4 * total * es;
    uint64_t rng = seed;
    for (int64_t s = 0; s <= nsys; ++s)
        offsets[s] = s * n;
    for (int64_t s = 0; s < (multi ? nsys : 1); ++s)
        random_tree(parent + s * n, n, &rng);
    if (!multi)
        for (int64_t s = 0; s < nsys; ++s)
            memcpy(full + s * n, parent, (size_t)n * sizeof *parent);
    for (int64_t k = 0; k < total; ++k) {
        /* A cable-like matrix: negative couplings, diagonally dominant. */
        double uu = -(0.1 + cli_unit(&rng)), ll = -(0.1 + cli_unit(&rng));
        double dd = 2.5 + 2.0 * cli_unit(&rng), rr = cli_unit(&rng) - 0.5;
        if (prec == HB_DOUBLE) {
            ((double *)u)[k] = uu, ((double *)l)[k] = ll, ((double *)d)[k] = dd,
            ((double *)rhs)[k] = rr;
        } else {
            ((float *)u)[k] = (float)uu, ((float *)l)[k] = (float)ll, ((float *)d)[k] = (float)dd,
            ((float *)rhs)[k] = (float)rr;
        }
    }
    st = multi ? hb_plan_create_hines(ctx, prec, nsys, offsets, parent, &opts_plan, &plan)
               : hb_plan_create_hines_uniform(ctx, prec, nsys, n, parent, &opts_plan, &plan);
    double best = 1e30, setup = 0;
    if (st == HB_SUCCESS) {
        printf("plan: %s\n", hb_plan_describe(plan));
        st = hb_plan_set(plan, HB_ARRAY_U, u);
        if (st == HB_SUCCESS)
            st = hb_plan_set(plan, HB_ARRAY_L, l);
    }
    /* Each repetition sets d and rhs (a time step's new data), solves and reads back. */
    for (int r = 0; r < reps && st == HB_SUCCESS; ++r) {
        double t0 = cli_now_s();
        st = hb_plan_set(plan, HB_ARRAY_D, d);
        if (st == HB_SUCCESS)
            st = hb_plan_set(plan, HB_ARRAY_RHS, rhs);
        double t1 = cli_now_s();
        if (st == HB_SUCCESS)
            st = hb_plan_solve(plan);
        if (st == HB_SUCCESS)
            st = hb_plan_get_solution(plan, x); /* waits for the solve */
        double t2 = cli_now_s();
        if (t2 - t1 < best)
            best = t2 - t1;
        setup += t1 - t0;
    }
    double ratio = 0;
    int64_t worst = -1;
    if (st == HB_SUCCESS)
        st = hb_hines_residual(prec, nsys, offsets, full, u, l, d, x, rhs, &ratio, &worst);
    if (st != HB_SUCCESS)
        goto done;
    printf("systems: %lld x %lld rows (%s, %s)\n", (long long)nsys, (long long)n,
           multi ? "multi-morphology" : "mono-morphology", prec == HB_DOUBLE ? "double" : "float");
    printf("solve + read-back: %.3f ms best of %d; upload of d and rhs: %.3f ms mean\n",
           best * 1e3, reps, setup / reps * 1e3);
    printf("throughput: %.3g rows/s\n", (double)total / best);
    printf("worst residual ratio: %.3g (system %lld; a correct solve stays under 30)\n", ratio,
           (long long)worst);
    if (ratio < 30)
        rc = CLI_EXIT_OK;
    else
        fprintf(stderr, "hinesbatch solve: FAILED: residual ratio %.3g >= 30\n", ratio);
done:
    if (st != HB_SUCCESS)
        fprintf(stderr, "hinesbatch solve: %s: %s\n", hb_status_string(st), hb_last_error());
    hb_plan_destroy(plan);
    hb_context_destroy(ctx);
    if (full != parent)
        free(full);
    free(offsets);
    free(parent);
    free(buf);
    return rc;
}
