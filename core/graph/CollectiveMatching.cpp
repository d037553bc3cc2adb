// Collectives matched across ranks: the k-th collective of a process group on each rank.
#include "graph/CollectiveGrouping.h"
#include "graph/GraphBuilder.h"

#include <algorithm>
#include <limits>
#include <map>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace sl::graph_build {

void Builder::addGroup(CollectiveGroup&& grp) {
    if (grp.complete) {
        TimeNs latest = std::numeric_limits<TimeNs>::min();
        for (NodeId n : grp.members)
            latest = std::max(latest, effStart[n]);
        bool offset = false;
        for (NodeId n : grp.members)
            if (mEnd(n) < latest) offset = true;
        TimeNs minDur = std::numeric_limits<TimeNs>::max();
        for (NodeId n : grp.members)
            minDur = std::min(minDur, g.nodes[n].duration);
        if (offset && !clockWarned) {
            g.warnings.add(Warn::CollectiveClockContradiction,
                           "collective end times contradict their start times across ranks "
                           "(clock offset between rank files): transfer time taken from the "
                           "shortest participant");
            clockWarned = true;
        }
        std::uint32_t gi = static_cast<std::uint32_t>(g.collectives.size());
        for (NodeId n : grp.members) {
            TimeNs transfer = offset ? minDur : std::max<TimeNs>(0, mEnd(n) - latest);
            g.nodes[n].duration = std::min(transfer, g.nodes[n].duration);
            g.nodes[n].kind = NodeKind::Collective;
            g.nodes[n].collective = gi;
        }
        for (NodeId a : grp.members)
            for (NodeId b : grp.members)
                if (a != b) addEdge(b, a, EdgeKind::Collective, g.nodes[a].duration);
        g.stats.collectivesMatched++;
    } else {
        g.stats.collectivesUnmatched++;
    }
    g.collectives.push_back(std::move(grp));
}

// The k-th collective of a process group on each rank is one collective.
// Collectives whose peers are not in the rank set (one rank of a bigger job): the peers are
// phantoms that arrive at their measured time. The transfer time is the fastest instance of the
// same kernel and size on the rank (an instance that did not wait), so under replay the
// collective ends at max(start + transfer, measured end), and it still responds to comm knobs.
void Builder::phantomPeers() {
    std::map<std::pair<std::string, std::int64_t>, TimeNs> fastest;
    auto keyOf = [&](NodeId n) { return std::make_pair(std::string(g.nodeName(n)), bytesOf(n)); };
    for (NodeId n : phantomCandidates) {
        auto [it, fresh] = fastest.try_emplace(keyOf(n), g.nodes[n].duration);
        if (!fresh) it->second = std::min(it->second, g.nodes[n].duration);
    }
    for (NodeId n : phantomCandidates) {
        auto& node = g.nodes[n];
        const TimeNs transfer = std::min(node.duration, fastest[keyOf(n)]);
        const TimeNs origin = g.ranks[node.rank].origin;
        node.phantomArrival = std::max<TimeNs>(0, mEnd(n) - transfer - origin);
        node.duration = transfer;
        g.stats.phantomCollectives++;
    }
}

void Builder::collectiveEdges() {
    struct Seq {
        std::vector<NodeId> nodes;
    };
    std::map<std::string, std::map<std::uint32_t, Seq>> byKey; // key -> rank index -> nodes
    std::map<std::string, std::vector<std::int32_t>> keyRanks; // key -> expected rank ids
    std::map<std::string, int> keySize;
    // Point-to-point (send / recv with metadata): key -> rank index -> sends, receives.
    struct P2p {
        std::vector<NodeId> sends, recvs;
    };
    std::map<std::string, std::map<std::uint32_t, P2p>> p2p;
    for (std::uint32_t r = 0; r < set.ranks.size(); ++r) {
        const Rank& rank = set.ranks[r];
        std::map<std::pair<std::int64_t, std::int64_t>, int> streamOrdinal;
        for (auto& p : g.processors) {
            if (p.rank != r || !p.gpu) continue;
            const Track& t = rank.tracks[p.track];
            for (NodeId n : p.nodes) {
                const auto& node = g.nodes[n];
                std::string_view name = rank.name(node.event);
                if (!isCollectiveKernelName(name)) continue;
                std::uint32_t extra = t.events.extra[node.event.index];
                const CollectiveMeta* meta =
                    extra != kNoExtra && extra < rank.collectives.size() ? &rank.collectives[extra] : nullptr;
                std::string key;
                if (meta && meta->hasMetadata && !meta->processGroupRanks.empty()) {
                    key = "pg:" + std::string(rank.strings.str(meta->processGroupName)) + ":";
                    for (auto x : meta->processGroupRanks)
                        key += std::to_string(x) + ",";
                    keyRanks[key] = meta->processGroupRanks;
                } else if (meta && meta->hasMetadata && meta->groupSize > 0) {
                    key = "pg:" + std::string(rank.strings.str(meta->processGroupName)) + ":size" +
                          std::to_string(meta->groupSize);
                    keySize[key] = meta->groupSize;
                } else {
                    auto [it, fresh] = streamOrdinal.try_emplace({t.device(), t.stream()},
                                                                 static_cast<int>(streamOrdinal.size()));
                    (void)fresh;
                    key = "stream-order:" + std::to_string(it->second);
                    if (rank.worldSize > 0) keySize[key] = std::max(keySize[key], rank.worldSize);
                }
                CollectiveType type = meta && meta->type != CollectiveType::Unknown
                                          ? meta->type
                                          : collectiveTypeFromKernelName(name);
                if (meta && meta->hasMetadata &&
                    (type == CollectiveType::Send || type == CollectiveType::Recv)) {
                    auto& pr = p2p[key][r];
                    (type == CollectiveType::Send ? pr.sends : pr.recvs).push_back(n);
                    continue;
                }
                byKey[key][r].nodes.push_back(n);
            }
        }
    }
    for (auto& [key, perRank] : byKey) {
        std::vector<std::uint32_t> participants;
        bool missing = false;
        if (auto it = keyRanks.find(key); it != keyRanks.end()) {
            for (auto id : it->second) {
                const Rank* rk = set.findRank(id);
                if (!rk) {
                    missing = true;
                    continue;
                }
                participants.push_back(static_cast<std::uint32_t>(rk - set.ranks.data()));
            }
        } else {
            for (auto& [r, seq] : perRank)
                participants.push_back(r);
            int expected = keySize.count(key) ? keySize[key] : -1;
            if (expected < 0 && set.ranks.size() == 1) expected = 2; // a lone rank with NCCL kernels
            if (expected > 0 && static_cast<int>(participants.size()) < expected) missing = true;
        }
        std::size_t maxCount = 0, minCount = std::numeric_limits<std::size_t>::max();
        for (auto r : participants) {
            std::size_t c = perRank.count(r) ? perRank[r].nodes.size() : 0;
            maxCount = std::max(maxCount, c);
            minCount = std::min(minCount, c);
        }
        if (participants.empty()) continue;
        if (!missing && minCount != maxCount)
            warn(Warn::CollectiveCountMismatch,
                 "collectives of a process group differ in number across ranks; extra ones keep measured "
                 "durations");
        bool mismatch = false;
        for (std::size_t k = 0; k < maxCount; ++k) {
            CollectiveGroup grp;
            grp.processGroup = key;
            grp.expectedParticipants = static_cast<int>(participants.size());
            bool typeOk = true;
            for (auto r : participants) {
                if (!perRank.count(r) || k >= perRank[r].nodes.size()) continue;
                NodeId n = perRank[r].nodes[k];
                CollectiveType t = collectiveTypeFromKernelName(g.nodeName(n));
                const Rank& rank = set.ranks[r];
                std::uint32_t extra =
                    rank.tracks[g.nodes[n].event.track].events.extra[g.nodes[n].event.index];
                std::int64_t bytes = -1;
                if (extra != kNoExtra && extra < rank.collectives.size()) {
                    const auto& m = rank.collectives[extra];
                    if (m.type != CollectiveType::Unknown) t = m.type;
                    bytes = m.bytes(rank.strings);
                }
                if (!joinCollectiveGroup(grp.type, grp.bytes, grp.members.empty(), t, bytes)) typeOk = false;
                grp.members.push_back(n);
            }
            if (!typeOk && !mismatch) {
                warn(Warn::CollectiveUnmatched,
                     "collectives could not be matched across ranks (type or size differ): from there on "
                     "they "
                     "keep measured durations");
                mismatch = true;
            }
            grp.complete = opt.matchCollectives && !missing && !mismatch &&
                           grp.members.size() == participants.size() && participants.size() > 1;
            if (missing && !mismatch && opt.matchCollectives)
                phantomCandidates.insert(phantomCandidates.end(), grp.members.begin(), grp.members.end());
            addGroup(std::move(grp));
        }
        if (missing)
            warn(Warn::CollectivePeersMissing,
                 "collectives with peers missing from the rank set: the missing peers arrive at their "
                 "measured "
                 "time (key " +
                     key + ")");
    }
    // Send / recv pairs: in a process group of two ranks A and B, the k-th send of A meets the
    // k-th receive of B (and the other way round).
    for (auto& [key, perRank] : p2p) {
        for (auto& [r, pr] : perRank) {
            auto byStart = [&](NodeId a, NodeId b) { return effStart[a] < effStart[b]; };
            std::stable_sort(pr.sends.begin(), pr.sends.end(), byStart);
            std::stable_sort(pr.recvs.begin(), pr.recvs.end(), byStart);
        }
        std::vector<std::uint32_t> participants;
        bool missing = false;
        if (auto it = keyRanks.find(key); it != keyRanks.end()) {
            for (auto id : it->second) {
                const Rank* rk = set.findRank(id);
                if (!rk)
                    missing = true;
                else
                    participants.push_back(static_cast<std::uint32_t>(rk - set.ranks.data()));
            }
        } else {
            for (auto& [r, pr] : perRank)
                participants.push_back(r);
            int expected = keySize.count(key) ? keySize[key] : 2;
            missing = static_cast<int>(participants.size()) < expected;
        }
        std::int64_t total = 0;
        for (auto& [r, pr] : perRank)
            total += static_cast<std::int64_t>(pr.sends.size() + pr.recvs.size());
        if (missing && opt.matchCollectives)
            for (auto& [r, pr] : perRank) {
                phantomCandidates.insert(phantomCandidates.end(), pr.sends.begin(), pr.sends.end());
                phantomCandidates.insert(phantomCandidates.end(), pr.recvs.begin(), pr.recvs.end());
            }
        if (missing || participants.size() != 2) {
            warn(missing ? Warn::P2pPeerMissing : Warn::P2pLargeGroup,
                 missing ? "send / recv with the peer missing from the rank set: the peer arrives at its "
                           "measured time"
                         : "send / recv in process groups of more than two ranks keep their measured "
                           "durations (the peer is not recorded)");
            g.stats.collectivesUnmatched += total;
            continue;
        }
        for (int dir = 0; dir < 2; ++dir) {
            std::uint32_t a = participants[static_cast<std::size_t>(dir)];
            std::uint32_t b = participants[static_cast<std::size_t>(1 - dir)];
            const auto& sends = perRank[a].sends;
            const auto& recvs = perRank[b].recvs;
            if (sends.size() != recvs.size())
                warn(Warn::P2pCountMismatch,
                     "sends and receives of a process group differ in number; extra ones keep measured "
                     "durations");
            std::size_t pairs = std::min(sends.size(), recvs.size());
            g.stats.collectivesUnmatched +=
                static_cast<std::int64_t>(sends.size() + recvs.size() - 2 * pairs);
            bool mismatch = false;
            for (std::size_t k = 0; k < pairs; ++k) {
                CollectiveGroup grp;
                grp.type = CollectiveType::SendRecv;
                grp.processGroup = key;
                grp.expectedParticipants = 2;
                std::int64_t sb = bytesOf(sends[k]), rb = bytesOf(recvs[k]);
                grp.bytes = sb >= 0 ? sb : rb;
                if (sb >= 0 && rb >= 0 && sb != rb && !mismatch) {
                    warn(Warn::P2pSizeMismatch,
                         "a send and its receive differ in size: from there on they keep measured "
                         "durations");
                    mismatch = true;
                }
                grp.members = {sends[k], recvs[k]};
                grp.complete = opt.matchCollectives && !mismatch;
                addGroup(std::move(grp));
            }
        }
    }
    phantomPeers();
}

} // namespace sl::graph_build
