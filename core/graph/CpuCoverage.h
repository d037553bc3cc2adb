#pragma once
// Which parts of a CPU thread's time are CPU work: the union of the intervals that cpu_op,
// python_function and user_annotation events cover (ProfilerStep#N excluded: it spans the whole
// step and says nothing about what the thread did). Time between two runtime calls that nothing
// covers is an unexplained wait (docs/ARCHITECTURE.md, "CPU gaps").
#include "trace/TraceSet.h"

#include <vector>

namespace sl {

class CpuCoverage {
public:
    CpuCoverage() = default;
    // Built from one CPU thread track of `rank`.
    CpuCoverage(const Rank& rank, const Track& track);

    // Covered time inside [a, b) (0 when b <= a).
    TimeNs covered(TimeNs a, TimeNs b) const;

private:
    std::vector<TimeNs> starts_, ends_; // merged, disjoint, sorted
    std::vector<TimeNs> prefix_;        // prefix_[i] = covered time of intervals [0, i)
};

// True for the CPU events whose time counts as CPU work (see above).
bool isCpuWorkEvent(const Rank& rank, const Track& track, std::size_t index);

} // namespace sl
