#pragma once
// Hand-made Kineto traces for graph, simulator and analysis tests: tiny JSON files written into a
// temporary folder (times in microseconds), loaded and turned into an execution graph.
#include "TestSupport.h"

#include "graph/ExecutionGraph.h"
#include "io/KinetoLoader.h"

#include <QStringList>

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
    bool hasWarning(const char* part) const {
        for (const auto& w : graph.warnings)
            if (w.find(part) != std::string::npos) return true;
        return false;
    }
};

constexpr TimeNs us(double v) {
    return static_cast<TimeNs>(v * 1000);
}

} // namespace slgraph
