#include "CliCommon.h"
#include "RenderCommand.h"
#include "SimSetup.h"

#include "base/Error.h"
#include "report/Report.h"
#include "report/SimulationReport.h"
#include "sim/KnobText.h"
#include "sim/Simulator.h"

#include <nlohmann/json.hpp>

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
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
    if (fs::is_directory(p, ec)) throw WriteError(path, "cannot write the report: it is a directory");
    fs::path dir = p.parent_path();
    if (dir.empty()) return;
    if (!fs::exists(dir, ec))
        throw WriteError(path, "cannot write the report: folder " + dir.string() + " does not exist");
    if (!fs::is_directory(dir, ec))
        throw WriteError(path, "cannot write the report: " + dir.string() + " is not a folder");
}

// The knobs as --set assignments ("compute.speedup=2"), those away from their defaults.
std::vector<std::string> knobAssignments(const SimKnobs& knobs) {
    const nlohmann::json j = knobs.toJson();
    std::vector<std::string> out;
    for (const auto& key : changedKnobs(j))
        out.push_back(key + "=" + knobValueText(j[key], KnobNumberStyle::Exact)); // "2", not "2.0"
    return out;
}

// A timeline picture per scenario for the HTML report, as the GUI's File > Export Report embeds
// them (report/HtmlReport.h, "figures"): the replay, and the knobs' what-if when knobs are set.
// Painted by the desktop program (RenderCommand.h); without it, or when it fails, one note on
// stderr and a report without pictures.
std::vector<ReportFigure> scenarioFigures(const SimSetup& setup, const std::string& out) {
    std::vector<ReportFigure> figures;
    const std::string gui = guiProgram();
    if (gui.empty()) {
        std::fprintf(stderr,
                     "note: %s: no timeline pictures: the sightline program is not next to sightline-cli (a "
                     "build without the GUI); the rest of the report is complete\n",
                     out.c_str());
        return figures;
    }
    struct Scenario {
        std::string name;
        std::vector<std::string> sets;
    };
    std::vector<Scenario> scenarios;
    const std::vector<std::string> sets = knobAssignments(setup.knobs);
    std::vector<std::string> batch; // the batch describes the trace: the replay keeps it
    for (const auto& a : sets)
        if (a.rfind("batch.", 0) == 0) batch.push_back(a);
    if (!setup.knobs.isReplay()) scenarios.push_back({"Baseline (replay)", batch});
    scenarios.push_back({setup.knobs.isReplay() ? "Replay" : "What-if", sets});
    std::error_code ec;
    const std::filesystem::path dir = std::filesystem::temp_directory_path(ec);
    for (std::size_t i = 0; i < scenarios.size(); ++i) {
        const std::string svg =
            (dir / ("sightline-report-" + std::to_string(::getpid()) + "-" + std::to_string(i) + ".svg"))
                .string();
        std::vector<std::string> args = {"--render", svg, "--size", "1600x900"};
        for (const auto& a : scenarios[i].sets) {
            args.push_back("--set");
            args.push_back(a);
        }
        args.push_back("--");
        args.insert(args.end(), setup.paths.begin(), setup.paths.end());
        std::string error;
        const int rc = runGuiProgram(gui, args, true, &error);
        std::ifstream in(svg);
        std::stringstream text;
        text << in.rdbuf();
        std::filesystem::remove(svg, ec);
        if (rc != 0 || text.str().find("<svg") == std::string::npos) {
            std::fprintf(stderr, "note: %s: no timeline pictures: %s\n", out.c_str(),
                         error.empty() ? "the renderer wrote no figure" : error.c_str());
            return {};
        }
        std::string caption;
        for (const auto& a : scenarios[i].sets)
            caption += (caption.empty() ? "" : ", ") + a;
        if (caption.empty()) caption = "replay";
        if (setup.step >= 0)
            caption +=
                " (whole trace; the numbers above are of ProfilerStep#" + std::to_string(setup.step) + ")";
        figures.push_back({scenarios[i].name, caption, text.str()});
    }
    return figures;
}

Command makeReportCommand() {
    return {"report", "write a self-contained HTML report (and JSON / CSV) of a simulation",
            "usage: sightline-cli report PATH... --out REPORT.html [--json OUT.json] [--csv OUT.csv]\n"
            "                            [--step N] [--config F.json] [--set key=value]... [--no-pictures]\n"
            "\n"
            "Replays the traces (with knobs, if given) and writes a report for sharing what-if results:\n"
            "the trace paths, window and knobs used; per-rank GPU time breakdown measured vs simulated\n"
            "(compute, communication overlapped with compute, exposed communication, memory / other,\n"
            "idle; HTA definitions); critical-path composition; replay accuracy (per-rank iteration\n"
            "measured vs simulated and error, kernel start error median / p90). The HTML page is\n"
            "self-contained: inline CSS and SVG charts, no scripts, no network resources. It embeds a\n"
            "timeline picture per scenario (the replay, and the what-if when knobs are set), painted by\n"
            "`sightline --render` next to sightline-cli (off-screen, no display); without that program\n"
            "the report has no pictures and a note says so.\n"
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
            "  --no-pictures   no timeline pictures in the HTML page (smaller; the same bytes on every\n"
            "                  machine, as the golden files of the tests are)\n"
            "  --step N        restrict to ProfilerStep#N\n"
            "  --config F.json knobs from a JSON file\n"
            "  --set key=value one knob (repeatable), e.g. comm.speedup=2 (see `simulate --help`);\n"
            "                  batch.samples=N / batch.tokens=N add samples/s and tokens/s\n"
            "  --et F|DIR      PyTorch execution traces for collective sizes (see `simulate --help`)\n"
            "\n"
            "At least one of --out, --json, --csv is required. Exit 0 on success, 1 on bad usage, 2 with\n"
            "one line `error: FILE: what` on bad input or an output that cannot be written.\n",
            [](Args& args) {
                const bool noPictures = args.flag("--no-pictures");
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
                ReportInputs inputs;
                inputs.graph = &graph;
                inputs.result = &res;
                inputs.knobs = setup.knobs;
                inputs.source = ReportSource{setup.paths, setup.step};
                inputs.generator = "sightline-cli report";
                Report report = buildReport(inputs);
                // Timeline pictures for the HTML page only (the JSON and CSV stay numbers).
                for (const auto& o : outputs)
                    if (o.format == ReportFormat::Html && !noPictures)
                        report.figures = scenarioFigures(setup, o.path);
                for (const auto& o : outputs)
                    writeReportFile(o.path, report, o.format);
                return kExitOk;
            }};
}

CommandRegistrar registerReport{makeReportCommand()};

} // namespace

} // namespace sl::cli
