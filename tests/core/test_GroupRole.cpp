// The one classifier of process-group roles (trace/GroupRole.h): the parallel layout
// (structure/Structure.cpp) and the collective model (models/CollectiveModel.cpp) both ask it, so a
// group has one role. Expected roles are written by hand from what the description names.
#include "TestSupport.h"

#include "trace/GroupRole.h"

using namespace sl;

class TestGroupRole : public QObject {
    Q_OBJECT

private slots:
    void roles_data() {
        QTest::addColumn<QByteArray>("desc");
        QTest::addColumn<QByteArray>("role");
        auto row = [](const char* desc, const char* role) {
            QTest::newRow(desc) << QByteArray(desc) << QByteArray(role);
        };
        // The generator's and Megatron's short names.
        row("dp", "dp");
        row("tp", "tp");
        row("pp_fwd", "pp");
        row("dp_group", "dp");
        row("dp-replicate", "dp");
        // Megatron-LM's torch.distributed pg_desc values.
        row("DATA_PARALLEL_GROUP", "dp");
        row("TENSOR_MODEL_PARALLEL_GROUP", "tp");
        row("PIPELINE_MODEL_PARALLEL_GROUP", "pp");
        // DeepSpeed, DDP.
        row("data_parallel", "dp");
        row("ddp", "dp");
        // The default group is the world, not data-parallel.
        row("default_pg", "world");
        row("world", "world");
        // One role per group: a name that mentions two is read in one order everywhere (the
        // collective model used to call "pp_dp" data-parallel while the layout called it pipeline).
        row("pp_dp", "pp");
        row("tp_dp", "tp");
        // Words, not letters inside words.
        row("app", "other");
        row("undefined", "other");
        row("", "other");
    }
    void roles() {
        QFETCH(QByteArray, desc);
        QFETCH(QByteArray, role);
        QCOMPARE(QByteArray(groupRoleName(roleFromDescription(desc.toStdString())).data()), role);
    }
};

QTEST_GUILESS_MAIN(TestGroupRole)
#include "test_GroupRole.moc"
