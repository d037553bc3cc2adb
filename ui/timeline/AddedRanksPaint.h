#pragma once
// Painting the added ranks (ui/model/AddedRanks.h): a header line and one row per added rank, its
// label in the gutter and its GPU activity per pixel column on the time axis: the compute or
// communication colour, whichever kept the GPU busier there, stronger the busier it was. The
// window's strip and exported figures paint with it, so both show the same.
#include "AddedRanks.h"
#include "TimeMapping.h"

#include <QFont>
#include <QString>

class QPainter;

namespace sl::ui {

struct AddedRanksArea {
    int width = 0;     // the whole strip, gutter included
    int gutter = 0;    // the label column
    int areaWidth = 0; // the time axis' pixels right of the gutter
    int headerHeight = 18;
    int rowHeight = 16;
    int firstRow = 0;     // the first row shown (the strip scrolls)
    int rowCount = 8;     // rows shown at most
    QString headerSuffix; // appended to the header ("; the 8 slowest shown")
};

// Paints from (0, 0): the header, then the rows [firstRow, firstRow + rowCount).
void paintAddedRanks(QPainter& p, const AddedRanks& ranks, const TimeMapping& m, const AddedRanksArea& area,
                     const QFont& font);

} // namespace sl::ui
