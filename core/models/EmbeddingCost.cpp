#include "models/EmbeddingCost.h"

#include "models/GpuTable.h"

#include <algorithm>
#include <array>
#include <string>

namespace sl {

namespace {

// L2 sizes from the vendors' datasheets (the GPU table has none): substring of the table name.
struct L2Size {
    const char* name;
    double mb;
};
constexpr std::array<L2Size, 8> kL2 = {{{"V100", 6},
                                        {"A100", 40},
                                        {"H100", 50},
                                        {"H200", 50},
                                        {"B200", 126},
                                        {"L40", 96},
                                        {"MI250", 16},
                                        {"MI300", 256}}};

double modelBytesTime(double bytes, double gbps) {
    return gbps > 0 ? bytes / gbps : 0; // bytes / (GB/s) = ns
}

} // namespace

EmbeddingMachine embeddingMachine(const GpuSpec* gpu) {
    EmbeddingMachine m;
    if (!gpu) return m;
    m.name = gpu->name;
    if (gpu->memoryGBps > 0) m.dramGBps = gpu->memoryGBps;
    m.l2GBps = 3 * m.dramGBps;
    for (const auto& l : kL2)
        if (gpu->name.find(l.name) != std::string::npos) m.l2Bytes = l.mb * 1e6;
    return m;
}

double l2HitRate(const EmbeddingTable& table, const TableShard& shard, double cacheBytes) {
    const double rows = static_cast<double>(table.rows) * shard.rowShare;
    const double rowBytes = table.rowBytes() * shard.dimShare;
    if (rows <= 0 || rowBytes <= 0) return 0;
    const double cachedRows = cacheBytes / rowBytes;
    if (table.reuse.empty()) return std::clamp(cachedRows / rows, 0.0, 1.0);
    // Shares of lookups whose reuse distance fits, the last bucket in part (linear within it).
    double hit = 0, lastDistance = 0;
    for (const auto& [distance, share] : table.reuse) {
        if (cachedRows >= distance) {
            hit += share;
        } else {
            hit += share * std::max(0.0, cachedRows - lastDistance) / (distance - lastDistance);
            break;
        }
        lastDistance = distance;
    }
    return std::clamp(hit, 0.0, 1.0);
}

std::vector<LookupTime> lookupTimes(const std::vector<TableShard>& shards, const EmbeddingTables& tables,
                                    int worldSize, const EmbeddingMachine& m) {
    std::vector<LookupTime> out(static_cast<std::size_t>(worldSize));
    // Each shard's claim on its rank's L2: its share of the rank's row traffic.
    std::vector<double> traffic(static_cast<std::size_t>(worldSize));
    auto rowBytes = [&](const TableShard& s) {
        return tables.tables[static_cast<std::size_t>(s.table)].rowBytes() * s.dimShare;
    };
    for (const auto& s : shards)
        traffic[static_cast<std::size_t>(s.rank)] += s.lookups * rowBytes(s);
    constexpr double kIndexBytes = 8;
    for (const auto& s : shards) {
        const auto& tb = tables.tables[static_cast<std::size_t>(s.table)];
        const auto r = static_cast<std::size_t>(s.rank);
        const double rb = rowBytes(s);
        const double share = traffic[r] > 0 ? s.lookups * rb / traffic[r] : 0;
        const double hit = l2HitRate(tb, s, m.l2Bytes * share);
        // One row read per lookup, from L2 or DRAM; the indices read; the pooled rows written.
        const double rowTime =
            hit * modelBytesTime(rb, m.l2GBps) + (1 - hit) * modelBytesTime(rb, m.dramGBps);
        const double outBytes = s.outputRows * rb;
        out[r].forwardNs +=
            s.lookups * rowTime + modelBytesTime(s.lookups * kIndexBytes + outBytes, m.dramGBps);
        // Backward: the pooled gradient read per lookup, each row read and written back (the
        // optimizer's update in place), the indices read again.
        out[r].backwardNs += 2 * s.lookups * rowTime +
                             modelBytesTime(s.lookups * kIndexBytes + outBytes, m.dramGBps) +
                             modelBytesTime(s.lookups * rb, m.l2GBps);
    }
    return out;
}

} // namespace sl
