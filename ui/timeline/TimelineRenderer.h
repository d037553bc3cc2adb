#pragma once
#include "DeltaColours.h"
#include "DependencyLinks.h"
#include "Highlights.h"
#include "Palette.h"
#include "RowLayout.h"
#include "Selection.h"
#include "TimeMapping.h"
#include "TimelineData.h"

#include <QColor>
#include <QFont>
#include <QRect>
#include <QString>

#include <array>
#include <vector>

class QPainter;

namespace sl::ui {

struct ReplayDifferences;

// What to draw on top of the events.
struct RenderState {
    EventId selected;
    TimeNs rangeStart = 0;
    TimeNs rangeEnd = 0; // no range when rangeEnd <= rangeStart
    TimeNs origin = 0;   // time shown as zero
    // Highlights (all optional): the pane's precomputed flags, path bars and exposed intervals.
    const PaneHighlights* highlights = nullptr;
    bool criticalPath = false; // events dimmed, their on-path slices in path colours, waits striped
    bool exposed = false;      // exposed communication hatched on communication streams and lanes
    const SelectionLinks* links = nullptr; // arrows of the selected event, collective links
    // Names to outline (find matches): matches[rank][name id]; ranks or ids it lacks are unmarked.
    const std::vector<std::vector<bool>>* matches = nullptr;
    // Where simulation and measurement differ (docs/WhatIfWorkbench.md, "Shift"): the measured
    // timeline of the same set (event indices match). With it the selected event's measured place
    // is outlined; with shiftScale > 0 too, events are coloured by simulated minus measured start
    // on a diverging scale (earlier blue, later red, saturated at +-shiftScale).
    const TimelineData* reference = nullptr;
    TimeNs shiftScale = 0;
    // One pane under replay: each rank's spans where the hidden replay differs, shaded over its rows.
    const ReplayDifferences* differences = nullptr;
    // Colour by delta against the comparison run (DeltaColours.h): a bin per event of this set;
    // events without one are dimmed. Null: normal colours.
    const EventDeltas* deltas = nullptr;
};

// The shift colour scale: kShiftBins bins, the middle one for "no shift".
constexpr int kShiftBins = 9;
// The bin of a shift (simulated - measured start) for a scale saturating at +-scale.
int shiftBin(TimeNs shift, TimeNs scale);
QColor shiftColour(int bin);

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

// Paints a timeline pane with QPainter: only events inside the window (binary search in each
// lane), sub-pixel runs folded into one box whose colour is the longest event's, one fill call per
// colour, names where they fit. Keeps a cache of label texts between frames.
class TimelineRenderer {
public:
    // The label column's default width (ViewController::gutterWidth() is the current one).
    static constexpr int kGutterWidth = 200;

    // Paints the event area of size `size` (painter origin at its top-left), rows shifted up by scrollY.
    RenderStats paintEvents(QPainter& p, const TimelineData& data, const RowLayout& layout,
                            const TimeMapping& m, QSize size, int scrollY, const RenderState& state);
    // Paints the track names column, gutterWidth wide.
    void paintGutter(QPainter& p, const TimelineData& data, const RowLayout& layout,
                     const class TrackState& tracks, int height, int scrollY, const QString& title,
                     int gutterWidth = kGutterWidth);
    // The event under content point (x in the event area, y in content coordinates), if any.
    static EventId hitTest(const TimelineData& data, const RowLayout& layout, const TimeMapping& m, double x,
                           int y);
    // Where an event is drawn in content coordinates (x in the event area); empty if not laid out.
    static QRectF eventRect(const TimelineData& data, const RowLayout& layout, const TimeMapping& m,
                            EventId e);

    void clearCache() { labels_.clear(); }
    void setFont(const QFont& f);

private:
    struct Label {
        QString text;
        int width = -1;
    };
    struct PendingLabel {
        QRect rect;
        int rank;
        StringId name;
        Category category;
    };
    const Label& label(const TimelineData& data, int rank, StringId name);
    // flags: per-event highlight flags when the critical path is shown (nullptr: nothing on the path
    // in this track, all dimmed), dim: whether the critical path is shown. boxHeight 0: a lane's height;
    // labels false: a collapsed rank's summary strip (no names, one shade per category).
    void paintLane(const TimelineData& data, int rank, const TrackTimeline& track, const Lane& lane,
                   const TimeMapping& m, int width, int top, const std::uint8_t* flags, bool dim,
                   const std::vector<bool>* matches, RenderStats& stats, int boxHeight = 0,
                   bool labels = true);
    void paintHighlights(QPainter& p, const RowLayout& layout, const TimeMapping& m, QSize size, int scrollY,
                         int firstRow, int lastRow, const RenderState& state, RenderStats& stats);
    void paintDifferences(QPainter& p, const RowLayout& layout, const TimeMapping& m, QSize size, int scrollY,
                          int firstRow, int lastRow, const ReplayDifferences& d, RenderStats& stats);
    void paintJoints(QPainter& p, const RowLayout& layout, const TimeMapping& m, QSize size, int scrollY,
                     const PaneHighlights& h, RenderStats& stats);
    void paintLinks(QPainter& p, const TimelineData& data, const RowLayout& layout, const TimeMapping& m,
                    QSize size, int scrollY, const SelectionLinks& links, RenderStats& stats);

    // Colour buckets: normal category shades, dimmed category shades, critical-path labels.
    static constexpr int kNormalBuckets = kCategoryCount * palette::kShades;
    static constexpr int kShiftBase = 2 * kNormalBuckets + kPathLabelCount;
    static constexpr int kDeltaBase = kShiftBase + kShiftBins;
    static constexpr int kBuckets = kDeltaBase + kDeltaBins;
    std::array<std::vector<QRect>, kBuckets> batches_;
    std::array<std::vector<QRect>, kPathLabelCount> pathBatches_;
    std::array<std::vector<QRect>, kPathLabelCount> waitBatches_; // striped path waits
    std::vector<QRect> exposedRects_;
    std::vector<QRect> hatchRects_;
    std::vector<QRect> matchRects_;
    std::vector<PendingLabel> pendingLabels_;
    std::vector<std::vector<Label>> labels_; // [rank][name id]
    // The measured track of the lane being painted when colouring by shift (null: normal colours).
    const TrackTimeline* shiftRef_ = nullptr;
    TimeNs shiftScale_ = 0;
    // The delta bins of the lane's track when colouring by delta (null: not).
    const EventDeltas* deltas_ = nullptr;
    const std::int8_t* deltaRef_ = nullptr;
    QFont font_;
    int charWidth_ = 7;
    int ellipsisWidth_ = 10;
    bool fontReady_ = false;
};

} // namespace sl::ui
