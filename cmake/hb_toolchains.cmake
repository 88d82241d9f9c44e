# hb_toolchains.cmake: finds the toolchain of each optional backend (OpenMP, OpenCL, CUDA) at the top level, where CMake wants languages enabled.
# Sets HB_OPENMP_ENABLED, HB_OPENCL_ENABLED, HB_CUDA_ENABLED and appends to
# the link lists of CMakeLists.txt (HB_LINK_LIBS, HB_STATIC_LIBS,
# HB_STATIC_FIND, HB_PC_PRIVATE_LIBS); the backends' own CMakeLists.txt add
# their sources.

# hb_static_lib(PATH): a library the installed static libhinesbatch.a needs,
# for its users: by plain name (-lNAME) when the compiler's own search path
# holds it, so no build machine's path is baked in; else by full path (CMake)
# and -L (pkg-config).
function(hb_static_lib path)
  get_filename_component(dir "${path}" DIRECTORY)
  get_filename_component(file "${path}" NAME_WE)
  string(REGEX REPLACE "^lib" "" name "${file}")
  if(dir IN_LIST CMAKE_C_IMPLICIT_LINK_DIRECTORIES)
    set(cmake_item ${name})
    set(pc_item "-l${name}")
  else()
    set(cmake_item ${path})
    set(pc_item "-L${dir} -l${name}")
  endif()
  set(HB_STATIC_LIBS ${HB_STATIC_LIBS} ${cmake_item} PARENT_SCOPE)
  set(HB_PC_PRIVATE_LIBS "${HB_PC_PRIVATE_LIBS} ${pc_item}" PARENT_SCOPE)
endfunction()

# The AUTO/ON/OFF rule of one backend: enabled when its toolchain was
# found; ON without it stops the configuration.
macro(hb_backend_rule enabled option found what)
  set(${enabled} OFF)
  if(${found} AND NOT ${option} STREQUAL "OFF")
    set(${enabled} ON)
  elseif(${option} STREQUAL "ON")
    message(FATAL_ERROR "${option}=ON but ${what} was not found")
  endif()
endmacro()

if(NOT HINESBATCH_WITH_OPENMP STREQUAL "OFF")
  find_package(OpenMP COMPONENTS C)
endif()
hb_backend_rule(HB_OPENMP_ENABLED HINESBATCH_WITH_OPENMP OpenMP_C_FOUND "OpenMP for C")
if(HB_OPENMP_ENABLED)
  list(APPEND HB_LINK_LIBS OpenMP::OpenMP_C)
  # Static users get the runtime the objects were compiled for (libgomp with
  # GCC) by name, not OpenMP for C: a C++-only project has no OpenMP_C, and
  # its compiler's -fopenmp may be another runtime.
  foreach(lib ${OpenMP_C_LIB_NAMES})
    hb_static_lib(${OpenMP_${lib}_LIBRARY})
  endforeach()
endif()

if(NOT HINESBATCH_WITH_OPENCL STREQUAL "OFF")
  find_package(OpenCL)
endif()
hb_backend_rule(HB_OPENCL_ENABLED HINESBATCH_WITH_OPENCL OpenCL_FOUND
                "OpenCL (headers and an ICD loader)")
if(HB_OPENCL_ENABLED)
  list(APPEND HB_LINK_LIBS OpenCL::OpenCL)
  hb_static_lib(${OpenCL_LIBRARY}) # the ICD loader only: static users need no OpenCL headers
endif()

# CUDA: AUTO builds it when check_language(CUDA) finds nvcc, ON fails without
# it, OFF skips. CMAKE_CUDA_ARCHITECTURES is the user's (K80 = 37, P100 = 60,
# V100 = 70, A100 = 80, H100/H200 = 90); when unset, a list the installed nvcc
# can build is chosen below.
set(HB_CUDA_ENABLED OFF)
if(NOT HINESBATCH_WITH_CUDA STREQUAL "OFF")
  include(CheckLanguage)
  check_language(CUDA)
  if(NOT CMAKE_CUDA_COMPILER AND HINESBATCH_WITH_CUDA STREQUAL "ON")
    message(FATAL_ERROR "HINESBATCH_WITH_CUDA=ON but no CUDA compiler (nvcc) was found")
  endif()
endif()
if(CMAKE_CUDA_COMPILER AND NOT HINESBATCH_WITH_CUDA STREQUAL "OFF")
  # Default architectures, decided before enable_language(CUDA) would set the
  # compiler's own default: every real architecture the release still supports
  # from Pascal/Turing on, plus PTX of the newest for later GPUs.
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES AND NOT DEFINED ENV{CUDAARCHS})
    execute_process(COMMAND ${CMAKE_CUDA_COMPILER} --version OUTPUT_VARIABLE _hb_nvcc_version)
    string(REGEX MATCH "release ([0-9]+)\\.([0-9]+)" _hb_match "${_hb_nvcc_version}")
    set(_hb_cuda_major "${CMAKE_MATCH_1}")
    if(_hb_cuda_major GREATER_EQUAL 13)
      set(_hb_archs "75-real;80-real;90")        # CUDA 13 dropped sm_50..sm_72
    elseif(_hb_cuda_major EQUAL 12)
      set(_hb_archs "60-real;70-real;80-real;90")
    else()
      set(_hb_archs "37-real;60-real;70-real;80")  # CUDA 11.x (sm_37 deprecated, still built)
    endif()
    set(CMAKE_CUDA_ARCHITECTURES "${_hb_archs}" CACHE STRING
        "CUDA architectures (K80=37, P100=60, V100=70, A100=80, H100=90)")
    message(STATUS "hinesbatch: CUDA ${_hb_cuda_major}.x, CMAKE_CUDA_ARCHITECTURES=${_hb_archs} (default)")
  endif()
  enable_language(CUDA)
  find_package(CUDAToolkit REQUIRED)
  set(HB_CUDA_ENABLED ON)
  # The CUDA runtime, linked statically into the shared library and the CLI
  # (they need only the driver's libcuda.so.1, loaded by the runtime). Static
  # users link it too, and the C++ runtime the .cu files' host code calls,
  # through the C or C++ linker: never the CUDA language (docs/api.md, Linking).
  list(APPEND HB_LINK_LIBS CUDA::cudart_static)
  list(APPEND HB_STATIC_LIBS CUDA::cudart_static stdc++)
  string(APPEND HB_STATIC_FIND "_hb_static_needs(CUDAToolkit \"the CUDA toolkit's "
    "libcudart_static.a\" ${CUDAToolkit_VERSION_MAJOR}.${CUDAToolkit_VERSION_MINOR})\n")
  string(APPEND HB_PC_PRIVATE_LIBS
    " -L${CUDAToolkit_LIBRARY_DIR} -lcudart_static -ldl -lrt -lpthread -lstdc++")
endif()
