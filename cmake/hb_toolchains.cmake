# hb_toolchains.cmake: finds the toolchain of each optional backend (OpenMP, OpenCL, CUDA) at the top level, where CMake wants languages enabled.
# Sets HB_OPENMP_ENABLED, HB_OPENCL_ENABLED, HB_CUDA_ENABLED and appends to
# HB_LINK_LIBS, HB_CONFIG_DEPENDENCIES and HB_PC_PRIVATE_LIBS; the backends'
# own CMakeLists.txt add their sources.

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
  string(APPEND HB_CONFIG_DEPENDENCIES "find_dependency(OpenMP COMPONENTS C)\n")
  string(APPEND HB_PC_PRIVATE_LIBS " ${OpenMP_C_FLAGS}")
endif()

if(NOT HINESBATCH_WITH_OPENCL STREQUAL "OFF")
  find_package(OpenCL)
endif()
hb_backend_rule(HB_OPENCL_ENABLED HINESBATCH_WITH_OPENCL OpenCL_FOUND
                "OpenCL (headers and an ICD loader)")
if(HB_OPENCL_ENABLED)
  list(APPEND HB_LINK_LIBS OpenCL::OpenCL)
  string(APPEND HB_CONFIG_DEPENDENCIES "find_dependency(OpenCL)\n")
  string(APPEND HB_PC_PRIVATE_LIBS " -lOpenCL")
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
  list(APPEND HB_LINK_LIBS CUDA::cudart_static)
  string(APPEND HB_CONFIG_DEPENDENCIES "find_dependency(CUDAToolkit)\n")
  string(APPEND HB_PC_PRIVATE_LIBS " -L${CUDAToolkit_LIBRARY_DIR} -lcudart_static -ldl -lrt -lpthread")
endif()
