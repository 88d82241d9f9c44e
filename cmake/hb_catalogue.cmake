# hb_catalogue.cmake: the engine's catalogue of mechanisms: the built-in .mod files (kernels_cl/sim/catalogue/, generated and kept in the tree) or those plus HINESBATCH_MECHANISMS, generated at configure time.
#
# The library's kernels include sim/catalogue/hb_catalogue.cl and the core
# reads hb_catalogue_info.h; HB_CATALOGUE_DIR is the folder holding both
# and HB_CATALOGUE_ROOT the include root above sim/catalogue/ (put before
# kernels_cl/ on include paths). Without HINESBATCH_MECHANISMS they are the
# tree's copies, so building the library needs no Python; with it, the
# translator (a Python with sympy) writes a catalogue of the built-in files
# followed by the given ones into the build tree, again whenever one of them
# or the translator changes (configure dependency).
set(HB_BUILTIN_MECHANISMS
    ${PROJECT_SOURCE_DIR}/data/mechanisms/pas.mod
    ${PROJECT_SOURCE_DIR}/data/mechanisms/hh.mod
    ${PROJECT_SOURCE_DIR}/data/mechanisms/expsyn.mod
    ${PROJECT_SOURCE_DIR}/data/mechanisms/exp2syn.mod)
set(HINESBATCH_MECHANISMS "" CACHE STRING
    "Extra NMODL (.mod) files for the engine's catalogue (;-separated); needs a Python with sympy")

if(HINESBATCH_MECHANISMS)
  if(NOT HB_NMODL_PYTHON)
    message(FATAL_ERROR "HINESBATCH_MECHANISMS needs the NMODL translator's Python with sympy "
                        "(Debian: python3-sympy; or set HINESBATCH_NMODL_PYTHON)")
  endif()
  set(hb_mods ${HB_BUILTIN_MECHANISMS})
  foreach(f ${HINESBATCH_MECHANISMS})
    get_filename_component(abs ${f} ABSOLUTE)
    if(NOT EXISTS ${abs})
      message(FATAL_ERROR "HINESBATCH_MECHANISMS: ${f} does not exist")
    endif()
    list(APPEND hb_mods ${abs})
  endforeach()
  set(HB_CATALOGUE_ROOT ${CMAKE_BINARY_DIR}/catalogue)
  set(HB_CATALOGUE_DIR ${HB_CATALOGUE_ROOT}/sim/catalogue)
  execute_process(COMMAND ${HB_NMODL_PYTHON} ${HB_NMODL_DIR}/hb_nmodl.py
                          --catalogue ${HB_CATALOGUE_DIR} ${hb_mods}
                  RESULT_VARIABLE hb_rc ERROR_VARIABLE hb_err)
  if(NOT hb_rc STREQUAL "0")
    message(FATAL_ERROR "HINESBATCH_MECHANISMS: the translator failed:\n${hb_err}")
  endif()
  file(GLOB hb_translator ${HB_NMODL_DIR}/hb_nmodl/*.py)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${hb_mods} ${hb_translator})
  list(LENGTH hb_mods hb_n)
  message(STATUS "hinesbatch catalogue: ${hb_n} mechanisms (built-in and HINESBATCH_MECHANISMS) "
                 "in ${HB_CATALOGUE_DIR}")
else()
  set(HB_CATALOGUE_ROOT ${PROJECT_SOURCE_DIR}/kernels_cl)
  set(HB_CATALOGUE_DIR ${PROJECT_SOURCE_DIR}/kernels_cl/sim/catalogue)
endif()
