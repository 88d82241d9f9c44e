# nvidia-icd.sh: sourced: registers NVIDIA's OpenCL driver for this shell when the machine lists no NVIDIA ICD (GPU machine images often do not).
# Usage: . ci/nvidia-icd.sh BUILD_DIR   (the ICD folder goes into BUILD_DIR/icd)
# Also sets HB_CL_CMAKE_ARGS to CUDA's OpenCL headers and library when the
# system has no CL/cl.h (pass it to cmake).
build=${1:?usage: . ci/nvidia-icd.sh BUILD_DIR}
if ! grep -qs nvidia /etc/OpenCL/vendors/*.icd; then
    lib=$(ldconfig -p 2>/dev/null | sed -n 's/.*libnvidia-opencl\.so\.1 .*=> \(.*\)/\1/p' | head -1)
    if [ -n "$lib" ]; then
        mkdir -p "$build/icd"
        echo "$lib" >"$build/icd/nvidia.icd"
        for f in /etc/OpenCL/vendors/*.icd; do [ -e "$f" ] && cp "$f" "$build/icd/"; done
        export OCL_ICD_VENDORS="$build/icd"
        echo "registered the NVIDIA ICD for this run: $lib"
    else
        echo "WARNING: no NVIDIA OpenCL ICD and no libnvidia-opencl.so.1 found"
    fi
fi
HB_CL_CMAKE_ARGS=""
if [ ! -e /usr/include/CL/cl.h ]; then
    for cuda_dir in ${CUDA_HOME:-} /usr/local/cuda; do
        if [ -e "$cuda_dir/include/CL/cl.h" ]; then
            cl_lib=$(ls "$cuda_dir"/lib64/libOpenCL.so* "$cuda_dir"/targets/*/lib/libOpenCL.so* 2>/dev/null | head -1)
            HB_CL_CMAKE_ARGS="-DOpenCL_INCLUDE_DIR=$cuda_dir/include ${cl_lib:+-DOpenCL_LIBRARY=$cl_lib}"
            break
        fi
    done
fi

# PoCL beside NVIDIA: its cache in the build tree (the NVIDIA tests do not use it).
