/* mech_table_s.c: the generated mechanisms' host table in float (hb_mech_table_s). */
#include "hb_mech_table.inc"
