#include "CliCommon.h"
#include "SimSetup.h"

#include "analysis/CollectiveArrivals.h"
#include "base/Rounding.h"
#include "report/CollectivesReport.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <iostream>

namespace sl::cli {

namespace {

std::string groupText(const CollectiveArrival& c) {
    std::string s = c.processGroup.empty() ? std::string("-") : c.processGroup;
    if (!c.groupRanks.empty()) {
        // A run of consecutive ranks as "[0-19]".
        const auto& g = c.groupRanks;
        bool run = g.size() > 2;
        for (std::size_t i = 1; run && i < g.size(); ++i)
            run = g[i] == g[i - 1] + 1;
        if (run) return s + " [" + std::to_string(g.front()) + "-" + std::to_string(g.back()) + "]";
        s += " [";
        for (std::size_t i = 0; i < g.size(); ++i)
            s += (i ? "," : "") + std::to_string(g[i]);
        s += "]";
    }
    return s;
}

Command makeCollectivesCommand() {
    return {"collectives", "who waited for whom at every collective: arrivals, the last to arrive, waits",
            "usage: sightline-cli collectives PATH... [--step N] [--json] [--et F|DIR]\n"
            "\n"
            "For every collective matched across the ranks of the set (and every one whose peers are\n"
            "outside it: phantom peers), each rank's arrival, measured: when its kernel could start,\n"
            "the latest of its launch reaching the GPU (launch call start + the rank's launch latency),\n"
            "its stream predecessor's end and any cross-stream wait, never later than the kernel's\n"
            "start. Times are microseconds from the job's first event. Per collective: type, process\n"
            "group, size, bytes, the last rank to arrive (null / '-' when all arrived together,\n"
            "'phantom' when peers outside the set came last) and spread_us (last - first arrival); per\n"
            "rank: waited_us (time it waited for later arrivals) and made_others_wait_us (the waits of\n"
            "its peers at the collectives it arrived last at). A rank row sorted first is the\n"
            "straggler.\n"
            "\n"
            "  --step N     restrict to ProfilerStep#N\n"
            "  --json       print {ranks[], collectives[]} (every rank's arrival) instead of the tables\n"
            "               (the table lists the first and last eight arrivals of a larger group)\n"
            "  --et F|DIR   PyTorch execution traces for collective sizes (see simulate --help)\n",
            [](Args& args) {
                const bool json = args.flag("--json");
                SimSetup setup = parseSimSetup(args, "collectives", false);
                TraceSet set = loadWithProgress(setup.paths);
                ExecutionGraph g = buildGraphForCli(set, setup);
                const CollectiveArrivals a = collectiveArrivals(g);
                if (json) {
                    std::cout << collectivesJson(g, a).dump(2) << "\n";
                    return kExitOk;
                }
                const std::vector<RankWaiting> ranks = ranksByMadeOthersWait(a);
                std::printf("%6s %11s %10s %20s %12s\n", "rank", "collectives", "times_last",
                            "made_others_wait_us", "waited_us");
                for (const auto& w : ranks)
                    std::printf("%6d %11lld %10lld %20.2f %12.2f\n", w.rankId,
                                static_cast<long long>(w.collectives), static_cast<long long>(w.timesLast),
                                us(w.madeOthersWait), us(w.waited));
                if (a.waitedForPhantoms > 0)
                    std::printf("waited for phantom peers (outside the set): %.2f us\n",
                                us(a.waitedForPhantoms));
                std::printf("\n%5s %12s %-15s %4s %12s %10s %10s  %s\n", "#", "first_us", "type", "size",
                            "bytes", "last", "spread_us", "group (arrival order: rank +us after the first)");
                for (std::size_t i = 0; i < a.collectives.size(); ++i) {
                    const auto& c = a.collectives[i];
                    const nlohmann::json lj = lastArrivalJson(g, c);
                    const std::string last = lj.is_null()     ? std::string("-")
                                             : lj.is_string() ? lj.get<std::string>()
                                                              : "rank " + std::to_string(lj.get<int>());
                    std::string order;
                    // Past 16 participants the first and the last eight, which tell who came late.
                    const std::size_t n = c.ranks.size();
                    for (std::size_t k = 0; k < n; ++k) {
                        if (n > 16 && k == 8) {
                            order += " ... (" + std::to_string(n - 16) + " more)";
                            k = n - 8;
                        }
                        const RankArrival& r = c.ranks[k];
                        char buf[48];
                        std::snprintf(buf, sizeof buf, " %d+%.0f", g.ranks[r.rank].rankId,
                                      us(r.arrival - c.first));
                        order += buf;
                    }
                    if (c.phantomPeers > 0) {
                        char buf[64];
                        std::snprintf(buf, sizeof buf, " phantom(%d)+%.0f", c.phantomPeers,
                                      us(c.phantomArrival - c.first));
                        order += buf;
                    }
                    std::printf("%5zu %12.2f %-15s %4d %12lld %10s %10.2f  %s:%s\n", i, us(c.first),
                                std::string(collectiveTypeName(c.type)).c_str(), c.size,
                                static_cast<long long>(c.bytes), last.c_str(), us(c.spread),
                                groupText(c).c_str(), order.c_str());
                }
                std::printf("\n%zu collectives, %zu ranks\n", a.collectives.size(), a.ranks.size());
                return kExitOk;
            }};
}

CommandRegistrar registerCollectives{makeCollectivesCommand()};

} // namespace

} // namespace sl::cli
