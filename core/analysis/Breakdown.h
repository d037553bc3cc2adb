#pragma once
// Temporal breakdown per rank with the definitions of Holistic Trace Analysis (HTA), so numbers can
// be compared side by side:
//   compute        union of compute kernels (GPU kernels that are not NCCL/RCCL)
//   communication  union of collective kernels
//   memory         union of memcpy / memset (neither compute nor communication, as in HTA)
//   exposed comm   communication not overlapped by any compute kernel on the same device
//   idle           GPU span (first GPU op start .. last GPU op end) minus the union of all GPU ops
//   overlap %      (communication - exposed) / communication
// Summed over the rank's devices (one per rank in the usual one-GPU-per-process setup).
#include "graph/ExecutionGraph.h"
#include "sim/Simulator.h"
#include "trace/EmbeddingWork.h"
#include "trace/EventClass.h"
#include "trace/TraceSet.h"

#include <cstdint>
#include <vector>

namespace sl {

// HTA's op classes, a grouping of trace/EventClass.h: compute kernels, communication kernels, and
// the GPU's memcpy / memset ops (HTA's "memory").
enum class OpClass : std::uint8_t { Compute, Communication, MemcpyMemset };

OpClass opClassOf(EventClass c);
// The class of a GPU op event (kernels with a communication kernel name are communication).
OpClass opClassOf(const Rank& rank, EventRef event);

struct OpInterval {
    TimeNs start = 0;
    TimeNs end = 0;
    std::int64_t device = 0;
    OpClass cls = OpClass::Compute;
    EmbeddingWork work = EmbeddingWork::None; // trace/EmbeddingWork.h
};

struct RankBreakdown {
    int rank = 0; // Rank::rank id
    TimeNs span = 0;
    TimeNs compute = 0;
    TimeNs communication = 0;
    TimeNs memory = 0;
    TimeNs exposedCommunication = 0;
    TimeNs idle = 0;
    // Parts of compute and communication (docs/Embeddings.md, "On the critical path"): the union
    // of the embedding lookup kernels and of the embedding all-to-all's collectives.
    TimeNs embeddingLookup = 0;
    TimeNs embeddingAllToAll = 0;

    TimeNs overlappedCommunication() const { return communication - exposedCommunication; }
    double overlapPct() const;
};

// The breakdown of one rank's GPU op intervals (any order).
RankBreakdown breakdownOf(int rankId, std::vector<OpInterval> ops);

// Measured breakdown of every rank; with a graph, only events inside its step window count.
std::vector<RankBreakdown> measuredBreakdown(const TraceSet& set, const ExecutionGraph* graph = nullptr);
// Simulated breakdown from the simulator's per-track timeline (events without a time are skipped).
std::vector<RankBreakdown> simulatedBreakdown(const TraceSet& set, const SimulatedTimeline& timeline);
// The simulated breakdown of every rank a setup edit added (SimResult::addedRanks, in its order),
// from the added rank's own times of its source rank's GPU ops.
std::vector<RankBreakdown> addedRanksBreakdown(const ExecutionGraph& graph, const SimResult& result);

// Communication/computation overlap exactly as Holistic Trace Analysis computes it
// (get_comm_comp_overlap; docs/ARCHITECTURE.md, "Analyses"), per rank, for comparing with HTA:
// every GPU op of the file (no step window), communication = the name contains "nccl" in any case,
// memory = memcpy / memset, computation = the rest; overlap % = |comm union intersected with the
// compute union| / |comm union|, all of the rank's devices in one union. 0 without communication.
// Sightline's own overlap_pct differs on purpose: one step window, every collective library
// (RCCL, DeepEP, NVSHMEM, ...) counted as communication, and per-device exposure.
std::vector<double> htaOverlapPct(const TraceSet& set);

// The exposed-communication intervals of every rank (communication on a device while no compute
// kernel runs on it), sorted and disjoint, for highlighting in a timeline. Measured times (within
// the graph's window when given) or simulated times from a timeline.
struct TimeSpan {
    TimeNs start = 0;
    TimeNs end = 0;
};
std::vector<std::vector<TimeSpan>> measuredExposedCommunication(const TraceSet& set,
                                                                const ExecutionGraph* graph = nullptr);
std::vector<std::vector<TimeSpan>> simulatedExposedCommunication(const TraceSet& set,
                                                                 const SimulatedTimeline& timeline);

// Collective time of a rank split into waiting for peers (start until the last participant
// arrived) and transferring (the rest), each also as the part no compute kernel on the same device
// overlaps. Graph nodes only (the modelled collectives); measured from the graph's transfer times,
// simulated from the simulated schedule.
struct CommSplit {
    int rank = 0;
    TimeNs wait = 0, transfer = 0;
    TimeNs exposedWait = 0, exposedTransfer = 0;
};
std::vector<CommSplit> measuredCommSplit(const ExecutionGraph& graph);
std::vector<CommSplit> simulatedCommSplit(const ExecutionGraph& graph, const SimResult& result);

// Why each GPU stream was idle between two ops (measured), in the spirit of HTA's idle time
// breakdown: waiting for the host (the next op's launch call came after the stream went idle),
// waiting for another stream or rank (the op had a cross-stream or collective dependency), other
// (launch overhead and gaps with no recorded cause).
struct StreamIdle {
    int rank = 0;
    std::int64_t device = 0;
    std::int64_t stream = 0;
    TimeNs hostWait = 0;
    TimeNs dependencyWait = 0;
    TimeNs other = 0;
    TimeNs total() const { return hostWait + dependencyWait + other; }
};
std::vector<StreamIdle> measuredStreamIdle(const ExecutionGraph& graph);

} // namespace sl
