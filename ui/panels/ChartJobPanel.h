#pragma once
// What the sweep and the plan views share (docs/WhatIfWorkbench.md, "Sweep"; docs/Layouts.md, "In
// the window"): a core computation run as a background job (BackgroundJob.h) with a Cancel button, a
// status line with a progress bar, and a chart of the answer. A view built on it adds its fields,
// starts its work through job(), and says when a run starts and ends; cancel and waiting are here.
#include "BackgroundJob.h"

#include <QString>
#include <QWidget>

class QChart;
class QChartView;
class QHBoxLayout;
class QLabel;
class QProgressBar;
class QPushButton;

namespace sl::ui {

class ChartJobPanel : public QWidget {
    Q_OBJECT
public:
    void cancel();
    bool busy() const { return job_.busy(); }
    bool waitForIdle(int timeoutMs);
    QChartView* chart() const { return chart_; }
    QString message() const;

signals:
    void finished();

protected:
    // `cancelled` is the status line after Cancel; `idle` the one before the first run.
    ChartJobPanel(const QString& idle, const QString& cancelled, QWidget* parent);
    // The Cancel button, for the view's row of fields; the status line and its progress bar, for the
    // view's layout under that row.
    QPushButton* cancelButton() const { return stop_; }
    QHBoxLayout* statusRow() const { return statusRow_; }
    // A run started: `steps` of progress (0: busy until it ends), the status line says `text`.
    void runStarted(const QString& text, int steps);
    void stepDone();
    // A run ended (or was refused): progress hidden, Cancel off, the status line says `text`, and
    // finished() when a run was under way.
    void runEnded(const QString& text);
    void setMessage(const QString& text);
    // The status line as before the first run (a new set: the old one's answer is gone).
    void showIdleMessage();
    // Empties the chart of series and axes, for a redraw.
    void clearChart();
    BackgroundJob& job() { return job_; }

private:
    QString idle_, cancelled_;
    QPushButton* stop_;
    QLabel* status_;
    QProgressBar* progress_;
    QHBoxLayout* statusRow_;
    QChartView* chart_;
    // A run's results come back through the job only while it lives; a view's own members are gone
    // before it, but nothing is delivered in between (destructors run without an event loop).
    BackgroundJob job_;
};

} // namespace sl::ui
