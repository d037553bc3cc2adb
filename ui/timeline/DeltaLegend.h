#pragma once
// The legend of the delta colours (DeltaColours.h), painted over a timeline pane or a figure.
#include <QRect>

class QPainter;

namespace sl::ui {

// The legend in the top right corner of `area`: the bins from much faster to much slower between
// "faster" and "slower", then "only here".
void paintDeltaLegend(QPainter& p, QRect area);

} // namespace sl::ui
