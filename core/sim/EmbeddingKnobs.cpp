#include "sim/EmbeddingKnobs.h"

#include "sim/Knobs.h"

#include <optional>
#include <string>
#include <string_view>

namespace sl {

KnobFamily embeddingKnobFamily() {
    return KnobFamily{
        "embedding.<plan|tables|calibrate|resize_comm>",
        "Embedding tables (docs/Embeddings.md): plan = a plan.json (path or JSON text) whose placement "
        "of the tables re-times the lookups and their all-to-alls; tables = the tables.json side file "
        "(else inferred from the trace); calibrate / resize_comm = false switch off the lookup model's "
        "calibration on the trace / the all-to-all re-sizing.",
        [](const std::string& key) -> std::optional<std::string> {
            constexpr std::string_view prefix = "embedding.";
            if (key.size() > prefix.size() && key.starts_with(prefix)) return key.substr(prefix.size());
            return std::nullopt;
        },
        [](SimKnobs& k, const std::string& key, const std::string& param, const std::string& value) {
            auto flag = [&] {
                if (value == "true" || value == "1") return true;
                if (value == "false" || value == "0") return false;
                throw KnobError("knob " + key + ": expected true or false, got '" + value + "'");
            };
            if (param == "plan")
                k.embeddingPlan = value;
            else if (param == "tables")
                k.embeddingTables = value;
            else if (param == "calibrate")
                k.embeddingCalibrate = flag();
            else if (param == "resize_comm")
                k.embeddingResizeComm = flag();
            else
                throw KnobError("knob " + key +
                                ": unknown (embedding.plan, embedding.tables, "
                                "embedding.calibrate, embedding.resize_comm)");
        },
        [](const SimKnobs& k, nlohmann::json& j) {
            if (!k.embeddingPlan.empty()) j["embedding.plan"] = k.embeddingPlan;
            if (!k.embeddingTables.empty()) j["embedding.tables"] = k.embeddingTables;
            if (!k.embeddingCalibrate) j["embedding.calibrate"] = false;
            if (!k.embeddingResizeComm) j["embedding.resize_comm"] = false;
        }};
}

} // namespace sl
