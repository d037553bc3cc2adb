#pragma once
// The GUI's one way to run work off the UI thread (docs/ARCHITECTURE.md, "GUI"): loading, simulating,
// the scenarios, the sweep and the range statistics are each a BackgroundJob. A run executes on the
// application's job pool (jobPool(), never a detached thread), its end is watched through a QFuture,
// and its result comes back on the job's thread only while its generation is the newest: a newer
// start() or a cancel() drops older results. cancel() also raises the run's flag, which the core polls
// where it has a hook (SimOptions::cancel, the loader's progress callback, parallel sweeps); work
// without a hook runs to its end and its result is dropped. Destroying the job cancels its runs and
// waits a bounded time for them (kShutdownWaitMs), so closing the window mid-run neither crashes nor
// hangs; what still runs then owns everything it reads and delivers nothing.
#include <QFuture>
#include <QObject>
#include <QString>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

class QThreadPool;

namespace sl::ui {

// The pool every BackgroundJob runs on: a child of the QCoreApplication (made on first use), so it
// lives as long as the application and its destructor waits for the work still on it.
QThreadPool* jobPool();

class BackgroundJob;

// What a running job's work may ask and say (any thread): whether it should stop, the flag for the
// core's cancel hooks, and messages to the job's thread that arrive only while the run is current.
class JobControl {
public:
    struct Run;
    explicit JobControl(std::shared_ptr<Run> run) : run_(std::move(run)) {}

    bool cancelled() const;
    const std::atomic<bool>* cancelFlag() const;
    std::uint64_t generation() const;
    // Runs fn on the job's thread, unless a newer run superseded this one (or the job is gone).
    void post(std::function<void()> fn) const;
    // BackgroundJob::progress(fraction, what) on the job's thread: always when `what` is given, else
    // only when the fraction grew by a thousandth (the loader calls this for every piece).
    void progress(double fraction, const QString& what = {}) const;

private:
    void send(std::function<void(BackgroundJob&)> fn) const;
    std::shared_ptr<Run> run_;
};

class BackgroundJob : public QObject {
    Q_OBJECT
public:
    // How long the destructor waits for cancelled runs (a run without a cancel hook, such as building
    // an execution graph, may take longer; it then ends on the pool on its own).
    static constexpr int kShutdownWaitMs = 5000;

    explicit BackgroundJob(QObject* parent = nullptr);
    ~BackgroundJob() override;

    // Runs work(control) on the job pool, superseding (and cancelling) the running one. On its end,
    // done(result) runs on this object's thread if the run is still the newest, else stale(result)
    // when given (a result worth keeping anyway). What work throws (std::exception) becomes failed()
    // when the run is current. Returns the run's generation.
    template <class Work, class Done, class Stale = std::nullptr_t>
    std::uint64_t start(Work work, Done done, Stale stale = nullptr) {
        using T = std::invoke_result_t<Work&, const JobControl&>;
        auto result = std::make_shared<std::optional<T>>();
        return launch([work = std::move(work),
                       result](const JobControl& control) mutable { result->emplace(work(control)); },
                      [result, done = std::move(done), stale = std::move(stale)](bool current) mutable {
                          if (!result->has_value()) return;
                          if (current)
                              done(std::move(**result));
                          else if constexpr (!std::is_same_v<Stale, std::nullptr_t>)
                              stale(std::move(**result));
                      });
    }
    // Raises the running run's flag and drops its result (and everything it still posts).
    void cancel();
    // The newest run has not ended yet (its result is still to come).
    bool busy() const { return currentRunning_; }
    // Runs of this job still on the pool, superseded and cancelled ones included.
    int running() const { return static_cast<int>(runs_.size()); }
    std::uint64_t generation() const { return generation_; }
    // Processes events until no run of this job is on the pool (every result delivered or dropped)
    // and `pending` (work its owner has yet to start, such as a debounced request) says false; false
    // after timeoutMs.
    bool waitForIdle(int timeoutMs, const std::function<bool()>& pending = {});

signals:
    void progress(double fraction, QString what);
    void failed(QString message);

private:
    friend class JobControl;
    struct Link;
    struct Active {
        std::shared_ptr<JobControl::Run> run;
        QFuture<void> future;
    };
    std::uint64_t launch(std::function<void(const JobControl&)> body, std::function<void(bool)> finish);

    std::shared_ptr<Link> link_;
    std::vector<Active> runs_;
    std::uint64_t generation_ = 0;
    bool currentRunning_ = false;
};

} // namespace sl::ui
