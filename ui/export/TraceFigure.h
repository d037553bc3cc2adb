#pragma once
// A timeline figure of trace files for scripts (docs/Exports.md): `sightline --render OUT` and
// `sightline-cli render`, which runs it. Loads the traces, simulates them with the knobs and renders
// the measured and simulated panes through renderFigure() (FigureRender.h).
#include <QSize>
#include <QString>
#include <QStringList>

namespace sl::ui {

struct TraceFigureRequest {
    QString output;     // .png, .svg or .pdf
    QStringList traces; // files or folders
    QStringList knobs;  // key=value
    QString range;      // "A:B" relative to the trace's start (FigureRender.h, parseTimeRange); empty: all
    QSize size{1920, 1080};
    QString panes = QStringLiteral("both"); // both | measured | simulated
};

// "1920x1080" -> size; false for anything else.
bool parseFigureSize(const QString& text, QSize& size);

// Returns an empty string on success, else one line ("FILE: what is wrong", "--set k=v: why").
QString renderTraceFigure(const TraceFigureRequest& request);

} // namespace sl::ui
