#include "sim/Knobs.h"

#include "sim/KnobRegistry.h"

namespace sl {

std::string SimKnobs::validKeys() {
    std::string keys;
    for (const auto& s : knobSpecs())
        keys += (keys.empty() ? "" : ", ") + s.key;
    for (const auto& f : knobFamilies())
        keys += ", " + f.pattern;
    return keys;
}

bool SimKnobs::isReplay() const {
    SimKnobs k = *this;
    k.batchSamples = k.batchTokens = 0;
    return k == SimKnobs{};
}

std::vector<std::string> SimKnobs::unsupported() const {
    return {};
}

nlohmann::json SimKnobs::toJson() const {
    nlohmann::json j = nlohmann::json::object();
    for (const auto& s : knobSpecs())
        j[s.key] = s.toJson(*this);
    for (const auto& f : knobFamilies())
        f.write(*this, j);
    return j;
}

void setKnob(SimKnobs& k, const std::string& key, const std::string& value) {
    if (const KnobSpec* spec = findKnobSpec(key)) {
        spec->set(k, value);
        return;
    }
    for (const auto& f : knobFamilies())
        if (auto param = f.match(key)) {
            f.set(k, key, *param, value);
            return;
        }
    throw KnobError("unknown knob '" + key + "'; valid keys: " + SimKnobs::validKeys() +
                    " (sightline-cli knobs describes each)");
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
    else if (j.is_array() && prefix == "straggler.ranks") // [3, 7, "100..120"]
        for (const auto& item : j)
            value += (value.empty() ? "" : ",") + (item.is_string() ? item.get<std::string>() : item.dump());
    else
        throw KnobError("knob " + prefix + ": unsupported value " + j.dump());
    setKnob(knobs, prefix, value);
}

} // namespace

void applyKnobsJson(SimKnobs& knobs, const nlohmann::json& config) {
    applyJson(knobs, "", config);
}

} // namespace sl
