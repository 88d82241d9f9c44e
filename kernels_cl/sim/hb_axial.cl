/* hb_axial.cl: a row's axial current for the step's right-hand side, sum over its neighbours j of g_kj (v_j - v_k), as one macro for every engine (kernels and host loops). */
#ifndef HB_AXIAL_CL
#define HB_AXIAL_CL

/* OUT = sum over row K's entries e of the neighbour table (hb_sim_dev.nbptr,
 * nboff, nbg; its parent first, then its children in row order) of
 * nbg[e] (v at K + nboff[e] - v at K), in the table's order, so that every
 * engine rounds alike. V(d) is the caller's macro for the voltage of row
 * K + d (global, local or host memory). OUT's type is the precision's. */
#define HB_SIM_AXIAL(OUT, NBPTR, NBOFF, NBG, K, V)                                          \
    do {                                                                                    \
        OUT = 0;                                                                            \
        for (hb_long hb_e = (NBPTR)[K]; hb_e < (NBPTR)[(K) + 1]; ++hb_e)                    \
            OUT = OUT + (NBG)[hb_e] * (V((NBOFF)[hb_e]) - V(0));                            \
    } while (0)

#endif
