#pragma once
// A what-if scenario's name from its knobs, as a person would say it (docs/WhatIfWorkbench.md,
// "Scenario names"): "GPU 2x + network 2x", "dp x32", "rank 5 1.3x slower". The knob list beside
// it keeps the exact `key = value` form the CLI takes.
#include "sim/Knobs.h"

#include <QString>
#include <QStringList>

namespace sl::ui {

// One phrase per changed knob (paired knobs, such as a straggler's rank and slowdown, make one),
// in the registry's order; the batch (batch.samples, batch.tokens) describes the trace, not a
// what-if, and is left out.
QStringList knobPhrases(const SimKnobs& knobs);
// The phrases joined with " + ", the first three and "N more"; "What-if" when nothing changed.
QString scenarioNameFor(const SimKnobs& knobs);

} // namespace sl::ui
