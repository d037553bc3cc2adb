#pragma once
// The timeline renderer paints a frame in passes (docs/ARCHITECTURE.md, "Painting in passes"), as
// Qt Creator's timeline renderer does: the events first, then each overlay over them, in a fixed
// order. Each pass reads its own state (the structs below; RenderState, which a pane fills once per
// frame, is their sum) and is called once per frame, never per event: the per-event work stays in
// the events pass's loops, which read the other passes' states as plain data.
#include "DeltaColours.h"
#include "DependencyLinks.h"
#include "Highlights.h"
#include "RowLayout.h"
#include "Selection.h"
#include "TimeMapping.h"
#include "TimelineData.h"

#include <QColor>
#include <QSize>

#include <vector>

class QPainter;

namespace sl::ui {

struct Note;
struct ReplayDifferences;

// The events: the time shown as zero (the grid) and, against a comparison run, a colour per event
// by delta (DeltaColours.h; events without one are dimmed). Null: normal colours.
struct EventsState {
    TimeNs origin = 0;
    const EventDeltas* deltas = nullptr;
};
// The pane's precomputed highlights (flags, path bars, exposed intervals), read by the critical
// path and exposed communication passes and by the events pass, which dims under the path.
struct HighlightsState {
    const PaneHighlights* highlights = nullptr;
};
// The critical path: events dimmed, their on-path slices in path colours, waits striped.
struct CriticalPathState {
    bool criticalPath = false;
};
// Exposed communication, hatched on communication streams and solid in the exposed lanes.
struct ExposedState {
    bool exposed = false;
};
// Names to outline (find matches): matches[rank][name id]; ranks or ids it lacks are unmarked.
struct MatchesState {
    const std::vector<std::vector<bool>>* matches = nullptr;
};
// Where simulation and measurement differ (docs/WhatIfWorkbench.md, "Shift"): the measured
// timeline of the same set (event indices match). With it the selected event's measured place is
// outlined; with shiftScale > 0 too, events are coloured by simulated minus measured start on a
// diverging scale (earlier blue, later red, saturated at +-shiftScale).
struct ShiftState {
    const TimelineData* reference = nullptr;
    TimeNs shiftScale = 0;
};
// The shift colour scale: kShiftBins bins, the middle one for "no shift".
constexpr int kShiftBins = 9;
// The bin of a shift (simulated - measured start) for a scale saturating at +-scale.
int shiftBin(TimeNs shift, TimeNs scale);
QColor shiftColour(int bin);

// One pane under replay: each rank's spans where the hidden replay differs, shaded over its rows.
struct DifferencesState {
    const ReplayDifferences* differences = nullptr;
};
// The selected event and the selected time range (none when rangeEnd <= rangeStart).
struct SelectionState {
    EventId selected;
    TimeNs rangeStart = 0;
    TimeNs rangeEnd = 0;
};
// Arrows of the selected event, collective links.
struct LinksState {
    const SelectionLinks* links = nullptr;
};

// The session's notes and bookmarks (Annotations.h), drawn over everything else.
struct AnnotationsState {
    const std::vector<Note>* notes = nullptr;
};

// What to draw: every pass's state.
struct RenderState : SelectionState,
                     EventsState,
                     HighlightsState,
                     CriticalPathState,
                     ExposedState,
                     LinksState,
                     MatchesState,
                     ShiftState,
                     DifferencesState,
                     AnnotationsState {};

struct RenderStats {
    int boxes = 0;  // rectangles filled
    int labels = 0; // names drawn
    int pathBars = 0;
    int pathJoints = 0; // lines where the path moves to another rank
    int exposedBoxes = 0;
    int arrows = 0;
    int matches = 0;         // boxes outlined as find matches
    int summaryLanes = 0;    // GPU streams folded into the header rows of collapsed ranks
    int differenceBoxes = 0; // replay differences shaded (one pane under replay)
};

// One frame: the event area of size `size` (painter origin at its top-left), rows shifted up by
// scrollY, of which rows [firstRow, lastRow) are in view.
struct RenderFrame {
    QPainter& p;
    const TimelineData& data;
    const RowLayout& layout;
    const TimeMapping& m;
    QSize size;
    int scrollY = 0;
    int firstRow = 0;
    int lastRow = 0;
    const RenderState& state;
    RenderStats& stats;
};

class RenderPass {
public:
    virtual ~RenderPass() = default;
    // Paints the pass over what the passes before it painted (does nothing when its state is off).
    virtual void paint(const RenderFrame& frame) = 0;
};

} // namespace sl::ui
