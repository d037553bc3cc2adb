#include "ScenarioNames.h"

#include "report/SimulationReport.h"
#include "sim/KnobRegistry.h"
#include "sim/KnobText.h"

#include <QCoreApplication>

#include <algorithm>
#include <string>
#include <vector>

namespace sl::ui {

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("ScenarioNames", text);
}

bool startsWith(const std::string& s, const char* prefix) {
    return s.rfind(prefix, 0) == 0;
}

// The phrase of one knob; `all` holds every knob, for the ones that read a partner. Empty: said by
// its partner's phrase (a straggler's slowdown, a jitter's seed).
QString phraseOf(const std::string& key, const nlohmann::json& v, const nlohmann::json& all,
                 const std::vector<std::string>& changed) {
    const QString x = knobValueText(v);
    const auto isChanged = [&](const char* k) {
        return std::find(changed.begin(), changed.end(), k) != changed.end();
    };
    if (key == "compute.speedup") return tr("GPU %1x").arg(x);
    if (key == "comm.speedup") return tr("network %1x").arg(x);
    if (key == "cpu.speedup") return tr("CPU %1x").arg(x);
    if (key == "host.dispatch") return tr("dispatch %1x").arg(x);
    if (key == "host.compute") return tr("host compute %1x").arg(x);
    if (key == "data.speedup") return tr("data loading %1x").arg(x);
    if (key == "comm.overlap") return v == false ? tr("no overlap") : tr("overlap");
    if (key == "comm.model") return tr("%1 network model").arg(x);
    if (key == "comm.algorithm") return tr("%1 collectives").arg(x);
    if (key == "comm.gpus_per_node") return tr("%1 GPUs per node").arg(x);
    if (key == "comm.intra_node_GBps") return tr("NVLink %1 GB/s").arg(x);
    if (key == "comm.inter_node_GBps") return tr("network %1 GB/s").arg(x);
    if (key == "comm.latency_us") return tr("collective latency %1 us").arg(x);
    if (key == "launch.latency_us") return tr("launch latency %1 us").arg(x);
    if (key == "dp.degree") return tr("dp x%1").arg(x);
    if (key == "tp.degree") return tr("tp %1").arg(x);
    if (key == "parallel.gpus") return tr("%1 GPUs").arg(x);
    if (key == "dp.scale") return tr("dp group x%1").arg(x);
    if (key == "dp.strong") return v == true ? tr("global batch kept") : QString();
    if (key == "model.layers") return tr("%1 layers").arg(x);
    if (key == "pp.microbatches") return tr("%1 micro-batches").arg(x);
    if (key == "data.workers") return tr("%1 loader workers").arg(x);
    if (key == "data.cores") return tr("%1 cores").arg(x);
    if (key == "gpu.target") return tr("on %1").arg(x);
    if (key == "gpu.source") return tr("traced on %1").arg(x);
    if (key == "peers.model") return tr("peers %1").arg(x);
    if (key == "jitter.pct") return tr("jitter %1%").arg(x);
    if (key == "jitter.seed") return isChanged("jitter.pct") ? QString() : tr("jitter seed %1").arg(x);
    if (key == "straggler.rank" || key == "straggler.ranks") {
        const nlohmann::json& slow = all.value("straggler.slowdown", nlohmann::json(1.0));
        const QString who = key == "straggler.rank" ? tr("rank %1").arg(x) : tr("ranks %1").arg(x);
        return isChanged("straggler.slowdown") ? tr("%1 %2x slower").arg(who, knobValueText(slow))
                                               : tr("%1 straggling").arg(who);
    }
    if (key == "straggler.slowdown")
        return isChanged("straggler.rank") || isChanged("straggler.ranks") ? QString()
                                                                           : tr("straggler %1x").arg(x);
    // Per-class speed-ups: "gemm 2x".
    if (startsWith(key, "compute.speedup."))
        return tr("%1 %2x").arg(QString::fromStdString(key.substr(16)), x);
    if (startsWith(key, "kernel.class.")) return tr("%1 %2x").arg(QString::fromStdString(key.substr(13)), x);
    // Regex families: "gemm kernels 2x", "node 3 1.5x slower", "CPU DataLoader 2x".
    const auto bracket = [&](const char* prefix) {
        return QString::fromStdString(
            key.substr(std::string(prefix).size(), key.size() - std::string(prefix).size() - 1));
    };
    if (startsWith(key, "kernel.speedup[")) return tr("%1 kernels %2x").arg(bracket("kernel.speedup["), x);
    if (startsWith(key, "node.slowdown[")) return tr("node %1 %2x slower").arg(bracket("node.slowdown["), x);
    if (startsWith(key, "cpu.speedup[")) return tr("CPU %1 %2x").arg(bracket("cpu.speedup["), x);
    // Anything newer says itself as the CLI takes it.
    return QStringLiteral("%1 = %2").arg(QString::fromStdString(key), x);
}

} // namespace

QString knobValueText(const nlohmann::json& v) {
    return QString::fromStdString(sl::knobValueText(v, KnobNumberStyle::Readable));
}

QStringList knobPhrases(const SimKnobs& knobs) {
    const nlohmann::json json = knobs.toJson();
    std::vector<std::string> changed = changedKnobs(json);
    // In the registry's order (the knob panel's, `sightline-cli knobs`): GPU before network, as
    // people say it; the JSON's own order is alphabetical.
    const auto rank = [](const std::string& key) {
        const auto& specs = knobSpecs();
        for (std::size_t i = 0; i < specs.size(); ++i)
            if (key == specs[i].key || startsWith(key, (specs[i].key + ".").c_str()) ||
                startsWith(key, (specs[i].key + "[").c_str()))
                return i;
        return specs.size();
    };
    std::stable_sort(changed.begin(), changed.end(),
                     [&](const std::string& a, const std::string& b) { return rank(a) < rank(b); });
    QStringList out;
    for (const std::string& key : changed) {
        if (startsWith(key, "batch.")) continue;
        const QString phrase = phraseOf(key, json[key], json, changed);
        if (!phrase.isEmpty()) out << phrase;
    }
    return out;
}

QString scenarioNameFor(const SimKnobs& knobs) {
    QStringList parts = knobPhrases(knobs);
    if (parts.size() > 3) {
        const auto more = parts.size() - 3;
        parts.resize(3);
        parts << QCoreApplication::translate("ScenarioNames", "%n more", nullptr, static_cast<int>(more));
    }
    return parts.isEmpty() ? tr("What-if") : parts.join(QStringLiteral(" + "));
}

} // namespace sl::ui
