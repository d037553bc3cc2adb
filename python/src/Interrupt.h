#pragma once
// Long core calls from Python: run with the GIL released on a thread of their own while the calling
// thread keeps the interpreter responsive, so Ctrl-C (KeyboardInterrupt) cancels through the core's
// cancel flag and a progress callback sees the load advance (docs/Python.md).
#include <pybind11/pybind11.h>

#include <atomic>
#include <cstdint>
#include <functional>

namespace sl::py {

struct Progress {
    std::atomic<std::int64_t> done{0}, total{0};
};

// Runs `work(cancel, progress)` on another thread and waits for it with the GIL released, waking
// every 50 ms to deliver signals and call `callback(done, total)` (when not None). A pending
// KeyboardInterrupt (or an exception of the callback) sets `cancel`, waits for the work to stop and
// is raised; an exception of the work is rethrown here.
void runInterruptible(const std::function<void(const std::atomic<bool>& cancel, Progress& progress)>& work,
                      const pybind11::object& callback = pybind11::none());

} // namespace sl::py
