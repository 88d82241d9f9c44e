# hb_cardiac.cmake: the cardiac catalogue: the built-in model (kernels_cl/cardiac/catalogue/, generated and kept in the tree) or it plus HINESBATCH_CARDIAC_MODELS, generated at configure time by apps/cardiac (a Python with myokit and sympy).
#
# HB_CARD_CATALOGUE_ROOT: the include root above cardiac/catalogue/ (put
# before kernels_cl/ on include paths); HB_CARD_CATALOGUE_DIR: the folder of
# hb_card_catalogue.cl and hb_card_catalogue_info.h.
# HB_CARD_PYTHON: the first of HINESBATCH_CARDIAC_PYTHON, the NMODL
# translator's Python, /usr/bin/python3, python3 that imports myokit and sympy
# (empty: none; the cardiac translator's tests are then off).
set(HB_BUILTIN_CARDIAC_MODELS ${PROJECT_SOURCE_DIR}/data/cardiac/beeler_reuter_1977.mmt)
set(HINESBATCH_CARDIAC_MODELS "" CACHE STRING
    "Extra cardiac models (.mmt or .cellml, NAME=FILE to name one; ;-separated) for the cardiac catalogue; needs a Python with myokit and sympy")
set(HINESBATCH_CARDIAC_PYTHON "" CACHE FILEPATH
    "Python interpreter with myokit and sympy for the cardiac translator; empty: search")

set(HB_CARD_PYTHON "")
find_program(HB_CARD_PATH_PYTHON3 python3)
foreach(py IN ITEMS "${HINESBATCH_CARDIAC_PYTHON}" "${HB_NMODL_PYTHON}" /usr/bin/python3
                    "${HB_CARD_PATH_PYTHON3}")
  if(py AND EXISTS "${py}" AND NOT IS_DIRECTORY "${py}" AND NOT HB_CARD_PYTHON)
    execute_process(COMMAND "${py}" -c "import myokit, sympy" RESULT_VARIABLE rc
                    OUTPUT_QUIET ERROR_QUIET TIMEOUT 120)
    if(rc STREQUAL "0")
      set(HB_CARD_PYTHON "${py}")
    endif()
  endif()
endforeach()
if(HB_CARD_PYTHON)
  message(STATUS "hinesbatch cardiac translator: ${HB_CARD_PYTHON} (imports myokit and sympy)")
endif()

if(HINESBATCH_CARDIAC_MODELS)
  if(NOT HB_CARD_PYTHON)
    message(FATAL_ERROR "HINESBATCH_CARDIAC_MODELS needs a Python with myokit and sympy "
                        "(pip install myokit; or set HINESBATCH_CARDIAC_PYTHON)")
  endif()
  set(hb_models ${HB_BUILTIN_CARDIAC_MODELS})
  set(hb_deps ${HB_BUILTIN_CARDIAC_MODELS})
  foreach(f ${HINESBATCH_CARDIAC_MODELS})
    set(nm "")
    set(path "${f}")
    if(f MATCHES "^([A-Za-z_][A-Za-z0-9_]*)=(.*)$")
      set(nm "${CMAKE_MATCH_1}=")
      set(path "${CMAKE_MATCH_2}")
    endif()
    get_filename_component(abs "${path}" ABSOLUTE)
    if(NOT EXISTS "${abs}")
      message(FATAL_ERROR "HINESBATCH_CARDIAC_MODELS: ${path} does not exist")
    endif()
    list(APPEND hb_models "${nm}${abs}")
    list(APPEND hb_deps "${abs}")
  endforeach()
  set(HB_CARD_CATALOGUE_ROOT ${CMAKE_BINARY_DIR}/card_catalogue)
  set(HB_CARD_CATALOGUE_DIR ${HB_CARD_CATALOGUE_ROOT}/cardiac/catalogue)
  execute_process(COMMAND ${HB_CARD_PYTHON} ${PROJECT_SOURCE_DIR}/apps/cardiac/hb_cardiac.py
                          --catalogue ${HB_CARD_CATALOGUE_DIR} ${hb_models}
                  RESULT_VARIABLE hb_rc ERROR_VARIABLE hb_err)
  if(NOT hb_rc STREQUAL "0")
    message(FATAL_ERROR "HINESBATCH_CARDIAC_MODELS: the cardiac translator failed:\n${hb_err}")
  endif()
  file(GLOB hb_translator ${PROJECT_SOURCE_DIR}/apps/cardiac/hb_cardiac/*.py
       ${HB_NMODL_DIR}/hb_nmodl/*.py)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${hb_deps} ${hb_translator})
  list(LENGTH hb_models hb_n)
  message(STATUS "hinesbatch cardiac catalogue: ${hb_n} models in ${HB_CARD_CATALOGUE_DIR}")
else()
  set(HB_CARD_CATALOGUE_ROOT ${PROJECT_SOURCE_DIR}/kernels_cl)
  set(HB_CARD_CATALOGUE_DIR ${PROJECT_SOURCE_DIR}/kernels_cl/cardiac/catalogue)
endif()
