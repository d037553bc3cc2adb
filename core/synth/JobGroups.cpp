#include "synth/JobGroups.h"

#include <algorithm>
#include <string>

namespace sl::synth {

Groups makeGroups(Job& job) {
    const SynthConfig& c = job.config;
    const auto world = static_cast<std::size_t>(c.worldSize());
    Groups g;
    g.tpOf.assign(world, -1);
    g.dpOf.assign(world, -1);
    g.ppFwdOut.assign(world, -1);
    g.ppBwdOut.assign(world, -1);
    g.ppFwdIn.assign(world, -1);
    g.ppBwdIn.assign(world, -1);
    auto add = [&](std::string desc, std::vector<int> ranks) {
        job.groups.push_back({std::to_string(job.groups.size()), std::move(desc), std::move(ranks)});
        return static_cast<int>(job.groups.size() - 1);
    };
    std::vector<int> all(world);
    for (std::size_t r = 0; r < world; ++r)
        all[r] = static_cast<int>(r);
    add("default_pg", all);
    if (c.tp > 1)
        for (int p = 0; p < c.pp; ++p)
            for (int d = 0; d < c.dp; ++d) {
                std::vector<int> ranks;
                for (int t = 0; t < c.tp; ++t)
                    ranks.push_back(rankOf(c, {p, d, t}));
                int id = add("tp", ranks);
                for (int r : ranks)
                    g.tpOf[static_cast<std::size_t>(r)] = id;
            }
    if (c.dp > 1)
        for (int p = 0; p < c.pp; ++p)
            for (int t = 0; t < c.tp; ++t) {
                std::vector<int> ranks;
                for (int d = 0; d < c.dp; ++d)
                    ranks.push_back(rankOf(c, {p, d, t}));
                int id = add("dp", ranks);
                for (int r : ranks)
                    g.dpOf[static_cast<std::size_t>(r)] = id;
            }
    // Point-to-point: one group per direction of each neighbouring stage pair, so that the k-th
    // send of a group always meets the k-th receive (see README: pipeline).
    for (int p = 0; p + 1 < c.pp; ++p)
        for (int d = 0; d < c.dp; ++d)
            for (int t = 0; t < c.tp; ++t) {
                int a = rankOf(c, {p, d, t}), b = rankOf(c, {p + 1, d, t});
                int fwd = add("pp_fwd", {a, b});
                g.ppFwdOut[static_cast<std::size_t>(a)] = fwd;
                g.ppFwdIn[static_cast<std::size_t>(b)] = fwd;
                int bwd = add("pp_bwd", {a, b});
                g.ppBwdOut[static_cast<std::size_t>(b)] = bwd;
                g.ppBwdIn[static_cast<std::size_t>(a)] = bwd;
            }
    return g;
}

StageParams stageParams(const SynthConfig& c, int stage) {
    StageParams s;
    std::int64_t h = c.hidden;
    s.perLayer = (12 * h * h + 13 * h) / c.tp;
    if (stage == 0) s.embedding = std::int64_t(c.vocab) * h / c.tp;
    if (stage == c.pp - 1) s.head = std::int64_t(c.vocab) * h / c.tp + 2 * h;
    return s;
}

std::int64_t bucketCapElements(const SynthConfig& c) {
    return std::max<std::int64_t>(1, static_cast<std::int64_t>(c.ddpBucketMB * 1024 * 1024 / 4));
}

std::vector<std::int64_t> dpBuckets(const SynthConfig& c, int stage) {
    StageParams s = stageParams(c, stage);
    std::int64_t cap = bucketCapElements(c), cur = 0;
    std::vector<std::int64_t> out;
    auto addGrad = [&](std::int64_t n) {
        cur += n;
        if (cur >= cap) {
            out.push_back(cur);
            cur = 0;
        }
    };
    if (s.head) addGrad(s.head);
    for (int l = 0; l < c.layersOfStage(stage); ++l)
        addGrad(s.perLayer);
    if (s.embedding) addGrad(s.embedding);
    if (cur > 0) out.push_back(cur);
    return out;
}

} // namespace sl::synth
