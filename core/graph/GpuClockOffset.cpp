// The GPU clock offset of each rank, estimated before anything reads a GPU time (docs/ARCHITECTURE.md,
// "GPU clock offset").
//
// A host call that waits for GPU work cannot return before that work has ended. Where the trace
// shows the GPU op ending after such a call returned, the GPU timestamps run ahead of the host's by
// at least that much (ROCm traces show 2-8 us). Each certain pair (op, call that waited for it)
// bounds the offset from below; the largest bound is the estimate (the true offset less the
// shortest return latency, so it never over-corrects). Launches bound it from above: no GPU op
// starts before the call that launched it began, so the offset never exceeds the rank's shortest
// measured launch latency.
//
// Only pairs where the wait is certain count:
// - a blocking copy call (cudaMemcpy, hipMemcpy: not *Async) and its own copy, when the copy writes
//   host memory (DtoH) or reads pinned memory (a copy from pageable memory may return once the data
//   is staged, before the DMA ends); hipMemcpyWithStream, a copy and a stream synchronize, in every
//   direction;
// - a device synchronize on a rank with one device, and the latest-ending op enqueued before it:
//   launched by a call that had returned, already running, or queued before the window (a queue
//   that started before the rank's first call, with the ops back to back behind it);
// - a host wait with cuda_sync identity (the stream, and the event record it waits for).
// Stream and event synchronize calls without identity do not say which stream they wait for.
#include "graph/GraphBuilder.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace sl::graph_build {

namespace {

constexpr TimeNs kNone = std::numeric_limits<TimeNs>::min();

// (key, op end) pairs sorted by key, with the latest op end up to each: "the latest end of the ops
// whose key is at most t".
struct LatestEnd {
    std::vector<std::pair<TimeNs, TimeNs>> byKey;
    std::vector<TimeNs> latest;

    void finish() {
        std::sort(byKey.begin(), byKey.end());
        latest.resize(byKey.size());
        TimeNs m = kNone;
        for (std::size_t i = 0; i < byKey.size(); ++i)
            latest[i] = m = std::max(m, byKey[i].second);
    }
    TimeNs upTo(TimeNs t) const {
        auto it = std::upper_bound(byKey.begin(), byKey.end(),
                                   std::make_pair(t, std::numeric_limits<TimeNs>::max()));
        return it == byKey.begin() ? kNone : latest[static_cast<std::size_t>(it - byKey.begin()) - 1];
    }
};

bool certainBlockingCopy(std::string_view callName, std::string_view copyName) {
    const RuntimeApiInfo api = runtimeApiInfo(callName);
    if (api.api != RuntimeApi::Memcpy || api.async) return false;
    // hipMemcpyWithStream is a copy and a synchronize of its stream (ROCm's API reference): it
    // returns after its copy whatever the direction.
    if (callName.starts_with("hipMemcpyWithStream")) return true;
    return copyName.find("DtoH") != std::string_view::npos ||
           copyName.find("(Pinned ->") != std::string_view::npos;
}

struct OffsetEvidence {
    TimeNs lower = kNone;                              // largest (GPU end - call end) over the pairs
    TimeNs upper = std::numeric_limits<TimeNs>::max(); // shortest launch latency
    std::int64_t pairs = 0;

    void pair(TimeNs gpuEnd, TimeNs callEnd) {
        lower = std::max(lower, gpuEnd - callEnd);
        ++pairs;
    }
};

// The GPU side of a rank, as the waits see it.
struct GpuSide {
    std::map<std::pair<std::int64_t, std::int64_t>, LatestEnd> launchedBy; // per stream, by launch call end
    LatestEnd startedBy;                                                   // every op, by its start
    TimeNs queuedBeforeWindowEnd = kNone; // latest end of the queues launched before the first call
    std::set<std::int64_t> devices;
};

GpuSide gpuSideOf(const Rank& rank, OffsetEvidence& ev) {
    GpuSide side;
    TimeNs firstCall = std::numeric_limits<TimeNs>::max();
    for (const Track& t : rank.tracks)
        if (!t.isGpu())
            for (std::size_t i = 0; i < t.events.size(); ++i)
                if (isRuntimeCall(t.events.kind[i])) {
                    firstCall = std::min(firstCall, t.events.start[i]);
                    break; // sorted by start
                }
    for (const Track& t : rank.tracks) {
        if (!t.isGpu()) continue;
        const auto& e = t.events;
        bool leading = true, queued = false; // no launched op so far; in a pre-window queue
        TimeNs prevEnd = kNone;
        for (std::size_t i = 0; i < e.size(); ++i) {
            if (!isGpuOp(e.kind[i])) continue;
            side.devices.insert(t.device());
            side.startedBy.byKey.push_back({e.start[i], e.end(i)});
            const EventRef c = e.link[i] == kNoLink ? EventRef{} : EventRef::unpack(e.link[i]);
            const bool launched = c.valid() && c.track < rank.tracks.size() &&
                                  !rank.tracks[c.track].isGpu() &&
                                  c.index < rank.tracks[c.track].events.size();
            if (!launched) {
                queued =
                    leading && (e.start[i] < firstCall || (queued && e.start[i] <= prevEnd + kQueuedGap));
                if (queued) side.queuedBeforeWindowEnd = std::max(side.queuedBeforeWindowEnd, e.end(i));
                prevEnd = std::max(prevEnd, e.end(i));
                continue;
            }
            leading = queued = false;
            const auto& ce = rank.tracks[c.track].events;
            ev.upper = std::min(ev.upper, e.start[i] - ce.start[c.index]);
            side.launchedBy[{t.device(), t.stream()}].byKey.push_back({ce.end(c.index), e.end(i)});
            if (e.kind[i] == EventKind::GpuMemcpy &&
                certainBlockingCopy(rank.name(c), rank.strings.str(e.name[i])))
                ev.pair(e.end(i), ce.end(c.index));
        }
    }
    for (auto& [key, s] : side.launchedBy)
        s.finish();
    side.startedBy.finish();
    return side;
}

OffsetEvidence evidenceOf(const Rank& rank) {
    OffsetEvidence ev;
    const GpuSide side = gpuSideOf(rank, ev);
    // Device synchronize: it returns after every op enqueued on the device before it.
    if (side.devices.size() == 1) {
        for (const Track& t : rank.tracks) {
            if (t.isGpu()) continue;
            const auto& e = t.events;
            for (std::size_t i = 0; i < e.size(); ++i) {
                if (!isRuntimeCall(e.kind[i]) ||
                    runtimeApi(rank.strings.str(e.name[i])) != RuntimeApi::DeviceSynchronize)
                    continue;
                TimeNs last = std::max(side.queuedBeforeWindowEnd, side.startedBy.upTo(e.start[i]));
                for (const auto& [key, s] : side.launchedBy)
                    last = std::max(last, s.upTo(e.start[i]));
                if (last != kNone) ev.pair(last, e.end(i));
            }
        }
    }
    // Host waits with cuda_sync identity: the stream waited on, up to the event record waited for.
    if (!rank.syncs.empty()) {
        std::unordered_map<std::int64_t, TimeNs> callStart; // call correlation -> call start
        for (const Track& t : rank.tracks) {
            if (t.isGpu()) continue;
            for (std::size_t i = 0; i < t.events.size(); ++i)
                if (isRuntimeCall(t.events.kind[i]) && t.events.correlation[i] >= 0)
                    callStart.emplace(t.events.correlation[i], t.events.start[i]);
        }
        for (const SyncMeta& sm : rank.syncs) {
            if (sm.stream >= 0 || sm.waitOnStream < 0 || !sm.event.valid()) continue;
            const Track& st = rank.tracks[sm.event.track];
            const std::uint64_t link = st.events.link[sm.event.index];
            if (link == kNoLink) continue;
            const EventRef call = EventRef::unpack(link);
            if (call.track >= rank.tracks.size() || rank.tracks[call.track].isGpu()) continue;
            const auto& ce = rank.tracks[call.track].events;
            TimeNs upTo = ce.start[call.index];
            if (sm.waitOnEventRecordCorrelation >= 0) {
                auto it = callStart.find(sm.waitOnEventRecordCorrelation);
                if (it == callStart.end()) continue;
                upTo = it->second;
            }
            auto s = side.launchedBy.find({sm.device >= 0 ? sm.device : st.device(), sm.waitOnStream});
            if (s == side.launchedBy.end()) continue;
            const TimeNs last = s->second.upTo(upTo);
            if (last != kNone) ev.pair(last, ce.end(call.index));
        }
    }
    return ev;
}

std::string usText(TimeNs ns) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", static_cast<double>(ns) / 1000.0);
    return buf;
}

} // namespace

void Builder::estimateGpuClockOffsets() {
    if (!opt.correctGpuClock) return;
    for (std::uint32_t r = 0; r < set.ranks.size(); ++r) {
        const OffsetEvidence ev = evidenceOf(set.ranks[r]);
        RankWindow& w = g.ranks[r];
        w.gpuClockOffsetPairs = ev.pairs;
        if (ev.pairs == 0 || ev.lower <= 0 || ev.upper <= 0) continue;
        w.gpuClockOffset = std::min(ev.lower, ev.upper);
        std::string line =
            "rank " + std::to_string(w.rankId) + ": GPU ops end up to " + usText(ev.lower) +
            " us after host calls that waited for them returned (" + std::to_string(ev.pairs) +
            " synchronize / blocking-copy pairs): the GPU clock runs ahead, its times are read " +
            usText(w.gpuClockOffset) + " us earlier";
        if (ev.upper < ev.lower)
            line += " (no more than the shortest launch latency, " + usText(ev.upper) + " us)";
        g.warnings.add(Warn::GpuClockOffsetApplied, line);
    }
}

} // namespace sl::graph_build
