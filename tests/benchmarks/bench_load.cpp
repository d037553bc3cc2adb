// Load throughput and memory of the Kineto loader on a large trace made by replicating a real one.
//
// The real single-GPU trace (rtx2080ti-linear, 21 MB of JSON) is repeated with shifted timestamps
// and correlation ids until the file passes 200 MB. Reported counters:
//   MB/s         uncompressed JSON bytes into the model per second (one file, one thread)
//   peak_MB      peak resident memory growth during a load (buffer + model)
//   model_MB     resident memory growth that remains after the load (the model)
//   file_MB      size of the JSON file
#include "io/FileReader.h"
#include "io/HugePageMalloc.h"
#include "io/KinetoLoader.h"

#include <benchmark/benchmark.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

namespace {

std::int64_t procStatusKb(const char* field) {
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind(field, 0) == 0) return std::stoll(line.substr(std::string(field).size()));
    return -1;
}

void resetPeakRss() {
    std::ofstream clear("/proc/self/clear_refs");
    clear << "5";
}

// Builds (once) a >= 200 MB trace by replicating the events of a real trace.
const std::string& largeTracePath() {
    static std::string path;
    if (!path.empty()) return path;
    std::string source = std::string(SIGHTLINE_TRACES_DIR) + "/single-rank/rtx2080ti-linear.json.gz";
    if (!std::filesystem::exists(source)) return path;
    sl::TraceBuffer buffer = sl::readTraceFile(source);
    auto doc = nlohmann::json::parse(buffer.data(), buffer.data() + buffer.size());
    auto events = std::move(doc["traceEvents"]);
    doc.erase("traceEvents");
    double first = 1e300, last = 0;
    for (const auto& e : events)
        if (e.contains("ts") && e["ts"].is_number()) {
            first = std::min(first, e["ts"].get<double>());
            last = std::max(last, e["ts"].get<double>() + e.value("dur", 0.0));
        }
    double span = last - first + 1000;
    std::string head = doc.dump();
    head.pop_back(); // the closing brace: traceEvents goes last
    head += ",\"traceEvents\":[";
    path = (std::filesystem::temp_directory_path() /
            ("sightline-bench-load-" + std::to_string(getpid()) + ".json"))
               .string();
    std::ofstream out(path, std::ios::binary);
    out << head;
    std::size_t written = head.size();
    bool firstEvent = true;
    for (int copy = 0; written < 210u * 1000 * 1000; ++copy) {
        for (auto e : events) {
            if (e.contains("ts") && e["ts"].is_number()) e["ts"] = e["ts"].get<double>() + copy * span;
            if (e.contains("id") && e["id"].is_number_integer())
                e["id"] = e["id"].get<std::int64_t>() + copy * 10000000;
            if (e.contains("args") && e["args"].contains("correlation"))
                e["args"]["correlation"] = e["args"]["correlation"].get<std::int64_t>() + copy * 10000000;
            std::string text = e.dump();
            if (!firstEvent) out << ",\n";
            out << text;
            written += text.size() + 2;
            firstEvent = false;
        }
    }
    out << "]}";
    return path;
}

void BM_LoadLargeTrace(benchmark::State& state) {
    const std::string& path = largeTracePath();
    if (path.empty()) {
        state.SkipWithError("real traces not found (../shared/traces)");
        return;
    }
    std::int64_t bytes = sl::fileSizeOnDisk(path);
    std::int64_t peakKb = 0, modelKb = 0, events = 0;
    for (auto _ : state) {
        state.PauseTiming();
        resetPeakRss();
        std::int64_t before = procStatusKb("VmRSS:");
        state.ResumeTiming();
        sl::Rank rank = sl::loadKinetoFile(path);
        state.PauseTiming();
        peakKb = procStatusKb("VmHWM:") - before;
        modelKb = procStatusKb("VmRSS:") - before;
        events = rank.eventCount();
        benchmark::DoNotOptimize(rank);
        state.ResumeTiming();
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * bytes);
    state.counters["MB/s"] =
        benchmark::Counter(static_cast<double>(bytes) * static_cast<double>(state.iterations()) / 1e6,
                           benchmark::Counter::kIsRate);
    state.counters["file_MB"] = static_cast<double>(bytes) / 1e6;
    state.counters["peak_MB"] = static_cast<double>(peakKb) / 1e3;
    state.counters["model_MB"] = static_cast<double>(modelKb) / 1e3;
    state.counters["events"] = static_cast<double>(events);
}
BENCHMARK(BM_LoadLargeTrace)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();

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
    sl::reexecWithHugePageMalloc(argv);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    if (!largeTracePath().empty()) std::filesystem::remove(largeTracePath());
    return 0;
}
