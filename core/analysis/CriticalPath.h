#pragma once
// Critical path of a simulated schedule (DESIGN.md, "Analyses"): walked back from the node that
// finishes last through the edge that released each node, across ranks through collectives.
#include "graph/ExecutionGraph.h"
#include "sim/Simulator.h"

#include <array>
#include <string_view>
#include <vector>

namespace sl {

enum class PathLabel : std::uint8_t {
    GpuCompute,
    GpuComm,
    CollectiveWait,
    Cpu,
    LaunchLatency,
    Sync,
    Idle,
    Count
};
constexpr int kPathLabelCount = static_cast<int>(PathLabel::Count);
// "gpu_compute", "gpu_comm", "collective_wait", "cpu", "launch_latency", "sync", "idle".
std::string_view pathLabelName(PathLabel l);

struct PathSegment {
    NodeId node = kNoNode; // the node the time belongs to (for gaps: the node that waited)
    EdgeId edge = kNoEdge; // for gaps: the edge crossed
    TimeNs start = 0;      // simulated, in the node's rank clock
    TimeNs end = 0;
    PathLabel label = PathLabel::Idle;
};

struct CriticalPath {
    TimeNs length = 0; // sum of segment lengths
    std::array<TimeNs, kPathLabelCount> byLabel{};
    std::vector<PathSegment> segments; // in time order
    // Nodes on the path by their time on it, longest first.
    std::vector<std::pair<NodeId, TimeNs>> topNodes;
};

CriticalPath criticalPath(const ExecutionGraph& graph, const SimResult& result, std::size_t topCount = 10);

} // namespace sl
