#pragma once
// A table cell holding a number (not text), so that its column sorts by value; rounded to the
// decimals shown and right-aligned. The comparison tables and the job summary's ranks use it.
class QTableWidgetItem;

namespace sl::ui {

QTableWidgetItem* numberCell(double value, int decimals = 2);

} // namespace sl::ui
