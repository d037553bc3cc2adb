#include "ReplayDifferences.h"

#include <algorithm>
#include <array>
#include <cstdlib>

namespace sl::ui {

ReplayDifferences ReplayDifferences::compute(const TimelineData& measured, const TimelineData& simulated) {
    static constexpr std::array<TimeNs, 4> kTolerances = {1'000, 10'000, 100'000, 1'000'000};
    ReplayDifferences out;
    const std::size_t ranks = std::min(measured.ranks().size(), simulated.ranks().size());
    for (TimeNs t : kTolerances) {
        Level level;
        level.tolerance = t;
        level.spans.resize(ranks);
        out.levels.push_back(std::move(level));
    }
    for (std::size_t r = 0; r < ranks; ++r) {
        const std::size_t tracks =
            std::min(measured.ranks()[r].tracks.size(), simulated.ranks()[r].tracks.size());
        for (std::size_t k = 0; k < tracks; ++k) {
            const TrackTimeline& sim = simulated.track(r, k);
            const TrackTimeline& meas = measured.track(r, k);
            if (!sim.track || !sim.track->isGpu() || !sim.start || !meas.start) continue;
            // The events the simulated pane draws (those with a simulated time), every lane.
            for (const Lane& lane : sim.lanes)
                for (std::size_t pos = 0; pos < lane.size; ++pos) {
                    const std::uint32_t e = lane.event(pos);
                    const TimeNs ss = sim.start[e], se = sim.end(e);
                    const TimeNs ms = meas.start[e], me = meas.end(e);
                    if (ss < 0 || ms < 0) continue;
                    const TimeNs off = std::max(std::llabs(ss - ms), std::llabs(se - me));
                    for (Level& level : out.levels) {
                        if (off <= level.tolerance) break;
                        level.spans[r].emplace_back(std::min(ss, ms), std::max(se, me));
                    }
                }
        }
        for (Level& level : out.levels) {
            auto& spans = level.spans[r];
            if (spans.empty()) continue;
            level.ops += spans.size();
            ++level.ranks;
            std::sort(spans.begin(), spans.end());
            std::size_t n = 0;
            for (const auto& s : spans)
                if (n > 0 && s.first <= spans[n - 1].second)
                    spans[n - 1].second = std::max(spans[n - 1].second, s.second);
                else
                    spans[n++] = s;
            spans.resize(n);
        }
    }
    return out;
}

const ReplayDifferences::Level& ReplayDifferences::levelFor(double nsPerPixel) const {
    std::size_t i = 0;
    while (i + 1 < levels.size() && static_cast<double>(levels[i + 1].tolerance) <= 2 * nsPerPixel)
        ++i;
    return levels[i];
}

} // namespace sl::ui
