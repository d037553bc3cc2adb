// sightline-cli on the rocprofv3 and XSpace files of tests/data/formats: `info` names the format
// (the ranks' "backend"), `simulate` replays the files with host records within 1%, GPU 2x moves a
// JAX step by no more than its GPU time allows, a GPU-only file says so, and damaged files give one
// error line naming the file (exit 2).
#include "TestSupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace {

QString formatsFile(const char* rel) {
    return QStringLiteral(SIGHTLINE_SOURCE_DIR "/tests/data/formats/") + rel;
}

QJsonObject jsonOf(const sltest::CliRun& r) {
    return QJsonDocument::fromJson(r.out).object();
}

} // namespace

class TestProfilerFormatsCli : public QObject {
    Q_OBJECT
private slots:
    void infoNamesTheFormat_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("backend");
        QTest::addColumn<int>("ranks");
        QTest::newRow("rocprofv3") << "rocprof/908_results.json.gz"
                                   << "rocprofv3" << 1;
        QTest::newRow("xspace te") << "xspace/jax_te_fused_attn.xplane.pb"
                                   << "xspace" << 1;
        QTest::newRow("xspace conv") << "xspace/jax_conv_minimal_08.xplane.pb"
                                     << "xspace" << 8;
        QTest::newRow("xspace tf gz") << "xspace/tf_gpu_multi_worker.xplane.pb.gz"
                                      << "xspace" << 3;
    }
    void infoNamesTheFormat() {
        QFETCH(QString, file);
        QFETCH(QString, backend);
        QFETCH(int, ranks);
        const sltest::CliRun r = sltest::runCli({"info", formatsFile(qPrintable(file))});
        QCOMPARE(r.code, 0);
        const QJsonObject j = jsonOf(r);
        QCOMPARE(j["rank_count"].toInt(), ranks);
        for (const auto& v : j["ranks"].toArray())
            QCOMPARE(v.toObject()["backend"].toString(), backend);
    }

    void replayWithinOnePercent_data() {
        QTest::addColumn<QString>("file");
        QTest::newRow("xspace te") << "xspace/jax_te_fused_attn.xplane.pb";
        QTest::newRow("xspace conv") << "xspace/jax_conv_minimal_08.xplane.pb";
        QTest::newRow("xspace tf gz") << "xspace/tf_gpu_multi_worker.xplane.pb.gz";
    }
    void replayWithinOnePercent() {
        QFETCH(QString, file);
        const sltest::CliRun r = sltest::runCli({"simulate", formatsFile(qPrintable(file)), "--json"});
        QCOMPARE(r.code, 0);
        const QJsonObject j = jsonOf(r);
        QVERIFY2(j["iteration"].toObject()["error_pct"].toDouble() < 1.0, r.out.left(300).constData());
        for (const auto& v : j["ranks"].toArray())
            QVERIFY(v.toObject()["error_pct"].toDouble() < 1.0);
    }

    // GPU 2x: the step gets shorter, by less than half of it (the host's part stays).
    void gpuTwiceMovesJaxStep() {
        const sltest::CliRun r =
            sltest::runCli({"simulate", formatsFile("xspace/jax_te_fused_attn.xplane.pb"), "--json", "--set",
                            "compute.speedup=2"});
        QCOMPARE(r.code, 0);
        const double change = jsonOf(r)["knob_effect"].toObject()["iteration_change_pct"].toDouble();
        QVERIFY2(change < -1.0 && change > -50.0, qPrintable(QString::number(change)));
    }

    void gpuOnlyFileSaysSo() {
        const sltest::CliRun r =
            sltest::runCli({"simulate", formatsFile("rocprof/908_results.json.gz"), "--json"});
        QCOMPARE(r.code, 0);
        bool said = false;
        for (const auto& w : jsonOf(r)["warnings"].toArray())
            said = said || w.toString().contains("loaded GPU-only");
        QVERIFY(said);
    }

    void damagedFilesGiveOneLine_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("bytes");
        QFile te(formatsFile("xspace/jax_te_fused_attn.xplane.pb"));
        QVERIFY(te.open(QIODevice::ReadOnly));
        const QByteArray space = te.readAll();
        QTest::newRow("truncated xspace") << "cut.xplane.pb" << space.left(space.size() / 3);
        QTest::newRow("garbage xspace") << "junk.xplane.pb" << QByteArray(3000, '\x07');
        QTest::newRow("truncated rocprof")
            << "cut.json" << QByteArray(R"({"rocprofiler-sdk-tool":[{"metadata":)");
    }
    void damagedFilesGiveOneLine() {
        QFETCH(QString, name);
        QFETCH(QByteArray, bytes);
        QTemporaryDir dir;
        const QString path = QString::fromStdString(sltest::writeFile(dir, name, bytes));
        const sltest::CliRun r = sltest::runCli({"info", path});
        QCOMPARE(r.code, 2);
        const QByteArray err = r.err.trimmed();
        QVERIFY2(!err.contains('\n') && err.contains(path.toUtf8()), err.constData());
    }
};

QTEST_GUILESS_MAIN(TestProfilerFormatsCli)
#include "test_ProfilerFormatsCli.moc"
