#pragma once
// Internal representation of the synthetic job between building, timing and writing.
// Builder.cpp fills a Program per rank (what the CPU thread does, in order), Timeline.cpp gives
// every CPU action and GPU op its times, KinetoWriter.cpp writes them as a Kineto trace.
#include "synth/CostModel.h"
#include "synth/SynthConfig.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace sl::synth {

using Ns = std::int64_t;

enum class ActKind : std::uint8_t {
    Begin,       // opens a cpu_op or user_annotation (cost: dispatch overhead before the first child)
    End,         // closes the innermost open one
    Launch,      // cudaLaunchKernel / cudaLaunchKernelExC / cudaMemcpyAsync of gpuOp
    EventRecord, // cudaEventRecord on stream (records the last op launched there)
    StreamWait,  // cudaStreamWaitEvent: stream waits for event (an EventRecord action index)
    StreamSync,  // cudaStreamSynchronize(stream): the CPU waits for the last op launched there
    Handoff,     // the running thread hands over to `thread` and waits (cost: its wake-up latency)
    BatchWait,   // the main thread waits for the DataLoader worker pool's next batch (no event)
};

enum class StreamRole : std::uint8_t { Compute, Tp, Dp, PpSend, PpRecv, Count };
constexpr int kStreamCount = static_cast<int>(StreamRole::Count);
constexpr std::int64_t kStreamIds[kStreamCount] = {7, 20, 24, 28, 32};

struct Action {
    ActKind kind = ActKind::Begin;
    bool annotation = false; // Begin: user_annotation instead of cpu_op
    bool python = false;     // Begin: python_function instead of cpu_op (SynthConfig::pythonStacks)
    std::uint8_t stream = 0; // StreamRole for EventRecord / StreamWait / StreamSync
    std::uint8_t thread = 0; // CPU thread of the rank (0 main, 1 autograd); Handoff: the one woken
    std::uint32_t name = 0;  // Begin / Launch: index into Program::names
    std::int32_t gpuOp = -1; // Launch: index into Program::ops
    std::int32_t ref = -1;   // StreamWait: index of the EventRecord action; Begin: comm meta
    Ns gap = 0;              // CPU time before the action (Python, framework code)
    Ns cost = 0;             // CPU time of the call itself (Begin: time before the first child)
    Ns start = -1, end = -1; // filled by the timeline
    std::int64_t correlation = -1;
    std::int64_t externalId = -1;
    std::int32_t shapes = -1; // Begin: index into Program::shapes (SynthConfig::recordShapes)
};

// Metadata of one communication call (record_param_comms args and NCCL kernel args).
struct CommMeta {
    CommKind kind = CommKind::AllReduce;
    std::int64_t nelems = 0;
    const char* dtype = "BFloat16";
    int group = 0; // index into Job::groups
    int peer = -1; // send / recv: the other rank
};

struct GpuOp {
    std::uint32_t name = 0;
    std::uint8_t stream = 0;
    bool memcpy = false;
    std::int32_t comm = -1;         // index into Program::comms for NCCL kernels
    std::int32_t collective = -1;   // index into Job::collectives
    Ns duration = 0;                // compute: from the roofline; NCCL: filled by the timeline
    std::vector<std::int32_t> deps; // ops (same rank) that must end first (cudaStreamWaitEvent)
    std::int32_t launchAction = -1;
    std::int64_t grid = 1, block = 128;
    Ns ready = -1, start = -1, end = -1;
};

struct Program {
    int rank = 0;
    std::vector<std::string> names;
    std::unordered_map<std::string, std::uint32_t> nameIds;
    std::vector<Action> actions;
    std::vector<GpuOp> ops;
    std::vector<CommMeta> comms;
    std::vector<int> groups;         // process groups this rank belongs to
    std::vector<std::string> shapes; // "Input Dims": ..., "Input type": ... args of cpu_ops
    // DataLoader workers (SynthConfig::dataWorkers): the pool's time per batch, and the wait for
    // the first batch of the window (steady state: Generator.cpp measures the step in a first pass).
    Ns batchInterval = 0;
    Ns firstBatchWait = 0;

    std::uint32_t intern(const std::string& s) {
        auto [it, inserted] = nameIds.emplace(s, static_cast<std::uint32_t>(names.size()));
        if (inserted) names.push_back(s);
        return it->second;
    }
};

struct ProcessGroupDef {
    std::string name; // "0", "1", ... in creation order, as PyTorch names them
    std::string desc; // default_pg, tp, dp, pp_fwd, pp_bwd
    std::vector<int> ranks;
};

// One collective (or send/recv pair) across ranks: the participants' ops, and its transfer time.
struct CollectiveDef {
    int group = 0;
    Ns transfer = 0;
    std::vector<std::pair<int, std::int32_t>> members; // (rank, op index)
    int arrived = 0;
    Ns lastArrival = 0;
};

struct Job {
    SynthConfig config;
    GpuSpec gpu;
    std::vector<ProcessGroupDef> groups;
    std::vector<Program> programs;
    std::vector<CollectiveDef> collectives;
};

// Builder.cpp: process groups and per-rank programs (ops carry roofline durations).
Job buildJob(const SynthConfig& config);
// Timeline.cpp: times every action and op across ranks; throws std::runtime_error on a deadlock.
void scheduleJob(Job& job);
// KinetoWriter.cpp: writes one rank's trace as Kineto JSON text.
std::string kinetoJson(const Job& job, int rank);

} // namespace sl::synth
