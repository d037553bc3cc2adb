#pragma once
// The stats of one XSpace event (or plane), by name: an event's own stats first, then those of its
// metadata. A stat's name and a reference value (ref_value) are resolved through the plane's
// stat_metadata table, as XLA writes repeated strings once there.
#include <io/xspace/xplane.pb.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sl {

class XEventStats {
public:
    using Stats = google::protobuf::RepeatedPtrField<sightline::xspace::XStat>;
    XEventStats(const sightline::xspace::XPlane& plane, const Stats& own,
                const sightline::xspace::XEventMetadata* metadata);

    bool has(std::string_view name) const { return find(name) != nullptr; }
    // The value as text (numbers written out); empty when absent.
    std::string text(std::string_view name) const;
    // The value as a whole number (an integer stat, or a string of one); fallback when absent or not one.
    std::int64_t integer(std::string_view name, std::int64_t fallback) const;

private:
    const sightline::xspace::XStat* find(std::string_view name) const;
    std::string_view statName(std::int64_t id) const;
    const sightline::xspace::XPlane& plane_;
    std::vector<const sightline::xspace::XStat*> stats_;
};

} // namespace sl
