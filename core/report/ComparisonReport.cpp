#include "report/ComparisonReport.h"

#include "analysis/TraceInfo.h"
#include "base/Rounding.h"
#include "graph/ChakraGraph.h"
#include "io/LoadError.h"
#include "report/CsvReport.h"
#include "report/HtmlReport.h"
#include "report/SimulationReport.h"
#include "sim/Simulator.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace sl {

namespace {

nlohmann::json rowJson(const TimeRow& r) {
    return {{"key", r.key},
            {"before_us", us(r.before)},
            {"after_us", us(r.after)},
            {"delta_us", us(r.delta())},
            {"delta_pct", pct(r.deltaPct())},
            {"count_before", r.countBefore},
            {"count_after", r.countAfter},
            {"noise_us", us(r.noise)},
            {"changed", r.changed()}};
}

nlohmann::json rowsJson(const std::vector<TimeRow>& rows, std::size_t maxRows) {
    nlohmann::json a = nlohmann::json::array();
    for (std::size_t i = 0; i < rows.size() && (maxRows == 0 || i < maxRows); ++i)
        a.push_back(rowJson(rows[i]));
    return a;
}

nlohmann::json predictedJson(const PredictedRow& r) {
    return {{"key", r.key},
            {"before_us", us(r.before)},
            {"predicted_us", us(r.predicted)},
            {"actual_us", us(r.actual)},
            {"error_us", us(r.error())},
            {"error_pct", pct(r.errorPct())},
            {"unchanged_error_pct", pct(r.unchangedErrorPct())},
            {"worse_than_no_change", r.worseThanNoChange()},
            {"count", r.count}};
}

// ---- HTML -----------------------------------------------------------------------------------------

std::string num(double v, int decimals = 2) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

double dbl(const nlohmann::json& o, const char* key) {
    auto it = o.find(key);
    return it != o.end() && it->is_number() ? it->get<double>() : 0.0;
}

std::string str(const nlohmann::json& o, const char* key) {
    auto it = o.find(key);
    if (it == o.end() || it->is_null()) return "";
    return it->is_string() ? it->get<std::string>() : it->dump();
}

std::string signedPctText(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%+.1f%%", v);
    return buf;
}

// A delta cell: green when faster, red when slower, grey when within the noise.
std::string deltaCell(const nlohmann::json& row) {
    const double d = dbl(row, "delta_us");
    const bool changed = row.value("changed", false);
    const char* cls = !changed ? "noise" : d < 0 ? "faster" : "slower";
    std::string t =
        num(d) + " (" + (dbl(row, "before_us") > 0 ? signedPctText(dbl(row, "delta_pct")) : "new") + ")";
    if (!changed && d != 0) t += " noise";
    return "<td class=\"" + std::string(cls) + "\">" + htmlEscape(t) + "</td>";
}

// Two bars, before (grey) over after (blue), scaled to `max`.
std::string bars(double before, double after, double max) {
    auto w = [&](double v) { return max > 0 ? std::max(0.0, 100.0 * v / max) : 0.0; };
    return "<td class=\"bars\"><div class=\"b\" style=\"width:" + num(w(before), 1) +
           "%\"></div><div class=\"a\" style=\"width:" + num(w(after), 1) + "%\"></div></td>";
}

std::string timeTable(const nlohmann::json& rows, const char* keyHeader, bool withBars) {
    if (!rows.is_array() || rows.empty()) return "<p class=\"foot\">none</p>";
    double max = 0;
    for (const auto& r : rows)
        max = std::max({max, dbl(r, "before_us"), dbl(r, "after_us")});
    std::string h =
        "<div class=\"scroll\"><table><tr><th>" + std::string(keyHeader) +
        "</th><th>before µs</th><th>after µs</th><th>delta µs</th><th>count</th><th>noise µs</th>" +
        (withBars ? "<th class=\"bars\">before / after</th>" : "") + "</tr>";
    for (const auto& r : rows) {
        h += "<tr><td class=\"key\">" + htmlEscape(str(r, "key")) + "</td><td>" + num(dbl(r, "before_us")) +
             "</td><td>" + num(dbl(r, "after_us")) + "</td>" + deltaCell(r) + "<td>" +
             str(r, "count_before") + " → " + str(r, "count_after") + "</td><td>" + num(dbl(r, "noise_us")) +
             "</td>";
        if (withBars) h += bars(dbl(r, "before_us"), dbl(r, "after_us"), max);
        h += "</tr>";
    }
    return h + "</table></div>";
}

constexpr const char* kStyle = R"CSS(
body{margin:0;background:#f8f9fa;color:#212529;font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif}
main{max-width:1100px;margin:0 auto;padding:24px 28px 40px}
section,header{background:#fff;border:1px solid #e9ecef;border-radius:10px;padding:18px 24px;margin-bottom:16px}
.brand{font-size:12px;font-weight:600;letter-spacing:.12em;text-transform:uppercase;color:#1c7ed6}
h1{font-size:24px;margin:2px 0 10px}h2{font-size:17px;margin:0 0 8px}
.verdict{font-size:15px;margin:8px 0 0}.warn{color:#a64b00}
table{border-collapse:collapse;font-variant-numeric:tabular-nums;width:100%}
th,td{padding:3px 10px 3px 0;text-align:right;border-bottom:1px solid #f1f3f5;white-space:nowrap}
th{font-size:12px;color:#6c757d;font-weight:600}
td.key,th:first-child{text-align:left;max-width:420px;overflow:hidden;text-overflow:ellipsis;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12.5px}
td.faster{color:#2b8a3e;font-weight:600}td.slower{color:#c92a2a;font-weight:600}td.noise{color:#868e96}
td.bars,th.bars{width:220px;text-align:left}
td.bars div{height:6px;border-radius:2px;margin:1px 0}.b{background:#adb5bd}.a{background:#1c7ed6}
code,.path{font:12.5px ui-monospace,Menlo,Consolas,monospace;word-break:break-all}
.scroll{overflow-x:auto}p.foot{color:#6c757d;font-size:12px;margin:6px 0 0}
)CSS";

std::string pathsText(const nlohmann::json& paths) {
    std::string s;
    for (const auto& p : paths)
        s += "<div class=\"path\">" + htmlEscape(p.is_string() ? p.get<std::string>() : p.dump()) + "</div>";
    return s;
}

std::string predictionSection(const nlohmann::json& p) {
    std::string h = "<section><h2>Prediction vs actual</h2><p>The run before, simulated with ";
    std::string knobs;
    for (const auto& k : p.value("changed_knobs", nlohmann::json::array()))
        knobs += (knobs.empty() ? "" : ", ") + std::string("<code>") + htmlEscape(k.get<std::string>()) +
                 "</code>";
    h += knobs.empty() ? std::string("no knob (a replay)") : knobs;
    const nlohmann::json it = p.value("iteration", nlohmann::json::object());
    h += ", against the run after as measured: iteration predicted " + num(dbl(it, "predicted_us") / 1e3, 3) +
         " ms, actual " + num(dbl(it, "actual_us") / 1e3, 3) + " ms, error <b>" +
         num(dbl(it, "error_pct"), 2) +
         "%</b> (assuming no change: " + num(dbl(it, "unchanged_error_pct"), 2) + "%)" +
         (it.value("worse_than_no_change", false) ? std::string(": <b>WORSE than no change</b>")
                                                  : std::string()) +
         ".</p>";
    h += "<div class=\"scroll\"><table><tr><th>rank</th><th>before µs</th><th>predicted µs</th><th>actual "
         "µs</th><th>error %</th></tr>";
    for (const auto& r : p.value("ranks", nlohmann::json::array()))
        h += "<tr><td class=\"key\">" + str(r, "rank") + "</td><td>" + num(dbl(r, "before_us")) +
             "</td><td>" + num(dbl(r, "predicted_us")) + "</td><td>" + num(dbl(r, "actual_us")) +
             "</td><td>" + num(dbl(r, "error_pct"), 2) + "</td></tr>";
    h += "</table></div>";
    auto table = [&](const char* title, const nlohmann::json& rows) {
        std::string t =
            "<h2 style=\"margin-top:14px\">" + std::string(title) +
            "</h2><div class=\"scroll\"><table><tr><th>key</th><th>before µs</th><th>predicted "
            "µs</th><th>actual µs</th><th>error µs</th><th>error %</th><th>no-change error %</th></tr>";
        for (const auto& r : rows)
            t += "<tr><td class=\"key\">" + htmlEscape(str(r, "key")) + "</td><td>" +
                 num(dbl(r, "before_us")) + "</td><td>" + num(dbl(r, "predicted_us")) + "</td><td>" +
                 num(dbl(r, "actual_us")) + "</td><td>" + num(dbl(r, "error_us")) + "</td><td>" +
                 num(dbl(r, "error_pct"), 2) + "</td><td>" + num(dbl(r, "unchanged_error_pct"), 2) +
                 (r.value("worse_than_no_change", false) ? " (worse)" : "") + "</td></tr>";
        return t + "</table></div>";
    };
    h += table("Per kernel class", p.value("by_class", nlohmann::json::array()));
    h += table("Worst-predicted kernels", p.value("worst_kernels", nlohmann::json::array()));
    return h + "</section>";
}

void csvRows(std::string& out, const char* table, const std::string& rank, const nlohmann::json& rows) {
    if (!rows.is_array()) return;
    for (const auto& r : rows)
        for (const auto& [metric, v] : r.items()) {
            if (metric == "key") continue;
            out += std::string(table) + "," + rank + "," + csvField(str(r, "key")) + "," + metric + "," +
                   (v.is_string() ? csvField(v.get<std::string>()) : v.dump()) + "\n";
        }
}

} // namespace

nlohmann::json comparisonJson(const RunComparison& cmp, const ComparisonSource& source,
                              const PredictionCheck* prediction, const SimKnobs* knobs, std::size_t maxRows) {
    nlohmann::json j;
    j["before"] = {{"paths", source.before}};
    j["after"] = {{"paths", source.after}};
    j["step"] = source.step >= 0 ? nlohmann::json(source.step) : nlohmann::json(nullptr);
    j["ranks_paired_by"] = cmp.ranksById ? "id" : "order";
    j["alignment"] = {
        {"aligned_pct", pct(cmp.alignedSharePct())},
        {"comparable", cmp.comparable()},
        {"ops_before", cmp.opsBefore},
        {"ops_after", cmp.opsAfter},
        {"aligned_before", cmp.alignedBefore},
        {"aligned_after", cmp.alignedAfter},
        {"units_by", {{"name_shapes", cmp.unitsBy[0]}, {"name", cmp.unitsBy[1]}, {"cpu_op", cmp.unitsBy[2]}}},
        {"note", cmp.alignmentNote()}};
    j["only_before_ranks"] = cmp.onlyBefore;
    j["only_after_ranks"] = cmp.onlyAfter;
    j["warnings"] = cmp.warnings.lines();
    j["warning_stats"] = warningStatsJson(cmp.warnings);
    if (!cmp.comparable()) return j; // no table of numbers that mean nothing
    j["noise_pct"] = pct(cmp.noisePct);
    const double itDelta = static_cast<double>(cmp.iterationAfter - cmp.iterationBefore);
    j["iteration"] = {{"before_us", us(cmp.iterationBefore)},
                      {"after_us", us(cmp.iterationAfter)},
                      {"delta_us", us(cmp.iterationAfter - cmp.iterationBefore)},
                      {"delta_pct", cmp.iterationBefore > 0
                                        ? pct(100.0 * itDelta / static_cast<double>(cmp.iterationBefore))
                                        : 0.0}};
    j["verdict"] = cmp.verdict();
    nlohmann::json ranks = nlohmann::json::array();
    for (const auto& rc : cmp.ranks) {
        nlohmann::json r = {{"rank", rc.afterRank},
                            {"rank_before", rc.beforeRank},
                            {"aligned_pct", pct(rc.alignedSharePct())},
                            {"gpu_ops_before", rc.before.gpuOps},
                            {"gpu_ops_after", rc.after.gpuOps}};
        for (const auto& f : rc.figures) {
            nlohmann::json fj = rowJson(f);
            fj.erase("key");
            fj.erase("count_before");
            fj.erase("count_after");
            r[f.key] = std::move(fj);
        }
        r["by_class"] = rowsJson(rc.byClass, 0);
        ranks.push_back(std::move(r));
    }
    j["ranks"] = std::move(ranks);
    j["by_class"] = rowsJson(cmp.byClass, 0);
    j["by_kernel"] = rowsJson(cmp.byKernel, maxRows);
    j["by_cpu_op"] = rowsJson(cmp.byCpuOp, maxRows);
    j["kernels_total"] = cmp.byKernel.size();
    j["cpu_ops_total"] = cmp.byCpuOp.size();
    if (prediction) {
        nlohmann::json p;
        const nlohmann::json kj = knobs ? knobs->toJson() : nlohmann::json::object();
        std::vector<std::string> changed = changedKnobs(kj);
        nlohmann::json ck = nlohmann::json::array();
        for (const auto& k : changed)
            ck.push_back(k + "=" +
                         (kj.contains(k) ? (kj[k].is_string() ? kj[k].get<std::string>() : kj[k].dump())
                                         : std::string("?")));
        p["changed_knobs"] = ck;
        PredictedRow it;
        it.before = prediction->beforeIteration;
        it.predicted = prediction->predictedIteration;
        it.actual = prediction->actualIteration;
        nlohmann::json ij = predictedJson(it);
        ij.erase("key");
        ij.erase("count");
        p["iteration"] = ij;
        nlohmann::json pr = nlohmann::json::array();
        for (const auto& r : prediction->ranks)
            pr.push_back({{"rank", r.afterRank},
                          {"before_us", us(r.before)},
                          {"predicted_us", us(r.predicted)},
                          {"actual_us", us(r.actual)},
                          {"error_pct", pct(r.errorPct())},
                          {"unchanged_error_pct", pct(r.unchangedErrorPct())},
                          {"worse_than_no_change", r.worseThanNoChange()}});
        p["ranks"] = pr;
        p["worst_rank_error_pct"] = pct(prediction->worstRankErrorPct());
        nlohmann::json bc = nlohmann::json::array(), wk = nlohmann::json::array();
        for (const auto& r : prediction->byClass)
            bc.push_back(predictedJson(r));
        for (std::size_t i = 0; i < prediction->byKernel.size() && (maxRows == 0 || i < maxRows); ++i)
            wk.push_back(predictedJson(prediction->byKernel[i]));
        p["by_class"] = bc;
        p["worst_kernels"] = wk;
        p["warnings"] = prediction->warnings.lines();
        p["warning_stats"] = warningStatsJson(prediction->warnings);
        j["prediction"] = std::move(p);
    }
    return j;
}

std::string comparisonHtml(const nlohmann::json& j) {
    std::string h =
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" "
        "content=\"width=device-width,initial-scale=1\"><title>Sightline comparison</title><style>";
    h += kStyle;
    h += "</style></head><body><main><header><div class=\"brand\">Sightline</div><h1>Before and after</h1>";
    h += "<div><b>Before</b>" + pathsText(j["before"].value("paths", nlohmann::json::array())) + "</div>";
    h += "<div><b>After</b>" + pathsText(j["after"].value("paths", nlohmann::json::array())) + "</div>";
    if (!j["step"].is_null()) h += "<div>Window: ProfilerStep#" + j["step"].dump() + "</div>";
    const nlohmann::json al = j.value("alignment", nlohmann::json::object());
    const bool comparable = al.value("comparable", false);
    h += "<p class=\"verdict" + std::string(comparable ? "" : " warn") + "\">" +
         htmlEscape(comparable ? str(j, "verdict") : str(al, "note")) + "</p>";
    if (comparable)
        h += "<p class=\"foot\">" + htmlEscape(str(al, "note")) + "; ranks paired by " +
             htmlEscape(str(j, "ranks_paired_by")) + ". Run-to-run noise: kernels vary by ±" +
             num(dbl(j, "noise_pct"), 2) +
             "% between the runs; a change within a row's noise (3 sigma) is grey and called noise.</p>";
    for (const auto& w : j.value("warnings", nlohmann::json::array()))
        h += "<p class=\"foot warn\">" + htmlEscape(w.get<std::string>()) + "</p>";
    h += "</header>";
    if (!comparable) return h + "</main></body></html>\n";

    h += "<section><h2>Per rank</h2><div class=\"scroll\"><table><tr><th>rank</th>";
    static const char* kFigures[] = {"iteration", "compute", "communication", "exposed_comm", "idle", "wait"};
    for (const char* f : kFigures)
        h += "<th>" + std::string(f) + " before → after µs</th>";
    h += "<th>aligned %</th></tr>";
    for (const auto& r : j.value("ranks", nlohmann::json::array())) {
        h += "<tr><td class=\"key\">" + str(r, "rank") + "</td>";
        for (const char* f : kFigures) {
            const nlohmann::json fr = r.value(f, nlohmann::json::object());
            const bool changed = fr.value("changed", false);
            const double d = dbl(fr, "delta_us");
            h += "<td class=\"" +
                 std::string(!changed ? "noise"
                             : d < 0  ? "faster"
                                      : "slower") +
                 "\">" + num(dbl(fr, "before_us"), 0) + " → " + num(dbl(fr, "after_us"), 0) + "</td>";
        }
        h += "<td>" + num(dbl(r, "aligned_pct"), 1) + "</td></tr>";
    }
    h += "</table></div><p class=\"foot\">Green: faster, red: slower, grey: within the run-to-run noise. "
         "Definitions as Holistic Trace Analysis: compute and communication are unions of kernels, exposed "
         "communication is communication no compute kernel overlaps, idle is the GPU span no op covers; wait "
         "is "
         "collective time spent waiting for peers.</p></section>";
    h += "<section><h2>GPU time per kernel class</h2>" +
         timeTable(j.value("by_class", nlohmann::json::array()), "class", true) + "</section>";
    h += "<section><h2>Kernels with the largest change</h2>" +
         timeTable(j.value("by_kernel", nlohmann::json::array()), "kernel", true) + "<p class=\"foot\">" +
         str(j, "kernels_total") + " kernel names in all.</p></section>";
    h += "<section><h2>CPU ops whose kernels changed most</h2>" +
         timeTable(j.value("by_cpu_op", nlohmann::json::array()), "launching CPU op", true) + "</section>";
    if (j.contains("prediction")) h += predictionSection(j["prediction"]);
    h += "<footer class=\"foot\">Written by sightline-cli compare. Self-contained: no scripts, no network "
         "resources. The same numbers: --json, or --out F.csv.</footer></main></body></html>\n";
    return h;
}

std::string comparisonCsv(const nlohmann::json& j) {
    std::string out = "table,rank,key,metric,value\n";
    const nlohmann::json al = j.value("alignment", nlohmann::json::object());
    for (const char* k :
         {"aligned_pct", "comparable", "ops_before", "ops_after", "aligned_before", "aligned_after"})
        if (al.contains(k)) out += std::string("alignment,,,") + k + "," + al[k].dump() + "\n";
    if (j.contains("noise_pct")) out += "noise,,,noise_pct," + j["noise_pct"].dump() + "\n";
    if (j.contains("iteration"))
        for (const auto& [k, v] : j["iteration"].items())
            out += "iteration,,," + k + "," + v.dump() + "\n";
    for (const auto& r : j.value("ranks", nlohmann::json::array())) {
        const std::string rank = str(r, "rank");
        for (const auto& [f, v] : r.items())
            if (v.is_object())
                for (const auto& [m, x] : v.items())
                    out += "rank," + rank + "," + f + "," + m + "," + x.dump() + "\n";
        csvRows(out, "rank_class", rank, r.value("by_class", nlohmann::json::array()));
    }
    csvRows(out, "class", "", j.value("by_class", nlohmann::json::array()));
    csvRows(out, "kernel", "", j.value("by_kernel", nlohmann::json::array()));
    csvRows(out, "cpu_op", "", j.value("by_cpu_op", nlohmann::json::array()));
    if (j.contains("prediction")) {
        const nlohmann::json& p = j["prediction"];
        const nlohmann::json iteration = p.value("iteration", nlohmann::json::object());
        for (const auto& [k, v] : iteration.items())
            out += "prediction_iteration,,," + k + "," + v.dump() + "\n";
        for (const auto& r : p.value("ranks", nlohmann::json::array()))
            for (const auto& [m, v] : r.items())
                if (m != "rank")
                    out += "prediction_rank," + str(r, "rank") + ",," + m + "," + v.dump() + "\n";
        csvRows(out, "prediction_class", "", p.value("by_class", nlohmann::json::array()));
        csvRows(out, "prediction_kernel", "", p.value("worst_kernels", nlohmann::json::array()));
    }
    return out;
}

std::string comparisonText(const nlohmann::json& report, ReportFormat format) {
    switch (format) {
    case ReportFormat::Html:
        return comparisonHtml(report);
    case ReportFormat::Csv:
        return comparisonCsv(report);
    case ReportFormat::Json:
        break;
    }
    return report.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

void requireMeasuredRun(const TraceSet& set, const std::string& path) {
    // A Chakra graph has durations but no measured timeline (docs/Chakra.md): nothing to compare.
    if (isUnmeasuredSet(set))
        throw LoadError(path,
                        "has no measured times (a Chakra execution trace): compare needs two measured runs");
}

ComparedRuns compareLoadedRuns(const ExecutionGraph& before, const ExecutionGraph& after,
                               const std::string& beforePath, const std::string& afterPath,
                               const SimKnobs& knobs, bool predict) {
    ComparedRuns out{compareRuns(before, after), std::nullopt};
    if (!out.comparison.comparable())
        throw LoadError(afterPath,
                        "cannot be compared with " + beforePath + ": " + out.comparison.alignmentNote());
    if (predict || !knobs.isReplay()) {
        SimResult res = simulate(before, knobs);
        out.prediction = checkPrediction(out.comparison, before, res, after);
    }
    return out;
}

} // namespace sl
