/* dump_ptx.c: builds one kernels_cl file with NVIDIA's OpenCL as the library does and writes the PTX the driver made, plus its verbose build log (registers, spills). */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* usage: dump_ptx KERNELS_CL_DIR FILE double|float OUT.ptx [extra options] */
int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: %s KERNELS_CL_DIR FILE double|float OUT.ptx [options]\n", argv[0]);
        return 2;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", argv[1], argv[2]);
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); return 1; }
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    rewind(f);
    char *text = malloc((size_t)len + 1);
    if (fread(text, 1, (size_t)len, f) != (size_t)len) { fclose(f); return 1; }
    text[len] = 0;
    fclose(f);
    const int dbl = strcmp(argv[3], "double") == 0;
    const char *srcs[2] = {dbl ? "#define HB_DOUBLE 1\n" : "/* float */\n", text};

    cl_platform_id plats[8];
    cl_uint np = 0;
    clGetPlatformIDs(8, plats, &np);
    cl_device_id dev = NULL;
    for (cl_uint i = 0; i < np && !dev; ++i) {
        char name[256] = "";
        clGetPlatformInfo(plats[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
        if (strstr(name, "NVIDIA"))
            clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_GPU, 1, &dev, NULL);
    }
    if (!dev) { fprintf(stderr, "no NVIDIA OpenCL device\n"); return 1; }
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    cl_program prog = clCreateProgramWithSource(ctx, 2, srcs, NULL, &err);
    char opts[8192];
    snprintf(opts, sizeof opts, "-cl-std=CL1.2 %s -cl-nv-verbose -I %s %s",
             dbl ? "" : "-cl-fp32-correctly-rounded-divide-sqrt", argv[1], argc > 5 ? argv[5] : "");
    err = clBuildProgram(prog, 1, &dev, opts, NULL, NULL);
    size_t lsz = 0;
    clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &lsz);
    char *log = malloc(lsz + 1);
    clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, lsz, log, NULL);
    log[lsz] = 0;
    printf("options: %s\nbuild %d, log:\n%s\n", opts, err, log);
    if (err != CL_SUCCESS)
        return 1;
    size_t bsz = 0;
    clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof bsz, &bsz, NULL);
    unsigned char *bin = malloc(bsz);
    clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL);
    FILE *o = fopen(argv[4], "wb");
    fwrite(bin, 1, bsz, o);
    fclose(o);
    return 0;
}
