#include "report/ReportNumbersJson.h"

#include "report/JsonFields.h"
#include "report/SimulationReport.h"

namespace sl {

namespace {

nlohmann::json orNull(const std::optional<double>& v) {
    return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

void writeBreakdown(nlohmann::json& into, const BreakdownNumbers& b) {
    into["compute_us"] = b.computeUs;
    into["comm_us"] = b.commUs;
    into["exposed_comm_us"] = b.exposedCommUs;
    into["memory_us"] = b.memoryUs;
    into["idle_us"] = b.idleUs;
    into["gpu_span_us"] = b.gpuSpanUs;
    into["overlap_pct"] = b.overlapPct;
}

void writeRank(nlohmann::json& r, const RankNumbers& n) {
    r["rank"] = n.rank;
    r["measured_us"] = orNull(n.measuredUs);
    r["simulated_us"] = n.simulatedUs;
    r["error_pct"] = orNull(n.errorPct);
    r["gpu_span_error_pct"] = orNull(n.gpuSpanErrorPct);
    if (n.simulated) writeBreakdown(r, *n.simulated);
    if (n.measured) writeBreakdown(r["measured"], *n.measured);
    if (n.commWaitUs) r["comm_wait_us"] = *n.commWaitUs;
    r["unexplained_wait_us"] = n.unexplainedWaitUs;
    r["unexplained_gpu_wait_us"] = n.unexplainedGpuWaitUs;
    r["prewindow_ops"] = n.prewindowOps;
    if (n.pinnedSharePct) {
        r["pinned_share_pct"] = *n.pinnedSharePct;
        r["largest_pin"] = n.largestPin;
    }
}

nlohmann::json swapRow(const GpuSwapRowNumbers& r, bool named) {
    nlohmann::json j{{"class", r.cls},
                     {"kernels", r.kernels},
                     {"with_shapes", r.withShapes},
                     {"measured_us", r.measuredUs},
                     {"predicted_us", r.predictedUs},
                     {"speedup", r.speedup}};
    if (named) j["name"] = r.name;
    return j;
}

void writeIteration(nlohmann::json& it, const SimulationNumbers& n) {
    it["measured_us"] = orNull(n.measuredUs);
    it["simulated_us"] = n.simulatedUs;
    it["error_pct"] = orNull(n.errorPct);
    if (n.throughputVsBaseline) {
        it["throughput_vs_baseline"] = *n.throughputVsBaseline;
        it["scaling_efficiency"] = orNull(n.scalingEfficiency);
        it["baseline_us"] = orNull(n.baselineUs);
        it["throughput_note"] = n.throughputNote;
    }
    if (n.samplesPerSecond) it["samples_per_s"] = *n.samplesPerSecond;
    if (!n.rateNote.empty()) it["rate_note"] = n.rateNote;
}

void writeCriticalPath(nlohmann::json& cp, const SimulationNumbers& n) {
    cp["length_us"] = n.criticalPathUs;
    nlohmann::json byKind = nlohmann::json::object();
    for (int l = 0; l < kPathLabelCount; ++l) {
        const PathShare& share = n.criticalPath[static_cast<std::size_t>(l)];
        byKind[std::string(pathLabelName(static_cast<PathLabel>(l)))] = {{"us", share.us},
                                                                         {"pct", share.pct}};
    }
    cp["by_kind"] = std::move(byKind);
    nlohmann::json top = nlohmann::json::array();
    for (const PathEventNumbers& e : n.topEvents)
        top.push_back({{"name", e.name}, {"rank", e.rank}, {"kind", e.kind}, {"us", e.us}});
    cp["top_events"] = std::move(top);
}

// ---- reading ----------------------------------------------------------------------------------------

using jsonfields::field;
using jsonfields::number;
using jsonfields::optionalNumber;

std::int64_t integer(const nlohmann::json& obj, const char* key) {
    const nlohmann::json& v = field(obj, key);
    return v.is_number() ? static_cast<std::int64_t>(v.get<double>()) : 0;
}

// A JSON value as text (strings without quotes), as the HTML showed names and ids.
std::string textOf(const nlohmann::json& v) {
    if (v.is_string()) return v.get<std::string>();
    if (v.is_null()) return {};
    return v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string string(const nlohmann::json& obj, const char* key) {
    return textOf(field(obj, key));
}

RankNumbers readRank(const nlohmann::json& r) {
    RankNumbers n;
    n.rank = static_cast<int>(integer(r, "rank"));
    n.simulatedUs = number(r, "simulated_us");
    n.measuredUs = optionalNumber(r, "measured_us");
    n.errorPct = optionalNumber(r, "error_pct");
    n.gpuSpanErrorPct = optionalNumber(r, "gpu_span_error_pct");
    if (r.contains("compute_us")) {
        n.simulated = readBreakdown(r);
        n.computeUs = n.simulated->computeUs;
        n.exposedCommUs = n.simulated->exposedCommUs;
        n.idleUs = n.simulated->idleUs;
    }
    n.commWaitUs = optionalNumber(r, "comm_wait_us");
    if (field(r, "measured").is_object()) n.measured = readBreakdown(field(r, "measured"));
    n.unexplainedWaitUs = number(r, "unexplained_wait_us");
    n.unexplainedGpuWaitUs = number(r, "unexplained_gpu_wait_us");
    n.prewindowOps = integer(r, "prewindow_ops");
    n.pinnedSharePct = optionalNumber(r, "pinned_share_pct");
    n.largestPin = string(r, "largest_pin");
    return n;
}

GpuSwapRowNumbers readSwapRow(const nlohmann::json& r) {
    return {string(r, "name"),         string(r, "class"),       integer(r, "kernels"),
            integer(r, "with_shapes"), number(r, "measured_us"), number(r, "predicted_us"),
            number(r, "speedup")};
}

SimulationNumbers readRun(const nlohmann::json& j) {
    SimulationNumbers n;
    const nlohmann::json& measured = field(j, "measured_times");
    n.measuredTimes = !measured.is_boolean() || measured.get<bool>();
    const nlohmann::json& it = field(j, "iteration");
    n.measuredUs = optionalNumber(it, "measured_us");
    n.simulatedUs = number(it, "simulated_us");
    n.errorPct = optionalNumber(it, "error_pct");
    n.throughputVsBaseline = optionalNumber(it, "throughput_vs_baseline");
    n.scalingEfficiency = optionalNumber(it, "scaling_efficiency");
    n.baselineUs = optionalNumber(it, "baseline_us");
    n.throughputNote = string(it, "throughput_note");
    n.samplesPerSecond = optionalNumber(it, "samples_per_s");
    n.rateNote = string(it, "rate_note");
    const nlohmann::json& cp = field(j, "critical_path");
    n.criticalPathUs = number(cp, "length_us");
    for (int l = 0; l < kPathLabelCount; ++l) {
        const nlohmann::json& share =
            field(field(cp, "by_kind"), std::string(pathLabelName(static_cast<PathLabel>(l))).c_str());
        n.criticalPath[static_cast<std::size_t>(l)] = {number(share, "us"), number(share, "pct")};
    }
    if (field(cp, "top_events").is_array())
        for (const auto& e : cp["top_events"])
            n.topEvents.push_back({string(e, "name"), static_cast<int>(integer(e, "rank")), string(e, "kind"),
                                   number(e, "us")});
    const nlohmann::json& ks = field(j, "kernel_start_error_us");
    if (ks.is_object()) {
        const nlohmann::json& kp = field(j, "kernel_start_error_pct");
        n.kernelStart =
            KernelStartNumbers{number(ks, "median"),           number(ks, "p90"),    number(ks, "max"),
                               integer(ks, "count"),           number(kp, "median"), number(kp, "p90"),
                               number(kp, "within_1pct_share")};
    }
    const nlohmann::json& swap = field(j, "gpu_swap");
    if (swap.is_object() && !swap.empty()) {
        GpuSwapNumbers g;
        g.source = string(swap, "source");
        g.target = string(swap, "target");
        g.linkRatio = number(swap, "link_ratio");
        g.withoutShapesKernels = integer(field(swap, "without_shapes"), "kernels");
        g.withoutShapesUs = number(field(swap, "without_shapes"), "time_us");
        auto rows = [&](const char* key, std::vector<GpuSwapRowNumbers>& into) {
            if (field(swap, key).is_array())
                for (const auto& r : swap[key])
                    into.push_back(readSwapRow(r));
        };
        rows("by_class", g.byClass);
        rows("top_kernels", g.topKernels);
        n.gpuSwap = std::move(g);
    }
    if (field(j, "ranks").is_array())
        for (const auto& r : j["ranks"])
            n.ranks.push_back(readRank(r));
    return n;
}

} // namespace

void writeReportNumbers(nlohmann::json& j, const ReportNumbers& numbers) {
    const SimulationNumbers& n = numbers.run;
    writeIteration(j["iteration"], n);
    nlohmann::json& ranks = j["ranks"];
    for (std::size_t r = 0; r < n.ranks.size(); ++r) {
        if (ranks.size() <= r) ranks.push_back(nlohmann::json::object());
        writeRank(ranks[r], n.ranks[r]);
    }
    if (n.kernelStart) {
        const KernelStartNumbers& k = *n.kernelStart;
        j["kernel_start_error_us"] = {
            {"median", k.medianUs}, {"p90", k.p90Us}, {"max", k.maxUs}, {"count", k.count}};
        j["kernel_start_error_pct"] = {
            {"median", k.medianPct}, {"p90", k.p90Pct}, {"within_1pct_share", k.within1PctShare}};
    } else {
        j["kernel_start_error_us"] = nullptr;
        j["kernel_start_error_pct"] = nullptr;
    }
    writeCriticalPath(j["critical_path"], n);
    if (n.gpuSwap) {
        nlohmann::json& g = j["gpu_swap"];
        g["source"] = n.gpuSwap->source;
        g["target"] = n.gpuSwap->target;
        g["link_ratio"] = n.gpuSwap->linkRatio;
        g["without_shapes"]["kernels"] = n.gpuSwap->withoutShapesKernels;
        g["without_shapes"]["time_us"] = n.gpuSwap->withoutShapesUs;
        nlohmann::json byClass = nlohmann::json::array(), top = nlohmann::json::array();
        for (const GpuSwapRowNumbers& r : n.gpuSwap->byClass)
            byClass.push_back(swapRow(r, false));
        for (const GpuSwapRowNumbers& r : n.gpuSwap->topKernels)
            top.push_back(swapRow(r, true));
        g["by_class"] = std::move(byClass);
        g["top_kernels"] = std::move(top);
    }
    if (!n.measuredTimes) j["measured_times"] = false;
    j["knobs"] = numbers.knobs;
    j["warnings"] = numbers.warnings;
    if (numbers.source) {
        const ReportSource& src = *numbers.source;
        j["source"] = {{"paths", src.paths},
                       {"step", src.step >= 0 ? nlohmann::json(src.step) : nlohmann::json(nullptr)}};
        j["changed_knobs"] = numbers.changedKnobs;
    }
}

BreakdownNumbers readBreakdown(const nlohmann::json& b) {
    return {number(b, "compute_us"), number(b, "comm_us"), number(b, "exposed_comm_us"),
            number(b, "memory_us"),  number(b, "idle_us"), number(b, "gpu_span_us"),
            number(b, "overlap_pct")};
}

ReportNumbers readReportNumbers(const nlohmann::json& j) {
    ReportNumbers n;
    n.run = readRun(j);
    if (field(j, "knobs").is_object()) n.knobs = j["knobs"];
    if (field(j, "changed_knobs").is_array())
        for (const auto& k : j["changed_knobs"])
            n.changedKnobs.push_back(textOf(k));
    else
        n.changedKnobs = changedKnobs(n.knobs);
    if (field(j, "warnings").is_array())
        for (const auto& w : j["warnings"])
            n.warnings.push_back(textOf(w));
    const nlohmann::json& src = field(j, "source");
    if (src.is_object()) {
        ReportSource s;
        if (field(src, "paths").is_array())
            for (const auto& p : src["paths"])
                s.paths.push_back(textOf(p));
        s.step = field(src, "step").is_number() ? static_cast<int>(integer(src, "step")) : -1;
        n.source = std::move(s);
    }
    return n;
}

} // namespace sl
