#pragma once
// Builds a Rank from the timeline records of a profiler other than Kineto (rocprofv3 JSON, XLA's
// XSpace): the reader names tracks and adds events in any order; finish() hands them to the same
// finaliser the Kineto loader uses (io/RankFinalizer.h), which sorts, nests and links GPU work to
// its launch call by correlation id. Collective kernels (NCCL / RCCL by name) get a collective
// record without sizes, as a Kineto trace without "Collective name" metadata gives them.
#include "io/RankFinalizer.h"
#include "trace/TraceSet.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace sl {

class TimelineRankBuilder {
public:
    explicit TimelineRankBuilder(Rank& rank) : rank_(rank) {}

    // The track of a CPU thread (pid, tid) or a GPU stream (device, stream), made on first use.
    // A CPU thread's name is kept (GPU streams are named "GPU d stream s" by the finaliser).
    std::uint32_t cpuThread(std::int64_t pid, std::int64_t tid, std::string_view name = {});
    std::uint32_t gpuStream(std::int64_t device, std::int64_t stream);

    // One event; argsJson is a JSON object's text (or empty). correlation -1: none.
    void add(std::uint32_t track, TimeNs start, TimeNs duration, std::string_view name, EventKind kind,
             std::int64_t correlation = -1, std::string_view argsJson = {});

    std::int64_t events() const { return events_; }

    // Sorts, nests and links; the builder must not be used afterwards.
    void finish(std::size_t threads = 1);

private:
    std::uint32_t track(bool gpu, std::int64_t a, std::int64_t b);
    Rank& rank_;
    std::unordered_map<detail::TrackKey, std::uint32_t, detail::TrackKeyHash> trackOf_;
    std::vector<detail::RawSegments> raw_;
    std::unordered_map<detail::TrackKey, std::string, detail::TrackKeyHash> threadNames_;
    std::int64_t events_ = 0;
};

} // namespace sl
