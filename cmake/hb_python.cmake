# hb_python.cmake: the Python interpreter the CLI runs its plot scripts with: the first candidate that can import matplotlib (HB_PLOT_PYTHON, empty: none).
# A machine may have several interpreters, matplotlib in only one (Debian's
# python3-matplotlib is for /usr/bin/python3, while a pyenv or virtualenv
# python3 may come first in PATH), so each candidate is asked, in order:
# Python3_EXECUTABLE (find_package), /usr/bin/python3, python3 in PATH.
# HINESBATCH_PYTHON chooses one instead (it is used even when it cannot import
# matplotlib, with a warning). The answer is not cached: each configure asks
# again, so installing matplotlib and reconfiguring is enough. At run time the
# environment variable HINESBATCH_PYTHON wins over what is recorded here
# (apps/cli_paths.c).
set(HINESBATCH_PYTHON "" CACHE FILEPATH
    "Python interpreter (with matplotlib) for the CLI's plot scripts; empty: search")

# hb_python_has_matplotlib(PY OUT): OUT is TRUE when PY runs and imports matplotlib.
function(hb_python_has_matplotlib py out)
  set(${out} FALSE PARENT_SCOPE)
  if(py AND EXISTS "${py}" AND NOT IS_DIRECTORY "${py}")
    execute_process(COMMAND "${py}" -c "import matplotlib" RESULT_VARIABLE rc
                    OUTPUT_QUIET ERROR_QUIET TIMEOUT 60)
    if(rc STREQUAL "0")
      set(${out} TRUE PARENT_SCOPE)
    endif()
  endif()
endfunction()

set(HB_PLOT_PYTHON "")
if(HINESBATCH_PYTHON)
  set(HB_PLOT_PYTHON "${HINESBATCH_PYTHON}")
  hb_python_has_matplotlib("${HINESBATCH_PYTHON}" hb_ok)
  if(NOT hb_ok)
    message(WARNING "HINESBATCH_PYTHON=${HINESBATCH_PYTHON} cannot import matplotlib: "
                    "hinesbatch simulate --plot will fail with it")
  endif()
else()
  find_package(Python3 COMPONENTS Interpreter QUIET)
  find_program(HB_PATH_PYTHON3 python3)
  set(hb_tried "")
  foreach(py IN ITEMS "${Python3_EXECUTABLE}" /usr/bin/python3 "${HB_PATH_PYTHON3}")
    if(NOT py OR py IN_LIST hb_tried)
      continue()
    endif()
    list(APPEND hb_tried "${py}")
    hb_python_has_matplotlib("${py}" hb_ok)
    if(hb_ok)
      set(HB_PLOT_PYTHON "${py}")
      break()
    endif()
  endforeach()
  if(HB_PLOT_PYTHON)
    message(STATUS "hinesbatch plots: ${HB_PLOT_PYTHON} (imports matplotlib)")
  else()
    string(REPLACE ";" ", " hb_tried "${hb_tried}")
    message(STATUS "hinesbatch plots: no Python that imports matplotlib (tried: ${hb_tried}); "
                   "simulate --plot will use python3 from PATH")
  endif()
endif()
