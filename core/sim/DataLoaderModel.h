#pragma once
// The data-loader knobs (data.workers, data.speedup, data.cores) on the host's data waits: which part
// of a DataLoader iterator op worker processes take over, which part stays on the main thread, and
// how fast a pool of workers that shares the machine's cores delivers batches
// (docs/ARCHITECTURE.md, "Data waits").
#include "graph/ExecutionGraph.h"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sl {

struct DataLoaderKnobs {
    int workers = 0;      // 0: loading stays as traced
    double speedup = 1.0; // the loading (the part workers take over) / speedup
    int cores = 0;        // cores the workers and the main process share; 0: unknown (workers get free cores)
    bool active() const { return workers > 0 || speedup != 1.0; }
};

// True for the ops during which the host waits for (or loads) a batch: PyTorch's DataLoader
// iterator ops ("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", ...).
bool isDataLoaderOpName(std::string_view name);

// True for an op nested in an iterator op whose work stays in the main process under a worker pool:
// pinning (aten::pin_memory, the pin_memory python functions), collating (collate python functions,
// default_collate's aten::stack) and receiving a batch from a worker (_process_data, the
// rebuild_* functions that map a worker's shared-memory tensors).
bool isMainProcessDataWorkName(std::string_view name);

// Batches' worth of cores the workers get: all N when N workers and the main thread fit in the K
// cores; otherwise the scheduler shares the K cores equally among the N + 1 busy threads, so the
// pool runs at N x K / (N + 1) cores. cores <= 0: unknown, the workers get free cores (N).
double workerParallelism(int workers, int cores);

// One data wait on a CPU thread: an outermost iterator op and the time inside it that stays on the
// main thread (isMainProcessDataWorkName ops, their union).
struct DataWait {
    TimeNs start = 0, end = 0;
    std::vector<std::pair<TimeNs, TimeNs>> kept; // disjoint, sorted
    TimeNs keptTime = 0;
    TimeNs duration() const { return end - start; }
};

// The data waits of one CPU track, in time order.
std::vector<DataWait> findDataWaits(const Rank& rank, const Track& track);

// A stretch of a data wait re-timed by a factor (the parts workers take over; kept parts stay).
struct DataPiece {
    TimeNs start = 0, end = 0;
    double factor = 1.0;
};

// The re-timed stretches of a thread's data waits under the knobs. `window`: the rank's measured
// window length, the rest of the step for a lone wait (steady state). `compute`: host.compute as a
// duration factor; the loading is CPU compute wherever it runs.
std::vector<DataPiece> retimeDataWaits(const std::vector<DataWait>& waits, TimeNs window,
                                       const DataLoaderKnobs& knobs, double compute = 1.0);

// The most CPU threads of any rank that run ops at the same time: the fewest cores the machine had.
int busyCpuThreads(const ExecutionGraph& g);

// data.workers with data.cores unknown: the iteration on free cores (the main number) and on the
// cores the trace shows busy (equal where the pool keeps pace either way), and the sentence that
// states the assumption.
struct DataLoaderRange {
    bool applies = false;
    int workers = 0;
    int busyCores = 0;
    TimeNs freeCoresIteration = 0;
    TimeNs busyCoresIteration = 0;
    std::string note;
};

// The sentence of a range (TimeNs in the result's units).
std::string dataLoaderRangeNote(const DataLoaderRange& r);

} // namespace sl
