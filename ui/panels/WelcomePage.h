#pragma once
#include "Samples.h"

#include <QStringList>
#include <QWidget>

class QVBoxLayout;

namespace sl::ui {

// What the window shows before a trace is open: open buttons, the bundled samples with one line each,
// the recent trace sets with their full paths, and a note that files and folders can be dropped here.
class WelcomePage : public QWidget {
    Q_OBJECT
public:
    explicit WelcomePage(QWidget* parent = nullptr);
    // Rebuilds the recent list (entries: the paths of one opened set each, newest first).
    void setRecent(const QList<QStringList>& recent);
    const QList<Sample>& samples() const { return samples_; }

signals:
    void openRequested(QStringList paths);
    void openFilesRequested();
    void openFolderRequested();

private:
    QList<Sample> samples_;
    QVBoxLayout* recentLayout_;
};

} // namespace sl::ui
