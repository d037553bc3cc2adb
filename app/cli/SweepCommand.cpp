#include "CliCommon.h"
#include "SimSetup.h"

#include "analysis/CriticalPath.h"
#include "analysis/Sweep.h"
#include "analysis/Throughput.h"
#include "analysis/TraceInfo.h"
#include "base/Rounding.h"
#include "report/SweepReport.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <iostream>

namespace sl::cli {

namespace {

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
                std::vector<SimKnobs> knobs(values.size() + 1, setup.knobs);
                for (std::size_t i = 0; i < values.size(); ++i) {
                    try {
                        setKnob(knobs[i + 1], key, values[i]);
                    } catch (const KnobError& e) {
                        throw UsageError{std::string("--set: ") + e.what()};
                    }
                }
                TraceSet set = loadWithProgress(setup.paths);
                ExecutionGraph g = buildGraphForCli(set, setup);
                SweepOptions options;
                options.criticalPath = true;
                const std::vector<SweepRun> runs = runSweep(g, knobs, options);
                const nlohmann::json j = sweepJson(g, key, values, knobs, runs); // rethrows a run's error
                if (json) {
                    std::cout << j.dump(2) << "\n";
                    return kExitOk;
                }
                const TimeNs base = runs[0].iteration;
                std::printf("%-24s %14s %9s %14s %14s  %s\n", key.c_str(), "iteration_us", "change_%",
                            "exposed_us", "exp_max_us",
                            "critical path (% gpu_compute / gpu_comm / coll_wait / cpu / other)");
                for (std::size_t i = 0; i < runs.size(); ++i) {
                    const SweepRun& p = runs[i];
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
                                i == 0 ? "(baseline)" : values[i - 1].c_str(), us(p.iteration), change,
                                sweepExposedMeanUs(p), us(p.exposed.maxNs), pct(PathLabel::GpuCompute),
                                pct(PathLabel::GpuComm), pct(PathLabel::CollectiveWait), pct(PathLabel::Cpu),
                                std::max(0.0, other));
                    const Throughput t = throughputFrom(runs[0].work, base, p.work, p.iteration);
                    if (t.applies) std::printf("%-24s %s\n", "", t.sentence.c_str());
                    const std::string rate = rateText(rateOf(knobs[i], p.work.samples, p.iteration));
                    if (!rate.empty()) std::printf("%-24s %s\n", "", rate.c_str());
                }
                std::vector<std::string> warns;
                for (const auto& p : runs)
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
