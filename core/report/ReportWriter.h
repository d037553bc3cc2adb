#pragma once
// The formats of a simulation report and the file they are written to (docs/ARCHITECTURE.md,
// "Reports"); report/Report.h writes a Report in each.
#include <optional>
#include <string>

namespace sl {

enum class ReportFormat { Html, Json, Csv };

// The format a path asks for by its extension (.html/.htm, .json, .csv; any case); nullopt for
// anything else.
std::optional<ReportFormat> reportFormatOf(const std::string& path);

// Writes `text` to `path` (replacing it). Throws WriteError (base/Error.h) naming the path when it cannot be
// written.
void writeTextFile(const std::string& path, const std::string& text);

} // namespace sl
