#include "models/Roofline.h"

#include "base/Rounding.h"
#include "models/KernelFamily.h"

#include <algorithm>
#include <map>
#include <string>

namespace sl {

double peakTflopsFor(const GpuSpec& gpu, const OpCost& cost) {
    return cost.matrix ? gpu.matrixPeakTflops(cost.peak) : gpu.vectorPeakTflops();
}

RooflineTime rooflineTime(const GpuSpec& gpu, const OpCost& cost) {
    RooflineTime t;
    const double peak = peakTflopsFor(gpu, cost);
    // TFLOP/s = 1e6 FLOPs per us; GB/s = 1e3 bytes per us.
    t.computeUs = peak > 0 ? cost.flops / (peak * 1e6) : 0;
    t.memoryUs = gpu.memoryGBps > 0 ? cost.bytes / (gpu.memoryGBps * 1e3) : 0;
    return t;
}

Achieved achieved(const GpuSpec& gpu, const OpCost& cost, double measuredUs) {
    Achieved a;
    if (measuredUs <= 0) return a;
    a.tflops = cost.flops / measuredUs / 1e6;
    a.tbps = cost.bytes / measuredUs / 1e6;
    const double peak = peakTflopsFor(gpu, cost);
    a.computeFraction = peak > 0 ? a.tflops / peak : 0;
    a.memoryFraction = gpu.memoryGBps > 0 ? a.tbps * 1e3 / gpu.memoryGBps : 0;
    a.intensity = cost.bytes > 0 ? cost.flops / cost.bytes : 0;
    a.efficiency = rooflineTime(gpu, cost).us() / measuredUs;
    return a;
}

namespace {

nlohmann::json peaksJson(const GpuSpec& g) {
    nlohmann::json p = nlohmann::json::object();
    for (int i = 0; i < kPeakTypeCount; ++i)
        if (g.peakTflops[static_cast<std::size_t>(i)] > 0)
            p[std::string(peakTypeName(static_cast<PeakType>(i)))] =
                g.peakTflops[static_cast<std::size_t>(i)];
    return p;
}

} // namespace

nlohmann::json achievedEfficiencyJson(const TraceSet& set, const GpuSpec& gpu) {
    // The shortest kernels first: compute kernels only (copies and memsets, communication apart).
    std::vector<TimeNs> durations;
    for (const auto& rank : set.ranks)
        for (const auto& e : kernelCosts(rank)) {
            const auto& ev = rank.tracks[e.gpuOp.track].events;
            if (ev.kind[e.gpuOp.index] == EventKind::Kernel && ev.duration[e.gpuOp.index] > 0)
                durations.push_back(ev.duration[e.gpuOp.index]);
        }
    nlohmann::json j = nlohmann::json::object();
    j["kernels"] = static_cast<std::int64_t>(durations.size());
    if (durations.empty()) return j;
    const auto p5 = durations.begin() + static_cast<std::ptrdiff_t>(durations.size() / 20);
    std::nth_element(durations.begin(), p5, durations.end());
    const double minUs = static_cast<double>(*p5) / 1000.0;
    j["min_kernel_us"] = round3(minUs);
    // Per family: roofline time over measured time of the kernels with a cost, summed, leaving out
    // kernels within twice the shortest (their time is launch ramp and tail, not work).
    struct Sum {
        double measured = 0, roofline = 0;
        std::int64_t kernels = 0;
    };
    std::map<std::string, Sum> byFamily;
    for (const auto& rank : set.ranks)
        for (const auto& e : kernelCosts(rank)) {
            const auto& ev = rank.tracks[e.gpuOp.track].events;
            const double us = static_cast<double>(ev.duration[e.gpuOp.index]) / 1000.0;
            if (!e.known() || ev.kind[e.gpuOp.index] == EventKind::GpuMemcpy || us < 2.0 * minUs) continue;
            Sum& f = byFamily[kernelFamilyKey(rank.name(e.gpuOp), e.cost.family, e.cls)];
            f.measured += us;
            f.roofline += rooflineTime(gpu, e.cost).us();
            ++f.kernels;
        }
    nlohmann::json families = nlohmann::json::object();
    for (const auto& [key, f] : byFamily)
        families[key] = {{"kernels", f.kernels},
                         {"time_us", round3(f.measured)},
                         {"roofline_us", round3(f.roofline)},
                         {"efficiency", f.measured > 0 ? round3(f.roofline / f.measured) : 0.0},
                         {"in_table", gpu.familyEfficiency(key) ? nlohmann::json(*gpu.familyEfficiency(key))
                                                                : nlohmann::json()}};
    j["by_family"] = families;
    return j;
}

nlohmann::json rooflineJson(const TraceSet& set, const GpuTable& table, const std::string& sourceName,
                            int topKernels) {
    nlohmann::json j;
    const GpuSpec* gpu = nullptr;
    try {
        gpu = &sourceGpu(set, table, sourceName);
    } catch (const GpuTableError& e) {
        j["error"] = e.what();
        return j;
    }
    j["gpu"] = {{"name", gpu->name},
                {"peak_tflops", peaksJson(*gpu)},
                {"memory_GBps", gpu->memoryGBps},
                {"link_GBps", gpu->linkGBps},
                {"sms", gpu->sms}};
    struct Sum {
        double us = 0, flops = 0, bytes = 0, shapedUs = 0;
        std::int64_t count = 0, shaped = 0;
        OpCost cost; // family, matrix and peak of the first shaped kernel
        bool haveCost = false;
        KernelClass cls = KernelClass::Other;
        std::string op;
    };
    std::map<std::string, Sum> byName;
    std::array<Sum, kKernelClassCount> byClass{};
    std::map<std::string, std::int64_t> missing;
    for (const auto& rank : set.ranks) {
        for (const auto& e : kernelCosts(rank)) {
            const auto& ev = rank.tracks[e.gpuOp.track].events;
            const double us = static_cast<double>(ev.duration[e.gpuOp.index]) / 1000.0;
            Sum& n = byName[std::string(rank.name(e.gpuOp))];
            Sum& c = byClass[static_cast<std::size_t>(e.cls)];
            for (Sum* s : {&n, &c}) {
                s->us += us;
                ++s->count;
                if (e.known()) {
                    s->flops += e.cost.flops;
                    s->bytes += e.cost.bytes;
                    s->shapedUs += us;
                    ++s->shaped;
                }
            }
            n.cls = e.cls;
            if (e.known() && !n.haveCost) {
                n.cost = e.cost;
                n.haveCost = true;
                n.op = std::string(rank.name(e.op.valid() ? e.op : e.gpuOp));
            }
            if (!e.known()) ++missing[std::string(costMissingName(e.missing))];
        }
    }
    auto fractions = [&](nlohmann::json& o, const Sum& s, const OpCost& like) {
        OpCost total = like;
        total.flops = s.flops;
        total.bytes = s.bytes;
        Achieved a = achieved(*gpu, total, s.shapedUs);
        o["achieved_tflops"] = round3(a.tflops);
        o["achieved_TBps"] = round3(a.tbps);
        o["compute_fraction"] = round3(a.computeFraction);
        o["memory_fraction"] = round3(a.memoryFraction);
        o["intensity_flops_per_byte"] = round3(a.intensity);
        o["bound"] = rooflineTime(*gpu, total).computeBound() ? "compute" : "memory";
    };
    nlohmann::json classes = nlohmann::json::object();
    for (int c = 0; c < kKernelClassCount; ++c) {
        const Sum& s = byClass[static_cast<std::size_t>(c)];
        if (s.count == 0) continue;
        classes[std::string(kernelClassName(static_cast<KernelClass>(c)))] = {
            {"kernels", s.count},
            {"with_shapes", s.shaped},
            {"time_us", round3(s.us)},
            {"gflops", round3(s.flops / 1e9)},
            {"gbytes", round3(s.bytes / 1e9)},
            {"time_with_shapes_pct", s.us > 0 ? round3(100.0 * s.shapedUs / s.us) : 0.0}};
    }
    j["by_class"] = classes;
    std::vector<std::pair<std::string, const Sum*>> order;
    for (const auto& [name, s] : byName)
        order.emplace_back(name, &s);
    std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) {
        return a.second->us != b.second->us ? a.second->us > b.second->us : a.first < b.first;
    });
    nlohmann::json top = nlohmann::json::array();
    for (std::size_t i = 0; i < order.size() && static_cast<int>(i) < topKernels; ++i) {
        const Sum& s = *order[i].second;
        nlohmann::json k = {{"name", order[i].first},
                            {"class", std::string(kernelClassName(s.cls))},
                            {"kernels", s.count},
                            {"with_shapes", s.shaped},
                            {"time_us", round3(s.us)}};
        if (s.haveCost) {
            k["op"] = s.op;
            k["family"] = std::string(opFamilyName(s.cost.family));
            k["gflops"] = round3(s.flops / 1e9);
            k["gbytes"] = round3(s.bytes / 1e9);
            fractions(k, s, s.cost);
        }
        top.push_back(std::move(k));
    }
    j["top_kernels"] = top;
    j["kernels_without_cost"] = missing;
    j["achieved"] = achievedEfficiencyJson(set, *gpu);
    return j;
}

} // namespace sl
