# backend.cmake: adds the OpenCL backend to hb_objects when OpenCL is found (owned by the OpenCL backend).
set(HB_OPENCL_ENABLED OFF)
target_sources(hb_objects PRIVATE ${PROJECT_SOURCE_DIR}/backend_opencl/unavailable.c)
