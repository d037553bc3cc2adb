#include "io/EtLinker.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <optional>
#include <string_view>

namespace sl {
namespace {

// The integer value of "key" in a raw args JSON text, or -1.
std::int64_t argInt(std::string_view args, std::string_view quotedKey) {
    auto p = args.find(quotedKey);
    if (p == std::string_view::npos) return -1;
    p += quotedKey.size();
    while (p < args.size() && (args[p] == ' ' || args[p] == ':' || args[p] == '"'))
        ++p;
    std::int64_t v = 0;
    std::size_t digits = 0;
    while (p < args.size() && args[p] >= '0' && args[p] <= '9' && digits < 18) {
        v = v * 10 + (args[p] - '0');
        ++p;
        ++digits;
    }
    return digits ? v : -1;
}

bool isRecordFunction(EventKind k) {
    return k == EventKind::CpuOp || k == EventKind::UserAnnotation;
}

struct KOp {
    EventRef ref;
    std::int64_t evIdx;
    std::int64_t rfId;
};

// Kineto record functions per CPU track, in Ev Idx order where every op has one.
std::vector<std::vector<KOp>> kinetoOps(const Rank& rank) {
    std::vector<std::vector<KOp>> out;
    for (std::uint32_t t = 0; t < rank.tracks.size(); ++t) {
        const Track& tr = rank.tracks[t];
        if (tr.isGpu()) continue;
        std::vector<KOp> ops;
        bool allEv = true;
        for (std::uint32_t i = 0; i < tr.events.size(); ++i) {
            if (!isRecordFunction(tr.events.kind[i])) continue;
            EventRef r{t, i};
            std::string_view a = rank.args(r);
            KOp op{r, argInt(a, "\"Ev Idx\""), argInt(a, "\"Record function id\"")};
            allEv = allEv && op.evIdx >= 0;
            ops.push_back(op);
        }
        if (ops.empty()) continue;
        if (allEv)
            std::stable_sort(ops.begin(), ops.end(),
                             [](const KOp& a, const KOp& b) { return a.evIdx < b.evIdx; });
        out.push_back(std::move(ops));
    }
    return out;
}

// Greedy name alignment of an ET thread (a) with a Kineto thread (b); returns matched index pairs.
std::vector<std::pair<std::size_t, std::size_t>> align(const std::vector<std::string_view>& a,
                                                       const std::vector<std::string_view>& b) {
    std::vector<std::pair<std::size_t, std::size_t>> out;
    const std::size_t n = a.size(), m = b.size();
    if (!n || !m) return out;
    auto confirm = [&](std::size_t i, std::size_t j) {
        for (int k = 0; k < 2; ++k, ++i, ++j) {
            if (i >= n || j >= m) return true;
            if (a[i] != b[j]) return false;
        }
        return true;
    };
    // One side may cover only part of the other (an ET of one iteration, a trace of several).
    auto find = [](const std::vector<std::string_view>& needle, const std::vector<std::string_view>& hay) {
        std::size_t k = std::min<std::size_t>(8, needle.size());
        for (std::size_t s = 0; s + k <= hay.size(); ++s)
            if (std::equal(needle.begin(), needle.begin() + static_cast<std::ptrdiff_t>(k),
                           hay.begin() + static_cast<std::ptrdiff_t>(s)))
                return s;
        return hay.size();
    };
    std::size_t i = 0, j = 0;
    if (a[0] != b[0]) {
        if (std::size_t s = find(a, b); s < m)
            j = s;
        else if (std::size_t s2 = find(b, a); s2 < n)
            i = s2;
    }
    constexpr std::size_t kWindow = 48;
    while (i < n && j < m) {
        if (a[i] == b[j]) {
            out.emplace_back(i++, j++);
            continue;
        }
        std::size_t di = 0, dj = 0;
        for (std::size_t d = 1; d <= kWindow; ++d) {
            if (j + d < m && a[i] == b[j + d] && confirm(i + 1, j + d + 1)) {
                dj = d;
                break;
            }
            if (i + d < n && a[i + d] == b[j] && confirm(i + d + 1, j + 1)) {
                di = d;
                break;
            }
        }
        if (di || dj) {
            i += di;
            j += dj;
        } else {
            ++i;
            ++j;
        }
    }
    return out;
}

// Links by an id in the Kineto args equal to rf_id when the names agree for >= 90% of the ops.
bool linkById(const Rank& rank, const ExecutionTrace& et, const std::vector<std::vector<KOp>>& ops,
              bool rfKey, EtOpLinks& links) {
    std::int64_t withKey = 0, agree = 0;
    EtOpLinks found;
    for (const auto& thread : ops)
        for (const auto& op : thread) {
            std::int64_t key = rfKey ? op.rfId : op.evIdx;
            if (key < 0) continue;
            ++withKey;
            auto it = et.byRfId.find(key);
            if (it == et.byRfId.end() || et.nodes[it->second].name != rank.name(op.ref)) continue;
            ++agree;
            found.emplace(op.ref.packed(), it->second);
        }
    if (withKey == 0 || agree * 10 < withKey * 9) return false;
    links = std::move(found);
    return true;
}

// The inputs of an ET node as the shapes a Kineto trace recorded with shapes carries ("Input
// Dims", "Input type", "Concrete Inputs"; trace/OpShapes.h), or nullopt when it has no tensor input.
// Tensors keep their C++ type name ("float", "c10::BFloat16"), which both formats share; tensor
// lists are "TensorList" without dims, numbers and bools "Scalar" with their value ("True" /
// "False"), int lists their values.
std::optional<OpShapes> kinetoShapes(const EtNode& n) {
    OpShapes s;
    bool anyTensor = false;
    for (const EtArg& a : n.inputs) {
        std::vector<std::int64_t> shape;
        std::string type, value;
        if (!a.isList && a.tensors.size() == 1) {
            shape = a.tensors[0].shape;
            type = a.tensors[0].dtype;
            anyTensor = true;
        } else if (a.isList && !a.tensors.empty()) {
            type = "TensorList";
        } else if (a.isList) {
            type = "GenericList";
            value = nlohmann::json(a.ints).dump();
        } else if (a.type == "Bool" && !a.ints.empty()) {
            type = "Scalar"; // as Kineto records a bool: its value "True" / "False"
            value = a.ints.front() ? "True" : "False";
        } else if (!a.ints.empty()) {
            type = "Scalar";
            value = std::to_string(a.ints.front());
        } else {
            value = a.text;
        }
        s.dims.push_back(std::move(shape));
        s.types.push_back(std::move(type));
        s.concrete.push_back(std::move(value));
    }
    if (!anyTensor) return std::nullopt;
    s.dimsJson = nlohmann::json(s.dims).dump();
    s.typesJson = nlohmann::json(s.types).dump();
    return s;
}

} // namespace

EtOpLinks linkExecutionTraceOps(const Rank& rank, const ExecutionTrace& et, EtLinkStats* stats) {
    EtLinkStats local;
    EtLinkStats& st = stats ? *stats : local;
    auto ops = kinetoOps(rank);
    st.kinetoOps = 0;
    for (const auto& t : ops)
        st.kinetoOps += static_cast<std::int64_t>(t.size());
    // ET threads: record functions in rf_id order.
    std::map<std::int64_t, std::vector<std::size_t>> etThreads;
    for (std::size_t i = 0; i < et.nodes.size(); ++i)
        if (!et.nodes[i].isRoot() && et.nodes[i].rfId >= 0) etThreads[et.nodes[i].tid].push_back(i);
    st.etOps = 0;
    for (auto& [tid, v] : etThreads) {
        std::stable_sort(v.begin(), v.end(),
                         [&](std::size_t x, std::size_t y) { return et.nodes[x].rfId < et.nodes[y].rfId; });
        st.etOps += static_cast<std::int64_t>(v.size());
    }

    EtOpLinks links;
    if (linkById(rank, et, ops, true, links)) {
        st.method = "record function id";
    } else if (linkById(rank, et, ops, false, links)) {
        st.method = "ev idx";
    } else {
        // By order: score every (ET thread, Kineto thread) pair, then pair greedily by score.
        std::vector<std::vector<std::string_view>> kNames(ops.size());
        for (std::size_t k = 0; k < ops.size(); ++k)
            for (const auto& op : ops[k])
                kNames[k].push_back(rank.name(op.ref));
        struct Pairing {
            std::size_t matches;
            std::int64_t tid;
            std::size_t k;
            std::vector<std::pair<std::size_t, std::size_t>> pairs;
        };
        std::vector<Pairing> cands;
        for (const auto& [tid, idx] : etThreads) {
            std::vector<std::string_view> eNames;
            for (auto i : idx)
                eNames.push_back(et.nodes[i].name);
            for (std::size_t k = 0; k < ops.size(); ++k) {
                auto pairs = align(eNames, kNames[k]);
                if (!pairs.empty()) cands.push_back({pairs.size(), tid, k, std::move(pairs)});
            }
        }
        std::stable_sort(cands.begin(), cands.end(),
                         [](const Pairing& x, const Pairing& y) { return x.matches > y.matches; });
        std::vector<bool> kUsed(ops.size(), false);
        std::map<std::int64_t, bool> tUsed;
        for (const auto& c : cands) {
            if (kUsed[c.k] || tUsed[c.tid]) continue;
            kUsed[c.k] = true;
            tUsed[c.tid] = true;
            const auto& idx = etThreads[c.tid];
            for (auto [ei, ki] : c.pairs)
                links.emplace(ops[c.k][ki].ref.packed(), idx[ei]);
        }
        st.method = links.empty() ? "none" : "order";
    }
    st.linkedOps = static_cast<std::int64_t>(links.size());
    return links;
}

EtLinkStats attachExecutionTrace(Rank& rank, const ExecutionTrace& et) {
    EtLinkStats st;
    EtOpLinks links = linkExecutionTraceOps(rank, et, &st);
    // Ops recorded without shapes take them from their linked node, for the per-kernel cost model.
    for (const auto& [packed, node] : links) {
        const EventRef op = EventRef::unpack(packed);
        if (rank.tracks[op.track].events.kind[op.index] != EventKind::CpuOp) continue;
        if (hasInputDims(rank.args(op))) {
            // An all_to_allv's split sizes live only in the ET (Kineto records the op's tensor
            // shapes, not its int lists): kept for the pairs of the embedding all-to-all
            // (sim/EmbeddingWhatIf.h), read from etOpShapes directly (opShapes() gives Kineto's).
            const EtCollective& c = et.nodes[node].collective;
            if (c.inSplits.empty() && c.outSplits.empty()) continue;
            if (auto shapes = kinetoShapes(et.nodes[node])) rank.etOpShapes[packed] = std::move(*shapes);
            continue;
        }
        auto shapes = kinetoShapes(et.nodes[node]);
        if (!shapes) continue;
        rank.etOpShapes[packed] = std::move(*shapes);
        ++st.opsShaped;
    }
    for (auto& coll : rank.collectives) {
        if (!coll.kernel.valid()) continue;
        ++st.collectives;
        if (coll.bytes(rank.strings) >= 0) {
            ++st.alreadySized;
            continue;
        }
        const EtCollective* best = nullptr;
        std::uint64_t link = rank.tracks[coll.kernel.track].events.link[coll.kernel.index];
        if (link != kNoLink) {
            EventRef launch = EventRef::unpack(link);
            const auto& cpu = rank.tracks[launch.track].events;
            for (std::int32_t p = cpu.parent[launch.index]; p >= 0;
                 p = cpu.parent[static_cast<std::size_t>(p)]) {
                EventRef ref{launch.track, static_cast<std::uint32_t>(p)};
                auto it = links.find(ref.packed());
                if (it == links.end()) continue;
                // The linked node and its ET ancestors up to the first c10d op.
                const EtNode* n = &et.nodes[it->second];
                for (int up = 0; n && up < 3; ++up, n = et.parentOf(*n)) {
                    const EtCollective& c = n->collective;
                    if (c.valid && (!best || c.priority > best->priority)) best = &c;
                }
                if (best && best->priority == 3) break;
            }
        }
        if (!best) {
            ++st.unmatched;
            continue;
        }
        coll.inNelems = best->inNelems;
        coll.outNelems = best->outNelems >= 0 ? best->outNelems : best->inNelems;
        coll.dtype = rank.strings.intern(best->dtype);
        if (best->type != CollectiveType::Unknown) coll.type = best->type;
        if (coll.groupSize <= 0 && best->groupSize > 0) coll.groupSize = best->groupSize;
        ++st.filled;
    }
    if (st.unmatched > 0)
        st.warnings.add(Warn::EtCollectivesUnlinked,
                        et.path + ": " + std::to_string(st.unmatched) + " of " +
                            std::to_string(st.collectives) +
                            " collective kernels found no collective in the execution trace (linked " +
                            std::to_string(st.linkedOps) + " of " + std::to_string(st.kinetoOps) +
                            " CPU ops by " + st.method + ")",
                        st.unmatched);
    return st;
}

int harmonizeAllToAllSizes(TraceSet& set, Warnings* warnings) {
    if (set.ranks.size() < 2) return 0;
    std::vector<std::vector<CollectiveMeta*>> perRank;
    for (auto& rank : set.ranks) {
        std::vector<CollectiveMeta*> v;
        for (auto& c : rank.collectives)
            if (c.kernel.valid()) v.push_back(&c);
        std::stable_sort(v.begin(), v.end(), [&](const CollectiveMeta* a, const CollectiveMeta* b) {
            return rank.tracks[a->kernel.track].events.start[a->kernel.index] <
                   rank.tracks[b->kernel.track].events.start[b->kernel.index];
        });
        perRank.push_back(std::move(v));
    }
    for (const auto& v : perRank)
        if (v.size() != perRank.front().size()) {
            if (warnings)
                warnings->add(Warn::EtAllToAllNotEqualized,
                              "ranks have different numbers of collective kernels: all-to-all sizes from "
                              "the execution traces were not made equal across ranks");
            return 0;
        }
    int changed = 0;
    for (std::size_t k = 0; k < perRank.front().size(); ++k) {
        std::int64_t maxIn = -1, maxOut = -1, bytes0 = -2;
        bool all = true, differ = false;
        for (std::size_t r = 0; r < perRank.size(); ++r) {
            const CollectiveMeta* c = perRank[r][k];
            std::int64_t b = c->bytes(set.ranks[r].strings);
            if (c->type != CollectiveType::AllToAll || b < 0 || c->hasMetadata) {
                all = false;
                break;
            }
            if (bytes0 == -2) bytes0 = b;
            differ = differ || b != bytes0;
            maxIn = std::max(maxIn, c->inNelems);
            maxOut = std::max(maxOut, c->outNelems);
        }
        if (!all || !differ) continue;
        for (auto& v : perRank) {
            if (v[k]->inNelems != maxIn || v[k]->outNelems != maxOut) ++changed;
            v[k]->inNelems = maxIn;
            v[k]->outNelems = maxOut;
        }
    }
    return changed;
}

} // namespace sl
