// The scanner that cuts a trace's events array into pieces (docs/Loader.md, "Chunked parsing").
// Expected offsets are counted by hand on the literal texts (0-based, escapes count as written).
#include "TestSupport.h"

#include "io/ChunkScanner.h"

#include <string>

using namespace sl::chunk;

class TestChunkScanner : public QObject {
    Q_OBJECT

private slots:
    void eventsArray_data() {
        QTest::addColumn<QByteArray>("head");
        QTest::addColumn<qint64>("open"); // -1: not found
        QTest::addColumn<bool>("rootIsArray");
        // '{' 0, "traceEvents" 1..13, ':' 14, '[' 15.
        QTest::newRow("first key") << QByteArray("{\"traceEvents\":[") << qint64(15) << false;
        // The key as a nested object's value and as a key at depth 3 do not count; the root's does
        // (white space around the colon), at the next to last byte: 83 bytes, '[' at 79.
        QTest::newRow("nested first")
            << QByteArray("{\"schemaVersion\":1,\"deviceProperties\":[{\"name\":\"traceEvents\"}],"
                          "\"traceEvents\" : [ ]}")
            << qint64(79) << false;
        // Inside a string with escaped quotes: not a key. 45 bytes, '[' at 42.
        QTest::newRow("in a string") << QByteArray("{\"note\":\"\\\"traceEvents\\\":[\",\"traceEvents\":[]}")
                                     << qint64(42) << false;
        QTest::newRow("root array") << QByteArray(" \n[{\"ph\":\"X\"}]") << qint64(2) << true;
        QTest::newRow("not an array") << QByteArray("{\"traceEvents\":5,\"x\":[1]}") << qint64(-1) << false;
        QTest::newRow("head ends") << QByteArray("{\"traceEvents\"") << qint64(-1) << false;
        QTest::newRow("scalar root") << QByteArray("\"traceEvents\"") << qint64(-1) << false;
        QTest::newRow("key of a nested object")
            << QByteArray("{\"a\":{\"traceEvents\":[1]}}") << qint64(-1) << false;
    }
    void eventsArray() {
        QFETCH(QByteArray, head);
        QFETCH(qint64, open);
        QFETCH(bool, rootIsArray);
        EventsArray found =
            findEventsArray(std::string_view(head.constData(), static_cast<std::size_t>(head.size())));
        QCOMPARE(found.open == kNotFound ? qint64(-1) : qint64(found.open), open);
        if (open >= 0) QCOMPARE(found.rootIsArray, rootIsArray);
    }

    void eventStart_data() {
        QTest::addColumn<QByteArray>("window");
        QTest::addColumn<qint64>("start"); // -1: none
        // The window starts inside a string holding "},{": the scan starts after the newline
        // (known to be outside strings), skips the nested array of objects in args and cuts
        // before {"ph":"Y"} at 52.
        QTest::newRow("after newline")
            << QByteArray("a},{b\"},\n{\"ph\":\"X\",\"args\":{\"x\":[{\"a\":1},{\"b\":2}]}},\n{\"ph\":\"Y\"}")
            << qint64(52);
        // No newline, inside an event: "]}\"},{" is one string (escaped quote); args close at depth 0
        // followed by '}', the event closes at -1 followed by ",{": cut at 26.
        QTest::newRow("escaped quote")
            << QByteArray("1,\"args\":{\"s\":\"]}\\\"},{\"}},{\"ph\":\"Y\"}") << qint64(26);
        // An escaped backslash ends the string "a\\": cut at 7.
        QTest::newRow("escaped backslash") << QByteArray("\"a\\\\\"},{\"b\":1}") << qint64(7);
        // White space around the comma (pretty-printed traces).
        QTest::newRow("spaces") << QByteArray("\"x\":1\n    }\n  ,\n  {\"ph\":\"X\"}") << qint64(18);
        QTest::newRow("no boundary") << QByteArray("{\"a\":[1,2]}") << qint64(-1);
        QTest::newRow("array close") << QByteArray("{\"a\":1}]}") << qint64(-1);
        QTest::newRow("unclosed string") << QByteArray("{\"a\":\"},{") << qint64(-1);
    }
    void eventStart() {
        QFETCH(QByteArray, window);
        QFETCH(qint64, start);
        std::size_t found =
            findEventStart(std::string_view(window.constData(), static_cast<std::size_t>(window.size())));
        QCOMPARE(found == kNotFound ? qint64(-1) : qint64(found), start);
    }
};

QTEST_GUILESS_MAIN(TestChunkScanner)
#include "test_ChunkScanner.moc"
