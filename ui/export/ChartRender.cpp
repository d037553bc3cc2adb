#include "ChartRender.h"

#include "FigureRender.h"

#include <QBuffer>
#include <QChart>
#include <QChartView>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QPainter>
#include <QSvgGenerator>

#include <functional>

namespace sl::ui {

namespace {

// Lays the chart out at `size`, paints it with `paint`, and puts it back as it was on screen.
void withChartAt(QChartView* view, QSize size, const std::function<void(QChart*, const QRectF&)>& paint) {
    QChart* chart = view->chart();
    const QRectF before = chart->geometry();
    const QRectF target(QPointF(0, 0), QSizeF(size));
    chart->setGeometry(target);
    chart->layout()->activate();
    paint(chart, target);
    chart->setGeometry(before);
}

void paintChart(QPainter& p, QChart* chart, const QRectF& target) {
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(target, Qt::white);
    chart->scene()->render(&p, target, chart->sceneBoundingRect());
}

} // namespace

QImage chartImage(QChartView* view, QSize size) {
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    withChartAt(view, size, [&](QChart* chart, const QRectF& target) {
        QPainter p(&image);
        paintChart(p, chart, target);
    });
    return image;
}

QByteArray chartSvg(QChartView* view, QSize size) {
    if (!view || !view->chart()) return {};
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(size);
    svg.setViewBox(QRect(QPoint(0, 0), size));
    svg.setResolution(96); // CSS pixels: 1920 px is 508 mm, not 677 mm at 72 dpi
    svg.setTitle(view->chart()->title());
    withChartAt(view, size, [&](QChart* chart, const QRectF& target) {
        QPainter p;
        if (!p.begin(&svg)) return;
        paintChart(p, chart, target);
    });
    return buffer.data();
}

QString renderChart(QChartView* view, const QString& path, QSize size) {
    if (!view || !view->chart()) return QStringLiteral("%1: no chart to save").arg(path);
    const QString title =
        view->chart()->title().isEmpty() ? QStringLiteral("Sightline chart") : view->chart()->title();
    QString error;
    withChartAt(view, size, [&](QChart* chart, const QRectF& target) {
        error = paintToFile(path, size, title, [&](QPainter& p) { paintChart(p, chart, target); });
    });
    return error;
}

} // namespace sl::ui
