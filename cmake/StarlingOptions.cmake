# Build options and the two INTERFACE targets every Starling target links:
# starling_options (language level, definitions) and starling_warnings (the warning set).
option(STARLING_WARNINGS_AS_ERRORS "Treat compiler warnings as errors" ON)
option(STARLING_BUILD_TESTS "Build the test suites" ON)
option(STARLING_BUILD_PLUGIN_MODULES "Also build every in-tree plugin as a loadable module" ON)
# `make fuzz`: libFuzzer targets in fuzz/, with everything they reach instrumented (ADR 0009).
option(STARLING_BUILD_FUZZERS "Build the libFuzzer targets of fuzz/ (Clang only)" OFF)

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

# GCC's own checks are left out for Clang, which only builds the fuzz targets and does not know them.
set(gcc_only "$<CXX_COMPILER_ID:GNU>")
# -Wnull-dereference is left out on purpose: nlohmann 3.11.2 trips it under GCC 12 at -O2.
target_compile_options(starling_warnings INTERFACE
    -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wold-style-cast -Wcast-align
    -Woverloaded-virtual -Wconversion -Wmisleading-indentation $<${gcc_only}:-Wduplicated-cond>
    $<${gcc_only}:-Wduplicated-branches> $<${gcc_only}:-Wlogical-op> -Wformat=2 -Wimplicit-fallthrough
    $<$<BOOL:${STARLING_WARNINGS_AS_ERRORS}>:-Werror>)

# GCC 12 reports impossible -Wrestrict overlaps inside libstdc++'s std::string at -O2
# (GCC bug 105329: "accessing 9223372036854775810 or more bytes"); the code it points at is ours
# only through inlining. Fixed in GCC 13.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(starling_warnings INTERFACE -Wno-restrict)
endif()

# Coverage feedback for libFuzzer and the sanitizers for every object the fuzz targets link, not only
# the targets themselves: a parser that is not instrumented gives the fuzzer nothing to steer by.
if(STARLING_BUILD_FUZZERS)
    if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
        message(FATAL_ERROR "STARLING_BUILD_FUZZERS needs Clang (libFuzzer): configure with -DCMAKE_CXX_COMPILER=clang++")
    endif()
    add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined
                        -fno-omit-frame-pointer)
    add_link_options(-fsanitize=address,undefined)
endif()
