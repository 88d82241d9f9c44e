# backend.cmake: adds the CUDA backend to hb_objects when nvcc is found (owned by the CUDA backend).
# HINESBATCH_WITH_CUDA: AUTO builds it when check_language(CUDA) finds nvcc, ON fails without it, OFF skips.
# CMAKE_CUDA_ARCHITECTURES is the user's (K80 = 37, P100 = 60, V100 = 70, A100 = 80, H100/H200 = 90);
# when unset, a list the installed nvcc can build is chosen below.
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
  target_sources(hb_objects PRIVATE
    ${PROJECT_SOURCE_DIR}/backend_cuda/backend.cu
    ${PROJECT_SOURCE_DIR}/backend_cuda/convert.cu
    ${PROJECT_SOURCE_DIR}/backend_cuda/thomas.cu
    ${PROJECT_SOURCE_DIR}/backend_cuda/hines.cu
    ${PROJECT_SOURCE_DIR}/backend_cuda/hines_branches.cu
    ${PROJECT_SOURCE_DIR}/backend_cuda/rowmap.cu
    ${PROJECT_SOURCE_DIR}/backend_cuda/membrane.cu
    ${PROJECT_SOURCE_DIR}/backend_cuda/block_shared.cu)
  # The .cu files include the OpenCL kernel text of kernels_cl/ (see cl_compat.cuh).
  target_include_directories(hb_objects PRIVATE ${PROJECT_SOURCE_DIR}/kernels_cl
                                                ${PROJECT_SOURCE_DIR}/backend_cuda)
  # hb_objects was made before CUDA was enabled, so it takes the architectures
  # here. -fmad=false: no contraction into fma, so with CUDA's correctly
  # rounded division the kernels round exactly as the host oracle does.
  set_target_properties(hb_objects PROPERTIES CUDA_ARCHITECTURES "${CMAKE_CUDA_ARCHITECTURES}"
    CUDA_STANDARD 14 CUDA_STANDARD_REQUIRED ON CUDA_VISIBILITY_PRESET hidden)
  target_compile_options(hb_objects PRIVATE
    $<$<COMPILE_LANGUAGE:CUDA>:-fmad=false -Xcompiler=-Wall,-Wextra>)
  target_link_libraries(hb_objects PRIVATE CUDA::cudart_static)
  list(APPEND HB_LINK_LIBS CUDA::cudart_static)
  string(APPEND HB_CONFIG_DEPENDENCIES "find_dependency(CUDAToolkit)\n")
  set(HB_PC_BACKEND_LIBS "-L${CUDAToolkit_LIBRARY_DIR} -lcudart_static -ldl -lrt -lpthread")
else()
  target_sources(hb_objects PRIVATE ${PROJECT_SOURCE_DIR}/backend_cuda/unavailable.c)
endif()
