#include "report/CsvReport.h"

#include "report/ReportNumbersJson.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace sl {

std::string csvField(const std::string& text) {
    if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
    std::string out = "\"";
    for (char c : text) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + "\"";
}

namespace {

// A value as a CSV field: numbers exactly as the JSON export writes them, strings unquoted, an
// unknown value (nullopt, a measured figure of a set without measured times) empty.
std::string value(const nlohmann::json& v) {
    if (v.is_string()) return csvField(v.get<std::string>());
    if (v.is_null()) return "";
    return csvField(v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}
template <typename T> nlohmann::json orNull(const std::optional<T>& v) {
    return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

// A breakdown's fields in the order of the rows, with overlapped_comm_us (comm - exposed, rounded
// as the JSON rounds µs); all empty when the rank has no such breakdown.
std::vector<std::pair<const char*, nlohmann::json>>
breakdownFields(const std::optional<BreakdownNumbers>& b) {
    auto field = [&](double BreakdownNumbers::*member) {
        return b ? nlohmann::json((*b).*member) : nlohmann::json();
    };
    nlohmann::json overlapped;
    if (b) overlapped = std::round(std::max(0.0, b->commUs - b->exposedCommUs) * 100.0) / 100.0;
    return {{"compute_us", field(&BreakdownNumbers::computeUs)},
            {"comm_us", field(&BreakdownNumbers::commUs)},
            {"exposed_comm_us", field(&BreakdownNumbers::exposedCommUs)},
            {"overlapped_comm_us", overlapped},
            {"memory_us", field(&BreakdownNumbers::memoryUs)},
            {"idle_us", field(&BreakdownNumbers::idleUs)},
            {"gpu_span_us", field(&BreakdownNumbers::gpuSpanUs)},
            {"overlap_pct", field(&BreakdownNumbers::overlapPct)}};
}

} // namespace

std::string csvReport(const ReportNumbers& numbers) {
    const SimulationNumbers& n = numbers.run;
    std::string out = "section,rank,metric,value\n";
    auto row = [&](const char* section, const std::string& rank, const std::string& metric,
                   const nlohmann::json& v) {
        out += section;
        out += ',';
        out += rank;
        out += ',';
        out += csvField(metric);
        out += ',';
        out += value(v);
        out += '\n';
    };
    if (numbers.source) {
        for (const std::string& p : numbers.source->paths)
            row("source", "", "path", p);
        row("source", "", "step",
            numbers.source->step >= 0 ? nlohmann::json(numbers.source->step) : nlohmann::json());
    }
    row("iteration", "", "measured_us", orNull(n.measuredUs));
    row("iteration", "", "simulated_us", n.simulatedUs);
    row("iteration", "", "error_pct", orNull(n.errorPct));
    for (const RankNumbers& r : n.ranks) {
        const std::string id = std::to_string(r.rank);
        row("rank", id, "measured_us", orNull(r.measuredUs));
        row("rank", id, "simulated_us", r.simulatedUs);
        row("rank", id, "error_pct", orNull(r.errorPct));
        for (const auto& [f, v] : breakdownFields(r.measured))
            row("rank", id, std::string("measured.") + f, v);
        for (const auto& [f, v] : breakdownFields(r.simulated))
            row("rank", id, std::string("simulated.") + f, v);
    }
    row("critical_path", "", "length_us", n.criticalPathUs);
    // The kinds by name, as the JSON object orders its keys.
    std::vector<std::pair<std::string, PathShare>> kinds;
    for (int l = 0; l < kPathLabelCount; ++l)
        kinds.emplace_back(std::string(pathLabelName(static_cast<PathLabel>(l))),
                           n.criticalPath[static_cast<std::size_t>(l)]);
    std::sort(kinds.begin(), kinds.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [kind, share] : kinds) {
        row("critical_path", "", kind + "_us", share.us);
        row("critical_path", "", kind + "_pct", share.pct);
    }
    // Empty for a set without measured times: the rows stay, with empty values.
    const std::optional<KernelStartNumbers>& ks = n.kernelStart;
    row("kernel_start_error", "", "median_us", ks ? nlohmann::json(ks->medianUs) : nlohmann::json());
    row("kernel_start_error", "", "p90_us", ks ? nlohmann::json(ks->p90Us) : nlohmann::json());
    row("kernel_start_error", "", "max_us", ks ? nlohmann::json(ks->maxUs) : nlohmann::json());
    row("kernel_start_error", "", "count", ks ? nlohmann::json(ks->count) : nlohmann::json());
    for (auto k = numbers.knobs.begin(); k != numbers.knobs.end(); ++k)
        row("knobs", "", k.key(), k.value());
    return out;
}

std::string csvReport(const nlohmann::json& report) {
    return csvReport(readReportNumbers(report));
}

} // namespace sl
