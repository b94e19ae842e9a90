// SPDX-License-Identifier: Apache-2.0
#include <starling/core/config/config_environment.hpp>

#include <pwd.h>
#include <unistd.h>

#include <cstdlib>
#include <stdexcept>
#include <system_error>
#include <string>
#include <vector>

namespace starling::core {
namespace {

constexpr std::string_view starling_home_variable = "$STARLING_HOME";

std::optional<std::string> non_empty_variable(const char *name) {
    const char *value = std::getenv(name);
    if (value == nullptr || *value == '\0') {
        return std::nullopt;
    }
    return std::string{value};
}

std::optional<std::string> home_from_password_database() {
    const long suggested_size = sysconf(_SC_GETPW_R_SIZE_MAX);
    std::vector<char> buffer(suggested_size > 0 ? static_cast<std::size_t>(suggested_size) : 16384U);
    passwd entry{};
    passwd *found = nullptr;
    if (getpwuid_r(getuid(), &entry, buffer.data(), buffer.size(), &found) != 0 || found == nullptr ||
        found->pw_dir == nullptr || *found->pw_dir == '\0') {
        return std::nullopt;
    }
    return std::string{found->pw_dir};
}

/// The rest of `written` after `prefix` when `prefix` is a whole leading path component.
std::optional<std::string_view> after_leading_component(std::string_view written, std::string_view prefix) {
    if (!written.starts_with(prefix)) {
        return std::nullopt;
    }
    std::string_view rest = written.substr(prefix.size());
    if (rest.empty()) {
        return rest;
    }
    if (rest.front() != '/') {
        return std::nullopt;
    }
    while (!rest.empty() && rest.front() == '/') {
        rest.remove_prefix(1);
    }
    return rest;
}

std::filesystem::path join(const std::filesystem::path &base, std::string_view rest) {
    return rest.empty() ? base : base / std::filesystem::path{rest};
}

/// Hooks run in whatever directory the agent works in, so a relative store path would silently give
/// every project a store of its own; a file where the store should be would fail at the first read
/// with an error about some path inside it.
std::optional<std::string> starling_home_problem(const std::string &written, const std::filesystem::path &path) {
    if (path.is_relative()) {
        return "STARLING_HOME is the relative path '" + written +
               "': set it to an absolute path (a relative one names a different store in every directory "
               "an agent starts in)";
    }
    std::error_code error;
    const auto status = std::filesystem::status(path, error);
    if (!error && std::filesystem::exists(status) && !std::filesystem::is_directory(status)) {
        return "STARLING_HOME '" + path.string() +
               "' is not a directory: point it at the folder Starling keeps its store in (created when missing)";
    }
    return std::nullopt;
}

} // namespace

ConfigEnvironment from_process_environment() {
    ConfigEnvironment environment;
    auto home = non_empty_variable("HOME");
    if (!home) {
        home = home_from_password_database();
    }
    if (!home) {
        throw std::runtime_error("cannot find the home directory: HOME is not set and the user has no "
                                 "password database entry");
    }
    environment.home_dir = *home;
    if (const auto starling_home = non_empty_variable("STARLING_HOME")) {
        environment.starling_home = expand_config_path(*starling_home, environment, {});
        environment.starling_home_problem = starling_home_problem(*starling_home, *environment.starling_home);
    }
    return environment;
}

std::filesystem::path starling_home_dir(const ConfigEnvironment &environment) {
    if (environment.starling_home_problem) {
        throw std::invalid_argument(*environment.starling_home_problem);
    }
    if (environment.starling_home && !environment.starling_home->empty()) {
        return *environment.starling_home;
    }
    if (environment.home_dir.empty()) {
        throw std::invalid_argument("neither STARLING_HOME nor a home directory is known");
    }
    return environment.home_dir / ".starling";
}

std::filesystem::path default_config_file(const ConfigEnvironment &environment) {
    return starling_home_dir(environment) / "starling.toml";
}

std::filesystem::path expand_config_path(std::string_view written, const ConfigEnvironment &environment,
                                         const std::filesystem::path &relative_to) {
    if (const auto rest = after_leading_component(written, "~")) {
        if (environment.home_dir.empty()) {
            throw std::invalid_argument("cannot expand '~': the home directory is not known");
        }
        return join(environment.home_dir, *rest);
    }
    if (const auto rest = after_leading_component(written, starling_home_variable)) {
        return join(starling_home_dir(environment), *rest);
    }
    std::filesystem::path path{written};
    if (path.is_relative() && !relative_to.empty()) {
        return relative_to / path;
    }
    return path;
}

} // namespace starling::core
