#include "synth/Generator.h"

#include "base/ParallelFor.h"
#include "synth/Program.h"

#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace sl::synth {

namespace {

// The first batch of the window under a worker pool, in steady state: the pool delivered the one
// before it a step earlier, so the main thread waits what a batch's time exceeds the main thread's
// cycle (from one batch taken to the next ask), measured on a first pass that does not wait.
std::vector<Ns> firstBatchWaits(const Job& pass) {
    std::vector<Ns> waits;
    for (const Program& p : pass.programs) {
        std::vector<const Action*> takes;
        Ns first = -1, last = 0;
        for (const Action& a : p.actions) {
            if (a.kind == ActKind::BatchWait) takes.push_back(&a);
            if (a.start >= 0 && (first < 0 || a.start < first)) first = a.start;
            last = std::max(last, a.end);
        }
        for (const GpuOp& op : p.ops)
            last = std::max(last, op.end);
        Ns cycle = 0;
        if (takes.size() > 1)
            cycle = takes[1]->start - takes[0]->end;
        else if (!takes.empty()) // one step: the step after it as long as this one
            cycle = (last - first) - (takes[0]->start - first);
        waits.push_back(takes.empty() ? 0 : std::max<Ns>(0, p.batchInterval - cycle));
    }
    return waits;
}

Job makeJob(const SynthConfig& config) {
    Job job = buildJob(config);
    scheduleJob(job);
    if (config.dataWorkers > 0 && config.dataLoaderUs > 0) {
        const std::vector<Ns> waits = firstBatchWaits(job);
        job = buildJob(config);
        for (std::size_t r = 0; r < job.programs.size(); ++r)
            job.programs[r].firstBatchWait = waits[r];
        scheduleJob(job);
    }
    return job;
}

void writeFile(const std::string& path, const std::string& text, bool gzip) {
    if (gzip) {
        gzFile f = gzopen(path.c_str(), "wb6");
        if (!f) throw std::runtime_error("cannot write " + path);
        bool ok = true;
        for (std::size_t off = 0; off < text.size() && ok;) {
            auto n = static_cast<unsigned>(std::min<std::size_t>(text.size() - off, 1u << 30));
            ok = gzwrite(f, text.data() + off, n) == static_cast<int>(n);
            off += n;
        }
        if (gzclose(f) != Z_OK || !ok) throw std::runtime_error("cannot write " + path);
        return;
    }
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) throw std::runtime_error("cannot write " + path);
    bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
    if (std::fclose(f) != 0 || !ok) throw std::runtime_error("cannot write " + path);
}

double firstStepUs(const Program& p) {
    for (const Action& a : p.actions)
        if (a.kind == ActKind::Begin && p.names[a.name].rfind("ProfilerStep#", 0) == 0)
            return static_cast<double>(a.end - a.start) / 1000.0;
    return 0;
}

} // namespace

GenerateResult generate(const SynthConfig& config, const std::string& outDir, int threads) {
    Job job = makeJob(config);
    std::error_code ec;
    std::filesystem::create_directories(outDir, ec);
    if (ec) throw std::runtime_error("cannot create " + outDir + ": " + ec.message());
    const int world = config.worldSize();
    GenerateResult result;
    result.files.resize(static_cast<std::size_t>(world));
    for (int r = 0; r < world; ++r) {
        result.files[static_cast<std::size_t>(r)] =
            (std::filesystem::path(outDir) /
             ("rank-" + std::to_string(r) + (config.gzip ? ".json.gz" : ".json")))
                .string();
        result.stepTimeUs =
            std::max(result.stepTimeUs, firstStepUs(job.programs[static_cast<std::size_t>(r)]));
        result.events += static_cast<std::int64_t>(job.programs[static_cast<std::size_t>(r)].actions.size() +
                                                   2 * job.programs[static_cast<std::size_t>(r)].ops.size());
    }
    std::atomic<std::int64_t> bytes{0};
    parallelFor(static_cast<std::size_t>(world), threadsFor(threads), [&](std::size_t r) {
        std::string text = kinetoJson(job, static_cast<int>(r));
        bytes += static_cast<std::int64_t>(text.size());
        writeFile(result.files[r], text, config.gzip);
    });
    result.bytesWritten = bytes;
    return result;
}

std::vector<std::string> generateJson(const SynthConfig& config) {
    Job job = makeJob(config);
    std::vector<std::string> out;
    for (int r = 0; r < config.worldSize(); ++r)
        out.push_back(kinetoJson(job, r));
    return out;
}

} // namespace sl::synth
