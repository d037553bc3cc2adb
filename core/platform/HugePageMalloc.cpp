#include "platform/HugePageMalloc.h"

#include <cstdlib>
#include <fstream>
#include <string>

#include <unistd.h>

namespace sl {

namespace {

bool transparentHugePagesAvailable() {
    std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
    std::string line;
    if (!std::getline(in, line)) return false;
    return line.find("[never]") == std::string::npos;
}

bool envContains(const char* name, const char* text) {
    const char* value = std::getenv(name);
    return value && std::string(value).find(text) != std::string::npos;
}

} // namespace

void reexecWithHugePageMalloc(char** argv) {
    if (!argv || !argv[0] || std::getenv("SIGHTLINE_NO_REEXEC")) return;
    if (envContains("GLIBC_TUNABLES", "glibc.malloc.hugetlb")) return;
    if (envContains("LD_PRELOAD", "vgpreload") || envContains("LD_PRELOAD", "valgrind")) return;
    if (!transparentHugePagesAvailable()) return;
    std::string tunables = "glibc.malloc.hugetlb=1";
    if (const char* existing = std::getenv("GLIBC_TUNABLES"); existing && *existing)
        tunables = std::string(existing) + ":" + tunables;
    if (setenv("GLIBC_TUNABLES", tunables.c_str(), 1) != 0) return;
    // Guard against a loop should the C library ignore the tunable and drop it from the environment.
    setenv("SIGHTLINE_NO_REEXEC", "1", 1);
    execv("/proc/self/exe", argv);
    // Not reached unless exec failed: carry on without huge pages.
    unsetenv("SIGHTLINE_NO_REEXEC");
}

} // namespace sl
