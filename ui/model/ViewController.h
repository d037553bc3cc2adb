#pragma once
#include "TimeMapping.h"

#include <QObject>

namespace sl::ui {

// The one zoom-and-scroll state that every timeline pane and the time axis follow: the visible
// time window, the width in pixels of the timeline area, and the vertical scroll offset.
class ViewController : public QObject {
    Q_OBJECT
public:
    explicit ViewController(QObject* parent = nullptr);

    // The extent of the loaded data; fits the window to it.
    void setBounds(TimeNs start, TimeNs end);
    // The same without moving the window: a simulation longer than the measured trace widens what
    // Fit All (Home) shows and how far one can pan, and a later shorter one narrows it again.
    void setBoundsKeepingWindow(TimeNs start, TimeNs end);
    TimeNs boundsStart() const { return boundsStart_; }
    TimeNs boundsEnd() const { return boundsEnd_; }
    void setViewportWidth(int px);
    int viewportWidth() const { return width_; }

    TimeNs windowStart() const { return start_; }
    TimeNs windowEnd() const { return end_; }
    TimeNs windowDuration() const { return end_ - start_; }
    TimeMapping mapping() const { return TimeMapping::fromWindow(start_, end_, width_); }

    // Shows [start, end), clamped to a window of at least kMinWindowNs and at most the bounds plus
    // margins.
    void setWindow(TimeNs start, TimeNs end);
    // factor > 1 zooms in; the time under pixel x stays under it.
    void zoomAt(double factor, double x);
    void zoom(double factor) { zoomAt(factor, width_ / 2.0); }
    // Moves the window right by dx pixels (negative: left).
    void panPixels(double dx);
    // Shows [start, end) with a small margin on both sides.
    void fitRange(TimeNs start, TimeNs end);
    void fitAll() { fitRange(boundsStart_, boundsEnd_); }

    int scrollY() const { return scrollY_; }
    void setScrollY(int y);

    // The width of the panes' track-label column (and the axis' left margin): shared, so that the
    // panes and the axis stay aligned when the user drags the column's edge.
    int gutterWidth() const { return gutter_; }
    void setGutterWidth(int px);
    static constexpr int kMinGutter = 80;
    static constexpr int kMaxGutter = 900;

    static constexpr TimeNs kMinWindowNs = 100;

signals:
    void windowChanged();
    void scrollYChanged(int y);
    void gutterWidthChanged(int px);

private:
    TimeNs boundsStart_ = 0;
    TimeNs boundsEnd_ = 1'000'000;
    TimeNs start_ = 0;
    TimeNs end_ = 1'000'000;
    int width_ = 1000;
    int scrollY_ = 0;
    int gutter_ = 200;
};

} // namespace sl::ui
