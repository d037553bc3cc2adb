// The CLI runs on x86-64 CPUs without AVX: it is run on a bundled sample under Debian's
// qemu-user with pre-AVX CPU models, and its output must equal the native run's (docs/Loader.md,
// "Portable build"). A build that compiles the parser with -mavx2 dies here with SIGILL.
//
// The CPU models hide features from the program: this test binary, run under the same model with
// --cpu-probe, reports what CPUID says, so the check cannot pass by qemu ignoring -cpu.
#include "TestSupport.h"

#include <QCoreApplication>
#include <QStandardPaths>

#include <cstdio>
#include <cstring>

namespace {

constexpr int kTimeoutMs = 300'000; // emulation is 5-50x slower than native

struct Run {
    bool finished = false;
    bool crashed = false;
    int code = -1;
    QByteArray out, err;
};

Run run(const QString& program, const QStringList& args) {
    QProcess p;
    p.start(program, args);
    Run r;
    if (!p.waitForStarted(kTimeoutMs)) return r;
    p.closeWriteChannel();
    r.finished = p.waitForFinished(kTimeoutMs);
    if (!r.finished) {
        p.kill();
        p.waitForFinished(5000);
    }
    r.crashed = p.exitStatus() == QProcess::CrashExit;
    r.code = p.exitCode();
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

QString qemu() {
    return QStandardPaths::findExecutable(QStringLiteral("qemu-x86_64"));
}

} // namespace

class TestPortableBinary : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
#if !defined(__x86_64__)
        QSKIP("x86-64 only");
#endif
        if (qemu().isEmpty()) QSKIP("qemu-x86_64 not installed (Debian package qemu-user)");
    }

    void cliRunsWithoutAvx_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QByteArray>("absent"); // features the model must hide, as --cpu-probe names them
        // Nehalem (2008): SSE4.2, no AVX. qemu64: the x86-64 baseline (SSE2 only).
        QTest::newRow("Nehalem") << "Nehalem" << QByteArray("avx avx2 bmi2");
        QTest::newRow("qemu64") << "qemu64" << QByteArray("sse4.2 popcnt avx avx2 bmi2");
    }
    void cliRunsWithoutAvx() {
        QFETCH(QString, model);
        QFETCH(QByteArray, absent);

        // The emulated CPU really lacks the features (CPUID as this program sees it there).
        Run probe = run(qemu(), {"-cpu", model, QCoreApplication::applicationFilePath(), "--cpu-probe"});
        QVERIFY2(probe.finished && !probe.crashed && probe.code == 0, probe.err.constData());
        const QList<QByteArray> present = probe.out.trimmed().split(' ');
        for (const QByteArray& feature : absent.split(' '))
            QVERIFY2(!present.contains(feature),
                     qPrintable(model + " still reports " + feature + ": " + probe.out));

        const QString sample = QString::fromStdString(sltest::samplePath("02-dp4"));
        Run native = run(QStringLiteral(SIGHTLINE_CLI), {"info", sample});
        QCOMPARE(native.code, 0);
        QVERIFY(native.out.contains("\"ranks\""));
        Run emulated = run(qemu(), {"-cpu", model, QStringLiteral(SIGHTLINE_CLI), "info", sample});
        QVERIFY2(emulated.finished, "no answer under qemu");
        QVERIFY2(!emulated.crashed && emulated.code == 0,
                 qPrintable("exit " + QString::number(emulated.code) +
                            " (132 = SIGILL: an instruction "
                            "the CPU model lacks); stderr: " +
                            QString::fromUtf8(emulated.err.right(500))));
        QCOMPARE(emulated.out, native.out);
    }
};

int main(int argc, char** argv) {
    if (argc == 2 && std::strcmp(argv[1], "--cpu-probe") == 0) {
        // The features the parser could be tempted to use, as the CPU (or qemu's model) reports them.
        __builtin_cpu_init();
        std::printf(
            "%s%s%s%s%s\n", __builtin_cpu_supports("sse4.2") ? "sse4.2 " : "",
            __builtin_cpu_supports("popcnt") ? "popcnt " : "", __builtin_cpu_supports("avx") ? "avx " : "",
            __builtin_cpu_supports("avx2") ? "avx2 " : "", __builtin_cpu_supports("bmi2") ? "bmi2" : "");
        return 0;
    }
    QCoreApplication app(argc, argv);
    TestPortableBinary test;
    return QTest::qExec(&test, argc, argv);
}

#include "test_PortableBinary.moc"
