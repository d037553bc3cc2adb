#include "CliCommon.h"

#include "io/EtFolder.h"
#include "io/KinetoLoader.h"
#include "io/LoadError.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <unistd.h>

namespace sl::cli {

std::vector<Command>& commands() {
    static std::vector<Command> all;
    return all;
}

CommandRegistrar::CommandRegistrar(Command c) {
    auto& all = commands();
    auto pos = std::lower_bound(all.begin(), all.end(), c.name,
                                [](const Command& x, const std::string& name) { return x.name < name; });
    all.insert(pos, std::move(c));
}

bool Args::flag(const std::string& name) {
    for (auto it = args_.begin(); it != args_.end(); ++it) {
        if (*it == name) {
            args_.erase(it);
            return true;
        }
    }
    return false;
}

std::optional<std::string> Args::option(const std::string& name) {
    auto values = options(name);
    if (values.size() > 1) throw UsageError{name + " given more than once"};
    if (values.empty()) return std::nullopt;
    return values.front();
}

std::vector<std::string> Args::options(const std::string& name) {
    std::vector<std::string> values;
    for (std::size_t i = 0; i < args_.size();) {
        if (args_[i] == name) {
            if (i + 1 >= args_.size()) throw UsageError{name + " needs a value"};
            values.push_back(args_[i + 1]);
            args_.erase(args_.begin() + static_cast<std::ptrdiff_t>(i),
                        args_.begin() + static_cast<std::ptrdiff_t>(i + 2));
        } else if (args_[i].rfind(name + "=", 0) == 0) {
            values.push_back(args_[i].substr(name.size() + 1));
            args_.erase(args_.begin() + static_cast<std::ptrdiff_t>(i));
        } else {
            ++i;
        }
    }
    return values;
}

std::vector<std::string> Args::positional() {
    for (const auto& a : args_)
        if (a.size() > 1 && a[0] == '-' && a != "-") throw UsageError{"unknown option " + a};
    return args_;
}

int nonNegativeInt(const std::string& option, const std::string& text) {
    try {
        std::size_t used = 0;
        int v = std::stoi(text, &used);
        if (used == text.size() && v >= 0) return v;
    } catch (const std::exception&) {
    }
    throw UsageError{option + " needs a non-negative integer, got '" + text + "'"};
}

TraceSet loadWithProgress(const std::vector<std::string>& paths) {
    LoadOptions options;
    if (isatty(STDERR_FILENO)) {
        auto last = std::chrono::steady_clock::now();
        options.progress = [last](std::int64_t done, std::int64_t total) mutable {
            auto now = std::chrono::steady_clock::now();
            if (now - last > std::chrono::milliseconds(100) || done == total) {
                last = now;
                double pct =
                    total > 0 ? 100.0 * static_cast<double>(done) / static_cast<double>(total) : 100.0;
                std::fprintf(stderr, "\rloading %5.1f%% (%lld MB)", pct,
                             static_cast<long long>(done / 2 / 1000000));
                if (done == total) std::fprintf(stderr, "\r%40s\r", "");
            }
            return true;
        };
    }
    return loadTraceSet(paths, options);
}

std::vector<std::string> etPathsOrRunFolder(const std::vector<std::string>& paths,
                                            std::vector<std::string> etPaths) {
    if (!etPaths.empty() || paths.size() != 1 || !isRunFolder(paths.front())) return etPaths;
    std::string et = etFolderBeside(paths.front());
    if (et.empty()) return etPaths;
    std::fprintf(stderr, "note: %s is a run folder: Kineto traces from kineto/, execution traces from et/\n",
                 paths.front().c_str());
    return {et};
}

int runGuarded(const std::function<int()>& body) {
    try {
        return body();
    } catch (const UsageError& e) {
        std::cerr << "usage error: " << e.message() << " (see --help)\n";
        return kExitUsage;
    } catch (const Error& e) {
        std::cerr << "error: " << e.what() << "\n";
        return kExitBadInput;
    } catch (const std::bad_alloc&) {
        std::cerr << "error: out of memory\n";
        return kExitBadInput;
    } catch (const std::exception& e) {
        // Anything else is a bug of ours, but still a clear line and no abort.
        std::cerr << "error: " << e.what() << "\n";
        return kExitBadInput;
    }
}

} // namespace sl::cli
