#pragma once
// Graph edits for setups that were never run (docs/Structure.md): dp.degree adds or drops
// data-parallel replicas (weak scaling, or strong scaling with dp.strong), re-sizing every
// collective whose group spans replicas. The plan says what the simulator changes: which measured
// ranks an edit drops, the group size, node span and message size of every collective kernel after
// the edit, the per-rank work factor of strong scaling, and which ranks of the new job are clones
// of which loaded rank (SimulatedSetup, reported with the result).
//
// An added rank runs its source rank's nodes (durations, edges, names) with times of its own
// (SimResult::addedRanks): a straggler, a slow node or jitter can hold it, and its collectives meet
// the other members of its new group (CallResize::replicated).
#include "base/Diagnostics.h"
#include "graph/ExecutionGraph.h"
#include "structure/CollectiveCalls.h"
#include "structure/Structure.h"

#include <cstdint>
#include <string>
#include <vector>

namespace sl {

// The setup knobs (SimKnobs::dpDegree, dpStrong): 0 / false = as traced.
struct SetupKnobs {
    int dpDegree = 0;         // dp.degree: data-parallel replicas of the new job
    bool dpStrong = false;    // dp.strong: the global batch stays (per-rank work / (degree / traced))
    int tpDegree = 0;         // tp.degree: tensor-parallel degree of the new job (docs/Layouts.md)
    int parallelGpus = 0;     // parallel.gpus: GPUs of the new job; the data-parallel degree follows
    std::string gpuSource;    // gpu.source: the GPU the sharded kernels' model runs on when not traced
    bool tpReshape = true;    // tp.reshape=false: sharded kernels keep their traced time
    bool tpResizeComm = true; // tp.resize_comm=false: tensor-parallel collectives keep their group
    // pp.degree (docs/Layouts.md): stages of the new job, laid out by a block edit inside each trace
    // rank; laneOf gives each node of the graph its stage in the rank's column (null: all stage 0).
    int ppDegree = 0;
    const std::vector<std::uint8_t>* laneOf = nullptr;
};

// One rank of the simulated job.
struct SimulatedRank {
    int rank = 0;             // rank id in the simulated job
    std::uint32_t source = 0; // index into TraceSet::ranks whose simulated times it has
    bool measured = true;     // false: added by an edit (a clone of `source`), no trace of its own
    int dp = 0, tp = 0, pp = 0;
    // pp.degree: the stage within the column of stages its trace rank runs (docs/Layouts.md). Lane 0
    // is the rank the scheduler runs (loaded or added); a lane > 0 is simulated with it, in its graph.
    int lane = 0;
};

// The job the simulator predicted: with no edit, the loaded ranks as they are.
struct SimulatedSetup {
    bool edited = false; // an edit (dp.degree, ...) changed the job
    int world = 0;       // ranks of the simulated job (loaded and cloned, not only those loaded)
    int dp = 1, tp = 1, pp = 1;
    std::vector<SimulatedRank> ranks;  // loaded ranks kept, then clones; by rank id within each
    std::vector<std::uint8_t> dropped; // per TraceSet rank: 1 when the edit removed it
    std::vector<std::string> notes;    // what each edit did

    std::size_t added() const;        // ranks the edit cloned (not measured)
    std::size_t droppedCount() const; // measured ranks the edit removed
    bool isDropped(std::size_t traceRank) const { return traceRank < dropped.size() && dropped[traceRank]; }
};

// A collective kernel after the edit (parallel to collectiveCalls(graph)).
struct CallResize {
    int groupSize = 0;
    bool spansNodes = false;
    double bytesFactor = 1.0; // message size x factor (strong scaling: activations shrink)
    bool changed = false;
    // The group spans replicas (gradients): in the new job one collective joins every replica;
    // otherwise each replica, added ones included, has a collective of its own.
    bool replicated = false;
};

struct SetupEditPlan {
    bool active = false; // false: no edit knob set, or it was ignored (see warnings)
    SimulatedSetup setup;
    std::vector<CallResize> calls; // parallel to the `calls` given to planSetupEdits
    // Strong scaling: GPU compute ops inside the micro-batch blocks of their rank run x factor.
    double workFactor = 1.0;
    std::vector<std::uint8_t> scaledWork; // per node: 1 when workFactor applies
    // tp.degree: per node, the duration factor of a kernel whose shapes the new degree re-shards
    // (empty: none); docs/Layouts.md.
    std::vector<double> shardFactor;
    Warnings warnings; // an edit that could not be applied, and why
};

// The plan of the setup knobs (dp.degree, dp.strong, tp.degree, parallel.gpus) on a graph. `calls` are
// collectiveCalls(graph); gpusPerNode as the collective model uses it.
SetupEditPlan planSetupEdits(const ExecutionGraph& graph, const SetupKnobs& knobs,
                             const std::vector<CollectiveCall>& calls, int gpusPerNode);

// The setup of an unedited graph: every loaded rank as measured.
SimulatedSetup measuredSetup(const ExecutionGraph& graph);

// Notes of the edits: "1..10, 1..2" (runs of consecutive values, in the given order), and
// "4..7, 12..15" (ids sorted, each once).
std::string runsText(const std::vector<int>& values);
std::string idRangesText(std::vector<int> ids);

} // namespace sl
