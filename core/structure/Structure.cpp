#include "structure/Structure.h"

#include "trace/AsciiText.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <numeric>
#include <regex>
#include <set>
#include <unordered_map>

namespace sl {

RankPlace ParallelStructure::placeOf(int rankId) const {
    for (const auto& p : places)
        if (p.rank == rankId) return p;
    RankPlace p;
    p.rank = rankId;
    if (megatronOrder && rankId >= 0 && rankId < world) {
        p.tp = rankId % tp;
        p.dp = (rankId / tp) % dp;
        p.pp = rankId / (tp * dp);
        p.known = true;
    }
    return p;
}

Repetition longestRepetition(const std::vector<std::uint32_t>& seq, int minBlock) {
    Repetition best;
    const std::size_t n = seq.size();
    const std::size_t lo = static_cast<std::size_t>(std::max(1, minBlock));
    // For block length p, a run of L consecutive positions j with seq[j] == seq[j + p] means
    // L / p + 1 consecutive copies of the block starting at the run's first position.
    for (std::size_t p = lo; 2 * p <= n; ++p) {
        std::size_t run = 0;
        for (std::size_t j = 0; j + p < n; ++j) {
            run = seq[j] == seq[j + p] ? run + 1 : 0;
            if (run < p) continue;
            const int count = static_cast<int>(run / p) + 1;
            if (static_cast<std::size_t>(count) * p >
                static_cast<std::size_t>(best.count) * static_cast<std::size_t>(best.length)) {
                best.count = count;
                best.length = static_cast<int>(p);
                best.first = j + 1 - run;
            }
        }
    }
    return best;
}

namespace {

bool isPointToPoint(CollectiveType t) {
    return t == CollectiveType::Send || t == CollectiveType::Recv || t == CollectiveType::SendRecv;
}

// A group seen only through collectives (no description): its members and collective types.
struct SeenGroup {
    std::vector<std::int32_t> ranks;
    std::set<CollectiveType> types;
};

// Roles of groups without descriptions: pairs that only send and receive are pipeline links; the
// largest group that all-reduces is data parallel (plain DDP over the default group when that is
// the world), smaller all-reducing groups are tensor parallel.
std::vector<ParallelGroup> classifySeen(const std::vector<SeenGroup>& seen, int world, const char* how) {
    std::vector<ParallelGroup> out;
    std::size_t largestAllReduce = 0;
    for (const auto& g : seen)
        if (g.types.count(CollectiveType::AllReduce))
            largestAllReduce = std::max(largestAllReduce, g.ranks.size());
    for (const auto& g : seen) {
        ParallelGroup pg;
        pg.ranks = g.ranks;
        pg.description = how;
        bool p2p = std::all_of(g.types.begin(), g.types.end(), isPointToPoint);
        if (p2p && g.ranks.size() == 2 && static_cast<int>(g.ranks.size()) < world)
            pg.role = GroupRole::Pipeline;
        else if (g.types.count(CollectiveType::AllReduce) && g.ranks.size() == largestAllReduce)
            pg.role = GroupRole::Data;
        else if (g.types.count(CollectiveType::AllReduce))
            pg.role = GroupRole::Tensor;
        else if (static_cast<int>(g.ranks.size()) == world)
            pg.role = GroupRole::World;
        out.push_back(std::move(pg));
    }
    return out;
}

void addGroup(std::vector<ParallelGroup>& groups, ParallelGroup g) {
    std::sort(g.ranks.begin(), g.ranks.end());
    for (const auto& h : groups)
        if (h.role == g.role && h.ranks == g.ranks) return;
    groups.push_back(std::move(g));
}

struct UnionFind {
    std::map<int, int> parent;
    int find(int x) {
        auto it = parent.try_emplace(x, x).first;
        if (it->second == x) return x;
        int r = find(it->second);
        parent[x] = r;
        return r;
    }
    void unite(int a, int b) { parent[find(a)] = find(b); }
};

void recognizeLayout(const TraceSet& set, const ExecutionGraph* graph, ParallelStructure& s) {
    for (const auto& r : set.ranks)
        s.world = std::max(s.world, r.worldSize);
    int maxId = 0;
    for (const auto& r : set.ranks)
        maxId = std::max(maxId, r.rank + 1);
    if (s.world <= 0) s.world = std::max(maxId, static_cast<int>(set.ranks.size()));

    // 1. Process groups with descriptions (distributedInfo.pg_config).
    for (const auto& r : set.ranks)
        for (const auto& pg : r.processGroups) {
            if (pg.ranks.empty()) continue;
            ParallelGroup g;
            g.role = roleFromDescription(pg.description);
            g.description = pg.description;
            g.ranks = pg.ranks;
            if (g.role == GroupRole::Other && static_cast<int>(g.ranks.size()) == s.world)
                g.role = GroupRole::World;
            addGroup(s.groups, std::move(g));
        }
    if (!s.groups.empty()) s.source = "pg_config";

    // 2. Collective metadata (Process Group Ranks) without descriptions; 3. the graph's matched
    // collectives (members' rank ids), for traces without any metadata.
    std::map<std::vector<std::int32_t>, SeenGroup> seen;
    auto see = [&](std::vector<std::int32_t> ranks, CollectiveType type) {
        std::sort(ranks.begin(), ranks.end());
        ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
        if (ranks.size() < 2) return; // a group of one rank says nothing about the layout
        auto& g = seen[ranks];
        g.ranks = ranks;
        g.types.insert(type);
    };
    auto adopt = [&](const char* how) {
        std::vector<SeenGroup> list;
        for (auto& [k, g] : seen)
            list.push_back(g);
        for (auto& g : classifySeen(list, s.world, how))
            addGroup(s.groups, std::move(g));
        if (!s.groups.empty()) s.source = how;
    };
    if (s.groups.empty()) {
        for (const auto& r : set.ranks)
            for (const auto& c : r.collectives)
                if (!c.processGroupRanks.empty()) see(c.processGroupRanks, c.type);
        adopt("collective metadata");
    }
    if (s.groups.empty() && graph) {
        for (const auto& c : graph->collectives) {
            std::vector<std::int32_t> ranks;
            for (NodeId m : c.members)
                ranks.push_back(graph->rankOf(m).rank);
            if (c.complete) see(std::move(ranks), c.type);
        }
        adopt("matched collectives");
    }
    if (s.groups.empty()) {
        s.source = "ranks";
        if (s.world > 1)
            s.notes.push_back("no process groups (pg_config), collective metadata or matched collectives: "
                              "every rank is taken as a data-parallel replica");
    }

    // Degrees.
    int tpSize = 1, dpSize = 0;
    UnionFind chains;
    bool anyPipeline = false;
    for (const auto& g : s.groups) {
        const int n = static_cast<int>(g.ranks.size());
        if (g.role == GroupRole::Tensor) tpSize = std::max(tpSize, n);
        if (g.role == GroupRole::Data) dpSize = std::max(dpSize, n);
        if (g.role == GroupRole::Pipeline) {
            anyPipeline = true;
            for (std::size_t i = 1; i < g.ranks.size(); ++i)
                chains.unite(g.ranks[0], g.ranks[i]);
        }
    }
    std::map<int, std::vector<int>> stageOf; // chain root -> members (sorted)
    if (anyPipeline)
        for (auto& [r, p] : chains.parent)
            stageOf[chains.find(r)].push_back(r);
    int ppSize = 1;
    for (auto& [root, members] : stageOf) {
        std::sort(members.begin(), members.end());
        ppSize = std::max(ppSize, static_cast<int>(members.size()));
    }
    if (dpSize == 0) dpSize = s.world % (tpSize * ppSize) == 0 ? s.world / (tpSize * ppSize) : 1;
    s.tp = tpSize;
    s.pp = ppSize;
    s.dp = dpSize;

    // Places: index in the sorted tensor group, in the sorted data group, in the pipeline chain
    // (earlier stages have lower rank ids: the first stage sends activations to the second).
    auto indexIn = [&](GroupRole role, int id) -> int {
        for (const auto& g : s.groups)
            if (g.role == role) {
                auto it = std::find(g.ranks.begin(), g.ranks.end(), id);
                if (it != g.ranks.end()) return static_cast<int>(it - g.ranks.begin());
            }
        return -1;
    };
    bool allKnown = true;
    for (const auto& r : set.ranks) {
        RankPlace p;
        p.rank = r.rank;
        bool ok = true;
        int t = indexIn(GroupRole::Tensor, r.rank);
        if (t < 0) t = s.tp == 1 ? 0 : (ok = false, 0);
        int d = indexIn(GroupRole::Data, r.rank);
        if (d < 0) {
            bool dataGroups = std::any_of(s.groups.begin(), s.groups.end(),
                                          [](const ParallelGroup& g) { return g.role == GroupRole::Data; });
            if (s.dp == 1)
                d = 0;
            else if (!dataGroups) // data parallel over the whole job: Megatron order
                d = (r.rank / s.tp) % s.dp;
            else
                ok = false, d = 0;
        }
        int st = 0;
        if (anyPipeline) {
            st = -1;
            if (chains.parent.count(r.rank)) {
                const auto& members = stageOf[chains.find(r.rank)];
                st = static_cast<int>(std::find(members.begin(), members.end(), r.rank) - members.begin());
            }
            if (st < 0) ok = false, st = 0;
        }
        p.tp = t;
        p.dp = d;
        p.pp = st;
        p.known = ok;
        allKnown = allKnown && ok;
        s.places.push_back(p);
    }
    s.recognised = allKnown && s.dp * s.tp * s.pp == s.world;
    if (!s.recognised)
        s.notes.push_back("layout not recognised: dp " + std::to_string(s.dp) + " x tp " +
                          std::to_string(s.tp) + " x pp " + std::to_string(s.pp) +
                          " does not place every rank of a world of " + std::to_string(s.world));
    s.megatronOrder = s.recognised;
    for (const auto& p : s.places)
        if (ParallelStructure::megatronRank(p.pp, p.dp, p.tp, s.dp, s.tp) != p.rank) s.megatronOrder = false;
}

// Micro-batch markers: "forward_step#3", "forward-pass 3", "fwd_microbatch#0", "backward_step#3"...
bool matchesBlock(std::string_view name, bool forward) {
    static const std::regex fwd(R"(^(forward|fwd)([_ -]?(step|pass|microbatch|mb))?[ #_]?\d+$)",
                                std::regex::icase | std::regex::optimize);
    static const std::regex bwd(R"(^(backward|bwd)([_ -]?(step|pass|microbatch|mb))?[ #_]?\d+$)",
                                std::regex::icase | std::regex::optimize);
    if (name.empty()) return false;
    char c = asciiLower(name.front());
    if (c != (forward ? 'f' : 'b')) return false;
    return std::regex_match(name.begin(), name.end(), forward ? fwd : bwd);
}

bool isHostRange(EventKind k) {
    return k == EventKind::CpuOp || k == EventKind::UserAnnotation || k == EventKind::PythonFunction;
}

// The names of the direct children (host ranges) of event `parent` on a track.
std::vector<std::uint32_t> childNames(const Track& t, std::size_t parent) {
    std::vector<std::uint32_t> out;
    const auto& ev = t.events;
    const TimeNs end = ev.end(parent);
    for (std::size_t i = parent + 1; i < ev.size() && ev.start[i] < end; ++i)
        if (ev.parent[i] == static_cast<std::int32_t>(parent) && isHostRange(ev.kind[i]))
            out.push_back(ev.name[i]);
    return out;
}

RankBlocks recognizeBlocks(const Rank& rank) {
    RankBlocks b;
    // Steps: the ProfilerStep#N ranges of the CPU threads (none: the whole trace is one step).
    struct Step {
        TimeNs start, end;
        std::size_t track, index;
    };
    std::vector<Step> steps;
    for (std::size_t ti = 0; ti < rank.tracks.size(); ++ti) {
        const Track& t = rank.tracks[ti];
        if (t.isGpu()) continue;
        for (std::size_t i = 0; i < t.events.size(); ++i)
            if (t.events.kind[i] == EventKind::UserAnnotation &&
                rank.strings.str(t.events.name[i]).rfind("ProfilerStep#", 0) == 0)
                steps.push_back({t.events.start[i], t.events.end(i), ti, i});
    }
    std::sort(steps.begin(), steps.end(), [](const Step& a, const Step& c) { return a.start < c.start; });
    const std::size_t none = rank.tracks.size();
    if (steps.empty())
        steps.push_back({std::numeric_limits<TimeNs>::min(), std::numeric_limits<TimeNs>::max(), none, 0});
    std::vector<std::pair<TimeNs, TimeNs>> spans(steps.size(), {-1, -1});
    std::size_t fwdTrack = none, fwdIndex = 0;
    TimeNs fwdStart = 0;
    for (std::size_t ti = 0; ti < rank.tracks.size(); ++ti) {
        const Track& t = rank.tracks[ti];
        if (t.isGpu()) continue;
        std::unordered_map<StringId, int> cache; // 0 none, 1 forward, 2 backward
        for (std::size_t i = 0; i < t.events.size(); ++i) {
            if (t.events.kind[i] != EventKind::UserAnnotation) continue;
            auto [it, fresh] = cache.try_emplace(t.events.name[i], 0);
            if (fresh) {
                std::string_view nm = rank.strings.str(t.events.name[i]);
                it->second = matchesBlock(nm, true) ? 1 : matchesBlock(nm, false) ? 2 : 0;
            }
            if (it->second == 0) continue;
            const TimeNs s0 = t.events.start[i], e0 = t.events.end(i);
            std::size_t k = 0;
            while (k < steps.size() && !(s0 >= steps[k].start && e0 <= steps[k].end))
                ++k;
            if (k == steps.size()) continue; // across steps or outside them
            auto& sp = spans[k];
            sp.first = sp.first < 0 ? s0 : std::min(sp.first, s0);
            sp.second = std::max(sp.second, e0);
            if (k != 0) continue; // blocks are counted in the first step
            (it->second == 1 ? b.forward : b.backward) += 1;
            if (it->second == 1 && (fwdTrack == none || s0 < fwdStart)) {
                fwdTrack = ti;
                fwdIndex = i;
                fwdStart = s0;
            }
        }
    }
    for (const auto& sp : spans)
        if (sp.first >= 0) b.stepSpans.push_back(sp);
    if (spans.front().first >= 0) {
        b.blocksStart = spans.front().first;
        b.blocksEnd = spans.front().second;
    }
    const std::size_t stepTrack = steps.front().track, stepIndex = steps.front().index;
    // Layer blocks: repeated children of the first forward block, else of the first step.
    std::vector<std::uint32_t> seq;
    const Track* src = nullptr;
    if (fwdTrack < none) {
        src = &rank.tracks[fwdTrack];
        seq = childNames(*src, fwdIndex);
    } else if (stepTrack < none) {
        src = &rank.tracks[stepTrack];
        seq = childNames(*src, stepIndex);
    }
    // Long sequences (a whole step of a real model) are searched in their first part only.
    constexpr std::size_t kMaxOps = 4000;
    if (seq.size() > kMaxOps) seq.resize(kMaxOps);
    Repetition rep = longestRepetition(seq, 3);
    if (rep.count >= 2 && src) {
        b.layers = rep.count;
        b.layerOps = rep.length;
        b.layerOp = std::string(rank.strings.str(seq[rep.first]));
    }
    return b;
}

} // namespace

std::vector<LayerRegion> layerRegions(const Rank& rank) {
    // Names without a trailing "#N", one id per distinct normalised name (per call).
    std::unordered_map<StringId, std::uint32_t> canonical;
    std::map<std::string, std::uint32_t, std::less<>> byText;
    auto idOf = [&](StringId name) {
        auto [it, fresh] = canonical.try_emplace(name, 0);
        if (fresh) {
            std::string_view nm = rank.strings.str(name);
            std::size_t hash = nm.rfind('#');
            if (hash != std::string_view::npos && hash + 1 < nm.size() &&
                std::all_of(nm.begin() + static_cast<std::ptrdiff_t>(hash) + 1, nm.end(),
                            [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
                nm = nm.substr(0, hash);
            it->second =
                byText.try_emplace(std::string(nm), static_cast<std::uint32_t>(byText.size())).first->second;
        }
        return it->second;
    };
    std::vector<LayerRegion> out, steps;
    for (std::uint32_t ti = 0; ti < rank.tracks.size(); ++ti) {
        const Track& t = rank.tracks[ti];
        if (t.isGpu()) continue;
        for (std::uint32_t i = 0; i < t.events.size(); ++i) {
            if (t.events.kind[i] != EventKind::UserAnnotation) continue;
            std::string_view nm = rank.strings.str(t.events.name[i]);
            const bool fwd = matchesBlock(nm, true), bwd = !fwd && matchesBlock(nm, false);
            const bool step = nm.rfind("ProfilerStep#", 0) == 0;
            if (!fwd && !bwd && !step) continue;
            LayerRegion r;
            r.track = ti;
            r.parent = i;
            r.backward = bwd;
            const auto& ev = t.events;
            const TimeNs end = ev.end(i);
            std::vector<std::uint32_t> names;
            for (std::uint32_t c = i + 1; c < ev.size() && ev.start[c] < end; ++c)
                if (ev.parent[c] == static_cast<std::int32_t>(i) && isHostRange(ev.kind[c])) {
                    r.children.push_back(c);
                    names.push_back(idOf(ev.name[c]));
                }
            // As in recognizeBlocks: a long sequence is searched in its first part only.
            if (names.size() > 4000) names.resize(4000);
            r.rep = longestRepetition(names, 3);
            (step ? steps : out).push_back(std::move(r));
        }
    }
    if (out.empty()) out = std::move(steps); // no micro-batch markers: layers repeat in the step
    auto startOf = [&](const LayerRegion& r) { return rank.tracks[r.track].events.start[r.parent]; };
    std::sort(out.begin(), out.end(),
              [&](const LayerRegion& a, const LayerRegion& b) { return startOf(a) < startOf(b); });
    return out;
}

ParallelStructure recognizeStructure(const TraceSet& set, const ExecutionGraph* graph, bool blocks) {
    ParallelStructure s;
    recognizeLayout(set, graph, s);
    s.blocks.reserve(set.ranks.size());
    for (const auto& r : set.ranks)
        s.blocks.push_back(blocks ? recognizeBlocks(r) : RankBlocks{});
    if (!blocks) return s;

    // Micro-batches: the forward blocks most ranks have.
    std::map<int, int> votes;
    for (const auto& b : s.blocks)
        if (b.forward > 0) ++votes[b.forward];
    for (const auto& [m, n] : votes)
        if (s.microbatches == 0 || n > votes[s.microbatches]) s.microbatches = m;
    if (s.microbatches == 0)
        s.notes.push_back(
            "no micro-batch markers (forward_step#N annotations): micro-batches not recognised");

    // Layers: one rank per pipeline stage (the first loaded one with blocks).
    std::vector<int> perStage(static_cast<std::size_t>(std::max(1, s.pp)), -1);
    for (std::size_t i = 0; i < s.places.size(); ++i) {
        const auto& p = s.places[i];
        if (!p.known || p.pp < 0 || p.pp >= static_cast<int>(perStage.size())) continue;
        if (perStage[static_cast<std::size_t>(p.pp)] < 0 && s.blocks[i].layers > 0)
            perStage[static_cast<std::size_t>(p.pp)] = s.blocks[i].layers;
    }
    bool all = true;
    for (int l : perStage) {
        if (l < 0) all = false;
        s.layers += std::max(0, l);
    }
    if (s.layers == 0)
        s.notes.push_back("no repeated layer blocks found");
    else if (!all)
        s.notes.push_back("layer blocks found on some pipeline stages only");
    return s;
}

nlohmann::json structureJson(const ParallelStructure& s) {
    nlohmann::json j;
    j["world"] = s.world;
    j["dp"] = s.dp;
    j["tp"] = s.tp;
    j["pp"] = s.pp;
    j["recognised"] = s.recognised;
    j["megatron_order"] = s.megatronOrder;
    j["source"] = s.source;
    j["groups"] = nlohmann::json::array();
    for (const auto& g : s.groups)
        j["groups"].push_back(
            {{"role", groupRoleName(g.role)}, {"description", g.description}, {"ranks", g.ranks}});
    j["grid"] = nlohmann::json::array();
    for (const auto& p : s.places) {
        nlohmann::json pj = {{"rank", p.rank}, {"dp", p.dp}, {"tp", p.tp}, {"pp", p.pp}};
        if (!p.known) pj["known"] = false;
        j["grid"].push_back(pj);
    }
    j["microbatches"] = s.microbatches;
    j["layers"] = s.layers;
    j["stages"] = nlohmann::json::array();
    for (int st = 0; st < s.pp; ++st)
        for (std::size_t i = 0; i < s.places.size(); ++i) {
            if (!s.places[i].known || s.places[i].pp != st) continue;
            const auto& b = s.blocks[i];
            nlohmann::json sj = {{"stage", st},
                                 {"rank", s.places[i].rank},
                                 {"forward_blocks", b.forward},
                                 {"backward_blocks", b.backward},
                                 {"layers", b.layers},
                                 {"ops_per_layer", b.layerOps}};
            if (!b.layerOp.empty()) sj["layer_starts_with"] = b.layerOp;
            j["stages"].push_back(sj);
            break;
        }
    j["notes"] = s.notes;
    return j;
}

} // namespace sl
