#pragma once
// Ranks that differ from the others (docs/ARCHITECTURE.md, "Rank variation"): stragglers
// (straggler.rank, straggler.ranks), slow nodes (node.slowdown[<node>]) and per-rank noise on GPU
// compute (jitter.pct, jitter.seed). Each rank of the simulated job, loaded or added by dp.degree,
// gets one factor for its host (CPU calls and the CPU time between them) and one for its GPU
// compute (kernels, copies, sets; never the network its collectives transfer over).
#include "sim/Knobs.h"
#include "sim/SetupEdits.h"

#include <vector>

namespace sl {

struct RankVariation {
    double host = 1.0; // straggler and node slowdown
    double gpu = 1.0;  // the same x the rank's jitter draw
    // A slowdown of this rank alone (not jitter, which every rank has): peers outside the rank set
    // do not follow it (peers.model).
    bool straggling = false;
    bool none() const { return host == 1.0 && gpu == 1.0; }
};

// The jitter factor of one rank: uniform in [1 - pct/100, 1 + pct/100], a pure function of the
// seed and the rank id (the same draw in every run and whatever the rank order).
double jitterFactor(int seed, int rankId, double pct);

// Per rank of `setup.ranks`, in its order. A knob that names a rank or node the simulated job does
// not have throws KnobError with one line naming the knob and the job's size.
std::vector<RankVariation> rankVariations(const SimulatedSetup& setup, const SimKnobs& knobs,
                                          int gpusPerNode);

// True when a knob of this file makes some rank differ (a slowdown other than 1, or jitter).
bool hasRankVariation(const SimKnobs& knobs);

} // namespace sl
