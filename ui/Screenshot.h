#pragma once
#include <QString>
#include <QStringList>

namespace sl::ui {

struct ScreenshotRequest {
    QString output;            // .png
    QStringList knobs;         // key=value
    QStringList traces;        // files or folders, or one session (*.sightline.json)
    bool criticalPath = false; // highlight the critical path (--critical-path)
    bool exposed = false;      // highlight exposed communication (--exposed)
    QStringList comparison;    // a comparison run in the lower pane (--compare; else a session's)
    int width = 1600;
    int height = 1000;
};

// Loads the traces, (simulates,) lays out the main window at the requested size, selects an
// interesting event, renders the window into the PNG. Returns an empty string on success, else a
// one-line error ("FILE: problem").
QString takeScreenshot(const ScreenshotRequest& request);

} // namespace sl::ui
