// Load time of the rocprofv3 and XSpace files of tests/data/formats, against Python reading the same
// data: json.load of the rocprofv3 file plus a walk of its dispatches, and for XSpace protobuf's
// ParseFromString plus a walk of every event and stat (the classes protoc generates from
// core/io/xspace/xplane.proto; the protobuf module with its C++ backend, as Debian's
// python3-protobuf has it). Counters:
//   events     events loaded (all ranks)
//   python_ms  Python's best of 5, timed by Python itself (absent without python3 / its protobuf)
//   x_python   python_ms / our ms per load (wall time on both sides)
#include "io/rocprof/RocprofLoader.h"
#include "io/xspace/XSpaceLoader.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

namespace {

namespace fs = std::filesystem;

fs::path sourceDir() {
    return fs::path(SIGHTLINE_SOURCE_DIR);
}

std::string formatsFile(const char* rel) {
    return (sourceDir() / "tests/data/formats" / rel).string();
}

const char* kPythonWalk = R"PY(
import gzip, json, sys, time
sys.path.insert(0, sys.argv[1])
def xspace(path):
    import xplane_pb2
    data = open(path, 'rb').read()
    if path.endswith('.gz'): data = gzip.decompress(data)
    s = xplane_pb2.XSpace(); s.ParseFromString(data)
    for p in s.planes:
        names = {k: v.name for k, v in p.stat_metadata.items()}
        events = {k: v.name for k, v in p.event_metadata.items()}
        for l in p.lines:
            for e in l.events:
                events.get(e.metadata_id); l.timestamp_ns + e.offset_ps // 1000
                for st in e.stats: names.get(st.metadata_id)
def rocprof(path):
    d = json.load(gzip.open(path) if path.endswith('.gz') else open(path))
    for p in d['rocprofiler-sdk-tool']:
        for k in p['buffer_records']['kernel_dispatch']: k['start_timestamp']
walk = rocprof if sys.argv[2] == 'rocprof' else xspace
best = 1e9
for _ in range(5):
    t = time.perf_counter(); walk(sys.argv[3]); best = min(best, time.perf_counter() - t)
print(best * 1000)
)PY";

// Python's best time in ms for one file, or -1 when python3 or its protobuf module is missing.
double pythonMs(const std::string& kind, const std::string& path) {
    static std::map<std::string, double> cache;
    if (auto it = cache.find(path); it != cache.end()) return it->second;
    const fs::path dir = fs::temp_directory_path() / "sightline-bench-formats";
    fs::create_directories(dir);
    std::ofstream(dir / "walk.py") << kPythonWalk;
    const std::string proto = (sourceDir() / "core/io/xspace").string();
    double ms = -1;
    if (std::system(("protoc --python_out=" + dir.string() + " --proto_path=" + proto + " " + proto +
                     "/xplane.proto 2>/dev/null")
                        .c_str()) == 0) {
        const std::string command = "python3 " + (dir / "walk.py").string() + " " + dir.string() + " " +
                                    kind + " " + path + " 2>/dev/null";
        if (FILE* p = popen(command.c_str(), "r")) {
            char buf[64] = {};
            if (std::fgets(buf, sizeof buf, p)) ms = std::atof(buf);
            if (pclose(p) != 0) ms = -1;
        }
    }
    cache[path] = ms;
    return ms;
}

template <typename Load>
void run(benchmark::State& state, const std::string& kind, const std::string& path, Load load) {
    std::int64_t events = 0;
    for (auto _ : state) {
        events = 0;
        for (const auto& r : load(path))
            events += r.eventCount();
        benchmark::DoNotOptimize(events);
    }
    state.counters["events"] = static_cast<double>(events);
    const double python = pythonMs(kind, path);
    if (python > 0) {
        state.counters["python_ms"] = python;
        state.counters["x_python"] = benchmark::Counter(
            python / 1000.0 * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
    }
}

void BM_LoadXSpace(benchmark::State& state, const char* file) {
    run(state, "xspace", formatsFile(file), [](const std::string& p) { return sl::loadXSpaceFile(p); });
}
void BM_LoadRocprof(benchmark::State& state, const char* file) {
    run(state, "rocprof", formatsFile(file), [](const std::string& p) { return sl::loadRocprofFile(p); });
}

BENCHMARK_CAPTURE(BM_LoadXSpace, jax_te_fused_attn, "xspace/jax_te_fused_attn.xplane.pb")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_LoadXSpace, jax_conv_8gpu, "xspace/jax_conv_minimal_08.xplane.pb")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_LoadXSpace, tf_multi_worker_gz, "xspace/tf_gpu_multi_worker.xplane.pb.gz")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_LoadRocprof, mi350x_908, "rocprof/908_results.json.gz")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

} // namespace

BENCHMARK_MAIN();
