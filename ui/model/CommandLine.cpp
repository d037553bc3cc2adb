#include "CommandLine.h"

#include <cstring>

namespace sl::ui {

CommandLine::CommandLine() : help(parser.addHelpOption()), version(parser.addVersionOption()) {
    parser.setApplicationDescription(QStringLiteral(
        "Measured and simulated timelines of distributed training traces (PyTorch Kineto,\n"
        "Nsight Systems SQLite exports, Chakra). Opens trace files (.json, .json.gz, .sqlite,\n"
        ".et; the format is read from the content), folders of per-rank files, or a saved session.\n"
        "In the window, press ? for the keys."));
    parser.addOption(screenshot);
    parser.addOption(set);
    parser.addOption(criticalPath);
    parser.addOption(exposed);
    parser.addOption(render);
    parser.addOption(range);
    parser.addOption(size);
    parser.addOption(pane);
    parser.addOption(compare);
    parser.addPositionalArgument(
        QStringLiteral("traces"),
        QStringLiteral("Kineto trace files or folders of per-rank files, or one saved "
                       "session (*.sightline.json)"),
        QStringLiteral("[TRACE...|SESSION]"));
}

QString applicationVersion() {
    return QStringLiteral(SIGHTLINE_VERSION);
}

bool wantsInfoOnly(int argc, const char* const* argv) {
    for (int i = 1; i < argc; ++i) {
        const char* a = argv[i];
        if (std::strcmp(a, "--") == 0) return false; // traces from here on
        if (std::strcmp(a, "-h") == 0 || std::strcmp(a, "--help") == 0 || std::strcmp(a, "--help-all") == 0 ||
            std::strcmp(a, "-?") == 0 || std::strcmp(a, "-v") == 0 || std::strcmp(a, "--version") == 0)
            return true;
    }
    return false;
}

} // namespace sl::ui
