#pragma once
#include "trace/TraceSet.h"

#include <QMainWindow>
#include <QStringList>

#include <memory>

class QTreeWidget;
class QLabel;

namespace sl::ui {

// The main window: opens a trace set off the UI thread and lists its ranks and tracks.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    void openTraces(const QStringList& paths);

private:
    void showTraceSet(std::shared_ptr<const TraceSet> set);
    void showError(const QString& message);

    QTreeWidget* tree_ = nullptr;
    QLabel* status_ = nullptr;
    std::shared_ptr<const TraceSet> set_;
};

} // namespace sl::ui
