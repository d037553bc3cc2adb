#pragma once
// The switches of tp.degree's model (docs/Layouts.md), tp.reshape and tp.resize_comm, as one
// family of the knob registry: set to false they show what each part of the prediction contributes.
#include "sim/KnobRegistry.h"

namespace sl {

KnobFamily layoutSwitchFamily();
// pp.transfers (docs/Layouts.md, "pp.degree"): false makes pp.degree's stage-to-stage transfers free.
KnobFamily pipelineSwitchFamily();

} // namespace sl
