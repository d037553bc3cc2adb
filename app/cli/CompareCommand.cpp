// sightline-cli compare: two measured runs before and after a change, and a prediction held against
// the run that was made (docs/Compare.md).
#include "CliCommon.h"
#include "SimSetup.h"

#include "analysis/PredictionCheck.h"
#include "analysis/RunComparison.h"
#include "report/ComparisonReport.h"
#include "report/ReportWriter.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>

namespace sl::cli {

namespace {

std::string cut(std::string s, std::size_t n) {
    if (s.size() > n) s = s.substr(0, n - 3) + "...";
    return s;
}

void printRows(const char* title, const nlohmann::json& rows, std::size_t limit, std::size_t total) {
    std::printf("\n%-52s %13s %13s %13s %8s %13s %11s\n", title, "before_us", "after_us", "delta_us",
                "delta_%", "noise_us", "count");
    std::size_t i = 0;
    for (const auto& r : rows) {
        if (i++ >= limit) break;
        const std::string count = std::to_string(r["count_before"].get<long long>()) + "->" +
                                  std::to_string(r["count_after"].get<long long>());
        std::printf("%-52s %13.2f %13.2f %13.2f %8.2f %13.2f %11s%s\n",
                    cut(r["key"].get<std::string>(), 52).c_str(), r["before_us"].get<double>(),
                    r["after_us"].get<double>(), r["delta_us"].get<double>(), r["delta_pct"].get<double>(),
                    r["noise_us"].get<double>(), count.c_str(),
                    r["changed"].get<bool>() ? "" : (r["delta_us"].get<double>() != 0 ? "  noise" : ""));
    }
    if (total > limit) std::printf("(%zu more; --json or --out F.csv for all)\n", total - limit);
}

void printTable(const nlohmann::json& j, std::size_t top) {
    std::printf("%s\n", j["verdict"].get<std::string>().c_str());
    std::printf("%s; ranks paired by %s\n", j["alignment"]["note"].get<std::string>().c_str(),
                j["ranks_paired_by"].get<std::string>().c_str());
    std::printf(
        "run-to-run noise: kernels vary by +-%.2f%% between the runs (rows within 3 sigma say 'noise')\n",
        j["noise_pct"].get<double>());
    for (const auto& w : j["warnings"])
        std::printf("warning: %s\n", w.get<std::string>().c_str());
    std::printf("\n%-6s %22s %9s %9s %9s %9s %9s %9s %8s\n", "rank", "iteration_us b->a", "iter_%",
                "compute_%", "comm_%", "exposed_%", "idle_%", "wait_%", "aligned%");
    for (const auto& r : j["ranks"]) {
        auto d = [&](const char* f) {
            const auto& x = r[f];
            return x["before_us"].get<double>() > 0 ? x["delta_pct"].get<double>() : 0.0;
        };
        char it[64];
        std::snprintf(it, sizeof it, "%.0f->%.0f", r["iteration"]["before_us"].get<double>(),
                      r["iteration"]["after_us"].get<double>());
        std::printf("%-6d %22s %+9.2f %+9.2f %+9.2f %+9.2f %+9.2f %+9.2f %8.1f\n", r["rank"].get<int>(), it,
                    d("iteration"), d("compute"), d("communication"), d("exposed_comm"), d("idle"), d("wait"),
                    r["aligned_pct"].get<double>());
    }
    printRows("kernel class", j["by_class"], 64, j["by_class"].size());
    printRows("kernel", j["by_kernel"], top, j["kernels_total"].get<std::size_t>());
    printRows("launching CPU op", j["by_cpu_op"], top, j["cpu_ops_total"].get<std::size_t>());
    if (!j.contains("prediction")) return;
    const auto& p = j["prediction"];
    std::string knobs;
    for (const auto& k : p["changed_knobs"])
        knobs += (knobs.empty() ? "" : " ") + k.get<std::string>();
    // A prediction further off than assuming no change says so in words.
    auto worse = [](const nlohmann::json& row) {
        return row.value("worse_than_no_change", false) ? "  WORSE than no change" : "";
    };
    std::printf(
        "\nprediction (before + %s) vs after as measured: iteration %.2f us predicted, %.2f us actual, "
        "error %.2f%% (no change assumed: %.2f%%)%s\n",
        knobs.empty() ? "no knob" : knobs.c_str(), p["iteration"]["predicted_us"].get<double>(),
        p["iteration"]["actual_us"].get<double>(), p["iteration"]["error_pct"].get<double>(),
        p["iteration"]["unchanged_error_pct"].get<double>(), worse(p["iteration"]));
    std::printf("%-6s %14s %14s %14s %9s %9s\n", "rank", "before_us", "predicted_us", "actual_us", "error_%",
                "nochg_%");
    for (const auto& r : p["ranks"])
        std::printf("%-6d %14.2f %14.2f %14.2f %9.2f %9.2f%s\n", r["rank"].get<int>(),
                    r["before_us"].get<double>(), r["predicted_us"].get<double>(),
                    r["actual_us"].get<double>(), r["error_pct"].get<double>(),
                    r["unchanged_error_pct"].get<double>(), worse(r));
    auto predRows = [&](const char* title, const nlohmann::json& rows, std::size_t limit) {
        std::printf("\n%-52s %13s %13s %13s %9s %9s\n", title, "before_us", "predicted_us", "actual_us",
                    "error_%", "nochg_%");
        std::size_t i = 0;
        for (const auto& r : rows) {
            if (i++ >= limit) break;
            std::printf("%-52s %13.2f %13.2f %13.2f %9.2f %9.2f%s\n",
                        cut(r["key"].get<std::string>(), 52).c_str(), r["before_us"].get<double>(),
                        r["predicted_us"].get<double>(), r["actual_us"].get<double>(),
                        r["error_pct"].get<double>(), r["unchanged_error_pct"].get<double>(), worse(r));
        }
    };
    predRows("kernel class (predicted)", p["by_class"], 64);
    predRows("worst-predicted kernels", p["worst_kernels"], top);
    for (const auto& w : p["warnings"])
        std::printf("warning: %s\n", w.get<std::string>().c_str());
}

Command makeCompareCommand() {
    return {
        "compare", "two measured runs before and after a change; a prediction against the run that was made",
        "usage: sightline-cli compare BEFORE AFTER [--step N] [--set key=value]... [--config F.json]\n"
        "                             [--predict] [--json] [--out F.html|F.csv|F.json] [--top N]\n"
        "\n"
        "BEFORE and AFTER are traces (a file, or a folder of per-rank files) of two runs of one program.\n"
        "Ranks pair by rank id (by order when the runs share none). Within a rank the GPU ops align by\n"
        "kernel name and the launching op's input shapes, by name, and where names differ (another GPU\n"
        "vendor or library version) through the CPU op that launched them; the aligned share is printed,\n"
        "and runs under 50% aligned are not one program (exit 2). Per rank: iteration, compute,\n"
        "communication, exposed communication, idle and collective wait, before and after (HTA\n"
        "definitions); per kernel class, kernel and launching CPU op: time before, after, delta, count\n"
        "and the run-to-run noise (3 sigma, from the spread of instances of one kernel): a change within\n"
        "it is marked 'noise'.\n"
        "\n"
        "  --step N          compare ProfilerStep#N of both runs\n"
        "  --set key=value   knobs (repeatable; see sightline-cli knobs): BEFORE is simulated with them and\n"
        "                    the prediction is held against AFTER as measured: iteration per rank, GPU time\n"
        "                    per class and per kernel, the error, the worst-predicted kernels\n"
        "  --config F.json   knobs from a JSON file (as --set)\n"
        "  --predict         the prediction check without knobs (a replay of BEFORE against AFTER)\n"
        "  --json            print one JSON object (all kernels unless --top)\n"
        "  --out F           also write the report: .html (a self-contained page to send), .csv, .json\n"
        "  --top N           rows of the kernel and CPU op tables (15 in the table, 40 in HTML, all in\n"
        "                    CSV / JSON)\n"
        "\n"
        "JSON: alignment.{aligned_pct, comparable, ops_before, ops_after, units_by, note}; noise_pct;\n"
        "iteration.{before_us, after_us, delta_us, delta_pct}; verdict; ranks[].{rank, aligned_pct,\n"
        "iteration|compute|communication|exposed_comm|idle|wait|unexplained_wait.{before_us, after_us,\n"
        "delta_us, delta_pct, noise_us, changed}, by_class[]}; by_class[], by_kernel[], by_cpu_op[] rows\n"
        "{key, before_us, after_us, delta_us, delta_pct, count_before, count_after, noise_us, changed};\n"
        "prediction.{changed_knobs, iteration.{before_us, predicted_us, actual_us, error_pct,\n"
        "unchanged_error_pct, worse_than_no_change}, ranks[], by_class[], worst_kernels[], warnings[],\n"
        "warning_stats[]} (every prediction row has unchanged_error_pct, the error of assuming no change,\n"
        "and worse_than_no_change: true where the prediction is further off; the text says\n"
        "'WORSE than no change');\n"
        "warnings[] (the lines) and warning_stats[] ({key, severity, count, lines, message, example}).\n",
        [](Args& args) {
            const bool json = args.flag("--json");
            const bool predict = args.flag("--predict");
            const auto out = args.option("--out");
            const auto topText = args.option("--top");
            SimSetup setup = parseSimSetup(args, "compare", true);
            if (!setup.etPaths.empty())
                throw UsageError{"compare does not take --et (the two runs are compared as traced)"};
            if (setup.paths.size() != 2)
                throw UsageError{"compare takes exactly two paths, BEFORE and AFTER (got " +
                                 std::to_string(setup.paths.size()) + ")"};
            std::optional<ReportFormat> format;
            if (out) {
                format = reportFormatOf(*out);
                if (!format) throw UsageError{"--out: " + *out + " must end in .html, .csv or .json"};
            }
            const std::size_t top = topText ? static_cast<std::size_t>(nonNegativeInt("--top", *topText)) : 0;
            SimSetup before = setup, after = setup;
            before.paths = {setup.paths[0]};
            after.paths = {setup.paths[1]};
            before.etPaths.clear();
            after.etPaths.clear();
            TraceSet setBefore = loadWithProgress(before.paths);
            TraceSet setAfter = loadWithProgress(after.paths);
            requireMeasuredRun(setBefore, before.paths[0]);
            requireMeasuredRun(setAfter, after.paths[0]);
            ExecutionGraph gBefore = buildGraphForCli(setBefore, before);
            ExecutionGraph gAfter = buildGraphForCli(setAfter, after);
            const ComparedRuns runs =
                compareLoadedRuns(gBefore, gAfter, setup.paths[0], setup.paths[1], setup.knobs, predict);
            const RunComparison& cmp = runs.comparison;
            ComparisonSource src{before.paths, after.paths, setup.step};
            const PredictionCheck* pc = runs.prediction ? &*runs.prediction : nullptr;
            if (out) {
                // A page people read keeps the 40 largest changes per table (unless --top); CSV and JSON all.
                const std::size_t rows = *format == ReportFormat::Html && top == 0 ? 40 : top;
                const nlohmann::json full = comparisonJson(cmp, src, pc, &setup.knobs, rows);
                writeTextFile(*out, comparisonText(full, *format));
            }
            const nlohmann::json j =
                comparisonJson(cmp, src, pc, &setup.knobs, json ? top : std::max<std::size_t>(top, 15));
            if (json)
                std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
            else
                printTable(j, top ? top : 15);
            return kExitOk;
        }};
}

CommandRegistrar registerCompare{makeCompareCommand()};

} // namespace

} // namespace sl::cli
