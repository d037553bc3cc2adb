#include "io/KinetoLoader.h"

#include "base/ParallelFor.h"
#include "io/EtFolder.h"
#include "io/FileReader.h"
#include "io/LoadError.h"
#include "io/MemoryLimits.h"
#include "io/PathExpand.h"
#include "io/RankFinalizer.h"
#include "io/TraceFormat.h"
#include "io/chakra/ChakraTraceSet.h"
#include "io/nsys/NsysLoader.h"
#include "io/rocprof/RocprofLoader.h"
#include "io/xspace/XSpaceLoader.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <mutex>
#include <thread>

// A set of trace files (docs/Loader.md): paths and folders expanded, each file's format detected
// by its content and the file given to its reader (docs/Formats.md, "Detection"), files loaded in
// parallel on a pool of threads (the threads left over parse pieces of a file), ranks ordered and
// checked.
namespace sl {

namespace {

// The one dispatch point from a detected format to its reader: a file gives one rank (Kineto) or
// several (an Nsight Systems export holds every process of a run).
std::vector<Rank> loadTraceFile(const std::string& path, TraceFormat format, int loadOrder,
                                const LoadOptions& options) {
    switch (format) {
    case TraceFormat::NsysSqlite:
        return loadNsysFile(path, loadOrder, options);
    case TraceFormat::RocprofJson:
        return loadRocprofFile(path, loadOrder, options);
    case TraceFormat::XSpace:
        return loadXSpaceFile(path, loadOrder, options);
    case TraceFormat::Kineto:
    case TraceFormat::Chakra: // only in a set with other formats: the Kineto reader says why it is not one
    case TraceFormat::Unknown:
        break;
    }
    std::vector<Rank> ranks;
    ranks.push_back(loadKinetoFile(path, loadOrder, options));
    ranks.back().format = traceFormatName(TraceFormat::Kineto);
    ranks.back().profiler = "PyTorch profiler (Kineto)";
    return ranks;
}

} // namespace

std::vector<std::string> expandTracePaths(const std::vector<std::string>& paths) {
    // A run folder (kineto/ and et/ inside, as ../shared/traces/dlrm-8rank-v100): its Kineto traces.
    std::vector<std::string> folders;
    for (std::string p : paths) {
        while (isRunFolder(p))
            p = (std::filesystem::path(p) / "kineto").string();
        folders.push_back(std::move(p));
    }
    auto isTrace = [](const std::string& name) { return isTraceFileName(name); };
    std::vector<std::string> files =
        expandFolders(folders, isTrace, "folder contains no trace files (*.json, *.json.gz, *.sqlite)",
                      "no such file or folder");
    if (files.empty()) throw LoadError(ErrorKind::Read, "(no input)", "no trace files given");
    return files;
}

TraceSet loadTraceSet(const std::vector<std::string>& paths, const LoadOptions& options) {
    // Chakra execution traces (.et files or folders of them) load through their own reader.
    if (isChakraInput(paths)) return loadChakraTraceSet(paths, options);
    if (isRocprofInput(paths)) return loadRocprofTraceSet(paths, options);
    if (isXSpaceInput(paths)) return loadXSpaceTraceSet(paths, options);
    std::vector<std::string> files = expandTracePaths(paths);
    checkMemoryForLoad(files, paths.front(), memoryBudgetBytes(options.memoryLimitBytes));
    std::vector<std::int64_t> disk(files.size());
    std::int64_t total = 0;
    for (std::size_t i = 0; i < files.size(); ++i) {
        disk[i] = std::max<std::int64_t>(fileSizeOnDisk(files[i]), 0);
        total += 2 * disk[i];
    }

    std::vector<std::vector<Rank>> ranksOf(files.size());
    std::vector<std::exception_ptr> errors(files.size());
    std::vector<std::atomic<std::int64_t>> done(files.size());
    std::atomic<std::int64_t> doneSum{0};
    std::atomic<bool> cancelled{false};
    std::mutex progressMutex;
    const std::size_t allThreads = threadsFor(options.threads);

    // Files on a pool of threads; a file's error is kept with it (never thrown across the pool).
    parallelFor(files.size(), allThreads, [&](std::size_t i) {
        if (cancelled) return;
        LoadOptions fileOptions = options;
        // The threads left over when there are fewer files than threads parse pieces of a file.
        fileOptions.threads = static_cast<int>(std::max<std::size_t>(1, allThreads / files.size()));
        if (options.progress) {
            fileOptions.progress = [&, i](std::int64_t d, std::int64_t) {
                std::int64_t prev = done[i].exchange(d);
                std::int64_t sum = doneSum.fetch_add(d - prev) + (d - prev);
                std::lock_guard lock(progressMutex);
                if (cancelled) return false;
                if (!options.progress(sum, total)) {
                    cancelled = true;
                    return false;
                }
                return true;
            };
        }
        try {
            ranksOf[i] = loadTraceFile(files[i], detectTraceFile(files[i]), static_cast<int>(i), fileOptions);
        } catch (...) {
            errors[i] = std::current_exception();
            // Stop the others early, the set fails anyway (unless bad files are left out).
            if (options.progress && !options.skipBadFiles) cancelled = true;
        }
    });
    Warnings leftOut;
    std::vector<Rank> ranks;
    if (options.skipBadFiles && !cancelled) {
        std::vector<Rank> good;
        for (std::size_t i = 0; i < files.size(); ++i) {
            if (!errors[i]) {
                for (Rank& r : ranksOf[i])
                    good.push_back(std::move(r));
                continue;
            }
            try {
                std::rethrow_exception(errors[i]);
            } catch (const std::exception& e) {
                leftOut.add(Warn::FileLeftOut, std::string(e.what()) + " (this file was left out)");
            }
        }
        if (!good.empty()) {
            ranks = std::move(good);
            std::fill(errors.begin(), errors.end(), nullptr);
        }
    }
    for (auto& e : errors)
        if (e && !cancelled) std::rethrow_exception(e);
    for (auto& e : errors) {
        if (!e) continue;
        try {
            std::rethrow_exception(e);
        } catch (const LoadCancelled&) {
        } catch (...) {
            throw; // a real error wins over the cancellation it caused
        }
    }
    if (cancelled) throw LoadCancelled();
    if (ranks.empty())
        for (auto& fileRanks : ranksOf)
            for (Rank& r : fileRanks)
                ranks.push_back(std::move(r));

    TraceSet set;
    set.ranks = std::move(ranks);
    finalizeTraceSet(set);
    set.warnings.prepend(leftOut);
    return set;
}

} // namespace sl
