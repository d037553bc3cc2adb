#pragma once
// One way out for a simulation report (docs/ARCHITECTURE.md, "Reports"): the simulationReportJson()
// object written as HTML, JSON or CSV. The CLI's `report` and the GUI's File > Export Report both
// call this, so the two write the same files for the same run.
#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace sl {

enum class ReportFormat { Html, Json, Csv };

// The format a path asks for by its extension (.html/.htm, .json, .csv; any case); nullopt for
// anything else.
std::optional<ReportFormat> reportFormatOf(const std::string& path);

// The report as text in `format` (`report` is a simulationReportJson() object).
std::string reportText(const nlohmann::json& report, ReportFormat format);

// Writes `text` to `path` (replacing it). Throws WriteError (base/Error.h) naming the path when it cannot be
// written.
void writeTextFile(const std::string& path, const std::string& text);

// Writes reportText() to `path`. Throws WriteError (base/Error.h) naming the path when it cannot be written.
void writeReportFile(const std::string& path, const nlohmann::json& report, ReportFormat format);

} // namespace sl
