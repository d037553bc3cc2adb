#include "RangeStats.h"

#include "TrackState.h"

#include <algorithm>
#include <string_view>
#include <unordered_map>

namespace sl::ui {

std::vector<std::vector<bool>> hiddenTracks(const TrackState* tracks) {
    std::vector<std::vector<bool>> hidden;
    if (!tracks) return hidden;
    for (const auto& r : tracks->ranks())
        hidden.push_back(r.hidden);
    return hidden;
}

std::vector<NameStats> computeRangeStats(const TimelineData& data, const TrackState* tracks, TimeNs start,
                                         TimeNs end) {
    const bool useState = tracks && tracks->rankCount() == data.ranks().size();
    return computeRangeStats(data, useState ? hiddenTracks(tracks) : std::vector<std::vector<bool>>{}, start,
                             end);
}

std::vector<NameStats> computeRangeStats(const TimelineData& data,
                                         const std::vector<std::vector<bool>>& hidden, TimeNs start,
                                         TimeNs end, const std::atomic<bool>* cancel) {
    std::vector<NameStats> out;
    if (end <= start) return out;
    std::unordered_map<std::string_view, std::size_t> byName;
    for (std::size_t r = 0; r < data.ranks().size(); ++r) {
        const RankTimeline& rt = data.ranks()[r];
        for (std::size_t k = 0; k < rt.tracks.size(); ++k) {
            if (r < hidden.size() && k < hidden[r].size() && hidden[r][k]) continue;
            if (cancel && cancel->load(std::memory_order_relaxed)) return out;
            const TrackTimeline& t = rt.tracks[k];
            const EventColumns& ev = t.track->events;
            for (const Lane& lane : t.lanes) {
                for (std::size_t pos = TimelineData::firstEndingAfter(lane, start);
                     pos < lane.size && lane.start[pos] < end; ++pos) {
                    const std::uint32_t e = lane.event(pos);
                    if (t.end(e) <= start && t.duration[e] > 0) continue;
                    const std::string_view name = rt.rank->strings.str(ev.name[e]);
                    auto [it, added] = byName.try_emplace(name, out.size());
                    if (added) {
                        NameStats s;
                        s.name = QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
                        s.category = categoryOf(ev.kind[e], rt.collective[ev.name[e]] != 0);
                        out.push_back(std::move(s));
                    }
                    NameStats& s = out[it->second];
                    ++s.count;
                    s.total += t.duration[e];
                    s.max = std::max(s.max, t.duration[e]);
                }
            }
        }
    }
    std::sort(out.begin(), out.end(), [](const NameStats& a, const NameStats& b) {
        return a.total != b.total ? a.total > b.total : a.name < b.name;
    });
    return out;
}

} // namespace sl::ui
