// sightline: the desktop program.
#include "MainWindow.h"

#include <QApplication>
#include <QCommandLineParser>

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName("Sightline");
    QApplication::setOrganizationName("Sightline");
    QCommandLineParser parser;
    parser.setApplicationDescription("Measured and simulated timelines of distributed training traces");
    parser.addHelpOption();
    parser.addPositionalArgument("traces", "Kineto trace files or folders of per-rank files");
    parser.process(app);
    sl::ui::MainWindow window;
    window.show();
    if (!parser.positionalArguments().isEmpty()) window.openTraces(parser.positionalArguments());
    return app.exec();
}
