#pragma once
#include "Palette.h"
#include "RowLayout.h"
#include "Selection.h"
#include "TimeMapping.h"
#include "TimelineData.h"

#include <QFont>
#include <QRect>
#include <QString>

#include <array>
#include <vector>

class QPainter;

namespace sl::ui {

// What to draw on top of the events.
struct RenderState {
    EventId selected;
    TimeNs rangeStart = 0;
    TimeNs rangeEnd = 0; // no range when rangeEnd <= rangeStart
    TimeNs origin = 0;   // time shown as zero
};

struct RenderStats {
    int boxes = 0;  // rectangles filled
    int labels = 0; // names drawn
};

// Paints a timeline pane with QPainter: only events inside the window (binary search in each
// lane), sub-pixel runs folded into one box whose colour is the longest event's, one fill call per
// colour, names where they fit. Keeps a cache of label texts between frames.
class TimelineRenderer {
public:
    static constexpr int kGutterWidth = 200;

    // Paints the event area of size `size` (painter origin at its top-left), rows shifted up by scrollY.
    RenderStats paintEvents(QPainter& p, const TimelineData& data, const RowLayout& layout,
                            const TimeMapping& m, QSize size, int scrollY, const RenderState& state);
    // Paints the track names column of width kGutterWidth.
    void paintGutter(QPainter& p, const TimelineData& data, const RowLayout& layout,
                     const class TrackState& tracks, int height, int scrollY, const QString& title);
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
    void paintLane(const TimelineData& data, int rank, const TrackTimeline& track, const Lane& lane,
                   const TimeMapping& m, int width, int top, RenderStats& stats);

    static constexpr int kBuckets = kCategoryCount * palette::kShades;
    std::array<std::vector<QRect>, kBuckets> batches_;
    std::vector<PendingLabel> pendingLabels_;
    std::vector<std::vector<Label>> labels_; // [rank][name id]
    QFont font_;
    int charWidth_ = 7;
    int ellipsisWidth_ = 10;
    bool fontReady_ = false;
};

} // namespace sl::ui
