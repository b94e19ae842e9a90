# Build options and the two INTERFACE targets every Starling target links:
# starling_options (language level, definitions) and starling_warnings (the warning set).
option(STARLING_WARNINGS_AS_ERRORS "Treat compiler warnings as errors" ON)
option(STARLING_BUILD_TESTS "Build the test suites" ON)
option(STARLING_BUILD_PLUGIN_MODULES "Also build every in-tree plugin as a loadable module" ON)

if(NOT CMAKE_BUILD_TYPE AND NOT CMAKE_CONFIGURATION_TYPES)
    set(CMAKE_BUILD_TYPE RelWithDebInfo CACHE STRING "Build type" FORCE)
endif()

set(CMAKE_CXX_STANDARD 20)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
set(CMAKE_CXX_EXTENSIONS OFF)
set(CMAKE_C_STANDARD 11)
set(CMAKE_C_STANDARD_REQUIRED ON)
# Plugin objects go into both a static archive and a module, so all code is position independent.
set(CMAKE_POSITION_INDEPENDENT_CODE ON)
set(CMAKE_CXX_VISIBILITY_PRESET hidden)
set(CMAKE_C_VISIBILITY_PRESET hidden)
set(CMAKE_VISIBILITY_INLINES_HIDDEN ON)
set(CMAKE_EXPORT_COMPILE_COMMANDS ON)

add_library(starling_options INTERFACE)
add_library(starling_warnings INTERFACE)

# -Wnull-dereference is left out on purpose: nlohmann 3.11.2 trips it under GCC 12 at -O2.
target_compile_options(starling_warnings INTERFACE
    -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wold-style-cast -Wcast-align
    -Woverloaded-virtual -Wconversion -Wmisleading-indentation -Wduplicated-cond
    -Wduplicated-branches -Wlogical-op -Wformat=2 -Wimplicit-fallthrough
    $<$<BOOL:${STARLING_WARNINGS_AS_ERRORS}>:-Werror>)

# GCC 12 reports impossible -Wrestrict overlaps inside libstdc++'s std::string at -O2
# (GCC bug 105329: "accessing 9223372036854775810 or more bytes"); the code it points at is ours
# only through inlining. Fixed in GCC 13.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(starling_warnings INTERFACE -Wno-restrict)
endif()
