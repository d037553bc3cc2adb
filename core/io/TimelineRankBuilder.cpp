#include "io/TimelineRankBuilder.h"

#include "trace/Collective.h"

namespace sl {

using namespace detail;

std::uint32_t TimelineRankBuilder::track(bool gpu, std::int64_t a, std::int64_t b) {
    auto [it, fresh] =
        trackOf_.try_emplace(TrackKey{gpu, a, b}, static_cast<std::uint32_t>(rank_.tracks.size()));
    if (fresh) {
        Track t;
        t.kind = gpu ? TrackKind::GpuStream : TrackKind::CpuThread;
        t.pid = a;
        t.tid = b;
        rank_.tracks.push_back(std::move(t));
        raw_.emplace_back(1);
    }
    return it->second;
}

std::uint32_t TimelineRankBuilder::cpuThread(std::int64_t pid, std::int64_t tid, std::string_view name) {
    const std::uint32_t t = track(false, pid, tid);
    if (!name.empty()) threadNames_.try_emplace(TrackKey{false, pid, tid}, std::string(name));
    return t;
}

std::uint32_t TimelineRankBuilder::gpuStream(std::int64_t device, std::int64_t stream) {
    return track(true, device, stream);
}

void TimelineRankBuilder::add(std::uint32_t trackIndex, TimeNs start, TimeNs duration, std::string_view name,
                              EventKind kind, std::int64_t correlation, std::string_view argsJson) {
    RawEvent e{};
    e.start = start;
    e.duration = duration < 0 ? 0 : duration;
    e.name = rank_.strings.intern(name);
    e.kind = kind;
    e.correlation = correlation;
    e.argsOffset = rank_.argsArena.size();
    e.argsLength = static_cast<std::uint32_t>(argsJson.size());
    rank_.argsArena.append(argsJson);
    e.extra = kNoExtra;
    if (kind == EventKind::Kernel && isCollectiveKernelName(name)) {
        CollectiveMeta meta;
        meta.type = collectiveTypeFromKernelName(name);
        e.extra = static_cast<std::uint32_t>(rank_.collectives.size());
        rank_.collectives.push_back(std::move(meta));
    }
    raw_[trackIndex].front().push_back(e);
    ++rank_.eventsByKind[static_cast<std::size_t>(kind)];
    ++events_;
}

void TimelineRankBuilder::finish(std::size_t threads) {
    FlowSegments noFlows;
    const std::unordered_map<std::int64_t, std::string> noProcessNames;
    finalizeRank(rank_, ParsedRank{raw_, noFlows, noProcessNames, threadNames_}, threads);
}

} // namespace sl
