#include "sim/GpuSwap.h"

#include "models/Roofline.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>

namespace sl {

TimeNs GpuSwap::collectiveTime(TimeNs measured, double busBytes, double intraGBps) const {
    if (linkRatio == 1.0 || measured <= 0) return measured;
    const double m = static_cast<double>(measured);
    double t = m / linkRatio;
    if (busBytes > 0 && intraGBps > 0) {
        const double bandwidthNs = busBytes / intraGBps; // GB/s = bytes per ns
        t = m - bandwidthNs + bandwidthNs / linkRatio;
    }
    // Never beyond scaling the whole transfer, never the wrong way.
    const double lo = std::min(m, m / linkRatio), hi = std::max(m, m / linkRatio);
    return static_cast<TimeNs>(std::llround(std::clamp(t, lo, hi)));
}

namespace {

double median(std::vector<double> v) {
    if (v.empty()) return -1;
    auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
    std::nth_element(v.begin(), mid, v.end());
    return *mid;
}

} // namespace

GpuSwap planGpuSwap(const ExecutionGraph& g, const std::string& target, const std::string& source,
                    const KernelClassifier& classifier, const GpuTable& table) {
    GpuSwap s;
    s.target = table.find(target);
    if (!s.target)
        throw GpuTableError("gpu.target: unknown GPU '" + target + "' (known: " + table.names() + ")");
    s.source = &sourceGpu(*g.trace, table, source);
    s.nodeFactor.assign(g.nodes.size(), 1.0);
    if (s.source->linkGBps > 0 && s.target->linkGBps > 0)
        s.linkRatio = s.target->linkGBps / s.source->linkGBps;
    const GpuSpec& src = *s.source;
    const GpuSpec& tgt = *s.target;

    // Costs of every GPU op, per rank, and the roofline ratio of those that have one.
    const auto& set = *g.trace;
    std::vector<std::vector<KernelCostEntry>> costs(set.ranks.size());
    std::vector<std::unordered_map<std::uint64_t, std::size_t>> index(set.ranks.size());
    std::array<std::vector<double>, kKernelClassCount> classRatios;
    std::array<std::int64_t, kPeakTypeCount> matrixTypes{};
    auto ratioOf = [&](const OpCost& c) {
        const double rs = rooflineTime(src, c).us(), rt = rooflineTime(tgt, c).us();
        return rs > 0 ? rt / rs : 1.0;
    };
    for (std::size_t r = 0; r < set.ranks.size(); ++r) {
        costs[r] = kernelCosts(set.ranks[r], &classifier);
        for (std::size_t k = 0; k < costs[r].size(); ++k) {
            const auto& e = costs[r][k];
            index[r][e.gpuOp.packed()] = k;
            if (!e.known()) continue;
            classRatios[static_cast<std::size_t>(e.cls)].push_back(ratioOf(e.cost));
            if (e.cost.matrix) ++matrixTypes[static_cast<std::size_t>(e.cost.peak)];
        }
    }
    // Kernels without a cost: their class's median ratio, else a ratio of the peak figures.
    PeakType common = PeakType::Bf16;
    std::int64_t most = 0;
    for (int p = 0; p < kPeakTypeCount; ++p)
        if (matrixTypes[static_cast<std::size_t>(p)] > most) {
            most = matrixTypes[static_cast<std::size_t>(p)];
            common = static_cast<PeakType>(p);
        }
    std::array<double, kKernelClassCount> classRatio{};
    for (int c = 0; c < kKernelClassCount; ++c) {
        double m = median(classRatios[static_cast<std::size_t>(c)]);
        if (m < 0) {
            const auto cls = static_cast<KernelClass>(c);
            m = cls == KernelClass::Gemm || cls == KernelClass::Attention
                    ? src.matrixPeakTflops(common) / tgt.matrixPeakTflops(common)
                    : src.memoryGBps / tgt.memoryGBps;
        }
        classRatio[static_cast<std::size_t>(c)] = m;
    }

    std::map<std::string, GpuSwapRow, std::less<>> byName;
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
        const GraphNode& n = g.nodes[i];
        if (n.kind != NodeKind::GpuOp) continue;
        auto it = index[n.rank].find(n.event.packed());
        if (it == index[n.rank].end()) continue; // a communication kernel
        const KernelCostEntry& e = costs[n.rank][it->second];
        if (e.missing == CostMissing::HostCopy) continue;
        const double ratio = e.known() ? ratioOf(e.cost) : classRatio[static_cast<std::size_t>(e.cls)];
        const double m = static_cast<double>(n.duration);
        const double predicted = std::max(m * ratio, std::min(m, kMinKernelUs * 1000.0));
        const double f = m > 0 ? predicted / m : ratio;
        s.nodeFactor[i] = f;
        const auto p = static_cast<TimeNs>(std::llround(m * f));
        if (e.known() && e.shapesFromEt) ++s.shapesFromEt;
        if (!e.known()) {
            ++s.withoutShapes;
            s.withoutShapesTime += n.duration;
        }
        const std::string_view name = set.ranks[n.rank].name(n.event);
        auto [row, fresh] = byName.try_emplace(std::string(name));
        for (GpuSwapRow* r : {&row->second, &s.classes[static_cast<std::size_t>(e.cls)]}) {
            ++r->kernels;
            r->withShapes += e.known() ? 1 : 0;
            r->measured += n.duration;
            r->predicted += p;
        }
        if (fresh) {
            row->second.name = std::string(name);
            row->second.cls = e.cls;
        }
    }
    for (int c = 0; c < kKernelClassCount; ++c) {
        s.classes[static_cast<std::size_t>(c)].cls = static_cast<KernelClass>(c);
        s.classes[static_cast<std::size_t>(c)].name =
            std::string(kernelClassName(static_cast<KernelClass>(c)));
    }
    for (auto& [name, row] : byName)
        s.kernels.push_back(std::move(row));
    std::sort(s.kernels.begin(), s.kernels.end(), [](const GpuSwapRow& a, const GpuSwapRow& b) {
        return a.measured != b.measured ? a.measured > b.measured : a.name < b.name;
    });
    if (s.withoutShapes > 0)
        s.warnings.addForKnob(
            "gpu.target", Warn::GpuTargetNoShapes,
            "gpu.target=" + tgt.name + ": " + std::to_string(s.withoutShapes) +
                " GPU ops have no shapes or no cost model of their op (the trace was recorded "
                "without record_shapes, or the op family is not modelled): they take their "
                "kernel class's median ratio");
    return s;
}

nlohmann::json gpuSwapJson(const GpuSwap& swap, int topKernels) {
    auto us = [](TimeNs t) {
        return static_cast<double>(std::llround(static_cast<double>(t) / 1000.0 * 1000.0)) / 1000.0;
    };
    auto row = [&](const GpuSwapRow& r) {
        return nlohmann::json{{"name", r.name},
                              {"class", std::string(kernelClassName(r.cls))},
                              {"kernels", r.kernels},
                              {"with_shapes", r.withShapes},
                              {"measured_us", us(r.measured)},
                              {"predicted_us", us(r.predicted)},
                              {"speedup", std::round(r.speedup() * 1000.0) / 1000.0}};
    };
    nlohmann::json j;
    if (!swap.active()) return j;
    j["source"] = swap.source->name;
    j["target"] = swap.target->name;
    j["link_ratio"] = std::round(swap.linkRatio * 1000.0) / 1000.0;
    nlohmann::json classes = nlohmann::json::array();
    for (const auto& c : swap.classes)
        if (c.kernels > 0) {
            nlohmann::json r = row(c);
            r.erase("name");
            classes.push_back(std::move(r));
        }
    j["by_class"] = classes;
    nlohmann::json top = nlohmann::json::array();
    for (std::size_t i = 0; i < swap.kernels.size() && static_cast<int>(i) < topKernels; ++i)
        top.push_back(row(swap.kernels[i]));
    j["top_kernels"] = top;
    j["without_shapes"] = {{"kernels", swap.withoutShapes}, {"time_us", us(swap.withoutShapesTime)}};
    j["shapes_from_et"] = swap.shapesFromEt;
    return j;
}

} // namespace sl
