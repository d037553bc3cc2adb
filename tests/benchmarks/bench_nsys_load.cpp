// Load time of Nsight Systems SQLite exports (io/nsys, docs/Formats.md) against Python's sqlite3
// reading the same tables. Each real export of tests/data/formats/nsys is inflated once into the
// temporary folder, then loaded into the model (tables read, ranks built, tracks sorted, launches
// linked) per iteration. Counters:
//   events     events in the model
//   python_s   python3's sqlite3 module fetching every row of the tables the loader reads (StringIds
//              into a dict, the kernel, copy, set, sync, event, runtime and NVTX tables with
//              fetchall), timed by Python itself; a walk that builds nothing
//   x_python   python_s / our seconds per load: the figure to compare (above 1: we load faster than
//              Python merely reads), as absolute times vary with the machine's load
#include "io/FileReader.h"
#include "io/nsys/NsysLoader.h"

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

namespace {

namespace fs = std::filesystem;

// The plain export of a fixture, written once into the temporary folder ("" when missing).
std::string plainExport(const std::string& name) {
    static std::map<std::string, std::string> cache;
    if (auto it = cache.find(name); it != cache.end()) return it->second;
    const std::string gz = std::string(SIGHTLINE_SOURCE_DIR) + "/tests/data/formats/nsys/" + name + ".gz";
    std::string out;
    if (fs::exists(gz)) {
        const sl::TraceBuffer bytes = sl::readTraceFile(gz); // inflates
        out = (fs::temp_directory_path() / ("sightline-bench-" + name)).string();
        std::ofstream(out, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    }
    cache[name] = out;
    return out;
}

double pythonSqliteWalkSeconds(const std::string& path) {
    if (std::system("command -v python3 >/dev/null 2>&1") != 0) return -1;
    const std::string command =
        "python3 -c 'import sqlite3,sys,time; t=time.perf_counter(); c=sqlite3.connect(sys.argv[1]); "
        "names={r[0] for r in c.execute(\"select name from sqlite_master\")}; "
        "s=dict(c.execute(\"select id, value from StringIds\")); "
        "[c.execute(\"select * from \"+n).fetchall() for n in (\"CUPTI_ACTIVITY_KIND_KERNEL\", "
        "\"CUPTI_ACTIVITY_KIND_MEMCPY\", \"CUPTI_ACTIVITY_KIND_MEMSET\", "
        "\"CUPTI_ACTIVITY_KIND_SYNCHRONIZATION\", "
        "\"CUPTI_ACTIVITY_KIND_CUDA_EVENT\", \"CUPTI_ACTIVITY_KIND_RUNTIME\", \"NVTX_EVENTS\") if n in "
        "names]; "
        "print(time.perf_counter()-t)' '" +
        path + "'";
    double seconds = -1;
    if (FILE* pipe = popen(command.c_str(), "r")) {
        if (std::fscanf(pipe, "%lf", &seconds) != 1) seconds = -1;
        pclose(pipe);
    }
    return seconds;
}

void loadExport(benchmark::State& state, const std::string& name) {
    const std::string path = plainExport(name);
    if (path.empty()) {
        state.SkipWithError("tests/data/formats/nsys not found");
        return;
    }
    double seconds = 0;
    std::int64_t events = 0;
    for (auto _ : state) {
        const auto start = std::chrono::steady_clock::now();
        std::vector<sl::Rank> ranks = sl::loadNsysFile(path);
        seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        events = 0;
        for (const sl::Rank& r : ranks)
            events += r.eventCount();
        benchmark::DoNotOptimize(ranks);
    }
    const double perLoad = seconds / static_cast<double>(state.iterations());
    state.counters["events"] = static_cast<double>(events);
    state.counters["file_MB"] = static_cast<double>(fs::file_size(path)) / 1e6;
    if (const double python = pythonSqliteWalkSeconds(path); python > 0) {
        state.counters["python_s"] = python;
        state.counters["x_python"] = python / perLoad;
    }
}

void BM_NsysLoadCloverleaf4xA100(benchmark::State& state) {
    loadExport(state, "perlmutter-cloverleaf-cuda.sqlite");
}
void BM_NsysLoadFuserH200(benchmark::State& state) {
    loadExport(state, "fuser-report1.sqlite");
}

} // namespace

BENCHMARK(BM_NsysLoadCloverleaf4xA100)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_NsysLoadFuserH200)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_MAIN();
