#pragma once
// Synthetic multi-rank Kineto traces of a transformer training job (see core/synth/README.md).
#include "models/PipelineSchedule.h"
#include "synth/SynthConfig.h"

#include <cstdint>
#include <string>
#include <vector>

namespace sl::synth {

struct GenerateResult {
    std::vector<std::string> files; // one per rank, rank order
    std::int64_t bytesWritten = 0;  // uncompressed JSON bytes
    std::int64_t events = 0;
    double stepTimeUs = 0; // the slowest rank's first ProfilerStep duration
};

// Builds, times and writes the job: outDir/rank-N.json (or .json.gz) for every rank. Creates
// outDir. Throws std::invalid_argument for a bad configuration, std::runtime_error on I/O errors.
GenerateResult generate(const SynthConfig& config, const std::string& outDir, int threads = 0);

// Like generate, but returns the JSON text of every rank instead of writing files (tests).
std::vector<std::string> generateJson(const SynthConfig& config);

// Communication calls one rank issues per step, as the schedule says.
struct ExpectedComms {
    int tpAllReduces = 0; // 4 per layer per micro-batch when tp > 1
    int ppSends = 0;      // activations to the next stage, gradients to the previous one
    int ppRecvs = 0;
    int dpAllReduces = 0;                // gradient buckets, once per step when dp > 1
    std::int64_t dpGradientElements = 0; // parameters of this rank's shard (Float gradients)
    int computeKernels = 0;
};
ExpectedComms expectedComms(const SynthConfig& config, int rank);

// The micro-batch order of one pipeline stage (models/PipelineSchedule.h).
using ::sl::oneFOneBSchedule;

} // namespace sl::synth
