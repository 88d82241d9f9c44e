# backend.cmake: adds the OpenCL backend to hb_objects when OpenCL is found (owned by the OpenCL backend).
set(HB_OPENCL_ENABLED OFF)
if(NOT HINESBATCH_WITH_OPENCL STREQUAL "OFF")
  find_package(OpenCL)
  if(OpenCL_FOUND)
    set(HB_OPENCL_ENABLED ON)
  elseif(HINESBATCH_WITH_OPENCL STREQUAL "ON")
    message(FATAL_ERROR "HINESBATCH_WITH_OPENCL=ON but no OpenCL headers and library were found")
  endif()
endif()

if(HB_OPENCL_ENABLED)
  set(HB_CL_DIR ${PROJECT_SOURCE_DIR}/backend_opencl)
  # Kernel sources, embedded at build time: the prelude first (the other files
  # include it only when it is not already there), then the rest by name.
  file(GLOB HB_CL_FILES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/kernels_cl/*.cl)
  set(HB_CL_NAMES hb_prelude)
  foreach(f ${HB_CL_FILES})
    get_filename_component(n ${f} NAME_WE)
    if(NOT n STREQUAL "hb_prelude")
      list(APPEND HB_CL_NAMES ${n})
    endif()
  endforeach()
  string(REPLACE ";" "," HB_CL_NAMES_ARG "${HB_CL_NAMES}")
  set(HB_CL_GENERATED ${PROJECT_BINARY_DIR}/backend_opencl/hb_cl_sources.c)
  add_custom_command(OUTPUT ${HB_CL_GENERATED}
    COMMAND ${CMAKE_COMMAND} -DOUT=${HB_CL_GENERATED} -DSRC_DIR=${PROJECT_SOURCE_DIR}
            -DFILES=${HB_CL_NAMES_ARG} -P ${HB_CL_DIR}/embed_cl.cmake
    DEPENDS ${HB_CL_FILES} ${HB_CL_DIR}/embed_cl.cmake
    COMMENT "Embedding kernels_cl/*.cl into the OpenCL backend" VERBATIM)
  target_sources(hb_objects PRIVATE
    ${HB_CL_DIR}/backend.c ${HB_CL_DIR}/error.c ${HB_CL_DIR}/device.c ${HB_CL_DIR}/program.c
    ${HB_CL_DIR}/convert.c ${HB_CL_DIR}/thomas.c ${HB_CL_DIR}/hines.c ${HB_CL_DIR}/rowmap.c
    ${HB_CL_DIR}/hines_branches.c ${HB_CL_DIR}/block_shared.c ${HB_CL_DIR}/membrane.c
    ${HB_CL_GENERATED})
  target_include_directories(hb_objects PRIVATE ${HB_CL_DIR})
  # OpenCL 1.2 API: runs on every ICD, and no deprecation warnings for it.
  target_compile_definitions(hb_objects PRIVATE CL_TARGET_OPENCL_VERSION=120)
  target_link_libraries(hb_objects PRIVATE OpenCL::OpenCL)
  list(APPEND HB_LINK_LIBS OpenCL::OpenCL)
  string(APPEND HB_CONFIG_DEPENDENCIES "find_dependency(OpenCL)\n")
  string(APPEND HB_PC_BACKEND_LIBS " -lOpenCL")
  # Tests (added after this file) that drive OpenCL themselves, e.g. with their
  # own queue, compile that part only when the backend is built.
  add_compile_definitions(HB_BUILT_WITH_OPENCL=1)
else()
  target_sources(hb_objects PRIVATE ${PROJECT_SOURCE_DIR}/backend_opencl/unavailable.c)
endif()
