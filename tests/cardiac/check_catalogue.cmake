# check_catalogue.cmake: regenerates the built-in cardiac catalogue into OUT and compares it with kernels_cl/cardiac/catalogue/ (cmake -P; PY, SRC, OUT).
file(REMOVE_RECURSE ${OUT})
# From the source root with a relative path: the generated files name the
# model file as the committed ones do.
execute_process(COMMAND ${PY} apps/cardiac/hb_cardiac.py --catalogue ${OUT}
                        data/cardiac/beeler_reuter_1977.mmt
                WORKING_DIRECTORY ${SRC} RESULT_VARIABLE rc)
if(NOT rc STREQUAL "0")
  message(FATAL_ERROR "the cardiac translator failed on the built-in model")
endif()
foreach(f hb_card_catalogue.cl hb_card_catalogue_info.h catalogue.json)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT}/${f}
                          ${SRC}/kernels_cl/cardiac/catalogue/${f} RESULT_VARIABLE diff)
  if(NOT diff STREQUAL "0")
    message(FATAL_ERROR "kernels_cl/cardiac/catalogue/${f} is not what the translator writes "
                        "today; regenerate it: python3 apps/cardiac/hb_cardiac.py --catalogue "
                        "kernels_cl/cardiac/catalogue data/cardiac/beeler_reuter_1977.mmt")
  endif()
  message(STATUS "${f}: as generated")
endforeach()
