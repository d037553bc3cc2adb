#pragma once
#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QStringList>

namespace sl::ui {

// The options of the sightline program, in one place for main() and its tests.
struct CommandLine {
    QCommandLineParser parser;
    QCommandLineOption help;
    QCommandLineOption version;
    QCommandLineOption screenshot{
        QStringLiteral("screenshot"),
        QStringLiteral("A picture of the whole main window (docks, card, panes) at "
                       "1600x1000 into FILE.png, and exit (needs no display): for "
                       "documentation and bug reports. Figures for slides: --render."),
        QStringLiteral("FILE")};
    QCommandLineOption set{QStringLiteral("set"),
                           QStringLiteral("Set a simulator knob (key=value); repeatable."),
                           QStringLiteral("key=value")};
    QCommandLineOption criticalPath{QStringLiteral("critical-path"),
                                    QStringLiteral("Start with the critical path highlighted (key C).")};
    QCommandLineOption exposed{QStringLiteral("exposed"),
                               QStringLiteral("Start with exposed communication highlighted (key E): hatched "
                                              "on communication streams, plus a lane per rank.")};
    // A timeline figure instead of a window (docs/Exports.md, ui/export/TraceFigure.h).
    QCommandLineOption render{
        QStringLiteral("render"),
        QStringLiteral("Render the measured and simulated timelines into FILE (.png, .svg, "
                       ".pdf) with title, axis, legend and knob values, and exit."),
        QStringLiteral("FILE")};
    QCommandLineOption range{
        QStringLiteral("range"),
        QStringLiteral("With --render: the time range from the trace's start, e.g. 2ms:8ms."),
        QStringLiteral("A:B")};
    QCommandLineOption size{QStringLiteral("size"),
                            QStringLiteral("With --render: the size (default 1920x1080); with --screenshot: "
                                           "the window's (default 1600x1000)."),
                            QStringLiteral("WxH")};
    QCommandLineOption pane{QStringLiteral("pane"),
                            QStringLiteral("With --render: both (default), measured or simulated."),
                            QStringLiteral("WHICH")};
    // A second measured run in the lower pane, compared op by op (docs/Compare.md).
    QCommandLineOption compare{
        QStringLiteral("compare"),
        QStringLiteral("Open FILE (repeatable: one file per rank, or one folder) as the "
                       "comparison run: a second measured run of the same program, "
                       "shown in the lower pane and compared op by op."),
        QStringLiteral("FILE")};
    CommandLine();
};

// The version printed by --version (the project's version).
QString applicationVersion();
// Whether the arguments ask only for --help or --version: answered on stdout without a display
// (main() then makes a QCoreApplication, not a QApplication).
bool wantsInfoOnly(int argc, const char* const* argv);

} // namespace sl::ui
