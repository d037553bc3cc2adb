#include "Interrupt.h"

#include <chrono>
#include <exception>
#include <future>
#include <optional>

namespace sl::py {

void runInterruptible(const std::function<void(const std::atomic<bool>& cancel, Progress& progress)>& work,
                      const pybind11::object& callback) {
    std::atomic<bool> cancel{false};
    Progress progress;
    auto job = std::async(std::launch::async, [&] { work(cancel, progress); });
    std::optional<pybind11::error_already_set> raised;
    while (true) {
        bool ready = false;
        {
            pybind11::gil_scoped_release release;
            ready = job.wait_for(std::chrono::milliseconds(50)) == std::future_status::ready;
        }
        if (ready) break;
        if (raised) continue; // cancelled: wait for the work to stop
        try {
            if (PyErr_CheckSignals() != 0) throw pybind11::error_already_set();
            if (!callback.is_none()) callback(progress.done.load(), progress.total.load());
        } catch (pybind11::error_already_set& e) {
            raised.emplace(std::move(e));
            cancel = true;
        }
    }
    if (raised) {
        try {
            job.get(); // the cancelled work's own error (cancelled) gives way to the interrupt
        } catch (...) {
        }
        throw std::move(*raised);
    }
    job.get();
    if (!callback.is_none()) callback(progress.done.load(), progress.total.load());
}

} // namespace sl::py
