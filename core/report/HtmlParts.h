#pragma once
// The pieces the HTML report is made of (report/HtmlReport.h): escaping, number and duration
// formats, SVG bars, texts, grids and legends, the critical-path kinds with their names and colours,
// the per-rank sections (HtmlSections.cpp) and the page's style sheet (HtmlStyle.cpp). Internal to
// core/report: HtmlReport.cpp puts the page together.
#include "analysis/CriticalPath.h"
#include "report/SimulationNumbers.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace sl::html {

// 0x3b7dd8 -> "#3b7dd8".
std::string css(std::uint32_t rgb);
// The report's colours (report/Colours.h, shared with the desktop program's palette).
extern const std::string kComputeColor, kOverlapColor, kExposedColor, kOtherColor, kIdleColor, kMeasuredColor,
    kSimulatedColor;

struct PathKind {
    std::string key; // pathLabelName: the key of critical_path.by_kind
    const char* label;
    std::string color;
};
PathKind pathKind(PathLabel l);
// Every kind, in the enum's order.
std::vector<PathKind> pathKinds();

// Text made safe for HTML element content and attribute values.
std::string esc(const std::string& s);
// A JSON value as text (strings without quotes).
std::string text(const nlohmann::json& v);
// A knob value as people write it: 2 (not 2.0), 1.5, true, "alpha-beta" without quotes
// (sim/KnobText.h, KnobNumberStyle::Whole).
std::string knobText(const nlohmann::json& v);
// 12345.678 -> "12,345.68" (decimals fixed, thousands grouped with commas).
std::string fmt(double v, int decimals = 2);
// A duration in microseconds for cards: "19.95 ms" or "812.40 us".
std::string duration(double us);
std::string svgNum(double v);
std::string rect(double x, double y, double w, double h, const std::string& color, const std::string& tip);
std::string svgText(double x, double y, const std::string& s, const char* cls, const char* anchor = "start");
std::string legendItem(const std::string& color, const std::string& label);
// Axis ticks at 1/2/5 x 10^k spacing, about `want` of them up to `max`.
std::vector<double> ticks(double max, int want = 5);
std::string axisLabel(double us, double max);
// Vertical grid lines and labels under a chart of `height` whose plot area is [x0, x0 + w].
std::string grid(double x0, double w, double top, double height, double max);
std::string rankLabel(const RankNumbers& r);

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
    std::string open(const char* aria, const std::vector<RankNumbers>& ranks) const {
        std::string s = "<svg class=\"chart\" viewBox=\"0 0 " + svgNum(labelW + plotW + rightW) + " " +
                        svgNum(height()) + "\" role=\"img\" aria-label=\"" + aria + "\">";
        if (max > 0) s += grid(labelW, plotW, top - 4, height() - top - 20, max);
        for (std::size_t i = 0; i < ranks.size(); ++i)
            if (labels() || i == 0 || i + 1 == ranks.size()) // many ranks: only the first and the last
                s += svgText(labelW - 10, rowY(i) + barH() + 4, rankLabel(ranks[i]), "label", "end");
        return s;
    }
};

// The per-rank sections (HtmlSections.cpp): GPU time per rank, the critical path, another GPU
// (gpu.target), replay accuracy and the warnings. Without measured times (Chakra input) they show
// the simulated times alone.
std::string breakdownSection(const std::vector<RankNumbers>& ranks, bool measured);
std::string criticalPathSection(const SimulationNumbers& numbers);
std::string gpuSwapSection(const std::optional<GpuSwapNumbers>& swap);
std::string accuracySection(const SimulationNumbers& numbers);
std::string warningsSection(const std::vector<std::string>& warnings);

// The page's style sheet (HtmlStyle.cpp).
const char* reportCss();

} // namespace sl::html
