/* tcheck_cell.h: what the t checks' small programs (point_run.c, stp_net.c) share: a status check that reports and exits main, the one-compartment cell of soma.swc, and the engine and precision from their arguments. */
#ifndef TCHECK_CELL_H
#define TCHECK_CELL_H

#include <stdio.h>
#include <stdlib.h>

#include "hinesbatch.h"
#include "hinesbatch_sim.h"

/* In main: a failed call prints the program (TCHECK_NAME), the call and the
 * library's message, and returns 1. */
#define CHECK(x)                                                                            \
    do {                                                                                    \
        hb_status s_ = (x);                                                                 \
        if (s_ != HB_SUCCESS) {                                                             \
            fprintf(stderr, "%s: %s: %s: %s\n", TCHECK_NAME, #x, hb_status_string(s_),     \
                    hb_last_error());                                                       \
            return 1;                                                                       \
        }                                                                                   \
    } while (0)

/* The cell of SWC file `path` with the default discretisation and cable. */
static hb_status tcheck_cell(const char *path, hb_morph_cell **cell)
{
    hb_swc_options so;
    hb_swc_options_init(&so);
    hb_morph *m = NULL;
    hb_status st = hb_morph_read_swc(path, &so, &m);
    if (st != HB_SUCCESS)
        return st;
    hb_discretize_options d;
    hb_discretize_options_init(&d);
    hb_cable cab;
    hb_cable_init(&cab);
    st = hb_morph_cell_create(m, &d, &cab, cell);
    hb_morph_destroy(m);
    return st;
}

/* The simulation parameters of the programs' ENGINE (0 auto, 1 stages, 2
 * cells) and PRECISION (0 double, 1 float) arguments, the rest at defaults. */
static hb_sim_params tcheck_params(const char *engine, const char *precision)
{
    hb_sim_params p;
    hb_sim_params_init(&p);
    p.engine = (hb_sim_engine)atoi(engine);
    p.precision = atoi(precision) ? HB_FLOAT : HB_DOUBLE;
    return p;
}

#endif
