#pragma once
// How the GUI names the knobs of the registry (sim/KnobRegistry.h, which gives each knob its group
// and label): the knob panel's headings and labels, and the sweep's knob list, in the user's
// language (docs/WhatIfWorkbench.md, "Knob panel").
#include "sim/KnobRegistry.h"

#include <QString>

namespace sl::ui {

// The group's heading, translated.
QString knobGroupHeading(KnobGroup group);
// The knob's label, translated (its key when the registry gives none).
QString knobLabel(const KnobSpec& spec);

} // namespace sl::ui
