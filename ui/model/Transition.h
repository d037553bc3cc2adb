#pragma once
// Transitions between scenarios (docs/Annotations.md, "Transitions"): when a pane switches from one
// scenario's timeline to another's of the same trace set, its events move from their old to their
// new times over about 400 ms, so a class sees what moved. A frame is a timeline whose times are
// interpolated between the two.
#include "TimelineData.h"

#include <memory>

namespace sl::ui {

// Panes over more events than this switch at once: a frame rebuilds the drawing index.
constexpr std::int64_t kMaxTransitionEvents = 400'000;
constexpr int kTransitionMs = 400;

// The timeline of the same set with every event at from + (to - from) x t (t in [0, 1]); events
// without a time in either (-1: outside the window) take `to`'s. Null when the two are of
// different sets.
std::shared_ptr<const TimelineData> interpolateTimeline(const TimelineData& from, const TimelineData& to,
                                                        double t);

} // namespace sl::ui
