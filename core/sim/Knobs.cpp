#include "sim/Knobs.h"

#include "models/KernelClass.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <regex>

namespace sl {

namespace {

const char* const kClasses[] = {"gemm", "attention", "elementwise", "reduction", "memory", "other"};
const char* const kCommTypes[] = {"all_reduce", "all_gather", "reduce_scatter", "all_to_all",
                                  "broadcast",  "reduce",     "send_recv"};
const char* const kCommParams[] = {"intra_node_GBps", "inter_node_GBps", "latency_us",
                                   "inter_node_latency_us"};

double parseDouble(const std::string& key, const std::string& value) {
    const char* b = value.c_str();
    char* end = nullptr;
    errno = 0;
    double v = std::strtod(b, &end);
    if (end == b || *end != '\0' || errno == ERANGE || !std::isfinite(v))
        throw KnobError("knob " + key + ": '" + value + "' is not a finite number");
    return v;
}

// A value in [lo, hi]; the message says the valid range.
double inRange(const std::string& key, const std::string& value, double lo, double hi, bool loOpen,
               const char* what) {
    double v = parseDouble(key, value);
    if (v < lo || v > hi || (loOpen && v == lo))
        throw KnobError("knob " + key + ": " + what + ", got '" + value + "'");
    return v;
}

double parseSpeedup(const std::string& key, const std::string& value) {
    return inRange(key, value, 0, 1e6, true, "must be a factor in (0, 1e6] (1 = unchanged)");
}

bool parseBool(const std::string& key, const std::string& value) {
    if (value == "true" || value == "1" || value == "on" || value == "yes") return true;
    if (value == "false" || value == "0" || value == "off" || value == "no") return false;
    throw KnobError("knob " + key + ": expected true or false, got '" + value + "'");
}

int parseInt(const std::string& key, const std::string& value, int lo, int hi, const char* what) {
    double v = parseDouble(key, value);
    if (v != static_cast<double>(static_cast<long long>(v)))
        throw KnobError("knob " + key + ": expected an integer, got '" + value + "'");
    if (v < lo || v > hi) throw KnobError("knob " + key + ": " + what + ", got '" + value + "'");
    return static_cast<int>(v);
}

bool oneOf(const std::string& s, const char* const* b, const char* const* e) {
    for (auto it = b; it != e; ++it)
        if (s == *it) return true;
    return false;
}

} // namespace

std::string SimKnobs::validKeys() {
    return "compute.speedup, compute.speedup.<gemm|attention|elementwise|reduction|memory|other>, "
           "kernel.speedup[<regex>], kernel.class.<gemm|attention|elementwise|reduction|memory>, "
           "comm.speedup, comm.model, comm.gpus_per_node, comm.intra_node_GBps, comm.inter_node_GBps, "
           "comm.latency_us, comm.<all_reduce|all_gather|reduce_scatter|all_to_all|broadcast|reduce|"
           "send_recv>.<intra_node_GBps|inter_node_GBps|latency_us|inter_node_latency_us>, comm.algorithm, "
           "comm.overlap, "
           "cpu.speedup, cpu.speedup[<regex>] (a factor or inf), launch.latency_us, straggler.rank, "
           "straggler.slowdown, dp.scale";
}

bool SimKnobs::isReplay() const {
    SimKnobs d;
    return toJson() == d.toJson();
}

std::vector<std::string> SimKnobs::unsupported() const {
    return {};
}

nlohmann::json SimKnobs::toJson() const {
    nlohmann::json j;
    j["compute.speedup"] = computeSpeedup;
    for (const auto& [c, v] : computeClassSpeedup)
        j["compute.speedup." + c] = v;
    for (const auto& [re, v] : kernelSpeedup)
        j["kernel.speedup[" + re + "]"] = v;
    for (const auto& [c, re] : kernelClassPattern)
        j["kernel.class." + c] = re;
    j["comm.speedup"] = commSpeedup;
    j["comm.model"] = commModel;
    j["comm.gpus_per_node"] = commGpusPerNode;
    j["comm.intra_node_GBps"] = commIntraNodeGBps;
    j["comm.inter_node_GBps"] = commInterNodeGBps;
    j["comm.latency_us"] = commLatencyUs;
    for (const auto& [k, v] : commPerType)
        j["comm." + k] = v;
    j["comm.algorithm"] = commAlgorithm;
    j["comm.overlap"] = commOverlap;
    j["cpu.speedup"] = cpuSpeedup;
    // JSON has no infinity: "inf" is written as a string (and read back by setKnob).
    for (const auto& [re, v] : cpuRegionSpeedup)
        j["cpu.speedup[" + re + "]"] = std::isinf(v) ? nlohmann::json("inf") : nlohmann::json(v);
    j["launch.latency_us"] = launchLatencyUs;
    j["straggler.rank"] = stragglerRank;
    j["straggler.slowdown"] = stragglerSlowdown;
    j["dp.scale"] = dpScale;
    return j;
}

void setKnob(SimKnobs& k, const std::string& key, const std::string& value) {
    if (key == "compute.speedup") {
        k.computeSpeedup = parseSpeedup(key, value);
    } else if (key.rfind("compute.speedup.", 0) == 0) {
        std::string cls = key.substr(16);
        if (!oneOf(cls, std::begin(kClasses), std::end(kClasses)))
            throw KnobError(
                "knob " + key +
                ": unknown kernel class (gemm, attention, elementwise, reduction, memory, other)");
        k.computeClassSpeedup[cls] = parseSpeedup(key, value);
    } else if (key.rfind("kernel.speedup[", 0) == 0 && key.size() > 16 && key.back() == ']') {
        std::string re = key.substr(15, key.size() - 16);
        try {
            std::regex check(re);
        } catch (const std::regex_error&) {
            throw KnobError("knob " + key + ": invalid regular expression");
        }
        k.kernelSpeedup.emplace_back(re, parseSpeedup(key, value));
    } else if (key.rfind("kernel.class.", 0) == 0) {
        std::string cls = key.substr(13);
        if (!oneOf(cls, std::begin(kClasses), std::end(kClasses) - 1))
            throw KnobError("knob " + key +
                            ": unknown kernel class (gemm, attention, elementwise, reduction, memory; "
                            "other is what matches none)");
        try {
            KernelClassifier c;
            c.setPattern(*kernelClassFromName(cls), value);
        } catch (const std::regex_error&) {
            throw KnobError("knob " + key + ": invalid regular expression '" + value + "'");
        }
        k.kernelClassPattern[cls] = value;
    } else if (key == "comm.speedup") {
        k.commSpeedup = parseSpeedup(key, value);
    } else if (key == "comm.model") {
        if (value != "measured" && value != "alpha-beta")
            throw KnobError("knob comm.model: expected measured or alpha-beta, got '" + value + "'");
        k.commModel = value;
    } else if (key == "comm.gpus_per_node") {
        k.commGpusPerNode = parseInt(key, value, 0, 4096, "must be 1..4096 (0 = from the trace)");
    } else if (key == "comm.intra_node_GBps") {
        k.commIntraNodeGBps = inRange(key, value, 0, 1e6, false, "must be in [0, 1e6] GB/s (0 = calibrated)");
    } else if (key == "comm.inter_node_GBps") {
        k.commInterNodeGBps = inRange(key, value, 0, 1e6, false, "must be in [0, 1e6] GB/s (0 = calibrated)");
    } else if (key == "comm.latency_us") {
        double v = parseDouble(key, value);
        if (v != -1 && (v < 0 || v > 1e6))
            throw KnobError("knob comm.latency_us: must be in [0, 1e6] us (-1 = calibrated), got '" + value +
                            "'");
        k.commLatencyUs = v;
    } else if (key.rfind("comm.", 0) == 0 && key.find('.', 5) != std::string::npos &&
               oneOf(key.substr(5, key.find('.', 5) - 5), std::begin(kCommTypes), std::end(kCommTypes))) {
        std::string param = key.substr(key.find('.', 5) + 1);
        if (!oneOf(param, std::begin(kCommParams), std::end(kCommParams)))
            throw KnobError("knob " + key +
                            ": unknown parameter (intra_node_GBps, inter_node_GBps, latency_us, "
                            "inter_node_latency_us)");
        double v = param.find("latency_us") != std::string::npos
                       ? inRange(key, value, 0, 1e6, false, "must be in [0, 1e6] us")
                       : inRange(key, value, 0, 1e6, true, "must be a bandwidth in (0, 1e6] GB/s");
        k.commPerType[key.substr(5)] = v;
    } else if (key == "comm.algorithm") {
        if (value != "ring" && value != "tree")
            throw KnobError("knob comm.algorithm: expected ring or tree, got '" + value + "'");
        k.commAlgorithm = value;
    } else if (key == "comm.overlap") {
        k.commOverlap = parseBool(key, value);
    } else if (key == "cpu.speedup") {
        k.cpuSpeedup = parseSpeedup(key, value);
    } else if (key.rfind("cpu.speedup[", 0) == 0 && key.size() > 13 && key.back() == ']') {
        std::string re = key.substr(12, key.size() - 13);
        try {
            std::regex check(re);
        } catch (const std::regex_error&) {
            throw KnobError("knob " + key + ": invalid regular expression");
        }
        double v = value == "inf" || value == "Infinity" ? std::numeric_limits<double>::infinity()
                                                         : parseSpeedup(key, value);
        k.cpuRegionSpeedup.emplace_back(re, v);
    } else if (key == "launch.latency_us") {
        double v = parseDouble(key, value);
        if (v != -1 && (v < 0 || v > 1e6))
            throw KnobError("knob launch.latency_us: must be in [0, 1e6] us (-1 = from the trace), got '" +
                            value + "'");
        k.launchLatencyUs = v;
    } else if (key == "straggler.rank") {
        k.stragglerRank = parseInt(key, value, -1, 1 << 24, "must be a rank id >= 0 (-1 = none)");
    } else if (key == "straggler.slowdown") {
        k.stragglerSlowdown = inRange(key, value, 1, 1e6, false, "must be a factor in [1, 1e6] (1 = none)");
    } else if (key == "dp.scale") {
        k.dpScale = inRange(key, value, 1, 1e5, false, "must be a factor in [1, 1e5] (1 = as traced)");
    } else {
        throw KnobError("unknown knob '" + key + "'; valid keys: " + SimKnobs::validKeys());
    }
}

void setKnobAssignment(SimKnobs& knobs, const std::string& assignment) {
    auto eq = assignment.find('=');
    if (eq == std::string::npos || eq == 0) throw KnobError("expected key=value, got '" + assignment + "'");
    setKnob(knobs, assignment.substr(0, eq), assignment.substr(eq + 1));
}

namespace {

void applyJson(SimKnobs& knobs, const std::string& prefix, const nlohmann::json& j) {
    if (j.is_object()) {
        for (auto it = j.begin(); it != j.end(); ++it) {
            if (prefix.empty() && it.key() == "calibration") continue; // informative (calibrate)
            std::string key = prefix.empty() ? it.key() : prefix + "." + it.key();
            // "kernel": {"speedup": {"gemm": 2}} -> kernel.speedup[gemm]
            // "cpu": {"speedup": {"DataLoader": "inf"}} -> cpu.speedup[DataLoader]
            if ((key == "kernel.speedup" || key == "cpu.speedup") && it.value().is_object()) {
                for (auto kt = it.value().begin(); kt != it.value().end(); ++kt)
                    applyJson(knobs, key + "[" + kt.key() + "]", kt.value());
                continue;
            }
            // "compute": {"speedup": 2} and "compute": {"speedup": {"gemm": 2}} both work.
            applyJson(knobs, key, it.value());
        }
        return;
    }
    if (prefix.empty()) throw KnobError("a knob config must be a JSON object");
    if (prefix == "name" || prefix == "description") return; // preset labels
    std::string value;
    if (j.is_string())
        value = j.get<std::string>();
    else if (j.is_boolean())
        value = j.get<bool>() ? "true" : "false";
    else if (j.is_number())
        value = j.dump();
    else
        throw KnobError("knob " + prefix + ": unsupported value " + j.dump());
    setKnob(knobs, prefix, value);
}

} // namespace

void applyKnobsJson(SimKnobs& knobs, const nlohmann::json& config) {
    applyJson(knobs, "", config);
}

} // namespace sl
