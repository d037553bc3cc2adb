#include "MainWindow.h"

#include "io/KinetoLoader.h"
#include "io/LoadError.h"

#include <QFileDialog>
#include <QFutureWatcher>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QStatusBar>
#include <QTreeWidget>
#include <QtConcurrent>

namespace sl::ui {

namespace {
struct LoadResult {
    std::shared_ptr<const TraceSet> set;
    QString error;
};
} // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setWindowTitle(tr("Sightline"));
    tree_ = new QTreeWidget(this);
    tree_->setHeaderLabels({tr("Track"), tr("Events")});
    tree_->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    setCentralWidget(tree_);
    status_ = new QLabel(this);
    statusBar()->addWidget(status_, 1);
    auto* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open..."), QKeySequence::Open, this, [this] {
        QStringList files = QFileDialog::getOpenFileNames(
            this, tr("Open traces"), {}, tr("Kineto traces (*.json *.json.gz);;All files (*)"));
        if (!files.isEmpty()) openTraces(files);
    });
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
    resize(1200, 800);
}

void MainWindow::openTraces(const QStringList& paths) {
    std::vector<std::string> list;
    for (const auto& p : paths)
        list.push_back(p.toStdString());
    status_->setText(tr("Loading %1...").arg(paths.join(", ")));
    auto* watcher = new QFutureWatcher<LoadResult>(this);
    connect(watcher, &QFutureWatcher<LoadResult>::finished, this, [this, watcher] {
        LoadResult r = watcher->result();
        watcher->deleteLater();
        if (r.set)
            showTraceSet(r.set);
        else
            showError(r.error);
    });
    watcher->setFuture(QtConcurrent::run([list] {
        try {
            return LoadResult{std::make_shared<const TraceSet>(loadTraceSet(list)), {}};
        } catch (const std::exception& e) {
            return LoadResult{nullptr, QString::fromStdString(e.what())};
        }
    }));
}

void MainWindow::showTraceSet(std::shared_ptr<const TraceSet> set) {
    set_ = std::move(set);
    tree_->clear();
    for (const auto& rank : set_->ranks) {
        auto* rankItem = new QTreeWidgetItem(
            tree_, {tr("Rank %1 — %2").arg(rank.rank).arg(QString::fromStdString(rank.deviceName())),
                    QString::number(rank.eventCount())});
        for (const auto& track : rank.tracks)
            new QTreeWidgetItem(rankItem,
                                {QString::fromStdString(track.name), QString::number(track.events.size())});
        rankItem->setExpanded(true);
    }
    status_->setText(tr("%1 ranks, %2 events").arg(set_->ranks.size()).arg(set_->eventCount()));
}

void MainWindow::showError(const QString& message) {
    status_->setText(tr("Error: %1").arg(message));
}

} // namespace sl::ui
