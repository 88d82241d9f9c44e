/* hinesbatch_morph.h: neurons: SWC files, compartments, statistics, synthetic cells, batches. */
#ifndef HINESBATCH_MORPH_H
#define HINESBATCH_MORPH_H

#include "hinesbatch.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Units everywhere in this header: lengths and radii um, areas um^2, time ms,
 * voltage mV, capacitance uF/cm^2 (specific), axial resistivity ohm*cm,
 * membrane conductance S/cm^2 (specific), conductances uS, currents nA
 * (uS * mV = nA). See docs/morphology.md for the conventions in full. */

/* ---- SWC files ------------------------------------------------------------
 * Seven columns per sample: id type x y z radius parent. '#' starts a comment
 * (whole lines or after data); LF and CRLF line ends; ids may start anywhere
 * (>= 0) and have gaps; parents may come after their children (samples are
 * sorted so every parent precedes its children). Exactly one root (parent
 * -1). Somata: NeuroMorpho's 3-point soma (root plus two type-1 tips at
 * centre +/- r, same radius) and a single-point soma become one sphere of the
 * root's radius; a soma of several samples is a chain of frusta like any
 * other. Errors: HB_ERR_IO (cannot read the file), HB_ERR_PARSE with a message
 * "NAME:LINE: ..." naming the line: unparseable line or column, duplicate id,
 * missing parent, cycle, no root or more than one root, non-positive radius,
 * a value that is not finite once scaled, a segment whose length is not
 * finite (and "NAME: ..." when the total length is not). Untrusted files are
 * safe to read: memory and time are linear in the file's size, and no value
 * that is not finite reaches a morphology. */
typedef struct hb_morph hb_morph;

typedef struct {
    double scale;        /* multiplies x, y, z and radius (1e-3 for files in nm); 1 */
    int    repair_radii; /* 0: a radius <= 0 is an error. 1: it takes its parent's
                            radius (after the parent's own repair); a root takes
                            the smallest positive radius of its children      */
} hb_swc_options;

HB_API void hb_swc_options_init(hb_swc_options *opts);     /* scale 1, no repair */
/* Reads an SWC file. opts may be NULL (defaults). */
HB_API hb_status hb_morph_read_swc(const char *path, const hb_swc_options *opts, hb_morph **morph);
/* Parses SWC text of len bytes (need not be NUL-terminated; any bytes are
 * accepted and checked, as from a file); name is used in messages (NULL:
 * "<string>"). */
HB_API hb_status hb_morph_parse_swc(const char *text, size_t len, const char *name,
                                    const hb_swc_options *opts, hb_morph **morph);
HB_API void hb_morph_destroy(hb_morph *morph);             /* NULL is fine */

typedef enum {
    HB_SOMA_NONE = 0,      /* the root is not of type 1                              */
    HB_SOMA_SINGLE_POINT,  /* one type-1 sample: a sphere                            */
    HB_SOMA_THREE_POINT,   /* NeuroMorpho's 3 samples: a sphere of the root's radius */
    HB_SOMA_SAMPLES        /* several type-1 samples: frusta                         */
} hb_soma_kind;

typedef struct {
    int64_t      samples;        /* samples in the file                             */
    int64_t      repaired;       /* radii replaced (repair_radii)                   */
    hb_soma_kind soma;
    double       soma_radius;    /* sphere radius (single/three-point soma), else 0 */
    double       total_length;   /* sum of segment lengths (3-point soma excluded)   */
} hb_morph_info;

typedef struct {
    int64_t id;        /* id in the file                                             */
    int32_t type;      /* SWC type (1 soma, 2 axon, 3 basal, 4 apical, others kept)  */
    double  x, y, z, radius;
    int64_t parent;    /* index (not id) of the parent sample; -1 for the root       */
    int64_t line;      /* line of the file                                           */
} hb_swc_sample;

HB_API hb_status hb_morph_get_info(const hb_morph *morph, hb_morph_info *info);
/* Sample k in sorted order (0 = root; parents precede children). */
HB_API hb_status hb_morph_sample(const hb_morph *morph, int64_t k, hb_swc_sample *sample);

/* ---- Discretisation into compartments ------------------------------------- */
typedef enum {
    HB_POLICY_SAMPLE = 0,  /* one compartment per sample (a sphere soma is one)       */
    HB_POLICY_SECTION      /* NEURON-style sections (unbranched runs between branch
                              points, type changes and the soma), nseg each        */
} hb_morph_policy;

/* How a SECTION cell is built from the samples (docs/morphology.md). */
typedef enum {
    HB_CONVENTIONS_HINESBATCH = 0, /* dendrites start on a sphere soma's surface; a child
                                      section's first compartment joins its parent's last */
    HB_CONVENTIONS_NEURON          /* NEURON's Import3d and Arbor: sections and 3-D points as
                                      Import3d makes them (a 1- or 3-point soma is a cylinder
                                      of length and diameter 2r, children joined to its
                                      middle), NEURON's segment areas and resistances, and
                                      its zero-area node at every section end folded in */
} hb_conventions;

/* The most compartments a cell may have when opts.max_compartments is 0:
 * an untrusted file (a 38-byte SWC with d_lambda 0.1 asks for 21 million)
 * or option (nseg 1000000) is refused before any compartment is allocated. */
#define HB_DEFAULT_MAX_COMPARTMENTS 1000000

typedef struct {
    hb_morph_policy policy;
    int32_t nseg;      /* SECTION: compartments per section; 0 = a rule: seg_length
                          when it is > 0, else d_lambda                          */
    double  d_lambda;  /* fraction of lambda at 100 Hz when nseg == 0 (NEURON 0.1)  */
    int     reroot;    /* 1: re-root at the compartment that minimises the depth in
                          branches (tree balancing); the matrix is the same system  */
    int64_t max_compartments; /* a cell needing more is HB_ERR_INVALID_ARGUMENT,
                                 found before allocating; 0: the default
                                 HB_DEFAULT_MAX_COMPARTMENTS; at most 2^31-1      */
    hb_conventions conventions; /* NEURON needs policy SECTION; default HINESBATCH       */
    double  seg_length; /* SECTION with nseg == 0: > 0 gives each section of length L
                           1 + 2 floor(L / seg_length) compartments (Hay et al.'s
                           rule) in place of d_lambda; 0 (default): d_lambda, um */
} hb_discretize_options;

/* Passive cable constants of a cell. */
typedef struct {
    double ra;  /* axial resistivity, ohm*cm (NEURON default 35.4)                  */
    double cm;  /* specific membrane capacitance, uF/cm^2 (1)                       */
    double gm;  /* passive membrane conductance, S/cm^2, in the matrix diagonal (0) */
} hb_cable;

/* policy SAMPLE, nseg 1, d_lambda 0.1, no re-rooting, max_compartments 0 (the default cap),
 * conventions HINESBATCH. */
HB_API void hb_discretize_options_init(hb_discretize_options *opts);
/* ra 35.4, cm 1, gm 0. */
HB_API void hb_cable_init(hb_cable *cable);

/* A discretised neuron: compartments numbered in Hines order with every branch
 * contiguous (parent < child; branches numbered breadth-first from the root). */
typedef struct hb_morph_cell hb_morph_cell;

/* opts and cable may be NULL (defaults). Errors: HB_ERR_INVALID_ARGUMENT for
 * bad options or cable constants; for a cell of more than max_compartments
 * compartments (the message names the count, the cap and the section's sample
 * and line); and for a compartment whose area, axial conductance or distance
 * is not finite (or a conductance that underflows to 0, or a cell with no
 * membrane area), naming "NAME:LINE: sample ID". */
HB_API hb_status hb_morph_cell_create(const hb_morph *morph, const hb_discretize_options *opts,
                                      const hb_cable *cable, hb_morph_cell **cell);
/* A cell from any tree (parent[k] < k, parent[0] = -1) of n compartments, each a
 * cylinder of the given length and diameter (um); renumbered into Hines order. */
HB_API hb_status hb_morph_cell_from_parent(int64_t n, const int32_t *parent, double length,
                                           double diam, const hb_cable *cable,
                                           hb_morph_cell **cell);
HB_API void hb_morph_cell_destroy(hb_morph_cell *cell);    /* NULL is fine */

/* Read-only arrays of a cell, valid while the cell lives. */
typedef struct {
    int64_t        n;          /* compartments                                      */
    const int32_t *parent;     /* local parent, -1 at row 0                          */
    const double  *area;       /* membrane area, um^2 (0: a zero-area node that NEURON
                                  conventions keep where three or more meet)       */
    const double  *g_axial;    /* conductance to the parent, uS; 0 at the root       */
    const double  *distance;   /* path distance of the compartment centre, um, from
                                  the root sample's point (from the new root's
                                  centre after re-rooting; NEURON conventions: from
                                  the middle of the root section, soma(0.5))        */
    const int32_t *type;       /* SWC type                                           */
    const int64_t *source;     /* where the compartment came from: the morph sample
                                  (SAMPLE policy; SECTION: the sample ending the
                                  segment that holds its centre; NEURON: the sample
                                  of the first 3-D point at or past it), or the node index
                                  given to hb_morph_cell_from_parent / made by a
                                  generator; kept by re-rooting                     */
    hb_cable       cable;
    const double  *diam;       /* mean diameter over the compartment, um (NEURON
                                  conventions: seg.diam, the segment's mean of the
                                  3-D diameters interpolated along it; a kept
                                  zero-area node: the 3-D diameter at its point; a
                                  sphere soma: the sphere's)                        */
} hb_morph_cell_view;

HB_API hb_status hb_morph_cell_get_view(const hb_morph_cell *cell, hb_morph_cell_view *view);
/* Re-roots a cell at the compartment that minimises its depth in branches (the
 * fine-tree solver's tree balancing; keeps the root when it is already
 * optimal) and renumbers it in Hines order. Areas, conductances and sources
 * move with their compartments, so it is the same linear system. */
HB_API hb_status hb_morph_cell_reroot(hb_morph_cell *cell);

/* The implicit Euler step of the passive cable, NEURON's convention, as
 * currents (nA) per compartment k with C_k = cm*area_k, G_k = gm*area_k:
 *   C_k/dt (V_k' - V_k) + sum_j g_kj (V_k' - V_j') + G_k V_k' = I_k
 * so d_k = C_k/dt + G_k + sum_j g_kj (j over parent and children),
 *    u_k = l_k = -g_axial[k] (k > 0; 0 at the root),
 * and the right-hand side is C_k/dt V_k + I_k (channel currents add to d and
 * rhs per step). dt in ms; dt = INFINITY gives the steady state (no C/dt
 * term). Writes n entries of d, u and l (flat, Hines order). A dt so small
 * that an entry would not be finite is HB_ERR_INVALID_ARGUMENT (nothing
 * written). */
HB_API hb_status hb_morph_cell_matrix(const hb_morph_cell *cell, double dt, double *d, double *u,
                                      double *l);
/* C_k/dt in uS (what the rhs needs each step); n entries. */
HB_API hb_status hb_morph_cell_cdt(const hb_morph_cell *cell, double dt, double *cdt);

/* ---- Tree statistics ------------------------------------------------------
 * On any parent array (parent[0] = -1, 0 <= parent[k] < k). A branch is a
 * maximal run of nodes each the only child of the one before; it starts at the
 * root and at every child of a node with two or more children. Level 1 is the
 * root's branch. */
typedef struct {
    int64_t nodes;
    int64_t branches;
    int64_t branch_points;  /* nodes with >= 2 children      */
    int64_t tips;           /* nodes with no child            */
    int64_t levels;         /* depth in branches              */
    int64_t longest_branch; /* nodes in the longest branch    */
    int64_t max_level_width;/* most branches on one level     */
} hb_tree_stats;

HB_API hb_status hb_morph_tree_stats(int64_t n, const int32_t *parent, hb_tree_stats *stats);
/* Branches on each level: counts[0 .. cap-1] for levels 1..cap; cap must be
 * >= stats.levels. */
HB_API hb_status hb_morph_tree_level_counts(int64_t n, const int32_t *parent, int64_t cap,
                                            int64_t *counts);
/* Hines order with every branch contiguous (branches breadth-first from the
 * root, children in index order): new_of_old[k] is the new index of node k,
 * new_parent the renumbered parent array (both n entries). */
HB_API hb_status hb_morph_tree_order(int64_t n, const int32_t *parent, int32_t *new_of_old,
                                     int32_t *new_parent);

/* ---- Synthetic neurons (compartments: cylinders of `length` um, `diam` um) */
typedef struct {
    double   length;  /* um per compartment (10)            */
    double   diam;    /* um (1)                              */
    hb_cable cable;   /* hb_cable_init's values              */
} hb_synth_geometry;
HB_API void hb_synth_geometry_init(hb_synth_geometry *g);

/* (a) The multi-morphology paper's pattern: n nodes, `levels` branch levels;
 * the first branch has n/2 nodes, then a binary tree whose branches halve in
 * length per level, every level holding the same number of nodes: level
 * j >= 2 has 2^(j-1) branches of (n/2) / (2^(j-1) * D) nodes, D =
 * max(levels - 1, 4). 512 nodes, 4 levels: 256, 2x32, 4x16, 8x8 (448 nodes);
 * from 5 levels on the levels fill n exactly. Nodes left over (rounding, or
 * fewer than 5 levels) are shared out among the last level's branches
 * (512/4: 8x16). Needs 1 <= levels <= 30 and n >= 2^levels * D (any n >= 1
 * for one level). geometry may be NULL. */
HB_API hb_status hb_morph_synth_levels(int64_t n, int32_t levels, const hb_synth_geometry *geometry,
                                       hb_morph_cell **cell);

/* (b) Arbor's random-branching cells (miniapps' "branch_probs" and "lengths"):
 * each branch of level j (1-based) ends in a bifurcation with probability
 * p(j) = p_start + (p_end - p_start)*(j-1)/(levels-1), never on the last level,
 * and is length(j) um long, interpolated the same way from len_start to
 * len_end, cut into max(1, round(length/geometry.length)) compartments. */
typedef struct {
    int32_t  levels;       /* 1..30                      */
    double   p_start, p_end;
    double   len_start, len_end;
    uint64_t seed;
} hb_synth_random_params;
HB_API hb_status hb_morph_synth_random(const hb_synth_random_params *params,
                                       const hb_synth_geometry *geometry, hb_morph_cell **cell);

/* (c) n nodes of which round(percent/100*n) are branch points (two children
 * each), tree shape and branch lengths drawn from seed. Needs 2*B + 1 <= n. */
HB_API hb_status hb_morph_synth_branchy(int64_t n, double percent, uint64_t seed,
                                        const hb_synth_geometry *geometry, hb_morph_cell **cell);

/* ---- Batches: arrays for hb_plan_create_hines / hb_dhines_solve ---------- */
typedef struct hb_morph_batch hb_morph_batch;

typedef struct {
    int64_t        nsys;
    int64_t        rows;      /* offsets[nsys]                                     */
    int64_t        n;         /* rows per system when mono, else 0                 */
    const int64_t *offsets;   /* nsys + 1                                          */
    const int32_t *parent;    /* rows entries, local indices (for hb_plan_create_hines
                                 and hb_dhines_solve); mono: parent[0..n) is the tree
                                 for hb_plan_create_hines_uniform                 */
    const double  *d, *u, *l; /* rows entries each: the implicit Euler matrix       */
    const double  *cdt;       /* rows entries: C/dt, uS (rhs = cdt*V + I)           */
    const double  *area;      /* rows entries, um^2                                 */
} hb_morph_batch_view;

/* nsys copies of one cell (mono-morphology). */
HB_API hb_status hb_morph_batch_mono(const hb_morph_cell *cell, int64_t nsys, double dt,
                                     hb_morph_batch **batch);
/* One system per cell (multi-morphology; the same cell may appear several times). */
HB_API hb_status hb_morph_batch_multi(const hb_morph_cell *const *cells, int64_t ncells, double dt,
                                      hb_morph_batch **batch);
HB_API hb_status hb_morph_batch_get_view(const hb_morph_batch *batch, hb_morph_batch_view *view);
HB_API void hb_morph_batch_destroy(hb_morph_batch *batch); /* NULL is fine */

#ifdef __cplusplus
}
#endif
#endif /* HINESBATCH_MORPH_H */
