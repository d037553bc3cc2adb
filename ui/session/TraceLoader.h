#pragma once
#include "TimelineData.h"
#include "trace/TraceSet.h"

#include <QObject>
#include <QStringList>

#include <atomic>
#include <functional>
#include <memory>

class QTimer;

namespace sl::ui {

// Loads a trace set off the UI thread. The core loader reports progress from its worker threads
// into atomics; a UI-thread timer turns them into progress() signals. cancel() makes the next
// progress callback return false. One load at a time: start() cancels a running one. The worker
// also indexes the measured timeline for drawing, so that the window can paint it at once
// (docs/Loader.md, "GUI: timeline first, details later").
class TraceLoader : public QObject {
    Q_OBJECT
public:
    explicit TraceLoader(QObject* parent = nullptr);
    ~TraceLoader() override;

    // Runs on the loaded set in the worker thread, before loaded() (EtAttach.h); what it throws
    // fails the load with its message.
    using AfterLoad = std::function<void(TraceSet&)>;
    // skipBadFiles: files that fail are left out (named in the set's warnings) if one loads.
    // afterLoad: replaces picking up an et/ folder beside the traces.
    void start(const QStringList& paths, bool skipBadFiles = false, AfterLoad afterLoad = {});
    void cancel();
    bool busy() const { return job_ != nullptr; }
    // Blocks until the running load has finished and its signal was emitted (for tests).
    bool waitForFinished(int timeoutMs);

signals:
    void progress(double fraction);
    void loaded(std::shared_ptr<const sl::TraceSet> set, QStringList paths,
                std::shared_ptr<const sl::ui::TimelineData> measured);
    void failed(QString message, QStringList paths);
    void cancelled();

private:
    struct Job;
    void poll();

    std::shared_ptr<Job> job_;
    QTimer* timer_;
};

} // namespace sl::ui
