#pragma once
// Events coloured by delta against the comparison run (docs/Compare.md, "In the desktop program"): each
// GPU op of either run by its duration against its aligned op in the other run (analysis/
// RunComparison.h; the ops of a unit aligned through their CPU op share the unit's ratio). Faster
// green, slower red, three steps each way; within the run-to-run noise grey; an op with no aligned
// op in the other run purple; everything else (CPU calls, ops outside the step) dimmed. Each pane
// speaks for its own run: an op that got faster is green below (the comparison run) and red above.
#include "trace/Time.h"

#include <QColor>
#include <QString>

#include <cstdint>
#include <vector>

namespace sl {
struct TraceSet;
}

namespace sl::ui {

constexpr int kDeltaBins = 8;
constexpr int kDeltaSame = 3;      // within the noise
constexpr int kDeltaUnmatched = 7; // no aligned op in the other run
constexpr std::int8_t kNotCompared = -1;
// The steps of a change beyond the noise, in percent of the other run's time.
constexpr double kDeltaSteps[] = {10.0, 25.0};

// The bin of an op that took `mine` here and `other` in the other run; changes within samePct
// percent are "same".
int deltaBin(TimeNs mine, TimeNs other, double samePct);
QColor deltaColour(int bin);

// A bin per event of a trace set: bins[rank][track][event], kNotCompared when not compared.
struct EventDeltas {
    const TraceSet* set = nullptr; // the set whose events these are
    std::vector<std::vector<std::vector<std::int8_t>>> bins;
    // The track's bins, or null when the set has none for it.
    const std::int8_t* track(std::size_t rank, std::size_t track) const;
    std::int8_t at(int rank, std::uint32_t track, std::uint32_t event) const;
};

} // namespace sl::ui
