#include "CliCommon.h"
#include "SimSetup.h"

#include "analysis/CriticalPath.h"
#include "analysis/Sweep.h"
#include "analysis/Throughput.h"
#include "analysis/TraceInfo.h"
#include "base/Rounding.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <iostream>

namespace sl::cli {

namespace {

struct Point {
    std::string value; // empty: baseline
    SimKnobs knobs;
    TimeNs iteration = 0;
    double exposedMeanUs = 0, exposedMaxUs = 0;
    CriticalPath path;
    Warnings warnings;
    std::size_t ranks = 0; // ranks of the simulated job
    StepWork work;         // what the step does (analysis/Throughput.h)
};

std::vector<std::string> splitList(const std::string& s) {
    std::vector<std::string> out;
    std::size_t b = 0;
    while (true) {
        std::size_t e = s.find(',', b);
        out.push_back(s.substr(b, e == std::string::npos ? std::string::npos : e - b));
        if (e == std::string::npos) break;
        b = e + 1;
    }
    return out;
}

nlohmann::json pointJson(const Point& p, const Point& baseline) {
    const TimeNs base = baseline.iteration;
    nlohmann::json byKind = nlohmann::json::object();
    for (int l = 0; l < kPathLabelCount; ++l) {
        TimeNs t = p.path.byLabel[static_cast<std::size_t>(l)];
        byKind[std::string(pathLabelName(static_cast<PathLabel>(l)))] = {
            {"us", us(t)},
            {"pct", p.path.length > 0
                        ? std::round(1e5 * static_cast<double>(t) / static_cast<double>(p.path.length)) / 1e3
                        : 0.0}};
    }
    double change =
        base > 0 ? std::round(1e5 * static_cast<double>(p.iteration - base) / static_cast<double>(base)) / 1e3
                 : 0;
    nlohmann::json j = {{"iteration_us", us(p.iteration)},
                        {"ranks", p.ranks},
                        {"change_pct", change},
                        {"exposed_comm_us", p.exposedMeanUs},
                        {"exposed_comm_max_us", p.exposedMaxUs},
                        {"critical_path", {{"length_us", us(p.path.length)}, {"by_kind", byKind}}},
                        {"warnings", p.warnings.lines()},
                        {"warning_stats", warningStatsJson(p.warnings)}};
    // The work per step differs from the baseline's (dp.degree, pp.microbatches, model.layers):
    // throughput and scaling efficiency against it (docs/Scaling.md), as simulate --json names them.
    const Throughput t = throughputFrom(baseline.work, base, p.work, p.iteration);
    if (t.applies) {
        j["throughput_vs_baseline"] = pct(t.throughputRatio);
        j["scaling_efficiency"] = pct(t.efficiency);
        j["throughput_note"] = t.sentence;
    }
    // Samples and tokens per second where batch.samples / batch.tokens give the batch.
    nlohmann::json rate = nlohmann::json::object();
    addRateJson(rate, rateOf(p.knobs, p.work.samples, p.iteration));
    for (auto it = rate.begin(); it != rate.end(); ++it)
        j[it.key()] = it.value();
    return j;
}

Command makeSweepCommand() {
    return {"sweep", "simulate once per value of a knob (in parallel) and compare",
            "usage: sightline-cli sweep PATH... --set key=v1,v2,... [--set key=value]... [--config F.json]\n"
            "                           [--step N] [--json]\n"
            "\n"
            "Builds the execution graph once, then simulates the baseline (the fixed knobs) and every\n"
            "value of the swept knob, one thread per run on all cores. Prints per value: iteration\n"
            "time and its change vs the baseline, exposed communication (mean and max over ranks) and\n"
            "the critical-path composition (gpu_compute, gpu_comm, collective_wait, cpu,\n"
            "launch_latency, sync, idle). The swept --set is the one with a comma list (else the last\n"
            "--set, as a one-value sweep); every other --set and --config are fixed for all runs.\n"
            "\n"
            "  --json   print {knob, baseline, points[{value, iteration_us, ..., warnings, warning_stats}],\n"
            "           graph_warnings, graph_warning_stats} instead of a table (warning_stats: one counter\n"
            "           per kind of warning, as info's)\n"
            "  --et F|DIR  PyTorch execution traces for collective sizes (see simulate --help)\n",
            [](Args& args) {
                bool json = args.flag("--json");
                std::vector<std::string> sets = args.options("--set");
                std::string key;
                std::vector<std::string> values;
                std::vector<std::string> fixed;
                for (const auto& a : sets) {
                    auto eq = a.find('=');
                    bool list = eq != std::string::npos && a.find(',', eq) != std::string::npos &&
                                a.rfind("kernel.speedup[", 0) != 0;
                    if (a.rfind("kernel.speedup[", 0) == 0 && eq != std::string::npos) {
                        auto close = a.find("]=");
                        list = close != std::string::npos && a.find(',', close) != std::string::npos;
                        if (list) eq = close + 1;
                    }
                    if (!list) {
                        fixed.push_back(a);
                        continue;
                    }
                    if (!key.empty()) throw UsageError{"sweep: only one --set may list several values"};
                    key = a.substr(0, eq);
                    values = splitList(a.substr(eq + 1));
                }
                if (key.empty() && !fixed.empty()) { // no list: the last --set is a one-value sweep
                    auto eq = fixed.back().rfind("]=") != std::string::npos ? fixed.back().rfind("]=") + 1
                                                                            : fixed.back().find('=');
                    if (eq != std::string::npos && eq > 0) {
                        key = fixed.back().substr(0, eq);
                        values = {fixed.back().substr(eq + 1)};
                        fixed.pop_back();
                    }
                }
                if (key.empty())
                    throw UsageError{"sweep needs --set key=v1,v2,... (a knob with a list of values)"};
                SimSetup setup = parseSimSetup(args, "sweep", true);
                for (const auto& a : fixed) {
                    try {
                        setKnobAssignment(setup.knobs, a);
                    } catch (const KnobError& e) {
                        throw UsageError{std::string("--set: ") + e.what()};
                    }
                }
                std::vector<Point> points(values.size() + 1);
                points[0].knobs = setup.knobs;
                for (std::size_t i = 0; i < values.size(); ++i) {
                    points[i + 1].value = values[i];
                    points[i + 1].knobs = setup.knobs;
                    try {
                        setKnob(points[i + 1].knobs, key, values[i]);
                    } catch (const KnobError& e) {
                        throw UsageError{std::string("--set: ") + e.what()};
                    }
                }
                TraceSet set = loadWithProgress(setup.paths);
                ExecutionGraph g = buildGraphForCli(set, setup);
                std::vector<SimKnobs> knobs;
                for (const auto& p : points)
                    knobs.push_back(p.knobs);
                SweepOptions options;
                options.criticalPath = true;
                const std::vector<SweepRun> runs = runSweep(g, knobs, options);
                for (std::size_t i = 0; i < runs.size(); ++i) {
                    if (runs[i].error) std::rethrow_exception(runs[i].error);
                    Point& p = points[i];
                    p.iteration = runs[i].iteration;
                    p.warnings = runs[i].warnings;
                    p.ranks = runs[i].exposed.ranks;
                    p.exposedMeanUs = std::round(runs[i].exposed.meanNs / 10.0) / 100.0;
                    p.exposedMaxUs = us(runs[i].exposed.maxNs);
                    p.path = runs[i].path;
                    p.work = runs[i].work;
                }
                const TimeNs base = points[0].iteration;
                if (json) {
                    nlohmann::json j;
                    j["knob"] = key;
                    j["baseline"] = pointJson(points[0], points[0]);
                    j["points"] = nlohmann::json::array();
                    for (std::size_t i = 1; i < points.size(); ++i) {
                        nlohmann::json p = pointJson(points[i], points[0]);
                        p["value"] = points[i].value;
                        j["points"].push_back(p);
                    }
                    j["graph_warnings"] = g.warnings.lines();
                    j["graph_warning_stats"] = warningStatsJson(g.warnings);
                    std::cout << j.dump(2) << "\n";
                    return kExitOk;
                }
                std::printf("%-24s %14s %9s %14s %14s  %s\n", key.c_str(), "iteration_us", "change_%",
                            "exposed_us", "exp_max_us",
                            "critical path (% gpu_compute / gpu_comm / coll_wait / cpu / other)");
                for (const auto& p : points) {
                    auto pct = [&](PathLabel l) {
                        return p.path.length > 0
                                   ? 100.0 * static_cast<double>(p.path.byLabel[static_cast<int>(l)]) /
                                         static_cast<double>(p.path.length)
                                   : 0.0;
                    };
                    double other = 100.0 - pct(PathLabel::GpuCompute) - pct(PathLabel::GpuComm) -
                                   pct(PathLabel::CollectiveWait) - pct(PathLabel::Cpu);
                    double change =
                        base > 0 ? 100.0 * static_cast<double>(p.iteration - base) / static_cast<double>(base)
                                 : 0.0;
                    std::printf("%-24s %14.2f %+9.2f %14.2f %14.2f  %5.1f / %5.1f / %5.1f / %5.1f / %5.1f\n",
                                p.value.empty() ? "(baseline)" : p.value.c_str(), us(p.iteration), change,
                                p.exposedMeanUs, p.exposedMaxUs, pct(PathLabel::GpuCompute),
                                pct(PathLabel::GpuComm), pct(PathLabel::CollectiveWait), pct(PathLabel::Cpu),
                                std::max(0.0, other));
                    const Throughput t = throughputFrom(points[0].work, base, p.work, p.iteration);
                    if (t.applies) std::printf("%-24s %s\n", "", t.sentence.c_str());
                    const std::string rate = rateText(rateOf(p.knobs, p.work.samples, p.iteration));
                    if (!rate.empty()) std::printf("%-24s %s\n", "", rate.c_str());
                }
                std::vector<std::string> warns;
                for (const auto& p : points)
                    for (const Warning& w : p.warnings)
                        if (std::find(warns.begin(), warns.end(), w.text) == warns.end())
                            warns.push_back(w.text);
                if (!warns.empty()) std::printf("\nwarnings:\n");
                for (const auto& w : warns)
                    std::printf("  %s\n", w.c_str());
                return kExitOk;
            }};
}

CommandRegistrar registerSweep{makeSweepCommand()};

} // namespace

} // namespace sl::cli
