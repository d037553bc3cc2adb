#pragma once
// The core's one way to spread independent items over threads (docs/ARCHITECTURE.md, "Layers"):
// the files of a set, the tracks of a rank, the ranks the generator writes, the points of a sweep.
// Pipelines with back-pressure (the chunked loader's pieces) keep their own workers.
#include <cstddef>
#include <functional>

namespace sl {

// Threads to use when a caller asks for `requested` (0 or less: one per core).
std::size_t threadsFor(int requested);

// Runs work(0) .. work(count - 1) on up to `threads` threads, this one included, handing the items
// out in order. When an item throws, no further items are handed out and the first exception is
// rethrown here after every thread has stopped.
void parallelFor(std::size_t count, std::size_t threads, const std::function<void(std::size_t)>& work);

} // namespace sl
