#pragma once
// A self-contained HTML page of a simulation report (no network: inline CSS and inline SVG charts,
// no scripts, no web fonts): header with the trace paths, window and knobs; summary cards; per-rank
// GPU time breakdown measured vs simulated (stacked bars and table); critical-path composition;
// replay accuracy (per-rank iteration and kernel start error); warnings.
#include <nlohmann/json.hpp>

#include <string>

namespace sl {

// `report` is a simulationReportJson() object; every number shown comes from it. An optional
// "scenarios" array ({name, changed_knobs[], iteration_us, vs_baseline_pct, limit}; the GUI's
// export adds it) becomes a Scenarios table.
std::string htmlReport(const nlohmann::json& report);

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
SpanSegments spanSegments(const nlohmann::json& breakdown);

} // namespace sl
