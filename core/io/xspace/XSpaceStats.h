#pragma once
// The stats of one XSpace event (or plane), by name: an event's own stats first, then those of its
// metadata. A stat's name and a reference value (ref_value) are resolved through the plane's
// stat_metadata table (XLA writes repeated strings once there), read once per plane into StatNames.
#include <io/xspace/xplane.pb.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace sl {

// A plane's stat_metadata: id -> name.
class StatNames {
public:
    explicit StatNames(const sightline::xspace::XPlane& plane);
    std::string_view operator()(std::int64_t id) const {
        auto it = names_.find(id);
        return it == names_.end() ? std::string_view{} : it->second;
    }

private:
    std::unordered_map<std::int64_t, std::string_view> names_;
};

class XEventStats {
public:
    using Stats = google::protobuf::RepeatedPtrField<sightline::xspace::XStat>;
    XEventStats(const StatNames& names, const Stats& own, const sightline::xspace::XEventMetadata* metadata);

    bool has(std::string_view name) const { return find(name) != nullptr; }
    // The value as text (numbers written out); empty when absent.
    std::string text(std::string_view name) const;
    // The value as a whole number (an integer stat, or a string of one); fallback when absent or not one.
    std::int64_t integer(std::string_view name, std::int64_t fallback) const;

private:
    const sightline::xspace::XStat* find(std::string_view name) const;
    const StatNames& names_;
    std::vector<std::pair<std::string_view, const sightline::xspace::XStat*>> stats_;
};

// A JSON object's text, written key by key (the args of an event).
class ArgsWriter {
public:
    void number(std::string_view key, std::int64_t v);
    void text(std::string_view key, std::string_view v);
    void numbers(std::string_view key, const std::vector<std::int64_t>& v);
    std::string done() { return out_ + "}"; }

private:
    void key(std::string_view k);
    std::string out_ = "{";
};

} // namespace sl
