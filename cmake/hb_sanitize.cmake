# hb_sanitize.cmake: HINESBATCH_SANITIZE (address, undefined, thread) as compile and link flags for C code; HINESBATCH_FUZZ's coverage instrumentation.
# CUDA sources are left alone (nvcc passes no sanitizer); the sanitized build is for
# the host backends, where every byte the library touches is host memory.
if(HINESBATCH_SANITIZE)
  set(hb_san_flags "")
  foreach(s ${HINESBATCH_SANITIZE})
    if(NOT s MATCHES "^(address|undefined|thread|leak)$")
      message(FATAL_ERROR "HINESBATCH_SANITIZE: '${s}' is not one of address, undefined, thread, leak")
    endif()
    list(APPEND hb_san_flags -fsanitize=${s})
  endforeach()
  if("thread" IN_LIST HINESBATCH_SANITIZE AND "address" IN_LIST HINESBATCH_SANITIZE)
    message(FATAL_ERROR "HINESBATCH_SANITIZE: thread cannot be combined with address")
  endif()
  # Undefined behaviour stops the program (a test fails) instead of printing and going on.
  if("undefined" IN_LIST HINESBATCH_SANITIZE)
    list(APPEND hb_san_flags -fno-sanitize-recover=undefined)
  endif()
  list(APPEND hb_san_flags -fno-omit-frame-pointer -g)
  add_compile_options("$<$<COMPILE_LANGUAGE:C>:${hb_san_flags}>")
  add_link_options(${hb_san_flags})
  message(STATUS "hinesbatch sanitizers: ${HINESBATCH_SANITIZE}")
endif()

# HINESBATCH_FUZZ: every C file (the library above all) gets libFuzzer's coverage
# instrumentation, so the fuzzers in tests/fuzz see which paths an input opens;
# only the fuzz targets link libFuzzer's main (tests/fuzz/CMakeLists.txt).
if(HINESBATCH_FUZZ)
  if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "HINESBATCH_FUZZ=ON needs clang (CC=clang): libFuzzer comes with it")
  endif()
  add_compile_options("$<$<COMPILE_LANGUAGE:C>:-fsanitize=fuzzer-no-link>")
endif()
