#pragma once
// Shared helpers for the Qt tests: where the real traces are, and small-file fixtures.
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <QtTest>

#include <string>

namespace sltest {

inline QString tracesDir() {
    return QDir::cleanPath(QStringLiteral(SIGHTLINE_TRACES_DIR));
}
inline bool haveTraces() {
    return QDir(tracesDir()).exists();
}
inline std::string tracePath(const char* relative) {
    return (tracesDir() + "/" + relative).toStdString();
}
// A bundled sample set under samples/ (always present: the project generates and ships them).
// Built with append: GCC 12 reports a false -Warray-bounds on `std::string(...) + "..." + name`
// once this header is inlined from a precompiled header.
inline std::string samplePath(const char* name) {
    std::string path(SIGHTLINE_SOURCE_DIR);
    path.append("/samples/").append(name);
    return path;
}

// Writes text to name inside dir and returns the full path.
// A tiny valid rank file of a `world`-rank set: one launch and its kernel.
inline QByteArray tinyRankTrace(int rank, int world) {
    return QString(
               R"({"distributedInfo":{"rank":%1,"world_size":%2},"traceEvents":[)"
               R"({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":10,"dur":5,)"
               R"("args":{"correlation":1}},)"
               R"({"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":20,"dur":30,)"
               R"("args":{"correlation":1,"stream":7,"device":0}}]})")
        .arg(rank)
        .arg(world)
        .toUtf8();
}

inline std::string writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& content) {
    QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) qFatal("cannot write fixture %s", qPrintable(path));
    f.write(content);
    return path.toStdString();
}

// The result of one run of sightline-cli (exit code -1 when it crashed or timed out).
struct CliRun {
    int code = -1;
    QByteArray out, err;
};

inline CliRun runCli(const QStringList& args, int timeoutMs = 180000) {
    QProcess p;
    p.start(QStringLiteral(SIGHTLINE_CLI), args);
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        return {-1, p.readAllStandardOutput(), p.readAllStandardError()};
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
            p.readAllStandardError()};
}

} // namespace sltest

// Skips the current test when ../shared/traces is absent (a user's checkout has no ../shared).
#define SL_REQUIRE_TRACES()                                                                                  \
    do {                                                                                                     \
        if (!sltest::haveTraces())                                                                           \
            QSKIP(qPrintable("real traces not found at " + sltest::tracesDir() + " (../shared/traces)"));    \
    } while (0)
