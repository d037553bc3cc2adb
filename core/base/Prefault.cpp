#include "base/Prefault.h"

#include "base/ParallelFor.h"

#include <algorithm>
#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace sl {

void prefaultForWriting(const std::vector<ByteRange>& ranges, std::size_t threads,
                        const std::atomic<bool>* stop) {
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
    constexpr std::uintptr_t kPage = 4096;
    constexpr std::uintptr_t kPiece = std::uintptr_t{32} << 20;
    std::vector<ByteRange> pieces;
    for (const ByteRange& r : ranges) {
        const auto begin = reinterpret_cast<std::uintptr_t>(r.data);
        const std::uintptr_t first = (begin + kPage - 1) & ~(kPage - 1);
        const std::uintptr_t last = (begin + r.size) & ~(kPage - 1);
        for (std::uintptr_t from = first; r.data && from < last; from += kPiece)
            pieces.push_back({reinterpret_cast<void*>(from), std::min(kPiece, last - from)});
    }
    // A hint: where the kernel refuses (before Linux 5.14), the pages fault in as they are written.
    parallelFor(pieces.size(), std::min(threads, pieces.size()), [&](std::size_t i) {
        if (!stop || !stop->load(std::memory_order_relaxed))
            madvise(pieces[i].data, pieces[i].size, MADV_POPULATE_WRITE);
    });
#else
    (void)ranges;
    (void)threads;
    (void)stop;
#endif
}

} // namespace sl
