#include "graph/CpuCoverage.h"

#include <algorithm>

namespace sl {

bool isCpuWorkEvent(const Rank& rank, const Track& track, std::size_t i) {
    const EventKind k = track.events.kind[i];
    if (k != EventKind::CpuOp && k != EventKind::PythonFunction && k != EventKind::UserAnnotation)
        return false;
    if (k == EventKind::UserAnnotation && rank.strings.str(track.events.name[i]).starts_with("ProfilerStep#"))
        return false;
    return track.events.duration[i] > 0;
}

CpuCoverage::CpuCoverage(const Rank& rank, const Track& track) {
    const auto& ev = track.events;
    // Events are sorted by start, so merging is one pass.
    for (std::size_t i = 0; i < ev.size(); ++i) {
        if (!isCpuWorkEvent(rank, track, i)) continue;
        const TimeNs s = ev.start[i], e = ev.end(i);
        if (!ends_.empty() && s <= ends_.back()) {
            ends_.back() = std::max(ends_.back(), e);
        } else {
            starts_.push_back(s);
            ends_.push_back(e);
        }
    }
    prefix_.assign(starts_.size() + 1, 0);
    for (std::size_t i = 0; i < starts_.size(); ++i)
        prefix_[i + 1] = prefix_[i] + (ends_[i] - starts_[i]);
}

TimeNs CpuCoverage::covered(TimeNs a, TimeNs b) const {
    if (b <= a || starts_.empty()) return 0;
    // Total coverage before time t: whole intervals ending before t plus the part of the one
    // containing t.
    auto before = [&](TimeNs t) -> TimeNs {
        auto it = std::upper_bound(starts_.begin(), starts_.end(), t);
        std::size_t k = static_cast<std::size_t>(it - starts_.begin()); // intervals starting <= t
        if (k == 0) return 0;
        return prefix_[k - 1] + (std::min(t, ends_[k - 1]) - starts_[k - 1]);
    };
    return std::max<TimeNs>(0, before(b) - before(a));
}

} // namespace sl
