// The per-rank sections of the HTML report (report/HtmlParts.h): GPU time per rank, the critical
// path, another GPU (gpu.target), replay accuracy and the warnings.
#include "report/HtmlParts.h"

#include "report/HtmlReport.h"

#include <algorithm>
#include <cmath>

namespace sl::html {

std::string breakdownSection(const std::vector<RankNumbers>& ranks, bool measured) {
    std::string s =
        std::string("<section><h2>GPU time per rank</h2>"
                    "<p class=\"lead\">Each bar is the rank's GPU span (first GPU op to last), split "
                    "the way Holistic Trace Analysis does: compute, communication hidden behind "
                    "compute, exposed communication, memory copies and other GPU time, and idle. ") +
        (measured ? "Upper bar measured, lower bar simulated.</p>"
                  : "Simulated only: the input has no measured times.</p>");
    const int firstSource = measured ? 0 : 1; // 0 measured, 1 simulated
    s += "<div class=\"legend\">" + legendItem(kComputeColor, "Compute") +
         legendItem(kOverlapColor, "Comm overlapped with compute") +
         legendItem(kExposedColor, "Exposed comm") + legendItem(kOtherColor, "Memory / other") +
         legendItem(kIdleColor, "Idle") + "</div>";
    RankBarsLayout L;
    L.n = ranks.size();
    L.plotW = 770;
    L.rightW = 70;
    for (const RankNumbers& r : ranks)
        L.max = std::max(
            {L.max, r.simulated ? r.simulated->gpuSpanUs : 0.0, r.measured ? r.measured->gpuSpanUs : 0.0});
    s += L.open("GPU time per rank, measured and simulated", ranks);
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        const RankNumbers& r = ranks[i];
        const std::string name = rankLabel(r);
        for (int k = firstSource; k < 2; ++k) {
            const BreakdownNumbers b = (k == 0 ? r.measured : r.simulated).value_or(BreakdownNumbers{});
            const std::string who = k == 0 ? " measured" : " simulated";
            SpanSegments seg = spanSegments(b);
            double x = L.labelW, by = L.rowY(i) + (k - firstSource) * (L.barH() + 2);
            auto part = [&](double v, const std::string& color, const char* what) {
                double w = L.width(v);
                s += rect(x, by, w, L.barH(), color, name + who + ": " + what + " " + fmt(v) + " µs");
                x += w;
            };
            part(seg.computeOnly, kComputeColor, "compute (not overlapped)");
            part(seg.overlappedComm, kOverlapColor, "comm overlapped with compute");
            part(seg.exposedComm, kExposedColor, "exposed comm");
            part(seg.other, kOtherColor, "memory / other");
            part(seg.idle, kIdleColor, "idle");
            if (L.labels()) s += svgText(x + 6, by + L.barH() - 2, k == 0 ? "measured" : "simulated", "tag");
        }
    }
    s += "</svg>";

    s += "<div class=\"scroll\"><table class=\"num "
         "wide\"><thead><tr><th>Rank</th><th class=\"l\">Source</th><th>Compute</th>"
         "<th>Comm</th><th>Exposed comm</th><th>Overlapped comm</th><th>Memory</th><th>Idle</th>"
         "<th>GPU span</th><th>Overlap</th></tr></thead>";
    for (const RankNumbers& r : ranks) {
        const std::string id = std::to_string(r.rank);
        s += "<tbody class=\"rank\" data-rank=\"" + id + "\">";
        for (int k = firstSource; k < 2; ++k) {
            const BreakdownNumbers b = (k == 0 ? r.measured : r.simulated).value_or(BreakdownNumbers{});
            const double comm = b.commUs, exposed = b.exposedCommUs;
            s += "<tr>";
            if (k == firstSource)
                s += "<th rowspan=\"" + std::to_string(2 - firstSource) + "\" class=\"rk\">" + id + "</th>";
            s += std::string("<td class=\"src\">") + (k == 0 ? "measured" : "simulated") + "</td>";
            for (double v : {b.computeUs, comm, exposed, std::max(0.0, comm - exposed), b.memoryUs, b.idleUs,
                             b.gpuSpanUs})
                s += "<td>" + fmt(v) + "</td>";
            s += "<td>" + fmt(b.overlapPct, 1) + " %</td></tr>";
        }
        s += "</tbody>";
    }
    s +=
        "</table></div><p class=\"foot\">Times in µs. Overlapped comm = comm &minus; exposed comm; overlap = "
        "overlapped / comm.</p></section>";
    return s;
}

std::string criticalPathSection(const SimulationNumbers& n) {
    const double length = n.criticalPathUs;
    std::string s =
        "<section><h2>Critical path</h2><p class=\"lead\">The chain of dependencies that sets the "
        "simulated iteration time (" +
        fmt(length) +
        " µs), walked back from the last event through the dependency that released each event; "
        "it crosses ranks through collectives.</p>";
    const double plotW = 960, barH = 34;
    s += "<svg class=\"chart\" viewBox=\"0 0 960 " + svgNum(barH + 8) +
         "\" role=\"img\" aria-label=\"critical path composition\">";
    double x = 0;
    const std::vector<PathKind> kinds = pathKinds();
    for (std::size_t l = 0; l < kinds.size(); ++l) {
        const PathKind& k = kinds[l];
        const PathShare& e = n.criticalPath[l];
        double v = e.us, w = length > 0 ? plotW * v / length : 0;
        s += rect(x, 4, w, barH, k.color,
                  std::string(k.label) + ": " + fmt(v) + " µs (" + fmt(e.pct, 1) + " %)");
        if (w > 54) s += svgText(x + w / 2, 4 + barH / 2 + 4, fmt(e.pct, 1) + " %", "inbar", "middle");
        x += w;
    }
    s += "</svg><div class=\"legend\">";
    for (const auto& k : kinds)
        s += legendItem(k.color, k.label);
    s += "</div><div class=\"cols\"><table class=\"num\"><thead><tr><th>Kind</th><th>Time "
         "(µs)</th><th>Share</th>"
         "</tr></thead><tbody>";
    for (std::size_t l = 0; l < kinds.size(); ++l) {
        const PathKind& k = kinds[l];
        const PathShare& e = n.criticalPath[l];
        s += "<tr data-kind=\"" + k.key + "\"><th><i class=\"sw\" style=\"background:" + k.color + "\"></i>" +
             k.label + "</th><td>" + fmt(e.us) + "</td><td>" + fmt(e.pct, 1) + " %</td></tr>";
    }
    s +=
        "<tr class=\"total\"><th>Total</th><td>" + fmt(length) + "</td><td>100.0 %</td></tr></tbody></table>";
    if (!n.topEvents.empty()) {
        s += "<table class=\"num top\"><thead><tr><th>Longest events on the "
             "path</th><th>Rank</th><th class=\"l\">Kind</th>"
             "<th>Time (µs)</th></tr></thead><tbody>";
        for (const PathEventNumbers& e : n.topEvents)
            s += "<tr><th class=\"name\" title=\"" + esc(e.name) + "\">" + esc(e.name) + "</th><td>" +
                 std::to_string(e.rank) + "</td><td class=\"src\">" + esc(e.kind) + "</td><td>" + fmt(e.us) +
                 "</td></tr>";
        s += "</tbody></table>";
    }
    s += "</div></section>";
    return s;
}

// gpu.target (docs/GpuModel.md): predicted speedup per kernel class and per top kernel.
std::string gpuSwapSection(const std::optional<GpuSwapNumbers>& swap) {
    if (!swap) return {};
    const GpuSwapNumbers& g = *swap;
    std::string s = "<section><h2>On another GPU: " + esc(g.source) + " &rarr; " + esc(g.target) +
                    "</h2><p class=\"lead\">Each kernel's roofline time from its op's shapes on both GPUs, "
                    "with the efficiency it showed on the traced one; kernels without shapes take their "
                    "class's median ratio (" +
                    fmt(static_cast<double>(g.withoutShapesKernels), 0) + " kernels, " +
                    duration(g.withoutShapesUs) + " of GPU time). Intra-node links: x" + fmt(g.linkRatio, 2) +
                    ".</p>";
    auto table = [&](const char* head, const std::vector<GpuSwapRowNumbers>& rows, bool named) {
        s += std::string("<table class=\"num top\"><thead><tr><th>") + head +
             "</th><th>Kernels</th><th>With shapes</th><th>Measured (µs)</th><th>Predicted "
             "(µs)</th><th>Speedup</th></tr></thead><tbody>";
        for (const GpuSwapRowNumbers& r : rows) {
            const std::string& name = named ? r.name : r.cls;
            s += "<tr><th class=\"name\" title=\"" + esc(name) + "\">" + esc(name) + "</th><td>" +
                 fmt(static_cast<double>(r.kernels), 0) + "</td><td>" +
                 fmt(static_cast<double>(r.withShapes), 0) + "</td><td>" + fmt(r.measuredUs) + "</td><td>" +
                 fmt(r.predictedUs) + "</td><td>" + fmt(r.speedup) + "x</td></tr>";
        }
        s += "</tbody></table>";
    };
    s += "<div class=\"cols\">";
    table("Kernel class", g.byClass, false);
    table("Top kernels", g.topKernels, true);
    s += "</div></section>";
    return s;
}

std::string accuracySection(const SimulationNumbers& n) {
    if (!n.measuredTimes)
        return "<section><h2>Replay accuracy</h2><p class=\"lead\">No measured times in this input (a Chakra "
               "execution trace carries durations, not timestamps): nothing to compare the simulation "
               "with.</p></section>";
    const std::vector<RankNumbers>& ranks = n.ranks;
    const KernelStartNumbers ks = n.kernelStart.value_or(KernelStartNumbers{});
    std::string s = "<section><h2>Replay accuracy</h2><p class=\"lead\">Iteration time per rank, measured in "
                    "the trace and simulated from durations and dependencies alone. With every knob at its "
                    "default this is a replay, and the error says how far the model can be trusted; with "
                    "knobs changed it is the what-if difference.</p>";
    s += "<div class=\"legend\">" + legendItem(kMeasuredColor, "Measured") +
         legendItem(kSimulatedColor, "Simulated") + "</div>";
    RankBarsLayout L;
    L.n = ranks.size();
    L.plotW = 740;
    L.rightW = 110;
    L.top = 18;
    for (const RankNumbers& r : ranks)
        L.max = std::max({L.max, r.measuredUs.value_or(0), r.simulatedUs});
    s += L.open("iteration time per rank, measured and simulated", ranks);
    s += svgText(L.labelW + L.plotW + 12, 10, "error", "axis");
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        const RankNumbers& r = ranks[i];
        const std::string name = rankLabel(r);
        double m = r.measuredUs.value_or(0), sv = r.simulatedUs, y = L.rowY(i);
        s += rect(L.labelW, y, L.width(m), L.barH(), kMeasuredColor, name + " measured: " + fmt(m) + " µs");
        s += rect(L.labelW, y + L.barH() + 2, L.width(sv), L.barH(), kSimulatedColor,
                  name + " simulated: " + fmt(sv) + " µs");
        if (L.labels())
            s += svgText(L.labelW + L.plotW + 12, y + L.barH() + 4, fmt(r.errorPct.value_or(0), 2) + " %",
                         "label");
    }
    s += "</svg>";
    s += "<div class=\"cols\"><table class=\"num\"><thead><tr><th>Rank</th><th>Measured (µs)</th>"
         "<th>Simulated (µs)</th><th>Difference (µs)</th><th>Error</th><th>GPU span error</th>"
         "<th>Unexplained wait (µs)</th><th>Pre-window ops</th><th>Pinned</th></tr></thead><tbody>";
    for (const RankNumbers& r : ranks) {
        const std::string id = std::to_string(r.rank);
        double m = r.measuredUs.value_or(0), sv = r.simulatedUs;
        s += "<tr class=\"rank\" data-rank=\"" + id + "\"><th>" + id + "</th><td>" + fmt(m) + "</td><td>" +
             fmt(sv) + "</td><td>" + (sv - m > 0 ? "+" : "") + fmt(sv - m) + "</td><td>" +
             fmt(r.errorPct.value_or(0), 3) + " %</td><td>" + fmt(r.gpuSpanErrorPct.value_or(0), 3) +
             " %</td><td>" + fmt(r.unexplainedWaitUs + r.unexplainedGpuWaitUs) + "</td><td>" +
             fmt(static_cast<double>(r.prewindowOps), 0) + "</td><td title=\"" + esc(r.largestPin) + "\">" +
             fmt(r.pinnedSharePct.value_or(0), 1) + " %</td></tr>";
    }
    double m = n.measuredUs.value_or(0), sv = n.simulatedUs;
    s += "<tr class=\"total\"><th>Job</th><td>" + fmt(m) + "</td><td>" + fmt(sv) + "</td><td>" +
         (sv - m > 0 ? "+" : "") + fmt(sv - m) + "</td><td>" + fmt(n.errorPct.value_or(0), 3) +
         " %</td><td></td><td></td><td></td><td></td></tr>";
    s += "</tbody></table><table class=\"num\"><thead><tr><th>Kernel start error</th><th>µs</th></tr></thead>"
         "<tbody><tr><th>Median</th><td>" +
         fmt(ks.medianUs, 3) + "</td></tr><tr><th>p90</th><td>" + fmt(ks.p90Us, 3) +
         "</td></tr><tr><th>Max</th><td>" + fmt(ks.maxUs, 3) + "</td></tr><tr><th>GPU ops</th><td>" +
         fmt(static_cast<double>(ks.count), 0) + "</td></tr>";
    s += "<tr><th>Median, % of iteration</th><td>" + fmt(ks.medianPct, 3) +
         "</td></tr><tr><th>p90, % of iteration</th><td>" + fmt(ks.p90Pct, 3) +
         "</td></tr><tr><th>Ops within 1 %</th><td>" + fmt(100.0 * ks.within1PctShare, 1) +
         " %</td></tr></tbody></table></div>";
    s += "<p class=\"foot\">Error = |simulated &minus; measured| / measured, over the modelled events "
         "(runtime calls and GPU ops). Kernel start error compares each GPU op's simulated start with its "
         "measured start (ops launched before the window excluded). Unexplained wait: CPU time between "
         "calls that no CPU op covers, and GPU ops waiting for something the trace does not show; kept "
         "as measured. Pinned: the share of the critical path ending on the rank that is measured time "
         "without a cause (late start, unexplained waits, queue heads, missing peers' skew, residual "
         "device waits), which no knob moves; hover for the largest pin.</p></section>";
    return s;
}

std::string warningsSection(const std::vector<std::string>& w) {
    if (w.empty()) return "";
    constexpr std::size_t kShown = 50;
    std::string s = "<section><h2>Warnings <span class=\"count\">" + std::to_string(w.size()) +
                    "</span></h2><ul class=\"warnings\">";
    for (std::size_t i = 0; i < w.size() && i < kShown; ++i)
        s += "<li>" + esc(w[i]) + "</li>";
    if (w.size() > kShown) s += "<li class=\"muted\">and " + std::to_string(w.size() - kShown) + " more</li>";
    s += "</ul></section>";
    return s;
}

} // namespace sl::html
