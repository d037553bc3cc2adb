#pragma once
// File > Attach Execution Traces (docs/Chakra.md, "Execution traces in the GUI"): PyTorch execution
// traces chosen for the trace set that is open. The set's Kineto files are loaded again off the UI
// thread and linked with the chosen ETs (collective sizes from the ETs, as --et does in the CLI; they
// replace an et/ folder picked up on open). A loaded set cannot be copied (its string tables are
// move-only) and a fresh load leaves no sizes of earlier ETs behind. The window then shows the new
// set in place of the old with the user's knobs, scenarios and view re-applied, and re-simulates it.
// A bad ET file fails the whole attach with a one-line error and the open set stays as it was.
#include "trace/TraceSet.h"

#include <QObject>
#include <QStringList>

#include <memory>
#include <string>
#include <vector>

class QTimer;
class QWidget;

namespace sl::ui {

class EtAttach : public QObject {
    Q_OBJECT
public:
    explicit EtAttach(QObject* parent = nullptr);
    ~EtAttach() override;

    // The Kineto set of tracePaths loaded again (bad rank files left out, as "Open the good ranks"
    // does) with the execution traces applied. Its warnings gain the link summary and the linker's
    // warnings. Throws LoadError for a bad or missing ET file, and when the load no longer gives
    // expectRanks ranks (the files changed since they were opened).
    static std::shared_ptr<const TraceSet> loadWithExecutionTraces(const std::vector<std::string>& tracePaths,
                                                                   const std::vector<std::string>& etPaths,
                                                                   std::size_t expectRanks,
                                                                   std::string* summary = nullptr);

    // Attaches to `set`, opened from tracePaths, in the background; emits attached() or failed() on
    // the UI thread. A second start() while one runs drops the first one's result. No set, no
    // paths or a set without measured times (a Chakra set has no Kineto ops to link to): failed()
    // at once.
    void start(std::shared_ptr<const TraceSet> set, const QStringList& tracePaths,
               const QStringList& etPaths);
    bool busy() const { return job_ != nullptr; }
    // Blocks until the running attach has finished and its signal was emitted (for tests).
    bool waitForFinished(int timeoutMs);

    // Asks for ET files (folder = false) or one folder of them, starting in the et/ folder next to
    // the first trace path when there is one. Empty when the user cancels.
    static QStringList askPaths(QWidget* parent, const QStringList& tracePaths, bool folder);

signals:
    // replaces: the set the attach started from (null when it was freed meanwhile): the window
    // shows `set` only while that one is still open.
    void attached(std::shared_ptr<const sl::TraceSet> set, QString summary,
                  std::shared_ptr<const sl::TraceSet> replaces);
    void failed(QString message);

private:
    struct Job;
    void poll();

    std::shared_ptr<Job> job_;
    QTimer* timer_;
};

} // namespace sl::ui
