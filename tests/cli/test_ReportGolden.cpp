// Golden files of the three report writers (HTML, JSON, CSV) on a bundled sample: any change to
// what a report says shows up as a diff of tests/data/golden/ in review. After a deliberate change,
// regenerate them with scripts/update-golden.sh and read the diff before committing.
#include "TestSupport.h"

namespace {

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestReportGolden : public QObject {
    Q_OBJECT
private slots:
    void reportsEqualTheGoldenFiles_data() {
        QTest::addColumn<QString>("suffix");
        QTest::newRow("html") << "html";
        QTest::newRow("json") << "json";
        QTest::newRow("csv") << "csv";
    }
    void reportsEqualTheGoldenFiles() {
        QFETCH(QString, suffix);
        QTemporaryDir dir;
        // The same command as scripts/update-golden.sh, from the source folder so the sample's path
        // is written the same way.
        QProcess p;
        p.setWorkingDirectory(QStringLiteral(SIGHTLINE_SOURCE_DIR));
        p.start(QStringLiteral(SIGHTLINE_CLI),
                {"report", "samples/02-dp4", "--set", "compute.speedup=2", "--no-pictures", "--out",
                 dir.filePath("r.html"), "--json", dir.filePath("r.json"), "--csv", dir.filePath("r.csv")});
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitCode(), 0);
        const QByteArray got = readAll(dir.filePath("r." + suffix));
        const QByteArray want =
            readAll(QStringLiteral(SIGHTLINE_SOURCE_DIR) + "/tests/data/golden/report-02-dp4." + suffix);
        QVERIFY2(!want.isEmpty(), "golden file missing: run scripts/update-golden.sh");
        if (got != want) {
            // Name the first line that differs, so the failure says what changed.
            const QList<QByteArray> a = got.split('\n'), b = want.split('\n');
            qsizetype i = 0;
            while (i < a.size() && i < b.size() && a[i] == b[i])
                ++i;
            QFAIL(qPrintable(
                QString("report.%1 differs from tests/data/golden at line %2:\n  got:  %3\n  want: %4\n"
                        "(after a deliberate change: scripts/update-golden.sh, then review the diff)")
                    .arg(suffix)
                    .arg(i + 1)
                    .arg(QString::fromUtf8(a.value(i).left(200)))
                    .arg(QString::fromUtf8(b.value(i).left(200)))));
        }
    }
};

QTEST_GUILESS_MAIN(TestReportGolden)
#include "test_ReportGolden.moc"
