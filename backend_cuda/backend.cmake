# backend.cmake: adds the CUDA backend to hb_objects when nvcc is found (owned by the CUDA backend).
set(HB_CUDA_ENABLED OFF)
target_sources(hb_objects PRIVATE ${PROJECT_SOURCE_DIR}/backend_cuda/unavailable.c)
