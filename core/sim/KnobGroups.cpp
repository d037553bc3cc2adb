#include "sim/KnobRegistry.h"

#include <map>

namespace sl {

KnobGroup knobGroupOf(std::string_view key) {
    // The knob panel's group of each knob (docs/WhatIfWorkbench.md, "Knob panel"): a knob without
    // one shows under "Other".
    static const std::map<std::string, KnobGroup, std::less<>> groups = {
        {"compute.speedup", KnobGroup::Gpu},
        {"comm.speedup", KnobGroup::Network},
        {"comm.model", KnobGroup::Network},
        {"comm.gpus_per_node", KnobGroup::Hardware},
        {"comm.intra_node_GBps", KnobGroup::Network},
        {"comm.inter_node_GBps", KnobGroup::Network},
        {"comm.latency_us", KnobGroup::Network},
        {"comm.algorithm", KnobGroup::Network},
        {"comm.overlap", KnobGroup::Network},
        {"cpu.speedup", KnobGroup::Cpu},
        {"host.dispatch", KnobGroup::Cpu},
        {"host.compute", KnobGroup::Cpu},
        {"launch.latency_us", KnobGroup::Cpu},
        {"straggler.rank", KnobGroup::Setup},
        {"straggler.slowdown", KnobGroup::Setup},
        {"jitter.pct", KnobGroup::Setup},
        {"jitter.seed", KnobGroup::Setup},
        {"data.workers", KnobGroup::DataLoading},
        {"data.cores", KnobGroup::DataLoading},
        {"data.speedup", KnobGroup::DataLoading},
        {"peers.model", KnobGroup::Network}, // missing peers at collectives
        {"dp.scale", KnobGroup::DataParallel},
        {"dp.degree", KnobGroup::DataParallel},
        {"dp.strong", KnobGroup::DataParallel},
        {"tp.degree", KnobGroup::Setup}, // docs/Layouts.md
        {"parallel.gpus", KnobGroup::Setup},
        {"model.layers", KnobGroup::Setup},
        {"pp.microbatches", KnobGroup::Setup},
        {"pp.degree", KnobGroup::Setup},
        {"batch.samples", KnobGroup::Setup},
        {"batch.tokens", KnobGroup::Setup},
        {"gpu.target", KnobGroup::Hardware},
        {"gpu.source", KnobGroup::Hardware},
        {"embedding.plan", KnobGroup::Embeddings}, // docs/Embeddings.md
        {"embedding.tables", KnobGroup::Embeddings},
        {"embedding.calibrate", KnobGroup::Embeddings},
        {"embedding.resize_comm", KnobGroup::Embeddings},
    };
    const auto it = groups.find(key);
    return it == groups.end() ? KnobGroup::Other : it->second;
}

const char* knobGroupName(KnobGroup group) {
    switch (group) {
    case KnobGroup::Gpu:
        return "GPU";
    case KnobGroup::Network:
        return "Network";
    case KnobGroup::Cpu:
        return "CPU";
    case KnobGroup::DataLoading:
        return "Data loading";
    case KnobGroup::DataParallel:
        return "Data parallel";
    case KnobGroup::Setup:
        return "Job setup";
    case KnobGroup::Hardware:
        return "Hardware";
    case KnobGroup::Embeddings:
        return "Embeddings";
    case KnobGroup::Other:
        break;
    }
    return "Other";
}

} // namespace sl
