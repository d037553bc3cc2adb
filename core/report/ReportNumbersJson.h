#pragma once
// The typed numbers of a report (report/SimulationNumbers.h) and their JSON, both ways, in one
// place: writeReportNumbers() writes the fields `simulate --json` and `report --json` take from
// the typed numbers; readReportNumbers() reads a numbers object back (a report given as JSON, as
// tests build them) with the same keys, so a misspelt key fails the round-trip test instead of
// reading 0 in a writer.
#include "report/SimulationNumbers.h"

#include <nlohmann/json.hpp>

namespace sl {

// Writes the typed fields of `numbers` into `j` (a simulationResultJson() object being built): the
// iteration, each rank of j["ranks"] (same order, already there), the kernel start error, the
// critical path, gpu_swap's rows, knobs, warnings, and source and changed_knobs when it has a source.
void writeReportNumbers(nlohmann::json& j, const ReportNumbers& numbers);

// The typed fields of a numbers object; a missing number reads 0 (nullopt where the field is
// optional), as the writers showed it before they were typed.
ReportNumbers readReportNumbers(const nlohmann::json& j);

// One breakdown object (compute_us, comm_us, exposed_comm_us, memory_us, idle_us, gpu_span_us,
// overlap_pct).
BreakdownNumbers readBreakdown(const nlohmann::json& b);

} // namespace sl
