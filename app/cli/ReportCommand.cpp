#include "CliCommon.h"
#include "SimSetup.h"

#include "analysis/CriticalPath.h"
#include "analysis/LimitingCause.h"
#include "io/LoadError.h"
#include "report/ReportWriter.h"
#include "report/SimulationReport.h"
#include "sim/Simulator.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

namespace sl::cli {

namespace {

struct Output {
    ReportFormat format;
    std::string path;
};

ReportFormat formatOf(const std::string& path) {
    if (auto f = reportFormatOf(path)) return *f;
    throw UsageError{"--out " + path +
                     ": cannot tell the format from the extension (use .html, .json or .csv)"};
}

// Before the (possibly long) load: the folder an output goes to must exist and be a folder, and the
// output itself must not be a folder. The write itself can still fail (permissions, full disk).
void checkWritable(const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::path p(path);
    if (fs::is_directory(p, ec)) throw LoadError(path, "cannot write the report: it is a directory");
    fs::path dir = p.parent_path();
    if (dir.empty()) return;
    if (!fs::exists(dir, ec))
        throw LoadError(path, "cannot write the report: folder " + dir.string() + " does not exist");
    if (!fs::is_directory(dir, ec))
        throw LoadError(path, "cannot write the report: " + dir.string() + " is not a folder");
}

Command makeReportCommand() {
    return {"report", "write a self-contained HTML report (and JSON / CSV) of a simulation",
            "usage: sightline-cli report PATH... --out REPORT.html [--json OUT.json] [--csv OUT.csv]\n"
            "                            [--step N] [--config F.json] [--set key=value]...\n"
            "\n"
            "Replays the traces (with knobs, if given) and writes a report for sharing what-if results:\n"
            "the trace paths, window and knobs used; per-rank GPU time breakdown measured vs simulated\n"
            "(compute, communication overlapped with compute, exposed communication, memory / other,\n"
            "idle; HTA definitions); critical-path composition; replay accuracy (per-rank iteration\n"
            "measured vs simulated and error, kernel start error median / p90). The HTML page is\n"
            "self-contained: inline CSS and SVG charts, no scripts, no network resources.\n"
            "\n"
            "  --out F         write the report to F; the format follows the extension: .html / .htm,\n"
            "                  .json or .csv\n"
            "  --json F        (also) write the numbers as JSON: the `simulate --json` object plus\n"
            "                  source.{paths, step} and changed_knobs[]\n"
            "  --csv F         (also) write the numbers as CSV, one value per row:\n"
            "                  section,rank,metric,value with section iteration | rank | critical_path |\n"
            "                  kernel_start_error | knobs | source; rank metrics are measured_us,\n"
            "                  simulated_us, error_pct and measured.<field> / simulated.<field> for\n"
            "                  compute_us, comm_us, exposed_comm_us, overlapped_comm_us, memory_us,\n"
            "                  idle_us, gpu_span_us, overlap_pct; numbers exactly as in the JSON\n"
            "  --step N        restrict to ProfilerStep#N\n"
            "  --config F.json knobs from a JSON file\n"
            "  --set key=value one knob (repeatable), e.g. comm.speedup=2 (see `simulate --help`)\n"
            "  --et F|DIR      PyTorch execution traces for collective sizes (see `simulate --help`)\n"
            "\n"
            "At least one of --out, --json, --csv is required. Exit 0 on success, 1 on bad usage, 2 with\n"
            "one line `error: FILE: what` on bad input or an output that cannot be written.\n",
            [](Args& args) {
                std::vector<Output> outputs;
                if (auto out = args.option("--out")) outputs.push_back({formatOf(*out), *out});
                if (auto out = args.option("--json")) outputs.push_back({ReportFormat::Json, *out});
                if (auto out = args.option("--csv")) outputs.push_back({ReportFormat::Csv, *out});
                SimSetup setup = parseSimSetup(args, "report", true);
                if (outputs.empty())
                    throw UsageError{"report needs --out FILE (or --json FILE / --csv FILE)"};
                for (const auto& o : outputs) {
                    if (o.path.empty()) throw UsageError{"an output path is empty"};
                    checkWritable(o.path);
                }
                TraceSet set = loadWithProgress(setup.paths);
                ExecutionGraph graph = buildGraphForCli(set, setup);
                SimResult res = simulate(graph, setup.knobs);
                SimResult replay;
                if (!setup.knobs.isReplay()) {
                    SimOptions so;
                    so.timeline = false;
                    replay = simulate(graph, SimKnobs{}, so);
                }
                nlohmann::json report = simulationReportJson(graph, res, setup.knobs, setup.paths, setup.step,
                                                             setup.knobs.isReplay() ? nullptr : &replay);
                // The report's headline says what limits the step, as the GUI's result card does.
                report["limit"] = limitingCause(graph, criticalPath(graph, res), res).sentence;
                report["generator"] = "sightline-cli report";
                for (const auto& o : outputs)
                    writeReportFile(o.path, report, o.format);
                return kExitOk;
            }};
}

CommandRegistrar registerReport{makeReportCommand()};

} // namespace

} // namespace sl::cli
