#include "analysis/Sweep.h"

#include "base/ParallelFor.h"
#include "sim/Simulator.h"
#include "structure/Structure.h"

#include <optional>

namespace sl {

std::vector<SweepRun> runSweep(const ExecutionGraph& graph, const std::vector<SimKnobs>& knobs,
                               const SweepOptions& options) {
    std::optional<ParallelStructure> structure;
    bool work = false, blocks = false;
    for (const SimKnobs& k : knobs) {
        work = work || setsWork(k);
        blocks = blocks || needsBlocks(k);
    }
    if (work && graph.trace) structure = recognizeStructure(*graph.trace, &graph, blocks);
    std::vector<SweepRun> runs(knobs.size());
    const auto cancelled = [&] { return options.cancel && options.cancel->load(); };
    parallelFor(knobs.size(), threadsFor(static_cast<int>(options.threads)), [&](std::size_t i) {
        SweepRun& run = runs[i];
        if (cancelled()) return;
        try {
            SimOptions sim;
            sim.cancel = options.cancel;
            const SimResult res = simulate(graph, knobs[i], sim);
            if (!res.complete || cancelled()) return;
            run.iteration = res.simulatedIteration;
            run.warnings = res.warnings;
            run.exposed = jobExposedComm(graph, res);
            if (options.criticalPath) run.path = criticalPath(graph, res);
            if (structure) run.work = stepWork(*structure, knobs[i], res);
            run.done = true;
        } catch (...) {
            run.error = std::current_exception();
        }
        if (options.onRun) options.onRun(i, run);
    });
    return runs;
}

} // namespace sl
