#pragma once
#include "BackgroundJob.h"
#include "TimelineData.h"
#include "trace/TraceSet.h"

#include <QObject>
#include <QStringList>

#include <functional>
#include <memory>

namespace sl::ui {

// Loads a trace set off the UI thread as a background job (BackgroundJob.h). The core loader reports
// progress from its worker threads; the job forwards it as progress() signals. cancel() makes the
// next progress callback return false and emits cancelled() at once; nothing of that load arrives
// afterwards. One load at a time: start() cancels a running one (no signal for it). The worker
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
    bool busy() const;
    // Processes events until no load runs any more and its signal was emitted (for tests).
    bool waitForFinished(int timeoutMs);

signals:
    void progress(double fraction);
    void loaded(std::shared_ptr<const sl::TraceSet> set, QStringList paths,
                std::shared_ptr<const sl::ui::TimelineData> measured);
    void failed(QString message, QStringList paths);
    void cancelled();

private:
    BackgroundJob job_;
};

} // namespace sl::ui
