/* cmd_solve.c: `hinesbatch solve`: random Hines batch on the chosen backend; time, throughput, residual. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
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
           "Solves N random Hines systems (a random tree each with --multi, else one tree\n"
           "shared by all) on the backend chosen by HINESBATCH_BACKEND, and prints the time\n"
           "per solve, rows per second and the worst LAPACK-style residual ratio.\n");
}

int hb_cmd_solve(int argc, char **argv)
{
    int64_t nsys = 10000, n = 256;
    int multi = 0, reps = 10;
    uint64_t seed = (uint64_t)time(NULL);
    hb_precision prec = HB_DOUBLE;
    hb_plan_options opts;
    hb_plan_options_init(&opts);
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help")) {
            usage();
            return 0;
        } else if (!strcmp(a, "--multi")) {
            multi = 1;
        } else if (v && !strcmp(a, "--systems")) {
            nsys = atoll(v), ++i;
        } else if (v && !strcmp(a, "--rows")) {
            n = atoll(v), ++i;
        } else if (v && !strcmp(a, "--reps")) {
            reps = atoi(v), ++i;
        } else if (v && !strcmp(a, "--seed")) {
            seed = strtoull(v, NULL, 10), ++i;
        } else if (v && !strcmp(a, "--precision")) {
            prec = !strcmp(v, "float") ? HB_FLOAT : HB_DOUBLE, ++i;
        } else if (v && !strcmp(a, "--layout")) {
            /* An unknown name is an error, never a silent AUTO. */
            if (cli_layout_from_name(v, &opts.layout) != HB_SUCCESS) {
                fprintf(stderr, "hinesbatch solve: --layout '%s' is not a layout\n", v);
                usage();
                return 2;
            }
            ++i;
        } else {
            fprintf(stderr, "hinesbatch solve: unknown or incomplete option '%s'\n", a);
            usage();
            return 2;
        }
    }
    if (nsys < 1 || n < 1 || reps < 1) {
        fprintf(stderr, "hinesbatch solve: --systems, --rows and --reps must be >= 1\n");
        return 2;
    }
    hb_context *ctx = NULL;
    if (hb_context_create(HB_BACKEND_AUTO, &ctx) != HB_SUCCESS) {
        fprintf(stderr, "hinesbatch solve: %s\n", hb_last_error());
        return 1;
    }
    printf("backend: %s\nseed: %llu\n", hb_context_describe(ctx), (unsigned long long)seed);
    int64_t total = nsys * n;
    size_t es = prec == HB_DOUBLE ? sizeof(double) : sizeof(float);
    int64_t *offsets = malloc((size_t)(nsys + 1) * sizeof *offsets);
    int32_t *parent = malloc((size_t)(multi ? total : n) * sizeof *parent);
    char *buf = malloc((size_t)total * es * 5);
    if (!offsets || !parent || !buf) {
        fprintf(stderr, "hinesbatch solve: out of host memory for %lld rows\n", (long long)total);
        return 1;
    }
    void *u = buf, *l = buf + total * es, *d = buf + 2 * total * es, *rhs = buf + 3 * total * es;
    void *x = buf + 4 * total * es;
    uint64_t rng = seed;
    for (int64_t s = 0; s <= nsys; ++s)
        offsets[s] = s * n;
    for (int64_t s = 0; s < (multi ? nsys : 1); ++s)
        random_tree(parent + s * n, n, &rng);
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
    hb_plan *plan = NULL;
    hb_status st = multi ? hb_plan_create_hines(ctx, prec, nsys, offsets, parent, &opts, &plan)
                         : hb_plan_create_hines_uniform(ctx, prec, nsys, n, parent, &opts, &plan);
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
    if (st == HB_SUCCESS) {
        /* The residual check wants one parent run per system. */
        int32_t *full = multi ? parent : malloc((size_t)total * sizeof *full);
        if (!full) {
            fprintf(stderr, "hinesbatch solve: out of host memory\n");
            return 1;
        }
        if (!multi)
            for (int64_t s = 0; s < nsys; ++s)
                memcpy(full + s * n, parent, (size_t)n * sizeof *parent);
        st = hb_hines_residual(prec, nsys, offsets, full, u, l, d, x, rhs, &ratio, &worst);
        if (!multi)
            free(full);
    }
    if (st != HB_SUCCESS) {
        fprintf(stderr, "hinesbatch solve: %s: %s\n", hb_status_string(st), hb_last_error());
        hb_plan_destroy(plan);
        hb_context_destroy(ctx);
        return 1;
    }
    printf("systems: %lld x %lld rows (%s, %s)\n", (long long)nsys, (long long)n,
           multi ? "multi-morphology" : "mono-morphology", prec == HB_DOUBLE ? "double" : "float");
    printf("solve + read-back: %.3f ms best of %d; upload of d and rhs: %.3f ms mean\n",
           best * 1e3, reps, setup / reps * 1e3);
    printf("throughput: %.3g rows/s\n", (double)total / best);
    printf("worst residual ratio: %.3g (system %lld; a correct solve stays under 30)\n", ratio,
           (long long)worst);
    hb_plan_destroy(plan);
    hb_context_destroy(ctx);
    free(offsets);
    free(parent);
    free(buf);
    return ratio < 30 ? 0 : 1;
}
