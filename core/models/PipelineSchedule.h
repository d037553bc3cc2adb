#pragma once
// The 1F1B pipeline schedule (Megatron-LM's): one definition for the generator that writes traces
// in this order (synth/) and the micro-batch edit that rewrites a traced order into it (sim/edits/).
#include <vector>

namespace sl {

// The micro-batch order of one pipeline stage: warm-up forwards, then alternating forward /
// backward, then the remaining backwards. m >= 0: forward of micro-batch m; -(m + 1): its backward.
std::vector<int> oneFOneBSchedule(int stages, int stage, int microbatches);

} // namespace sl
