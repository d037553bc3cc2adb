#include "sim/Knobs.h"

#include <cerrno>
#include <cstdlib>
#include <regex>

namespace sl {

namespace {

const char* const kClasses[] = {"gemm", "attention", "elementwise", "reduction", "memory", "other"};

double parseDouble(const std::string& key, const std::string& value) {
    const char* b = value.c_str();
    char* end = nullptr;
    errno = 0;
    double v = std::strtod(b, &end);
    if (end == b || *end != '\0' || errno == ERANGE)
        throw KnobError("knob " + key + ": '" + value + "' is not a number");
    return v;
}

double parseSpeedup(const std::string& key, const std::string& value) {
    double v = parseDouble(key, value);
    if (!(v > 0) || v > 1e9)
        throw KnobError("knob " + key + ": must be a positive number, got '" + value + "'");
    return v;
}

bool parseBool(const std::string& key, const std::string& value) {
    if (value == "true" || value == "1" || value == "on" || value == "yes") return true;
    if (value == "false" || value == "0" || value == "off" || value == "no") return false;
    throw KnobError("knob " + key + ": expected true or false, got '" + value + "'");
}

int parseInt(const std::string& key, const std::string& value) {
    double v = parseDouble(key, value);
    if (v != static_cast<double>(static_cast<long long>(v)) || v < -1 || v > 1e9)
        throw KnobError("knob " + key + ": expected an integer, got '" + value + "'");
    return static_cast<int>(v);
}

double nonNegative(const std::string& key, const std::string& value) {
    double v = parseDouble(key, value);
    if (v < 0) throw KnobError("knob " + key + ": must not be negative");
    return v;
}

} // namespace

bool SimKnobs::isReplay() const {
    SimKnobs d;
    return toJson() == d.toJson();
}

std::vector<std::string> SimKnobs::unsupported() const {
    std::vector<std::string> out;
    SimKnobs d;
    if (commModel != d.commModel) out.push_back("comm.model");
    if (commOverlap != d.commOverlap) out.push_back("comm.overlap");
    if (dpScale != d.dpScale) out.push_back("dp.scale");
    return out;
}

nlohmann::json SimKnobs::toJson() const {
    nlohmann::json j;
    j["compute.speedup"] = computeSpeedup;
    for (const auto& [c, v] : computeClassSpeedup)
        j["compute.speedup." + c] = v;
    for (const auto& [re, v] : kernelSpeedup)
        j["kernel.speedup[" + re + "]"] = v;
    j["comm.speedup"] = commSpeedup;
    j["comm.model"] = commModel;
    j["comm.gpus_per_node"] = commGpusPerNode;
    j["comm.intra_node_GBps"] = commIntraNodeGBps;
    j["comm.inter_node_GBps"] = commInterNodeGBps;
    j["comm.latency_us"] = commLatencyUs;
    j["comm.algorithm"] = commAlgorithm;
    j["comm.overlap"] = commOverlap;
    j["cpu.speedup"] = cpuSpeedup;
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
        bool known = false;
        for (const char* c : kClasses)
            known = known || cls == c;
        if (!known)
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
    } else if (key == "comm.speedup") {
        k.commSpeedup = parseSpeedup(key, value);
    } else if (key == "comm.model") {
        if (value != "measured" && value != "alpha-beta")
            throw KnobError("knob comm.model: expected measured or alpha-beta, got '" + value + "'");
        k.commModel = value;
    } else if (key == "comm.gpus_per_node") {
        k.commGpusPerNode = parseInt(key, value);
        if (k.commGpusPerNode < 1) throw KnobError("knob comm.gpus_per_node: must be at least 1");
    } else if (key == "comm.intra_node_GBps") {
        k.commIntraNodeGBps = nonNegative(key, value);
    } else if (key == "comm.inter_node_GBps") {
        k.commInterNodeGBps = nonNegative(key, value);
    } else if (key == "comm.latency_us") {
        k.commLatencyUs = nonNegative(key, value);
    } else if (key == "comm.algorithm") {
        if (value != "ring" && value != "tree")
            throw KnobError("knob comm.algorithm: expected ring or tree, got '" + value + "'");
        k.commAlgorithm = value;
    } else if (key == "comm.overlap") {
        k.commOverlap = parseBool(key, value);
    } else if (key == "cpu.speedup") {
        k.cpuSpeedup = parseSpeedup(key, value);
    } else if (key == "launch.latency_us") {
        k.launchLatencyUs = parseDouble(key, value);
    } else if (key == "straggler.rank") {
        k.stragglerRank = parseInt(key, value);
    } else if (key == "straggler.slowdown") {
        k.stragglerSlowdown = parseSpeedup(key, value);
    } else if (key == "dp.scale") {
        k.dpScale = parseSpeedup(key, value);
    } else {
        throw KnobError(
            "unknown knob '" + key +
            "'; valid keys: compute.speedup, compute.speedup.<gemm|attention|elementwise|reduction|"
            "memory|other>, kernel.speedup[<regex>], comm.speedup, comm.model, comm.gpus_per_node, "
            "comm.intra_node_GBps, comm.inter_node_GBps, comm.latency_us, comm.algorithm, "
            "comm.overlap, cpu.speedup, launch.latency_us, straggler.rank, straggler.slowdown, "
            "dp.scale");
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
            std::string key = prefix.empty() ? it.key() : prefix + "." + it.key();
            // "kernel": {"speedup": {"gemm": 2}} -> kernel.speedup[gemm]
            if (key == "kernel.speedup" && it.value().is_object()) {
                for (auto kt = it.value().begin(); kt != it.value().end(); ++kt)
                    applyJson(knobs, "kernel.speedup[" + kt.key() + "]", kt.value());
                continue;
            }
            // "compute": {"speedup": 2} and "compute": {"speedup": {"gemm": 2}} both work.
            applyJson(knobs, key, it.value());
        }
        return;
    }
    if (prefix.empty()) throw KnobError("a knob config must be a JSON object");
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
