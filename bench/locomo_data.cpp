// SPDX-License-Identifier: Apache-2.0
#include "locomo_data.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <optional>
#include <sstream>
#include <string_view>

namespace starling::bench {

namespace {

using Json = nlohmann::json;

/// Where a value sits in the file, for error messages: `$[2].qa[15].category`.
class JsonPath {
public:
    JsonPath() = default;
    [[nodiscard]] JsonPath operator/(std::string_view key) const {
        return JsonPath{text_ + "." + std::string{key}};
    }
    [[nodiscard]] JsonPath operator/(std::size_t index) const {
        return JsonPath{text_ + "[" + std::to_string(index) + "]"};
    }
    [[nodiscard]] const std::string &text() const noexcept { return text_; }

private:
    explicit JsonPath(std::string text) : text_(std::move(text)) {}
    std::string text_ = "$";
};

class Reader {
public:
    explicit Reader(std::filesystem::path file) : file_(std::move(file)) {}

    [[noreturn]] void fail(const JsonPath &path, std::string_view problem) const {
        throw LocomoDataError(file_.string() + ": " + path.text() + ": " + std::string{problem});
    }

    const Json &member(const Json &object, std::string_view key, const JsonPath &path) const {
        const auto found = object.find(key);
        if (found == object.end()) {
            fail(path / key, "missing");
        }
        return *found;
    }

    std::string string_member(const Json &object, std::string_view key, const JsonPath &path) const {
        const Json &value = member(object, key, path);
        if (!value.is_string()) {
            fail(path / key, "expected a string");
        }
        return value.get<std::string>();
    }

    const Json &expect(const Json &value, Json::value_t type, const char *what, const JsonPath &path) const {
        if (value.type() != type) {
            fail(path, std::string{"expected "} + what);
        }
        return value;
    }

    [[nodiscard]] const std::filesystem::path &file() const noexcept { return file_; }

private:
    std::filesystem::path file_;
};

/// The session number of "D12:3", or nothing when `id` is not of the form D<number>:<number>.
std::optional<int> session_of_dia_id(std::string_view id) {
    if (id.size() < 4 || id.front() != 'D') {
        return std::nullopt;
    }
    const auto colon = id.find(':');
    if (colon == std::string_view::npos) {
        return std::nullopt;
    }
    const auto all_digits = [](std::string_view part) {
        return !part.empty() &&
               std::all_of(part.begin(), part.end(), [](char c) { return c >= '0' && c <= '9'; });
    };
    const auto session = id.substr(1, colon - 1);
    if (!all_digits(session) || !all_digits(id.substr(colon + 1))) {
        return std::nullopt;
    }
    int number = 0;
    std::from_chars(session.data(), session.data() + session.size(), number);
    return number;
}

LocomoTurn read_turn(const Reader &reader, const Json &turn, const JsonPath &path, int session) {
    reader.expect(turn, Json::value_t::object, "a turn object", path);
    LocomoTurn read;
    read.dia_id = reader.string_member(turn, "dia_id", path);
    if (session_of_dia_id(read.dia_id) != session) {
        reader.fail(path / "dia_id",
                    "expected D" + std::to_string(session) + ":<turn>, got '" + read.dia_id + "'");
    }
    read.speaker = reader.string_member(turn, "speaker", path);
    read.text = reader.string_member(turn, "text", path);
    if (const auto caption = turn.find("blip_caption"); caption != turn.end() && !caption->is_null()) {
        read.image_caption = reader.string_member(turn, "blip_caption", path);
    }
    return read;
}

std::vector<LocomoSession> read_sessions(const Reader &reader, const Json &conversation,
                                         const JsonPath &path) {
    reader.expect(conversation, Json::value_t::object, "an object", path);
    std::vector<LocomoSession> sessions;
    for (const auto &[key, value] : conversation.items()) {
        constexpr std::string_view prefix = "session_";
        const std::string_view name{key};
        if (!name.starts_with(prefix) || name.find('_', prefix.size()) != std::string_view::npos) {
            continue; // speaker_a, session_N_date_time: read with their session
        }
        const auto number_text = name.substr(prefix.size());
        int number = 0;
        const auto [end, error] =
            std::from_chars(number_text.data(), number_text.data() + number_text.size(), number);
        if (error != std::errc{} || end != number_text.data() + number_text.size()) {
            continue;
        }
        const auto session_path = path / key;
        reader.expect(value, Json::value_t::array, "a list of turns", session_path);
        LocomoSession session;
        session.number = number;
        session.date_time = reader.string_member(conversation, key + "_date_time", path);
        for (std::size_t index = 0; index < value.size(); ++index) {
            session.turns.push_back(read_turn(reader, value[index], session_path / index, number));
        }
        sessions.push_back(std::move(session));
    }
    std::sort(sessions.begin(), sessions.end(), [](const LocomoSession &left, const LocomoSession &right) {
        return left.number < right.number;
    });
    return sessions;
}

/// Splits an evidence string on ';', ',' and spaces: the file has "D8:6; D9:17" for two ids.
void read_evidence(const std::string &text, LocomoQuestion &question) {
    std::size_t position = 0;
    while (position < text.size()) {
        const auto start = text.find_first_not_of(";, \t", position);
        if (start == std::string::npos) {
            break;
        }
        const auto end = std::min(text.find_first_of(";, \t", start), text.size());
        const auto id = text.substr(start, end - start);
        if (!session_of_dia_id(id)) {
            ++question.ignored_evidence;
        } else if (std::find(question.evidence.begin(), question.evidence.end(), id) ==
                   question.evidence.end()) {
            question.evidence.push_back(id);
        }
        position = end;
    }
}

LocomoQuestion read_question(const Reader &reader, const Json &item, const JsonPath &path) {
    reader.expect(item, Json::value_t::object, "a question object", path);
    LocomoQuestion question;
    question.question = reader.string_member(item, "question", path);
    const Json &category = reader.member(item, "category", path);
    if (!category.is_number_integer() || category.get<int>() < 1 || category.get<int>() > 5) {
        reader.fail(path / "category", "expected an integer from 1 to 5");
    }
    question.category = category.get<int>();
    const auto evidence_path = path / "evidence";
    const Json &evidence = reader.expect(reader.member(item, "evidence", path), Json::value_t::array,
                                         "a list of dia_ids", evidence_path);
    for (std::size_t index = 0; index < evidence.size(); ++index) {
        if (!evidence[index].is_string()) {
            reader.fail(evidence_path / index, "expected a string");
        }
        read_evidence(evidence[index].get<std::string>(), question);
    }
    return question;
}

} // namespace

std::vector<LocomoConversation> load_locomo(const std::filesystem::path &data_file) {
    std::ifstream stream(data_file, std::ios::binary);
    if (!stream) {
        throw LocomoDataError(data_file.string() + ": cannot open the file");
    }
    std::ostringstream contents;
    contents << stream.rdbuf();
    Json document;
    try {
        document = Json::parse(contents.str());
    } catch (const Json::parse_error &failure) {
        throw LocomoDataError(data_file.string() + ": not valid JSON: " + failure.what());
    }
    const Reader reader{data_file};
    const JsonPath root;
    reader.expect(document, Json::value_t::array, "a list of conversations", root);

    std::vector<LocomoConversation> conversations;
    for (std::size_t index = 0; index < document.size(); ++index) {
        const auto path = root / index;
        const Json &item =
            reader.expect(document[index], Json::value_t::object, "a conversation object", path);
        LocomoConversation conversation;
        conversation.sample_id = reader.string_member(item, "sample_id", path);
        conversation.sessions =
            read_sessions(reader, reader.member(item, "conversation", path), path / "conversation");
        const auto qa_path = path / "qa";
        const Json &qa = reader.expect(reader.member(item, "qa", path), Json::value_t::array,
                                       "a list of questions", qa_path);
        for (std::size_t question = 0; question < qa.size(); ++question) {
            conversation.questions.push_back(read_question(reader, qa[question], qa_path / question));
        }
        conversations.push_back(std::move(conversation));
    }
    return conversations;
}

} // namespace starling::bench
