// libFuzzer target: arbitrary bytes (plain JSON or gzip) through the Kineto loader.
// The only acceptable outcomes are a loaded rank or sl::LoadError; anything else (a crash, a
// sanitizer report, another exception type, a hang) is a bug in core/io.
#include "io/KinetoLoader.h"
#include "io/LoadError.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    sl::LoadOptions options;
    options.threads = 1;
    options.maxEventsPerFile = 200'000;
    options.memoryLimitBytes = 512LL << 20; // keeps gzip bombs inside libFuzzer's RSS limit
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    // The whole file in one piece, then cut into pieces of a few dozen bytes on two threads
    // (docs/Loader.md, "Chunked parsing"): both must give the same outcome.
    std::string wholeError, pieceError;
    std::int64_t wholeEvents = -1, pieceEvents = -1;
    std::size_t wholeWarnings = 0, pieceWarnings = 0;
    try {
        options.chunkBytes = std::int64_t{1} << 40;
        sl::Rank rank = sl::loadKinetoBytes(bytes, "fuzz-input.json", 0, options);
        // Touch what the CLI reads so lazily wrong data shows up here.
        volatile std::int64_t sink = rank.eventCount();
        if (rank.eventCount() > 0) sink = rank.lastEnd() - rank.firstStart();
        (void)sink;
        wholeEvents = rank.eventCount();
        wholeWarnings = rank.warnings.size();
    } catch (const sl::LoadError& e) {
        wholeError = e.what();
    }
    try {
        options.chunkBytes = 24 + static_cast<std::int64_t>(size % 64);
        options.threads = 2;
        sl::Rank rank = sl::loadKinetoBytes(bytes, "fuzz-input.json", 0, options);
        pieceEvents = rank.eventCount();
        pieceWarnings = rank.warnings.size();
    } catch (const sl::LoadError& e) {
        pieceError = e.what();
    }
    if (wholeError != pieceError || wholeEvents != pieceEvents || wholeWarnings != pieceWarnings)
        __builtin_trap();
    return 0;
}
