/* error.c: OpenCL error codes as names, and the checked-call failure path of the OpenCL backend. */
#include "cl_backend.h"

const char *hb__cl_error_name(cl_int err)
{
    switch (err) {
#define HB_CL_NAME(code) \
    case code:           \
        return #code;
        HB_CL_NAME(CL_SUCCESS)
        HB_CL_NAME(CL_DEVICE_NOT_FOUND)
        HB_CL_NAME(CL_DEVICE_NOT_AVAILABLE)
        HB_CL_NAME(CL_COMPILER_NOT_AVAILABLE)
        HB_CL_NAME(CL_MEM_OBJECT_ALLOCATION_FAILURE)
        HB_CL_NAME(CL_OUT_OF_RESOURCES)
        HB_CL_NAME(CL_OUT_OF_HOST_MEMORY)
        HB_CL_NAME(CL_PROFILING_INFO_NOT_AVAILABLE)
        HB_CL_NAME(CL_MEM_COPY_OVERLAP)
        HB_CL_NAME(CL_IMAGE_FORMAT_MISMATCH)
        HB_CL_NAME(CL_IMAGE_FORMAT_NOT_SUPPORTED)
        HB_CL_NAME(CL_BUILD_PROGRAM_FAILURE)
        HB_CL_NAME(CL_MAP_FAILURE)
        HB_CL_NAME(CL_MISALIGNED_SUB_BUFFER_OFFSET)
        HB_CL_NAME(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
        HB_CL_NAME(CL_COMPILE_PROGRAM_FAILURE)
        HB_CL_NAME(CL_LINKER_NOT_AVAILABLE)
        HB_CL_NAME(CL_LINK_PROGRAM_FAILURE)
        HB_CL_NAME(CL_DEVICE_PARTITION_FAILED)
        HB_CL_NAME(CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
        HB_CL_NAME(CL_INVALID_VALUE)
        HB_CL_NAME(CL_INVALID_DEVICE_TYPE)
        HB_CL_NAME(CL_INVALID_PLATFORM)
        HB_CL_NAME(CL_INVALID_DEVICE)
        HB_CL_NAME(CL_INVALID_CONTEXT)
        HB_CL_NAME(CL_INVALID_QUEUE_PROPERTIES)
        HB_CL_NAME(CL_INVALID_COMMAND_QUEUE)
        HB_CL_NAME(CL_INVALID_HOST_PTR)
        HB_CL_NAME(CL_INVALID_MEM_OBJECT)
        HB_CL_NAME(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
        HB_CL_NAME(CL_INVALID_IMAGE_SIZE)
        HB_CL_NAME(CL_INVALID_SAMPLER)
        HB_CL_NAME(CL_INVALID_BINARY)
        HB_CL_NAME(CL_INVALID_BUILD_OPTIONS)
        HB_CL_NAME(CL_INVALID_PROGRAM)
        HB_CL_NAME(CL_INVALID_PROGRAM_EXECUTABLE)
        HB_CL_NAME(CL_INVALID_KERNEL_NAME)
        HB_CL_NAME(CL_INVALID_KERNEL_DEFINITION)
        HB_CL_NAME(CL_INVALID_KERNEL)
        HB_CL_NAME(CL_INVALID_ARG_INDEX)
        HB_CL_NAME(CL_INVALID_ARG_VALUE)
        HB_CL_NAME(CL_INVALID_ARG_SIZE)
        HB_CL_NAME(CL_INVALID_KERNEL_ARGS)
        HB_CL_NAME(CL_INVALID_WORK_DIMENSION)
        HB_CL_NAME(CL_INVALID_WORK_GROUP_SIZE)
        HB_CL_NAME(CL_INVALID_WORK_ITEM_SIZE)
        HB_CL_NAME(CL_INVALID_GLOBAL_OFFSET)
        HB_CL_NAME(CL_INVALID_EVENT_WAIT_LIST)
        HB_CL_NAME(CL_INVALID_EVENT)
        HB_CL_NAME(CL_INVALID_OPERATION)
        HB_CL_NAME(CL_INVALID_GL_OBJECT)
        HB_CL_NAME(CL_INVALID_BUFFER_SIZE)
        HB_CL_NAME(CL_INVALID_MIP_LEVEL)
        HB_CL_NAME(CL_INVALID_GLOBAL_WORK_SIZE)
        HB_CL_NAME(CL_INVALID_PROPERTY)
        HB_CL_NAME(CL_INVALID_IMAGE_DESCRIPTOR)
        HB_CL_NAME(CL_INVALID_COMPILER_OPTIONS)
        HB_CL_NAME(CL_INVALID_LINKER_OPTIONS)
        HB_CL_NAME(CL_INVALID_DEVICE_PARTITION_COUNT)
#undef HB_CL_NAME
    case -1001: return "CL_PLATFORM_NOT_FOUND_KHR";
    }
    return "unknown OpenCL error";
}

hb_status hb__cl_fail(cl_int err, const char *call, const char *what)
{
    /* Allocation failures may surface at first use of a buffer, not only at
     * clCreateBuffer: they are out-of-memory either way. CL_OUT_OF_RESOURCES
     * is not: NVIDIA also reports a kernel's invalid access with it. */
    hb_status st = err == CL_MEM_OBJECT_ALLOCATION_FAILURE || err == CL_OUT_OF_HOST_MEMORY
                       ? HB_ERR_OUT_OF_MEMORY
                       : HB_ERR_BACKEND;
    return hb__error(st, "OpenCL: %s (%s) failed: %s (%d)%s", call, what, hb__cl_error_name(err),
                     (int)err,
                     err == CL_OUT_OF_RESOURCES
                         ? " (out of device resources, or an invalid memory access in a kernel)"
                         : "");
}
