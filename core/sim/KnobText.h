#pragma once
// A knob's value as text (docs/ARCHITECTURE.md, "Knob registry"): the one formatter behind
// `sightline-cli knobs`, --set assignments, the HTML report's knobs and the scenario names.
#include <nlohmann/json.hpp>

#include <string>

namespace sl {

// How a number is written.
enum class KnobNumberStyle {
    // The shortest text that reads back to the same double, exponents as people write them ("2",
    // "0.5", "1e6"): what `sightline-cli knobs` prints and --set reads back exactly.
    Exact,
    // At most 12 significant digits, C's %g ("0.3" for 0.1 + 0.2, "1e+06"): a value a person typed
    // or a sweep stepped to, shown without the binary rounding noise of the last digits.
    Readable,
    // Whole numbers in full ("1000000", "2" for 2.0), others as JSON writes them ("0.5", "1e-07"):
    // the report's knob chips and table (report/HtmlParts.h), as its golden files show them.
    Whole,
};

// `v` as text; infinity as "inf" / "-inf" (Whole: as JSON writes it, null).
std::string knobNumberText(double v, KnobNumberStyle style = KnobNumberStyle::Exact);

// A knob's JSON value (SimKnobs::toJson()) as text: a number by `style`, a string as it is,
// anything else (true, false) as JSON writes it (invalid UTF-8 replaced).
std::string knobValueText(const nlohmann::json& value, KnobNumberStyle style = KnobNumberStyle::Exact);

} // namespace sl
