// libFuzzer target: arbitrary bytes through the XSpace reader (io/xspace; plain or gzip), the execution graph
// of the ranks it gives and one replay (FuzzProfilerRanks.h). Seeds: tests/data/bad/*xspace*.
#include "FuzzProfilerRanks.h"
#include "io/xspace/XSpaceLoader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return fuzzProfilerRanks(data, size, "fuzz-input.xplane.pb",
                             [](auto&&... a) { return sl::loadXSpaceBytes(a...); });
}
