#include "EtAttach.h"

#include "TraceLoader.h"

#include "io/EtFolder.h"
#include "io/LoadError.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>

namespace sl::ui {

EtAttach::EtAttach(QObject* parent) : QObject(parent), loader_(new TraceLoader(this)) {
    connect(loader_, &TraceLoader::loaded, this,
            [this](std::shared_ptr<const TraceSet> set, const QStringList&) {
                emit attached(std::move(set), QString::fromStdString(summary_ ? *summary_ : std::string{}),
                              source_.lock());
            });
    connect(loader_, &TraceLoader::failed, this, [this](const QString& message, const QStringList&) {
        // LoadError names the file and what is wrong with it.
        emit failed(tr("Could not attach execution traces: %1").arg(message));
    });
}

std::string EtAttach::applyTo(TraceSet& set, const std::vector<std::string>& etPaths,
                              std::size_t expectRanks) {
    if (set.ranks.size() != expectRanks)
        throw LoadError(etPaths.empty() ? std::string("execution traces") : etPaths.front(),
                        "the traces changed since they were opened (" + std::to_string(set.ranks.size()) +
                            " rank(s) load now, " + std::to_string(expectRanks) +
                            " were open); open them again");
    EtApplied applied = applyExecutionTraces(set, etPaths);
    std::string from;
    for (const auto& p : etPaths)
        from += (from.empty() ? "" : ", ") + p;
    std::string text = applied.summary() + " (from " + from + ")";
    set.warnings.add(Warn::EtLinked, text, applied.files);
    set.warnings.append(applied.warnings);
    return text;
}

void EtAttach::start(std::shared_ptr<const TraceSet> set, const QStringList& tracePaths,
                     const QStringList& etPaths) {
    std::vector<std::string> ets;
    for (const auto& p : etPaths)
        ets.push_back(QDir::cleanPath(QFileInfo(p).absoluteFilePath()).toStdString());
    QString problem;
    if (!set || tracePaths.isEmpty())
        problem = tr("no trace set is open");
    else if (ets.empty())
        problem = tr("no files chosen");
    else if (set->ranks.empty() || !set->ranks.front().hasMeasuredTimes)
        problem = tr("execution traces link to Kineto traces; this set has no measured CPU ops");
    else
        try {
            // A missing file or a folder without ETs fails before the traces are loaded again.
            expandEtPaths(ets);
        } catch (const std::exception& e) {
            problem = QString::fromStdString(e.what());
        }
    if (!problem.isEmpty()) {
        emit failed(tr("Could not attach execution traces: %1").arg(problem));
        return;
    }
    source_ = set;
    auto summary = std::make_shared<std::string>();
    summary_ = summary;
    loader_->start(tracePaths, true,
                   [summary, ets = std::move(ets), ranks = set->ranks.size()](TraceSet& loaded) {
                       *summary = applyTo(loaded, ets, ranks);
                   });
}

bool EtAttach::busy() const {
    return loader_->busy();
}

bool EtAttach::waitForFinished(int timeoutMs) {
    return loader_->waitForFinished(timeoutMs);
}

QStringList EtAttach::askPaths(QWidget* parent, const QStringList& tracePaths, bool folder) {
    QString dir;
    if (!tracePaths.isEmpty()) {
        dir = QString::fromStdString(etFolderBeside(tracePaths.front().toStdString()));
        if (dir.isEmpty()) {
            const QFileInfo first(tracePaths.front());
            dir = first.isDir() ? first.absoluteFilePath() : first.absolutePath();
        }
    }
    if (folder) {
        const QString chosen =
            QFileDialog::getExistingDirectory(parent, tr("Attach execution traces (folder)"), dir);
        return chosen.isEmpty() ? QStringList{} : QStringList{chosen};
    }
    return QFileDialog::getOpenFileNames(parent, tr("Attach execution traces"), dir,
                                         tr("Execution traces (*.json *.json.gz);;All files (*)"));
}

} // namespace sl::ui
