#pragma once
// What the Kineto parser reads from one trace event before it enters the model: the values of
// the keys it knows, with strings as views into the text being parsed (docs/Loader.md, "Fast
// scanner"). Two readers fill it: simdjson On-Demand (any valid file, exact error messages) and
// the fast scanner (io/KinetoFastScan.h, the events of a piece of a large file).
#include "trace/Time.h"

#include <cstdint>
#include <string_view>

namespace sl::detail {

// Time values the model accepts (documented limits, see also io/MemoryLimits.h): a start within
// +-kMaxAbsStartNs (about year 2096 for epoch clocks) and a duration within [0, kMaxDurationNs]
// (about 11.6 days). With these, start + duration and the difference of any two times in a set
// stay far from int64 overflow, so later stages need no overflow checks of their own.
constexpr TimeNs kMaxAbsStartNs = 4'000'000'000'000'000'000;
constexpr TimeNs kMaxDurationNs = 1'000'000'000'000'000;

// Fields of one event's "args" that the model needs as values; the rest stays raw JSON text.
struct ArgsFields {
    std::int64_t correlation = -1;
    std::int64_t device = -1;
    std::int64_t stream = -1;
    bool hasCollective = false;
    std::string_view collectiveName;
    std::int64_t inNelems = -1;
    std::int64_t outNelems = -1;
    std::int64_t groupSize = -1;
    std::string_view dtype;
    std::string_view processGroupName;
    std::string_view processGroupRanks;
    bool hasSync = false;
    std::string_view syncKind;
    std::int64_t waitOnStream = -1;
    std::int64_t waitOnEventRecordCorrelation = -1;
    std::int64_t waitOnCudaEventId = -1;
    std::string_view metaName; // "name" of M events
};

// The args keys the model reads, for both readers: one list, so a field added here reaches both.
// Kept: copied as text into Rank::args (lazy args; KinetoParser::keepField says who reads them).
enum class ArgsKey : std::uint8_t {
    Other,
    Correlation,
    CudaSyncKind,
    Device,
    Dtype,
    Stream,
    WaitOnStream,
    WaitOnEventRecordCorrelation,
    WaitOnCudaEventId,
    MetaName,
    CollectiveName,
    InMsgNelems,
    OutMsgNelems,
    GroupSize,
    ProcessGroupName,
    ProcessGroupRanks,
    Kept,
};
ArgsKey argsKeyOf(std::string_view key);

struct EventFields {
    char ph = 0;
    std::string_view name, cat;
    bool hasName = false, hasTs = false, hasDur = false, hasPid = false, hasTid = false;
    std::int64_t pid = 0, tid = 0, flowId = -1;
    TimeNs ts = 0, dur = 0;
    ArgsFields args;
    // The whole "args" object as written (from '{' to its '}'); null when the event has none.
    const char* argsText = nullptr;
    std::uint32_t argsSize = 0;
    // The kept fields of the args ("key":value,... in file order; lazy args only).
    std::string_view kept;
};

// A pid, tid or flow id as the fast reader found it: numbers are final, strings are resolved
// when the event enters the model (a non-numeric string gets a synthetic id, numbered in order of
// first appearance).
struct IdToken {
    enum Slot : std::uint8_t { Pid, Tid, FlowId };
    Slot slot = Pid;
    bool isString = false;
    std::string_view text;
    std::int64_t number = 0;
};

// One event of the fast reader: its fields, the ids in the order the event writes them (strings
// are numbered in that order) and where it starts.
struct ScannedEvent {
    EventFields fields;
    IdToken ids[3];
    std::uint8_t idCount = 0;
    const char* where = nullptr;
};

} // namespace sl::detail
