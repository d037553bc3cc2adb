#include "report/CsvReport.h"

#include <cmath>

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

// A JSON value as a CSV field: numbers exactly as the JSON export writes them, strings unquoted.
std::string value(const nlohmann::json& v) {
    if (v.is_string()) return csvField(v.get<std::string>());
    if (v.is_null()) return "";
    return csvField(v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

const char* const kBreakdownFields[] = {"compute_us", "comm_us", "exposed_comm_us", "overlapped_comm_us",
                                        "memory_us",  "idle_us", "gpu_span_us",     "overlap_pct"};

nlohmann::json breakdownField(const nlohmann::json& b, const std::string& field) {
    if (!b.is_object()) return nullptr;
    if (field == "overlapped_comm_us") {
        if (!b.contains("comm_us") || !b.contains("exposed_comm_us")) return nullptr;
        double v = b["comm_us"].get<double>() - b["exposed_comm_us"].get<double>();
        return std::round(std::max(0.0, v) * 100.0) / 100.0;
    }
    auto it = b.find(field);
    return it == b.end() ? nlohmann::json(nullptr) : *it;
}

} // namespace

std::string csvReport(const nlohmann::json& report) {
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
    if (auto src = report.find("source"); src != report.end()) {
        if (src->contains("paths"))
            for (const auto& p : (*src)["paths"])
                row("source", "", "path", p);
        row("source", "", "step", src->value("step", nlohmann::json(nullptr)));
    }
    if (auto it = report.find("iteration"); it != report.end())
        for (const char* k : {"measured_us", "simulated_us", "error_pct"})
            row("iteration", "", k, it->value(k, nlohmann::json(nullptr)));
    if (auto it = report.find("ranks"); it != report.end())
        for (const auto& r : *it) {
            std::string id = r.value("rank", nlohmann::json(nullptr)).dump();
            for (const char* k : {"measured_us", "simulated_us", "error_pct"})
                row("rank", id, k, r.value(k, nlohmann::json(nullptr)));
            const nlohmann::json measured = r.value("measured", nlohmann::json::object());
            for (const char* f : kBreakdownFields)
                row("rank", id, std::string("measured.") + f, breakdownField(measured, f));
            for (const char* f : kBreakdownFields)
                row("rank", id, std::string("simulated.") + f, breakdownField(r, f));
        }
    if (auto it = report.find("critical_path"); it != report.end()) {
        row("critical_path", "", "length_us", it->value("length_us", nlohmann::json(nullptr)));
        if (auto bk = it->find("by_kind"); bk != it->end())
            for (auto k = bk->begin(); k != bk->end(); ++k) {
                row("critical_path", "", k.key() + "_us", k.value().value("us", nlohmann::json(nullptr)));
                row("critical_path", "", k.key() + "_pct", k.value().value("pct", nlohmann::json(nullptr)));
            }
    }
    // Null for a set without measured times: the rows stay, with empty values.
    if (auto it = report.find("kernel_start_error_us"); it != report.end())
        for (const char* k : {"median", "p90", "max", "count"})
            row("kernel_start_error", "", std::string(k) + (std::string(k) == "count" ? "" : "_us"),
                it->is_object() ? it->value(k, nlohmann::json(nullptr)) : nlohmann::json(nullptr));
    if (auto it = report.find("knobs"); it != report.end())
        for (auto k = it->begin(); k != it->end(); ++k)
            row("knobs", "", k.key(), k.value());
    return out;
}

} // namespace sl
