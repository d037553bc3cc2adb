#pragma once
// File > Open Job Summary... (docs/Python.md, "Jobs larger than one machine"): a job summarised rank
// by rank on a Dask cluster (`sightline.summarize(...).save(path)`), too large to load whole, shown
// as its rank overview (each rank's step and breakdown, slowest first) and who waited for whom (the
// Stragglers view of its collectives); the ranks a user picks open in full in the timeline.
#include "report/JobSummaryFile.h"

#include <QStringList>
#include <QWidget>

class QLabel;
class QPushButton;
class QTableWidget;
class QTabWidget;

namespace sl::ui {

class StragglersPanel;

class JobSummaryPanel : public QWidget {
    Q_OBJECT
public:
    explicit JobSummaryPanel(QWidget* parent = nullptr);

    // Reads and shows the summary at `path`; empty on success, else the one-line error (the panel
    // keeps what it showed).
    QString open(const QString& path);
    const JobSummaryFile& summary() const { return job_; }
    QString headline() const;
    QTableWidget* ranksTable() const { return ranks_; }
    StragglersPanel* stragglers() const { return stragglers_; }
    QTabWidget* tabs() const { return tabs_; }
    // The trace files of the ranks selected in the table (those whose file is known).
    QStringList selectedPaths() const;
    QPushButton* openButton() const { return open_; }

signals:
    // Open these rank files in full (the timeline loads them as a set).
    void openRequested(QStringList paths);

private:
    void show(JobSummaryFile job, const QString& path);

    JobSummaryFile job_;
    QString path_;
    QLabel* headline_;
    QTabWidget* tabs_;
    QTableWidget* ranks_;
    StragglersPanel* stragglers_;
    QTableWidget* missing_;
    QPushButton* open_;
};

} // namespace sl::ui
