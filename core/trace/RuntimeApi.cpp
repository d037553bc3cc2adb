#include "trace/RuntimeApi.h"

#include <array>

namespace sl {

namespace {

bool endsWith(std::string_view s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}
bool contains(std::string_view s, std::string_view part) {
    return s.find(part) != std::string_view::npos;
}

} // namespace

RuntimeApiInfo runtimeApiInfo(std::string_view name) {
    RuntimeApiInfo info;
    std::string_view rest;
    if (name.starts_with("cuda")) {
        rest = name.substr(4);
    } else if (name.starts_with("hip")) {
        rest = name.substr(3);
        info.hip = true;
    } else if (name.starts_with("cu")) {
        rest = name.substr(2);
    } else {
        return info;
    }
    // The API name proper starts with an upper-case letter (cudaLaunchKernel, not "cudaxyz").
    if (rest.empty() || rest[0] < 'A' || rest[0] > 'Z') return info;
    // Per-thread stream and version suffixes, in any order: _ptsz, _ptds, _spt, _v2, _v11060.
    for (bool stripped = true; stripped;) {
        stripped = false;
        for (std::string_view suffix : {"_ptsz", "_ptds", "_spt"}) {
            if (endsWith(rest, suffix)) {
                rest.remove_suffix(suffix.size());
                stripped = true;
            }
        }
        std::size_t digits = 0;
        while (digits < rest.size() && rest[rest.size() - 1 - digits] >= '0' &&
               rest[rest.size() - 1 - digits] <= '9')
            ++digits;
        if (digits > 0 && rest.size() > digits + 2 && rest.substr(rest.size() - digits - 2, 2) == "_v") {
            rest.remove_suffix(digits + 2);
            stripped = true;
        }
    }
    info.async = contains(rest, "Async");
    if (rest.starts_with("Memcpy")) {
        info.api = RuntimeApi::Memcpy;
    } else if (rest.starts_with("Memset")) {
        info.api = RuntimeApi::Memset;
    } else if (rest.starts_with("GraphLaunch")) {
        info.api = RuntimeApi::GraphLaunch;
    } else if ((contains(rest, "Launch") && contains(rest, "Kernel")) || rest == "Launch" ||
               rest == "LaunchByPtr") {
        info.api = RuntimeApi::KernelLaunch;
    } else if (rest.starts_with("EventRecord")) {
        info.api = RuntimeApi::EventRecord;
    } else if (rest == "StreamWaitEvent") {
        info.api = RuntimeApi::StreamWaitEvent;
    } else if (rest == "DeviceSynchronize" || rest == "CtxSynchronize" || rest == "ThreadSynchronize") {
        info.api = RuntimeApi::DeviceSynchronize;
    } else if (rest == "StreamSynchronize") {
        info.api = RuntimeApi::StreamSynchronize;
    } else if (rest == "EventSynchronize") {
        info.api = RuntimeApi::EventSynchronize;
    }
    if (info.api != RuntimeApi::Memcpy && info.api != RuntimeApi::Memset) info.async = false;
    return info;
}

std::string_view runtimeApiName(RuntimeApi api) {
    static constexpr std::array<std::string_view, static_cast<int>(RuntimeApi::Count)> names = {
        "other",
        "kernel_launch",
        "graph_launch",
        "memcpy",
        "memset",
        "event_record",
        "stream_wait_event",
        "device_synchronize",
        "stream_synchronize",
        "event_synchronize"};
    auto i = static_cast<std::size_t>(api);
    return i < names.size() ? names[i] : "other";
}

} // namespace sl
