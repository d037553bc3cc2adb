#pragma once
#include "trace/EventKind.h"
#include "trace/StringTable.h"
#include "trace/Time.h"

#include <cstdint>
#include <string>
#include <vector>

namespace sl {

// A reference to one event inside a rank: track index and event index within that track.
struct EventRef {
    std::uint32_t track = kInvalid;
    std::uint32_t index = kInvalid;

    static constexpr std::uint32_t kInvalid = 0xffffffffu;
    bool valid() const { return track != kInvalid; }
    std::uint64_t packed() const { return (std::uint64_t(track) << 32) | index; }
    static EventRef unpack(std::uint64_t v) {
        return {static_cast<std::uint32_t>(v >> 32), static_cast<std::uint32_t>(v & 0xffffffffu)};
    }
    friend bool operator==(const EventRef&, const EventRef&) = default;
};

constexpr std::uint64_t kNoLink = ~std::uint64_t{0};
constexpr std::uint32_t kNoExtra = 0xffffffffu;

// Events of one track stored column-wise and sorted by start (ties: longer first, so that a
// parent precedes its children). About 59 bytes per event (71 with args read back from the file)
// plus interned strings.
struct EventColumns {
    std::vector<TimeNs> start;
    std::vector<TimeNs> duration;
    std::vector<StringId> name;
    std::vector<EventKind> kind;
    std::vector<std::uint16_t> depth;      // nesting depth on CPU tracks (0 = top level)
    std::vector<std::int32_t> parent;      // enclosing event on the same track, -1 if none
    std::vector<std::int64_t> correlation; // Kineto correlation id, -1 if none
    std::vector<std::uint64_t> link;       // EventRef::packed() of the launch partner, kNoLink
    std::vector<std::uint32_t> extra;      // index into Rank::collectives (kernels) or Rank::syncs
    // The "args" the model reads, as JSON text in Rank::argsArena: the whole raw object, or for a
    // plain file read back lazily only its fields that analysis reads (Rank::args).
    std::vector<std::uint64_t> argsOffset;
    std::vector<std::uint32_t> argsLength;
    // The whole raw "args" object as a byte range of the source file, when Rank::argsFile is set
    // (Rank::fullArgs reads it back on demand); empty otherwise. docs/Loader.md, "Lazy args".
    std::vector<std::uint64_t> argsFileOffset;
    std::vector<std::uint32_t> argsFileLength;

    std::size_t size() const { return start.size(); }
    TimeNs end(std::size_t i) const { return start[i] + duration[i]; }
    void reserve(std::size_t n);
    std::size_t memoryBytes() const;
};

enum class TrackKind : std::uint8_t { CpuThread, GpuStream };

struct Track {
    TrackKind kind = TrackKind::CpuThread;
    std::int64_t pid = 0; // CPU: process id; GPU: device index
    std::int64_t tid = 0; // CPU: thread id; GPU: stream id
    std::string name;     // from thread_name metadata, or a generated "stream 7"
    std::uint16_t maxDepth = 0;
    EventColumns events;

    bool isGpu() const { return kind == TrackKind::GpuStream; }
    std::int64_t device() const { return pid; }
    std::int64_t stream() const { return tid; }
    TimeNs firstStart() const { return events.size() ? events.start.front() : 0; }
    // Latest end of any event (events are sorted by start, so the last one need not end last).
    TimeNs lastEnd() const;
};

} // namespace sl
