#include "ViewController.h"

#include <algorithm>
#include <cmath>

namespace sl::ui {

ViewController::ViewController(QObject* parent) : QObject(parent) {}

void ViewController::setBounds(TimeNs start, TimeNs end) {
    boundsStart_ = start;
    boundsEnd_ = std::max(end, start + kMinWindowNs);
    fitAll();
}

void ViewController::setBoundsKeepingWindow(TimeNs start, TimeNs end) {
    boundsStart_ = start;
    boundsEnd_ = std::max(end, start + kMinWindowNs);
}

void ViewController::setGutterWidth(int px) {
    px = std::clamp(px, kMinGutter, kMaxGutter);
    if (px == gutter_) return;
    gutter_ = px;
    emit gutterWidthChanged(px);
}

void ViewController::setViewportWidth(int px) {
    px = std::max(px, 1);
    if (px == width_) return;
    width_ = px;
    emit windowChanged();
}

void ViewController::setWindow(TimeNs start, TimeNs end) {
    const TimeNs span = boundsEnd_ - boundsStart_;
    const TimeNs margin = span / 10;
    const TimeNs maxDuration = span + 2 * margin;
    TimeNs duration = std::clamp(end - start, kMinWindowNs, std::max(maxDuration, kMinWindowNs));
    if (end - start != duration) start += (end - start - duration) / 2; // keep the centre
    start = std::clamp(start, boundsStart_ - margin,
                       std::max(boundsStart_ - margin, boundsEnd_ + margin - duration));
    if (start == start_ && start + duration == end_) return;
    start_ = start;
    end_ = start + duration;
    emit windowChanged();
}

void ViewController::zoomAt(double factor, double x) {
    if (!(factor > 0)) return;
    const TimeMapping m = mapping();
    const TimeNs anchor = m.time(x);
    const double newNsPerPixel = m.nsPerPixel / factor;
    const double minNsPerPixel = static_cast<double>(kMinWindowNs) / width_;
    const double nsPerPixel = std::max(newNsPerPixel, minNsPerPixel);
    const auto start = anchor - static_cast<TimeNs>(std::llround(x * nsPerPixel));
    const auto duration = static_cast<TimeNs>(std::llround(nsPerPixel * width_));
    setWindow(start, start + duration);
}

void ViewController::panPixels(double dx) {
    const TimeNs shift = mapping().duration(dx);
    setWindow(start_ + shift, end_ + shift);
}

void ViewController::fitRange(TimeNs start, TimeNs end) {
    if (end < start) std::swap(start, end);
    const TimeNs margin = std::max<TimeNs>((end - start) / 40, 1);
    setWindow(start - margin, end + margin);
}

void ViewController::setScrollY(int y) {
    y = std::max(y, 0);
    if (y == scrollY_) return;
    scrollY_ = y;
    emit scrollYChanged(y);
}

} // namespace sl::ui
