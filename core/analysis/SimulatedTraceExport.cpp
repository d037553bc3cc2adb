#include "analysis/SimulatedTraceExport.h"

#include "base/Error.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>

namespace sl {

namespace {

// Names may hold bytes that are not UTF-8 (the loader keeps them): replace rather than throw.
std::string jsonText(const nlohmann::json& j) {
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace

void writeSimulatedChromeTrace(std::ostream& out, const TraceSet& set, const SimulatedTimeline& timeline) {
    out << "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":\"sightline (simulated)\"},"
           "\"traceEvents\":[\n";
    bool first = true;
    auto sep = [&] {
        if (!first) out << ",\n";
        first = false;
    };
    char buf[160];
    for (std::size_t r = 0; r < set.ranks.size() && r < timeline.ranks.size(); ++r) {
        const Rank& rank = set.ranks[r];
        for (std::size_t ti = 0; ti < rank.tracks.size() && ti < timeline.ranks[r].size(); ++ti) {
            const Track& t = rank.tracks[ti];
            const std::int64_t pid = static_cast<std::int64_t>(rank.rank) * 1'000'000 +
                                     (t.isGpu() ? 900'000 : 0) + (t.pid % 100'000 + 100'000) % 100'000;
            const std::string processName = "rank " + std::to_string(rank.rank) +
                                            (t.isGpu() ? " GPU " : " pid ") + std::to_string(t.pid) +
                                            " (simulated)";
            sep();
            out << jsonText({{"ph", "M"},
                             {"name", "process_name"},
                             {"pid", pid},
                             {"tid", t.tid},
                             {"args", {{"name", processName}}}});
            sep();
            out << jsonText({{"ph", "M"},
                             {"name", "thread_name"},
                             {"pid", pid},
                             {"tid", t.tid},
                             {"args", {{"name", t.name.empty() ? std::to_string(t.tid) : t.name}}}});
            const EventColumns& ev = t.events;
            const TrackTimes& tt = timeline.track(r, ti);
            for (std::size_t i = 0; i < ev.size() && i < tt.start.size(); ++i) {
                if (tt.start[i] < 0 || ev.kind[i] == EventKind::Instant) continue;
                sep();
                out << "{\"ph\":\"X\",\"name\":" << jsonText(std::string(rank.strings.str(ev.name[i])))
                    << ",\"cat\":\"" << eventKindName(ev.kind[i]) << "\",\"pid\":" << pid
                    << ",\"tid\":" << t.tid;
                std::snprintf(buf, sizeof buf, ",\"ts\":%.3f,\"dur\":%.3f,\"args\":{\"measured_ts\":%.3f",
                              nsToUs(tt.start[i]), nsToUs(tt.duration[i]), nsToUs(ev.start[i]));
                out << buf;
                if (ev.correlation[i] >= 0) out << ",\"correlation\":" << ev.correlation[i];
                out << "}}";
            }
        }
    }
    out << "\n]}\n";
}

void writeSimulatedChromeTraceFile(const std::string& path, const TraceSet& set,
                                   const SimulatedTimeline& timeline) {
    std::ofstream out(path, std::ios::binary);
    if (!out) throw WriteError(path, "cannot write the exported trace");
    writeSimulatedChromeTrace(out, set, timeline);
    out.close();
    if (!out) throw WriteError(path, "cannot write the exported trace");
}

} // namespace sl
