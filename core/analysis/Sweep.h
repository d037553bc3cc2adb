#pragma once
// A sweep: one simulation per knob setting on one execution graph, the settings spread over the
// cores (base/ParallelFor.h). `sightline-cli sweep` and the GUI's sweep view both run it
// (docs/WhatIfWorkbench.md, "Sweep"), so a value's numbers are the same in both.
#include "analysis/CriticalPath.h"
#include "analysis/JobExposedComm.h"
#include "analysis/Throughput.h"
#include "base/Diagnostics.h"
#include "graph/ExecutionGraph.h"
#include "sim/Knobs.h"

#include <atomic>
#include <cstddef>
#include <exception>
#include <functional>
#include <string>
#include <vector>

namespace sl {

struct SweepRun {
    bool done = false;        // simulated to its end (not cancelled, no error)
    std::exception_ptr error; // what the simulation threw (the other runs go on)
    TimeNs iteration = 0;     // simulated
    JobExposedComm exposed;   // over the ranks of the simulated job
    CriticalPath path;        // with SweepOptions::criticalPath
    StepWork work;            // what the step does (analysis/Throughput.h)
    Warnings warnings;        // the simulation's
};

struct SweepOptions {
    std::size_t threads = 0; // 0: one per core
    bool criticalPath = false;
    // Checked before each run and inside the simulator: set, the runs still to come are left undone.
    const std::atomic<bool>* cancel = nullptr;
    // Called as each run ends, on the thread that ran it (several at once).
    std::function<void(std::size_t index, const SweepRun& run)> onRun;
};

// Simulates every setting of `knobs` on `graph` (whose trace set is graph.trace). Where a setting
// changes the work per step (setsWork), the traced structure is recognised once for all runs (with
// the blocks when one needs them), so every run's StepWork is read against the same trace.
std::vector<SweepRun> runSweep(const ExecutionGraph& graph, const std::vector<SimKnobs>& knobs,
                               const SweepOptions& options = {});

} // namespace sl
