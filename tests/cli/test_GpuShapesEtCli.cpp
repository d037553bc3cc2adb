// sightline-cli --et for the per-kernel cost model (docs/GpuModel.md, "Shapes from an execution
// trace"): info's roofline and simulate's gpu_swap cost the kernels of a Kineto trace recorded
// without shapes from the linked execution-trace nodes.
#include "TestSupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

class TestGpuShapesEtCli : public QObject {
    Q_OBJECT
private slots:
    void infoAndSimulateUseEtShapes() {
        SL_REQUIRE_TRACES();
        // et-pairs/a100-simple-add-small: 4 kernels (2 of aten::uniform_, 2 of aten::add, all classed
        // elementwise), no "Input Dims" in the Kineto file; the ET has the [256,256] float inputs of
        // all four ops (read with python from both files).
        const QString kineto =
            QString::fromStdString(sltest::tracePath("et-pairs/a100-simple-add-small.kineto.json.gz"));
        const QString et =
            QString::fromStdString(sltest::tracePath("et-pairs/a100-simple-add-small.et.json.gz"));
        auto shaped = [](const QJsonObject& roofline) {
            return roofline["by_class"].toObject()["elementwise"].toObject()["with_shapes"].toInt(-1);
        };

        auto info = sltest::runCli({"info", kineto});
        QVERIFY2(info.code == 0, info.err.constData());
        QCOMPARE(shaped(QJsonDocument::fromJson(info.out).object()["roofline"].toObject()), 0);
        auto infoEt = sltest::runCli({"info", kineto, "--et", et});
        QVERIFY2(infoEt.code == 0, infoEt.err.constData());
        QCOMPARE(shaped(QJsonDocument::fromJson(infoEt.out).object()["roofline"].toObject()), 4);

        auto sim = sltest::runCli({"simulate", kineto, "--set", "gpu.target=H100", "--json"});
        QVERIFY2(sim.code == 0, sim.err.constData());
        QJsonObject swap = QJsonDocument::fromJson(sim.out).object()["gpu_swap"].toObject();
        QCOMPARE(swap["shapes_from_et"].toInt(-1), 0);
        QCOMPARE(swap["without_shapes"].toObject()["kernels"].toInt(-1), 4);

        auto simEt = sltest::runCli({"simulate", kineto, "--et", et, "--set", "gpu.target=H100", "--json"});
        QVERIFY2(simEt.code == 0, simEt.err.constData());
        swap = QJsonDocument::fromJson(simEt.out).object()["gpu_swap"].toObject();
        QCOMPARE(swap["shapes_from_et"].toInt(-1), 4);
        QCOMPARE(swap["without_shapes"].toObject()["kernels"].toInt(-1), 0);
        QVERIFY2(simEt.err.contains("CPU ops given input shapes from them"), simEt.err.constData());
    }

    void infoWithAMissingEtFails() {
        auto r = sltest::runCli({"info", QString::fromStdString(sltest::samplePath("01-dp8-straggler")),
                                 "--et", "/no/such/et.json"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("/no/such/et.json") && r.err.contains("not found"), r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestGpuShapesEtCli)
#include "test_GpuShapesEtCli.moc"
