/* cl_function_guards.cuh: undefines the include guards of the kernels_cl headers that define functions (not only macros), so that each precision's pass of cl_both_precisions.cuh defines them again. */
/* No include guard: included after each pass. A new kernels_cl header with
 * functions adds its guard here. */
#undef HB_CATALOGUE_FUNCS
#undef HB_MECH_PASSES_FUNCS
#undef HB_CARD_CATALOGUE_CL
