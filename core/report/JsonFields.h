#pragma once
// Numbers read back from a JSON object the core wrote (a report, a job summary): a field that is
// missing or of another type reads as absent, so a file of an older version still opens.
#include <nlohmann/json.hpp>

#include <optional>

namespace sl::jsonfields {

// obj[key], or null when obj is not an object or has no such key.
inline const nlohmann::json& field(const nlohmann::json& obj, const char* key) {
    static const nlohmann::json missing;
    if (!obj.is_object()) return missing;
    const auto it = obj.find(key);
    return it == obj.end() ? missing : *it;
}

inline std::optional<double> optionalNumber(const nlohmann::json& obj, const char* key) {
    const nlohmann::json& v = field(obj, key);
    return v.is_number() ? std::optional<double>(v.get<double>()) : std::nullopt;
}

// The number at `key`, else 0.
inline double number(const nlohmann::json& obj, const char* key) {
    return optionalNumber(obj, key).value_or(0.0);
}

} // namespace sl::jsonfields
