// sightline: the desktop program.
//   sightline [TRACE...]                                   opens the traces (files or folders)
//   sightline SESSION.sightline.json                       opens a saved session
//   sightline --screenshot OUT.png [--set k=v]... [--critical-path] [--exposed] TRACE...
//                                                          renders the main window at 1600x1000
#include "MainWindow.h"
#include "Screenshot.h"

#include "io/HugePageMalloc.h"

#include <QAction>
#include <QApplication>
#include <QCommandLineParser>

#include <cstdio>
#include <cstdlib>
#include <cstring>

int main(int argc, char** argv) {
    sl::reexecWithHugePageMalloc(argv); // faster loading of large traces (see HugePageMalloc.h)
    bool screenshot = false;
    for (int i = 1; i < argc; ++i)
        screenshot = screenshot || std::strcmp(argv[i], "--screenshot") == 0 ||
                     std::strncmp(argv[i], "--screenshot=", 13) == 0;
    // A screenshot needs no display.
    if (screenshot && !std::getenv("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");

    QApplication app(argc, argv);
    QApplication::setApplicationName("Sightline");
    QApplication::setOrganizationName("Sightline");
    QCommandLineParser parser;
    parser.setApplicationDescription("Measured and simulated timelines of distributed training traces");
    parser.addHelpOption();
    QCommandLineOption shotOption("screenshot", "Render the main window at 1600x1000 into FILE.png and exit.",
                                  "FILE");
    QCommandLineOption setOption("set", "Set a simulator knob (key=value); repeatable.", "key=value");
    QCommandLineOption pathOption("critical-path", "Start with the critical path highlighted (key C).");
    QCommandLineOption exposedOption("exposed",
                                     "Start with exposed communication highlighted (key E): hatched on "
                                     "communication streams, plus a lane per rank.");
    parser.addOption(shotOption);
    parser.addOption(setOption);
    parser.addOption(pathOption);
    parser.addOption(exposedOption);
    parser.addPositionalArgument("traces",
                                 "Kineto trace files or folders of per-rank files, or one saved session "
                                 "(*.sightline.json)",
                                 "[TRACE...|SESSION]");
    parser.process(app);

    if (parser.isSet(shotOption)) {
        sl::ui::ScreenshotRequest request;
        request.output = parser.value(shotOption);
        request.knobs = parser.values(setOption);
        request.traces = parser.positionalArguments();
        request.criticalPath = parser.isSet(pathOption);
        request.exposed = parser.isSet(exposedOption);
        const QString error = sl::ui::takeScreenshot(request);
        if (!error.isEmpty()) {
            std::fprintf(stderr, "error: %s\n", qPrintable(error));
            return 2;
        }
        return 0;
    }

    sl::ui::MainWindow window;
    window.restoreLayout();
    // Crash-safe autosave of the session; offers (without blocking) to restore after a crash.
    window.enableAutosave();
    window.show();
    window.offerRestore();
    if (parser.isSet(pathOption)) window.criticalPathAction()->setChecked(true);
    if (parser.isSet(exposedOption)) window.exposedAction()->setChecked(true);
    if (!parser.positionalArguments().isEmpty()) window.openTraces(parser.positionalArguments());
    return app.exec();
}
