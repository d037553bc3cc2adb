#pragma once
// An in-memory trace set for UI tests and benchmarks: per rank one CPU thread with nested ops and
// GPU streams with back-to-back kernels and collectives. Deterministic for a seed.
#include "trace/TraceSet.h"

#include <memory>
#include <random>
#include <string>

namespace sltest {

inline void pushEvent(sl::EventColumns& c, sl::TimeNs start, sl::TimeNs dur, sl::StringId name,
                      sl::EventKind kind, std::uint16_t depth, std::int32_t parent) {
    c.start.push_back(start);
    c.duration.push_back(dur);
    c.name.push_back(name);
    c.kind.push_back(kind);
    c.depth.push_back(depth);
    c.parent.push_back(parent);
    c.correlation.push_back(-1);
    c.link.push_back(sl::kNoLink);
    c.extra.push_back(sl::kNoExtra);
    c.argsOffset.push_back(0);
    c.argsLength.push_back(0);
}

// ranks x (1 CPU thread + gpuStreams streams), about eventsPerTrack events per track; mutable, for
// tests that add warnings or edit it before showing it.
inline std::shared_ptr<sl::TraceSet> makeMutableSyntheticSet(int ranks, int gpuStreams,
                                                             std::int64_t eventsPerTrack, unsigned seed = 7) {
    auto set = std::make_shared<sl::TraceSet>();
    std::mt19937_64 rng(seed);
    const char* kernels[] = {"void gemm_kernel<float>(float*)", "elementwise_add", "softmax_fwd",
                             "layer_norm"};
    for (int r = 0; r < ranks; ++r) {
        sl::Rank rank;
        rank.rank = r;
        rank.sourcePath = "synthetic-rank-" + std::to_string(r);
        sl::StringId kernelIds[4];
        for (int k = 0; k < 4; ++k)
            kernelIds[k] = rank.strings.intern(kernels[k]);
        const sl::StringId nccl =
            rank.strings.intern("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*)");
        const sl::StringId step = rank.strings.intern("ProfilerStep#1");
        const sl::StringId op = rank.strings.intern("aten::linear");
        const sl::StringId launch = rank.strings.intern("cudaLaunchKernel");
        // CPU thread: top-level ops each with one nested op and a launch inside.
        sl::Track cpu;
        cpu.kind = sl::TrackKind::CpuThread;
        cpu.pid = 100 + r;
        cpu.tid = 1;
        cpu.name = "thread 1 (python)";
        sl::TimeNs t = 1'000'000;
        const std::int64_t groups = std::max<std::int64_t>(1, eventsPerTrack / 3);
        pushEvent(cpu.events, t, 0, step, sl::EventKind::UserAnnotation, 0, -1);
        for (std::int64_t i = 0; i < groups; ++i) {
            const sl::TimeNs d = 2'000 + static_cast<sl::TimeNs>(rng() % 8'000);
            const auto parent = static_cast<std::int32_t>(cpu.events.size());
            pushEvent(cpu.events, t, d, op, sl::EventKind::CpuOp, 1, 0);
            pushEvent(cpu.events, t + 100, d / 2, launch, sl::EventKind::Runtime, 2, parent);
            t += d + static_cast<sl::TimeNs>(rng() % 1'000);
        }
        cpu.events.duration[0] = t - cpu.events.start[0];
        cpu.maxDepth = 2;
        rank.tracks.push_back(std::move(cpu));
        for (int s = 0; s < gpuStreams; ++s) {
            sl::Track gpu;
            gpu.kind = sl::TrackKind::GpuStream;
            gpu.pid = r;
            gpu.tid = 7 + s;
            gpu.name = "GPU " + std::to_string(r) + " stream " + std::to_string(7 + s);
            sl::TimeNs g = 1'000'000;
            for (std::int64_t i = 0; i < eventsPerTrack; ++i) {
                const bool comm = s == gpuStreams - 1 && i % 5 == 0;
                const sl::TimeNs d = comm ? 20'000 : 500 + static_cast<sl::TimeNs>(rng() % 5'000);
                pushEvent(gpu.events, g, d, comm ? nccl : kernelIds[rng() % 4], sl::EventKind::Kernel, 0, -1);
                g += d + static_cast<sl::TimeNs>(rng() % 300);
            }
            rank.tracks.push_back(std::move(gpu));
        }
        set->ranks.push_back(std::move(rank));
    }
    return set;
}

inline std::shared_ptr<const sl::TraceSet> makeSyntheticSet(int ranks, int gpuStreams,
                                                            std::int64_t eventsPerTrack, unsigned seed = 7) {
    return makeMutableSyntheticSet(ranks, gpuStreams, eventsPerTrack, seed);
}

} // namespace sltest
