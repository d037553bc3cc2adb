#pragma once
// Memory faulted in before it is written, in pieces on several threads (Linux's
// MADV_POPULATE_WRITE; elsewhere a no-op): the scheduler's per-node arrays at 131,072 ranks are
// 1.8 GB, and taking them one 4 KiB page fault at a time as they were first written was a fifth of
// a run.
#include <atomic>
#include <cstddef>
#include <vector>

namespace sl {

struct ByteRange {
    void* data;
    std::size_t size;
};

// Faults in the whole pages inside each range for writing (reserved, not yet written), on up to
// `threads` threads, in 32 MiB pieces; once `stop` is raised the pieces left are skipped.
void prefaultForWriting(const std::vector<ByteRange>& ranges, std::size_t threads,
                        const std::atomic<bool>* stop = nullptr);

} // namespace sl
