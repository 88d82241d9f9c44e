# hb_package.cmake: what `cmake --install` delivers: headers, libraries, the CMake package, pkg-config, documents.
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
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_LIBDIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/hinesbatchConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/hinesbatchConfig.cmake
  ${PROJECT_BINARY_DIR}/hinesbatchConfigVersion.cmake DESTINATION ${HB_CMAKE_DIR})

# ---- pkg-config -----------------------------------------------------------
# Libs.private (pkg-config --static) is every library libhinesbatch.a calls.
# The file finds its prefix relative to its own place, so that a tree
# installed with `cmake --install --prefix DIR`, or unpacked anywhere, works
# where it lands.
string(STRIP "${HB_PC_PRIVATE_LIBS}" HB_PC_PRIVATE_LIBS)
file(RELATIVE_PATH HB_PC_PREFIX_REL "/p/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/p")
configure_file(cmake/hinesbatch.pc.in ${PROJECT_BINARY_DIR}/hinesbatch.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/hinesbatch.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
