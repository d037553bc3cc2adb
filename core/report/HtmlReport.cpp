#include "report/HtmlReport.h"

#include "base/Rounding.h"
#include "report/HtmlParts.h"
#include "report/ReportNumbersJson.h"
#include "report/SimulationReport.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <set>
#include <vector>

namespace sl {

namespace {

using namespace html;

// ---- the top of the page: header, headline, cards, scenarios, pictures (the per-rank sections:
// HtmlSections.cpp) -----------------------------------------------------------------------------------

std::string header(const ReportNumbers& n) {
    std::string h = "<header><div class=\"brand\">Sightline</div><h1>Simulation report</h1>";
    const ReportSource src = n.source.value_or(ReportSource{});
    h += "<dl class=\"meta\"><dt>Traces</dt><dd>";
    if (src.paths.empty()) h += "<span class=\"muted\">(not recorded)</span>";
    for (const auto& p : src.paths)
        h += "<code class=\"path\">" + esc(p) + "</code>";
    h += "</dd><dt>Window</dt><dd>";
    h += src.step >= 0 ? "ProfilerStep#" + std::to_string(src.step) : std::string("whole trace");
    h += " &middot; " + std::to_string(n.run.ranks.size()) + " ranks</dd>";
    h += "<dt>Knobs</dt><dd>";
    const nlohmann::json& knobs = n.knobs;
    const std::vector<std::string>& changed = n.changedKnobs;
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

std::string cards(const ReportNumbers& n) {
    const SimulationNumbers& it = n.run;
    const KernelStartNumbers ks = it.kernelStart.value_or(KernelStartNumbers{});
    const bool whatIf = !n.changedKnobs.empty();
    double meas = it.measuredUs.value_or(0), sim = it.simulatedUs;
    auto card = [](const std::string& label, const std::string& value, const std::string& note,
                   const char* cls = "") {
        return std::string("<div class=\"card ") + cls + "\"><div class=\"label\">" + label +
               "</div><div class=\"value\">" + value + "</div><div class=\"note\">" + note + "</div></div>";
    };
    std::string s = "<section class=\"cards\">";
    const bool measured = it.measuredTimes;
    s += measured ? card("Measured iteration", duration(meas), "first event to last event, over all ranks")
                  : card("Measured iteration", "&mdash;", "no measured times in this input (Chakra)");
    // With the batch given (docs/Scaling.md): the samples (tokens) per second of the simulated step.
    const std::string& rate = it.rateNote;
    s += card("Simulated iteration", duration(sim),
              std::string(whatIf ? "with the knobs above" : "replay, knobs at defaults") +
                  (rate.empty() ? "" : "; " + esc(rate)),
              "accent");
    if (whatIf && measured) {
        double change = meas > 0 ? 100.0 * (sim - meas) / meas : 0.0;
        const bool same = std::abs(change) < 0.05;
        const char* note = same         ? "iteration as measured"
                           : change < 0 ? "faster than measured"
                                        : "slower than measured";
        s += card("What-if change", same ? "0.0 %" : (change > 0 ? "+" : "") + fmt(change, 1) + " %", note,
                  same         ? ""
                  : change < 0 ? "good"
                               : "bad");
    } else if (measured) {
        s += card("Replay error", fmt(it.errorPct.value_or(0), 2) + " %",
                  "|simulated &minus; measured| / measured");
    }
    s += card("Critical path", duration(it.criticalPathUs), "across ranks, through collectives");
    auto short2 = [](double v) { return fmt(v, v >= 100 ? 0 : 2); };
    if (measured)
        s += card("Kernel start error", short2(ks.medianUs) + " / " + short2(ks.p90Us) + " µs",
                  "median / p90 over " + fmt(static_cast<double>(ks.count), 0) + " GPU ops" +
                      (whatIf ? " (knobs move starts on purpose)" : ""));
    s += "</section>";
    return s;
}

// "compute.speedup = 2, comm.speedup = 1.5": the keys with their values from a knobs object.
std::string knobValues(const std::vector<std::string>& keys, const nlohmann::json& knobs) {
    std::string out;
    for (const auto& k : keys) {
        out += (out.empty() ? "" : ", ") + k;
        if (knobs.is_object() && knobs.contains(k)) out += " = " + knobText(knobs[k]);
    }
    return out;
}

// A scenario's numbers as the report's "scenarios" array writes them (report/Report.h).
struct ScenarioFigures {
    std::vector<std::string> keys; // the changed knobs
    nlohmann::json knobs;          // SimKnobs::toJson()
    std::optional<double> throughput, efficiency, samplesPerSecond;
    std::string throughputNote, rateNote;

    explicit ScenarioFigures(const ScenarioRow& r) : knobs(r.knobs.toJson()) {
        keys = changedKnobs(knobs);
        if (r.throughput.applies) {
            throughput = pct(r.throughput.throughputRatio);
            efficiency = pct(r.throughput.efficiency);
            throughputNote = r.throughput.sentence;
        }
        if (r.rate.known()) {
            if (r.rate.samplesPerSecond > 0) samplesPerSecond = pct(r.rate.samplesPerSecond);
            rateNote = rateText(r.rate);
        }
    }
};

// The kind holding most of the critical path, in words: "GPU compute (62% of the critical path)".
std::string largestPathKind(const SimulationNumbers& n) {
    double best = -1;
    std::string out;
    const std::vector<PathKind> kinds = pathKinds();
    for (std::size_t l = 0; l < kinds.size(); ++l) {
        const PathKind& k = kinds[l];
        const double pct = n.criticalPath[l].pct;
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
std::string headlineSection(const ReportNumbers& n, const Report& report) {
    const SimulationNumbers& it = n.run;
    const nlohmann::json& knobs = n.knobs;
    std::string win, limit = report.limit.value_or("");
    const std::vector<ScenarioRow>& sc = report.scenarios;
    if (sc.size() >= 2) {
        // The best scenario: the highest throughput where the work changed, else the shortest step.
        const ScenarioRow* best = nullptr;
        const double baseUs = sc[0].iterationUs;
        auto score = [baseUs](const ScenarioRow& r) {
            const double t = ScenarioFigures(r).throughput.value_or(0), us = r.iterationUs;
            return t > 0 ? t : (us > 0 ? baseUs / us : 0.0);
        };
        for (std::size_t i = 1; i < sc.size(); ++i)
            if (!best || score(sc[i]) > score(*best)) best = &sc[i];
        const ScenarioRow& b = *best;
        const ScenarioFigures bf(b);
        // A scenario that does worse than the baseline is no win, however it ranks among the others.
        const bool wins = score(b) > 1.0;
        win = std::string(wins ? "<b>Biggest win: " : "<b>No scenario beats the baseline; the closest: ") +
              esc(b.name) + "</b>";
        const std::string values = knobValues(bf.keys, bf.knobs);
        // A scenario named by its knobs (the GUI's default name) says them once.
        if (!bf.keys.empty() && values != b.name) win += " (" + esc(values) + ")";
        // Where the work per step changed, the throughput is the answer and leads; the step's length
        // follows ("7.03x baseline throughput ...; the step 4.21 ms -> 4.79 ms ...").
        if (bf.throughput)
            win += ": " + esc(bf.throughputNote) + "; the step " + changeWords(baseUs, b.iterationUs);
        else
            win += ": " + changeWords(baseUs, b.iterationUs);
        if (!bf.rateNote.empty()) win += "; " + esc(bf.rateNote);
        // What limits the scenario named here, not the run the window showed at the export.
        if (!b.limit.empty()) limit = b.limit;
        if (limit.empty()) limit = sc[0].limit;
    } else {
        const std::vector<std::string>& changed = n.changedKnobs;
        // The batch (batch.samples, batch.tokens) describes the trace: no what-if of its own.
        std::vector<std::string> whatIf;
        for (const auto& k : changed)
            if (k.rfind("batch.", 0) != 0) whatIf.push_back(k);
        if (whatIf.empty() && !it.measuredTimes)
            win = "<b>Simulation of the execution trace</b>: " + duration(it.simulatedUs) +
                  " per step (no measured times to compare with)";
        else if (whatIf.empty())
            win = "<b>Replay of the trace</b>: " + duration(it.simulatedUs) + " per step, within " +
                  fmt(it.errorPct.value_or(0), 1) + "% of the measured " +
                  duration(it.measuredUs.value_or(0));
        else {
            const double base = it.baselineUs.value_or(it.measuredUs.value_or(0));
            win = "<b>" + esc(knobValues(whatIf, knobs)) + "</b>: " + changeWords(base, it.simulatedUs);
        }
        if (!it.rateNote.empty()) win += "; " + esc(it.rateNote);
        if (it.throughputVsBaseline) win += "; " + esc(it.throughputNote);
    }
    if (limit.empty()) limit = largestPathKind(it);
    std::string s = "<section class=\"headline\"><p class=\"win\">" + win + "</p>";
    if (!limit.empty()) s += "<p class=\"limit\">What limits the step: " + esc(limit) + "</p>";
    s += "</section>";
    return s;
}

// The what-if scenarios the GUI compared (its File > Export Report adds them): name, knobs with
// their values, iteration and change against the first (the baseline), throughput where the work
// per step changed (docs/Scaling.md), what limits the step; a bar chart of the iterations.
std::string scenariosSection(const std::vector<ScenarioRow>& sc) {
    if (sc.empty()) return {};
    bool throughput = false, samples = false;
    double most = 0;
    for (const ScenarioRow& r : sc) {
        const ScenarioFigures f(r);
        throughput = throughput || f.throughput;
        samples = samples || f.samplesPerSecond;
        most = std::max(most, r.iterationUs);
    }
    std::string s = "<section><h2>Scenarios</h2><p class=\"lead\">Every what-if scenario of the session, "
                    "simulated on the same traces; the change is against the first (the baseline).</p>";
    // Bars: one per scenario, the baseline grey, the faster ones green, the slower ones red.
    const double labelW = 220, plotW = 640, rightW = 100, rowH = 26, barH = 18, top = 6;
    const double height = top + static_cast<double>(sc.size()) * rowH + 24;
    s += "<svg class=\"chart\" viewBox=\"0 0 " + svgNum(labelW + plotW + rightW) + " " + svgNum(height) +
         "\" role=\"img\" aria-label=\"iteration per scenario\">";
    if (most > 0) s += grid(labelW, plotW, top - 2, height - top - 20, most);
    const double baseUs = sc[0].iterationUs;
    for (std::size_t i = 0; i < sc.size(); ++i) {
        const ScenarioRow& r = sc[i];
        const double us = r.iterationUs, y = top + static_cast<double>(i) * rowH;
        const std::string color = i == 0        ? kMeasuredColor
                                  : us < baseUs ? "#2b8a3e"
                                  : us > baseUs ? "#c92a2a"
                                                : kSimulatedColor;
        s += svgText(labelW - 10, y + barH - 4, r.name, "label", "end");
        s += rect(labelW, y, most > 0 ? plotW * us / most : 0, barH, color, r.name + ": " + duration(us));
        s += svgText(labelW + (most > 0 ? plotW * us / most : 0) + 6, y + barH - 4, duration(us), "tag");
    }
    s += "</svg><table class=\"num top\"><thead><tr><th>Scenario</th><th class=\"l\">Knobs</th>"
         "<th>Iteration</th><th>vs baseline</th>";
    if (throughput) s += "<th>Throughput</th><th>Scaling eff.</th>";
    if (samples) s += "<th>Samples/s</th>";
    s += "<th class=\"l\">What limits the step</th></tr></thead><tbody>";
    for (const ScenarioRow& r : sc) {
        const ScenarioFigures f(r);
        const std::string knobs = knobValues(f.keys, f.knobs);
        const double change = r.vsBaselinePct;
        s += "<tr><th class=\"name\">" + esc(r.name) + "</th><td class=\"src\">" +
             esc(knobs.empty() ? std::string("replay") : knobs) + "</td><td>" + duration(r.iterationUs) +
             "</td><td>" + (change > 0 ? "+" : "") + fmt(change, 1) + " %</td>";
        if (throughput)
            s += f.throughput ? "<td title=\"" + esc(f.throughputNote) + "\">" + fmt(*f.throughput, 2) +
                                    "x</td><td>" + fmt(100.0 * f.efficiency.value_or(0), 0) + " %</td>"
                              : std::string("<td class=\"muted\">same work</td><td></td>");
        if (samples)
            s += f.samplesPerSecond
                     ? "<td title=\"" + esc(f.rateNote) + "\">" + fmt(*f.samplesPerSecond, 0) + "</td>"
                     : std::string("<td></td>");
        s += "<td class=\"src\">" + esc(r.limit) + "</td></tr>";
    }
    s += "</tbody></table></section>";
    return s;
}

// An <svg> element without its namespace declarations (xmlns, xmlns:xlink): HTML gives inline SVG
// its namespace, and the page then names no URL at all.
std::string withoutNamespaces(std::string svg) {
    for (const char* attr : {" xmlns:xlink=\"", " xmlns=\""}) {
        const auto close = svg.find('>'), b = svg.find(attr);
        if (b == std::string::npos || b > close) continue;
        const auto e = svg.find('"', b + std::strlen(attr));
        if (e != std::string::npos) svg.erase(b, e + 1 - b);
    }
    return svg;
}

// Timeline pictures the GUI's export adds ({name, caption, svg}: inline SVG it rendered itself,
// no scripts or links in it); the part before the <svg element (XML declaration) is left out.
std::string figuresSection(const std::vector<ReportFigure>& figures) {
    if (figures.empty()) return {};
    std::string s =
        "<section><h2>Timelines</h2><p class=\"lead\">Each scenario's simulated timeline under the "
        "measured one, as File &gt; Export Figure renders it, and the sweep's plot when a sweep ran.</p>";
    for (const ReportFigure& f : figures) {
        const auto at = f.svg.find("<svg");
        if (at == std::string::npos || f.svg.find("<script") != std::string::npos) continue;
        s += "<figure class=\"timeline\"><figcaption><b>" + esc(f.name) + "</b> &middot; " + esc(f.caption) +
             "</figcaption>" + withoutNamespaces(f.svg.substr(at)) + "</figure>";
    }
    s += "</section>";
    return s;
}

} // namespace

SpanSegments spanSegments(const nlohmann::json& breakdown) {
    return spanSegments(readBreakdown(breakdown));
}

SpanSegments spanSegments(const BreakdownNumbers& b) {
    SpanSegments s;
    double compute = b.computeUs, comm = b.commUs, exposed = b.exposedCommUs;
    double idle = b.idleUs, span = b.gpuSpanUs;
    s.overlappedComm = std::max(0.0, comm - exposed);
    s.computeOnly = std::max(0.0, compute - s.overlappedComm);
    s.exposedComm = std::max(0.0, exposed);
    s.idle = std::max(0.0, idle);
    s.other = std::max(0.0, span - compute - exposed - idle);
    return s;
}

std::string htmlReport(const Report& typed) {
    // The typed numbers (report/SimulationNumbers.h): no section reads the JSON by key.
    const ReportNumbers numbers = reportNumbers(typed);
    std::string h = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                    "<title>Sightline report</title><style>";
    h += html::reportCss();
    h += "</style></head><body><main>";
    h += header(numbers);
    h += headlineSection(numbers, typed);
    h += cards(numbers);
    h += scenariosSection(typed.scenarios);
    h += figuresSection(typed.figures);
    h += breakdownSection(numbers.run.ranks, numbers.run.measuredTimes);
    h += gpuSwapSection(numbers.run.gpuSwap);
    h += criticalPathSection(numbers.run);
    h += accuracySection(numbers.run);
    h += warningsSection(numbers.warnings);
    // Who wrote it: the program and its version, and where (the CLI's report or the GUI's export).
    const std::string generator = typed.generator.value_or("");
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
