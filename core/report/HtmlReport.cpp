#include "report/HtmlReport.h"

#include "report/SimulationReport.h"

#include "analysis/CriticalPath.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <vector>

namespace sl {

namespace {

// Colours shared with the desktop program's palette (ui/timeline/Palette.cpp) so screenshots and reports
// read the same way.
constexpr const char* kComputeColor = "#3b7dd8";
constexpr const char* kOverlapColor = "#f4b08a";
constexpr const char* kExposedColor = "#d9480f";
constexpr const char* kOtherColor = "#2aa876";
constexpr const char* kIdleColor = "#dee2e6";
constexpr const char* kMeasuredColor = "#868e96";
constexpr const char* kSimulatedColor = "#1c7ed6";

struct PathKind {
    std::string key; // pathLabelName: the key of critical_path.by_kind
    const char* label;
    const char* color;
};
// Every critical-path label the JSON can have, in the enum's order: the switch has no default, so a
// new PathLabel fails the build (-Wswitch) until it has a name and a colour here.
PathKind pathKind(PathLabel l) {
    const std::string key(pathLabelName(l));
    switch (l) {
    case PathLabel::GpuCompute:
        return {key, "GPU compute", "#1c4fb0"};
    case PathLabel::GpuComm:
        return {key, "GPU communication", "#d9480f"};
    case PathLabel::CollectiveWait:
        return {key, "Collective wait", "#c2255c"};
    case PathLabel::Cpu:
        return {key, "CPU", "#6741d9"};
    case PathLabel::LaunchLatency:
        return {key, "Launch latency", "#e6a100"};
    case PathLabel::Sync:
        return {key, "Sync", "#099268"};
    case PathLabel::Idle:
        return {key, "Idle", "#adb5bd"};
    case PathLabel::LateStart:
        return {key, "Late start", "#f08c00"};
    case PathLabel::UnexplainedWait:
        return {key, "Unexplained wait", "#868e96"};
    case PathLabel::Count:
        break;
    }
    return {key, "Other", "#ced4da"};
}
std::vector<PathKind> pathKinds() {
    std::vector<PathKind> out;
    for (int l = 0; l < kPathLabelCount; ++l)
        out.push_back(pathKind(static_cast<PathLabel>(l)));
    return out;
}

std::string esc(const std::string& s) {
    std::string out;
    out.reserve(s.size());
    for (char c : s) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        case '\'':
            out += "&#39;";
            break;
        default:
            out += c;
        }
    }
    return out;
}

std::string text(const nlohmann::json& v) {
    if (v.is_string()) return v.get<std::string>();
    return v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// A knob value as people write it: 2 (not 2.0), 1.5, true, "alpha-beta" without quotes.
std::string knobText(const nlohmann::json& v) {
    if (v.is_number_float()) {
        const double d = v.get<double>();
        if (std::isfinite(d) && d == std::floor(d) && std::abs(d) < 1e15)
            return std::to_string(static_cast<long long>(d));
    }
    return text(v);
}

double num(const nlohmann::json& obj, const char* key) {
    if (!obj.is_object()) return 0;
    auto it = obj.find(key);
    return it != obj.end() && it->is_number() ? it->get<double>() : 0.0;
}

// 12345.678 -> "12,345.68" (decimals fixed, thousands grouped with commas).
std::string fmt(double v, int decimals = 2) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, std::abs(v));
    std::string digits = buf;
    std::size_t dot = digits.find('.');
    std::string whole = digits.substr(0, dot), frac = dot == std::string::npos ? "" : digits.substr(dot);
    std::string grouped;
    for (std::size_t i = 0; i < whole.size(); ++i) {
        if (i > 0 && (whole.size() - i) % 3 == 0) grouped += ',';
        grouped += whole[i];
    }
    return (v < 0 && std::abs(v) >= 0.5 * std::pow(10.0, -decimals) ? "-" : "") + grouped + frac;
}

// A duration in microseconds for cards: "19.95 ms" or "812.40 us".
std::string duration(double us) {
    if (std::abs(us) >= 1e6) return fmt(us / 1e6, 3) + " s";
    if (std::abs(us) >= 1e3) return fmt(us / 1e3, 2) + " ms";
    return fmt(us, 2) + " µs";
}

std::string svgNum(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    return buf;
}

std::string rect(double x, double y, double w, double h, const char* color, const std::string& tip) {
    if (w <= 0) return "";
    return "<rect x=\"" + svgNum(x) + "\" y=\"" + svgNum(y) + "\" width=\"" + svgNum(std::max(w, 0.5)) +
           "\" height=\"" + svgNum(h) + "\" fill=\"" + color + "\"><title>" + esc(tip) + "</title></rect>";
}

std::string svgText(double x, double y, const std::string& s, const char* cls, const char* anchor = "start") {
    return "<text x=\"" + svgNum(x) + "\" y=\"" + svgNum(y) + "\" class=\"" + cls + "\" text-anchor=\"" +
           anchor + "\">" + esc(s) + "</text>";
}

std::string legendItem(const char* color, const std::string& label) {
    return "<span class=\"key\"><i style=\"background:" + std::string(color) + "\"></i>" + esc(label) +
           "</span>";
}

// Axis ticks at 1/2/5 x 10^k spacing, about `want` of them up to `max`.
std::vector<double> ticks(double max, int want = 5) {
    std::vector<double> out;
    if (max <= 0) return out;
    double raw = max / want;
    double p = std::pow(10.0, std::floor(std::log10(raw)));
    double step = raw / p < 1.5 ? p : raw / p < 3.5 ? 2 * p : raw / p < 7.5 ? 5 * p : 10 * p;
    for (double t = 0; t <= max * 1.0001; t += step)
        out.push_back(t);
    return out;
}

std::string axisLabel(double us, double max) {
    if (max >= 1e4) return fmt(us / 1e3, us / 1e3 == std::floor(us / 1e3) ? 0 : 1) + " ms";
    return fmt(us, 0) + " µs";
}

// Vertical grid lines and labels under a chart of `height` whose plot area is [x0, x0 + w].
std::string grid(double x0, double w, double top, double height, double max) {
    std::string s;
    for (double t : ticks(max)) {
        double x = x0 + w * t / max;
        s += "<line x1=\"" + svgNum(x) + "\" x2=\"" + svgNum(x) + "\" y1=\"" + svgNum(top) + "\" y2=\"" +
             svgNum(top + height) + "\" class=\"grid\"/>";
        s += svgText(x, top + height + 14, axisLabel(t, max), "axis", "middle");
    }
    return s;
}

std::string rankLabel(const nlohmann::json& r) {
    return "rank " + text(r.value("rank", nlohmann::json("?")));
}

// Layout of a chart with two bars per rank (measured above simulated), rank labels on the left and
// a time axis below; bars get thinner as ranks get more numerous.
struct RankBarsLayout {
    std::size_t n = 0;
    double max = 0;     // the value at the right end of the plot
    double plotW = 820; // plot width; the rank labels take labelW to its left
    double rightW = 20; // room right of the plot
    double top = 8;
    double labelW = 110;
    double barH() const { return n <= 16 ? 12 : n <= 64 ? 7 : 3; }
    double gap() const { return n <= 16 ? 10 : n <= 64 ? 5 : 2; }
    double rowH() const { return 2 * barH() + 2 + gap(); }
    double height() const { return top + static_cast<double>(n) * rowH() + 24; }
    double rowY(std::size_t i) const { return top + static_cast<double>(i) * rowH(); }
    bool labels() const { return barH() >= 7; }
    double width(double v) const { return max > 0 ? plotW * v / max : 0; }
    // The opening <svg> tag, the grid and the rank labels.
    std::string open(const char* aria, const nlohmann::json& ranks) const {
        std::string s = "<svg class=\"chart\" viewBox=\"0 0 " + svgNum(labelW + plotW + rightW) + " " +
                        svgNum(height()) + "\" role=\"img\" aria-label=\"" + aria + "\">";
        if (max > 0) s += grid(labelW, plotW, top - 4, height() - top - 20, max);
        for (std::size_t i = 0; i < ranks.size(); ++i)
            if (labels() || i == 0 || i + 1 == ranks.size()) // many ranks: only the first and the last
                s += svgText(labelW - 10, rowY(i) + barH() + 4, rankLabel(ranks[i]), "label", "end");
        return s;
    }
};

// ---- sections --------------------------------------------------------------------------------------

// The changed knob keys of a report (its changed_knobs, or worked out from its knobs).
std::vector<std::string> changedOf(const nlohmann::json& j) {
    if (j.contains("changed_knobs") && j["changed_knobs"].is_array()) {
        std::vector<std::string> keys;
        for (const auto& k : j["changed_knobs"])
            keys.push_back(text(k));
        return keys;
    }
    return changedKnobs(j.value("knobs", nlohmann::json::object()));
}

std::string header(const nlohmann::json& j) {
    std::string h = "<header><div class=\"brand\">Sightline</div><h1>Simulation report</h1>";
    const nlohmann::json src = j.value("source", nlohmann::json::object());
    h += "<dl class=\"meta\"><dt>Traces</dt><dd>";
    const nlohmann::json paths = src.value("paths", nlohmann::json::array());
    if (paths.empty()) h += "<span class=\"muted\">(not recorded)</span>";
    for (const auto& p : paths)
        h += "<code class=\"path\">" + esc(text(p)) + "</code>";
    h += "</dd><dt>Window</dt><dd>";
    const nlohmann::json step = src.value("step", nlohmann::json(nullptr));
    h += step.is_number() ? "ProfilerStep#" + esc(text(step)) : std::string("whole trace");
    h += " &middot; " + std::to_string(j.value("ranks", nlohmann::json::array()).size()) + " ranks</dd>";
    h += "<dt>Knobs</dt><dd>";
    const nlohmann::json knobs = j.value("knobs", nlohmann::json::object());
    std::vector<std::string> changed = changedOf(j);
    if (changed.empty()) h += "<span class=\"chip replay\">replay &mdash; every knob at its default</span>";
    for (const auto& k : changed)
        h += "<span class=\"chip\">" + esc(k) + " = " +
             esc(knobText(knobs.value(k, nlohmann::json(nullptr)))) + "</span>";
    h += "<details><summary>all knobs</summary><table class=\"knobs\"><tbody>";
    std::set<std::string> changedSet(changed.begin(), changed.end());
    for (auto it = knobs.begin(); it != knobs.end(); ++it)
        h += std::string("<tr") + (changedSet.count(it.key()) ? " class=\"changed\"" : "") + "><th>" +
             esc(it.key()) + "</th><td>" + esc(knobText(it.value())) + "</td></tr>";
    h += "</tbody></table></details></dd></dl></header>";
    return h;
}

std::string cards(const nlohmann::json& j) {
    const nlohmann::json it = j.value("iteration", nlohmann::json::object());
    const nlohmann::json cp = j.value("critical_path", nlohmann::json::object());
    const nlohmann::json ks = j.value("kernel_start_error_us", nlohmann::json::object());
    const bool whatIf = !changedOf(j).empty();
    double meas = num(it, "measured_us"), sim = num(it, "simulated_us");
    auto card = [](const std::string& label, const std::string& value, const std::string& note,
                   const char* cls = "") {
        return std::string("<div class=\"card ") + cls + "\"><div class=\"label\">" + label +
               "</div><div class=\"value\">" + value + "</div><div class=\"note\">" + note + "</div></div>";
    };
    std::string s = "<section class=\"cards\">";
    s += card("Measured iteration", duration(meas), "first event to last event, over all ranks");
    s += card("Simulated iteration", duration(sim),
              whatIf ? "with the knobs above" : "replay, knobs at defaults", "accent");
    if (whatIf) {
        double change = meas > 0 ? 100.0 * (sim - meas) / meas : 0.0;
        const bool same = std::abs(change) < 0.05;
        const char* note = same         ? "iteration as measured"
                           : change < 0 ? "faster than measured"
                                        : "slower than measured";
        s += card("What-if change", same ? "0.0 %" : (change > 0 ? "+" : "") + fmt(change, 1) + " %", note,
                  same         ? ""
                  : change < 0 ? "good"
                               : "bad");
    } else {
        s += card("Replay error", fmt(num(it, "error_pct"), 2) + " %",
                  "|simulated &minus; measured| / measured");
    }
    s += card("Critical path", duration(num(cp, "length_us")), "across ranks, through collectives");
    auto short2 = [](double v) { return fmt(v, v >= 100 ? 0 : 2); };
    s += card("Kernel start error", short2(num(ks, "median")) + " / " + short2(num(ks, "p90")) + " µs",
              "median / p90 over " + fmt(num(ks, "count"), 0) + " GPU ops" +
                  (whatIf ? " (knobs move starts on purpose)" : ""));
    s += "</section>";
    return s;
}

std::string breakdownSection(const nlohmann::json& ranks) {
    std::string s = "<section><h2>GPU time per rank</h2>"
                    "<p class=\"lead\">Each bar is the rank's GPU span (first GPU op to last), split the way "
                    "Holistic Trace Analysis does: compute, communication hidden behind compute, exposed "
                    "communication, memory copies and other GPU time, and idle. Upper bar measured, lower "
                    "bar simulated.</p>";
    s += "<div class=\"legend\">" + legendItem(kComputeColor, "Compute") +
         legendItem(kOverlapColor, "Comm overlapped with compute") +
         legendItem(kExposedColor, "Exposed comm") + legendItem(kOtherColor, "Memory / other") +
         legendItem(kIdleColor, "Idle") + "</div>";
    RankBarsLayout L;
    L.n = ranks.size();
    L.plotW = 770;
    L.rightW = 70;
    for (const auto& r : ranks)
        L.max = std::max({L.max, num(r, "gpu_span_us"),
                          num(r.value("measured", nlohmann::json::object()), "gpu_span_us")});
    s += L.open("GPU time per rank, measured and simulated", ranks);
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        const nlohmann::json& r = ranks[i];
        const std::string name = rankLabel(r);
        const nlohmann::json measured = r.value("measured", nlohmann::json::object());
        for (int k = 0; k < 2; ++k) {
            const nlohmann::json& b = k == 0 ? measured : r;
            const std::string who = k == 0 ? " measured" : " simulated";
            SpanSegments seg = spanSegments(b);
            double x = L.labelW, by = L.rowY(i) + k * (L.barH() + 2);
            auto part = [&](double v, const char* color, const char* what) {
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
    for (const auto& r : ranks) {
        nlohmann::json measured = r.value("measured", nlohmann::json::object());
        const std::string id = esc(text(r.value("rank", nlohmann::json("?"))));
        s += "<tbody class=\"rank\" data-rank=\"" + id + "\">";
        for (int k = 0; k < 2; ++k) {
            const nlohmann::json& b = k == 0 ? measured : r;
            double comm = num(b, "comm_us"), exposed = num(b, "exposed_comm_us");
            s += "<tr>";
            if (k == 0) s += "<th rowspan=\"2\" class=\"rk\">" + id + "</th>";
            s += std::string("<td class=\"src\">") + (k == 0 ? "measured" : "simulated") + "</td>";
            for (double v : {num(b, "compute_us"), comm, exposed, std::max(0.0, comm - exposed),
                             num(b, "memory_us"), num(b, "idle_us"), num(b, "gpu_span_us")})
                s += "<td>" + fmt(v) + "</td>";
            s += "<td>" + fmt(num(b, "overlap_pct"), 1) + " %</td></tr>";
        }
        s += "</tbody>";
    }
    s +=
        "</table></div><p class=\"foot\">Times in µs. Overlapped comm = comm &minus; exposed comm; overlap = "
        "overlapped / comm.</p></section>";
    return s;
}

std::string criticalPathSection(const nlohmann::json& cp) {
    const nlohmann::json byKind = cp.value("by_kind", nlohmann::json::object());
    const double length = num(cp, "length_us");
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
    for (const auto& k : kinds) {
        const nlohmann::json e = byKind.value(k.key, nlohmann::json::object());
        double v = num(e, "us"), w = length > 0 ? plotW * v / length : 0;
        s += rect(x, 4, w, barH, k.color,
                  std::string(k.label) + ": " + fmt(v) + " µs (" + fmt(num(e, "pct"), 1) + " %)");
        if (w > 54)
            s += svgText(x + w / 2, 4 + barH / 2 + 4, fmt(num(e, "pct"), 1) + " %", "inbar", "middle");
        x += w;
    }
    s += "</svg><div class=\"legend\">";
    for (const auto& k : kinds)
        s += legendItem(k.color, k.label);
    s += "</div><div class=\"cols\"><table class=\"num\"><thead><tr><th>Kind</th><th>Time "
         "(µs)</th><th>Share</th>"
         "</tr></thead><tbody>";
    for (const auto& k : kinds) {
        const nlohmann::json e = byKind.value(k.key, nlohmann::json::object());
        s += "<tr data-kind=\"" + k.key + "\"><th><i class=\"sw\" style=\"background:" + k.color + "\"></i>" +
             k.label + "</th><td>" + fmt(num(e, "us")) + "</td><td>" + fmt(num(e, "pct"), 1) + " %</td></tr>";
    }
    s +=
        "<tr class=\"total\"><th>Total</th><td>" + fmt(length) + "</td><td>100.0 %</td></tr></tbody></table>";
    const nlohmann::json top = cp.value("top_events", nlohmann::json::array());
    if (!top.empty()) {
        s += "<table class=\"num top\"><thead><tr><th>Longest events on the "
             "path</th><th>Rank</th><th class=\"l\">Kind</th>"
             "<th>Time (µs)</th></tr></thead><tbody>";
        for (const auto& e : top)
            s += "<tr><th class=\"name\" title=\"" + esc(text(e.value("name", nlohmann::json("")))) + "\">" +
                 esc(text(e.value("name", nlohmann::json("")))) + "</th><td>" +
                 esc(text(e.value("rank", nlohmann::json("")))) + "</td><td class=\"src\">" +
                 esc(text(e.value("kind", nlohmann::json("")))) + "</td><td>" + fmt(num(e, "us")) +
                 "</td></tr>";
        s += "</tbody></table>";
    }
    s += "</div></section>";
    return s;
}

// gpu.target (docs/GpuModel.md): predicted speedup per kernel class and per top kernel.
// "compute.speedup = 2, comm.speedup = 1.5": the keys with their values from a knobs object.
std::string knobValues(const std::vector<std::string>& keys, const nlohmann::json& knobs) {
    std::string out;
    for (const auto& k : keys) {
        out += (out.empty() ? "" : ", ") + k;
        if (knobs.is_object() && knobs.contains(k)) out += " = " + knobText(knobs[k]);
    }
    return out;
}

std::vector<std::string> keysOf(const nlohmann::json& r) {
    std::vector<std::string> keys;
    for (const auto& k : r.value("changed_knobs", nlohmann::json::array()))
        keys.push_back(text(k));
    return keys;
}

// The kind holding most of the critical path, in words: "GPU compute (62% of the critical path)".
std::string largestPathKind(const nlohmann::json& cp) {
    const nlohmann::json byKind = cp.value("by_kind", nlohmann::json::object());
    double best = -1;
    std::string out;
    for (const auto& k : pathKinds()) {
        const double pct = num(byKind.value(k.key, nlohmann::json::object()), "pct");
        if (pct > best) {
            best = pct;
            out = std::string(k.label) + " (" + fmt(pct, 0) + "% of the critical path)";
        }
    }
    return best > 0 ? out : std::string();
}

// "19.01 ms -> 16.10 ms per step (-15.3%, 1.18x faster)".
std::string changeWords(double before, double after) {
    if (before <= 0 || after <= 0) return duration(after) + " per step";
    const double change = 100.0 * (after - before) / before;
    std::string s = duration(before) + " &rarr; " + duration(after) + " per step (";
    if (std::abs(change) < 0.05) return s + "no change)";
    s += (change > 0 ? "+" : "") + fmt(change, 1) + "%, ";
    s += change < 0 ? fmt(before / after, 2) + "x faster)" : fmt(after / before, 2) + "x slower)";
    return s;
}

// The headline a manager reads first: the biggest win among the scenarios (or this run against the
// measured trace), its throughput where the work per step changed, and what limits the step.
std::string headlineSection(const nlohmann::json& j) {
    const nlohmann::json it = j.value("iteration", nlohmann::json::object());
    const nlohmann::json knobs = j.value("knobs", nlohmann::json::object());
    std::string win, limit = text(j.value("limit", nlohmann::json("")));
    const nlohmann::json sc = j.value("scenarios", nlohmann::json::array());
    if (sc.is_array() && sc.size() >= 2) {
        // The best scenario: the highest throughput where the work changed, else the shortest step.
        const nlohmann::json* best = nullptr;
        const double baseUs = num(sc[0], "iteration_us");
        auto score = [baseUs](const nlohmann::json& r) {
            const double t = num(r, "throughput_vs_baseline"), us = num(r, "iteration_us");
            return t > 0 ? t : (us > 0 ? baseUs / us : 0.0);
        };
        for (std::size_t i = 1; i < sc.size(); ++i)
            if (!best || score(sc[i]) > score(*best)) best = &sc[i];
        const nlohmann::json& b = *best;
        win = "<b>Biggest win: " + esc(text(b.value("name", nlohmann::json("")))) + "</b>";
        const std::vector<std::string> keys = keysOf(b);
        const std::string values = knobValues(keys, b.value("knobs", nlohmann::json::object()));
        // A scenario named by its knobs (the GUI's default name) says them once.
        if (!keys.empty() && values != text(b.value("name", nlohmann::json(""))))
            win += " (" + esc(values) + ")";
        win += ": " + changeWords(baseUs, num(b, "iteration_us"));
        if (b.contains("throughput_note")) win += "; " + esc(text(b["throughput_note"]));
        if (limit.empty()) limit = text(sc[0].value("limit", nlohmann::json("")));
    } else {
        const std::vector<std::string> changed = changedOf(j);
        if (changed.empty())
            win = "<b>Replay of the trace</b>: " + duration(num(it, "simulated_us")) + " per step, within " +
                  fmt(num(it, "error_pct"), 1) + "% of the measured " + duration(num(it, "measured_us"));
        else {
            const double base = it.contains("baseline_us") ? num(it, "baseline_us") : num(it, "measured_us");
            win = "<b>" + esc(knobValues(changed, knobs)) +
                  "</b>: " + changeWords(base, num(it, "simulated_us"));
            if (it.contains("throughput_note")) win += "; " + esc(text(it["throughput_note"]));
        }
    }
    if (limit.empty()) limit = largestPathKind(j.value("critical_path", nlohmann::json::object()));
    std::string s = "<section class=\"headline\"><p class=\"win\">" + win + "</p>";
    if (!limit.empty()) s += "<p class=\"limit\">What limits the step: " + esc(limit) + "</p>";
    s += "</section>";
    return s;
}

// The what-if scenarios the GUI compared (its File > Export Report adds them): name, knobs with
// their values, iteration and change against the first (the baseline), throughput where the work
// per step changed (docs/Scaling.md), what limits the step; a bar chart of the iterations.
std::string scenariosSection(const nlohmann::json& j) {
    if (!j.contains("scenarios") || !j["scenarios"].is_array() || j["scenarios"].empty()) return {};
    const nlohmann::json& sc = j["scenarios"];
    bool throughput = false;
    double most = 0;
    for (const auto& r : sc) {
        throughput = throughput || r.contains("throughput_vs_baseline");
        most = std::max(most, num(r, "iteration_us"));
    }
    std::string s = "<section><h2>Scenarios</h2><p class=\"lead\">Every what-if scenario of the session, "
                    "simulated on the same traces; the change is against the first (the baseline).</p>";
    // Bars: one per scenario, the baseline grey, the faster ones green, the slower ones red.
    const double labelW = 220, plotW = 640, rightW = 100, rowH = 26, barH = 18, top = 6;
    const double height = top + static_cast<double>(sc.size()) * rowH + 24;
    s += "<svg class=\"chart\" viewBox=\"0 0 " + svgNum(labelW + plotW + rightW) + " " + svgNum(height) +
         "\" role=\"img\" aria-label=\"iteration per scenario\">";
    if (most > 0) s += grid(labelW, plotW, top - 2, height - top - 20, most);
    const double baseUs = num(sc[0], "iteration_us");
    for (std::size_t i = 0; i < sc.size(); ++i) {
        const nlohmann::json& r = sc[i];
        const double us = num(r, "iteration_us"), y = top + static_cast<double>(i) * rowH;
        const char* color = i == 0        ? kMeasuredColor
                            : us < baseUs ? "#2b8a3e"
                            : us > baseUs ? "#c92a2a"
                                          : kSimulatedColor;
        const std::string name = text(r.value("name", nlohmann::json("")));
        s += svgText(labelW - 10, y + barH - 4, name, "label", "end");
        s += rect(labelW, y, most > 0 ? plotW * us / most : 0, barH, color, name + ": " + duration(us));
        s += svgText(labelW + (most > 0 ? plotW * us / most : 0) + 6, y + barH - 4, duration(us), "tag");
    }
    s += "</svg><table class=\"num top\"><thead><tr><th>Scenario</th><th class=\"l\">Knobs</th>"
         "<th>Iteration</th><th>vs baseline</th>";
    if (throughput) s += "<th>Throughput</th><th>Scaling eff.</th>";
    s += "<th class=\"l\">What limits the step</th></tr></thead><tbody>";
    for (const auto& r : sc) {
        const std::string knobs = knobValues(keysOf(r), r.value("knobs", nlohmann::json::object()));
        const double change = num(r, "vs_baseline_pct");
        s += "<tr><th class=\"name\">" + esc(text(r.value("name", nlohmann::json("")))) +
             "</th><td class=\"src\">" + esc(knobs.empty() ? std::string("replay") : knobs) + "</td><td>" +
             duration(num(r, "iteration_us")) + "</td><td>" + (change > 0 ? "+" : "") + fmt(change, 1) +
             " %</td>";
        if (throughput)
            s += r.contains("throughput_vs_baseline")
                     ? "<td title=\"" + esc(text(r.value("throughput_note", nlohmann::json("")))) + "\">" +
                           fmt(num(r, "throughput_vs_baseline"), 2) + "x</td><td>" +
                           fmt(100.0 * num(r, "scaling_efficiency"), 0) + " %</td>"
                     : std::string("<td class=\"muted\">same work</td><td></td>");
        s += "<td class=\"src\">" + esc(text(r.value("limit", nlohmann::json("")))) + "</td></tr>";
    }
    s += "</tbody></table></section>";
    return s;
}

// Timeline pictures the GUI's export adds ({name, caption, svg}: inline SVG it rendered itself,
// no scripts or links in it); the part before the <svg element (XML declaration) is left out.
std::string figuresSection(const nlohmann::json& j) {
    if (!j.contains("figures") || !j["figures"].is_array() || j["figures"].empty()) return {};
    std::string s =
        "<section><h2>Timelines</h2><p class=\"lead\">Each scenario's simulated timeline under the "
        "measured one, as File &gt; Export Timeline renders it, and the sweep's plot when a sweep ran.</p>";
    for (const auto& f : j["figures"]) {
        const std::string svg = text(f.value("svg", nlohmann::json("")));
        const auto at = svg.find("<svg");
        if (at == std::string::npos || svg.find("<script") != std::string::npos) continue;
        s += "<figure class=\"timeline\"><figcaption><b>" + esc(text(f.value("name", nlohmann::json("")))) +
             "</b> &middot; " + esc(text(f.value("caption", nlohmann::json("")))) + "</figcaption>" +
             svg.substr(at) + "</figure>";
    }
    s += "</section>";
    return s;
}

std::string gpuSwapSection(const nlohmann::json& j) {
    if (!j.contains("gpu_swap") || !j["gpu_swap"].is_object() || j["gpu_swap"].empty()) return {};
    const nlohmann::json& g = j["gpu_swap"];
    const nlohmann::json none = g.value("without_shapes", nlohmann::json::object());
    std::string s = "<section><h2>On another GPU: " + esc(text(g.value("source", nlohmann::json("")))) +
                    " &rarr; " + esc(text(g.value("target", nlohmann::json("")))) +
                    "</h2><p class=\"lead\">Each kernel's roofline time from its op's shapes on both GPUs, "
                    "with the efficiency it showed on the traced one; kernels without shapes take their "
                    "class's median ratio (" +
                    fmt(num(none, "kernels"), 0) + " kernels, " + duration(num(none, "time_us")) +
                    " of GPU time). Intra-node links: x" + fmt(num(g, "link_ratio"), 2) + ".</p>";
    auto table = [&](const char* head, const nlohmann::json& rows, bool named) {
        s += std::string("<table class=\"num top\"><thead><tr><th>") + head +
             "</th><th>Kernels</th><th>With shapes</th><th>Measured (µs)</th><th>Predicted "
             "(µs)</th><th>Speedup</th></tr></thead><tbody>";
        for (const auto& r : rows) {
            const std::string name = text(r.value(named ? "name" : "class", nlohmann::json("")));
            s += "<tr><th class=\"name\" title=\"" + esc(name) + "\">" + esc(name) + "</th><td>" +
                 fmt(num(r, "kernels"), 0) + "</td><td>" + fmt(num(r, "with_shapes"), 0) + "</td><td>" +
                 fmt(num(r, "measured_us")) + "</td><td>" + fmt(num(r, "predicted_us")) + "</td><td>" +
                 fmt(num(r, "speedup")) + "x</td></tr>";
        }
        s += "</tbody></table>";
    };
    s += "<div class=\"cols\">";
    table("Kernel class", g.value("by_class", nlohmann::json::array()), false);
    table("Top kernels", g.value("top_kernels", nlohmann::json::array()), true);
    s += "</div></section>";
    return s;
}

std::string accuracySection(const nlohmann::json& j) {
    const nlohmann::json ranks = j.value("ranks", nlohmann::json::array());
    const nlohmann::json it = j.value("iteration", nlohmann::json::object());
    const nlohmann::json ks = j.value("kernel_start_error_us", nlohmann::json::object());
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
    for (const auto& r : ranks)
        L.max = std::max({L.max, num(r, "measured_us"), num(r, "simulated_us")});
    s += L.open("iteration time per rank, measured and simulated", ranks);
    s += svgText(L.labelW + L.plotW + 12, 10, "error", "axis");
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        const nlohmann::json& r = ranks[i];
        const std::string name = rankLabel(r);
        double m = num(r, "measured_us"), sv = num(r, "simulated_us"), y = L.rowY(i);
        s += rect(L.labelW, y, L.width(m), L.barH(), kMeasuredColor, name + " measured: " + fmt(m) + " µs");
        s += rect(L.labelW, y + L.barH() + 2, L.width(sv), L.barH(), kSimulatedColor,
                  name + " simulated: " + fmt(sv) + " µs");
        if (L.labels())
            s += svgText(L.labelW + L.plotW + 12, y + L.barH() + 4, fmt(num(r, "error_pct"), 2) + " %",
                         "label");
    }
    s += "</svg>";
    s += "<div class=\"cols\"><table class=\"num\"><thead><tr><th>Rank</th><th>Measured (µs)</th>"
         "<th>Simulated (µs)</th><th>Difference (µs)</th><th>Error</th><th>GPU span error</th>"
         "<th>Unexplained wait (µs)</th><th>Pre-window ops</th><th>Pinned</th></tr></thead><tbody>";
    for (const auto& r : ranks) {
        const std::string id = esc(text(r.value("rank", nlohmann::json("?"))));
        double m = num(r, "measured_us"), sv = num(r, "simulated_us");
        s += "<tr class=\"rank\" data-rank=\"" + id + "\"><th>" + id + "</th><td>" + fmt(m) + "</td><td>" +
             fmt(sv) + "</td><td>" + (sv - m > 0 ? "+" : "") + fmt(sv - m) + "</td><td>" +
             fmt(num(r, "error_pct"), 3) + " %</td><td>" + fmt(num(r, "gpu_span_error_pct"), 3) +
             " %</td><td>" + fmt(num(r, "unexplained_wait_us") + num(r, "unexplained_gpu_wait_us")) +
             "</td><td>" + fmt(num(r, "prewindow_ops"), 0) + "</td><td title=\"" +
             esc(r.value("largest_pin", std::string())) + "\">" + fmt(num(r, "pinned_share_pct"), 1) +
             " %</td></tr>";
    }
    double m = num(it, "measured_us"), sv = num(it, "simulated_us");
    s += "<tr class=\"total\"><th>Job</th><td>" + fmt(m) + "</td><td>" + fmt(sv) + "</td><td>" +
         (sv - m > 0 ? "+" : "") + fmt(sv - m) + "</td><td>" + fmt(num(it, "error_pct"), 3) +
         " %</td><td></td><td></td><td></td><td></td></tr>";
    s += "</tbody></table><table class=\"num\"><thead><tr><th>Kernel start error</th><th>µs</th></tr></thead>"
         "<tbody><tr><th>Median</th><td>" +
         fmt(num(ks, "median"), 3) + "</td></tr><tr><th>p90</th><td>" + fmt(num(ks, "p90"), 3) +
         "</td></tr><tr><th>Max</th><td>" + fmt(num(ks, "max"), 3) + "</td></tr><tr><th>GPU ops</th><td>" +
         fmt(num(ks, "count"), 0) + "</td></tr>";
    const nlohmann::json kp = j.value("kernel_start_error_pct", nlohmann::json::object());
    s += "<tr><th>Median, % of iteration</th><td>" + fmt(num(kp, "median"), 3) +
         "</td></tr><tr><th>p90, % of iteration</th><td>" + fmt(num(kp, "p90"), 3) +
         "</td></tr><tr><th>Ops within 1 %</th><td>" + fmt(100.0 * num(kp, "within_1pct_share"), 1) +
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

std::string warningsSection(const nlohmann::json& j) {
    const nlohmann::json w = j.value("warnings", nlohmann::json::array());
    if (w.empty()) return "";
    constexpr std::size_t kShown = 50;
    std::string s = "<section><h2>Warnings <span class=\"count\">" + std::to_string(w.size()) +
                    "</span></h2><ul class=\"warnings\">";
    for (std::size_t i = 0; i < w.size() && i < kShown; ++i)
        s += "<li>" + esc(text(w[i])) + "</li>";
    if (w.size() > kShown) s += "<li class=\"muted\">and " + std::to_string(w.size() - kShown) + " more</li>";
    s += "</ul></section>";
    return s;
}

constexpr const char* kCss = R"CSS(
:root{--fg:#212529;--muted:#6c757d;--line:#e9ecef;--bg:#f8f9fa;--accent:#1c7ed6}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:14px/1.5 -apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,"Helvetica Neue",Arial,"Noto Sans","Liberation Sans",sans-serif;-webkit-font-smoothing:antialiased}
main{max-width:1080px;margin:0 auto;padding:28px 32px 48px}
header{background:#fff;border:1px solid var(--line);border-radius:10px;padding:22px 26px 16px;margin-bottom:18px}
.brand{font-size:12px;font-weight:600;letter-spacing:.12em;text-transform:uppercase;color:var(--accent)}
h1{font-size:26px;font-weight:650;margin:2px 0 14px;letter-spacing:-.01em}
h2{font-size:18px;font-weight:620;margin:0 0 6px}
dl.meta{display:grid;grid-template-columns:80px 1fr;gap:6px 14px;margin:0}
dl.meta dt{color:var(--muted);font-size:12px;text-transform:uppercase;letter-spacing:.06em;padding-top:3px}
dl.meta dd{margin:0}
code,.path{font:12.5px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace}
.path{display:block;word-break:break-all;color:#343a40}
.chip{display:inline-block;background:#fff4e6;border:1px solid #ffd8a8;color:#a64b00;border-radius:999px;padding:1px 10px;margin:0 6px 4px 0;font:12.5px ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace}
.chip.replay{background:#ebfbee;border-color:#b2f2bb;color:#2b8a3e;font-family:inherit}
details{margin-top:4px;font-size:13px}
summary{cursor:pointer;color:var(--muted)}
table.knobs{margin-top:6px;border-collapse:collapse}
table.knobs th{font:12.5px ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;text-align:left;font-weight:400;padding:1px 18px 1px 0;color:#495057}
table.knobs td{font:12.5px ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;padding:1px 0}
table.knobs tr.changed th,table.knobs tr.changed td{color:#a64b00;font-weight:600}
section.cards{display:grid;grid-template-columns:repeat(5,1fr);gap:12px;margin-bottom:18px;background:none;border:0;padding:0}
.card{background:#fff;border:1px solid var(--line);border-radius:10px;padding:12px 14px}
.card .label{font-size:11.5px;text-transform:uppercase;letter-spacing:.06em;color:var(--muted)}
.card .value{font-size:22px;font-weight:620;margin:2px 0;font-variant-numeric:tabular-nums;white-space:nowrap}
.card.accent .value{color:var(--accent)}
.card.good .value{color:#2b8a3e}
.card.bad .value{color:#c92a2a}
table.wide{width:100%}
.card .note{font-size:12px;color:var(--muted);line-height:1.35}
section{background:#fff;border:1px solid var(--line);border-radius:10px;padding:20px 26px;margin-bottom:18px}
p.lead{color:#495057;margin:0 0 12px;max-width:820px}
p.foot{color:var(--muted);font-size:12px;margin:8px 0 0}
.legend{display:flex;flex-wrap:wrap;gap:4px 18px;margin:4px 0 8px;font-size:13px}
.key{display:inline-flex;align-items:center;gap:6px}
.key i,.sw{display:inline-block;width:12px;height:12px;border-radius:3px}
.sw{margin-right:8px;vertical-align:-1px}
svg.chart{display:block;width:100%;height:auto;margin:4px 0 14px}
svg text{font-family:inherit}
svg .label{font-size:12px;fill:#343a40}
svg .tag{font-size:10px;fill:#868e96}
svg .axis{font-size:10.5px;fill:#868e96}
svg .inbar{font-size:12px;fill:#fff;font-weight:600}
svg .grid{stroke:#f1f3f5;stroke-width:1}
.scroll{overflow-x:auto}
table.num{border-collapse:collapse;font-variant-numeric:tabular-nums;font-size:13px}
table.num th,table.num td{padding:4px 10px;border-bottom:1px solid var(--line)}
table.num td{text-align:right;white-space:nowrap}
table.num thead th{font-size:12px;font-weight:600;color:var(--muted);text-align:right;border-bottom:2px solid #dee2e6;white-space:nowrap}
table.num thead th:first-child,table.num thead th.l{text-align:left}
table.num tbody th{text-align:left;font-weight:500}
table.num td.src{text-align:left;color:var(--muted)}
table.num tbody.rank tr:last-child td,table.num tbody.rank tr:last-child th{border-bottom:1px solid #dee2e6}
table.num th.rk{vertical-align:middle;font-weight:600}
table.num tr.total th,table.num tr.total td{font-weight:650;border-top:2px solid #dee2e6}
table.num th.name{max-width:380px;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;font:12px ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace}
.cols{display:flex;flex-wrap:wrap;gap:18px 36px;align-items:flex-start}
.warnings{margin:6px 0 0;padding-left:18px;font-size:13px;color:#495057}
.count{font-size:12px;background:#fff3bf;color:#8a6d00;border-radius:999px;padding:1px 8px;vertical-align:3px}
.muted{color:var(--muted)}
footer{color:var(--muted);font-size:12px;text-align:center}
figure.timeline{margin:0 0 16px}
figure.timeline svg{display:block;width:100%;height:auto;border:1px solid var(--line)}
figure.timeline figcaption{font-size:13px;color:#495057;margin-bottom:6px}
section.headline{border-left:5px solid var(--accent)}
section.headline p{margin:0;font-size:17px}
section.headline p.limit{margin-top:6px;font-size:14px;color:#495057}
@media (max-width:900px){section.cards{grid-template-columns:repeat(2,1fr)}main{padding:16px}}
@media print{body{background:#fff}section,header,.card{break-inside:avoid}}
)CSS";

} // namespace

SpanSegments spanSegments(const nlohmann::json& b) {
    SpanSegments s;
    double compute = num(b, "compute_us"), comm = num(b, "comm_us"), exposed = num(b, "exposed_comm_us");
    double idle = num(b, "idle_us"), span = num(b, "gpu_span_us");
    s.overlappedComm = std::max(0.0, comm - exposed);
    s.computeOnly = std::max(0.0, compute - s.overlappedComm);
    s.exposedComm = std::max(0.0, exposed);
    s.idle = std::max(0.0, idle);
    s.other = std::max(0.0, span - compute - exposed - idle);
    return s;
}

std::string htmlReport(const nlohmann::json& report) {
    std::string h = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                    "<title>Sightline report</title><style>";
    h += kCss;
    h += "</style></head><body><main>";
    h += header(report);
    h += headlineSection(report);
    h += cards(report);
    h += scenariosSection(report);
    h += figuresSection(report);
    h += breakdownSection(report.value("ranks", nlohmann::json::array()));
    h += gpuSwapSection(report);
    h += criticalPathSection(report.value("critical_path", nlohmann::json::object()));
    h += accuracySection(report);
    h += warningsSection(report);
    // Who wrote it: the program and its version, and where (the CLI's report or the GUI's export).
    const std::string generator = text(report.value("generator", nlohmann::json("")));
    h += "<footer>Written by Sightline " + esc(sightlineVersion()) +
         (generator.empty() ? "" : " (" + esc(generator) + ")") +
         ". Self-contained: no scripts, no network resources. The same numbers are available as JSON and "
         "CSV.</footer></main></body></html>\n";
    return h;
}

const char* sightlineVersion() {
    return SIGHTLINE_VERSION;
}

std::string htmlEscape(const std::string& text) {
    return esc(text);
}

} // namespace sl
