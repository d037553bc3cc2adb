// Load throughput and memory of the Kineto loader on a large trace made by replicating a real one.
//
// The real single-GPU trace (rtx2080ti-linear, 21 MB of JSON) is repeated with shifted timestamps
// and correlation ids until the file passes 200 MB (written to the temporary folder, removed at
// the end). Each case is one thread or all cores, in pieces (the loader's default) or whole (the
// parse before chunking). Reported counters:
//   MB/s         uncompressed JSON bytes into the model per second
//   peak_MB      peak resident memory of one load, in a fresh process (this program run with
//                --load-once), minus the memory before the load; peak/file is its share of the file
//   model_MB     resident memory that remains after that load (the model)
//   python_s     Python's json.load of the same file, in the same run (absent without python3)
//   x_python     python_s / our seconds per load: the figure to compare, as absolute times vary
//                with the machine's load
//   fresh_s      one load in a fresh process (as the CLI and the GUI load), and x_python_fresh
//                python_s / fresh_s; the loop's repeated loads in one process run slower, as each
//                starts on the heap the previous model left
#include "LargeTrace.h"

#include "io/FileReader.h"
#include "io/KinetoLoader.h"

#include <benchmark/benchmark.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <unistd.h>

namespace {

using namespace sl::bench;

// A gzip copy of the large trace (gzip -6, the default level, as PyTorch's exporter and most tools
// write), or "" when gzip(1) is missing.
const std::string& largeGzipPath() {
    static std::string path;
    if (!path.empty() || largeTracePath().empty()) return path;
    std::string gz = largeTracePath() + ".gz";
    if (std::system(("gzip -6 -c '" + largeTracePath() + "' > '" + gz + "'").c_str()) == 0) {
        settleOnDisk(gz);
        path = gz;
    }
    return path;
}

// One load in a fresh process (this program run with --load-once): its peak resident memory
// is the load's alone, not the high-water mark of everything this process did before.
struct ChildLoad {
    double seconds = -1;
    double peakMb = -1;  // VmHWM minus the resident memory before the load
    double modelMb = -1; // VmRSS after the load minus before: the model
};
ChildLoad loadInChild(const std::string& path, int threads, std::int64_t chunkBytes) {
    std::string command = "/proc/" + std::to_string(getpid()) + "/exe --load-once '" + path + "' " +
                          std::to_string(threads) + " " + std::to_string(chunkBytes);
    ChildLoad out;
    if (FILE* pipe = popen(command.c_str(), "r")) {
        if (std::fscanf(pipe, "%lf %lf %lf", &out.seconds, &out.peakMb, &out.modelMb) != 3) out = {};
        pclose(pipe);
    }
    return out;
}

int loadOnce(const char* path, int threads, std::int64_t chunkBytes) {
    std::int64_t before = procStatusKb("VmRSS:");
    sl::LoadOptions options;
    options.threads = threads;
    options.chunkBytes = chunkBytes;
    auto start = std::chrono::steady_clock::now();
    sl::Rank rank = sl::loadKinetoFile(path, 0, options);
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    benchmark::DoNotOptimize(rank);
    std::printf("%.4f %.1f %.1f\n", seconds, static_cast<double>(procStatusKb("VmHWM:") - before) / 1e3,
                static_cast<double>(procStatusKb("VmRSS:") - before) / 1e3);
    return 0;
}

// range(0): threads (0 = all cores); range(1): 1 = in pieces (the default), 0 = the whole file
// in one piece (the parse before chunking, for comparison).
void BM_LoadLargeTrace(benchmark::State& state) {
    const std::string& path = largeTracePath();
    if (path.empty()) {
        state.SkipWithError("real traces not found (../shared/traces)");
        return;
    }
    const int threads = static_cast<int>(state.range(0));
    const std::int64_t chunkBytes = state.range(1) ? 0 : std::int64_t{1} << 40;
    std::int64_t bytes = sl::fileSizeOnDisk(path);
    std::int64_t events = 0;
    double seconds = 0;
    for (auto _ : state) {
        auto start = std::chrono::steady_clock::now();
        sl::LoadOptions options;
        options.threads = threads;
        options.chunkBytes = chunkBytes;
        sl::Rank rank = sl::loadKinetoFile(path, 0, options);
        seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        state.PauseTiming();
        events = rank.eventCount();
        benchmark::DoNotOptimize(rank);
        { sl::Rank gone = std::move(rank); } // freeing the model is not part of the load
        state.ResumeTiming();
    }
    ChildLoad child = loadInChild(path, threads, chunkBytes);
    double python = pythonJsonLoadSeconds(path);
    double perLoad = seconds / static_cast<double>(state.iterations());
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * bytes);
    state.counters["MB/s"] = static_cast<double>(bytes) / 1e6 / perLoad;
    state.counters["file_MB"] = static_cast<double>(bytes) / 1e6;
    state.counters["peak_MB"] = child.peakMb;
    state.counters["peak/file"] = child.peakMb * 1e6 / static_cast<double>(bytes);
    state.counters["model_MB"] = child.modelMb;
    state.counters["events"] = static_cast<double>(events);
    state.counters["fresh_s"] = child.seconds;
    if (python > 0) {
        state.counters["python_s"] = python;
        state.counters["x_python"] = python / perLoad; // the figure: absolute times vary with load
        if (child.seconds > 0) state.counters["x_python_fresh"] = python / child.seconds;
    }
}
BENCHMARK(BM_LoadLargeTrace)
    ->ArgNames({"threads", "pieces"})
    ->Args({1, 1})
    ->Args({0, 1})
    ->Args({1, 0})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3)
    ->UseRealTime();

// The same trace gzipped: inflated in a producer thread and parsed in pieces as it comes
// (docs/Loader.md, "Gzip"). MB/s counts uncompressed bytes; python_s is json.load(gzip.open()).
// range(0): threads (0 = all cores).
void BM_LoadLargeTraceGzip(benchmark::State& state) {
    const std::string& path = largeGzipPath();
    if (path.empty()) {
        state.SkipWithError("real traces or gzip(1) not found");
        return;
    }
    const int threads = static_cast<int>(state.range(0));
    const auto bytes = static_cast<double>(sl::fileSizeOnDisk(largeTracePath()));
    double seconds = 0;
    for (auto _ : state) {
        auto start = std::chrono::steady_clock::now();
        sl::LoadOptions options;
        options.threads = threads;
        sl::Rank rank = sl::loadKinetoFile(path, 0, options);
        seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        state.PauseTiming();
        benchmark::DoNotOptimize(rank);
        { sl::Rank gone = std::move(rank); }
        state.ResumeTiming();
    }
    ChildLoad child = loadInChild(path, threads, 0);
    double python = pythonJsonLoadSeconds(path);
    double perLoad = seconds / static_cast<double>(state.iterations());
    state.counters["MB/s"] = bytes / 1e6 / perLoad;
    state.counters["gz_MB"] = static_cast<double>(sl::fileSizeOnDisk(path)) / 1e6;
    state.counters["peak_MB"] = child.peakMb;
    state.counters["peak/file"] = child.peakMb * 1e6 / bytes;
    state.counters["model_MB"] = child.modelMb;
    state.counters["fresh_s"] = child.seconds;
    if (python > 0) {
        state.counters["python_s"] = python;
        state.counters["x_python"] = python / perLoad;
        if (child.seconds > 0) state.counters["x_python_fresh"] = python / child.seconds;
    }
}
BENCHMARK(BM_LoadLargeTraceGzip)
    ->ArgNames({"threads"})
    ->Arg(1)
    ->Arg(0)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3)
    ->UseRealTime();

void BM_LoadDlrmEightRanks(benchmark::State& state) {
    std::string folder = std::string(SIGHTLINE_TRACES_DIR) + "/dlrm-8rank-v100/kineto";
    if (!std::filesystem::exists(folder)) {
        state.SkipWithError("real traces not found (../shared/traces)");
        return;
    }
    std::int64_t bytes = 0;
    for (const auto& f : sl::expandTracePaths({folder}))
        bytes += sl::fileSizeOnDisk(f);
    for (auto _ : state)
        benchmark::DoNotOptimize(sl::loadTraceSet({folder}));
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * bytes);
}
BENCHMARK(BM_LoadDlrmEightRanks)->Unit(benchmark::kMillisecond)->UseRealTime();

} // namespace

int main(int argc, char** argv) {
    if (argc == 5 && std::string(argv[1]) == "--load-once")
        return loadOnce(argv[2], std::atoi(argv[3]), std::atoll(argv[4]));
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    if (!largeGzipPath().empty()) std::filesystem::remove(largeGzipPath());
    if (!largeTracePath().empty()) std::filesystem::remove(largeTracePath());
    return 0;
}
