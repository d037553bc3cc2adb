#include "ChartJobPanel.h"

#include <QChart>
#include <QChartView>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>

namespace sl::ui {

ChartJobPanel::ChartJobPanel(const QString& idle, const QString& cancelled, QWidget* parent)
    : QWidget(parent), idle_(idle), cancelled_(cancelled) {
    stop_ = new QPushButton(tr("Cancel"), this);
    stop_->setEnabled(false);
    status_ = new QLabel(idle, this);
    status_->setWordWrap(true);
    progress_ = new QProgressBar(this);
    progress_->setMaximumWidth(200);
    progress_->hide();
    statusRow_ = new QHBoxLayout;
    statusRow_->addWidget(status_, 1);
    statusRow_->addWidget(progress_);
    auto* chart = new QChart;
    // Thin margins: the bottom dock row is wide and short, so the height goes to the plot.
    chart->setMargins(QMargins(4, 2, 4, 2));
    chart_ = new QChartView(chart, this);
    chart_->setRenderHint(QPainter::Antialiasing);
    chart_->setMinimumHeight(120); // the dock scrolls below that (MainWindow: every dock shrinks)
    connect(stop_, &QPushButton::clicked, this, &ChartJobPanel::cancel);
}

QString ChartJobPanel::message() const {
    return status_->text();
}

void ChartJobPanel::setMessage(const QString& text) {
    status_->setText(text);
}

void ChartJobPanel::showIdleMessage() {
    status_->setText(idle_);
}

void ChartJobPanel::runStarted(const QString& text, int steps) {
    progress_->setRange(0, steps);
    progress_->setValue(0);
    progress_->show();
    stop_->setEnabled(true);
    status_->setText(text);
}

void ChartJobPanel::stepDone() {
    progress_->setValue(progress_->value() + 1);
}

void ChartJobPanel::runEnded(const QString& text) {
    const bool running = stop_->isEnabled();
    progress_->hide();
    stop_->setEnabled(false);
    status_->setText(text);
    if (running) emit finished();
}

void ChartJobPanel::cancel() {
    if (!job_.busy()) return;
    job_.cancel(); // results still on their way are dropped
    runEnded(cancelled_);
}

bool ChartJobPanel::waitForIdle(int timeoutMs) {
    return job_.waitForIdle(timeoutMs);
}

void ChartJobPanel::clearChart() {
    QChart* chart = chart_->chart();
    chart->removeAllSeries();
    for (QAbstractAxis* axis : chart->axes())
        chart->removeAxis(axis);
}

} // namespace sl::ui
