# Installation: the SDK headers and a CMake package (component dev), so that third parties write
# `find_package(Starling)` and `starling_add_plugin_module()`, and the profiles (component runtime,
# with the binaries of apps/). `make deb` packs each component apart (StarlingPackage.cmake).
include(CMakePackageConfigHelpers)

install(DIRECTORY "${PROJECT_SOURCE_DIR}/sdk/include/starling/sdk"
    DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/starling" COMPONENT dev)
install(TARGETS starling_sdk EXPORT StarlingTargets COMPONENT dev)
install(EXPORT StarlingTargets
    NAMESPACE Starling::
    DESTINATION "${CMAKE_INSTALL_LIBDIR}/cmake/Starling" COMPONENT dev)

configure_package_config_file(
    "${PROJECT_SOURCE_DIR}/cmake/StarlingConfig.cmake.in"
    "${PROJECT_BINARY_DIR}/StarlingConfig.cmake"
    INSTALL_DESTINATION "${CMAKE_INSTALL_LIBDIR}/cmake/Starling")
# The ABI is the contract: same major, any minor up to ours.
write_basic_package_version_file(
    "${PROJECT_BINARY_DIR}/StarlingConfigVersion.cmake"
    COMPATIBILITY SameMajorVersion)
install(FILES
    "${PROJECT_BINARY_DIR}/StarlingConfig.cmake"
    "${PROJECT_BINARY_DIR}/StarlingConfigVersion.cmake"
    "${PROJECT_SOURCE_DIR}/cmake/StarlingPluginModule.cmake"
    "${PROJECT_SOURCE_DIR}/cmake/plugin-exports.map"
    DESTINATION "${CMAKE_INSTALL_LIBDIR}/cmake/Starling" COMPONENT dev)

# The configuration profiles, for reading and copying; `starling profile` carries them compiled in.
install(DIRECTORY "${PROJECT_SOURCE_DIR}/profiles/"
    DESTINATION "${CMAKE_INSTALL_DATADIR}/starling/profiles"
    FILES_MATCHING PATTERN "*.toml")
