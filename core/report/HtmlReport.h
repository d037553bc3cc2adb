#pragma once
// A self-contained HTML page of a simulation report (no network: inline CSS and inline SVG charts,
// no scripts, no web fonts): header with the trace paths, window and knobs; summary cards; per-rank
// GPU time breakdown measured vs simulated (stacked bars and table); critical-path composition;
// replay accuracy (per-rank iteration and kernel start error); warnings.
#include "report/Report.h"

#include <nlohmann/json.hpp>

#include <string>

namespace sl {

// The report as a page: its numbers (reportNumbers(): the typed numbers of a simulationReportJson()
// object), the
// scenarios ({name, knobs, iteration, change against the first, throughput where the work per step
// changed, what limits the step}; the GUI's export gives them) as a bar chart and a Scenarios table,
// the timeline figures, what limits the step (analysis/LimitingCause.h) and who wrote it
// ("sightline-cli report", "File > Export Report"). A headline comes first: the biggest win and
// what limits the step.
std::string htmlReport(const Report& report);

// The program's version (the project's, from CMake): "0.1.0".
const char* sightlineVersion();

// Text made safe for HTML element content and attribute values (& < > " ').
std::string htmlEscape(const std::string& text);

// The GPU-span segments of one breakdown object (compute_us, comm_us, exposed_comm_us, idle_us,
// gpu_span_us): compute not overlapped by communication, communication overlapped by compute,
// exposed communication, memory / other GPU time, idle. They add up to the GPU span.
struct SpanSegments {
    double computeOnly = 0;
    double overlappedComm = 0;
    double exposedComm = 0;
    double other = 0;
    double idle = 0;
};
SpanSegments spanSegments(const BreakdownNumbers& breakdown);
// The same of a breakdown object of the report's JSON.
SpanSegments spanSegments(const nlohmann::json& breakdown);

} // namespace sl
