#include "KnobLabels.h"

#include <QCoreApplication>

#include <map>

namespace sl::ui {

namespace {

QString translate(const char* text) {
    return QCoreApplication::translate("KnobLabels", text);
}

// The panel's groups, in this order.
enum Group { Gpu, Network, Cpu, DataLoading, DataParallel, Setup, Hardware, Other };

} // namespace

int knobGroup(const std::string& key) {
    const auto starts = [&key](const char* prefix) { return key.rfind(prefix, 0) == 0; };
    if (key == "comm.gpus_per_node" || starts("gpu.")) return Hardware;
    if (starts("compute.") || starts("kernel.")) return Gpu;
    if (starts("comm.") || starts("peers.")) return Network; // peers.model: missing peers at collectives
    if (starts("cpu.") || starts("host.") || starts("launch.")) return Cpu;
    if (starts("data.")) return DataLoading;
    if (starts("dp.")) return DataParallel;
    if (starts("model.") || starts("pp.") || starts("straggler.") || starts("jitter.") || starts("batch."))
        return Setup;
    return Other;
}

QString knobGroupName(int group) {
    switch (group) {
    case Gpu:
        return translate("GPU");
    case Network:
        return translate("Network");
    case Cpu:
        return translate("CPU");
    case DataLoading:
        return translate("Data loading");
    case DataParallel:
        return translate("Data parallel");
    case Setup:
        return translate("Job setup");
    case Hardware:
        return translate("Hardware");
    default:
        return translate("Other");
    }
}

QString knobLabel(const KnobSpec& spec) {
    if (!spec.label.empty()) return translate(spec.label.c_str());
    // Knobs the registry gives no short label (they were CLI-only): named here.
    static const std::map<std::string, const char*> names = {
        {"comm.model", QT_TR_NOOP("Network model")},
        {"jitter.seed", QT_TR_NOOP("Jitter seed")},
        {"comm.gpus_per_node", QT_TR_NOOP("GPUs per node")},
        {"comm.intra_node_GBps", QT_TR_NOOP("NVLink bandwidth")},
        {"comm.inter_node_GBps", QT_TR_NOOP("Network bandwidth")},
        {"comm.latency_us", QT_TR_NOOP("Collective latency")},
        {"comm.algorithm", QT_TR_NOOP("Collective algorithm")},
        {"gpu.source", QT_TR_NOOP("Traced GPU")},
    };
    const auto it = names.find(spec.key);
    return it != names.end() ? translate(it->second) : QString::fromStdString(spec.key);
}

} // namespace sl::ui
