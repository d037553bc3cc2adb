// Force-included into every test file of a grouped test program (tests/CMakeLists.txt): the test
// files stay ordinary Qt Test programs ending in QTEST_MAIN / QTEST_GUILESS_MAIN /
// QTEST_APPLESS_MAIN, but here those macros register the test's main() under the file's name
// instead of defining main(), so one program per area holds all of its test classes and runs the
// one its first argument names (docs/Testing.md, "Test programs and CTest").
#pragma once

#include <QtTest>

namespace sltest {

// A test file's main(), with Qt's own set-up (the application object its macro chose).
using QtTestMain = int (*)(int argc, char* argv[]);

// Records `main` under the base name of `sourceFile` ("test_GpuSwap"). Called during static
// initialisation; returns true so it can initialise a namespace-scope constant.
bool registerQtTest(const char* sourceFile, QtTestMain main);

} // namespace sltest

// Every QTEST_*MAIN macro expands through QTEST_MAIN_WRAPPER, and macros expand where they are used,
// so this definition (with Qt's body unchanged) is the one the test file's last line sees.
#undef QTEST_MAIN_WRAPPER
#define QTEST_MAIN_WRAPPER(TestObject, ...)                                                                  \
    namespace {                                                                                              \
    int sightlineQtTestMain(int argc, char* argv[]) {                                                        \
        QT_PREPEND_NAMESPACE(QTest::Internal::callInitMain)<TestObject>();                                   \
        __VA_ARGS__                                                                                          \
        TestObject tc;                                                                                       \
        QTEST_SET_MAIN_SOURCE_PATH                                                                           \
        return QTest::qExec(&tc, argc, argv);                                                                \
    }                                                                                                        \
    [[maybe_unused]] const bool sightlineQtTestRegistered =                                                  \
        ::sltest::registerQtTest(__FILE__, &sightlineQtTestMain);                                            \
    }
