#pragma once
#include "base/Diagnostics.h"
#include "trace/ChakraNodeMeta.h"
#include "trace/Collective.h"
#include "trace/EventKind.h"
#include "trace/KernelLaunch.h"
#include "trace/LazyArgs.h"
#include "trace/OpShapes.h"
#include "trace/StringTable.h"
#include "trace/Track.h"

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace sl {

struct DeviceProperties {
    std::int64_t id = -1;
    std::string name;
    std::int64_t totalGlobalMem = 0;
    int computeMajor = 0;
    int computeMinor = 0;
    int numSms = 0;
};

struct ProcessGroup {
    std::string name;
    std::string description;
    std::vector<std::int32_t> ranks;
};

// Everything loaded from one per-rank trace file.
struct Rank {
    int rank = 0;
    bool rankFromFile = false; // true when distributedInfo.rank was present
    std::string sourcePath;
    std::int64_t fileBytes = 0; // uncompressed JSON size
    // The reader that made the rank and the profiler that wrote its file, for `info` and the welcome
    // page (io/TraceFormat.h): "kineto", "nsys-sqlite", ...; empty for ranks built in memory.
    std::string format;
    std::string profiler; // "NVIDIA Nsight Systems 2025.1.1.110 (export schema 3.17.1)"
    int worldSize = -1;
    std::string backend;
    std::vector<DeviceProperties> devices;
    std::vector<ProcessGroup> processGroups;
    std::int64_t clockBaseNs = 0; // baseTimeNanoseconds when present
    // False for inputs that carry durations and dependencies but no measured timeline (a Chakra
    // execution graph, docs/Chakra.md): event starts are then placeholders (0), there is nothing
    // measured to compare a simulation with, and the graph comes from the file's dependencies.
    bool hasMeasuredTimes = true;

    StringTable strings;
    std::vector<Track> tracks;
    std::string argsArena; // the "args" JSON the model reads, see EventColumns::argsOffset
    // Set for a trace file (plain or gzip): the full args of each event are read back from it on
    // demand (EventColumns::argsFileOffset); null when argsArena holds every event's full args
    // (bytes in memory, Chakra input). docs/Loader.md, "Lazy args".
    std::shared_ptr<const LazyArgsFile> argsFile;
    // EventColumns::extra points into one of these, by the event's kind: kernels -> collectives,
    // cuda_sync -> syncs, CPU ops carrying collective metadata (record_param_comms) -> commCalls.
    std::vector<CollectiveMeta> collectives;
    std::vector<SyncMeta> syncs;
    std::vector<CollectiveMeta> commCalls;
    // Input shapes of CPU ops recorded without them, typed, from the linked node of an attached
    // execution trace (io/EtLinker.h): EventRef::packed() of the op -> its shapes
    // (docs/GpuModel.md, "Shapes from an execution trace"). Read through opShapes().
    std::unordered_map<std::uint64_t, OpShapes> etOpShapes;
    // Typed side tables (docs/Loader.md, "Typed side tables"): what readers parse once from an
    // event's args so that graph, models and analysis read values, not text.
    // Each GPU kernel's launch configuration ("grid", "blocks per SM"), [track][event]: filled by
    // the Kineto loader for the GPU streams where a kernel has one (8 bytes an event of such a
    // stream), empty for other tracks.
    std::vector<std::vector<KernelLaunch>> kernelLaunches;
    const KernelLaunch* kernelLaunch(EventRef r) const {
        return r.track < kernelLaunches.size() && r.index < kernelLaunches[r.track].size()
                   ? &kernelLaunches[r.track][r.index]
                   : nullptr;
    }
    // Chakra input only (hasMeasuredTimes false): each event's node, [track][event].
    std::vector<std::vector<ChakraNodeMeta>> chakraNodes;
    const ChakraNodeMeta* chakraNode(EventRef r) const {
        return r.track < chakraNodes.size() && r.index < chakraNodes[r.track].size()
                   ? &chakraNodes[r.track][r.index]
                   : nullptr;
    }

    // Loader statistics.
    std::array<std::int64_t, kEventKindCount> eventsByKind{};
    std::map<std::string, std::int64_t> flowsByCategory;
    std::map<std::string, std::int64_t> unknownCategories;
    std::int64_t gpuOpsWithoutLaunch = 0;
    std::int64_t skippedEvents = 0; // events with no place in the model (profiler spans, counters)
    Warnings warnings;

    std::string_view name(EventRef r) const { return strings.str(tracks[r.track].events.name[r.index]); }
    // The input shapes of a CPU op: its own args' "Input Dims" / "Input type" / "Concrete Inputs",
    // else those an attached execution trace gave it (etOpShapes; *fromEt says which); nullopt
    // when it has none. Parsed on each call: callers that revisit an op keep what it returned.
    std::optional<OpShapes> opShapes(EventRef op, bool* fromEt = nullptr) const;
    // The args of an event that analysis reads, always in memory: the raw JSON object, or for a
    // lazily read file an object of only the fields KinetoParser::keepField keeps (io/KinetoLoader.cpp:
    // ops' "Input Dims", "Input type", "Concrete Inputs", read through opShapes(); "Ev Idx",
    // "Record function id"; a copy's "bytes"; a kernel's "grid" and "blocks per SM", typed at load
    // into kernelLaunches). A consumer that needs another field adds it there, or a typed table
    // above when every load should parse it once (docs/Loader.md, "Typed side tables").
    std::string_view args(EventRef r) const;
    // The full args object of an event as the file has it (details panel, exports): read back
    // from the file on first use and cached; on failure (the file changed or vanished since the
    // load) empty text and a one-line error naming the file.
    ArgsText fullArgs(EventRef r) const;
    std::int64_t eventCount() const;
    TimeNs firstStart() const;
    TimeNs lastEnd() const;
    // The device of the first GPU stream, else 0; used to pick the rank's device name.
    std::int64_t primaryDevice() const;
    std::string deviceName() const;
    std::size_t memoryBytes() const;
};

struct TraceSet {
    std::vector<Rank> ranks; // sorted by rank id
    Warnings warnings;

    std::int64_t eventCount() const;
    const Rank* findRank(int rank) const;
};

} // namespace sl
