# hb_package.cmake: what `cmake --install` and `cpack` deliver: headers, libraries, the CMake package, pkg-config, documents, and the .deb and .tar.gz.
# Included by CMakeLists.txt once the libraries exist; docs/api.md (Linking)
# says what each kind of consumer needs installed.

set(HB_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/hinesbatch)
set(HB_STATIC_FILE ${CMAKE_STATIC_LIBRARY_PREFIX}hinesbatch${CMAKE_STATIC_LIBRARY_SUFFIX})

# ---- files ---------------------------------------------------------------
file(GLOB HB_PUBLIC_HEADERS ${PROJECT_SOURCE_DIR}/api/include/hinesbatch*.h)
install(FILES ${HB_PUBLIC_HEADERS} ${HB_GENERATED_INCLUDE}/hinesbatch_version.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS hinesbatch EXPORT hinesbatchTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS hinesbatch_static ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE ${PROJECT_SOURCE_DIR}/CHANGELOG.md
        ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
# The NMODL translator (Python, run at a consumer's build time by
# hinesbatch_add_mechanisms(), docs/mechanisms.md), its host headers and the
# shipped .mod files.
set(HB_NMODL_INSTALL_DIR ${CMAKE_INSTALL_DATADIR}/hinesbatch/nmodl)
set(HB_MECH_INSTALL_DIR ${CMAKE_INSTALL_DATADIR}/hinesbatch/mechanisms)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/apps/nmodl/hb_nmodl ${PROJECT_SOURCE_DIR}/apps/nmodl/runtime
        DESTINATION ${HB_NMODL_INSTALL_DIR} FILES_MATCHING PATTERN "*.py" PATTERN "*.h"
        PATTERN "__pycache__" EXCLUDE)
install(PROGRAMS ${PROJECT_SOURCE_DIR}/apps/nmodl/hb_nmodl.py DESTINATION ${HB_NMODL_INSTALL_DIR})
file(GLOB HB_SHIPPED_MECHANISMS ${PROJECT_SOURCE_DIR}/data/mechanisms/*.mod)
install(FILES ${HB_SHIPPED_MECHANISMS} ${PROJECT_SOURCE_DIR}/data/mechanisms/SOURCES.md
        DESTINATION ${HB_MECH_INSTALL_DIR})

# ---- CMake package --------------------------------------------------------
# The shared library is exported by CMake: its backends' libraries are private
# (loaded with it), so the export names none. The static library is described
# in hinesbatchConfig.cmake instead (HB_STATIC_LIBS): CMake's export would
# list the languages its objects were compiled in, and CUDA there makes every
# consumer's link need the CUDA language.
install(EXPORT hinesbatchTargets NAMESPACE hinesbatch:: DESTINATION ${HB_CMAKE_DIR})
include(CMakePackageConfigHelpers)
configure_package_config_file(cmake/hinesbatchConfig.cmake.in
  ${PROJECT_BINARY_DIR}/hinesbatchConfig.cmake INSTALL_DESTINATION ${HB_CMAKE_DIR}
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_LIBDIR HB_NMODL_INSTALL_DIR HB_MECH_INSTALL_DIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/hinesbatchConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/hinesbatchConfig.cmake
  ${PROJECT_BINARY_DIR}/hinesbatchConfigVersion.cmake ${PROJECT_SOURCE_DIR}/cmake/hb_nmodl.cmake
  DESTINATION ${HB_CMAKE_DIR})

# ---- pkg-config -----------------------------------------------------------
# Libs.private (pkg-config --static) is every library libhinesbatch.a calls.
# The file finds its prefix relative to its own place, so that a tree
# installed with `cmake --install --prefix DIR`, or unpacked anywhere, works
# where it lands.
string(STRIP "${HB_PC_PRIVATE_LIBS}" HB_PC_PRIVATE_LIBS)
file(RELATIVE_PATH HB_PC_PREFIX_REL "/p/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/p")
configure_file(cmake/hinesbatch.pc.in ${PROJECT_BINARY_DIR}/hinesbatch.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/hinesbatch.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# ---- CPack: `cpack` in the build directory makes both packages -------------
# One package: library, headers, CMake and pkg-config files, the CLI.
set(CPACK_PACKAGE_NAME hinesbatch)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "the hinesbatch developers")
set(CPACK_PACKAGE_CONTACT "the hinesbatch developers")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "Batched Hines and tridiagonal solvers (CUDA, OpenCL, OpenMP) and neuron simulation")
set(CPACK_PACKAGE_DESCRIPTION "hinesbatch solves large batches of independent Hines systems \
(the tree-structured system of a neuron's cable equation) and tridiagonal systems at once, on \
CUDA, OpenCL or OpenMP, with a serial reference backend. This package holds the shared and \
static libraries, the C headers, the CMake package and pkg-config file, and the hinesbatch \
command-line program.")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_RESOURCE_FILE_README ${PROJECT_SOURCE_DIR}/README.md)
set(CPACK_GENERATOR TGZ DEB)
set(CPACK_SOURCE_GENERATOR TGZ)
set(CPACK_SOURCE_IGNORE_FILES "/\\\\.git/" "/build[^/]*/" "__pycache__")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # hinesbatch_0.1.0_amd64.deb
set(CPACK_DEBIAN_PACKAGE_SECTION science)
# Depends from the binaries (dpkg-shlibdeps: libc6, libgomp1,
# ocl-icd-libopencl1, libstdc++6 for CUDA builds, ...), with a shlibs file and
# the ldconfig trigger for libhinesbatch.so.N; CPack needs `file` (package
# file) and dpkg-shlibdeps (dpkg-dev) for that. Without them, Depends by hand.
# The CUDA runtime is linked in; the driver is loaded at run time and is no
# dependency: a machine without it runs the CPU backends.
find_program(HB_DPKG_SHLIBDEPS dpkg-shlibdeps)
find_program(HB_FILE_PROGRAM file)
if(HB_DPKG_SHLIBDEPS AND HB_FILE_PROGRAM)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
  set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
  set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")
else()
  message(STATUS "hinesbatch: the .deb's Depends written by hand (no dpkg-shlibdeps or file)")
  set(hb_depends "libc6")
  if(HB_OPENMP_ENABLED)
    string(APPEND hb_depends ", libgomp1")
  endif()
  if(HB_OPENCL_ENABLED)
    string(APPEND hb_depends ", ocl-icd-libopencl1 | libopencl1")
  endif()
  if(HB_CUDA_ENABLED)
    string(APPEND hb_depends ", libstdc++6")
  endif()
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "${hb_depends}")
endif()
set(hb_suggests "")
if(HB_OPENCL_ENABLED)
  # A device to run OpenCL on (PoCL: the CPU), and the loader's link-time
  # library for static consumers.
  list(APPEND hb_suggests "pocl-opencl-icd | opencl-icd" ocl-icd-opencl-dev)
endif()
if(HINESBATCH_BUILD_APPS)
  # `hinesbatch simulate --plot` runs share/hinesbatch/scripts/plot_traces.py.
  list(APPEND hb_suggests python3-matplotlib)
endif()
list(APPEND hb_suggests python3-sympy) # hinesbatch_add_mechanisms(): the NMODL translator
string(REPLACE ";" ", " CPACK_DEBIAN_PACKAGE_SUGGESTS "${hb_suggests}")
include(CPack)
