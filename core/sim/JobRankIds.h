#pragma once
// The rank ids of the job a setup edit makes (sim/SetupEdits.cpp numbers them), for editors that
// must offer every rank of it: the GUI's straggler.rank box.
#include "structure/Structure.h"

namespace sl {

// The largest rank id of the job dp.degree = dpDegree (and tp.degree = tpDegree, pp.degree = ppDegree) makes
// of the layout `s` (the ids planSetupEdits gives; <= 0, or a layout it would not edit: the loaded ranks'
// largest id). Ids need not be 0..N-1 (a set of ranks 0, 8, 16, 24 of a 32-rank job).
int largestJobRankId(const ParallelStructure& s, int dpDegree, int tpDegree = 0, int ppDegree = 0);

} // namespace sl
