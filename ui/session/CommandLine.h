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
    QCommandLineOption screenshot{QStringLiteral("screenshot"),
                                  QStringLiteral("Render the main window at 1600x1000 into FILE.png and exit "
                                                 "(needs no display)."),
                                  QStringLiteral("FILE")};
    QCommandLineOption set{QStringLiteral("set"),
                           QStringLiteral("Set a simulator knob (key=value); repeatable."),
                           QStringLiteral("key=value")};
    QCommandLineOption criticalPath{QStringLiteral("critical-path"),
                                    QStringLiteral("Start with the critical path highlighted (key C).")};
    QCommandLineOption exposed{QStringLiteral("exposed"),
                               QStringLiteral("Start with exposed communication highlighted (key E): hatched "
                                              "on communication streams, plus a lane per rank.")};
    CommandLine();
};

// The version printed by --version (the project's version).
QString applicationVersion();
// Whether the arguments ask only for --help or --version: answered on stdout without a display
// (main() then makes a QCoreApplication, not a QApplication).
bool wantsInfoOnly(int argc, const char* const* argv);

} // namespace sl::ui
