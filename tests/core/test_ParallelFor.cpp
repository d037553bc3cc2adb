// The core's parallel loop (base/ParallelFor.h): every item runs once, on the threads asked for, and
// an item's exception stops the loop and reaches the caller after every thread has stopped.
#include "TestSupport.h"

#include "base/ParallelFor.h"

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

using namespace sl;

class TestParallelFor : public QObject {
    Q_OBJECT

private slots:
    void everyItemOnce_data() {
        QTest::addColumn<int>("count");
        QTest::addColumn<int>("threads");
        QTest::newRow("none") << 0 << 4;
        QTest::newRow("one thread") << 100 << 1;
        QTest::newRow("more threads than items") << 3 << 8;
        QTest::newRow("many items") << 10000 << 4;
    }
    void everyItemOnce() {
        QFETCH(int, count);
        QFETCH(int, threads);
        std::vector<std::atomic<int>> runs(static_cast<std::size_t>(count));
        std::mutex mutex;
        std::set<std::thread::id> seen;
        parallelFor(static_cast<std::size_t>(count), static_cast<std::size_t>(threads), [&](std::size_t i) {
            ++runs[i];
            std::lock_guard lock(mutex);
            seen.insert(std::this_thread::get_id());
        });
        for (const auto& r : runs)
            QCOMPARE(r.load(), 1);
        QVERIFY(static_cast<int>(seen.size()) <= std::max(1, std::min(threads, count)));
    }

    // One thread: the items run in order on the caller's thread.
    void oneThreadIsTheCaller() {
        std::vector<std::size_t> order;
        const auto caller = std::this_thread::get_id();
        bool elsewhere = false;
        parallelFor(5, 1, [&](std::size_t i) {
            order.push_back(i);
            elsewhere = elsewhere || std::this_thread::get_id() != caller;
        });
        QCOMPARE(order, (std::vector<std::size_t>{0, 1, 2, 3, 4}));
        QVERIFY(!elsewhere);
    }

    // An item that throws: the exception reaches the caller, and items not yet handed out never run.
    void firstErrorStopsTheLoop() {
        std::atomic<int> ran{0};
        bool caught = false;
        try {
            parallelFor(1000, 1, [&](std::size_t i) {
                ++ran;
                if (i == 10) throw std::runtime_error("item 10 failed");
            });
        } catch (const std::runtime_error& e) {
            caught = QByteArray(e.what()) == "item 10 failed";
        }
        QVERIFY(caught);
        QCOMPARE(ran.load(), 11);
        // With several threads, the items in flight finish; far fewer than all run. The other items
        // take 50 us each (all of them: over a second), so the thread of item 0 being descheduled on
        // a busy machine between its throw and the stop cannot let every item run.
        ran = 0;
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, parallelFor(100000, 4, [&](std::size_t i) {
                                     ++ran;
                                     if (i == 0) throw std::runtime_error("first");
                                     std::this_thread::sleep_for(std::chrono::microseconds(50));
                                 }));
        QVERIFY(ran.load() < 100000);
    }

    void threadsFor_data() {
        QTest::addColumn<int>("requested");
        QTest::addColumn<bool>("perCore");
        QTest::newRow("three") << 3 << false;
        QTest::newRow("zero: one per core") << 0 << true;
        QTest::newRow("negative: one per core") << -2 << true;
    }
    void threadsFor() {
        QFETCH(int, requested);
        QFETCH(bool, perCore);
        const std::size_t cores = std::max(1u, std::thread::hardware_concurrency());
        QCOMPARE(sl::threadsFor(requested), perCore ? cores : static_cast<std::size_t>(requested));
    }
};

QTEST_GUILESS_MAIN(TestParallelFor)
#include "test_ParallelFor.moc"
