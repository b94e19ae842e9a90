// SPDX-License-Identifier: Apache-2.0
#include <starling/plugins/plugin_registry.hpp>

#include <starling/plugins/call_record.hpp>

#include "host_context.hpp"
#include "module_library.hpp"
#include "module_probe.hpp"

#include <starling/sdk/abi_layout.h>
#include <starling/sdk/bytes.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <iterator>
#include <stdexcept>
#include <system_error>

namespace starling::plugins {

/// A descriptor accepted by the registry, with what keeps its code mapped.
struct PluginRegistry::Registered {
    std::shared_ptr<const void> library; // null for static plugins
    const starling_plugin_descriptor *descriptor = nullptr;
    std::shared_ptr<HostContext> host;
    std::size_t info_index = 0;
};

namespace {

constexpr std::size_t kMaxIdLength = 64;

bool is_valid_id(const char *id) {
    if (id == nullptr) {
        return false;
    }
    const std::string_view text{id};
    if (text.empty() || text.size() > kMaxIdLength || text.front() == '-') {
        return false;
    }
    return std::all_of(text.begin(), text.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
    });
}

LoadError make_error(LoadErrorKind kind, const std::filesystem::path &file, std::string detail) {
    LoadError error;
    error.kind = kind;
    error.file = file;
    error.host_abi = {STARLING_ABI_MAJOR, STARLING_ABI_MINOR};
    error.detail = std::move(detail);
    return error;
}

/// The cache root made absolute, as the cache extension promises; nothing if that is impossible.
std::optional<std::filesystem::path> absolute_cache_root(const PluginHostOptions &options,
                                                         const core::Logger &logger) {
    if (!options.cache_root || options.cache_root->empty()) {
        return std::nullopt;
    }
    std::error_code error;
    auto absolute = std::filesystem::absolute(*options.cache_root, error);
    if (error) {
        logger.warning("plugin-host", options.cache_root->string() +
                                          ": cannot make the plugin cache root absolute, so plugins get no cache "
                                          "directory: " +
                                          error.message());
        return std::nullopt;
    }
    return absolute.lexically_normal();
}

/// Why code at `path` must not be loaded, if it must not: a module runs with the user's rights, so
/// one that another user could have written — writable by others, or owned by someone other than
/// the user or root — would run their code in every hook.
std::optional<std::string> unsafe_to_load_from(const std::filesystem::path &path) {
    struct stat status {};
    if (::stat(path.c_str(), &status) != 0) {
        return std::nullopt; // opening it will say what is wrong
    }
    // In a sticky folder others may add files but not replace ours; what they add fails the owner check.
    const bool sticky_folder = S_ISDIR(status.st_mode) && (status.st_mode & S_ISVTX) != 0;
    if ((status.st_mode & S_IWOTH) != 0 && !sticky_folder) {
        return "writable by every user (chmod o-w '" + path.string() + "')";
    }
    if (status.st_uid != ::getuid() && status.st_uid != 0) {
        return "owned by another user (uid " + std::to_string(status.st_uid) + ")";
    }
    return std::nullopt;
}

std::string origin_text(const PluginInfo &info) {
    return info.is_static ? std::string{"the static plugin linked into this binary"} : info.file.string();
}

/// A module of ABI 1.7 on, initialised: deinitialised when the last plugin instance and the
/// registry let it go, before its library handle is released.
class InitialisedModule {
public:
    InitialisedModule(std::shared_ptr<const void> library, const starling_module_entry *entry, std::string file)
        : library_(std::move(library)), entry_(entry), file_(std::move(file)) {}
    ~InitialisedModule() {
        const PluginCallScope unloading{file_, "deinit"};
        try {
            entry_->deinit();
        } catch (...) { // a C++ module that lets an exception escape must not take the host down
        }
    }
    InitialisedModule(const InitialisedModule &) = delete;
    InitialisedModule &operator=(const InitialisedModule &) = delete;

private:
    std::shared_ptr<const void> library_;
    const starling_module_entry *entry_;
    std::string file_;
};

/// What a module offers, with what keeps it loaded (and initialised).
struct ModuleDescriptors {
    std::shared_ptr<const void> library;
    std::vector<const starling_plugin_descriptor *> descriptors;
};

/// Runs the module side of the handshake: for a module of ABI 1.7 on, checks its entry, calls its
/// init with the module's path and reads its factory; for an earlier one, calls its plugin entry.
/// The descriptors themselves are checked when they are registered.
ModuleDescriptors module_descriptors(OpenedModule opened, const std::filesystem::path &file,
                                     const starling_host *host) {
    if (opened.plugin_entry != nullptr) {
        const starling_plugin_descriptor *descriptor = nullptr;
        try {
            descriptor = opened.plugin_entry(host);
        } catch (...) {
            throw PluginLoadError(make_error(LoadErrorKind::host_rejected, file,
                                             "the entry point threw instead of returning a descriptor"));
        }
        return {std::move(opened.library), {descriptor}};
    }
    const starling_module_entry &entry = *opened.module;
    auto error = make_error(LoadErrorKind::invalid_descriptor, file, {});
    error.plugin_abi = AbiVersion{entry.abi_major, entry.abi_minor};
    if (entry.abi_major != STARLING_ABI_MAJOR) {
        error.kind = LoadErrorKind::abi_major_mismatch;
        error.detail = "major versions differ; rebuild the module against this SDK";
        throw PluginLoadError(std::move(error));
    }
    if (entry.struct_size < STARLING_MODULE_ENTRY_SIZE_1_7) {
        error.detail = "module entry is " + std::to_string(entry.struct_size) + " bytes, ABI 1.7 needs " +
                       std::to_string(STARLING_MODULE_ENTRY_SIZE_1_7);
        throw PluginLoadError(std::move(error));
    }
    if (entry.init == nullptr || entry.deinit == nullptr || entry.get_factory == nullptr) {
        error.detail = "module entry lacks init, deinit or get_factory";
        throw PluginLoadError(std::move(error));
    }
    bool initialised = false;
    try {
        initialised = entry.init(host, file.c_str()) != 0;
    } catch (...) {
        error.kind = LoadErrorKind::host_rejected;
        error.detail = "the module's init threw";
        throw PluginLoadError(std::move(error));
    }
    if (!initialised) {
        error.kind = LoadErrorKind::host_rejected;
        error.detail = "the module's init refused this host";
        throw PluginLoadError(std::move(error));
    }
    ModuleDescriptors module;
    module.library = std::make_shared<const InitialisedModule>(std::move(opened.library), &entry, file.string());
    const auto *factory = static_cast<const starling_plugin_factory_v1 *>(entry.get_factory(STARLING_PLUGIN_FACTORY_V1));
    if (factory == nullptr || factory->struct_size < STARLING_PLUGIN_FACTORY_V1_SIZE_1_7 || factory->count == nullptr ||
        factory->descriptor == nullptr) {
        error.detail = factory == nullptr ? "the module offers no " STARLING_PLUGIN_FACTORY_V1
                                          : "the module's " STARLING_PLUGIN_FACTORY_V1 " is too small or lacks a function";
        throw PluginLoadError(std::move(error));
    }
    const std::uint32_t count = factory->count();
    if (count == 0) {
        error.detail = "the module offers no plugins";
        throw PluginLoadError(std::move(error));
    }
    for (std::uint32_t index = 0; index < count; ++index) {
        module.descriptors.push_back(factory->descriptor(host, index));
    }
    return module;
}

} // namespace

std::string kind_name(starling_plugin_kind kind) {
    switch (kind) {
    case STARLING_KIND_ADAPTER: return "adapter";
    case STARLING_KIND_DECISION_POLICY: return "decision";
    case STARLING_KIND_DECAY_POLICY: return "decay";
    case STARLING_KIND_RELEVANCE_POLICY: return "relevance";
    default: return "unknown(" + std::to_string(kind) + ")";
    }
}

PluginRegistry::PluginRegistry(const core::Logger &logger, PluginHostOptions options)
    : logger_(&logger), cache_root_(absolute_cache_root(options, logger)), probe_budget_(options.probe_modules_within),
      similarity_from_(options.similarity_from),
      handshake_host_(std::make_shared<HostContext>(logger, "plugin-host")) {}

PluginRegistry::~PluginRegistry() {
    // Reverse registration order, as fcitx5 unloads addons: later plugins may rely on earlier ones.
    while (!registered_.empty()) {
        registered_.pop_back();
    }
}

void PluginRegistry::add_static_plugins(std::span<const StaticPlugin> plugins,
                                        const std::optional<std::vector<std::string>> &only_plugin_ids) {
    std::vector<std::string> wanted_symbols;
    if (only_plugin_ids) {
        std::transform(only_plugin_ids->begin(), only_plugin_ids->end(), std::back_inserter(wanted_symbols),
                       static_plugin_symbol);
    }
    for (const auto &plugin : plugins) {
        if (only_plugin_ids && std::find(wanted_symbols.begin(), wanted_symbols.end(), plugin.symbol) == wanted_symbols.end()) {
            continue;
        }
        try {
            register_descriptor(plugin.entry(handshake_host_->host()), nullptr, {}, plugin.symbol);
        } catch (const PluginLoadError &failure) {
            logger_->error("plugin-host", failure.what());
            problems_.push_back(failure.error());
        }
    }
}

void PluginRegistry::discover_modules(const std::vector<std::filesystem::path> &directories,
                                      const std::optional<std::vector<std::string>> &only_plugin_ids) {
    const auto wanted = [&](const std::filesystem::path &module) {
        if (!only_plugin_ids) {
            return true;
        }
        try {
            return module_found_by_any(module, *only_plugin_ids);
        } catch (const std::runtime_error &failure) {
            auto problem = make_error(LoadErrorKind::invalid_descriptor, module,
                                      std::string{failure.what()} + "; the module is not loaded by id");
            logger_->error("plugin-host", problem.message());
            problems_.push_back(std::move(problem));
            return false;
        }
    };
    for (const auto &directory : directories) {
        std::error_code error;
        if (!std::filesystem::is_directory(directory, error)) {
            continue;
        }
        if (const auto unsafe = unsafe_to_load_from(directory)) {
            auto problem = make_error(LoadErrorKind::unsafe_location, directory, *unsafe + "; nothing in it is loaded");
            logger_->error("plugin-host", problem.message());
            problems_.push_back(std::move(problem));
            continue;
        }
        std::vector<std::filesystem::path> modules;
        for (const auto &entry : std::filesystem::directory_iterator(directory, error)) {
            if (entry.path().extension() != ".so" || !entry.is_regular_file(error)) {
                continue;
            }
            if (wanted(entry.path())) {
                modules.push_back(entry.path());
            } else {
                not_loaded_.push_back(entry.path());
            }
        }
        std::sort(modules.begin(), modules.end());
        for (const auto &module : modules) {
            try {
                add_module(module);
            } catch (const PluginLoadError &failure) {
                logger_->error("plugin-host", failure.what());
                problems_.push_back(failure.error());
            }
        }
    }
}

std::vector<PluginInfo> PluginRegistry::add_module(const std::filesystem::path &file) {
    const auto absolute = std::filesystem::absolute(file);
    if (const auto unsafe = unsafe_to_load_from(absolute)) {
        throw PluginLoadError(make_error(LoadErrorKind::unsafe_location, absolute, *unsafe + "; not loaded"));
    }
    if (probe_budget_) {
        const auto misbehaved = probe_in_child(
            [&] {
                const auto opened = open_module(absolute);
                static_cast<void>(module_descriptors(opened, absolute, handshake_host_->host()));
            },
            *probe_budget_, "loading");
        if (misbehaved) {
            throw PluginLoadError(make_error(LoadErrorKind::misbehaved_at_load, absolute, *misbehaved + "; not loaded"));
        }
    }
    return register_module(absolute);
}

std::vector<PluginInfo> PluginRegistry::register_module(const std::filesystem::path &file) {
    // Loading runs the module's own code (its constructors, its init, then its entry points).
    const PluginCallScope loading{file.string(), "load"};
    const auto module = module_descriptors(open_module(file), file, handshake_host_->host());
    std::vector<PluginInfo> registered;
    std::vector<PluginLoadError> failures;
    for (const auto *descriptor : module.descriptors) {
        try {
            registered.push_back(register_descriptor(descriptor, module.library, file, {}));
        } catch (const PluginLoadError &failure) {
            failures.push_back(failure);
        }
    }
    // With nothing registered the module failed as a whole, and the throw reports the first failure.
    const std::size_t reported_by_throw = registered.empty() && !failures.empty() ? 1 : 0;
    for (std::size_t index = reported_by_throw; index < failures.size(); ++index) {
        logger_->error("plugin-host", failures[index].what());
        problems_.push_back(failures[index].error());
    }
    if (reported_by_throw != 0) {
        throw failures.front();
    }
    return registered;
}

const PluginInfo &PluginRegistry::register_descriptor(const starling_plugin_descriptor *descriptor,
                                                      std::shared_ptr<const void> library,
                                                      const std::filesystem::path &file,
                                                      std::string_view static_symbol) {
    const std::string where = static_symbol.empty() ? std::string{}
                                                    : "static entry starling_plugin_entry_" + std::string{static_symbol};
    if (descriptor == nullptr) {
        throw PluginLoadError(make_error(LoadErrorKind::host_rejected, file,
                                         "the entry point returned no descriptor for this host ABI" +
                                             (where.empty() ? std::string{} : " (" + where + ")")));
    }
    auto error = make_error(LoadErrorKind::invalid_descriptor, file, {});
    error.plugin_abi = AbiVersion{descriptor->abi_major, descriptor->abi_minor};
    if (descriptor->abi_major != STARLING_ABI_MAJOR) {
        error.kind = LoadErrorKind::abi_major_mismatch;
        error.detail = "major versions differ; rebuild the plugin against this SDK";
        throw PluginLoadError(std::move(error));
    }
    // Within one major version the 1.0 fields keep their place, so the id can be trusted for
    // the messages below once the size covers it.
    if (descriptor->struct_size >= STARLING_PLUGIN_DESCRIPTOR_SIZE_1_0 && is_valid_id(descriptor->id)) {
        error.plugin_id = descriptor->id;
    }
    if (descriptor->struct_size < STARLING_PLUGIN_DESCRIPTOR_SIZE_1_0) {
        error.detail = "descriptor is " + std::to_string(descriptor->struct_size) + " bytes, ABI 1.0 needs " +
                       std::to_string(STARLING_PLUGIN_DESCRIPTOR_SIZE_1_0);
        throw PluginLoadError(std::move(error));
    }
    // The minor a plugin was built against is information: it says what the plugin may use, and
    // sizes and extension ids say what it does use. Only a plugin that declares it needs a newer
    // host is refused — and only a descriptor of 1.7 on can declare it, whatever its size.
    constexpr std::uint32_t declares_host_minor_since = 7;
    if (descriptor->abi_minor >= declares_host_minor_since &&
        STARLING_STRUCT_HAS(starling_plugin_descriptor, descriptor->struct_size, host_minor_required) &&
        descriptor->host_minor_required > STARLING_ABI_MINOR) {
        error.kind = LoadErrorKind::needs_newer_host;
        error.detail = "the plugin needs host ABI " + std::to_string(STARLING_ABI_MAJOR) + "." +
                       std::to_string(descriptor->host_minor_required) + " or newer; upgrade Starling";
        throw PluginLoadError(std::move(error));
    }
    if (!is_valid_id(descriptor->id)) {
        error.detail = "plugin id must match [a-z0-9][a-z0-9-]* (at most 64 characters)";
        throw PluginLoadError(std::move(error));
    }
    if (!static_symbol.empty() && static_plugin_symbol(descriptor->id) != static_symbol) {
        // Registering only the plugins in use finds them by the symbol their id links under.
        error.detail = "the " + where + " registers the id '" + descriptor->id + "', which links as starling_plugin_entry_" +
                       static_plugin_symbol(descriptor->id);
        throw PluginLoadError(std::move(error));
    }
    if (descriptor->version == nullptr || descriptor->create == nullptr || descriptor->destroy == nullptr ||
        descriptor->get_interface == nullptr) {
        error.detail = "descriptor lacks a version, create, destroy or get_interface";
        throw PluginLoadError(std::move(error));
    }
    if (const auto *existing = find(descriptor->id)) {
        if (existing->is_static && library != nullptr && existing->version == descriptor->version) {
            copies_.push_back({file, existing->id, existing->version});
            return *existing;
        }
        error.kind = LoadErrorKind::duplicate_id;
        error.detail = "already registered by " + origin_text(*existing) + " (version " + existing->version +
                       ", this one is " + descriptor->version + "); this one is ignored";
        throw PluginLoadError(std::move(error));
    }

    PluginInfo info;
    info.id = descriptor->id;
    info.version = descriptor->version;
    info.description = descriptor->description == nullptr ? "" : descriptor->description;
    info.kind = descriptor->kind;
    info.abi_major = descriptor->abi_major;
    info.abi_minor = descriptor->abi_minor;
    info.is_static = library == nullptr;
    info.file = file;
    info.default_settings_json =
        descriptor->default_settings_json == nullptr ? "{}" : descriptor->default_settings_json;
    infos_.push_back(std::move(info));

    Registered registered;
    registered.library = std::move(library);
    registered.descriptor = descriptor;
    registered.host = std::make_shared<HostContext>(
        *logger_, "plugin " + std::string{descriptor->id},
        cache_root_ ? std::optional{*cache_root_ / descriptor->id} : std::nullopt, similarity_from_);
    registered.info_index = infos_.size() - 1;
    registered_.push_back(std::move(registered));
    return infos_.back();
}

const std::vector<PluginInfo> &PluginRegistry::plugins() const noexcept { return infos_; }

const PluginInfo *PluginRegistry::find(std::string_view id) const noexcept {
    const auto found = std::find_if(infos_.begin(), infos_.end(), [&](const PluginInfo &info) { return info.id == id; });
    return found == infos_.end() ? nullptr : &*found;
}

const std::vector<LoadError> &PluginRegistry::problems() const noexcept { return problems_; }

const std::vector<ModuleCopy> &PluginRegistry::copies_of_linked_plugins() const noexcept { return copies_; }

const std::vector<std::filesystem::path> &PluginRegistry::modules_not_loaded() const noexcept { return not_loaded_; }

PluginInstance PluginRegistry::create(std::string_view id, std::string_view settings_json) const {
    const auto found = std::find_if(registered_.begin(), registered_.end(), [&](const Registered &registered) {
        return infos_[registered.info_index].id == id;
    });
    if (found == registered_.end()) {
        auto error = make_error(LoadErrorKind::unknown_plugin, {}, "no plugin with id '" + std::string{id} + "'");
        throw PluginLoadError(std::move(error));
    }
    const PluginInfo &info = infos_[found->info_index];
    sdk::StringSink message;
    void *instance = nullptr;
    try {
        const PluginCallScope running{info.id, "create"};
        instance = found->descriptor->create(found->host->host(), sdk::as_bytes(settings_json), message.sink());
    } catch (const std::exception &failure) {
        message = sdk::StringSink{};
        sdk::write_to(message.sink(), std::string{"threw across the plugin ABI: "} + failure.what());
    } catch (...) {
        message = sdk::StringSink{};
        sdk::write_to(message.sink(), "threw across the plugin ABI");
    }
    if (instance == nullptr) {
        auto error = make_error(LoadErrorKind::create_failed, info.file,
                                message.text().empty() ? std::string{"create() returned no instance"} : message.text());
        error.plugin_id = info.id;
        error.plugin_abi = AbiVersion{info.abi_major, info.abi_minor};
        throw PluginLoadError(std::move(error));
    }
    return PluginInstance{found->library, found->host, found->descriptor, instance, info};
}

std::optional<std::string> PluginRegistry::probe_create(std::string_view id, std::string_view settings_json) const {
    if (!probe_budget_) {
        return std::nullopt;
    }
    return probe_in_child([&] { static_cast<void>(create(id, settings_json)); }, *probe_budget_, "being created");
}

PluginInstance PluginRegistry::create_of_kind(std::string_view id, std::string_view settings_json,
                                              starling_plugin_kind kind, const char *interface_id) const {
    if (const auto *info = find(id); info != nullptr && info->kind != kind) {
        auto error = make_error(LoadErrorKind::wrong_kind, info->file,
                                "is a " + kind_name(info->kind) + " plugin, not a " + kind_name(kind) + " plugin (" +
                                    interface_id + ")");
        error.plugin_id = info->id;
        error.plugin_abi = AbiVersion{info->abi_major, info->abi_minor};
        throw PluginLoadError(std::move(error));
    }
    return create(id, settings_json);
}

AdapterInstance PluginRegistry::create_adapter(std::string_view id, std::string_view settings_json) const {
    return AdapterInstance{create_of_kind(id, settings_json, STARLING_KIND_ADAPTER, STARLING_ADAPTER_INTERFACE_V1)};
}

DecisionPolicyInstance PluginRegistry::create_decision_policy(std::string_view id,
                                                              std::string_view settings_json) const {
    return DecisionPolicyInstance{
        create_of_kind(id, settings_json, STARLING_KIND_DECISION_POLICY, STARLING_DECISION_INTERFACE_V1)};
}

DecayPolicyInstance PluginRegistry::create_decay_policy(std::string_view id, std::string_view settings_json) const {
    return DecayPolicyInstance{create_of_kind(id, settings_json, STARLING_KIND_DECAY_POLICY, STARLING_DECAY_INTERFACE_V1)};
}

RelevancePolicyInstance PluginRegistry::create_relevance_policy(std::string_view id,
                                                                std::string_view settings_json) const {
    return RelevancePolicyInstance{
        create_of_kind(id, settings_json, STARLING_KIND_RELEVANCE_POLICY, STARLING_RELEVANCE_INTERFACE_V1)};
}

} // namespace starling::plugins
