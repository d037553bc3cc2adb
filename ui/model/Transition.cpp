#include "Transition.h"

#include <cmath>
#include <vector>

namespace sl::ui {

std::shared_ptr<const TimelineData> interpolateTimeline(const TimelineData& from, const TimelineData& to,
                                                        double t) {
    if (&from.set() != &to.set()) return nullptr;
    // Columns per (rank, track), kept alive by the frame.
    struct Columns {
        std::vector<std::vector<std::vector<TimeNs>>> start, duration;
    };
    auto cols = std::make_shared<Columns>();
    const TraceSet& set = to.set();
    cols->start.resize(set.ranks.size());
    cols->duration.resize(set.ranks.size());
    const auto lerp = [t](TimeNs a, TimeNs b) {
        return a + static_cast<TimeNs>(std::llround(static_cast<double>(b - a) * t));
    };
    for (std::size_t r = 0; r < set.ranks.size(); ++r) {
        const std::size_t tracks = set.ranks[r].tracks.size();
        cols->start[r].resize(tracks);
        cols->duration[r].resize(tracks);
        for (std::size_t k = 0; k < tracks; ++k) {
            const TrackTimeline& a = from.track(r, k);
            const TrackTimeline& b = to.track(r, k);
            const std::size_t n = set.ranks[r].tracks[k].events.size();
            auto& s = cols->start[r][k];
            auto& d = cols->duration[r][k];
            s.resize(n);
            d.resize(n);
            for (std::size_t i = 0; i < n; ++i) {
                const bool both = a.start[i] >= 0 && b.start[i] >= 0;
                s[i] = both ? lerp(a.start[i], b.start[i]) : b.start[i];
                d[i] = both ? lerp(a.duration[i], b.duration[i]) : b.duration[i];
            }
        }
    }
    return TimelineData::build(
        to.setPtr(),
        [cols](std::size_t r, std::size_t k) {
            return TimeColumns{cols->start[r][k].data(), cols->duration[r][k].data()};
        },
        cols);
}

} // namespace sl::ui
