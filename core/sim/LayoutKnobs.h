#pragma once
// The switches of tp.degree's model (docs/Layouts.md), tp.reshape and tp.resize_comm, as one
// family of the knob registry: set to false they show what each part of the prediction contributes.
#include "sim/KnobRegistry.h"

#include <string>

namespace sl {

KnobFamily layoutSwitchFamily();
// pp.transfers (docs/Layouts.md, "pp.degree"): false makes pp.degree's stage-to-stage transfers free.
KnobFamily pipelineSwitchFamily();
// pp.split (docs/Layouts.md, "pp.degree"): even | time | a,b,... (layers per stage).
KnobFamily pipelineSplitFamily();
// The value of pp.split as written ("even", "time", "3,1").
std::string pipelineSplitText(const SimKnobs& k);

} // namespace sl
