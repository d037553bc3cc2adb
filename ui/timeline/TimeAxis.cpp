#include "TimeAxis.h"

#include "Palette.h"
#include "TimeFormat.h"
#include "ViewController.h"

#include <QPainter>

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

void TimeAxis::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), QColor(0xf8f9fa));
    p.fillRect(QRect(0, 0, gutter_, height()), palette::gutter());
    p.setPen(palette::text());
    p.drawText(QRect(6, 0, gutter_ - 10, height()), Qt::AlignVCenter | Qt::AlignLeft,
               tr("window %1").arg(formatDuration(controller_->windowDuration())));
    const int width = this->width() - gutter_ - rightMargin_;
    const TimeMapping m = controller_->mapping();
    const auto ticks = axisTicks(m, width, 16, controller_->boundsStart());
    TimeNs majorStep = 0;
    for (std::size_t i = 0, prev = 0; i < ticks.size(); ++i) {
        if (!ticks[i].major) continue;
        if (prev && !majorStep) majorStep = ticks[i].time - ticks[prev - 1].time;
        prev = i + 1;
    }
    if (!majorStep && ticks.size() > 1) majorStep = (ticks[1].time - ticks[0].time) * 5;
    p.save();
    p.translate(gutter_, 0);
    p.setClipRect(QRect(0, 0, width, height()));
    for (const Tick& t : ticks) {
        p.setPen(QColor(0x868e96));
        p.drawLine(QPointF(t.x, height() - (t.major ? 10 : 4)), QPointF(t.x, height()));
        if (t.major) {
            // A label the right edge would cut ("20 n" for "20 ms") is left out.
            const QString label = tickLabel(t.time, controller_->boundsStart(), majorStep);
            if (t.x + 3 + p.fontMetrics().horizontalAdvance(label) > width) continue;
            p.setPen(palette::text());
            p.drawText(QPointF(t.x + 3, height() - 12), label);
        }
    }
    p.restore();
    p.setPen(QColor(0xadb5bd));
    p.drawLine(0, height() - 1, this->width(), height() - 1);
}

} // namespace sl::ui
