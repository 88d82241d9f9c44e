# check_catalogue.cmake: regenerates the built-in catalogue into OUT and compares it with kernels_cl/sim/catalogue/ (cmake -P; PY, SRC, OUT, MODS).
file(REMOVE_RECURSE ${OUT})
set(rel "")
foreach(m ${MODS})
  file(RELATIVE_PATH r ${SRC} ${m})
  list(APPEND rel ${r})
endforeach()
# Run from the source root with relative paths: the generated headers name
# the .mod files as the committed ones do.
execute_process(COMMAND ${PY} apps/nmodl/hb_nmodl.py --catalogue ${OUT} ${rel}
                WORKING_DIRECTORY ${SRC} RESULT_VARIABLE rc)
if(NOT rc STREQUAL "0")
  message(FATAL_ERROR "the translator failed on the built-in mechanisms")
endif()
string(REPLACE ";" " " cmd "${rel}")
foreach(f hb_catalogue.cl hb_catalogue_info.h catalogue.json)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT}/${f}
                          ${SRC}/kernels_cl/sim/catalogue/${f} RESULT_VARIABLE diff)
  if(NOT diff STREQUAL "0")
    message(FATAL_ERROR "kernels_cl/sim/catalogue/${f} is not what the translator writes "
                        "today; regenerate it: python3 apps/nmodl/hb_nmodl.py --catalogue "
                        "kernels_cl/sim/catalogue ${cmd}")
  endif()
  message(STATUS "${f}: as generated")
endforeach()
