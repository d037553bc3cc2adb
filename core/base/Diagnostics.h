#pragma once
// Warnings as enumerated counters, shared by the loader, the graph and the simulator
// (docs/Diagnostics.md). Every kind has a stable snake_case key, a severity
// and one message that says what it means, as Perfetto's stats do; each occurrence adds its count
// and the line people read (what and where, with the numbers). Tests check the kinds and counts,
// front ends print the lines (`simulate`, the report, the GUI's warnings panel) or the counters
// (`sightline-cli info`).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sl {

enum class Severity : std::uint8_t {
    Info,     // a note on what was filled in or how the input was read
    Warning,  // an approximation: something is timed or matched another way than measured
    DataLoss, // part of the input or of a request was left out or ignored
};

// Every warning kind. The table of keys, severities and messages is Diagnostics.cpp (kWarnTable).
enum class Warn : std::uint16_t {
    // Loading (core/io)
    FileLeftOut,
    TraceNoEvents,
    UnclosedBeginEvents,
    CorrelationIdReused,
    GpuOpNoLaunchCall,
    UnknownEventCategory,
    GpuOpOverlap,
    DuplicateRank,
    RanksMissing,
    ClockBasesDiffer,
    RankSpansDisjoint,
    EtLinked,
    EtNotUsed,
    EtMatchedByOrder,
    EtNoRank,
    EtNoMatchingOps,
    EtCollectivesUnlinked,
    EtRankWithout,
    EtAllToAllNotEqualized,
    ChakraNoMeasuredTimes,
    ChakraCtrlDepsInvalid,
    ChakraCpuBlocked,
    ChakraCommNoSize,
    ChakraNodeNoDuration,
    XSpaceHostLinesShared,
    RanksByProcessOrder,
    GpuOnlyRank,
    // Calibration (core/models)
    CalibrationNoSize,
    CalibrationNoSamples,
    // The execution graph (core/graph)
    RankClocksAligned,
    CollectiveClockContradiction,
    CollectiveCountMismatch,
    CollectiveUnmatched,
    CollectivePeersMissing,
    P2pPeerMissing,
    P2pLargeGroup,
    P2pCountMismatch,
    P2pSizeMismatch,
    P2pNoPeer,
    P2pUnpaired,
    CollectiveModelled,
    CollectiveTypeMismatch,
    CrossStreamWaitSkipped,
    EventWaitSkipped,
    GraphCycleDropped,
    LaunchLatencyClamped,
    OverlapSerialized,
    GpuOpReplayedWithoutLaunch,
    PrewindowQueued,
    DeviceWaitInferred,
    GpuClockOffsetApplied,
    GraphNotBuilt,
    // The simulator (core/sim)
    KnobNotSimulated,
    KnobNoEffect,
    SetupEditIgnored,
    DpNoGradientSync,
    DpRanksNotCloned,
    DpCollectivesUnplaced,
    DpScaleNoCollectives,
    AlphaBetaCalibrated,
    AlphaBetaNoSize,
    CommLocalityUnknown,
    CommNoInterNodeBandwidth,
    GpuTargetUnknown,
    GpuTargetNoShapes,
    DataKnobsNoLoader,
    HostComputeNone,
    GpuTargetHostAsTraced,
    GpuTargetNoEfficiency,
    NoOverlapUnavailable,
    ScheduleIncomplete,
    BlockEditIgnored,
    BlockEditsNotCombined,
    LayerEditRounded,
    BlockCopyPeersOutside,
    BlockCopyPhantomPeers,
    EmbeddingTablesInferred,
    // What a knob did, as the analyses see it (core/analysis)
    KnobEffectSmall,
    // Two runs compared, a prediction checked (core/analysis, docs/Compare.md)
    CompareRanksByOrder,
    CompareRanksUnpaired,
    CompareGpusDiffer,
    CompareNotOneProgram,
};

struct WarnInfo {
    Warn kind;
    std::string_view key; // stable snake_case name (JSON "stats", tests)
    Severity severity;
    std::string_view message; // what the kind means, one sentence
};

// Every kind, in the enum's order.
const std::vector<WarnInfo>& warnTable();
const WarnInfo& warnInfo(Warn kind);
std::optional<Warn> warnByKey(std::string_view key);
const char* severityName(Severity s); // "info", "warning", "data_loss"

// One occurrence: its kind, how many things it counts (12 GPU ops without a launch call: 12), the
// line people read and, for the simulator's warnings about a knob, that knob's key ("dp.scale"),
// which the knob panel and the what-if explanation use to put the line beside its knob.
struct Warning {
    Warn kind;
    std::int64_t count = 1;
    std::string text;
    std::string knob; // a key of sim/KnobRegistry.h; empty when the occurrence concerns no knob
    friend bool operator==(const Warning&, const Warning&) = default;
};

// The warnings of a load, a graph or a simulation, in the order they were added.
class Warnings {
public:
    void add(Warn kind, std::string text, std::int64_t n = 1);
    // An occurrence that concerns the knob `knob` (its registry key: "gpu.target", not
    // "gpu.target=X").
    void addForKnob(std::string knob, Warn kind, std::string text, std::int64_t n = 1);
    // Adds `other`'s warnings after (append) or before (prepend) these; append puts `prefix`
    // ("rank 3: ") before each line.
    void append(const Warnings& other, std::string_view prefix = {});
    void prepend(const Warnings& other);

    // The summed count of a kind (0 when absent), and whether it occurred at all.
    std::int64_t count(Warn kind) const;
    bool has(Warn kind) const;

    bool empty() const { return items_.empty(); }
    std::size_t size() const { return items_.size(); }
    const Warning& front() const { return items_.front(); }
    std::vector<Warning>::const_iterator begin() const { return items_.begin(); }
    std::vector<Warning>::const_iterator end() const { return items_.end(); }

    // The lines people read, in order.
    std::vector<std::string> lines() const;

    // The counters: one per kind that occurred, in the table's order, with the summed count, the
    // number of lines and the first line as an example.
    struct Stat {
        Warn kind;
        std::int64_t count = 0;
        std::int64_t occurrences = 0;
        std::string example;
    };
    std::vector<Stat> stats() const;

    friend bool operator==(const Warnings&, const Warnings&) = default;

private:
    std::vector<Warning> items_;
};

// The counters as a table people read: key, severity, count, message and an example per kind.
std::string statsTable(const std::vector<Warnings::Stat>& stats);

} // namespace sl
