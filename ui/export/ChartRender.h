#pragma once
// A chart rendered at a chosen size (docs/Exports.md): the chart of a QChartView laid out again at
// that size (titles, axes and legend with room, no "..." labels) and painted into PNG, SVG or PDF,
// then given back its size on screen. File > Export Figure, "the chart on screen" uses it at 1600x900 or
// more.
#include <QByteArray>
#include <QImage>
#include <QSize>
#include <QString>

class QChartView;

namespace sl::ui {

// The chart of `view` as an image of `size` (white background).
QImage chartImage(QChartView* view, QSize size);

// The chart of `view` at `size` as SVG text (for pages that embed it: the HTML report).
QByteArray chartSvg(QChartView* view, QSize size);

// Writes the chart of `view` at `size` to `path` (.png, .svg or .pdf by extension). Returns an
// empty string on success, else one line "PATH: what is wrong".
QString renderChart(QChartView* view, const QString& path, QSize size = {1600, 900});

} // namespace sl::ui
