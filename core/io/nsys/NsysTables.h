#pragma once
// Reading the activity tables of an Nsight Systems export into one builder per process
// (io/nsys/NsysLoader.h). Internal to the nsys loader.
#include "io/RankFinalizer.h"
#include "io/nsys/NsysDatabase.h"
#include "trace/RuntimeApi.h"
#include "trace/TraceSet.h"

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>

namespace sl::nsys {

// nsys numbers a process (globalPid) and a thread (globalTid) in one 64-bit value: the process id
// in bits 24-47, the thread id in bits 0-23, the host in the bits above. Processes are keyed by
// everything above the thread bits.
inline std::int64_t processKey(std::int64_t globalId) {
    return globalId >> 24;
}
inline std::int64_t pidOf(std::int64_t globalId) {
    return (globalId >> 24) & 0xffffff;
}
inline std::int64_t tidOf(std::int64_t globalTid) {
    return globalTid & 0xffffff;
}

// The events of one process as they are read, before finalizeRank sorts them into columns.
struct ProcessBuild {
    Rank rank;
    std::int64_t pid = 0;
    std::vector<detail::RawSegments> raw; // parallel to rank.tracks
    std::unordered_map<detail::TrackKey, std::uint32_t, detail::TrackKeyHash> trackOf;
    std::unordered_map<detail::TrackKey, std::string, detail::TrackKeyHash> threadNames;
    std::unordered_map<std::int64_t, std::string> processNames;
    std::int64_t gpuOps = 0;
    std::int64_t events = 0;
    // What the runtime calls that synchronize or record events are, by correlation id: sync
    // records are read by their call, as the sync-type numbers of older exports differ.
    std::unordered_map<std::int64_t, RuntimeApi> syncCalls;

    // Appends an event to the track of key; args (JSON text) go to the rank's args arena.
    void add(const detail::TrackKey& key, TimeNs start, TimeNs end, std::string_view name, EventKind kind,
             std::int64_t correlation, std::string_view args = {}, std::uint32_t extra = kNoExtra);
};

// What the table readers share: the export, its strings, the builders and the limits.
struct TableReader {
    const Database& db;
    const std::unordered_map<std::int64_t, std::string>& strings; // StringIds
    std::map<std::int64_t, ProcessBuild>& processes;              // by processKey
    std::int64_t maxEvents;
    std::int64_t skipped = 0; // rows without a usable time span

    ProcessBuild& process(std::int64_t globalId);
    // A name column's value: a StringIds id (the usual case) or text (some exports).
    std::string_view name(const Query& q, int column) const;
    // The first of the columns that the table has, or "" when it has none of them.
    std::string column(std::string_view table, std::initializer_list<std::string_view> names) const;
    // Throws unless the table has every column.
    void require(std::string_view table, std::initializer_list<std::string_view> names) const;
    // Counts an event against the per-file limit (LoadOptions::maxEventsPerFile).
    void count();
    std::int64_t total = 0;
};

// GPU work: kernels, copies, sets and CUDA graph launches (graph-level tracing). Creates the
// builder of every process with GPU work.
void readGpuWork(TableReader& r);
// Synchronization records (event, stream and context synchronize, stream waits), onto the GPU
// side of processes that have GPU work, with what they wait on where the export names it.
void readSyncs(TableReader& r);
// CUDA runtime and driver calls, and NVTX push/pop ranges, onto the CPU threads of processes with
// GPU work.
void readCpuSide(TableReader& r);

} // namespace sl::nsys
