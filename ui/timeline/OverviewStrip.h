#pragma once
#include "TimelineData.h"

#include <QWidget>

#include <memory>
#include <vector>

namespace sl::ui {

class ViewController;

// A thin strip above the axis with the whole trace: how busy the GPUs are over time (all ranks and
// streams, darker = more streams busy) and a frame around the window the panes show. Click or drag
// to move the window there (its width stays); the wheel zooms at the cursor like in the panes.
class OverviewStrip : public QWidget {
    Q_OBJECT
public:
    OverviewStrip(ViewController* controller, int gutterWidth, QWidget* parent = nullptr);
    void setData(std::shared_ptr<const TimelineData> timeline);
    QSize sizeHint() const override { return {600, 22}; }
    // Busy GPU time per bucket, as a fraction of (bucket width x GPU streams); kBuckets buckets over
    // the controller's bounds.
    const std::vector<float>& busy() const { return busy_; }
    static constexpr int kBuckets = 2048;
    // The x (in this widget) of time t, and the time at x.
    double xOf(TimeNs t) const;
    TimeNs timeAt(double x) const;

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;

private:
    void centreAt(double x);
    int areaWidth() const;

    ViewController* controller_;
    int gutter_;
    std::shared_ptr<const TimelineData> data_;
    std::vector<float> busy_;
    TimeNs start_ = 0;
    TimeNs end_ = 1;
};

} // namespace sl::ui
