/* hb_mech_pas.cl: the passive leak mechanism in the interface of hb_mech.cl. */
#ifndef HB_MECH_PAS_CL
#define HB_MECH_PAS_CL

#ifndef HB_MECH_CL
#include "sim/hb_mech.cl"
#endif

/* No state. g (v - e), g in uS. */
HB_FN void HB_KERNEL(hb_mech_pas_current)(const real v, const real gpas, const real e, real *g,
                                          real *i)
{
    *g = *g + gpas;
    *i = *i + gpas * (v - e);
}

#endif
