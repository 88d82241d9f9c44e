/* hinesbatch_net.h: networks: cells' spike detectors connected to synapses with weights and delays, run in epochs of the minimum delay over one or several simulations (devices) per process and over processes (MPI ranks). */
#ifndef HINESBATCH_NET_H
#define HINESBATCH_NET_H

#include "hinesbatch_sim.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A network is made of parts: simulations (hb_sim, each on its own context,
 * so several devices of a process run concurrently, one thread each) whose
 * cells carry global ids (gids, unique over every part of every rank).
 * A connection takes the spikes of a cell (its soma's upward crossing of the
 * simulation's params.threshold) to a point process with a NET_RECEIVE
 * block (hb_sim_add_point: ExpSyn, Exp2Syn, ...) on a cell of this rank,
 * with a weight and a delay. hb_net_run advances every part in epochs of the
 * smallest delay of the whole network (rounded down to whole steps): within
 * an epoch the parts run on their own (the on-chip engine runs whole epochs);
 * between epochs the ranks exchange the epoch's spikes (hb_net_comm) and each
 * spike becomes an event at every connection's target.
 *
 * Determinism: the same spikes whatever the partition over parts and ranks.
 * The events of one step at one point arrive ordered by spike time, source
 * gid, then the order the connections were made on their rank (make them in
 * one global order, skipping those whose target is elsewhere). Each cell's
 * arithmetic depends only on its own state and events on the host backends;
 * on a GPU the on-chip engine's group size follows the largest cell of its
 * simulation, so bitwise identity across partitions there needs the same
 * cells in every part (hb_sim_describe says what ran).
 *
 * Delivery time: with HB_NET_STEP_END (NEURON's fixed step) an event is due
 * at the end of the step in which its source crossed threshold plus the
 * delay; with HB_NET_SPIKE_TIME at the interpolated crossing plus the delay.
 * Either way it arrives at the first step whose midpoint is at or after
 * that time (hb_sim_add_events). */
typedef enum { HB_NET_STEP_END = 0, HB_NET_SPIKE_TIME } hb_net_delivery;

typedef struct {
    int64_t gid;
    double  t;     /* ms, the interpolated threshold crossing */
} hb_net_spike;

/* How ranks exchange spikes (NULL: this process is the whole network).
 * allgather: every rank's spikes of an epoch, each rank's `mine`
 *   concatenated in rank order into *all (allocated by the callee with
 *   malloc, freed by the library with free; NULL when *nall is 0).
 * min: x becomes the smallest x over the ranks.
 * hinesbatch_net_mpi.h makes one from an MPI communicator. */
typedef struct {
    void   *user;
    int32_t rank, size;
    hb_status (*allgather)(void *user, const hb_net_spike *mine, int64_t n, hb_net_spike **all,
                           int64_t *nall);
    hb_status (*min)(void *user, double *x);
} hb_net_comm;

typedef struct hb_net hb_net;

/* comm may be NULL (one process); it is copied. */
HB_API hb_status hb_net_create(const hb_net_comm *comm, hb_net_delivery delivery, hb_net **net);
HB_API void hb_net_destroy(hb_net *net); /* NULL is fine; the parts' simulations are the caller's */

/* Adds simulation sim as the next part (*part its index); gids[c] is the
 * global id of its cell c (copied). Every part has the same dt and has not
 * run yet; gids must be >= 0 and unique in the process (across ranks is the
 * caller's promise). The simulation must outlive the network. */
HB_API hb_status hb_net_add_part(hb_net *net, hb_sim *sim, const int64_t *gids, int32_t *part);

/* The spikes of global cell src reach point process `point` of part `part`
 * (of this rank) with `weight` after `delay` ms (>= the step dt). Where the
 * point's NET_RECEIVE keeps values per connection (arguments after the
 * weight), this connection keeps its own. */
HB_API hb_status hb_net_connect(hb_net *net, int64_t src, int32_t part, int64_t point,
                                double weight, double delay);
/* This rank's connections: they are numbered 0, 1, ... in the order
 * hb_net_connect made them (conn below). */
HB_API hb_status hb_net_connection_count(const hb_net *net, int64_t *n);
/* The values NET_RECEIVE keeps for connection conn: its arguments after
 * the weight (NEURON's NetCon weight[1], weight[2], ...), in order.
 * Set: the first n of them (n at most how many the point's mechanism keeps,
 * finite), before the first run; the others start at 0. NET_RECEIVE's
 * INITIAL, where the mechanism has one, runs at the connection's first
 * event and starts from them (what it assigns replaces them).
 * Get: *n is how many the mechanism keeps (0 for one without: ExpSyn); the
 * first min(cap, *n) go into values: before the first run as set, after it
 * as they are now (read from the device; a connection without events yet
 * still holds the values set). */
HB_API hb_status hb_net_set_values(hb_net *net, int64_t conn, int32_t n, const double *values);
HB_API hb_status hb_net_get_values(hb_net *net, int64_t conn, int32_t cap, double *values,
                                   int32_t *n);

/* Advances every part to tstop (whole steps, as hb_sim_run). The first run
 * fixes the epoch (the smallest delay over every rank, or the whole run when
 * there are no connections) and sets every part up (its model and device
 * tables: hb_net_run(net, 0) does only that); no connection may be made
 * after it. */
HB_API hb_status hb_net_run(hb_net *net, double tstop);
/* The epoch in ms (0 before the first run) and the epochs run. */
HB_API hb_status hb_net_epoch(const hb_net *net, double *ms, int64_t *epochs);

/* Spikes so far, ordered by time then gid: of this rank's cells (all = 0),
 * or of every rank (all = 1; each rank has them all, from the exchanges).
 * *count is their number; the first min(count, cap) go into out. */
HB_API hb_status hb_net_spikes(const hb_net *net, int all, int64_t cap, hb_net_spike *out,
                               int64_t *count);

#ifdef __cplusplus
}
#endif
#endif /* HINESBATCH_NET_H */
