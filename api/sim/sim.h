/* sim.h: the simulation object shared by the files of api/sim/ (internal). */
#ifndef HB_SIM_INTERNAL_H
#define HB_SIM_INTERNAL_H

#include "hb_catalogue_info.h"
#include "hb_sim_ops.h"
#include "hinesbatch_sim.h"

#include <stdatomic.h>
#include <string.h>

typedef struct {
    int64_t row;      /* flat row                                 */
    int64_t on, off;  /* on for steps on <= step < off            */
    double  amp;      /* nA                                       */
} hb_sim_clamp;

/* The model on the host until it is set up on the backend (sim_model.c). */
typedef struct {
    uint8_t *on;      /* nrows: the mechanism is in the compartment (NULL: nowhere) */
    double  *prm;     /* nrows x nparam, row by row                              */
    int64_t  count;   /* compartments that carry it                              */
} hb_sim_density;
typedef struct {
    int32_t mech;
    int64_t row;
    int64_t prm;      /* its parameters at point_prm[prm ..]                    */
} hb_sim_point;
typedef struct {
    int64_t point, step, seq;
    double  weight;
    double  time;     /* ms: the delivery time NET_RECEIVE reads as t (within the step) */
    int64_t stream;   /* its connection (hb__sim_add_stream); -1: the point's own      */
} hb_sim_event;
/* A value set for a connection's NET_RECEIVE argument q + 1 (after the
 * weight) before the build (hb_net_set_values). One call's values are
 * consecutive entries, q = 0 .. n - 1; its first entry holds n and the first
 * entry of the stream's call before (prev, -1: none), so reading a
 * connection's values walks its own calls, not every connection's. */
typedef struct {
    int64_t stream;
    int32_t q;
    int32_t n;     /* first entry of a call: its count */
    int64_t prev;  /* first entry of a call: the stream's call before */
    double  value;
} hb_sim_conn_value;
typedef struct {
    hb_sim_density dens[HB_CAT_INFO_NMECH];
    hb_sim_point  *points;
    int64_t        npoints, point_cap;
    double        *point_prm;
    int64_t        point_prm_n, point_prm_cap;
    hb_sim_event  *events;   /* pending: not yet in a run's device table         */
    int64_t        nev, ev_cap, ev_seq; /* ev_seq: events ever added            */
    int64_t       *entry;    /* npoints: each point process's device entry (built) */
    /* Connections into point processes whose NET_RECEIVE keeps values per
     * connection (hb_cat_mech.nconn > 0): each one's point, made before the
     * build; then stream_off (built, nstream + npoints): where each keeps
     * 1 + nconn values in dev.mst, the connections first, then each point's
     * own (for events added to it directly); -1 where its mechanism has none. */
    int64_t       *stream_point;
    int64_t        nstream, stream_cap;
    int64_t       *stream_last; /* nstream: the first entry of its last call
                                   in conn_vals, -1: none                   */
    int64_t        stream_last_cap;
    int64_t       *stream_off;
    /* Values set for connections before the build, in the order set (a
     * later one for the same value wins); the rest start at 0. */
    hb_sim_conn_value *conn_vals;
    int64_t        nconn_vals, conn_vals_cap;
    /* Points whose mechanism sends self-events (HB_CAT_SEND): each keeps a
     * queue of HB_SIM_SELF_LEN values in dev.mst from self_off on, in the
     * order of their device entries (built). */
    int64_t        nself, self_off;
    double        *ion;      /* 3 nion nrows: per ion e, ci, co                   */
    int            nernst[HB_CAT_INFO_NION];
    uint8_t        keepi[HB_CAT_INFO_NMECH]; /* a probe records one of its currents */
    int            inserted; /* a mechanism was inserted: no default model        */
    int            built;    /* set up on the backend: no more changes            */
    int64_t        mtab[5 * HB_CAT_INFO_NMECH]; /* the device's (hb_sim_dev)        */
    int64_t        bytes;    /* parameters, state, ions and instance tables, bytes */
    int32_t       *type;     /* nrows: SWC type of each compartment                */
    double        *dist;     /* nrows: path distance of its centre, um            */
    double        *area;     /* nrows: um^2                                       */
    double        *diam;     /* nrows: mean diameter, um (hb_morph_cell_view.diam) */
    int64_t       *cellof;   /* nrows: its cell                                   */
} hb_sim_model;

/* Whether a catalogue parameter is the compartment's geometry, filled from
 * the morphology where the mechanism goes, never set by hand: NMODL's `diam`
 * (HB_SIM_GEOM_DIAM) or `area` (HB_SIM_GEOM_AREA); 0 for any other. */
enum { HB_SIM_GEOM_DIAM = 1, HB_SIM_GEOM_AREA = 2 };
static inline int hb__sim_geometry_param(const char *name)
{
    return strcmp(name, "diam") == 0 ? HB_SIM_GEOM_DIAM
                                     : strcmp(name, "area") == 0 ? HB_SIM_GEOM_AREA : 0;
}

/* Spikes on the host (sim_spikes.c). */
typedef struct {
    int64_t cell;
    double  t;
} hb_sim_spike;
typedef struct {
    double      **t;        /* ncells logs of every spike time, ms        */
    int64_t      *n, *cap;  /* their lengths and capacities               */
    int64_t      *seen;     /* ncells: spikes drained from the device     */
    int64_t      *count;    /* ncells: the device's counts (scratch)      */
    int64_t       drained;  /* the step of the last drain                 */
    int64_t       list_cap; /* the device list's capacity (dev.slist)     */
    int           collect;  /* keep each drain's spikes in fresh (networks) */
    hb_sim_spike *fresh;    /* spikes drained since the caller took them, by cell */
    int64_t       nfresh, fresh_cap;
} hb_sim_spikes;
/* A probe (sim_probe.c): what it records where; its kind as the kernels'
 * HB_PROBE_* (kernels_cl/sim/hb_mech_passes.cl). */
enum {
    HB_SIM_PROBE_V = 0,
    HB_SIM_PROBE_STATE = 1,
    HB_SIM_PROBE_PARAM = 2,
    HB_SIM_PROBE_ION = 3,
    HB_SIM_PROBE_ION_E = 4
};
typedef struct {
    int64_t cell, comp, row;  /* local compartment, flat row                  */
    int64_t point;            /* point process id, or -1                      */
    int64_t col;              /* its trace (column of rec)                    */
    int     kind;             /* HB_SIM_PROBE_*                               */
    int     mech, slot, ion;  /* mechanism and its slot or PARAMETER; ion and
                                 its slot (0 e, 1 i, 2 o)                     */
    int     cur;              /* 1: one of mech's currents (slot nstate + its
                                 index in cur_names, kept: HB_SIM_MT_KEEPI)   */
    char    what[64];         /* as hb_sim_get_trace_info gives it           */
} hb_sim_probe_spec;

struct hb_sim {
    hb_context   *ctx;
    const hb_sim_ops *ops;     /* the backend's engine steps               */
    hb_sim_params prm;
    hb_plan      *plan;
    size_t        esize;
    int64_t       ncells, nrows;
    hb_sim_model  model;
    int64_t      *offsets;     /* ncells + 1                               */
    int64_t      *soma;        /* local soma compartment of each cell      */
    int64_t      *detector;    /* NULL, or per cell its spike detector's local
                                  compartment (-1: the soma)                  */
    double       *cm;          /* nrows: specific capacitance, uF/cm^2     */
    double       *gax;         /* nrows: axial conductance to the parent, uS */
    int32_t      *lparent;     /* nrows: local parent (-1 at a cell's root) */
    hb_sim_dev    dev;
    hb_sim_clamp *clamps;
    int64_t       nclamps, clamp_cap;
    int64_t      *rec_cells;   /* nrec entries: the cell of each trace      */
    int64_t      *rec_probe;   /* nrec entries: its probe, -1 for hb_sim_record */
    int64_t       rec_cap;
    hb_sim_probe_spec *probes; /* nprobes, in call order                    */
    int64_t       nprobes, probe_cap;
    double      **traces;      /* nrec arrays of trace_cap samples         */
    int64_t       nsamples, trace_cap;
    int           started;     /* first run made the device tables          */
    int64_t       steps;
    int64_t       rec_rows;    /* samples waiting in dev.rec                */
    int64_t       ev_cap;      /* events dev.evstep, dev.evw and dev.evt hold */
    hb_sim_spikes spk;
    int           defer_finite; /* a network's part: hb_net_run checks at its end */
    hb_sim_timing timing;
    hb_sim_engine engine;      /* the engine that runs: stages or cells     */
    int           onchip;      /* cells on a GPU backend: ops->epoch        */
    int           epoch_stage; /* on chip: HB_EPOCH_STAGE_*, what is in local
                                  memory besides d, rhs and v               */
    int           epoch_pcr;   /* on chip: the trunk by PCR (its rows fit)    */
    int32_t       epoch_group; /* on chip: work-items per cell (0: the
                                  default, hb__epoch_group)                   */
    int           mono;        /* every cell the same (a uniform Hines plan) */
    atomic_int    busy;        /* a thread is inside a call that uses the state */
    char          note[300];   /* why the engine asked for is not running   */
    char          describe[1200];
};

/* HB_ERR_INVALID_ARGUMENT naming params->max_spikes or params->record_chunk
 * when the spike table (ncells x max_spikes) or the recording buffer (nrec x
 * record_chunk) has a size that overflows; HB_ERR_OUT_OF_MEMORY when they
 * cannot fit the device (api/core/memory.c). */
hb_status hb__sim_check_buffers(hb_sim *sim, int64_t nrec, const char *fn);

/* A simulation is used by one thread at a time (hinesbatch.h). The calls
 * that read or change its running state (run, clamps, recordings, traces,
 * spikes, state, time, timing) enter and leave; a thread that comes while
 * another is inside gets HB_ERR_BUSY naming fn. The getters of a const sim
 * enter too: the flag is the one member they write, and a simulation is never
 * made const. Only what is fixed at creation (rows, cell rows, soma,
 * describe) is read without it. */
hb_status hb__sim_enter(const hb_sim *sim, const char *fn);
void hb__sim_leave(const hb_sim *sim);
#define HB_SIM_GUARDED(sim, fn, call)                                      \
    do {                                                                   \
        if (!(sim))                                                        \
            return hb__error(HB_ERR_INVALID_ARGUMENT, fn ": sim is NULL"); \
        HB_FORWARD(hb__sim_enter(sim, fn));                                \
        hb_status hb__guarded_ = (call);                                   \
        hb__sim_leave(sim);                                                \
        return hb__guarded_;                                               \
    } while (0)

/* Trace columns and probes (sim_probe.c): a new column of rec for cell
 * (probe < 0: its soma voltage, hb_sim_record); at the first run, after the
 * model is built, the device's probe table, then the samples at t = 0. */
hb_status hb__sim_add_column(hb_sim *sim, int64_t cell, int64_t probe, const char *fn);
hb_status hb__sim_probe_start(hb_sim *sim);
hb_status hb__sim_probe_first(hb_sim *sim);

/* The model (sim_model.c): per-row tables from the cells at creation (with
 * sim->cm, gax and lparent, hb_sim_set_cm's: sim_cable.c); its
 * device tables and every instance's INITIAL at v_init, once, before the
 * first run or state read (the default model when nothing was inserted);
 * the host tables freed with the simulation; mechanism state read back. */
/* Each row's axial neighbours (dev.nbptr, nboff, nbg; sim_cable.c). */
hb_status hb__sim_axial_tables(hb_sim *sim);
/* sim->dev.cdt (C/dt of every row) from sim->cm: api/sim/sim_cable.c. */
hb_status hb__sim_cdt_table(hb_sim *sim);
hb_status hb__sim_model_rows(hb_sim *sim, const hb_morph_cell *const *cells,
                             const hb_morph_batch_view *bv);
hb_status hb__sim_model_build(hb_sim *sim, const char *fn);
void hb__sim_model_free(hb_sim *sim);
hb_status hb__sim_read_mech(hb_sim *sim, int m, int slot, int is_param, double *out,
                            double absent, int64_t *n);
/* Room for `need` elements in *arr (capacity doubling from `first`), or
 * HB_ERR_OUT_OF_MEMORY naming fn and what (sim_model.c). */
hb_status hb__sim_grow(void **arr, int64_t *cap, int64_t need, int64_t first, size_t esize,
                       const char *what, const char *fn);
/* The model calls' checks (sim_model.c): not yet set up; a valid region
 * (cell, distances); whether row k is in it; the rows [r0, r1) to scan. */
hb_status hb__sim_check_open(const hb_sim *sim, const char *fn);
/* Cell in range and compartment in it, or -1 for its soma. */
hb_status hb__sim_check_location(const hb_sim *sim, int64_t cell, int64_t comp, const char *fn);
hb_status hb__sim_check_region(const hb_sim *sim, const hb_sim_region *w, const char *fn);
int hb__sim_in_region(const hb_sim *sim, const hb_sim_region *w, int64_t k);
void hb__sim_region_rows(const hb_sim *sim, const hb_sim_region *w, int64_t *r0, int64_t *r1);
/* Events (sim_events.c): one more pending event into point process `point`
 * at `step` (checked by the caller); the device table of the pending events
 * due before step_end, made as a run starts, and those taken off the list. */
/* The first step whose midpoint n dt + dt/2 is at or after t (sim_model.c). */
int64_t hb__sim_event_step(double t, double dt);
hb_status hb__sim_add_event(hb_sim *sim, int64_t point, int64_t step, double time,
                            double weight, int64_t stream);
/* A connection into point process `point` (checked by the caller), before
 * the build: *stream its values' index for hb__sim_add_event, -1 where the
 * mechanism keeps none (sim_model.c). */
hb_status hb__sim_add_stream(hb_sim *sim, int64_t point, int64_t *stream);
/* Connection `stream`'s values (NET_RECEIVE's arguments after the weight;
 * how many: its point's mechanism's hb_cat_mech.nconn): set the first n
 * before the build, or read the first n (before the build, as set; after,
 * from the device; sim_model.c). fn names the setter's caller in errors. */
hb_status hb__sim_set_stream_values(hb_sim *sim, int64_t stream, int32_t n, const double *values,
                                    const char *fn);
hb_status hb__sim_get_stream_values(hb_sim *sim, int64_t stream, int32_t n, double *values);
hb_status hb__sim_events_upload(hb_sim *sim, int64_t step_end);
/* After a run: HB_ERR_NUMERICAL naming the first point process whose
 * self-event queue overflowed (sim_events.c), if any did. */
hb_status hb__sim_check_self(hb_sim *sim);
/* After a run: every voltage finite, or HB_ERR_NUMERICAL naming the first
 * failing cell and compartment (sim_run.c). */
hb_status hb__sim_check_finite(hb_sim *sim);
/* Spikes (sim_spikes.c): the logs made as the first run starts, freed with
 * the simulation; every new device spike appended to its cell's log (an error
 * when a ring wrapped); the steps the engine may still run before it must
 * drain again (each ring holds max_spikes, a cell crosses at most once a step). */
hb_status hb__sim_spikes_init(hb_sim *sim);
void hb__sim_spikes_free(hb_sim *sim);
hb_status hb__sim_drain_spikes(hb_sim *sim);
hb_status hb__sim_spike_list(hb_sim *sim); /* dev.slist and dev.stime, empty */
int64_t hb__sim_spike_room(const hb_sim *sim);
/* A one-line summary of the model ("pas 1508, hh 12 compartments; ..."). */
void hb__sim_model_summary(const hb_sim *sim, char *buf, size_t cap);
/* The membrane's work per compartment, with the model built: over its
 * density mechanisms, instances times (1 + STATEs), per row (pas everywhere
 * 1, with HH everywhere 5). */
double hb__sim_model_load(const hb_sim *sim);
/* AUTO's second look once the model is built (sim.c): a batch it put on
 * chip whose membrane is heavier than the on-chip engine runs well goes to
 * the stages engine, with a plan of the caller's options. */
hb_status hb__sim_review_engine(hb_sim *sim);


/* Allocates a backend buffer of n elements of esize bytes (at least one) and
 * fills it from src (NULL: left as is). */
hb_status hb__sim_alloc(hb_sim *sim, hb_buffer **buf, size_t esize, int64_t n, const void *src);
/* The same for an array of doubles stored in the simulation's precision. */
hb_status hb__sim_alloc_real(hb_sim *sim, hb_buffer **buf, int64_t n, const double *src);
/* Reads n elements of the simulation's precision at element offset off, as doubles. */
hb_status hb__sim_read_real(hb_sim *sim, hb_buffer *buf, int64_t off, int64_t n, double *dst);

#endif
