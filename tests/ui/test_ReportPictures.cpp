// Timeline pictures in `sightline-cli report` (docs/Exports.md, "In the HTML report"): the CLI runs
// the desktop program's renderer beside it and embeds one picture per scenario (the replay and the
// knobs' what-if), as File > Export Report does; --no-pictures and a build without the GUI write the
// report without them, the latter with one note on stderr. The page stays self-contained.
#include "TestSupport.h"

#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

namespace {

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QString guiProgram() {
    return QFileInfo(QStringLiteral(SIGHTLINE_CLI)).dir().filePath(QStringLiteral("sightline"));
}

} // namespace

class TestReportPictures : public QObject {
    Q_OBJECT
private slots:
    void picturePerScenario() {
        if (!QFileInfo::exists(guiProgram()))
            QSKIP("the sightline program is not built next to sightline-cli");
        QTemporaryDir dir;
        const QString sample = QString::fromStdString(sltest::samplePath("02-dp4"));
        sltest::CliRun run =
            sltest::runCli({QStringLiteral("report"), sample, QStringLiteral("--set"),
                            QStringLiteral("compute.speedup=2"), QStringLiteral("--out"),
                            dir.filePath("r.html"), QStringLiteral("--json"), dir.filePath("r.json")});
        QVERIFY2(run.code == 0, run.err.constData());
        QVERIFY(run.out.isEmpty());
        QVERIFY2(run.err.isEmpty(), run.err.constData());
        const QByteArray page = readAll(dir.filePath("r.html"));
        QCOMPARE(page.count("<figure class=\"timeline\">"), 2);
        QVERIFY(page.contains("<b>Baseline (replay)</b>"));
        QVERIFY(page.contains("<b>What-if</b> &middot; compute.speedup=2"));
        QCOMPARE(page.count("viewBox=\"0 0 1600 900\""), 2); // 1600x900 each
        // Self-contained: no URL, no script, nothing loaded from anywhere.
        QVERIFY(!page.contains("http://") && !page.contains("https://"));
        QVERIFY(!page.contains("<script"));
        // The JSON stays numbers.
        QVERIFY(!readAll(dir.filePath("r.json")).contains("\"figures\""));
        // A replay: one picture. --no-pictures: none.
        run = sltest::runCli(
            {QStringLiteral("report"), sample, QStringLiteral("--out"), dir.filePath("p.html")});
        QCOMPARE(run.code, 0);
        QCOMPARE(readAll(dir.filePath("p.html")).count("<figure class=\"timeline\">"), 1);
        run = sltest::runCli({QStringLiteral("report"), sample, QStringLiteral("--no-pictures"),
                              QStringLiteral("--out"), dir.filePath("n.html")});
        QCOMPARE(run.code, 0);
        QVERIFY(!readAll(dir.filePath("n.html")).contains("<figure class=\"timeline\">"));
    }

    // sightline-cli alone (a build without the GUI): the report, without pictures, and one note.
    void withoutTheProgram() {
        QTemporaryDir dir;
        const QString cli = dir.filePath(QStringLiteral("sightline-cli"));
        QVERIFY(QFile::copy(QStringLiteral(SIGHTLINE_CLI), cli));
        QFile::setPermissions(cli, QFile::permissions(QStringLiteral(SIGHTLINE_CLI)));
        QProcess p;
        p.start(cli, {QStringLiteral("report"), QString::fromStdString(sltest::samplePath("02-dp4")),
                      QStringLiteral("--out"), dir.filePath("r.html")});
        QVERIFY(p.waitForFinished(180000));
        QCOMPARE(p.exitCode(), 0);
        const QByteArray err = p.readAllStandardError();
        QCOMPARE(err.count('\n'), 1);
        QVERIFY2(err.startsWith("note: " + dir.filePath("r.html").toUtf8() + ": no timeline pictures"),
                 err.constData());
        const QByteArray page = readAll(dir.filePath("r.html"));
        QVERIFY(page.contains("Replay accuracy"));
        QVERIFY(!page.contains("<figure class=\"timeline\">"));
    }
};

QTEST_MAIN(TestReportPictures)
#include "test_ReportPictures.moc"
