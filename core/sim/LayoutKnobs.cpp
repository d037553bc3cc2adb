#include "sim/LayoutKnobs.h"

#include "sim/Knobs.h"

#include <cctype>
#include <optional>
#include <sstream>
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

// "3, 1" -> {3, 1}: a list of layer counts, each a whole number >= 1.
std::vector<int> layerCounts(const std::string& key, const std::string& value) {
    std::vector<int> counts;
    std::stringstream in(value);
    std::string item;
    while (std::getline(in, item, ',')) {
        while (!item.empty() && std::isspace(static_cast<unsigned char>(item.back())))
            item.pop_back();
        while (!item.empty() && std::isspace(static_cast<unsigned char>(item.front())))
            item.erase(item.begin());
        const std::size_t sign = !item.empty() && item.front() == '-' ? 1 : 0; // "-1": a count < 1
        bool digits = item.size() > sign && item.size() <= 6;
        for (std::size_t i = sign; i < item.size(); ++i)
            digits = digits && std::isdigit(static_cast<unsigned char>(item[i]));
        if (!digits)
            throw KnobError("knob " + key + ": '" + value +
                            "' is not even, time or a list of layers per stage such as 3,1");
        const int n = std::stoi(item);
        if (n < 1)
            throw KnobError("knob " + key + ": every stage needs at least one layer, got " + item + " in '" +
                            value + "'");
        counts.push_back(n);
    }
    if (counts.empty() || value.back() == ',')
        throw KnobError("knob " + key + ": '" + value +
                        "' is not even, time or a list of layers per stage such as 3,1");
    return counts;
}

} // namespace

std::string pipelineSplitText(const SimKnobs& k) {
    if (k.ppSplit == PipelineSplit::Even) return "even";
    if (k.ppSplit == PipelineSplit::Time) return "time";
    std::string t;
    for (int n : k.ppSplitLayers)
        t.append(t.empty() ? "" : ",").append(std::to_string(n));
    return t;
}

KnobFamily pipelineSplitFamily() {
    return KnobFamily{
        "pp.split",
        "How pp.degree gives the layers to its stages (docs/Layouts.md): even = equal contiguous counts "
        "(pp.degree must divide the layers); time = contiguous stages that minimise the largest stage's "
        "measured GPU time (the embedding counted on the first stage, the LM head and loss on the last; "
        "every stage at least one layer); a,b,... = the layers of each stage, pp.degree counts summing to "
        "the layers. Even by default; with pp.degree only, on a trace of one pipeline stage.",
        [](const std::string& key) -> std::optional<std::string> {
            if (key == "pp.split") return std::string("split");
            return std::nullopt;
        },
        [](SimKnobs& k, const std::string& key, const std::string&, const std::string& value) {
            k.ppSplitLayers.clear();
            if (value == "even") {
                k.ppSplit = PipelineSplit::Even;
            } else if (value == "time") {
                k.ppSplit = PipelineSplit::Time;
            } else {
                k.ppSplitLayers = layerCounts(key, value);
                k.ppSplit = PipelineSplit::Counts;
            }
        },
        [](const SimKnobs& k, nlohmann::json& j) {
            if (k.ppSplit != PipelineSplit::Even) j["pp.split"] = pipelineSplitText(k);
        }};
}

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
