/* mech_table_d.c: the generated mechanisms' host table in double (hb_mech_table_d). */
#define HB_DOUBLE 1
#include "hb_mech_table.inc"
