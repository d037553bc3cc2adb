#pragma once
// The numbers of a before / after comparison (analysis/RunComparison.h) and of a prediction check
// (analysis/PredictionCheck.h) as one JSON object: what `compare --json` prints; the HTML and CSV
// files are written from the same object, so they agree (docs/Compare.md).
#include "analysis/PredictionCheck.h"
#include "analysis/RunComparison.h"
#include "report/ReportWriter.h"
#include "sim/Knobs.h"

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

// A self-contained HTML page (inline CSS, no scripts) of a comparisonJson() object.
std::string comparisonHtml(const nlohmann::json& report);

// Long-format CSV of a comparisonJson() object: table,rank,key,metric,value.
std::string comparisonCsv(const nlohmann::json& report);

// The object as HTML, CSV or JSON text (what compare --out and the GUI's Save Report write).
std::string comparisonText(const nlohmann::json& report, ReportFormat format);

} // namespace sl
