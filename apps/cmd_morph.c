/* cmd_morph.c: `hinesbatch morph FILE.swc`: load a neuron, discretise it, print its statistics. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_opts.h"
#include "cli_parse.h"
#include "commands.h"
#include "hinesbatch_morph.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: hinesbatch morph FILE.swc [--policy sample|section]\n"
            "                        [--nseg N | --d-lambda X | --seg-length UM]\n"
            "                        [--scale S] [--repair-radii] [--reroot] [--ra OHM_CM] [--cm "
            "UF_CM2]\n"
            "                        [--max-compartments N] [--neuron-conventions]\n"
            "Reads an SWC file, cuts it into compartments (one per sample, or NEURON-style\n"
            "sections of N compartments each, as many as the d_lambda rule at 100 Hz asks, or\n"
            "1 + 2 floor(L / UM) for a section of length L with --seg-length UM)\n"
            "and prints the statistics of the Hines system: nodes, branches, branch points,\n"
            "tips, depth in branches (levels), branches per level and the longest branch.\n"
            "--scale multiplies coordinates and radii (1e-3 for files in nm); --reroot re-roots\n"
            "at the compartment that minimises the depth; a cell of more than\n"
            "--max-compartments N compartments (default 1000000, at most 2147483647) is refused.\n"
            "--neuron-conventions builds the sections as NEURON's Import3d does (soma a cylinder,\n"
            "children joined to its middle, NEURON's areas and resistances, zero-area nodes at\n"
            "section ends folded in; implies --policy section; docs/morphology.md).\n"
            CLI_EXIT_HELP);
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

#define CMD "morph"

enum { OPT_POLICY = 256, OPT_NSEG, OPT_DLAMBDA, OPT_SCALE, OPT_REPAIR, OPT_REROOT, OPT_RA, OPT_CM,
       OPT_MAXCOMP, OPT_NRNCONV, OPT_SEGLEN };

int hb_cmd_morph(int argc, char **argv)
{
    static const struct option opts[] = {
        {"policy", required_argument, 0, OPT_POLICY}, {"nseg", required_argument, 0, OPT_NSEG},
        {"d-lambda", required_argument, 0, OPT_DLAMBDA}, {"scale", required_argument, 0, OPT_SCALE},
        {"repair-radii", no_argument, 0, OPT_REPAIR}, {"reroot", no_argument, 0, OPT_REROOT},
        {"ra", required_argument, 0, OPT_RA},         {"cm", required_argument, 0, OPT_CM},
        {"max-compartments", required_argument, 0, OPT_MAXCOMP},
        {"neuron-conventions", no_argument, 0, OPT_NRNCONV},
        {"seg-length", required_argument, 0, OPT_SEGLEN},
        {"help", no_argument, 0, 'h'},                {0, 0, 0, 0}};
    static const char *const policies[] = {"sample", "section"};
    hb_swc_options so;
    hb_discretize_options dopt;
    hb_cable cable;
    hb_swc_options_init(&so);
    hb_discretize_options_init(&dopt);
    hb_cable_init(&cable);
    int policy = -1, nseg_given = 0, dlambda_given = 0, seglen_given = 0;
    cli_opts o;
    cli_opts_init(&o, CMD, argc, argv, opts);
    for (int c; (c = cli_opts_next(&o)) != CLI_OPTS_END;) {
        int ok = 1;
        switch (c) {
        case 'h':
            usage(stdout);
            return CLI_EXIT_OK;
        case OPT_POLICY:
            ok = cli_choice(CMD, o.flag, o.value, policies, 2, &policy);
            break;
        case OPT_NSEG:
            ok = cli_int32(CMD, o.flag, o.value, 1, 1000000, &dopt.nseg);
            nseg_given = 1;
            break;
        case OPT_DLAMBDA:
            ok = cli_real(CMD, o.flag, o.value, 0, 1e6, CLI_LO_OPEN, &dopt.d_lambda);
            dlambda_given = 1;
            break;
        case OPT_SEGLEN:
            ok = cli_real(CMD, o.flag, o.value, 0, 1e9, CLI_LO_OPEN, &dopt.seg_length);
            seglen_given = 1;
            break;
        case OPT_SCALE:
            ok = cli_real(CMD, o.flag, o.value, 0, 1e9, CLI_LO_OPEN, &so.scale);
            break;
        case OPT_REPAIR:
            so.repair_radii = 1;
            break;
        case OPT_REROOT:
            dopt.reroot = 1;
            break;
        case OPT_RA:
            ok = cli_real(CMD, o.flag, o.value, 0, 1e12, CLI_LO_OPEN, &cable.ra);
            break;
        case OPT_CM:
            ok = cli_real(CMD, o.flag, o.value, 0, 1e12, CLI_LO_OPEN, &cable.cm);
            break;
        case OPT_MAXCOMP:
            ok = cli_int(CMD, o.flag, o.value, 1, INT32_MAX, &dopt.max_compartments);
            break;
        case OPT_NRNCONV:
            dopt.conventions = HB_CONVENTIONS_NEURON;
            break;
        default:
            ok = 0;
        }
        if (!ok)
            return CLI_EXIT_USAGE;
    }
    char **files;
    int nfiles = cli_opts_operands(&o, &files, 1);
    if (nfiles < 0)
        return CLI_EXIT_USAGE;
    if (nfiles == 0) {
        fprintf(stderr, "hinesbatch morph: no SWC file given\n");
        usage(stderr);
        return CLI_EXIT_USAGE;
    }
    const char *path = files[0];
    /* --nseg and --d-lambda choose NEURON-style sections; they contradict
     * each other and --policy sample. */
    if (nseg_given + dlambda_given + seglen_given > 1) {
        fprintf(stderr, "hinesbatch morph: --nseg, --d-lambda and --seg-length exclude each other\n");
        return CLI_EXIT_USAGE;
    }
    if (policy == 0 && (nseg_given || dlambda_given || seglen_given)) {
        fprintf(stderr, "hinesbatch morph: %s needs --policy section (or no --policy)\n",
                nseg_given ? "--nseg" : dlambda_given ? "--d-lambda" : "--seg-length");
        return CLI_EXIT_USAGE;
    }
    if (policy == 0 && dopt.conventions == HB_CONVENTIONS_NEURON) {
        fprintf(stderr, "hinesbatch morph: --neuron-conventions needs --policy section (or no "
                        "--policy)\n");
        return CLI_EXIT_USAGE;
    }
    if (policy == 1 || nseg_given || dlambda_given || seglen_given ||
        dopt.conventions == HB_CONVENTIONS_NEURON)
        dopt.policy = HB_POLICY_SECTION;
    else if (policy == 0)
        dopt.policy = HB_POLICY_SAMPLE;
    if (dlambda_given || seglen_given)
        dopt.nseg = 0; /* nseg 0: the d_lambda or the seg_length rule */
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
        return CLI_EXIT_FAIL;
    }
    double area = 0;
    int64_t zero_area = 0;
    for (int64_t k = 0; k < view.n; ++k)
        area += view.area[k], zero_area += view.area[k] == 0;
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
    else if (dopt.seg_length > 0)
        printf("policy:          sections, 1 + 2 floor(L / %g um) each", dopt.seg_length);
    else
        printf("policy:          sections, d_lambda %g at 100 Hz (Ra %g ohm*cm, cm %g uF/cm2)",
               dopt.d_lambda, cable.ra, cable.cm);
    printf("%s\n", dopt.reroot ? ", re-rooted to minimise the depth" : "");
    if (dopt.conventions == HB_CONVENTIONS_NEURON)
        printf("conventions:     NEURON (Import3d); %lld zero-area nodes kept at branch points\n",
               (long long)zero_area);
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
    return CLI_EXIT_OK;
}
