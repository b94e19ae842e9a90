// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/core/io/log.hpp>
#include <starling/plugins/load_error.hpp>
#include <starling/plugins/module_files.hpp>
#include <starling/plugins/plugin_info.hpp>
#include <starling/plugins/plugin_instance.hpp>
#include <starling/plugins/static_plugins.hpp>

#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace starling::plugins {

/// What the registry's host offers the plugins it registers.
struct PluginHostOptions {
    /// Where plugins may keep data they derive: each plugin is offered `<cache_root>/<plugin id>/`
    /// through "starling.host.cache/1". Without it, no plugin is offered a cache directory.
    std::optional<std::filesystem::path> cache_root;
    /// When set, each module is first loaded in a child process that gets this long to finish
    /// (probe_in_child): one that crashes, ends or hangs it is reported (misbehaved_at_load)
    /// and never loaded here. For processes without a worker of their own, which load modules
    /// they may not even use.
    std::optional<std::chrono::milliseconds> probe_modules_within;
    /// The active relevance policy, from which every plugin is offered "starling.host.similarity/1"
    /// (how similar memories are). Without it, no plugin is offered a similarity. Must outlive the
    /// registry's instances.
    const core::RelevanceScorer *similarity_from = nullptr;
};

/// A module in a plugin directory that repeats a plugin linked into the executable.
struct ModuleCopy {
    std::filesystem::path file;
    std::string plugin_id;
    std::string version;
};

/// The one place plugins are loaded: static plugins linked into the executable and modules found
/// in plugin directories. Checks the ABI handshake before calling anything else in a module,
/// refuses a second plugin with an id already registered (first registration wins; the later one
/// is reported), and creates instances that keep their library alive.
class PluginRegistry {
public:
    explicit PluginRegistry(const core::Logger &logger, PluginHostOptions options = {});
    ~PluginRegistry();
    PluginRegistry(const PluginRegistry &) = delete;
    PluginRegistry &operator=(const PluginRegistry &) = delete;

    /// Registers plugins linked into the executable, or with `only_plugin_ids` only those of these
    /// ids: registering runs a plugin's entry point, whose code the kernel must page in, and a hook
    /// that uses two of the linked plugins should not pay for the other fifteen. Failures are
    /// collected in problems().
    void add_static_plugins(std::span<const StaticPlugin> plugins,
                            const std::optional<std::vector<std::string>> &only_plugin_ids = std::nullopt);

    /// Loads every `*.so` in each directory (sorted by name; missing directories are skipped), or
    /// with `only_plugin_ids` only the modules named for those ids (module_file_name()) or whose
    /// manifest lists one (read_module_manifest()): loading runs a module's code, so a module
    /// nothing uses must not be able to break the process. The others are listed in
    /// modules_not_loaded(). Failures are collected in problems(), and logged.
    void discover_modules(const std::vector<std::filesystem::path> &directories,
                          const std::optional<std::vector<std::string>> &only_plugin_ids = std::nullopt);

    /// Loads one module and registers every plugin it offers: one for a module built before ABI
    /// 1.7, those of its factory for a later one, whose init() is called first with the module's
    /// path (and deinit() once the registry and every instance let it go). A plugin that is a copy
    /// of one linked into the executable (same id, same version, as `make install` once put in the
    /// plugin directory) is no conflict: it is listed in copies_of_linked_plugins() and the
    /// linked-in plugin is returned in its place. Returns the plugins in the module's order. Throws
    /// PluginLoadError when the module fails, or when none of its plugins registers; a plugin that
    /// fails beside others that register goes to problems().
    std::vector<PluginInfo> add_module(const std::filesystem::path &file);

    [[nodiscard]] const std::vector<PluginInfo> &plugins() const noexcept;
    [[nodiscard]] const PluginInfo *find(std::string_view id) const noexcept;
    /// Everything that failed to register, in the order it happened.
    [[nodiscard]] const std::vector<LoadError> &problems() const noexcept;
    /// Modules left unloaded because the same plugin at the same version is linked in.
    [[nodiscard]] const std::vector<ModuleCopy> &copies_of_linked_plugins() const noexcept;
    /// Modules discover_modules() left alone because no id it was given names them.
    [[nodiscard]] const std::vector<std::filesystem::path> &modules_not_loaded() const noexcept;

    /// Creates an instance with the given effective settings (a JSON object). Throws PluginLoadError.
    [[nodiscard]] PluginInstance create(std::string_view id, std::string_view settings_json) const;
    /// Creates an instance as create() does, in a child process, when this registry probes
    /// (PluginHostOptions::probe_modules_within): what the plugin did if it crashed, ended the
    /// process or did not return within that budget there ("did not finish being created within
    /// 300 ms"); nothing when it returned or threw, or when the registry does not probe. For a
    /// command that creates plugins only to check their settings and must report every one.
    [[nodiscard]] std::optional<std::string> probe_create(std::string_view id, std::string_view settings_json) const;
    [[nodiscard]] AdapterInstance create_adapter(std::string_view id, std::string_view settings_json) const;
    [[nodiscard]] DecisionPolicyInstance create_decision_policy(std::string_view id,
                                                                std::string_view settings_json) const;
    [[nodiscard]] DecayPolicyInstance create_decay_policy(std::string_view id, std::string_view settings_json) const;
    [[nodiscard]] RelevancePolicyInstance create_relevance_policy(std::string_view id,
                                                                  std::string_view settings_json) const;

private:
    struct Registered;
    std::vector<PluginInfo> register_module(const std::filesystem::path &file);
    const PluginInfo &register_descriptor(const starling_plugin_descriptor *descriptor,
                                          std::shared_ptr<const void> library, const std::filesystem::path &file,
                                          std::string_view static_symbol);
    [[nodiscard]] PluginInstance create_of_kind(std::string_view id, std::string_view settings_json,
                                                starling_plugin_kind kind, const char *interface_id) const;

    const core::Logger *logger_;
    std::optional<std::filesystem::path> cache_root_; // absolute
    std::optional<std::chrono::milliseconds> probe_budget_;
    const core::RelevanceScorer *similarity_from_;
    std::shared_ptr<HostContext> handshake_host_;
    std::vector<Registered> registered_;
    std::vector<PluginInfo> infos_;
    std::vector<LoadError> problems_;
    std::vector<ModuleCopy> copies_;
    std::vector<std::filesystem::path> not_loaded_;
};

} // namespace starling::plugins
