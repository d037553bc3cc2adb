#pragma once
// Collective cost model (docs/ARCHITECTURE.md, "Simulator"; Lin et al., Lumos):
//
//   time = latency + busBytes / busBandwidth,   busBytes = bytes x busFactor(type, n)
//
//   bytes       max(In, Out msg nelems) x dtype size, from the collective metadata of the trace;
//               without metadata the measured transfer time is kept (with a warning)
//   busFactor   all-reduce 2(n-1)/n; all-gather, reduce-scatter, all-to-all (n-1)/n;
//               broadcast, reduce, send, recv 1  (n = process group size)
//   bandwidth   the intra-node one when every member sits on one node (rank / gpus_per_node
//               equal), else the inter-node one
//   algorithm   ring: as above. tree (all-reduce, broadcast, reduce; other types stay ring): the
//               latency term grows with the tree depth, latency x ceil(log2 n), and an all-reduce
//               moves the full message up and down the tree (busFactor 2).
//
// Parameters are effective bus bandwidth and latency per locality and per collective type
// ("parameter group": all_reduce, all_gather, reduce_scatter, all_to_all, broadcast, reduce,
// send_recv for send / recv / sendrecv). calibrate() fits them from the measured transfers of a
// graph with least squares on transfer time vs bus bytes.
#include "graph/ExecutionGraph.h"

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sl {

double busFactor(CollectiveType type, int groupSize);

// The parameter group of a collective type (SendRecv / Send / Recv share "send_recv").
constexpr int kCommParamGroupCount = 7;
int commParamGroup(CollectiveType type);
std::string_view commParamGroupName(int group);

// One collective kernel of the graph, as the cost model sees it.
struct CollectiveCall {
    NodeId node = kNoNode;
    CollectiveType type = CollectiveType::Unknown;
    std::int64_t bytes = -1;         // per participant, -1 when unknown
    int groupSize = 0;               // process group size
    std::vector<std::int32_t> ranks; // member rank ids when known (else empty)
    bool matched = false;            // part of a complete CollectiveGroup (transfer is simulated)
    bool dataParallel = false;       // belongs to the data-parallel group (dp.scale)
    TimeNs transfer = 0;             // the graph's duration: transfer time (matched) or kernel time
    std::string processGroup;        // key of the process group
    // True when the members span more than one node of gpusPerNode GPUs.
    bool spansNodes(int gpusPerNode) const;
};

// Every collective kernel node of the graph (matched or not). The data-parallel group: process
// groups whose description names data parallelism ("dp", "ddp", "data"); without such
// descriptions, the all-reduces of the largest group (plain DDP over the default group).
std::vector<CollectiveCall> collectiveCalls(const ExecutionGraph& graph);

// GPUs per node: the knob when set (> 0), else the deviceProperties count of the trace, else 8.
int gpusPerNodeOf(const TraceSet& set, int knob);

struct AlphaBeta {
    double latencyUs = 0;
    double GBps = 0; // effective bus bandwidth (bytes per ns)
    bool valid() const { return GBps > 0; }
};

class CollectiveModel {
public:
    int gpusPerNode = 8;
    bool tree = false;
    // No inter-node value was set or calibrated: groups spanning nodes use the intra-node ones.
    bool interFromIntra = false;
    // [group][0 = intra, 1 = inter]
    std::array<std::array<AlphaBeta, 2>, kCommParamGroupCount> params{};

    // Transfer time in ns, or -1 when the parameters or the bytes are unknown.
    TimeNs time(CollectiveType type, std::int64_t bytes, int groupSize, bool spansNodes) const;
};

struct CalibrationFit {
    int group = -1; // parameter group, -1 for the pooled fit of a locality
    bool inter = false;
    int samples = 0;
    int distinctSizes = 0;
    AlphaBeta fit;
    double rmsErrorUs = 0;
    double measuredUs = 0; // sum of the measured transfer times fitted
};

struct Calibration {
    int gpusPerNode = 8;
    std::vector<CalibrationFit> fits; // pooled per locality first, then per type
    int collectivesWithoutBytes = 0;
    std::vector<std::string> warnings;

    const CalibrationFit* pooled(bool inter) const;
    const CalibrationFit* ofGroup(int group, bool inter) const;
    // The fit as a knob config: comm.model alpha-beta, gpus per node, pooled intra / inter
    // bandwidth and latency, per-type values, and an informative "calibration" object.
    nlohmann::json toKnobJson() const;
};

// Fits bandwidth and latency from the measured transfers: one sample per matched collective (the
// mean transfer of its members) and per unmatched collective kernel with known bytes.
Calibration calibrate(const ExecutionGraph& graph, int gpusPerNode);

} // namespace sl
