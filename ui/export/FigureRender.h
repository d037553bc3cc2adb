#pragma once
// Timeline figures rendered, not grabbed (docs/Exports.md): the measured and / or simulated pane of a
// trace set painted off-screen by the panes' own TimelineRenderer at a chosen size, with a title, the
// knob values, a time axis and the colour legend, into PNG, SVG or PDF. Every rank of the set is in
// the picture: expanded when they fit, else their GPU streams, else each rank's summary strip. File > Export
// Timeline, `sightline --render` and `sightline-cli render` all go through renderFigure().
#include "AddedRanks.h"
#include "Annotations.h"
#include "DeltaColours.h"
#include "RowLayout.h"
#include "TimelineData.h"

#include <QSize>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>

class QPainter;

namespace sl::ui {

class TrackState;

// What File > Export Figure puts in a figure: which panes, and every rank or the window's track tree.
struct FigureContent {
    bool measured = true;
    bool simulated = true;
    bool windowTracks = false; // hidden tracks, folded ranks and the order as in the window
};

struct Figure {
    std::shared_ptr<const TimelineData> measured;  // the upper pane (null: left out)
    std::shared_ptr<const TimelineData> simulated; // the lower pane (null: left out)
    QString measuredTitle = QStringLiteral("Measured");
    QString simulatedTitle = QStringLiteral("Simulated");
    QString title;     // the first line, large
    QString subtitle;  // the second line: the headline ("19.01 ms -> 16.10 ms ...")
    QStringList knobs; // "compute.speedup = 2"; empty: "replay (every knob at its default)"
    TimeNs start = 0;  // the time range shown, in the trace's clock; end <= start: the whole trace
    TimeNs end = 0;
    QSize size{1920, 1080};
    // The track tree to follow (hidden tracks, order); null: every track of every rank, in order.
    const TrackState* tracks = nullptr;
    std::vector<Note> notes; // drawn in both panes (ui/timeline/Annotations.h)
    // A comparison run in the lower pane (docs/Compare.md): `simulated` is then another set's
    // timeline, laid out along the upper pane's rows; both panes coloured by delta (with the
    // legend) when their bins are given.
    std::shared_ptr<const RowMapping> simulatedRows;
    std::shared_ptr<const EventDeltas> measuredDeltas, simulatedDeltas;
    // The ranks dp.degree added to the simulated job (docs/AddedRanks.md): under the simulated
    // pane as in the window, the slowest first (null: none added).
    std::shared_ptr<const AddedRanks> added;
};

// What the figure drew, for tests: ranks shown (expanded or as summary strips), legend entries.
struct FigureStats {
    int ranks = 0;
    bool cpuHidden = false; // CPU threads left out to fit the height (GPU streams shown)
    bool collapsed = false; // ranks shown as summary strips to fit the height
    int legendItems = 0;
    int boxes = 0;
    int addedRows = 0; // added ranks drawn under the simulated pane
};

// Paints the figure on `p` over a figure.size area (a white page).
FigureStats paintFigure(QPainter& p, const Figure& figure);

// Writes the figure to `path`, the format from its extension (.png, .svg, .pdf; any case). Returns
// an empty string on success, else one line "PATH: what is wrong".
QString renderFigure(const Figure& figure, const QString& path, FigureStats* stats = nullptr);

// Paints with `paint` into `path`, the format from its extension (.png on white, .svg, .pdf: one page
// of `size` at 96 dpi). Returns an empty string on success, else one line "PATH: what is wrong".
QString paintToFile(const QString& path, QSize size, const QString& title,
                    const std::function<void(QPainter&)>& paint);

// The figure as SVG text (for pages that embed it: the HTML report).
QByteArray figureSvg(const Figure& figure);

// "4ms:12ms", "2.5:10" (ms), "100us:2ms", "0.5s:1s": a range relative to the trace's start. False
// (and `error`) for anything else or an empty range.
bool parseTimeRange(const QString& text, TimeNs& start, TimeNs& end, QString* error);

} // namespace sl::ui
