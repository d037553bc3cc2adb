#pragma once
#include "EventPasses.h"
#include "RenderPass.h"

#include <QFont>
#include <QRect>
#include <QString>

#include <memory>
#include <vector>

class QPainter;

namespace sl::ui {

// Paints a timeline pane with QPainter, in passes (RenderPass.h): the events (EventPasses.h), then
// the overlays (OverlayPasses.h), the names and the find matches, then the selection and the links,
// each pass once per frame with its own state.
class TimelineRenderer {
public:
    // The label column's default width (ViewController::gutterWidth() is the current one).
    static constexpr int kGutterWidth = 200;

    TimelineRenderer();
    ~TimelineRenderer();
    TimelineRenderer(const TimelineRenderer&) = delete;
    TimelineRenderer& operator=(const TimelineRenderer&) = delete;

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

    void clearCache() { labels_->clearCache(); }
    void setFont(const QFont& f) { labels_->setFont(f); }

private:
    EventMarks marks_; // what the events pass leaves for the names and the matches
    std::vector<std::unique_ptr<RenderPass>> passes_;
    LabelsPass* labels_ = nullptr; // one of passes_: its font and its cache of label texts
};

} // namespace sl::ui
