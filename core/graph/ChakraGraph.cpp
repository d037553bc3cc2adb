#include "graph/ChakraGraph.h"

#include "models/CollectiveModel.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>

namespace sl {

bool isUnmeasuredSet(const TraceSet& set) {
    return !set.ranks.empty() &&
           std::all_of(set.ranks.begin(), set.ranks.end(), [](const Rank& r) { return !r.hasMeasuredTimes; });
}

namespace {

CollectiveModel defaultModel() {
    CollectiveModel m;
    m.gpusPerNode = kChakraGpusPerNode;
    for (auto& p : m.params) {
        p[0] = AlphaBeta{kChakraLatencyUs, kChakraIntraNodeGBps};
        p[1] = AlphaBeta{kChakraLatencyUs, kChakraInterNodeGBps};
    }
    return m;
}

} // namespace

ExecutionGraph buildChakraGraph(const TraceSet& set, const GraphOptions& options) {
    if (options.step >= 0)
        throw GraphError("a Chakra execution trace has no ProfilerStep windows (--step " +
                         std::to_string(options.step) + ")");
    ExecutionGraph g;
    g.trace = &set;
    g.nodeIndex.resize(set.ranks.size());
    g.ranks.resize(set.ranks.size());
    // Each node's Chakra attributes (trace/ChakraNodeMeta.h), by node id.
    std::vector<const ChakraNodeMeta*> info;
    // Per rank: chakra id -> node.
    std::vector<std::unordered_map<std::uint64_t, NodeId>> byId(set.ranks.size());
    auto addEdge = [&](NodeId from, NodeId to, EdgeKind kind, TimeNs delay) {
        GraphEdge e;
        e.from = from;
        e.to = to;
        e.kind = kind;
        e.delay = delay;
        g.edges.push_back(e);
        ++g.stats.edgesByKind[static_cast<int>(kind)];
    };
    for (std::uint32_t r = 0; r < set.ranks.size(); ++r) {
        const Rank& rank = set.ranks[r];
        g.ranks[r].rankId = rank.rank;
        g.nodeIndex[r].resize(rank.tracks.size());
        for (std::uint32_t t = 0; t < rank.tracks.size(); ++t) {
            const Track& track = rank.tracks[t];
            Processor proc;
            proc.rank = r;
            proc.track = t;
            proc.gpu = track.isGpu();
            const auto p = static_cast<std::uint32_t>(g.processors.size());
            auto& idx = g.nodeIndex[r][t];
            idx.assign(track.events.size(), kNoNode);
            for (std::uint32_t i = 0; i < track.events.size(); ++i) {
                GraphNode n;
                n.rank = r;
                n.event = EventRef{t, i};
                n.processor = p;
                n.kind = track.isGpu() ? NodeKind::GpuOp : NodeKind::CpuCall;
                n.duration = track.events.duration[i];
                const ChakraNodeMeta* ni = rank.chakraNode(n.event);
                if (!ni)
                    throw GraphError(rank.sourcePath, "event " + std::to_string(i) + " of track " +
                                                          std::to_string(t) + " is not a Chakra node");
                const auto id = static_cast<NodeId>(g.nodes.size());
                idx[i] = id;
                byId[r][ni->id] = id;
                proc.nodes.push_back(id);
                g.nodes.push_back(n);
                info.push_back(ni);
            }
            for (std::size_t k = 1; k < proc.nodes.size(); ++k)
                addEdge(proc.nodes[k - 1], proc.nodes[k],
                        proc.gpu ? EdgeKind::StreamOrder : EdgeKind::ThreadOrder, 0);
            g.processors.push_back(std::move(proc));
        }
    }
    // Start times, where a file gives them, are boundary conditions only: the earliest start of
    // the first node of each processor (relative to the earliest given start of the set), as
    // measured roots are in a Kineto graph; every other node starts from its dependencies.
    std::int64_t minStart = -1;
    for (const ChakraNodeMeta* ni : info)
        if (ni->startNs >= 0 && (minStart < 0 || ni->startNs < minStart)) minStart = ni->startNs;
    if (minStart >= 0)
        for (const auto& p : g.processors)
            if (!p.nodes.empty() && info[p.nodes.front()]->startNs >= 0)
                g.nodes[p.nodes.front()].release = info[p.nodes.front()]->startNs - minStart;
    // The file's data dependencies (the processor order above already holds adjacent pairs).
    std::set<std::pair<NodeId, NodeId>> adjacent;
    for (const auto& e : g.edges)
        adjacent.insert({e.from, e.to});
    for (NodeId n = 0; n < g.nodes.size(); ++n) {
        const std::uint32_t r = g.nodes[n].rank;
        for (std::uint64_t d : info[n]->dataDeps) {
            auto it = byId[r].find(d);
            if (it == byId[r].end())
                throw GraphError(set.ranks[r].sourcePath,
                                 "node " + std::to_string(info[n]->id) + ": data dependency on node " +
                                     std::to_string(d) + ", which is not in the file");
            const NodeId from = it->second;
            if (adjacent.count({from, n})) continue;
            const bool same = g.nodes[from].processor == g.nodes[n].processor;
            addEdge(from, n,
                    same ? (g.processors[g.nodes[n].processor].gpu ? EdgeKind::StreamOrder
                                                                   : EdgeKind::ThreadOrder)
                         : EdgeKind::CrossStream,
                    0);
        }
    }

    // Collectives: the k-th sized communication node (by Chakra id) of a process group on each
    // rank. Sends and receives pair up by (comm_src, comm_dst, comm_tag) instead (below).
    struct Member {
        std::uint64_t chakraId;
        NodeId node;
    };
    std::map<std::string, std::vector<std::vector<Member>>> byGroup; // group -> rank -> members
    std::vector<Member> p2pNodes;
    // Ranks that carry nodes of a process group: its participants when the name is not the
    // default communicator ("" / "0" = every rank, as in ASTRA-sim).
    std::map<std::string, std::set<std::uint32_t>> ranksOfGroup;
    auto metaOf = [&](NodeId n) -> const CollectiveMeta& {
        const Rank& rank = g.rankOf(n);
        return rank.collectives[rank.tracks[g.nodes[n].event.track].events.extra[g.nodes[n].event.index]];
    };
    for (NodeId n = 0; n < g.nodes.size(); ++n) {
        const Rank& rank = g.rankOf(n);
        const auto extra = rank.tracks[g.nodes[n].event.track].events.extra[g.nodes[n].event.index];
        if (extra == kNoExtra || extra >= rank.collectives.size()) continue;
        const CollectiveMeta& m = rank.collectives[extra];
        const std::string group(rank.strings.str(m.processGroupName));
        ranksOfGroup[group].insert(g.nodes[n].rank);
        if (m.type == CollectiveType::Send || m.type == CollectiveType::Recv) {
            p2pNodes.push_back({info[n]->id, n});
            continue;
        }
        auto& perRank = byGroup[group];
        perRank.resize(set.ranks.size());
        perRank[g.nodes[n].rank].push_back({info[n]->id, n});
    }
    const CollectiveModel model = defaultModel();
    const int rankCount = static_cast<int>(set.ranks.size());
    auto participantsOf = [&](const std::string& group) {
        if (group.empty() || group == "0") return rankCount;
        return static_cast<int>(ranksOfGroup[group].size());
    };
    auto spansNodes = [&](const std::vector<NodeId>& members) {
        std::set<int> nodes;
        for (NodeId m : members)
            nodes.insert(g.rankOf(m).rank / model.gpusPerNode);
        return nodes.size() > 1;
    };
    std::int64_t modelled = 0, mismatched = 0;
    auto addGroup = [&](CollectiveGroup grp) {
        const auto gi = static_cast<std::uint32_t>(g.collectives.size());
        for (NodeId n : grp.members) {
            g.nodes[n].kind = NodeKind::Collective;
            g.nodes[n].collective = gi;
        }
        for (NodeId a : grp.members)
            for (NodeId b : grp.members)
                if (a != b) addEdge(b, a, EdgeKind::Collective, g.nodes[a].duration);
        if (grp.complete)
            ++g.stats.collectivesMatched;
        else
            ++g.stats.collectivesUnmatched;
        g.collectives.push_back(std::move(grp));
    };
    // Durations: the file's, else the cost model's for the group as loaded.
    auto modelTimes = [&](const CollectiveGroup& grp, int groupSize) {
        for (NodeId n : grp.members) {
            if (info[n]->durationInFile) continue;
            TimeNs d = model.time(grp.type, std::max<std::int64_t>(0, grp.bytes), groupSize,
                                  spansNodes(grp.members) || groupSize > model.gpusPerNode);
            if (d < 0) d = static_cast<TimeNs>(kChakraLatencyUs * 1000.0);
            g.nodes[n].duration = d;
            ++modelled;
        }
    };
    for (auto& [group, perRank] : byGroup) {
        std::size_t rounds = 0;
        for (auto& members : perRank) {
            std::sort(members.begin(), members.end(),
                      [](const Member& a, const Member& b) { return a.chakraId < b.chakraId; });
            rounds = std::max(rounds, members.size());
        }
        const int participants = participantsOf(group);
        for (std::size_t k = 0; k < rounds; ++k) {
            CollectiveGroup grp;
            grp.processGroup = group.empty() ? "default" : group;
            grp.expectedParticipants = participants;
            bool agree = true;
            for (auto& members : perRank) {
                if (k >= members.size()) continue;
                const NodeId n = members[k].node;
                const CollectiveMeta& m = metaOf(n);
                const std::int64_t bytes = m.bytes(g.rankOf(n).strings);
                if (grp.members.empty()) {
                    grp.type = m.type;
                    grp.bytes = bytes;
                } else if (grp.type != m.type || grp.bytes != bytes) {
                    agree = false;
                }
                grp.members.push_back(n);
            }
            modelTimes(grp, participants);
            if (!agree) {
                ++mismatched;
                ++g.stats.collectivesUnmatched;
                continue;
            }
            grp.complete = static_cast<int>(grp.members.size()) == participants;
            addGroup(std::move(grp));
        }
    }
    // Sends and receives: a send from a to b with tag t meets the receive at b from a with tag t;
    // without tags, the k-th send meets the k-th receive (by Chakra id). A node without comm_src /
    // comm_dst runs on its own rank and, in a process group of two ranks, talks to the other one.
    std::set<std::int64_t> rankIds;
    for (const auto& r : set.ranks)
        rankIds.insert(r.rank);
    std::sort(p2pNodes.begin(), p2pNodes.end(), [&](const Member& a, const Member& b) {
        return g.nodes[a.node].rank != g.nodes[b.node].rank ? g.nodes[a.node].rank < g.nodes[b.node].rank
                                                            : a.chakraId < b.chakraId;
    });
    struct Queues {
        std::vector<NodeId> sends, recvs;
    };
    std::map<std::tuple<std::int64_t, std::int64_t, std::int64_t>, Queues> byPeers;
    std::int64_t p2pWithoutPeer = 0, p2pUnpaired = 0;
    for (const Member& mb : p2pNodes) {
        const NodeId n = mb.node;
        const bool send = metaOf(n).type == CollectiveType::Send;
        const std::int64_t self = g.rankOf(n).rank;
        std::int64_t src = info[n]->commSrc, dst = info[n]->commDst;
        if (send && src < 0) src = self;
        if (!send && dst < 0) dst = self;
        std::int64_t& peer = send ? dst : src;
        if (peer < 0) {
            const auto& rs = ranksOfGroup[info[n]->pgName];
            if (!info[n]->pgName.empty() && rs.size() == 2)
                for (std::uint32_t r : rs)
                    if (set.ranks[r].rank != self) peer = set.ranks[r].rank;
        }
        // A peer outside the set, the rank itself (its send would wait for its own receive), or a
        // node that names another rank as its own side (ASTRA-sim rejects it too).
        if (peer < 0 || peer == self || !rankIds.count(peer) || (send ? src : dst) != self) {
            ++p2pWithoutPeer;
            ++g.stats.collectivesUnmatched;
            continue;
        }
        auto& q = byPeers[{src, dst, info[n]->commTag}];
        (send ? q.sends : q.recvs).push_back(n);
    }
    for (auto& [peers, q] : byPeers) {
        const std::size_t pairs = std::min(q.sends.size(), q.recvs.size());
        p2pUnpaired += static_cast<std::int64_t>(q.sends.size() + q.recvs.size() - 2 * pairs);
        g.stats.collectivesUnmatched +=
            static_cast<std::int64_t>(q.sends.size() + q.recvs.size() - 2 * pairs);
        for (std::size_t k = 0; k < pairs; ++k) {
            CollectiveGroup grp;
            grp.type = CollectiveType::SendRecv;
            grp.processGroup =
                "p2p:" + std::to_string(std::get<0>(peers)) + "->" + std::to_string(std::get<1>(peers));
            grp.expectedParticipants = 2;
            grp.members = {q.sends[k], q.recvs[k]};
            const std::int64_t sb = metaOf(q.sends[k]).bytes(g.rankOf(q.sends[k]).strings);
            const std::int64_t rb = metaOf(q.recvs[k]).bytes(g.rankOf(q.recvs[k]).strings);
            grp.bytes = sb >= 0 ? sb : rb;
            modelTimes(grp, 2);
            if (sb >= 0 && rb >= 0 && sb != rb) {
                ++mismatched;
                g.stats.collectivesUnmatched += 2;
                continue;
            }
            grp.complete = true;
            addGroup(std::move(grp));
        }
    }
    auto warnCount = [&](Warn kind, std::int64_t n, const std::string& what) {
        if (n) g.warnings.add(kind, std::to_string(n) + what, n);
    };
    warnCount(Warn::P2pNoPeer, p2pWithoutPeer,
              " sends / receives name no peer in the set (no comm_src / comm_dst, not in a "
              "process group of two ranks): each keeps its own time");
    warnCount(Warn::P2pUnpaired, p2pUnpaired,
              " sends / receives have no counterpart (same comm_src, comm_dst and comm_tag) on "
              "the peer: each keeps its own time");
    warnCount(Warn::CollectiveModelled, modelled,
              " collectives have no duration in the file: timed by the alpha-beta model from their "
              "type and size (" +
                  std::to_string(static_cast<int>(kChakraIntraNodeGBps)) + " GB/s intra-node, " +
                  std::to_string(static_cast<int>(kChakraInterNodeGBps)) + " GB/s inter-node, " +
                  std::to_string(static_cast<int>(kChakraLatencyUs)) +
                  " us; the group: the ranks carrying its process group, every rank for the "
                  "default one)");
    warnCount(Warn::CollectiveTypeMismatch, mismatched,
              " collectives (or send / receive pairs) differ in type or size across ranks: not "
              "matched (each keeps its own time)");
    for (const auto& rank : set.ranks)
        g.warnings.append(rank.warnings, rank.sourcePath + ": ");
    g.buildAdjacency();
    try {
        g.validate();
    } catch (const GraphError& e) {
        throw GraphError(set.ranks.front().sourcePath,
                         e.message() + " (ranks disagree on the order of their collectives)");
    }
    return g;
}

} // namespace sl
