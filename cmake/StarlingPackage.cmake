# `make deb`: the Debian packages, made by CPack from the install rules, one package per component.
#   starling      (component runtime, the default of every install() that names no component: the
#                 `starling` command, the hook binaries, the profiles, man pages and completions,
#                 /usr/share/doc/starling/copyright)
#   starling-dev  (component dev: the plugin SDK headers and the CMake package, for plugins built
#                 out of tree)
# Binaries are stripped; their dependencies are the Debian packages of the shared libraries they
# link, as dpkg-shlibdeps finds them (dpkg-dev, ADR 0014). scripts/test-deb checks all of it.
include_guard(GLOBAL)

# The copyright file in Debian's machine-readable format, made from LICENSE and NOTICE so that it
# cannot drift from them: NOTICE's copyright line, NOTICE itself as the comment, and the license by
# name. Debian ships the Apache-2.0 text in /usr/share/common-licenses (base-files).
file(STRINGS "${PROJECT_SOURCE_DIR}/LICENSE" starling_license_head LIMIT_COUNT 3)
if(NOT starling_license_head MATCHES "Apache License;.*Version 2\\.0")
    message(FATAL_ERROR "LICENSE is not the Apache License 2.0 that cmake/StarlingPackage.cmake declares "
                        "in the Debian copyright file; update the License fields there")
endif()
file(READ "${PROJECT_SOURCE_DIR}/NOTICE" starling_notice)
if(NOT starling_notice MATCHES "Copyright ([^\n]+)")
    message(FATAL_ERROR "NOTICE has no \"Copyright <years> <holders>\" line for the Debian copyright file")
endif()
set(starling_copyright_holders "${CMAKE_MATCH_1}")
# A field's continuation lines start with a space; an empty one is " .".
string(STRIP "${starling_notice}" starling_notice)
string(REPLACE "\n" "\n " starling_notice_field "${starling_notice}")
string(REPLACE "\n \n" "\n .\n" starling_notice_field "${starling_notice_field}")
string(REPLACE "\n \n" "\n .\n" starling_notice_field "${starling_notice_field}")
file(CONFIGURE OUTPUT "${PROJECT_BINARY_DIR}/debian/copyright" CONTENT
"Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: Starling
Comment: The NOTICE file of Starling:
 .
 ${starling_notice_field}

Files: *
Copyright: ${starling_copyright_holders}
License: Apache-2.0

License: Apache-2.0
 Licensed under the Apache License, Version 2.0 (the \"License\");
 you may not use this file except in compliance with the License.
 You may obtain a copy of the License at
 .
 http://www.apache.org/licenses/LICENSE-2.0
 .
 Unless required by applicable law or agreed to in writing, software
 distributed under the License is distributed on an \"AS IS\" BASIS,
 WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 See the License for the specific language governing permissions and
 limitations under the License.
 .
 On Debian systems, the complete text of the Apache License, Version 2.0
 can be found in \"/usr/share/common-licenses/Apache-2.0\".
" @ONLY)
# Debian policy: every package carries its own copyright file.
install(FILES "${PROJECT_BINARY_DIR}/debian/copyright"
    DESTINATION "${CMAKE_INSTALL_DATAROOTDIR}/doc/starling" COMPONENT runtime)
install(FILES "${PROJECT_BINARY_DIR}/debian/copyright"
    DESTINATION "${CMAKE_INSTALL_DATAROOTDIR}/doc/starling-dev" COMPONENT dev)

set(STARLING_PACKAGE_MAINTAINER "The Starling authors <dev@starling.invalid>" CACHE STRING
    "The Maintainer field of the Debian packages (make deb)")

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME starling)
set(CPACK_PACKAGE_VENDOR "The Starling authors")
set(CPACK_PACKAGE_CONTACT "${STARLING_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
# Each package's description below starts with its own synopsis; CPack would otherwise put the
# project's description as a first line above both.
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
# Only these two become packages. scripts/test-deb compares them with `cmake --install`, which
# installs every component, so a file installed with any other component fails it.
set(CPACK_COMPONENTS_ALL runtime dev)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_COMPRESSION_TYPE xz)

set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME starling)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_RUNTIME_DESCRIPTION "long-term memory shared by every coding agent
Starling runs from the hooks of Claude Code, Codex, Gemini CLI, GitHub Copilot
CLI, OpenCode, Cursor and Codeflicker. It logs what you say, decides what is
worth remembering, keeps it as Markdown files, reinforces what gets used, lets
the rest decay, and puts the right memories back into the agent's context.
`starling install claude-code` (or another agent) adds its hooks.")

set(CPACK_DEBIAN_DEV_PACKAGE_NAME starling-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEV_PACKAGE_ARCHITECTURE all)
# What StarlingConfig.cmake finds for Starling::sdk (find_dependency); the component dependency
# adds `starling (= <this version>)`, the host the plugins are built for.
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "libboost-dev (>= 1.74), nlohmann-json3-dev (>= 3.11)")
set(CPACK_DEBIAN_ENABLE_COMPONENT_DEPENDS ON)
set(CPACK_DEBIAN_DEV_DESCRIPTION "plugin SDK of Starling, the coding agents' long-term memory
The C ABI header, the header-only C++ layer and the CMake package
(find_package(Starling), starling_add_plugin_module()) for building Starling
plugins (agent adapters and policies) as loadable modules.")

include(CPack)
cpack_add_component(runtime DISPLAY_NAME "Starling" REQUIRED)
cpack_add_component(dev DISPLAY_NAME "Starling plugin SDK" DEPENDS runtime)
