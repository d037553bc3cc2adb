#pragma once
// A what-if scenario's name from its knobs, as a person would say it (docs/WhatIfWorkbench.md,
// "Scenario names"): "GPU 2x + network 2x", "dp x32", "rank 5 1.3x slower". The knob list beside
// it keeps the exact `key = value` form the CLI takes.
#include "sim/Knobs.h"

#include <nlohmann/json.hpp>

#include <QString>
#include <QStringList>

namespace sl::ui {

// A knob's value as the knob list and the names write it: numbers with up to 12 digits (a batch of
// 1048576 tokens reads as such, not 1.04858e+06), words as they are (sim/KnobText.h, Readable).
QString knobValueText(const nlohmann::json& value);

// One phrase per changed knob (paired knobs, such as a straggler's rank and slowdown, make one),
// in the registry's order; the batch (batch.samples, batch.tokens) describes the trace, not a
// what-if, and is left out.
QStringList knobPhrases(const SimKnobs& knobs);
// The phrases joined with " + ", the first three and "N more"; "What-if" when nothing changed.
QString scenarioNameFor(const SimKnobs& knobs);

} // namespace sl::ui
