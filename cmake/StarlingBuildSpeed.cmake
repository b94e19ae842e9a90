# What keeps a build from scratch (CI's, a new contributor's) short. Neither changes what any code
# does: a precompiled header only holds headers the sources include anyway, and the tests' own code
# is not what ships.
#
# starling_precompile_headers(<target> [TESTS])
#   Parses the headers most of <target>'s sources include — the standard library's containers and
#   nlohmann/json, with TESTS Catch2 too — once for the target instead of once per source, which
#   saves 1-2 s of every compile; building the header costs about 7 s. Only the test executables,
#   compiled at -O0, use it: with it, GCC 12 at -O2 inlines std::string's operator+ differently and
#   reports a false -Warray-bounds (core's memory_file.cpp), which -Werror makes a failed build.
#   -DCMAKE_DISABLE_PRECOMPILE_HEADERS=ON builds without, which checks that every test includes
#   what it uses.
#
# starling_compile_tests_unoptimized(<target>)
#   Compiles the test executable <target> at -O0: its tests take half the time to compile that way,
#   and they are most of the build. What they test keeps the build type's level: the libraries
#   <target> links, and the sources from outside <target>'s folder it compiles itself (which then go
#   without the precompiled header). An -O given to a target or a source comes after the build
#   type's on the command line, so it is the one that counts. Needs CMAKE_BUILD_TYPE: with a
#   multi-configuration generator, every source of <target> is compiled at -O0.
include_guard(GLOBAL)

set(STARLING_PRECOMPILED_HEADERS
    <algorithm> <chrono> <cstdint> <filesystem> <functional> <map> <memory> <optional> <set> <string>
    <string_view> <unordered_map> <utility> <variant> <vector> <nlohmann/json.hpp>)

function(starling_precompile_headers target)
    cmake_parse_arguments(ARG "TESTS" "" "" ${ARGN})
    set(headers ${STARLING_PRECOMPILED_HEADERS})
    if(ARG_TESTS)
        list(APPEND headers <catch2/catch.hpp>)
    endif()
    # C++ only: a target with a C source would otherwise get a C header made of C++ ones. Inside a
    # generator expression a header's closing '>' is written $<ANGLE-R>.
    list(TRANSFORM headers REPLACE ">$" "$<ANGLE-R>")
    list(TRANSFORM headers PREPEND "$<$<COMPILE_LANGUAGE:CXX>:")
    list(TRANSFORM headers APPEND ">")
    target_precompile_headers(${target} PRIVATE ${headers})
endfunction()

function(starling_compile_tests_unoptimized target)
    target_compile_options(${target} PRIVATE -O0)
    # The build type's own level, given back to the sources the target compiles from outside tests/.
    string(TOUPPER "${CMAKE_BUILD_TYPE}" build_type)
    string(REGEX MATCHALL "-O[^ ]*" levels " ${CMAKE_CXX_FLAGS_${build_type}} ")
    list(POP_BACK levels build_type_level)
    if(NOT build_type_level)
        return()
    endif()
    get_target_property(sources ${target} SOURCES)
    get_target_property(source_dir ${target} SOURCE_DIR)
    foreach(source IN LISTS sources)
        cmake_path(ABSOLUTE_PATH source BASE_DIRECTORY "${source_dir}" NORMALIZE OUTPUT_VARIABLE path)
        cmake_path(IS_PREFIX source_dir "${path}" NORMALIZE in_tests)
        if(NOT in_tests)
            # The precompiled header is built at -O0, which a source at another level cannot use.
            set_property(SOURCE "${path}" TARGET_DIRECTORY ${target} PROPERTY SKIP_PRECOMPILE_HEADERS ON)
            set_property(SOURCE "${path}" TARGET_DIRECTORY ${target} APPEND PROPERTY COMPILE_OPTIONS ${build_type_level})
        endif()
    endforeach()
endfunction()
