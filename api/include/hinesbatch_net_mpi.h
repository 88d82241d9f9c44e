/* hinesbatch_net_mpi.h: an hb_net_comm over an MPI communicator (header only: the library does not link MPI; the program that includes this does). */
#ifndef HINESBATCH_NET_MPI_H
#define HINESBATCH_NET_MPI_H

#include <mpi.h>
#include <stdlib.h>

#include "hinesbatch_net.h"

/* Spikes cross as 16-byte records (gid, time): MPI_Allgather of the counts,
 * then MPI_Allgatherv of the records, as NEURON and Arbor exchange theirs
 * once per minimum delay. Counts and displacements are int in MPI: an epoch's
 * spikes of all ranks must stay below 2^31 / 16 records. */
static hb_status hb_net_mpi_allgather_(void *user, const hb_net_spike *mine, int64_t n,
                                       hb_net_spike **all, int64_t *nall)
{
    MPI_Comm comm = *(MPI_Comm *)user;
    int size = 0;
    *all = NULL;
    *nall = 0;
    MPI_Comm_size(comm, &size);
    int *counts = (int *)malloc(2 * (size_t)size * sizeof *counts);
    if (!counts)
        return HB_ERR_OUT_OF_MEMORY;
    int *displs = counts + size;
    int bytes = n <= (int64_t)(0x7fffffff / sizeof *mine) ? (int)(n * (int64_t)sizeof *mine) : -1;
    if (MPI_Allgather(&bytes, 1, MPI_INT, counts, 1, MPI_INT, comm) != MPI_SUCCESS) {
        free(counts);
        return HB_ERR_BACKEND;
    }
    int64_t total = 0;
    for (int r = 0; r < size; ++r) {
        if (counts[r] < 0 || total + counts[r] > 0x7fffffff) {
            free(counts);
            return HB_ERR_OUT_OF_MEMORY;
        }
        displs[r] = (int)total;
        total += counts[r];
    }
    hb_net_spike *buf = (hb_net_spike *)malloc(total > 0 ? (size_t)total : 1);
    if (!buf) {
        free(counts);
        return HB_ERR_OUT_OF_MEMORY;
    }
    if (MPI_Allgatherv(mine, bytes, MPI_BYTE, buf, counts, displs, MPI_BYTE, comm) !=
        MPI_SUCCESS) {
        free(counts), free(buf);
        return HB_ERR_BACKEND;
    }
    free(counts);
    *all = buf;
    *nall = total / (int64_t)sizeof *buf;
    return HB_SUCCESS;
}

static hb_status hb_net_mpi_min_(void *user, double *x)
{
    MPI_Comm comm = *(MPI_Comm *)user;
    return MPI_Allreduce(MPI_IN_PLACE, x, 1, MPI_DOUBLE, MPI_MIN, comm) == MPI_SUCCESS
               ? HB_SUCCESS
               : HB_ERR_BACKEND;
}

/* Fills *out for the communicator at *comm (which must outlive the network). */
static inline void hb_net_comm_mpi(MPI_Comm *comm, hb_net_comm *out)
{
    int rank = 0, size = 1;
    MPI_Comm_rank(*comm, &rank);
    MPI_Comm_size(*comm, &size);
    out->user = comm;
    out->rank = rank;
    out->size = size;
    out->allgather = hb_net_mpi_allgather_;
    out->min = hb_net_mpi_min_;
}

#endif /* HINESBATCH_NET_MPI_H */
