#pragma once
// Hand-made Kineto traces for graph, simulator and analysis tests: tiny JSON files written into a
// temporary folder (times in microseconds), loaded and turned into an execution graph.
#include "TestSupport.h"

#include "graph/ExecutionGraph.h"
#include "io/KinetoLoader.h"
#include "sim/Knobs.h"

#include <QStringList>

#include <initializer_list>
#include <map>
#include <memory>
#include <string>

namespace slgraph {

using namespace sl;

inline QString cpu(const char* name, double ts, double dur, int corr, int tid = 1,
                   const char* cat = "cuda_runtime") {
    return QString(
               R"({"ph":"X","cat":"%1","name":"%2","pid":1,"tid":%3,"ts":%4,"dur":%5,"args":{"correlation":%6}})")
        .arg(cat)
        .arg(name)
        .arg(tid)
        .arg(ts)
        .arg(dur)
        .arg(corr);
}
inline QString gpu(const char* name, double ts, double dur, int corr, int stream = 7) {
    return QString(
               R"({"ph":"X","cat":"kernel","name":"%1","pid":0,"tid":%2,"ts":%3,"dur":%4,"args":{"correlation":%5,"stream":%2,"device":0}})")
        .arg(name)
        .arg(stream)
        .arg(ts)
        .arg(dur)
        .arg(corr);
}
inline QByteArray trace(const QStringList& events, int rank = -1, int world = 0) {
    QString dist = rank >= 0 ? QString(R"("distributedInfo":{"rank":%1,"world_size":%2,"backend":"nccl"},)")
                                   .arg(rank)
                                   .arg(world)
                             : QString();
    return ("{" + dist + R"("traceEvents":[)" + events.join(",") + "]}").toUtf8();
}

struct Fixture {
    QTemporaryDir dir;
    TraceSet set;
    ExecutionGraph graph;
    void load(const QList<QByteArray>& files, GraphOptions opt = {}) {
        std::vector<std::string> paths;
        for (int i = 0; i < files.size(); ++i)
            paths.push_back(sltest::writeFile(dir, QString("rank-%1.json").arg(i), files[i]));
        set = loadTraceSet(paths);
        graph = buildExecutionGraph(set, opt);
    }
    int edges(EdgeKind k) const { return static_cast<int>(graph.stats.edgesByKind[static_cast<int>(k)]); }
    NodeId node(const char* name, std::uint32_t rank = 0) const {
        for (NodeId n = 0; n < graph.nodes.size(); ++n)
            if (graph.nodes[n].rank == rank && graph.nodeName(n) == name) return n;
        return kNoNode;
    }
    bool hasWarning(Warn kind) const { return graph.warnings.has(kind); }
};

// Knobs from "key=value" assignments, as --set gives them.
inline SimKnobs knobsOf(std::initializer_list<const char*> assignments) {
    SimKnobs k;
    for (const char* a : assignments)
        setKnobAssignment(k, a);
    return k;
}

// A trace set and its graph, loaded once per test program and path (real traces and samples are
// read by many test functions).
struct LoadedSet {
    TraceSet set;
    ExecutionGraph graph;
};
inline const LoadedSet& loadCached(const std::string& path) {
    static std::map<std::string, std::unique_ptr<LoadedSet>> cache;
    auto& slot = cache[path];
    if (!slot) {
        slot = std::make_unique<LoadedSet>();
        slot->set = loadTraceSet({path});
        slot->graph = buildExecutionGraph(slot->set);
    }
    return *slot;
}

// Two ranks, one all-reduce: rank 0 arrives at 20 us, rank 1 (after a short kernel) at 60 us;
// the transfer takes 60 us, so both end at 120 us.
constexpr const char* kAllReduceKernel = "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, ncclWork*)";
inline QList<QByteArray> twoRankAllReduce() {
    return {trace({cpu("cudaLaunchKernel", 10, 5, 1), gpu(kAllReduceKernel, 20, 100, 1, 20)}, 0, 2),
            trace({cpu("cudaLaunchKernel", 0, 5, 9), cpu("cudaLaunchKernel", 50, 5, 1), gpu("k0", 10, 5, 9),
                   gpu(kAllReduceKernel, 60, 60, 1, 20)},
                  1, 2)};
}

// Rank 0 of a 4-rank job alone (its peers are phantoms): 1 ms of compute, then an all-reduce that
// waited 2 ms for the absent peers before its 100 us transfer, then one that did not wait.
inline QList<QByteArray> rankWithLatePeers() {
    auto coll = [](double ts, double dur, int corr) {
        return QString(R"({"ph":"X","cat":"kernel","name":"%1","pid":0,"tid":7,"ts":%2,"dur":%3,)"
                       R"("args":{"correlation":%4,"stream":7,"device":0,"Collective name":"allreduce",)"
                       R"("In msg nelems":1000,"Out msg nelems":1000,"Group size":4,"dtype":"Float",)"
                       R"("Process Group Name":"0","Process Group Ranks":"[0, 1, 2, 3]"}})")
            .arg(kAllReduceKernel)
            .arg(ts)
            .arg(dur)
            .arg(corr);
    };
    return {trace({cpu("cudaLaunchKernel", 0, 5, 1), gpu("compute", 10, 1000, 1),
                   cpu("cudaLaunchKernel", 6, 5, 2), coll(1010, 2100, 2), cpu("cudaLaunchKernel", 12, 5, 3),
                   coll(3110, 100, 3)},
                  0, 4)};
}

constexpr TimeNs us(double v) {
    return static_cast<TimeNs>(v * 1000);
}

} // namespace slgraph
