#pragma once
// The knobs of the embedding what-if (sim/EmbeddingWhatIf.h): embedding.plan, embedding.tables,
// embedding.calibrate, embedding.resize_comm, as one family of the knob registry.
#include "sim/KnobRegistry.h"

namespace sl {

KnobFamily embeddingKnobFamily();

} // namespace sl
