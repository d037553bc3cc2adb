#include "io/xspace/XSpaceStats.h"

#include <charconv>
#include <cstdio>
#include <limits>

namespace sl {

namespace pb = sightline::xspace;

XEventStats::XEventStats(const pb::XPlane& plane, const Stats& own, const pb::XEventMetadata* metadata)
    : plane_(plane) {
    for (const auto& s : own)
        stats_.push_back(&s);
    if (metadata)
        for (const auto& s : metadata->stats())
            stats_.push_back(&s);
}

std::string_view XEventStats::statName(std::int64_t id) const {
    auto it = plane_.stat_metadata().find(id);
    return it == plane_.stat_metadata().end() ? std::string_view{} : std::string_view(it->second.name());
}

const pb::XStat* XEventStats::find(std::string_view name) const {
    for (const pb::XStat* s : stats_)
        if (statName(s->metadata_id()) == name) return s;
    return nullptr;
}

std::string XEventStats::text(std::string_view name) const {
    const pb::XStat* s = find(name);
    if (!s) return {};
    switch (s->value_case()) {
    case pb::XStat::kDoubleValue: {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.17g", s->double_value());
        return buf;
    }
    case pb::XStat::kUint64Value:
        return std::to_string(s->uint64_value());
    case pb::XStat::kInt64Value:
        return std::to_string(s->int64_value());
    case pb::XStat::kStrValue:
        return s->str_value();
    case pb::XStat::kRefValue: {
        constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
        return s->ref_value() <= kMax ? std::string(statName(static_cast<std::int64_t>(s->ref_value())))
                                      : std::string();
    }
    default:
        return {}; // bytes values (serialized protos) are not read
    }
}

std::int64_t XEventStats::integer(std::string_view name, std::int64_t fallback) const {
    const pb::XStat* s = find(name);
    if (!s) return fallback;
    constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    switch (s->value_case()) {
    case pb::XStat::kUint64Value:
        return s->uint64_value() <= kMax ? static_cast<std::int64_t>(s->uint64_value()) : fallback;
    case pb::XStat::kInt64Value:
        return s->int64_value();
    case pb::XStat::kStrValue: {
        std::int64_t v = 0;
        const std::string& t = s->str_value();
        auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
        return ec == std::errc() && p == t.data() + t.size() ? v : fallback;
    }
    default:
        return fallback;
    }
}

} // namespace sl
