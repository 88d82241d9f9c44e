/* cmd_morph.c: `hinesbatch morph FILE.swc`: load a neuron, discretise it, print its statistics. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "hinesbatch_morph.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: hinesbatch morph FILE.swc [--policy sample|section] [--nseg N | --d-lambda X]\n"
            "                        [--scale S] [--repair-radii] [--reroot] [--ra OHM_CM] [--cm "
            "UF_CM2]\n"
            "                        [--max-compartments N]\n"
            "Reads an SWC file, cuts it into compartments (one per sample, or NEURON-style\n"
            "sections of N compartments each, or as many as the d_lambda rule at 100 Hz asks)\n"
            "and prints the statistics of the Hines system: nodes, branches, branch points,\n"
            "tips, depth in branches (levels), branches per level and the longest branch.\n"
            "--scale multiplies coordinates and radii (1e-3 for files in nm); --reroot re-roots\n"
            "at the compartment that minimises the depth; a cell of more than\n"
            "--max-compartments N compartments (default 1000000, at most 2147483647) is refused.\n");
}

static const char *soma_name(hb_soma_kind k)
{
    switch (k) {
    case HB_SOMA_SINGLE_POINT:
        return "single point (sphere)";
    case HB_SOMA_THREE_POINT:
        return "NeuroMorpho 3-point (sphere)";
    case HB_SOMA_SAMPLES:
        return "several samples (frusta)";
    default:
        return "none (root is not type 1)";
    }
}

static int number(const char *v, double *x)
{
    char *end;
    *x = strtod(v, &end);
    return end != v && !*end;
}

int hb_cmd_morph(int argc, char **argv)
{
    const char *path = NULL;
    hb_swc_options so;
    hb_discretize_options dopt;
    hb_cable cable;
    hb_swc_options_init(&so);
    hb_discretize_options_init(&dopt);
    hb_cable_init(&cable);
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        double x = 0;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--reroot")) {
            dopt.reroot = 1;
        } else if (!strcmp(a, "--repair-radii")) {
            so.repair_radii = 1;
        } else if (v && !strcmp(a, "--policy") && (!strcmp(v, "sample") || !strcmp(v, "section"))) {
            dopt.policy = !strcmp(v, "sample") ? HB_POLICY_SAMPLE : HB_POLICY_SECTION, ++i;
        } else if (v && !strcmp(a, "--nseg") && number(v, &x) && x >= 1 && x <= 1e6 &&
                   x == (int)x) {
            dopt.policy = HB_POLICY_SECTION, dopt.nseg = (int32_t)x, ++i;
        } else if (v && !strcmp(a, "--d-lambda") && number(v, &x) && x > 0) {
            dopt.policy = HB_POLICY_SECTION, dopt.nseg = 0, dopt.d_lambda = x, ++i;
        } else if (v && !strcmp(a, "--max-compartments") && number(v, &x) && x >= 1 &&
                   x <= 2147483647.0 && x == (double)(int64_t)x) {
            dopt.max_compartments = (int64_t)x, ++i;
        } else if (v && !strcmp(a, "--scale") && number(v, &x) && x > 0) {
            so.scale = x, ++i;
        } else if (v && !strcmp(a, "--ra") && number(v, &x) && x > 0) {
            cable.ra = x, ++i;
        } else if (v && !strcmp(a, "--cm") && number(v, &x) && x > 0) {
            cable.cm = x, ++i;
        } else if (a[0] != '-' && !path) {
            path = a;
        } else {
            fprintf(stderr, "hinesbatch morph: unknown, incomplete or bad option '%s'\n", a);
            usage(stderr);
            return 2;
        }
    }
    if (!path) {
        usage(stderr);
        return 2;
    }
    hb_morph *m = NULL;
    hb_morph_cell *cell = NULL;
    hb_status st = hb_morph_read_swc(path, &so, &m);
    if (st == HB_SUCCESS)
        st = hb_morph_cell_create(m, &dopt, &cable, &cell);
    hb_morph_info info;
    hb_morph_cell_view view;
    hb_tree_stats ts;
    if (st == HB_SUCCESS)
        st = hb_morph_get_info(m, &info);
    if (st == HB_SUCCESS)
        st = hb_morph_cell_get_view(cell, &view);
    if (st == HB_SUCCESS)
        st = hb_morph_tree_stats(view.n, view.parent, &ts);
    int64_t *per_level = NULL;
    if (st == HB_SUCCESS) {
        per_level = malloc((size_t)ts.levels * sizeof *per_level);
        st = per_level ? hb_morph_tree_level_counts(view.n, view.parent, ts.levels, per_level)
                       : HB_ERR_OUT_OF_MEMORY;
    }
    if (st != HB_SUCCESS) {
        fprintf(stderr, "hinesbatch morph: %s: %s\n", hb_status_string(st), hb_last_error());
        free(per_level);
        hb_morph_cell_destroy(cell);
        hb_morph_destroy(m);
        return 1;
    }
    double area = 0;
    for (int64_t k = 0; k < view.n; ++k)
        area += view.area[k];
    printf("file:            %s\n", path);
    printf("samples:         %lld (radii repaired: %lld)\n", (long long)info.samples,
           (long long)info.repaired);
    printf("soma:            %s", soma_name(info.soma));
    if (info.soma_radius > 0)
        printf(", radius %.4g um", info.soma_radius);
    printf("\ntotal length:    %.6g um\nmembrane area:   %.6g um^2\n", info.total_length, area);
    if (dopt.policy == HB_POLICY_SAMPLE)
        printf("policy:          one compartment per sample");
    else if (dopt.nseg > 0)
        printf("policy:          sections, nseg %d", (int)dopt.nseg);
    else
        printf("policy:          sections, d_lambda %g at 100 Hz (Ra %g ohm*cm, cm %g uF/cm2)",
               dopt.d_lambda, cable.ra, cable.cm);
    printf("%s\n", dopt.reroot ? ", re-rooted to minimise the depth" : "");
    printf("nodes:           %lld\n", (long long)ts.nodes);
    printf("branches:        %lld\n", (long long)ts.branches);
    printf("branch points:   %lld\n", (long long)ts.branch_points);
    printf("tips:            %lld\n", (long long)ts.tips);
    printf("levels:          %lld\n", (long long)ts.levels);
    printf("longest branch:  %lld nodes\n", (long long)ts.longest_branch);
    printf("branches per level:");
    for (int64_t j = 0; j < ts.levels; ++j)
        printf(" %lld", (long long)per_level[j]);
    printf("\n");
    free(per_level);
    hb_morph_cell_destroy(cell);
    hb_morph_destroy(m);
    return 0;
}
