#include "models/CollectiveModel.h"

#include "base/Rounding.h"
#include "trace/AsciiText.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <set>

namespace sl {

double busFactor(CollectiveType type, int groupSize) {
    double n = std::max(groupSize, 1);
    switch (type) {
    case CollectiveType::AllReduce:
        return 2.0 * (n - 1) / n;
    case CollectiveType::AllGather:
    case CollectiveType::ReduceScatter:
    case CollectiveType::AllToAll:
        return (n - 1) / n;
    case CollectiveType::SendRecv: // a sendrecv kernel in a larger group is an all-to-all
        return groupSize > 2 ? (n - 1) / n : 1.0;
    default:
        return 1.0;
    }
}

int commParamGroup(CollectiveType type) {
    switch (type) {
    case CollectiveType::AllReduce:
        return 0;
    case CollectiveType::AllGather:
        return 1;
    case CollectiveType::ReduceScatter:
        return 2;
    case CollectiveType::AllToAll:
        return 3;
    case CollectiveType::Broadcast:
        return 4;
    case CollectiveType::Reduce:
        return 5;
    default:
        return 6;
    }
}

std::string_view commParamGroupName(int group) {
    static constexpr std::array<std::string_view, kCommParamGroupCount> names = {
        "all_reduce", "all_gather", "reduce_scatter", "all_to_all", "broadcast", "reduce", "send_recv"};
    return group >= 0 && group < kCommParamGroupCount ? names[static_cast<std::size_t>(group)] : "send_recv";
}

int gpusPerNodeOf(const TraceSet& set, int knob) {
    if (knob > 0) return knob;
    int n = 0;
    for (const auto& r : set.ranks)
        n = std::max(n, static_cast<int>(r.devices.size()));
    return n > 0 ? n : 8;
}

TimeNs CollectiveModel::time(CollectiveType type, std::int64_t bytes, int groupSize, bool spansNodes) const {
    if (bytes < 0) return -1;
    const AlphaBeta& p = params[static_cast<std::size_t>(commParamGroup(type))][spansNodes ? 1 : 0];
    if (!p.valid()) return -1;
    double factor = busFactor(type, groupSize);
    double latency = p.latencyUs * 1000.0;
    bool treeType = type == CollectiveType::AllReduce || type == CollectiveType::Broadcast ||
                    type == CollectiveType::Reduce;
    if (tree && treeType && groupSize > 1) {
        latency *= std::ceil(std::log2(static_cast<double>(groupSize)));
        if (type == CollectiveType::AllReduce) factor = 2.0;
    }
    double ns = latency + static_cast<double>(bytes) * factor / p.GBps; // GB/s == bytes/ns
    return static_cast<TimeNs>(std::llround(std::max(0.0, ns)));
}

const CalibrationFit* Calibration::pooled(bool inter) const {
    for (const auto& f : fits)
        if (f.group < 0 && f.inter == inter) return &f;
    return nullptr;
}

const CalibrationFit* Calibration::ofGroup(int group, bool inter) const {
    for (const auto& f : fits)
        if (f.group == group && f.inter == inter) return &f;
    return nullptr;
}

namespace {

CalibrationFit fitSamples(const std::vector<const CommSample*>& s, double fallbackLatencyNs) {
    CalibrationFit f;
    f.samples = static_cast<int>(s.size());
    if (s.empty()) return f;
    std::set<double> sizes;
    double sx = 0, st = 0, sxx = 0, sxt = 0;
    for (const CommSample* p : s) {
        sizes.insert(p->busBytes);
        sx += p->busBytes;
        st += p->transferNs;
        sxx += p->busBytes * p->busBytes;
        sxt += p->busBytes * p->transferNs;
    }
    f.distinctSizes = static_cast<int>(sizes.size());
    const double n = static_cast<double>(s.size());
    const double mx = sx / n, mt = st / n;
    double a = 0, b = 0; // t = a + b x
    double var = sxx / n - mx * mx;
    if (sizes.size() >= 2 && var > 0) {
        b = (sxt / n - mx * mt) / var;
        a = mt - b * mx;
        if (a < 0) { // negative latency: fit through the origin
            a = 0;
            b = sxt / sxx;
        }
    } else {
        a = std::clamp(fallbackLatencyNs, 0.0, mt);
        b = mx > 0 ? (mt - a) / mx : 0;
    }
    if (!(b > 0)) { // time does not grow with size: latency only
        a = mt;
        b = 1e-6; // 1e6 GB/s, the knob's upper bound
    }
    f.fit.latencyUs = a / 1000.0;
    f.fit.GBps = std::min(1.0 / b, 1e6);
    double se = 0;
    for (const CommSample* p : s) {
        double e = a + b * p->busBytes - p->transferNs;
        se += e * e;
    }
    f.rmsErrorUs = std::sqrt(se / n) / 1000.0;
    f.measuredUs = st / 1000.0;
    return f;
}

} // namespace

Calibration fitCalibration(const std::vector<CommSample>& samples, int gpusPerNode, int withoutBytes) {
    Calibration cal;
    cal.gpusPerNode = gpusPerNode;
    cal.collectivesWithoutBytes = withoutBytes;
    if (cal.collectivesWithoutBytes > 0)
        cal.warnings.add(Warn::CalibrationNoSize,
                         std::to_string(cal.collectivesWithoutBytes) +
                             " collective kernels have no size metadata (In/Out msg nelems, dtype): "
                             "not used for the fit, alpha-beta keeps their measured durations",
                         cal.collectivesWithoutBytes);
    for (int inter = 0; inter < 2; ++inter) {
        std::vector<const CommSample*> pool;
        for (const auto& s : samples)
            if (s.inter == (inter == 1)) pool.push_back(&s);
        if (pool.empty()) continue;
        CalibrationFit f = fitSamples(pool, 0);
        f.inter = inter == 1;
        cal.fits.push_back(f);
    }
    for (int inter = 0; inter < 2; ++inter)
        for (int grp = 0; grp < kCommParamGroupCount; ++grp) {
            std::vector<const CommSample*> pool;
            for (const auto& s : samples)
                if (s.inter == (inter == 1) && s.group == grp) pool.push_back(&s);
            if (pool.empty()) continue;
            const CalibrationFit* pooled = cal.pooled(inter == 1);
            CalibrationFit f = fitSamples(pool, pooled ? pooled->fit.latencyUs * 1000.0 : 0);
            f.group = grp;
            f.inter = inter == 1;
            cal.fits.push_back(f);
        }
    if (samples.empty())
        cal.warnings.add(Warn::CalibrationNoSamples, "no collective with known size: nothing to calibrate");
    return cal;
}

nlohmann::json Calibration::toKnobJson() const {
    nlohmann::json j;
    j["name"] = "calibrated alpha-beta";
    j["description"] = "effective bus bandwidth and latency fitted from the measured collective transfers "
                       "(sightline-cli calibrate)";
    j["comm.model"] = "alpha-beta";
    j["comm.gpus_per_node"] = gpusPerNode;
    const CalibrationFit* intra = pooled(false);
    const CalibrationFit* inter = pooled(true);
    if (intra) j["comm.intra_node_GBps"] = round3(intra->fit.GBps);
    if (inter) j["comm.inter_node_GBps"] = round3(inter->fit.GBps);
    if (intra || inter) j["comm.latency_us"] = round3((intra ? intra : inter)->fit.latencyUs);
    nlohmann::json details = nlohmann::json::array();
    for (const auto& f : fits) {
        std::string prefix =
            f.group < 0 ? std::string() : "comm." + std::string(commParamGroupName(f.group)) + ".";
        if (f.group >= 0) {
            j[prefix + (f.inter ? "inter_node_GBps" : "intra_node_GBps")] = round3(f.fit.GBps);
            j[prefix + (f.inter ? "inter_node_latency_us" : "latency_us")] = round3(f.fit.latencyUs);
        }
        details.push_back(
            {{"type", f.group < 0 ? std::string("all") : std::string(commParamGroupName(f.group))},
             {"locality", f.inter ? "inter_node" : "intra_node"},
             {"samples", f.samples},
             {"distinct_sizes", f.distinctSizes},
             {"bus_GBps", round3(f.fit.GBps)},
             {"latency_us", round3(f.fit.latencyUs)},
             {"rms_error_us", round3(f.rmsErrorUs)},
             {"measured_us", round3(f.measuredUs)}});
    }
    j["calibration"] = {{"fits", details},
                        {"collectives_without_bytes", collectivesWithoutBytes},
                        {"warnings", warnings.lines()}};
    return j;
}

} // namespace sl
