#include "sim/GpuSwap.h"

#include "models/KernelFamily.h"
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

namespace {

// The most a family's achieved efficiency moves between two GPUs (the largest seen: BF16 GEMMs from
// cuBLAS on an H100 to hipBLASLt on an MI300X, about 2.2x; docs/GpuModel.md, "Achieved efficiency").
constexpr double kMaxEfficiencyRatio = 4.0;
// Kernels of a family a trace needs for its efficiency to stand for its GPU (as the calibration's).
constexpr std::int64_t kMinFamilyKernels = 20;

// Family efficiencies of the swap: per family key of the source, the source's and the target's
// (docs/GpuModel.md, "Achieved efficiency").
struct EfficiencyLookup {
    const GpuSpec& src;
    const GpuSpec& tgt;
    // The trace's own achieved efficiency per family key (roofline on the source over measured time),
    // for a source GPU whose table has none: the trace is a measurement of that GPU.
    const std::map<std::string, double, std::less<>>& traced;
    std::map<std::string, GpuSwapFamily, std::less<>>& rows;
    std::int64_t& without;

    // target efficiency / source efficiency turned into a time factor: source / target.
    double factor(const std::string& key, TimeNs duration) {
        auto [it, fresh] = rows.try_emplace(key);
        GpuSwapFamily& row = it->second;
        if (fresh) {
            row.family = key;
            row.targetFamily = targetFamilyKey(key, src.vendor, tgt.vendor);
            row.target = tgt.familyEfficiency(row.targetFamily).value_or(0.0);
            if (auto e = src.familyEfficiency(key)) {
                row.source = *e;
            } else if (auto t = traced.find(key); t != traced.end() && &src != &tgt) {
                row.source = t->second;
                row.sourceFromTrace = true;
            }
        }
        ++row.kernels;
        row.measured += duration;
        if (row.source > 0 && row.target > 0) {
            // No family's achieved efficiency was seen to move more than kMaxEfficiencyRatio between
            // two GPUs; beyond it the cost model misjudges the family's kernels (bytes it does not
            // see), and their roofline says nothing about them.
            const double r = row.source / row.target;
            row.clamped = r > kMaxEfficiencyRatio || r < 1.0 / kMaxEfficiencyRatio;
            return std::clamp(r, 1.0 / kMaxEfficiencyRatio, kMaxEfficiencyRatio);
        }
        ++without;
        return 1.0;
    }
};

// Roofline time over measured time per family key, summed over the kernels with a cost that take
// more than twice the GPU's shortest kernel (below that the time is launch ramp and tail): the same
// figure `info` reports as `roofline.achieved` (models/Roofline.h).
std::map<std::string, double, std::less<>>
tracedFamilyEfficiency(const TraceSet& set, const std::vector<std::vector<KernelCostEntry>>& costs,
                       const GpuSpec& gpu, double minKernelUs) {
    struct Sum {
        double roofline = 0, measured = 0; // us
        std::int64_t kernels = 0;
    };
    std::map<std::string, Sum, std::less<>> sums;
    for (std::size_t r = 0; r < set.ranks.size(); ++r)
        for (const auto& e : costs[r]) {
            if (!e.known()) continue;
            const auto& ev = set.ranks[r].tracks[e.gpuOp.track].events;
            const double us = static_cast<double>(ev.duration[e.gpuOp.index]) / 1000.0;
            if (ev.kind[e.gpuOp.index] != EventKind::Kernel || us < 2.0 * minKernelUs) continue;
            auto& f = sums[kernelFamilyKey(set.ranks[r].name(e.gpuOp), e.cost.family, e.cls)];
            f.roofline += rooflineTime(gpu, e.cost).us();
            f.measured += us;
            ++f.kernels;
        }
    // As the table's calibration: a family stands for the GPU with kMinFamilyKernels of its kernels.
    std::map<std::string, double, std::less<>> out;
    for (const auto& [key, f] : sums)
        if (f.roofline > 0 && f.measured > 0 && f.kernels >= kMinFamilyKernels)
            out[key] = std::min(1.0, f.roofline / f.measured);
    return out;
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
    s.sourceMinKernelUs = src.minKernelUs > 0 ? src.minKernelUs : kMinKernelUs;
    s.targetMinKernelUs = tgt.minKernelUs > 0 ? tgt.minKernelUs : kMinKernelUs;
    std::map<std::string, GpuSwapFamily, std::less<>> families;
    std::map<std::string, double, std::less<>> traced;
    EfficiencyLookup efficiency{src, tgt, traced, families, s.withoutEfficiency};

    // Costs of every GPU op, per rank, and the ratio of those that have one: the rooflines' ratio
    // times the ratio of the family's achieved efficiency on the two GPUs.
    const auto& set = *g.trace;
    std::vector<std::vector<KernelCostEntry>> costs(set.ranks.size());
    std::vector<std::unordered_map<std::uint64_t, std::size_t>> index(set.ranks.size());
    std::vector<std::vector<double>> ratioOfEntry(set.ranks.size());
    std::array<std::vector<double>, kKernelClassCount> classRatios;
    std::unordered_map<std::string, std::vector<double>> twinRatios; // by kernel name
    std::array<std::int64_t, kPeakTypeCount> matrixTypes{};
    for (std::size_t r = 0; r < set.ranks.size(); ++r)
        costs[r] = kernelCosts(set.ranks[r], &classifier);
    traced = tracedFamilyEfficiency(set, costs, src, s.sourceMinKernelUs);
    for (std::size_t r = 0; r < set.ranks.size(); ++r) {
        const Rank& rank = set.ranks[r];
        ratioOfEntry[r].assign(costs[r].size(), -1.0);
        for (std::size_t k = 0; k < costs[r].size(); ++k) {
            const auto& e = costs[r][k];
            index[r][e.gpuOp.packed()] = k;
            if (!e.known()) continue;
            const std::string_view name = rank.name(e.gpuOp);
            const double rs = rooflineTime(src, e.cost).us(), rt = rooflineTime(tgt, e.cost).us();
            const TimeNs d = rank.tracks[e.gpuOp.track].events.duration[e.gpuOp.index];
            const double ratio =
                (rs > 0 ? rt / rs : 1.0) * efficiency.factor(kernelFamilyKey(name, e.cost.family, e.cls), d);
            ratioOfEntry[r][k] = ratio;
            classRatios[static_cast<std::size_t>(e.cls)].push_back(ratio);
            twinRatios[std::string(name)].push_back(ratio);
            if (e.cost.matrix) ++matrixTypes[static_cast<std::size_t>(e.cost.peak)];
        }
    }
    // Kernels without a cost: their in-window twins' median ratio (the same kernel name with shapes,
    // such as the ops queued before the window), else their class's, else a ratio of the peak
    // figures times the family's efficiencies.
    PeakType common = PeakType::Bf16;
    std::int64_t most = 0;
    for (int p = 0; p < kPeakTypeCount; ++p)
        if (matrixTypes[static_cast<std::size_t>(p)] > most) {
            most = matrixTypes[static_cast<std::size_t>(p)];
            common = static_cast<PeakType>(p);
        }
    std::array<double, kKernelClassCount> classRatio{};
    for (int c = 0; c < kKernelClassCount; ++c)
        classRatio[static_cast<std::size_t>(c)] = median(classRatios[static_cast<std::size_t>(c)]);
    std::unordered_map<std::string, double> twinRatio;
    for (auto& [name, v] : twinRatios)
        twinRatio[name] = median(std::move(v));
    auto ratioWithoutCost = [&](const KernelCostEntry& e, std::string_view name, TimeNs d) {
        if (auto t = twinRatio.find(std::string(name)); t != twinRatio.end()) {
            ++s.fromTwins;
            return t->second;
        }
        const double m = classRatio[static_cast<std::size_t>(e.cls)];
        if (m >= 0) return m;
        const bool matrix = e.cls == KernelClass::Gemm || e.cls == KernelClass::Attention;
        const double peaks = matrix ? src.matrixPeakTflops(common) / tgt.matrixPeakTflops(common)
                                    : src.memoryGBps / tgt.memoryGBps;
        return peaks * efficiency.factor(kernelFamilyKey(name, OpFamily::Unknown, e.cls), d);
    };

    std::map<std::string, GpuSwapRow, std::less<>> byName;
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
        const GraphNode& n = g.nodes[i];
        if (n.kind != NodeKind::GpuOp) continue;
        auto it = index[n.rank].find(n.event.packed());
        if (it == index[n.rank].end()) continue; // a communication kernel
        const KernelCostEntry& e = costs[n.rank][it->second];
        if (e.missing == CostMissing::HostCopy) continue;
        const std::string_view name = set.ranks[n.rank].name(n.event);
        const double ratio =
            e.known() ? ratioOfEntry[n.rank][it->second] : ratioWithoutCost(e, name, n.duration);
        s.nodeFactor[i] = s.factorFor(n.duration, ratio);
        const auto p = static_cast<TimeNs>(std::llround(static_cast<double>(n.duration) * s.nodeFactor[i]));
        if (e.known() && e.shapesFromEt) ++s.shapesFromEt;
        if (!e.known()) {
            ++s.withoutShapes;
            s.withoutShapesTime += n.duration;
        }
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
    for (auto& [key, row] : families)
        s.families.push_back(std::move(row));
    std::sort(s.families.begin(), s.families.end(), [](const GpuSwapFamily& a, const GpuSwapFamily& b) {
        return a.measured != b.measured ? a.measured > b.measured : a.family < b.family;
    });
    if (s.withoutShapes > 0)
        s.warnings.addForKnob(
            "gpu.target", Warn::GpuTargetNoShapes,
            "gpu.target=" + tgt.name + ": " + std::to_string(s.withoutShapes) +
                " GPU ops have no shapes or no cost model of their op (the trace was recorded "
                "without record_shapes, or the op family is not modelled): " +
                std::to_string(s.fromTwins) +
                " take the median ratio of their in-window twins (the same kernel with shapes), the rest "
                "their kernel class's");
    if (s.withoutEfficiency > 0) {
        std::string missing;
        for (const auto& f : s.families)
            if (f.source <= 0 || f.target <= 0)
                missing += (missing.empty() ? "" : ", ") + f.family +
                           (f.source <= 0 ? " on " + src.name : "") +
                           (f.target <= 0 ? " on " + tgt.name : "");
        s.warnings.addForKnob("gpu.target", Warn::GpuTargetNoEfficiency,
                              "gpu.target=" + tgt.name + ": " + std::to_string(s.withoutEfficiency) +
                                  " kernels are of a family without a measured efficiency (" + missing +
                                  "): they keep the efficiency they showed on " + src.name,
                              s.withoutEfficiency);
    }
    return s;
}

double GpuSwap::factorFor(TimeNs measured, double ratio) const {
    // A kernel near the source's shortest takes the target's shortest (launch ramp and tail do not
    // follow the peak figures); above it, its work scales by the ratio.
    const double m = static_cast<double>(measured);
    if (m <= 0) return ratio;
    const double floorNs = targetMinKernelUs * 1000.0 * std::min(1.0, m / (sourceMinKernelUs * 1000.0));
    return std::max(m * ratio, floorNs) / m;
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
    j["without_shapes"] = {{"kernels", swap.withoutShapes},
                           {"time_us", us(swap.withoutShapesTime)},
                           {"from_twins", swap.fromTwins}};
    nlohmann::json families = nlohmann::json::array();
    auto eff = [](double e) {
        return e > 0 ? nlohmann::json(std::round(e * 1000.0) / 1000.0) : nlohmann::json();
    };
    for (const auto& f : swap.families)
        families.push_back({{"family", f.family},
                            {"target_family", f.targetFamily},
                            {"kernels", f.kernels},
                            {"measured_us", us(f.measured)},
                            {"source_efficiency", eff(f.source)},
                            {"source_efficiency_from", f.source <= 0       ? "none"
                                                       : f.sourceFromTrace ? "trace"
                                                                           : "table"},
                            {"target_efficiency", eff(f.target)},
                            {"ratio_clamped", f.clamped}});
    j["efficiency"] = families;
    j["without_efficiency"] = swap.withoutEfficiency;
    j["min_kernel_us"] = {{"source", swap.sourceMinKernelUs}, {"target", swap.targetMinKernelUs}};
    j["shapes_from_et"] = swap.shapesFromEt;
    return j;
}

} // namespace sl
