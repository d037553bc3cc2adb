// Builds the per-rank programs of the synthetic job: what each rank's CPU thread calls, in order,
// and the GPU ops it launches with their roofline durations. Timing happens in Timeline.cpp.
#include "synth/RankBuilder.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <unordered_map>

namespace sl::synth {

using detail::RankBuilder;

ExpectedComms expectedComms(const SynthConfig& c, int rank) {
    ExpectedComms e;
    RankCoord rc = rankCoord(c, rank);
    int layers = c.layersOfStage(rc.pp);
    if (c.tp > 1) e.tpAllReduces = 4 * layers * c.microbatches;
    e.ppSends = (rc.pp < c.pp - 1 ? c.microbatches : 0) + (rc.pp > 0 ? c.microbatches : 0);
    e.ppRecvs = e.ppSends;
    if (c.dp > 1) {
        auto buckets = dpBuckets(c, rc.pp);
        e.dpAllReduces = static_cast<int>(buckets.size());
        for (auto b : buckets)
            e.dpGradientElements += b;
    }
    StageParams s = stageParams(c, rc.pp);
    double params = double(s.perLayer) * layers + double(s.embedding) + double(s.head);
    int perMb = layers * (10 + 14) + (rc.pp == 0 ? 2 : 0) + (rc.pp == c.pp - 1 ? 9 : 0);
    if (c.backwardThread && rc.pp == c.pp - 1) perMb += 1; // the seed gradient's fill
    e.computeKernels =
        perMb * c.microbatches + static_cast<int>(std::clamp(std::ceil(params / 50e6), 1.0, 8.0));
    return e;
}

Job buildJob(const SynthConfig& config) {
    config.validate();
    Job job;
    job.config = config;
    job.gpu = gpuSpec(config.gpu, config.measuredEfficiency);
    Groups groups = makeGroups(job);
    job.programs.resize(static_cast<std::size_t>(config.worldSize()));
    std::unordered_map<std::uint64_t, int> collIndex;
    for (int r = 0; r < config.worldSize(); ++r)
        RankBuilder(job, groups, collIndex, r).build();
    for (const auto& coll : job.collectives)
        if (coll.members.size() != job.groups[static_cast<std::size_t>(coll.group)].ranks.size())
            throw std::logic_error("synthetic job: a collective of group " + std::to_string(coll.group) +
                                   " is missing participants");
    return job;
}

} // namespace sl::synth
