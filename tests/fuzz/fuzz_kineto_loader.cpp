// libFuzzer target: arbitrary bytes (plain JSON or gzip) through the Kineto loader.
// The only acceptable outcomes are a loaded rank or sl::LoadError; anything else (a crash, a
// sanitizer report, another exception type, a hang) is a bug in core/io.
#include "io/KinetoLoader.h"
#include "io/LoadError.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    sl::LoadOptions options;
    options.threads = 1;
    options.maxEventsPerFile = 200'000;
    options.memoryLimitBytes = 512LL << 20; // keeps gzip bombs inside libFuzzer's RSS limit
    try {
        sl::Rank rank = sl::loadKinetoBytes(std::string_view(reinterpret_cast<const char*>(data), size),
                                            "fuzz-input.json", 0, options);
        // Touch what the CLI reads so lazily wrong data shows up here.
        volatile std::int64_t sink = rank.eventCount();
        if (rank.eventCount() > 0) sink = rank.lastEnd() - rank.firstStart();
        (void)sink;
    } catch (const sl::LoadError&) {
    }
    return 0;
}
