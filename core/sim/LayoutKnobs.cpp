#include "sim/LayoutKnobs.h"

#include "sim/Knobs.h"

#include <optional>
#include <string>
#include <string_view>

namespace sl {

namespace {

bool onOff(const std::string& key, const std::string& value) {
    if (value == "false" || value == "0") return false;
    if (value != "true" && value != "1")
        throw KnobError("knob " + key + ": expected true or false, got '" + value + "'");
    return true;
}

} // namespace

KnobFamily layoutSwitchFamily() {
    return KnobFamily{
        "tp.<reshape|resize_comm>",
        "Switches of tp.degree's model (docs/Layouts.md): reshape = false keeps every sharded kernel at "
        "its traced time; resize_comm = false keeps the tensor-parallel collectives at their traced "
        "group. Both true by default.",
        [](const std::string& key) -> std::optional<std::string> {
            if (key == "tp.reshape" || key == "tp.resize_comm") return key.substr(3);
            return std::nullopt;
        },
        [](SimKnobs& k, const std::string& key, const std::string& param, const std::string& value) {
            (param == "reshape" ? k.tpReshape : k.tpResizeComm) = onOff(key, value);
        },
        [](const SimKnobs& k, nlohmann::json& j) {
            if (!k.tpReshape) j["tp.reshape"] = false;
            if (!k.tpResizeComm) j["tp.resize_comm"] = false;
        }};
}

KnobFamily pipelineSwitchFamily() {
    return KnobFamily{
        "pp.transfers",
        "Switch of pp.degree's model (docs/Layouts.md): false makes the modelled stage-to-stage "
        "transfers free, to show what they contribute. True by default.",
        [](const std::string& key) -> std::optional<std::string> {
            if (key == "pp.transfers") return std::string("transfers");
            return std::nullopt;
        },
        [](SimKnobs& k, const std::string& key, const std::string&, const std::string& value) {
            k.ppTransfers = onOff(key, value);
        },
        [](const SimKnobs& k, nlohmann::json& j) {
            if (!k.ppTransfers) j["pp.transfers"] = false;
        }};
}

} // namespace sl
