// sightline: the desktop program.
//   sightline [TRACE...]                                   opens the traces (files or folders)
//   sightline SESSION.sightline.json                       opens a saved session
//   sightline --screenshot OUT.png [--set k=v]... [--critical-path] [--exposed] TRACE...
//                                                          a picture of the main window at 1600x1000
//                                                          (docs and bug reports; figures: --render)
//   sightline --render OUT.svg|png|pdf [--set k=v]... [--range A:B] [--size WxH] [--pane P] TRACE...
//                                                          renders a timeline figure (docs/Exports.md)
//   sightline --help | --version                           prints, without a display
#include "CommandLine.h"
#include "ComparisonController.h"
#include "KnobPanel.h"
#include "MainMenus.h"
#include "MainWindow.h"
#include "Screenshot.h"
#include "SessionController.h"
#include "SessionDocument.h"
#include "SimulationDriver.h"
#include "TerminationSignal.h"
#include "TraceFigure.h"

#include "sim/Knobs.h"

#include <QAction>
#include <QApplication>
#include <QCoreApplication>
#include <QSettings>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

namespace {
void describe() {
    QCoreApplication::setApplicationName("Sightline");
    QCoreApplication::setOrganizationName("Sightline");
    QCoreApplication::setApplicationVersion(sl::ui::applicationVersion());
}
} // namespace

int main(int argc, char** argv) {
    if (sl::ui::wantsInfoOnly(argc, argv)) {
        // --help and --version need no display: a core application parses and prints (and exits).
        QCoreApplication app(argc, argv);
        describe();
        sl::ui::CommandLine cli;
        cli.parser.process(app);
        return 0;
    }
    bool screenshot = false;
    for (int i = 1; i < argc; ++i)
        screenshot = screenshot || std::strcmp(argv[i], "--screenshot") == 0 ||
                     std::strncmp(argv[i], "--screenshot=", 13) == 0 ||
                     std::strcmp(argv[i], "--render") == 0 || std::strncmp(argv[i], "--render=", 9) == 0;
    // A screenshot needs no display.
    if (screenshot && !std::getenv("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");

    QApplication app(argc, argv);
    describe();
    sl::ui::CommandLine cli;
    cli.parser.process(app);

    if (cli.parser.isSet(cli.screenshot)) {
        sl::ui::ScreenshotRequest request;
        request.output = cli.parser.value(cli.screenshot);
        request.knobs = cli.parser.values(cli.set);
        request.traces = cli.parser.positionalArguments();
        request.criticalPath = cli.parser.isSet(cli.criticalPath);
        request.exposed = cli.parser.isSet(cli.exposed);
        request.comparison = cli.parser.values(cli.compare);
        // The window at another size (how the layout holds up at 1280x720).
        if (cli.parser.isSet(cli.size)) {
            QSize size;
            if (!sl::ui::parseFigureSize(cli.parser.value(cli.size), size)) {
                std::fprintf(stderr, "error: --size %s: expected WxH, e.g. 1280x720\n",
                             qPrintable(cli.parser.value(cli.size)));
                return 1;
            }
            request.width = size.width();
            request.height = size.height();
        }
        const QString error = sl::ui::takeScreenshot(request);
        if (!error.isEmpty()) {
            std::fprintf(stderr, "error: %s\n", qPrintable(error));
            return 2;
        }
        return 0;
    }

    if (cli.parser.isSet(cli.render)) {
        sl::ui::TraceFigureRequest request;
        request.output = cli.parser.value(cli.render);
        request.knobs = cli.parser.values(cli.set);
        request.traces = cli.parser.positionalArguments();
        request.range = cli.parser.value(cli.range);
        if (cli.parser.isSet(cli.pane)) request.panes = cli.parser.value(cli.pane);
        if (cli.parser.isSet(cli.size) &&
            !sl::ui::parseFigureSize(cli.parser.value(cli.size), request.size)) {
            std::fprintf(stderr, "error: --size %s: expected WxH, e.g. 1920x1080\n",
                         qPrintable(cli.parser.value(cli.size)));
            return 1;
        }
        const QString error = sl::ui::renderTraceFigure(request);
        if (!error.isEmpty()) {
            std::fprintf(stderr, "error: %s\n", qPrintable(error));
            return 2;
        }
        std::printf("wrote %s\n", qPrintable(request.output));
        return 0;
    }

    // Knobs from the command line, checked before any window shows.
    sl::SimKnobs knobs;
    for (const QString& k : cli.parser.values(cli.set)) {
        try {
            sl::setKnobAssignment(knobs, k.toStdString());
        } catch (const std::exception& e) {
            std::fprintf(stderr, "error: --set %s: %s\n", qPrintable(k), e.what());
            return 1;
        }
    }

    sl::ui::MainWindow window;
    sl::ui::SessionController* sessions = window.sessions();
    window.restoreLayout();
    // Crash-safe autosave of the session; offers (without blocking) to restore after a crash.
    sessions->document()->enableAutosave();
    // Each set's groups, folds and collapsed ranks, as they were left (docs/ManyRanks.md).
    sessions->rememberRankViews(std::make_unique<QSettings>());
    window.show();
    window.fitToScreen(); // again with the window manager's frame, which exists only once shown
    // A log-out (SIGTERM, SIGHUP) ends the program without a crash and keeps unsaved work.
    const sl::ui::TerminationSignal termination([&window] { window.endBySignal(); });
    window.offerRestore();
    if (cli.parser.isSet(cli.criticalPath)) window.menus()->criticalPathAction()->setChecked(true);
    if (cli.parser.isSet(cli.exposed)) window.menus()->exposedAction()->setChecked(true);
    if (cli.parser.isSet(cli.set)) sessions->knobs()->setKnobs(knobs);
    // The comparison run once the traces are shown (a switch closes the one before).
    if (cli.parser.isSet(cli.compare) && !cli.parser.positionalArguments().isEmpty())
        QObject::connect(
            sessions, &sl::ui::SessionController::shown, sessions->comparison(),
            [sessions, paths = cli.parser.values(cli.compare)] { sessions->comparison()->open(paths); },
            Qt::SingleShotConnection);
    if (!cli.parser.positionalArguments().isEmpty()) sessions->openTraces(cli.parser.positionalArguments());
    return app.exec();
}
