#pragma once
// For the tests of the other profilers' loaders (rocprofv3, XSpace): the files of
// tests/data/formats, read whole (inflated when gzip), and a load that must fail with one LoadError
// line "NAME: ...".
#include "io/LoadError.h"

#include <QString>
#include <QtTest>
#include <zlib.h>

#include <string>

namespace sltest {

inline std::string formatsFile(const std::string& rel) {
    // Appended piece by piece: GCC 12 warns (falsely) about a + b + c here at -O2.
    std::string path(SIGHTLINE_SOURCE_DIR);
    path += "/tests/data/formats/";
    path += rel;
    return path;
}

// A file's bytes, inflated when it is gzip (empty when unreadable).
inline std::string readWholeFile(const std::string& path) {
    gzFile f = gzopen(path.c_str(), "rb");
    if (!f) return {};
    std::string out;
    char buf[1 << 16];
    int n = 0;
    while ((n = gzread(f, buf, sizeof buf)) > 0)
        out.append(buf, static_cast<std::size_t>(n));
    gzclose(f);
    return out;
}

// Runs load(); checks that it throws sl::LoadError whose text starts with "name: ", contains says
// and is one line. Use inside a test function (QVERIFY returns from it).
template <typename Load>
void verifyOneLineLoadError(Load&& load, const std::string& name, const QString& says) {
    try {
        load();
        QFAIL("loaded");
    } catch (const sl::LoadError& e) {
        const QString what = QString::fromUtf8(e.what());
        QVERIFY2(what.startsWith(QString::fromStdString(name + ": ")), qPrintable(what));
        QVERIFY2(what.contains(says), qPrintable(what));
        QVERIFY2(!what.contains('\n'), qPrintable(what));
    }
}

} // namespace sltest
