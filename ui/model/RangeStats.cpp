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
    const bool useState = tracks && tracks->matches(data.set());
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
                    // Only the part inside the range counts.
                    const TimeNs inside =
                        std::max<TimeNs>(0, std::min(t.end(e), end) - std::max(t.start[e], start));
                    const std::string_view name = rt.rank->strings.str(ev.name[e]);
                    auto [it, added] = byName.try_emplace(name, out.size());
                    if (added) {
                        NameStats s;
                        s.name = QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
                        s.category = categoryOf(ev.kind[e], rt.collective[ev.name[e]] != 0);
                        s.shade = rt.shade[ev.name[e]];
                        out.push_back(std::move(s));
                    }
                    NameStats& s = out[it->second];
                    ++s.count;
                    s.total += inside;
                    s.max = std::max(s.max, inside);
                }
            }
        }
    }
    std::sort(out.begin(), out.end(), [](const NameStats& a, const NameStats& b) {
        return a.total != b.total ? a.total > b.total : a.name < b.name;
    });
    return out;
}

double RangeTable::share(TimeNs time) const {
    const TimeNs len = length();
    return len > 0 ? 100.0 * static_cast<double>(time) / (static_cast<double>(len) * std::max(1, ranks))
                   : 0.0;
}

RangeTable mergeRangeStats(const std::vector<NameStats>& measured, const std::vector<NameStats>& simulated,
                           bool hasSimulated, TimeNs start, TimeNs end, int ranks) {
    RangeTable table;
    table.start = start;
    table.end = end;
    table.ranks = ranks;
    table.hasSimulated = hasSimulated;
    std::unordered_map<QString, std::size_t> byName;
    for (const NameStats& s : measured) {
        byName.emplace(s.name, table.rows.size());
        table.rows.push_back({s.name, s.category, s.shade, s, {}});
        table.rows.back().simulated.name = s.name;
    }
    for (const NameStats& s : simulated) {
        auto [it, added] = byName.try_emplace(s.name, table.rows.size());
        if (added) {
            table.rows.push_back({s.name, s.category, s.shade, {}, s});
            table.rows.back().measured.name = s.name;
        } else {
            table.rows[it->second].simulated = s;
        }
    }
    return table;
}

RangeTable computeRangeTable(const TimelineData& measured, const TimelineData* simulated,
                             const std::vector<std::vector<bool>>& hidden, TimeNs start, TimeNs end,
                             const std::atomic<bool>* cancel) {
    const auto m = computeRangeStats(measured, hidden, start, end, cancel);
    const auto s =
        simulated ? computeRangeStats(*simulated, hidden, start, end, cancel) : std::vector<NameStats>{};
    return mergeRangeStats(m, s, simulated != nullptr, start, end, static_cast<int>(measured.ranks().size()));
}

namespace {
QString csvField(const QString& s) {
    if (!s.contains(QLatin1Char(',')) && !s.contains(QLatin1Char('"')) && !s.contains(QLatin1Char('\n')))
        return s;
    QString q = s;
    q.replace(QLatin1String("\""), QLatin1String("\"\""));
    return QLatin1Char('"') + q + QLatin1Char('"');
}
} // namespace

QString rangeTableCsv(const RangeTable& table) {
    QString out = QStringLiteral("# range_start_ns,%1,range_end_ns,%2,ranks,%3\n")
                      .arg(table.start)
                      .arg(table.end)
                      .arg(table.ranks);
    out += QStringLiteral("name,kind,measured_count,measured_ns,measured_share_pct,measured_max_ns");
    if (table.hasSimulated)
        out += QStringLiteral(",simulated_count,simulated_ns,simulated_share_pct,simulated_max_ns");
    out += QLatin1Char('\n');
    for (const RangeRow& r : table.rows) {
        out += csvField(r.name) + QLatin1Char(',') + csvField(categoryLabel(r.category));
        out += QStringLiteral(",%1,%2,%3,%4")
                   .arg(r.measured.count)
                   .arg(r.measured.total)
                   .arg(table.share(r.measured.total), 0, 'f', 3)
                   .arg(r.measured.max);
        if (table.hasSimulated)
            out += QStringLiteral(",%1,%2,%3,%4")
                       .arg(r.simulated.count)
                       .arg(r.simulated.total)
                       .arg(table.share(r.simulated.total), 0, 'f', 3)
                       .arg(r.simulated.max);
        out += QLatin1Char('\n');
    }
    return out;
}

} // namespace sl::ui
