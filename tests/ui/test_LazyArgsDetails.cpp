// The details panel's args come from Rank::fullArgs (docs/Loader.md, "Lazy args"): read back from
// a plain trace file when an event is shown, and a one-line error naming the file, in place of the
// args, once the file is gone.
#include "TestSupport.h"

#include "EventText.h"

#include "io/KinetoLoader.h"

#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <fstream>

using namespace sl;
using namespace sl::ui;

class TestLazyArgsDetails : public QObject {
    Q_OBJECT

private slots:
    void detailsReadArgsBackAndNameAGoneFile() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("one.json").toStdString();
        std::ofstream(path)
            << "{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", "
               "\"pid\": 1, \"tid\": 1, \"ts\": 1, \"dur\": 2, \"args\": {\"Input Dims\": "
               "[[2, 3], [3, 4]], \"Sequence number\": 4242}}]}";
        auto set = std::make_shared<TraceSet>(loadTraceSet({path}));
        QVERIFY(set->ranks.front().argsFile); // the args are read back from the file
        const auto data = TimelineData::measured(set);
        const EventId op{0, {0, 0}};
        const QString shown = eventDetailsHtml(*data, nullptr, op);
        // "Sequence number" is only in the file (not a field the model keeps in memory).
        QVERIFY2(shown.contains(QStringLiteral("Sequence number&quot;: 4242")), qPrintable(shown));

        std::filesystem::remove(path);
        const EventId again{0, {0, 0}};
        // Shown before: the cache still has it.
        QVERIFY(eventDetailsHtml(*data, nullptr, again).contains(QStringLiteral("4242")));
        // A fresh load of the same text, then the file goes: the error, not a crash.
        std::ofstream(path)
            << "{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"a\", \"pid\": "
               "1, \"tid\": 1, \"ts\": 1, \"dur\": 2, \"args\": {\"Sequence number\": 7}}]}";
        auto second = std::make_shared<TraceSet>(loadTraceSet({path}));
        std::filesystem::remove(path);
        const QString gone = eventDetailsHtml(*TimelineData::measured(second), nullptr, op);
        QVERIFY2(
            gone.contains(QString::fromStdString(path) + QStringLiteral(": cannot show the event's args")),
            qPrintable(gone));
        QVERIFY(!gone.contains(QStringLiteral("Sequence number")));
    }
};

QTEST_MAIN(TestLazyArgsDetails)
#include "test_LazyArgsDetails.moc"
