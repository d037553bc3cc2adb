#pragma once
// How the GUI names and groups the knobs of the registry (sim/KnobRegistry.h): the knob panel's
// headings and labels, and the sweep's knob list use the same words (docs/WhatIfWorkbench.md,
// "Knob panel").
#include "sim/KnobRegistry.h"

#include <QString>

#include <string>

namespace sl::ui {

// The group of a knob by its key; groups sort in the panel's order (GPU, network, CPU, data
// parallel, job setup, hardware, other).
int knobGroup(const std::string& key);
QString knobGroupName(int group);
// The knob's short label: the registry's, else one given here (knobs that were CLI-only), else
// its key.
QString knobLabel(const KnobSpec& spec);

} // namespace sl::ui
