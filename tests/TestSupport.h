#pragma once
// Shared helpers for the Qt tests: where the real traces are, and small-file fixtures.
#include <QDir>
#include <QFile>
#include <QString>
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

// Writes text to name inside dir and returns the full path.
inline std::string writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& content) {
    QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) qFatal("cannot write fixture %s", qPrintable(path));
    f.write(content);
    return path.toStdString();
}

} // namespace sltest

// Skips the current test when ../shared/traces is absent (a user's checkout has no ../shared).
#define SL_REQUIRE_TRACES()                                                                                  \
    do {                                                                                                     \
        if (!sltest::haveTraces())                                                                           \
            QSKIP(qPrintable("real traces not found at " + sltest::tracesDir() + " (../shared/traces)"));    \
    } while (0)
