#pragma once
#include "trace/TraceSet.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace sl {
namespace detail {

// One event as parsed, before it is sorted into its track's columns.
struct RawEvent {
    TimeNs start;
    TimeNs duration;
    StringId name;
    EventKind kind;
    std::int64_t correlation;
    std::uint64_t argsOffset; // the model's args text in Rank::argsArena
    std::uint32_t argsLength;
    std::uint32_t extra;      // index into Rank::collectives / syncs / commCalls, by kind
    std::uint64_t fileOffset; // the whole args object in the file, when Rank::argsFile is set
    std::uint32_t fileLength;
};

struct TrackKey {
    bool gpu;
    std::int64_t a, b; // (pid, tid) or (device, stream)
    bool operator==(const TrackKey&) const = default;
};
struct TrackKeyHash {
    std::size_t operator()(const TrackKey& k) const {
        // Unsigned arithmetic: pid / tid may be any int64, and signed overflow would be UB.
        auto a = static_cast<std::uint64_t>(k.a), b = static_cast<std::uint64_t>(k.b);
        return std::hash<std::uint64_t>()(a * 1000003u + b) ^ (k.gpu ? 0x9e3779b9u : 0u);
    }
};

// A CPU->GPU flow end point, used to recover correlation ids that an event's args lack.
// CPU thread (pid, tid) and time of the point; 32 bytes, as a trace has one per launch.
struct FlowPoint {
    std::int64_t pid, tid;
    TimeNs ts;
    std::int64_t id;
};
// One segment per piece of a chunked parse, moved over whole (never copied into one vector).
using FlowSegments = std::vector<std::vector<FlowPoint>>;

// The raw events of one track in file order, freed segment by segment as they are written into the
// columns (docs/Loader.md, "Memory").
using RawSegments = std::vector<std::vector<RawEvent>>;

// What the parser collected besides the rank itself.
struct ParsedRank {
    std::vector<RawSegments>& rawByTrack; // parallel to Rank::tracks
    FlowSegments& flows;
    const std::unordered_map<std::int64_t, std::string>& processNames;
    const std::unordered_map<TrackKey, std::string, TrackKeyHash>& threadNames;
};

} // namespace detail

// Appends raw events to a track's columns in their order (all but depth, parent and link, which
// finalizeRank fills); with lazyArgs also the args' byte ranges in the file.
void appendRawEvents(EventColumns& columns, const std::vector<detail::RawEvent>& raw, bool lazyArgs);

// Sorts each track by start, fills the columns, computes nesting, names tracks, links GPU ops to
// their launch calls by correlation and attaches collective metadata from enclosing CPU ops.
// threads: the tracks are sorted and nested on up to this many threads (they are independent).
void finalizeRank(Rank& rank, detail::ParsedRank parsed, std::size_t threads = 1);

// Orders ranks and warns about duplicate and missing ranks and different clock bases.
void finalizeTraceSet(TraceSet& set);

} // namespace sl
