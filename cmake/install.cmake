# `cmake --install build --prefix PREFIX`: the allocsim program, the headers, the simulation
# libraries and an exported CMake package, so that a downstream project writes
#   find_package(allocsim REQUIRED)
#   target_link_libraries(my_program PRIVATE allocsim::core)
# with CMAKE_PREFIX_PATH=PREFIX (tests/install/ builds such a program in ctest).
# Exported: allocsim::core (simulation: topologies, workloads, allocators, schedulers, metrics)
# and allocsim::output (CSV/JSON/table writers). The sweep layers (MPI, HDF5) stay internal.
include(CMakePackageConfigHelpers)

set(ALLOCSIM_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/allocsim)
set_target_properties(allocsim_core PROPERTIES EXPORT_NAME core)
set_target_properties(allocsim_output PROPERTIES EXPORT_NAME output)
set_target_properties(allocsim_warnings PROPERTIES EXPORT_NAME warnings)

install(TARGETS allocsim RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# allocsim_warnings is a link-only (compile flags) dependency of the static libraries; it must be
# part of the export set, it adds nothing to a downstream target's link line.
install(TARGETS allocsim_core allocsim_output allocsim_warnings EXPORT allocsimTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/include/allocsim DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT allocsimTargets NAMESPACE allocsim:: DESTINATION ${ALLOCSIM_CMAKE_DIR})

configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/allocsimConfig.cmake.in
                              ${CMAKE_BINARY_DIR}/allocsimConfig.cmake
                              INSTALL_DESTINATION ${ALLOCSIM_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/allocsimConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/allocsimConfig.cmake
              ${CMAKE_BINARY_DIR}/allocsimConfigVersion.cmake
        DESTINATION ${ALLOCSIM_CMAKE_DIR})
