#include "report/HtmlParts.h"

#include "base/DurationText.h"

#include "report/Colours.h"
#include "sim/KnobText.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace sl::html {

std::string css(std::uint32_t rgb) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "#%06x", static_cast<unsigned>(rgb & 0xffffffu));
    return buf;
}

// The report's colours, from the table the desktop program's palette uses too (report/Colours.h), so
// screenshots and reports read the same way.
const std::string kComputeColor = css(colours::kCategory[0]);
const std::string kOverlapColor = css(colours::kOverlappedComm);
const std::string kExposedColor = css(colours::kExposedComm);
const std::string kOtherColor = css(colours::kCategory[2]);
const std::string kIdleColor = css(colours::kSpanIdle);
const std::string kMeasuredColor = css(colours::kMeasured);
const std::string kSimulatedColor = css(colours::kSimulated);

namespace {
// The name people read; the switch has no default, so a new PathLabel fails the build (-Wswitch)
// until it has a name here (and a colour in report/Colours.h).
const char* pathTitle(PathLabel l) {
    switch (l) {
    case PathLabel::GpuCompute:
        return "GPU compute";
    case PathLabel::GpuComm:
        return "GPU communication";
    case PathLabel::CollectiveWait:
        return "Collective wait";
    case PathLabel::Cpu:
        return "CPU";
    case PathLabel::LaunchLatency:
        return "Launch latency";
    case PathLabel::Sync:
        return "Sync";
    case PathLabel::Idle:
        return "Idle";
    case PathLabel::LateStart:
        return "Late start";
    case PathLabel::UnexplainedWait:
        return "Unexplained wait";
    case PathLabel::Count:
        break;
    }
    return "Other";
}
} // namespace

// Every critical-path label the JSON can have, in the enum's order.
PathKind pathKind(PathLabel l) {
    const auto i = static_cast<std::size_t>(l);
    return {std::string(pathLabelName(l)), pathTitle(l),
            i < colours::kPath.size() ? css(colours::kPath[i]) : std::string("#ced4da")};
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

std::string knobText(const nlohmann::json& v) {
    return knobValueText(v, KnobNumberStyle::Whole);
}

// 12345.678 -> "12,345.68" (decimals fixed, thousands grouped with commas).
std::string fmt(double v, int decimals) {
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
    const DurationUnit u = durationUnit(us, false, {.s = 3, .ms = 2, .us = 2, .usName = "µs"});
    return fmt(u.value, u.decimals) + " " + u.unit;
}

std::string svgNum(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    return buf;
}

std::string rect(double x, double y, double w, double h, const std::string& color, const std::string& tip) {
    if (w <= 0) return "";
    return "<rect x=\"" + svgNum(x) + "\" y=\"" + svgNum(y) + "\" width=\"" + svgNum(std::max(w, 0.5)) +
           "\" height=\"" + svgNum(h) + "\" fill=\"" + color + "\"><title>" + esc(tip) + "</title></rect>";
}

std::string svgText(double x, double y, const std::string& s, const char* cls, const char* anchor) {
    return "<text x=\"" + svgNum(x) + "\" y=\"" + svgNum(y) + "\" class=\"" + cls + "\" text-anchor=\"" +
           anchor + "\">" + esc(s) + "</text>";
}

std::string legendItem(const std::string& color, const std::string& label) {
    return "<span class=\"key\"><i style=\"background:" + color + "\"></i>" + esc(label) + "</span>";
}

// Axis ticks at 1/2/5 x 10^k spacing, about `want` of them up to `max`.
std::vector<double> ticks(double max, int want) {
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

std::string rankLabel(const RankNumbers& r) {
    return "rank " + std::to_string(r.rank);
}

} // namespace sl::html
