#pragma once
// The synthetic job's process groups, stage parameters and DDP gradient buckets (see
// core/synth/README.md): shared by the rank builder (Builder.cpp) and the expected communication
// the tests check against (expectedComms).
#include "synth/Program.h"
#include "synth/SynthConfig.h"

#include <cstdint>
#include <vector>

namespace sl::synth {

struct Groups {
    std::vector<int> tpOf, dpOf, ppFwdOut, ppBwdOut, ppFwdIn, ppBwdIn; // per rank; -1 when none
};

// Adds the job's process groups (default_pg, tp, dp, pp_fwd / pp_bwd) to job.groups; each rank's
// group of each kind.
Groups makeGroups(Job& job);

// Gradient bucket sizes (elements) of one stage, in the order backward produces them.
struct StageParams {
    std::int64_t perLayer = 0, embedding = 0, head = 0;
};
StageParams stageParams(const SynthConfig& c, int stage);
std::int64_t bucketCapElements(const SynthConfig& c);
// Replays the bucket filling of DistributedDataParallel for a stage: returns each bucket's size.
std::vector<std::int64_t> dpBuckets(const SynthConfig& c, int stage);

} // namespace sl::synth
