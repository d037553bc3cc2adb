// BackgroundJob (ui/model/BackgroundJob.h), the GUI's one way to run work off the UI thread: a newer
// start() drops the older run's result and everything it posts, cancel() raises the run's flag and
// drops its result at once, a superseded result can still be kept (stale callback), what the work
// throws becomes failed() only for the newest run, progress is forwarded without flooding, and
// destroying the job mid-run cancels and waits for the run, so nothing arrives afterwards.
#include "BackgroundJob.h"

#include <QCoreApplication>
#include <QSignalSpy>
#include <QThreadPool>
#include <QtTest>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>

using namespace sl::ui;

namespace {
// Spins until the run is cancelled (or 30 s pass: a test that forgot to cancel fails, never hangs).
bool waitForCancel(const JobControl& control) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (!control.cancelled() && std::chrono::steady_clock::now() < end)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    return control.cancelled();
}
} // namespace

class TestBackgroundJob : public QObject {
    Q_OBJECT
private slots:
    void runsOnTheApplicationsPool() {
        QThreadPool* pool = jobPool();
        QVERIFY(pool != QThreadPool::globalInstance());
        QCOMPARE(pool->parent(), QCoreApplication::instance());
        QCOMPARE(jobPool(), pool); // one pool
        BackgroundJob job;
        std::atomic<bool> onPool{false};
        QThread* gui = QThread::currentThread();
        int result = 0;
        const std::uint64_t g = job.start(
            [&](const JobControl& control) {
                onPool = QThread::currentThread() != gui && control.generation() == 1;
                return 42;
            },
            [&](int r) {
                QCOMPARE(QThread::currentThread(), gui); // delivered on the job's thread
                result = r;
            });
        QCOMPARE(g, std::uint64_t{1});
        QVERIFY(job.busy());
        QVERIFY(job.waitForIdle(30'000));
        QVERIFY(onPool);
        QCOMPARE(result, 42);
        QVERIFY(!job.busy());
        QCOMPARE(job.running(), 0);
    }

    void newerStartDropsTheOlder() {
        BackgroundJob job;
        QSignalSpy progress(&job, &BackgroundJob::progress);
        std::atomic<bool> firstSawCancel{false};
        std::atomic<bool> firstPosted{false};
        std::vector<int> done, stale;
        int posts = 0;
        job.start(
            [&](const JobControl& control) {
                firstSawCancel = waitForCancel(control);
                // Posted after it was superseded: never delivered.
                control.post([&] { ++posts; });
                control.progress(0.5, QStringLiteral("old"));
                firstPosted = true;
                return 1;
            },
            [&](int r) { done.push_back(r); }, [&](int r) { stale.push_back(r); });
        const std::uint64_t second = job.start(
            [&](const JobControl& control) {
                control.post([&] { posts += 10; });
                control.progress(1.0, QStringLiteral("new"));
                return 2;
            },
            [&](int r) { done.push_back(r); });
        QCOMPARE(second, std::uint64_t{2});
        QCOMPARE(job.generation(), second);
        QVERIFY(job.waitForIdle(30'000));
        QVERIFY(firstSawCancel);
        QVERIFY(firstPosted);
        QCOMPARE(done, std::vector<int>{2});
        QCOMPARE(stale, std::vector<int>{1}); // kept by the stale callback, not as a result
        QCOMPARE(posts, 10);
        QCOMPARE(progress.count(), 1);
        QCOMPARE(progress[0][1].toString(), QStringLiteral("new"));
    }

    void cancelDropsAtOnce() {
        BackgroundJob job;
        std::atomic<bool> sawCancel{false};
        bool delivered = false;
        job.start(
            [&](const JobControl& control) {
                // The core's hooks take the flag itself (SimOptions::cancel, SweepOptions::cancel).
                const std::atomic<bool>* flag = control.cancelFlag();
                sawCancel = waitForCancel(control) && flag->load();
                return 0;
            },
            [&](int) { delivered = true; });
        QVERIFY(job.busy());
        const std::uint64_t before = job.generation();
        job.cancel();
        QVERIFY(!job.busy()); // at once, before the run has noticed
        QVERIFY(job.generation() > before);
        QVERIFY(job.waitForIdle(30'000));
        QVERIFY(sawCancel);
        QVERIFY(!delivered);
        // Nothing running: cancel() changes nothing.
        const std::uint64_t idle = job.generation();
        job.cancel();
        QCOMPARE(job.generation(), idle);
    }

    void failuresOfTheNewestRunOnly() {
        BackgroundJob job;
        QSignalSpy failed(&job, &BackgroundJob::failed);
        bool delivered = false;
        job.start([](const JobControl&) -> int { throw std::runtime_error("bad.json: not a trace"); },
                  [&](int) { delivered = true; });
        QVERIFY(job.waitForIdle(30'000));
        QVERIFY(!delivered);
        QCOMPARE(failed.count(), 1);
        QCOMPARE(failed[0][0].toString(), QStringLiteral("bad.json: not a trace"));
        // A superseded run's failure is dropped like its result.
        job.start(
            [](const JobControl& control) -> int {
                waitForCancel(control);
                throw std::runtime_error("late");
            },
            [](int) {});
        job.start([](const JobControl&) { return 0; }, [](int) {});
        QVERIFY(job.waitForIdle(30'000));
        QCOMPARE(failed.count(), 1);
    }

    void progressWithoutFlooding() {
        BackgroundJob job;
        QSignalSpy progress(&job, &BackgroundJob::progress);
        job.start(
            [](const JobControl& control) {
                // The loader reports every piece: only a grown thousandth is forwarded.
                for (int i = 0; i <= 100'000; ++i)
                    control.progress(i / 100'000.0);
                control.progress(0.5);                               // backwards: dropped
                control.progress(0.2, QStringLiteral("simulating")); // a stage: always
                return 0;
            },
            [](int) {});
        QVERIFY(job.waitForIdle(30'000));
        QCOMPARE(progress.count(), 1001 + 1);
        QCOMPARE(progress[0][0].toDouble(), 0.0);
        QCOMPARE(progress[1000][0].toDouble(), 1.0);
        QCOMPARE(progress.last()[1].toString(), QStringLiteral("simulating"));
    }

    void waitForIdleWaitsForPendingWork() {
        // The owner's own pending work (SimRunner's debounced request) counts as busy.
        BackgroundJob job;
        bool pending = true;
        QTimer::singleShot(50, &job, [&] { pending = false; });
        QVERIFY(job.waitForIdle(30'000, [&] { return pending; }));
        QVERIFY(!pending);
        QVERIFY(!job.waitForIdle(20, [] { return true; })); // a timeout says so
    }

    void destroyingMidRunCancelsAndWaits() {
        auto* job = new BackgroundJob;
        auto ended = std::make_shared<std::atomic<bool>>(false);
        auto posted = std::make_shared<std::atomic<bool>>(false);
        bool delivered = false;
        job->start(
            [ended, posted](const JobControl& control) {
                waitForCancel(control);
                control.post([] { QFAIL("posted by a run of a destroyed job"); });
                control.progress(1.0, QStringLiteral("late"));
                *posted = true;
                *ended = true;
                return 0;
            },
            [&](int) { delivered = true; });
        QTest::qWait(20); // the run is on the pool
        QElapsedTimer clock;
        clock.start();
        delete job;
        // The destructor raised the flag and waited for the run: it ended before the delete returned,
        // well within the bound.
        QVERIFY(*ended);
        QVERIFY(*posted);
        QVERIFY(clock.elapsed() < BackgroundJob::kShutdownWaitMs);
        QCoreApplication::processEvents();
        QTest::qWait(50);
        QVERIFY(!delivered);
    }
};

QTEST_MAIN(TestBackgroundJob)
#include "test_BackgroundJob.moc"
