#include "OverviewStrip.h"

#include "Palette.h"
#include "ViewController.h"

#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace sl::ui {

namespace {
constexpr int kRightMargin = 16; // the panes' scroll bar
}

OverviewStrip::OverviewStrip(ViewController* controller, int gutterWidth, QWidget* parent)
    : QWidget(parent), controller_(controller), gutter_(gutterWidth) {
    setObjectName(QStringLiteral("overviewStrip"));
    setToolTip(tr("The whole trace: GPU activity of all ranks (darker: more streams busy) and the window "
                  "the panes show. Click or drag to move the window; the wheel zooms."));
    connect(controller_, &ViewController::windowChanged, this, qOverload<>(&QWidget::update));
    connect(controller_, &ViewController::gutterWidthChanged, this, [this](int px) {
        gutter_ = px;
        update();
    });
}

void OverviewStrip::setData(std::shared_ptr<const TimelineData> timeline) {
    data_ = std::move(timeline);
    busy_.assign(kBuckets, 0.0f);
    if (!data_) {
        update();
        return;
    }
    start_ = data_->start();
    end_ = std::max(data_->end(), start_ + 1);
    // One pass over the GPU events (depth 0: nested GPU annotations would count twice), each spread
    // over the buckets it covers.
    const double width = static_cast<double>(end_ - start_) / kBuckets;
    int streams = 0;
    std::vector<double> sum(kBuckets, 0.0);
    for (const RankTimeline& rt : data_->ranks())
        for (const TrackTimeline& t : rt.tracks) {
            if (!t.track->isGpu() || t.lanes.empty()) continue;
            ++streams;
            const Lane& lane = t.lanes[0];
            for (std::size_t pos = 0; pos < lane.size; ++pos) {
                const std::uint32_t e = lane.event(pos);
                const double a = static_cast<double>(t.start[e] - start_) / width;
                const double b = static_cast<double>(t.end(e) - start_) / width;
                for (auto k = static_cast<std::int64_t>(std::max(0.0, std::floor(a)));
                     k < kBuckets && static_cast<double>(k) < b; ++k) {
                    const double lo = std::max(a, static_cast<double>(k));
                    const double hi = std::min(b, static_cast<double>(k + 1));
                    if (hi > lo) sum[static_cast<std::size_t>(k)] += hi - lo;
                }
            }
        }
    for (int k = 0; k < kBuckets && streams > 0; ++k)
        busy_[static_cast<std::size_t>(k)] =
            static_cast<float>(std::min(1.0, sum[static_cast<std::size_t>(k)] / streams));
    update();
}

int OverviewStrip::areaWidth() const {
    return std::max(1, width() - gutter_ - kRightMargin);
}

double OverviewStrip::xOf(TimeNs t) const {
    return gutter_ + static_cast<double>(t - start_) / static_cast<double>(end_ - start_) * areaWidth();
}

TimeNs OverviewStrip::timeAt(double x) const {
    return start_ + static_cast<TimeNs>((x - gutter_) / areaWidth() * static_cast<double>(end_ - start_));
}

void OverviewStrip::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), QColor(0xf8f9fa));
    p.fillRect(QRect(0, 0, gutter_, height()), palette::gutter());
    p.setPen(palette::text());
    QFont small = p.font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    p.setFont(small);
    p.drawText(QRect(6, 0, gutter_ - 10, height()), Qt::AlignVCenter | Qt::AlignLeft, tr("whole trace"));
    if (!data_) return;
    const int w = areaWidth();
    const int h = height() - 4;
    // One column per pixel: the busiest bucket in it, as a shade of the compute colour.
    const QColor base = palette::color(Category::Compute);
    for (int x = 0; x < w; ++x) {
        const int k0 = x * kBuckets / w;
        const int k1 = std::max(k0 + 1, (x + 1) * kBuckets / w);
        float v = 0;
        for (int k = k0; k < k1 && k < kBuckets; ++k)
            v = std::max(v, busy_[static_cast<std::size_t>(k)]);
        if (v <= 0) continue;
        QColor c = base;
        c.setAlphaF(static_cast<float>(0.15 + 0.85 * v)); // Qt 6 takes float
        p.fillRect(QRectF(gutter_ + x, 2, 1, h), c);
    }
    // The window the panes show.
    const double a =
        std::clamp(xOf(controller_->windowStart()), static_cast<double>(gutter_), gutter_ + w + 0.0);
    const double b =
        std::clamp(xOf(controller_->windowEnd()), static_cast<double>(gutter_), gutter_ + w + 0.0);
    p.setPen(QPen(palette::selection(), 1.5));
    p.setBrush(QColor(30, 120, 220, 40));
    p.drawRect(QRectF(a, 1, std::max(2.0, b - a), height() - 2));
}

void OverviewStrip::centreAt(double x) {
    if (!data_ || x < gutter_) return;
    const TimeNs d = controller_->windowDuration();
    const TimeNs c = timeAt(x);
    controller_->setWindow(c - d / 2, c - d / 2 + d);
}

void OverviewStrip::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton) centreAt(event->position().x());
}

void OverviewStrip::mouseMoveEvent(QMouseEvent* event) {
    if (event->buttons() & Qt::LeftButton) centreAt(event->position().x());
}

void OverviewStrip::wheelEvent(QWheelEvent* event) {
    if (!data_) return;
    // Zoom the panes around the time under the cursor (in pane pixels).
    const TimeMapping m = controller_->mapping();
    const double paneX = m.x(timeAt(event->position().x()));
    if (event->angleDelta().y() != 0) controller_->zoomAt(std::pow(1.0015, event->angleDelta().y()), paneX);
    event->accept();
}

} // namespace sl::ui
