#pragma once
#include "Selection.h"
#include "TimelineData.h"

#include <QString>

namespace sl::ui {

// One-line-per-field HTML for a hover tooltip: name, kind, start, duration, with digits down to
// `resolution` ns (what one pixel of the current zoom tells apart; see resolutionFor()).
QString eventTooltip(const TimelineData& data, EventId e, TimeNs resolution = 1);
// The details of an event as HTML: name, kind, rank and track, measured times (exact, to the ns)
// and, when a simulated timeline is given, simulated times and their signed difference; collective metadata;
// the launch partner; args pretty-printed.
QString eventDetailsHtml(const TimelineData& measured, const TimelineData* simulated, EventId e);
// The args JSON of an event, indented; empty when it has none.
QString prettyArgs(std::string_view argsJson);

} // namespace sl::ui
