// The main() of a grouped test program: `PROGRAM test_Name [Qt Test arguments]` runs the test class
// of tests/<area>/test_Name.cpp exactly as its own program would; `PROGRAM --list` names them all.
// CTest runs each file's tests as an entry of its own (tests/CMakeLists.txt).
#include "QtTestGroup.h"

#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace {

// Filled during static initialisation, before main(); a function-local static so that the order in
// which the test files' initialisers run does not matter.
std::map<std::string, sltest::QtTestMain>& registry() {
    static std::map<std::string, sltest::QtTestMain> tests;
    return tests;
}

std::string baseName(const char* path) {
    std::string name(path);
    const auto slash = name.find_last_of("/\\");
    if (slash != std::string::npos) name.erase(0, slash + 1);
    const auto dot = name.rfind('.');
    if (dot != std::string::npos) name.erase(dot);
    return name;
}

int usage(const char* program) {
    std::fprintf(stderr, "usage: %s TEST [Qt Test arguments]   (or --list)\ntests in this program:\n",
                 program);
    for (const auto& [name, main] : registry())
        std::fprintf(stderr, "  %s\n", name.c_str());
    return 2;
}

} // namespace

bool sltest::registerQtTest(const char* sourceFile, QtTestMain main) {
    const std::string name = baseName(sourceFile);
    if (!registry().emplace(name, main).second) {
        // Two files with one base name in a program: CTest could not tell them apart.
        std::fprintf(stderr, "QtTestGroup: test '%s' is registered twice\n", name.c_str());
        std::abort();
    }
    return true;
}

int main(int argc, char* argv[]) {
    if (argc < 2) return usage(argv[0]);
    if (std::strcmp(argv[1], "--list") == 0) {
        for (const auto& [name, main] : registry())
            std::printf("%s\n", name.c_str());
        return 0;
    }
    const auto test = registry().find(argv[1]);
    if (test == registry().end()) {
        std::fprintf(stderr, "%s: no test named '%s'\n", argv[0], argv[1]);
        return usage(argv[0]);
    }
    // The test sees the program's name followed by its own arguments, as a program of its own would.
    std::vector<char*> args;
    args.push_back(argv[0]);
    for (int i = 2; i < argc; ++i)
        args.push_back(argv[i]);
    args.push_back(nullptr);
    return test->second(argc - 1, args.data());
}
