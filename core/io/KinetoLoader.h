#pragma once
#include "trace/TraceSet.h"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace sl {

// Progress of a load in bytes: done counts bytes read plus bytes parsed, total is twice the
// size on disk of all files. May be called from worker threads. Return false to cancel
// (the loader then throws LoadCancelled).
using LoadProgressFn = std::function<bool(std::int64_t done, std::int64_t total)>;

// How a file was parsed (see LoadOptions::report).
struct LoadReport {
    int pieces = 0;              // pieces parsed in parallel (0: the file was parsed whole)
    int rejoined = 0;            // cuts found wrong (a piece did not parse) and undone by joining two pieces
    bool reparsed = false;       // the pieces did not all parse, so the whole file was parsed again
    std::int64_t fastEvents = 0; // events of pieces read by the fast reader (docs/Loader.md), not On-Demand
};

struct LoadOptions {
    LoadProgressFn progress;
    int threads = 0;                            // 0: one per core, at most one per file
    std::int64_t maxEventsPerFile = 50'000'000; // refuse larger files instead of exhausting memory
    // Memory a load may use, in bytes: 0 reads MemAvailable from /proc/meminfo, < 0 disables the
    // check. See io/MemoryLimits.h for every limit and the estimate it is compared with.
    std::int64_t memoryLimitBytes = 0;
    // loadTraceSet: a file that fails to load is left out (one warning naming it and the error)
    // instead of failing the set, as long as one file loads.
    bool skipBadFiles = false;
    // A file of at least two pieces of this many bytes (uncompressed) is parsed in pieces on
    // `threads` threads, with one piece's worth of parser memory per thread (docs/Loader.md,
    // "Chunked parsing"); 0 means 2 MB. Smaller files are parsed whole.
    std::int64_t chunkBytes = 0;
    // When set, loadKinetoFile / loadKinetoBytes say here how the file was parsed (tests, benchmarks).
    LoadReport* report = nullptr;
};

// Loads one Kineto (PyTorch profiler) trace file, .json or .json.gz. loadOrder is used as the rank
// when neither distributedInfo nor the file name gives one. Throws LoadError on bad input.
Rank loadKinetoFile(const std::string& path, int loadOrder = 0, const LoadOptions& options = {});

// The same for a trace already in memory (plain or gzip bytes); name stands for the file in messages
// and in rank-from-file-name detection.
Rank loadKinetoBytes(std::string_view bytes, const std::string& name, int loadOrder = 0,
                     const LoadOptions& options = {});

// Expands folders into the trace files they contain (sorted by name) and keeps files as given; a
// run folder (no trace files, a kineto/ folder inside: isRunFolder) into its kineto/ files.
// Throws LoadError when a path does not exist or a folder holds no trace file.
std::vector<std::string> expandTracePaths(const std::vector<std::string>& paths);

// Loads a rank set (files and/or folders) in parallel, orders ranks, and warns about missing or
// duplicate ranks and different clock bases. Throws LoadError on the first bad file (unless
// options.skipBadFiles, see LoadOptions).
TraceSet loadTraceSet(const std::vector<std::string>& paths, const LoadOptions& options = {});

// The rank number written in a file name ("rank-3", "rank_3", "rank3of8", "worker3"), or -1.
int rankFromFileName(const std::string& path);

} // namespace sl
