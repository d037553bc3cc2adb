#include "base/ParallelFor.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace sl {

std::size_t threadsFor(int requested) {
    return requested > 0 ? static_cast<std::size_t>(requested)
                         : std::max<std::size_t>(1, std::thread::hardware_concurrency());
}

void parallelFor(std::size_t count, std::size_t threads, const std::function<void(std::size_t)>& work) {
    std::atomic<std::size_t> next{0};
    std::mutex errorMutex;
    std::exception_ptr error;
    auto take = [&] {
        for (std::size_t i = next++; i < count; i = next++) {
            try {
                work(i);
            } catch (...) {
                std::lock_guard lock(errorMutex);
                if (!error) error = std::current_exception();
                next = count; // hand out nothing more
            }
        }
    };
    std::vector<std::thread> helpers;
    for (std::size_t t = 1; t < std::min(threads, count); ++t)
        helpers.emplace_back(take);
    take();
    for (auto& h : helpers)
        h.join();
    if (error) std::rethrow_exception(error);
}

} // namespace sl
