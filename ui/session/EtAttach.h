#pragma once
// File > Attach Execution Traces (docs/Chakra.md, "Execution traces in the GUI"): PyTorch execution
// traces chosen for the trace set that is open. The set's Kineto files are loaded again off the UI
// thread (a TraceLoader) and linked with the chosen ETs (collective sizes from the ETs, as --et does
// in the CLI; they replace an et/ folder picked up on open). A loaded set cannot be copied (its
// string tables are move-only) and a fresh load leaves no sizes of earlier ETs behind. The window
// then shows the new set in place of the old with the user's knobs, scenarios and view re-applied,
// and re-simulates it. A bad ET file fails the whole attach with a one-line error and the open set
// stays as it was.
#include "trace/TraceSet.h"

#include <QObject>
#include <QStringList>

#include <memory>
#include <string>
#include <vector>

class QWidget;

namespace sl::ui {

class TraceLoader;

class EtAttach : public QObject {
    Q_OBJECT
public:
    explicit EtAttach(QObject* parent = nullptr);

    // Links the execution traces to a freshly loaded `set` that must have expectRanks ranks (else
    // the files changed since they were opened) and returns the link summary; the set's warnings
    // gain it and the linker's warnings. Throws LoadError for a bad or missing ET file.
    static std::string applyTo(TraceSet& set, const std::vector<std::string>& etPaths,
                               std::size_t expectRanks);

    // Attaches to `set`, opened from tracePaths: loads them again in the background (bad rank files
    // left out, as "Open the good ranks" does) and emits attached() or failed() on the UI thread. A
    // second start() while one runs drops the first one. No set, no ET paths, a missing ET path or
    // a set without measured times (a Chakra set has no Kineto ops to link to): failed() at once.
    void start(std::shared_ptr<const TraceSet> set, const QStringList& tracePaths,
               const QStringList& etPaths);
    bool busy() const;
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
    TraceLoader* loader_;
    std::weak_ptr<const TraceSet> source_;
    // Written by the load's worker thread before the loader's signal, read after it.
    std::shared_ptr<std::string> summary_;
};

} // namespace sl::ui
