/* morph_internal.h: what the files of api/morph share beyond the public header: a morphology's source name, the cell's fields, NEURON's conventions. */
#ifndef HB_MORPH_INTERNAL_H
#define HB_MORPH_INTERNAL_H

#include "hinesbatch_morph.h"

#include <math.h>

/* The name the morphology was read from (file path, or the name given to
 * hb_morph_parse_swc), so later errors can say "NAME:LINE: sample ID". */
const char *hb__morph_name(const hb_morph *morph);

/* A discretised cell (hinesbatch_morph.h's hb_morph_cell): n compartments. */
struct hb_morph_cell {
    int64_t n;
    int32_t *parent, *type;
    double *area, *diam, *g, *dist;
    int64_t *source;
    hb_cable cable;
};

/* A cell of n compartments, every array zeroed; NULL when out of memory. */
hb_morph_cell *hb__morph_cell_alloc(int64_t n);

/* Compartments of a section L um long under the seg_length rule (Hay et
 * al.'s 1 + 2 floor(L / seg_length)); a double, compared against the cap
 * before it is converted. The rule that sets a section's count, and its
 * parameter, for messages. */
static inline double hb__nseg_per_length(double L, double seg_length)
{
    return 1.0 + 2.0 * floor(L / seg_length);
}
static inline const char *hb__nseg_rule(const hb_discretize_options *o)
{
    return o->nseg > 0 ? "nseg" : o->seg_length > 0 ? "seg_length" : "d_lambda";
}
static inline double hb__nseg_rule_value(const hb_discretize_options *o)
{
    return o->nseg > 0 ? (double)o->nseg : o->seg_length > 0 ? o->seg_length : o->d_lambda;
}

/* NEURON's conventions (morph_neuron.c): the compartments of NEURON's own
 * import of the morphology (Import3d) with nseg, the seg_length rule or the d_lambda rule, in
 * breadth-first order from the root section's middle (parent < child; not yet
 * in Hines order). opts and cable already checked; fn names the caller in
 * messages. */
hb_status hb__morph_cell_neuron(const hb_morph *morph, const hb_discretize_options *opts,
                                const hb_cable *cable, const char *fn, hb_morph_cell **cell);

#endif /* HB_MORPH_INTERNAL_H */
