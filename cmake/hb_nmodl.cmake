# hb_nmodl.cmake: hinesbatch_add_mechanisms(): .mod files translated at build time (apps/nmodl, Python with sympy) into kernels a target includes.
#
# hinesbatch_add_mechanisms(<target> FILES a.mod b.mod ... [OUTPUT_DIR <dir>]
#                           [HOST_TABLE <file>] [TEST_KERNELS <file>])
# For each a.mod, <dir>/a.cl (the mechanism's functions: OpenCL C 1.2 over
# `real`, also CUDA through cl_compat.cuh and C11 through
# apps/nmodl/runtime/hb_mech_host.h) and <dir>/a.json (names, defaults,
# units); HOST_TABLE also writes a file of uniform double wrappers and one
# table of the mechanisms, to #include in a C file compiled once per
# precision (apps/nmodl/runtime/hb_mech_table.h); TEST_KERNELS one test
# kernel per mechanism (tests/nmodl's device tests). <dir> (default
# <binary dir>/mechanisms) and the runtime headers go on <target>'s include
# path; the files are regenerated when a .mod file or the translator changes.
# Translation errors name file:line:column and fail the build.
#
# HB_NMODL_PYTHON: the first of HINESBATCH_NMODL_PYTHON, Python3_EXECUTABLE,
# /usr/bin/python3 and python3 in PATH that imports sympy (empty: none; the
# function then fails, and the build reports it at configure time).
set(HINESBATCH_NMODL_PYTHON "" CACHE FILEPATH
    "Python interpreter with sympy for the NMODL translator; empty: search")
# The translator: in the source tree, or where an installed hinesbatch's
# hinesbatchConfig.cmake says (share/hinesbatch/nmodl) before including this.
if(NOT DEFINED HB_NMODL_DIR)
  set(HB_NMODL_DIR ${CMAKE_CURRENT_LIST_DIR}/../apps/nmodl)
endif()
get_filename_component(HB_NMODL_DIR ${HB_NMODL_DIR} ABSOLUTE)

function(hb_nmodl_find_python out)
  find_package(Python3 COMPONENTS Interpreter QUIET)
  find_program(HB_NMODL_PATH_PYTHON3 python3)
  foreach(py IN ITEMS "${HINESBATCH_NMODL_PYTHON}" "${Python3_EXECUTABLE}" /usr/bin/python3
                      "${HB_NMODL_PATH_PYTHON3}")
    if(py AND EXISTS "${py}" AND NOT IS_DIRECTORY "${py}")
      execute_process(COMMAND "${py}" -c "import sympy" RESULT_VARIABLE rc
                      OUTPUT_QUIET ERROR_QUIET TIMEOUT 60)
      if(rc STREQUAL "0")
        set(${out} "${py}" PARENT_SCOPE)
        return()
      endif()
    endif()
  endforeach()
  set(${out} "" PARENT_SCOPE)
endfunction()

hb_nmodl_find_python(HB_NMODL_PYTHON)
if(HB_NMODL_PYTHON)
  message(STATUS "hinesbatch NMODL translator: ${HB_NMODL_PYTHON} (imports sympy)")
else()
  message(STATUS "hinesbatch NMODL translator: no Python that imports sympy "
                 "(Debian: python3-sympy); hinesbatch_add_mechanisms() and its tests are off")
endif()

function(hinesbatch_add_mechanisms target)
  cmake_parse_arguments(ARG "" "OUTPUT_DIR;HOST_TABLE;TEST_KERNELS" "FILES" ${ARGN})
  if(NOT HB_NMODL_PYTHON)
    message(FATAL_ERROR "hinesbatch_add_mechanisms(${target}): no Python with sympy "
                        "(install python3-sympy or set HINESBATCH_NMODL_PYTHON)")
  endif()
  if(NOT ARG_FILES)
    message(FATAL_ERROR "hinesbatch_add_mechanisms(${target}): no FILES")
  endif()
  if(NOT ARG_OUTPUT_DIR)
    set(ARG_OUTPUT_DIR ${CMAKE_CURRENT_BINARY_DIR}/mechanisms)
  endif()
  set(mods "")
  set(names "")
  set(outputs "")
  foreach(f ${ARG_FILES})
    get_filename_component(abs ${f} ABSOLUTE)
    get_filename_component(base ${f} NAME_WE)
    if(${ARG_OUTPUT_DIR}/${base}.cl IN_LIST outputs)
      message(FATAL_ERROR "hinesbatch_add_mechanisms(${target}): two files named ${base}.mod "
                          "would both write ${base}.cl")
    endif()
    list(APPEND mods ${abs})
    list(APPEND names ${base}.mod)
    list(APPEND outputs ${ARG_OUTPUT_DIR}/${base}.cl ${ARG_OUTPUT_DIR}/${base}.json)
  endforeach()
  set(table_args "")
  if(ARG_HOST_TABLE)
    if(NOT IS_ABSOLUTE ${ARG_HOST_TABLE})
      set(ARG_HOST_TABLE ${ARG_OUTPUT_DIR}/${ARG_HOST_TABLE})
    endif()
    set(table_args --host-table ${ARG_HOST_TABLE})
    list(APPEND outputs ${ARG_HOST_TABLE})
  endif()
  if(ARG_TEST_KERNELS)
    if(NOT IS_ABSOLUTE ${ARG_TEST_KERNELS})
      set(ARG_TEST_KERNELS ${ARG_OUTPUT_DIR}/${ARG_TEST_KERNELS})
    endif()
    list(APPEND table_args --test-kernels ${ARG_TEST_KERNELS})
    list(APPEND outputs ${ARG_TEST_KERNELS})
  endif()
  file(GLOB translator ${HB_NMODL_DIR}/hb_nmodl/*.py)
  string(REPLACE ";" " " names_text "${names}")
  add_custom_command(OUTPUT ${outputs}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${ARG_OUTPUT_DIR}
    # No __pycache__ written into the source tree.
    COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1
            ${HB_NMODL_PYTHON} ${HB_NMODL_DIR}/hb_nmodl.py -o ${ARG_OUTPUT_DIR} ${table_args} ${mods}
    DEPENDS ${mods} ${translator} ${HB_NMODL_DIR}/hb_nmodl.py
    COMMENT "hb_nmodl: translating ${names_text}"
    VERBATIM)
  # Listed as sources (not compiled: .cl and .json are no language of the
  # target), so the target waits for them.
  target_sources(${target} PRIVATE ${outputs})
  set_source_files_properties(${outputs} PROPERTIES HEADER_FILE_ONLY ON)
  target_include_directories(${target} PRIVATE ${ARG_OUTPUT_DIR} ${HB_NMODL_DIR}/runtime)
endfunction()
