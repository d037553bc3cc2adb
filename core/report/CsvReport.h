#pragma once
// The numbers of a simulation report as CSV, one value per row (long format, easy to pivot):
//   section,rank,metric,value
// section: iteration | rank | critical_path | kernel_start_error | knobs | source. `rank` is the
// rank id on rank rows and empty elsewhere. Metrics name their JSON field: for a rank
// measured_us, simulated_us, error_pct, then measured.<field> and simulated.<field> for compute_us,
// comm_us, exposed_comm_us, overlapped_comm_us (comm - exposed), memory_us, idle_us, gpu_span_us,
// overlap_pct; critical_path has length_us and <label>_us / <label>_pct (labels by name).
// Numbers are written exactly as in the JSON export, from the typed numbers
// (report/SimulationNumbers.h); a measured figure of a set without measured times is empty.
#include "report/SimulationNumbers.h"

#include <nlohmann/json.hpp>

#include <string>

namespace sl {

std::string csvReport(const ReportNumbers& numbers);

// The same of a simulationReportJson() object, read back (report/ReportNumbersJson.h).
std::string csvReport(const nlohmann::json& report);

// One CSV field, quoted when it holds a comma, a quote or a line break (RFC 4180).
std::string csvField(const std::string& text);

} // namespace sl
