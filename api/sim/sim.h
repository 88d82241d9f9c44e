/* sim.h: the simulation object shared by the files of api/sim/ (internal). */
#ifndef HB_SIM_INTERNAL_H
#define HB_SIM_INTERNAL_H

#include "hb_sim_ops.h"
#include "hinesbatch_sim.h"

typedef struct {
    int64_t row;      /* flat row                                 */
    int64_t on, off;  /* on for steps on <= step < off            */
    double  amp;      /* nA                                       */
} hb_sim_clamp;

struct hb_sim {
    hb_context   *ctx;
    const hb_sim_ops *ops;     /* the backend's engine steps               */
    hb_sim_params prm;
    hb_plan      *plan;
    size_t        esize;
    int64_t       ncells, nrows, nhh;
    int64_t      *offsets;     /* ncells + 1                               */
    int64_t      *soma;        /* local soma compartment of each cell      */
    hb_sim_dev    dev;
    hb_sim_clamp *clamps;
    int64_t       nclamps, clamp_cap;
    int64_t      *rec_cells;   /* nrec entries                             */
    int64_t       rec_cap;
    double      **traces;      /* nrec arrays of trace_cap samples         */
    int64_t       nsamples, trace_cap;
    int           started;     /* first run made the device tables          */
    int64_t       steps;
    int64_t       rec_rows;    /* samples waiting in dev.rec                */
    hb_sim_timing timing;
    char          describe[900];
};

/* HB_ERR_INVALID_ARGUMENT naming params->max_spikes or params->record_chunk
 * when the spike table (ncells x max_spikes) or the recording buffer (nrec x
 * record_chunk) has a size that overflows; HB_ERR_OUT_OF_MEMORY when they
 * cannot fit the device (api/core/memory.c). */
hb_status hb__sim_check_buffers(hb_sim *sim, int64_t nrec, const char *fn);
/* Allocates a backend buffer of n elements of esize bytes (at least one) and
 * fills it from src (NULL: left as is). */
hb_status hb__sim_alloc(hb_sim *sim, hb_buffer **buf, size_t esize, int64_t n, const void *src);
/* The same for an array of doubles stored in the simulation's precision. */
hb_status hb__sim_alloc_real(hb_sim *sim, hb_buffer **buf, int64_t n, const double *src);
/* Reads n elements of the simulation's precision at element offset off, as doubles. */
hb_status hb__sim_read_real(hb_sim *sim, hb_buffer *buf, int64_t off, int64_t n, double *dst);

#endif
