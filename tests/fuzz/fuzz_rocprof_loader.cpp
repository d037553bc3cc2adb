// libFuzzer target: arbitrary bytes through the rocprofv3 JSON reader (io/rocprof), the execution graph of
// the ranks it gives and one replay (FuzzProfilerRanks.h). Seeds: tests/data/bad/*rocprof* and
// tests/fuzz/corpus/fuzz_rocprof_loader.
#include "FuzzProfilerRanks.h"
#include "io/rocprof/RocprofLoader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return fuzzProfilerRanks(data, size, "fuzz-input.json",
                             [](auto&&... a) { return sl::loadRocprofBytes(a...); });
}
