#include "io/xspace/XSpaceStats.h"

#include <charconv>
#include <cstdio>
#include <limits>

namespace sl {

namespace pb = sightline::xspace;

StatNames::StatNames(const pb::XPlane& plane) {
    names_.reserve(plane.stat_metadata().size());
    for (const auto& [id, m] : plane.stat_metadata())
        names_.emplace(id, m.name());
}

XEventStats::XEventStats(const StatNames& names, const Stats& own, const pb::XEventMetadata* metadata)
    : names_(names) {
    stats_.reserve(static_cast<std::size_t>(own.size()) +
                   (metadata ? static_cast<std::size_t>(metadata->stats_size()) : 0));
    for (const auto& s : own)
        stats_.emplace_back(names_(s.metadata_id()), &s);
    if (metadata)
        for (const auto& s : metadata->stats())
            stats_.emplace_back(names_(s.metadata_id()), &s);
}

const pb::XStat* XEventStats::find(std::string_view name) const {
    for (const auto& [n, s] : stats_)
        if (n == name) return s;
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
        return s->ref_value() <= kMax ? std::string(names_(static_cast<std::int64_t>(s->ref_value())))
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

void ArgsWriter::key(std::string_view k) {
    if (out_.size() > 1) out_ += ',';
    out_ += '"';
    out_ += k;
    out_ += "\":";
}

void ArgsWriter::number(std::string_view k, std::int64_t v) {
    key(k);
    out_ += std::to_string(v);
}

void ArgsWriter::numbers(std::string_view k, const std::vector<std::int64_t>& v) {
    key(k);
    out_ += '[';
    for (std::size_t i = 0; i < v.size(); ++i)
        out_ += (i ? "," : "") + std::to_string(v[i]);
    out_ += ']';
}

void ArgsWriter::text(std::string_view k, std::string_view v) {
    key(k);
    out_ += '"';
    for (const char c : v) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out_ += '\\';
            out_ += c;
        } else if (u < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", u);
            out_ += buf;
        } else {
            out_ += c; // UTF-8 passes through; invalid bytes are the file's (the args are read leniently)
        }
    }
    out_ += '"';
}

} // namespace sl
