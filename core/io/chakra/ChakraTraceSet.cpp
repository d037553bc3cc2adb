#include "io/chakra/ChakraTraceSet.h"

#include "io/LoadError.h"
#include "io/RankFinalizer.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>
#include <queue>
#include <unordered_map>

namespace sl {

namespace {

struct Placement {
    bool gpu = false;
    std::int64_t id = 0; // thread id or stream id
    EventKind kind = EventKind::CpuOp;
    bool collective = false;
};

// Where a node runs (docs/Chakra.md): CPU ops on their thread; GPU nodes on their stream
// ("stream", as Chakra's converter writes it, else "tid"), else on a default stream per role. A communication
// node with a size is a collective on a GPU stream even when marked as a CPU op; one without a size is
// replayed as a plain op.
Placement placeOf(const ChakraNode& n) {
    Placement p;
    // The converter gives GPU nodes the stream in "stream"; its "tid" is not the stream there.
    const std::int64_t stream = n.stream >= 0 ? n.stream : n.tid;
    const bool sized = n.isComm() && n.commSize >= 0;
    if (n.isCpuOp && !sized) {
        p.gpu = false;
        p.id = n.tid >= 0 ? n.tid : 0;
        p.kind = EventKind::CpuOp;
        return p;
    }
    p.gpu = true;
    if (sized) {
        p.collective = true;
        p.kind = EventKind::Kernel;
        p.id = !n.isCpuOp && stream >= 0 ? stream : kChakraCommStream;
    } else if (n.type == ChakraNodeType::MemLoad || n.type == ChakraNodeType::MemStore) {
        p.kind = EventKind::GpuMemcpy;
        p.id = stream >= 0 ? stream : kChakraMemoryStream;
    } else {
        p.kind = EventKind::Kernel;
        p.id = stream >= 0 ? stream : (n.isComm() ? kChakraCommStream : kChakraComputeStream);
    }
    return p;
}

// File order where the data dependencies allow it (smallest file position first among the ready).
std::vector<std::uint32_t> topologicalOrder(const ChakraFile& f) {
    std::unordered_map<std::uint64_t, std::uint32_t> index;
    index.reserve(f.nodes.size());
    for (std::uint32_t i = 0; i < f.nodes.size(); ++i)
        index.emplace(f.nodes[i].id, i);
    std::vector<std::uint32_t> indeg(f.nodes.size(), 0);
    std::vector<std::vector<std::uint32_t>> out(f.nodes.size());
    for (std::uint32_t i = 0; i < f.nodes.size(); ++i)
        for (std::uint64_t d : f.nodes[i].dataDeps) {
            out[index.at(d)].push_back(i);
            ++indeg[i];
        }
    std::priority_queue<std::uint32_t, std::vector<std::uint32_t>, std::greater<>> ready;
    for (std::uint32_t i = 0; i < f.nodes.size(); ++i)
        if (indeg[i] == 0) ready.push(i);
    std::vector<std::uint32_t> order;
    order.reserve(f.nodes.size());
    while (!ready.empty()) {
        std::uint32_t n = ready.top();
        ready.pop();
        order.push_back(n);
        for (std::uint32_t m : out[n])
            if (--indeg[m] == 0) ready.push(m);
    }
    return order; // complete: readChakraBytes rejected cycles
}

// CPU COMP nodes that last far longer than the GPU nodes depending on them (the work they
// launch): more than kBlockingFactor times it and kBlockingMinNs beyond it. A launch takes
// microseconds; a node that long was most likely waiting for the GPU (a synchronising copy,
// .item()), and a duration that includes the wait counts it twice in a replay that simulates it.
constexpr std::int64_t kBlockingFactor = 10;
constexpr std::int64_t kBlockingMinNs = 100'000;
struct Blocking {
    std::int64_t nodes = 0;
    std::int64_t excessNs = 0;
};
Blocking blockingLooking(const ChakraFile& f) {
    std::unordered_map<std::uint64_t, std::uint32_t> index;
    for (std::uint32_t i = 0; i < f.nodes.size(); ++i)
        index.emplace(f.nodes[i].id, i);
    std::vector<std::int64_t> launched(f.nodes.size(), -1);
    for (const auto& n : f.nodes) {
        if (n.isCpuOp) continue;
        for (std::uint64_t d : n.dataDeps) {
            auto it = index.find(d);
            if (it == index.end() || !f.nodes[it->second].isCpuOp) continue;
            auto& l = launched[it->second];
            l = std::max<std::int64_t>(l, 0) + std::max<std::int64_t>(0, n.durationNs);
        }
    }
    Blocking b;
    for (std::uint32_t i = 0; i < f.nodes.size(); ++i) {
        const ChakraNode& n = f.nodes[i];
        if (launched[i] < 0 || n.type != ChakraNodeType::Comp || n.durationNs <= 0) continue;
        if (n.durationNs > kBlockingFactor * launched[i] && n.durationNs - launched[i] > kBlockingMinNs) {
            ++b.nodes;
            b.excessNs += n.durationNs - launched[i];
        }
    }
    return b;
}

std::string streamName(std::int64_t id, bool hasTid) {
    std::string s = "stream " + std::to_string(id);
    if (!hasTid) {
        if (id == kChakraComputeStream) s += " (compute)";
        if (id == kChakraCommStream) s += " (communication)";
        if (id == kChakraMemoryStream) s += " (memory)";
    }
    return s;
}

} // namespace

Rank chakraRank(const ChakraFile& file, int rankId, int worldSize) {
    Rank rank;
    rank.rank = rankId;
    rank.sourcePath = file.path;
    rank.worldSize = worldSize;
    rank.backend = "chakra";
    rank.hasMeasuredTimes = false;
    rank.warnings = file.warnings;
    std::map<std::pair<bool, std::int64_t>, std::uint32_t> trackOf;
    std::vector<std::uint32_t> order = topologicalOrder(file);
    std::int64_t unsizedComm = 0, withoutDuration = 0;
    for (std::uint32_t i : order) {
        const ChakraNode& n = file.nodes[i];
        const Placement p = placeOf(n);
        auto [it, fresh] = trackOf.try_emplace({p.gpu, p.id}, static_cast<std::uint32_t>(rank.tracks.size()));
        if (fresh) {
            Track t;
            t.kind = p.gpu ? TrackKind::GpuStream : TrackKind::CpuThread;
            t.pid = 0;
            t.tid = p.id;
            t.name = p.gpu ? streamName(p.id, (n.stream >= 0 || n.tid >= 0) && !(p.collective && n.isCpuOp))
                           : "thread " + std::to_string(p.id);
            rank.tracks.push_back(std::move(t));
        }
        Track& track = rank.tracks[it->second];
        auto& ev = track.events;
        const auto index = static_cast<std::uint32_t>(ev.size());
        // Typed, for the graph and `info` (trace/ChakraNodeMeta.h); the args below are for people
        // (the details panel, exports).
        if (rank.chakraNodes.size() <= it->second) rank.chakraNodes.resize(it->second + 1);
        ChakraNodeMeta meta;
        meta.id = n.id;
        meta.type = n.type;
        meta.dataDeps = n.dataDeps;
        meta.ctrlDeps = n.ctrlDeps;
        meta.durationInFile = n.durationNs >= 0;
        meta.startNs = n.startNs;
        meta.commSize = n.commSize;
        meta.commSrc = n.commSrc;
        meta.commDst = n.commDst;
        meta.commTag = n.commTag;
        meta.pgName = n.commGroup;
        rank.chakraNodes[it->second].push_back(std::move(meta));
        nlohmann::json args;
        args["chakra_id"] = n.id;
        args["chakra_type"] = chakraNodeTypeName(n.type);
        args["data_deps"] = n.dataDeps;
        if (!n.ctrlDeps.empty()) args["ctrl_deps"] = n.ctrlDeps;
        args["duration_in_file"] = n.durationNs >= 0;
        if (n.startNs >= 0) args["start_ns"] = n.startNs;
        args["is_cpu_op"] = n.isCpuOp;
        if (n.tid >= 0) args["tid"] = n.tid;
        if (n.stream >= 0) args["stream"] = n.stream;
        if (n.commSizeEstimated) args["comm_size_estimated"] = true;
        if (!n.inputShapes.empty()) args["Input Dims"] = n.inputShapes;
        if (!n.inputTypes.empty()) args["Input type"] = n.inputTypes;
        if (!n.outputShapes.empty()) args["Output Dims"] = n.outputShapes;
        if (!n.outputTypes.empty()) args["Output type"] = n.outputTypes;
        if (n.commType >= 0) args["comm_type"] = chakraCommTypeName(static_cast<ChakraCommType>(n.commType));
        if (n.commSize >= 0) args["comm_size"] = n.commSize;
        if (!n.commGroup.empty()) args["pg_name"] = n.commGroup;
        if (n.commSrc >= 0) args["comm_src"] = n.commSrc;
        if (n.commDst >= 0) args["comm_dst"] = n.commDst;
        if (n.commTag >= 0) args["comm_tag"] = n.commTag;
        std::string text = args.dump();
        std::uint32_t extra = kNoExtra;
        if (p.collective) {
            CollectiveMeta m;
            m.kernel = EventRef{it->second, index};
            m.hasMetadata = true;
            if (n.type == ChakraNodeType::CommSend)
                m.type = CollectiveType::Send;
            else if (n.type == ChakraNodeType::CommRecv)
                m.type = CollectiveType::Recv;
            else if (n.commType >= 0)
                m.type = collectiveTypeFromChakra(static_cast<ChakraCommType>(n.commType));
            m.inNelems = m.outNelems = n.commSize; // sizes are bytes: elements of one byte
            m.dtype = rank.strings.intern("Byte");
            m.processGroupName = rank.strings.intern(n.commGroup);
            extra = static_cast<std::uint32_t>(rank.collectives.size());
            rank.collectives.push_back(std::move(m));
        } else if (n.isComm()) {
            ++unsizedComm;
        }
        if (n.durationNs < 0 && !p.collective) ++withoutDuration;
        ev.start.push_back(0);
        ev.duration.push_back(std::max<TimeNs>(0, n.durationNs));
        ev.name.push_back(rank.strings.intern(n.name));
        ev.kind.push_back(p.kind);
        ev.depth.push_back(0);
        ev.parent.push_back(-1);
        ev.correlation.push_back(-1);
        ev.link.push_back(kNoLink);
        ev.extra.push_back(extra);
        ev.argsOffset.push_back(rank.argsArena.size());
        ev.argsLength.push_back(static_cast<std::uint32_t>(text.size()));
        rank.argsArena += text;
        ++rank.eventsByKind[static_cast<std::size_t>(p.kind)];
    }
    if (auto b = blockingLooking(file); b.nodes > 0)
        rank.warnings.add(
            Warn::ChakraCpuBlocked,
            std::to_string(b.nodes) + " CPU nodes last far longer than the GPU work they launch (" +
                std::to_string(b.excessNs / 1000) +
                " us beyond it in all): their durations look like they include time blocked waiting for the "
                "GPU (Chakra's converter keeps it), which the replay then adds to the waits it simulates",
            b.nodes);
    if (unsizedComm)
        rank.warnings.add(
            Warn::ChakraCommNoSize,
            std::to_string(unsizedComm) +
                " communication nodes have no comm_size: replayed as plain ops with their durations",
            unsizedComm);
    if (withoutDuration)
        rank.warnings.add(Warn::ChakraNodeNoDuration,
                          std::to_string(withoutDuration) +
                              " nodes (not collectives) have no duration in the file: they take no time",
                          withoutDuration);
    return rank;
}

bool isChakraInput(const std::vector<std::string>& paths) {
    if (paths.empty()) return false;
    for (const auto& p : paths)
        if (!isChakraPath(p)) return false;
    return true;
}

TraceSet loadChakraTraceSet(const std::vector<std::string>& paths, const LoadOptions& options) {
    std::vector<std::string> files = expandChakraPaths(paths);
    std::vector<std::int64_t> sizes;
    std::int64_t total = 0, done = 0;
    for (const auto& f : files) {
        std::error_code ec;
        auto s = std::filesystem::file_size(f, ec);
        sizes.push_back(ec ? 0 : static_cast<std::int64_t>(s));
        total += sizes.back();
    }
    ChakraLimits limits;
    limits.maxNodes = options.maxEventsPerFile;
    TraceSet set;
    std::vector<std::string> skipped;
    for (std::size_t i = 0; i < files.size(); ++i) {
        try {
            ChakraFile f = readChakraFile(files[i], limits);
            int r = rankFromChakraFileName(files[i]);
            Rank rank = chakraRank(f, r >= 0 ? r : static_cast<int>(i), static_cast<int>(files.size()));
            rank.fileBytes = sizes[i];
            set.ranks.push_back(std::move(rank));
        } catch (const LoadError& e) {
            if (!options.skipBadFiles) throw;
            skipped.push_back(e.what());
        }
        done += sizes[i];
        if (options.progress && !options.progress(done, total)) throw LoadCancelled();
    }
    if (set.ranks.empty())
        throw LoadError(files.front(), skipped.empty() ? "no Chakra file loaded" : skipped.front());
    for (auto& r : set.ranks)
        r.worldSize = static_cast<int>(set.ranks.size() + skipped.size());
    for (const auto& s : skipped)
        set.warnings.add(Warn::FileLeftOut, "left out (it cannot be loaded): " + s);
    finalizeTraceSet(set);
    set.warnings.add(Warn::ChakraNoMeasuredTimes,
                     "Chakra execution trace: durations and dependencies only, no measured timeline "
                     "(nothing measured to compare a simulation with)");
    return set;
}

ChakraRankSummary chakraRankSummary(const Rank& rank) {
    ChakraRankSummary s;
    if (rank.hasMeasuredTimes) return s;
    for (const auto& track : rank.chakraNodes)
        for (const ChakraNodeMeta& n : track) {
            if (const auto t = static_cast<std::size_t>(n.type); t < kChakraNodeTypeCount) ++s.nodesByType[t];
            s.dataDeps += static_cast<std::int64_t>(n.dataDeps.size());
            s.ctrlDeps += static_cast<std::int64_t>(n.ctrlDeps.size());
            const bool comm = isChakraCommType(n.type);
            const bool sized = n.commSize >= 0;
            if (comm) ++(sized ? s.commNodesSized : s.commNodesUnsized);
            if (!n.durationInFile && !(comm && sized)) ++s.nodesWithoutDuration;
        }
    return s;
}

void addChakraInfo(nlohmann::json& info, const TraceSet& set) {
    bool any = false;
    for (const auto& rank : set.ranks) {
        if (rank.hasMeasuredTimes) continue;
        any = true;
        if (!info.contains("ranks")) continue;
        for (auto& r : info["ranks"]) {
            if (r.value("rank", -1) != rank.rank) continue;
            const ChakraRankSummary s = chakraRankSummary(rank);
            nlohmann::json byType = nlohmann::json::object();
            for (int k = 0; k < kChakraNodeTypeCount; ++k)
                if (s.nodesByType[k])
                    byType[std::string(chakraNodeTypeName(static_cast<ChakraNodeType>(k)))] =
                        s.nodesByType[k];
            r["measured_times"] = false;
            r["time_span_us"] = nullptr;
            r["chakra"] = {{"nodes_by_type", byType},
                           {"data_deps", s.dataDeps},
                           {"ctrl_deps", s.ctrlDeps},
                           {"comm_nodes_sized", s.commNodesSized},
                           {"comm_nodes_unsized", s.commNodesUnsized},
                           {"nodes_without_duration", s.nodesWithoutDuration}};
        }
    }
    if (any) info["measured_times"] = false;
}

} // namespace sl
