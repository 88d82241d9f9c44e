/* main.c: calls the mechanisms hinesbatch_add_mechanisms() generated from pas.mod and kleak.mod, in double on the host, and checks their currents. */
#define HB_DOUBLE 1
#include "hb_mech_host.h"

#include "kleak.cl"
#include "pas.cl"

#include <stdio.h>

static int check(const char *what, double got, double want)
{
    if (fabs(got - want) <= 1e-15 * fabs(want))
        return 0;
    fprintf(stderr, "nmodl consumer: %s = %.17g, expected %.17g\n", what, got, want);
    return 1;
}

int main(void)
{
    const real v = -60, celsius = 6.3, ek = -90;
    const real pas[HB_MECH_PAS_NPARAM] = HB_MECH_PAS_PARAM_DEFAULTS; /* g 0.001, e -70 */
    const real kl[HB_MECH_KLEAK_NPARAM] = HB_MECH_KLEAK_PARAM_DEFAULTS; /* g 0.0002 */
    real st[1] = {0}, g, i, ik;
    int bad = 0;
    HB_KERNEL(hb_mech_pas_current)(v, celsius, pas, st, &g, &i);
    bad += check("pas g", g, 0.001) + check("pas i", i, 0.001 * (v + 70));
    HB_KERNEL(hb_mech_kleak_current)(v, celsius, ek, kl, st, &g, &i, &ik);
    bad += check("kleak g", g, 0.0002) + check("kleak ik", ik, 0.0002 * (v - ek)) +
           check("kleak i", i, ik);
    if (!bad)
        printf("nmodl consumer: pas and kleak from .mod files OK\n");
    return bad ? 1 : 0;
}
