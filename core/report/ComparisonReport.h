#pragma once
// The numbers of a before / after comparison (analysis/RunComparison.h) and of a prediction check
// (analysis/PredictionCheck.h) as one JSON object: what `compare --json` prints; the HTML and CSV
// files are written from the same object, so they agree (docs/Compare.md).
#include "analysis/PredictionCheck.h"
#include "analysis/RunComparison.h"
#include "graph/ExecutionGraph.h"
#include "report/ReportWriter.h"
#include "sim/Knobs.h"
#include "trace/TraceSet.h"

#include <optional>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace sl {

struct ComparisonSource {
    std::vector<std::string> before, after; // the paths as given
    int step = -1;
};

// `prediction` (with the knobs it ran with) is optional. Tables per kernel and CPU op keep their
// `maxRows` largest changes (0: all).
nlohmann::json comparisonJson(const RunComparison& cmp, const ComparisonSource& source,
                              const PredictionCheck* prediction = nullptr, const SimKnobs* knobs = nullptr,
                              std::size_t maxRows = 0);

// Throws LoadError naming `path` when the set has no measured times (a Chakra execution trace):
// compare needs two measured runs.
void requireMeasuredRun(const TraceSet& set, const std::string& path);

// Two measured runs compared, and `before` simulated with `knobs` and held against `after` when
// `predict` or the knobs are set: what `sightline-cli compare` and the Python module's compare()
// compute. Throws LoadError naming `afterPath` when the runs are not one program.
struct ComparedRuns {
    RunComparison comparison;
    std::optional<PredictionCheck> prediction;
};
ComparedRuns compareLoadedRuns(const ExecutionGraph& before, const ExecutionGraph& after,
                               const std::string& beforePath, const std::string& afterPath,
                               const SimKnobs& knobs, bool predict);

// A self-contained HTML page (inline CSS, no scripts) of a comparisonJson() object.
std::string comparisonHtml(const nlohmann::json& report);

// Long-format CSV of a comparisonJson() object: table,rank,key,metric,value.
std::string comparisonCsv(const nlohmann::json& report);

// The object as HTML, CSV or JSON text (what compare --out and the GUI's Save Report write).
std::string comparisonText(const nlohmann::json& report, ReportFormat format);

} // namespace sl
