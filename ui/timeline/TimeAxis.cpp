#include "TimeAxis.h"

#include "Palette.h"
#include "ViewController.h"

#include <QFontMetrics>
#include <QPainter>

#include <algorithm>

namespace sl::ui {

TimeAxis::TimeAxis(ViewController* controller, int gutterWidth, QWidget* parent)
    : QWidget(parent), controller_(controller), gutter_(gutterWidth) {
    connect(controller_, &ViewController::gutterWidthChanged, this, [this](int px) {
        gutter_ = px;
        update();
    });
    setFixedHeight(26);
    connect(controller_, &ViewController::windowChanged, this, qOverload<>(&QWidget::update));
}

std::vector<TimeAxis::Label> TimeAxis::labels(const TimeMapping& m, int widthPx, TimeNs origin,
                                              const QFontMetrics& fm, std::vector<Tick>* ticks) {
    // Labels at round values that never overlap: the major step is widened until the widest label
    // of the window (with a gap) fits between two majors.
    const int gap = fm.horizontalAdvance(QStringLiteral("MM"));
    int room = 0;
    AxisSteps steps = axisSteps(m, 16, room);
    for (int pass = 0; pass < 6; ++pass) {
        int widest = 0;
        for (const TimeNs t : {m.start, m.end(widthPx)}) {
            const TimeNs rounded = origin + (t - origin) / steps.major * steps.major;
            for (const TimeNs v : {rounded - steps.major, rounded, rounded + steps.major})
                widest = std::max(widest, fm.horizontalAdvance(tickLabel(v, origin, steps.major)));
        }
        if (static_cast<double>(steps.major) / m.nsPerPixel >= widest + gap + 3) break;
        room = widest + gap + 3;
        steps = axisSteps(m, 16, room);
    }
    std::vector<Tick> all = axisTicks(m, widthPx, 16, origin, room);
    std::vector<Label> out;
    double lastRight = -1e9;
    for (const Tick& t : all) {
        if (!t.major) continue;
        // A label the right edge would cut ("20 n" for "20 ms") is left out, and so is one that
        // would touch the one before (a safety net: the step above leaves room).
        Label l{t.time, t.x, tickLabel(t.time, origin, steps.major), 0};
        l.right = t.x + 3 + fm.horizontalAdvance(l.text);
        if (l.right > widthPx || t.x + 3 < lastRight + gap / 2.0) continue;
        lastRight = l.right;
        out.push_back(std::move(l));
    }
    if (ticks) *ticks = std::move(all);
    return out;
}

void TimeAxis::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), QColor(0xf8f9fa));
    p.fillRect(QRect(0, 0, gutter_, height()), palette::gutter());
    p.setPen(palette::text());
    p.drawText(QRect(6, 0, gutter_ - 10, height()), Qt::AlignVCenter | Qt::AlignLeft,
               tr("window %1").arg(formatDuration(controller_->windowDuration())));
    const int width = this->width() - gutter_ - rightMargin_;
    const TimeMapping m = controller_->mapping();
    std::vector<Tick> ticks;
    const std::vector<Label> text = labels(m, width, controller_->boundsStart(), p.fontMetrics(), &ticks);
    p.save();
    p.translate(gutter_, 0);
    p.setClipRect(QRect(0, 0, width, height()));
    p.setPen(QColor(0x868e96));
    for (const Tick& t : ticks)
        p.drawLine(QPointF(t.x, height() - (t.major ? 10 : 4)), QPointF(t.x, height()));
    p.setPen(palette::text());
    for (const Label& l : text)
        p.drawText(QPointF(l.x + 3, height() - 12), l.text);
    p.restore();
    p.setPen(QColor(0xadb5bd));
    p.drawLine(0, height() - 1, this->width(), height() - 1);
}

} // namespace sl::ui
