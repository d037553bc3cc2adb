#include "models/GpuTable.h"

#include "trace/AsciiText.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

namespace sl {

namespace detail {
extern const std::string_view kGpuTableJson; // GpuTableData.cpp, generated from resources/gpus.json
}

std::string_view peakTypeName(PeakType t) {
    switch (t) {
    case PeakType::Fp32:
        return "fp32";
    case PeakType::Fp32Matrix:
        return "fp32_matrix";
    case PeakType::Tf32:
        return "tf32";
    case PeakType::Bf16:
        return "bf16";
    case PeakType::Fp16:
        return "fp16";
    case PeakType::Fp8:
        return "fp8";
    case PeakType::Count:
        break;
    }
    return "fp32";
}

double GpuSpec::matrixPeakTflops(PeakType t) const {
    auto p = [&](PeakType x) { return peakTflops[static_cast<std::size_t>(x)]; };
    const double fp32 = std::max(p(PeakType::Fp32), p(PeakType::Fp32Matrix));
    switch (t) {
    case PeakType::Fp8:
        if (p(PeakType::Fp8) > 0) return p(PeakType::Fp8);
        [[fallthrough]];
    case PeakType::Bf16:
    case PeakType::Fp16: {
        double v = p(t == PeakType::Fp16 ? PeakType::Fp16 : PeakType::Bf16);
        if (v <= 0) v = std::max(p(PeakType::Bf16), p(PeakType::Fp16));
        return v > 0 ? v : fp32;
    }
    case PeakType::Tf32:
        return p(PeakType::Tf32) > 0 ? p(PeakType::Tf32) : fp32;
    default:
        return fp32;
    }
}

std::optional<double> GpuSpec::familyEfficiency(std::string_view familyKey) const {
    for (std::string_view k = familyKey; !k.empty();) {
        if (auto it = efficiency.find(std::string(k)); it != efficiency.end()) return it->second;
        const auto dot = k.rfind('.');
        if (dot == std::string_view::npos) break;
        k = k.substr(0, dot);
    }
    return std::nullopt;
}

namespace {

// Lower case without spaces, '-' and '_': the key names and aliases are compared by.
std::string key(std::string_view s) {
    std::string k;
    for (char c : s)
        if (c != ' ' && c != '-' && c != '_') k += asciiLower(c);
    return k;
}

} // namespace

GpuTable GpuTable::fromJson(std::string_view text, const std::string& origin) {
    auto fail = [&](const std::string& what) { throw GpuTableError(origin + ": " + what); };
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {
        fail(std::string("not valid JSON (") + e.what() + ")");
    }
    if (!j.is_object() || !j.contains("gpus") || !j["gpus"].is_array()) fail("no \"gpus\" array");
    GpuTable t;
    std::set<std::string> names;
    for (const auto& g : j["gpus"]) {
        GpuSpec s;
        if (!g.is_object() || !g.contains("name") || !g["name"].is_string()) fail("a GPU without a name");
        s.name = g["name"].get<std::string>();
        auto number = [&](const char* field, bool required) -> double {
            if (!g.contains(field) || g[field].is_null()) {
                if (required) fail(s.name + ": no " + field);
                return 0;
            }
            if (!g[field].is_number() || g[field].get<double>() < 0)
                fail(s.name + ": " + field + " is not a non-negative number");
            return g[field].get<double>();
        };
        s.memoryGB = number("memory_GB", true);
        s.sms = static_cast<int>(number("sms", true));
        s.memoryGBps = number("memory_GBps", true);
        s.linkGBps = number("link_GBps", true);
        if (s.memoryGBps <= 0) fail(s.name + ": memory_GBps must be positive");
        if (g.contains("vendor") && g["vendor"].is_string()) s.vendor = g["vendor"].get<std::string>();
        for (const char* list : {"aliases", "device_names"}) {
            if (!g.contains(list)) continue;
            if (!g[list].is_array()) fail(s.name + ": " + list + " is not an array");
            for (const auto& a : g[list]) {
                if (!a.is_string()) fail(s.name + ": " + list + " holds a non-string");
                (std::string_view(list) == "aliases" ? s.aliases : s.deviceNames)
                    .push_back(a.get<std::string>());
            }
        }
        if (!g.contains("peak_tflops") || !g["peak_tflops"].is_object())
            fail(s.name + ": no peak_tflops object");
        for (int i = 0; i < kPeakTypeCount; ++i) {
            auto type = static_cast<PeakType>(i);
            std::string f(peakTypeName(type));
            const auto& p = g["peak_tflops"];
            if (!p.contains(f) || p[f].is_null()) continue;
            if (!p[f].is_number() || p[f].get<double>() < 0)
                fail(s.name + ": peak_tflops." + f + " is not a non-negative number");
            s.peakTflops[static_cast<std::size_t>(i)] = p[f].get<double>();
        }
        if (s.vectorPeakTflops() <= 0) fail(s.name + ": peak_tflops.fp32 must be positive");
        if (!g.contains("sources") || !g["sources"].is_object()) fail(s.name + ": no sources object");
        for (const char* f : {"peak_tflops", "memory_GBps", "memory_GB", "sms", "link_GBps"}) {
            if (!g["sources"].contains(f) || !g["sources"][f].is_string())
                fail(s.name + ": sources." + f + " is missing (every figure names its source)");
            s.sources[f] = g["sources"][f].get<std::string>();
        }
        // Measured figures (docs/GpuModel.md, "Achieved efficiency"): optional, with their source.
        if (g.contains("efficiency")) {
            if (!g["efficiency"].is_object()) fail(s.name + ": efficiency is not an object");
            for (const auto& [family, v] : g["efficiency"].items()) {
                if (!v.is_number() || !(v.get<double>() > 0 && v.get<double>() <= 1.0))
                    fail(s.name + ": efficiency." + family + " is not a fraction in (0, 1]");
                s.efficiency[family] = v.get<double>();
            }
        }
        s.minKernelUs = number("min_kernel_us", false);
        for (const char* f : {"efficiency", "min_kernel_us"}) {
            if (!g.contains(f)) continue;
            if (!g["sources"].contains(f) || !g["sources"][f].is_string())
                fail(s.name + ": sources." + f + " is missing (every figure names its source)");
            s.sources[f] = g["sources"][f].get<std::string>();
        }
        // Names and aliases of one GPU may spell the same key ("H100-SXM", "H100 SXM"); two GPUs may not.
        std::set<std::string> own{key(s.name)};
        for (const auto& a : s.aliases)
            own.insert(key(a));
        for (const auto& k : own)
            if (!names.insert(k).second) fail("the name or alias '" + k + "' appears twice");
        t.gpus_.push_back(std::move(s));
    }
    if (t.gpus_.empty()) fail("the \"gpus\" array is empty");
    return t;
}

const GpuTable& GpuTable::builtin() {
    // A table of the user's own measurements (docs/GpuModel.md, "Your own GPUs") replaces the
    // entries of the same name and adds the others. Read once; a bad file fails every lookup.
    static const GpuTable table = [] {
        GpuTable t = fromJson(detail::kGpuTableJson, "resources/gpus.json");
        const char* own = std::getenv("SIGHTLINE_GPU_TABLE");
        if (!own || !*own) return t;
        std::ifstream in(own, std::ios::binary);
        std::stringstream text;
        text << in.rdbuf();
        if (!in) throw GpuTableError(std::string(own) + ": cannot read the GPU table (SIGHTLINE_GPU_TABLE)");
        for (GpuSpec& g : fromJson(text.str(), own).gpus_) {
            auto same = std::find_if(t.gpus_.begin(), t.gpus_.end(),
                                     [&](const GpuSpec& b) { return key(b.name) == key(g.name); });
            if (same != t.gpus_.end())
                *same = std::move(g);
            else
                t.gpus_.push_back(std::move(g));
        }
        return t;
    }();
    return table;
}

const GpuSpec* GpuTable::find(std::string_view name) const {
    const std::string k = key(name);
    for (const auto& g : gpus_) {
        if (key(g.name) == k) return &g;
        for (const auto& a : g.aliases)
            if (key(a) == k) return &g;
    }
    return nullptr;
}

const GpuSpec* GpuTable::match(const DeviceProperties& device) const {
    const std::string dev = asciiLower(device.name);
    if (dev.empty()) return nullptr;
    const GpuSpec* best = nullptr;
    std::size_t bestLen = 0;
    double bestMemDiff = 0;
    const double memGB = static_cast<double>(device.totalGlobalMem) / 1e9;
    for (const auto& g : gpus_)
        for (const auto& d : g.deviceNames) {
            if (d.empty() || dev.find(asciiLower(d)) == std::string::npos) continue;
            // The longest device-name match wins; equal ones (A100 40 GB / 80 GB) by the memory size.
            double memDiff = device.totalGlobalMem > 0 ? std::abs(memGB - g.memoryGB) : 0;
            if (!best || d.size() > bestLen || (d.size() == bestLen && memDiff < bestMemDiff)) {
                best = &g;
                bestLen = d.size();
                bestMemDiff = memDiff;
            }
        }
    return best;
}

std::string GpuTable::names() const {
    std::string s;
    for (const auto& g : gpus_)
        s += (s.empty() ? "" : ", ") + g.name;
    return s;
}

const GpuSpec& sourceGpu(const TraceSet& set, const GpuTable& table, const std::string& sourceName) {
    if (!sourceName.empty()) {
        if (const GpuSpec* g = table.find(sourceName)) return *g;
        throw GpuTableError("gpu.source: unknown GPU '" + sourceName + "' (known: " + table.names() + ")");
    }
    const GpuSpec* found = nullptr;
    std::string foundDevice;
    for (const auto& r : set.ranks) {
        const std::int64_t dev = r.primaryDevice();
        const DeviceProperties* props = nullptr;
        for (const auto& d : r.devices)
            if (d.id == dev || (!props && d.id < 0)) props = &d;
        if (!props && !r.devices.empty()) props = &r.devices.front();
        const std::string where = r.sourcePath.empty() ? "rank " + std::to_string(r.rank) : r.sourcePath;
        if (!props || props->name.empty())
            throw GpuTableError(where + ": no deviceProperties name: set gpu.source=NAME (one of " +
                                table.names() + ")");
        const GpuSpec* g = table.match(*props);
        if (!g)
            throw GpuTableError(where + ": device '" + props->name +
                                "' is not in the GPU table: set gpu.source=NAME (one of " + table.names() +
                                ")");
        if (found && found != g)
            throw GpuTableError(where + ": ranks report different GPUs ('" + foundDevice + "' and '" +
                                props->name + "'): set gpu.source=NAME");
        found = g;
        foundDevice = props->name;
    }
    if (!found) throw GpuTableError("the trace set has no ranks: set gpu.source=NAME");
    return *found;
}

} // namespace sl
