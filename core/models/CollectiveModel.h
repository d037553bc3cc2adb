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
// send_recv for send / recv / sendrecv). fitCalibration() fits them from measured transfers with
// least squares on transfer time vs bus bytes. Below the execution graph (docs/ARCHITECTURE.md,
// "Layers"): the collectives of a graph are structure/CollectiveCalls.h.
#include "base/Diagnostics.h"
#include "trace/Collective.h"
#include "trace/Time.h"
#include "trace/TraceSet.h"

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
    Warnings warnings;

    const CalibrationFit* pooled(bool inter) const;
    const CalibrationFit* ofGroup(int group, bool inter) const;
    // The fit as a knob config: comm.model alpha-beta, gpus per node, pooled intra / inter
    // bandwidth and latency, per-type values, and an informative "calibration" object.
    nlohmann::json toKnobJson() const;
};

// One measured transfer the calibration fits: bus bytes (bytes x busFactor), the transfer time,
// its parameter group and whether its members span nodes.
struct CommSample {
    double busBytes = 0;
    double transferNs = 0;
    int group = 0;
    bool inter = false;
};

// Fits bandwidth and latency per locality (pooled) and per parameter group with least squares on
// transfer time vs bus bytes. withoutBytes: collectives left out for lack of size metadata (a
// warning). The samples of a graph: calibrate() (structure/CollectiveCalls.h).
Calibration fitCalibration(const std::vector<CommSample>& samples, int gpusPerNode, int withoutBytes);

} // namespace sl
