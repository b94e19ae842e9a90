// SPDX-License-Identifier: Apache-2.0
// The only translation unit that uses Boost.DLL.
#include "module_library.hpp"

#include <starling/plugins/load_error.hpp>

#include <boost/dll/shared_library.hpp>
#include <dlfcn.h>

#include <array>
#include <fstream>
#include <system_error>

namespace starling::plugins {

namespace {

bool has_elf_magic(const std::filesystem::path &file) {
    std::ifstream stream(file, std::ios::binary);
    std::array<char, 4> magic{};
    stream.read(magic.data(), magic.size());
    return stream.gcount() == 4 && magic == std::array<char, 4>{'\x7f', 'E', 'L', 'F'};
}

LoadError module_error(LoadErrorKind kind, const std::filesystem::path &file, std::string detail) {
    LoadError error;
    error.kind = kind;
    error.file = file;
    error.host_abi = {STARLING_ABI_MAJOR, STARLING_ABI_MINOR};
    error.detail = std::move(detail);
    return error;
}

} // namespace

OpenedModule open_module(const std::filesystem::path &file) {
    // Checked before dlopen so that a stray text file gets a plain answer instead of
    // dlerror's "invalid ELF header" and nothing of it is ever mapped.
    if (!has_elf_magic(file)) {
        throw PluginLoadError(module_error(LoadErrorKind::not_a_shared_library, file, "no ELF header"));
    }
    namespace dll = boost::dll;
    // rtld_now: unresolved symbols fail here, not at the first call. RTLD_NODELETE: code stays
    // mapped even if a reference to a plugin object outlives the handle, so a late call can
    // never jump into unmapped memory.
    const auto mode = dll::load_mode::rtld_now | dll::load_mode::rtld_local |
                      static_cast<dll::load_mode::type>(RTLD_NODELETE);
    std::shared_ptr<dll::shared_library> library;
    try {
        library = std::make_shared<dll::shared_library>(file, mode);
    } catch (const std::system_error &failure) {
        throw PluginLoadError(module_error(LoadErrorKind::cannot_open, file, failure.what()));
    }
    OpenedModule opened;
    if (library->has(STARLING_MODULE_ENTRY_SYMBOL)) {
        opened.module = &library->get<const starling_module_entry>(STARLING_MODULE_ENTRY_SYMBOL);
    } else if (library->has(STARLING_PLUGIN_ENTRY_SYMBOL)) {
        opened.plugin_entry = library->get<const starling_plugin_descriptor *(const starling_host *)>(
            STARLING_PLUGIN_ENTRY_SYMBOL);
    } else {
        throw PluginLoadError(module_error(LoadErrorKind::missing_entry, file,
                                           "the module exports neither " STARLING_MODULE_ENTRY_SYMBOL
                                           " nor " STARLING_PLUGIN_ENTRY_SYMBOL));
    }
    opened.library = std::move(library);
    return opened;
}

} // namespace starling::plugins
