#include "sim/CollectiveKnobs.h"

#include <algorithm>

namespace sl {

CollectiveModel collectiveModelFor(const ExecutionGraph& g, const SimKnobs& k,
                                   const std::vector<CollectiveCall>& calls, Warnings* warnings) {
    (void)calls;
    CollectiveModel m;
    m.gpusPerNode = gpusPerNodeOf(*g.trace, k.commGpusPerNode);
    m.tree = k.commAlgorithm == CommAlgorithm::Tree;
    Calibration cal;
    bool needCal = k.commIntraNodeGBps <= 0 || k.commInterNodeGBps <= 0 || k.commLatencyUs < 0;
    if (needCal) cal = calibrate(g, m.gpusPerNode);
    bool usedCal = false;
    auto perType = [&](int grp, const char* param) -> double {
        auto it = k.commPerType.find(std::string(commParamGroupName(grp)) + "." + param);
        return it == k.commPerType.end() ? -1 : it->second;
    };
    for (int grp = 0; grp < kCommParamGroupCount; ++grp) {
        for (int inter = 0; inter < 2; ++inter) {
            AlphaBeta& p = m.params[static_cast<std::size_t>(grp)][static_cast<std::size_t>(inter)];
            const CalibrationFit* cf = needCal ? cal.ofGroup(grp, inter == 1) : nullptr;
            if (!cf && needCal) cf = cal.pooled(inter == 1);
            double bw = perType(grp, inter ? "inter_node_GBps" : "intra_node_GBps");
            if (bw <= 0) bw = inter ? k.commInterNodeGBps : k.commIntraNodeGBps;
            if (bw <= 0 && cf) {
                bw = cf->fit.GBps;
                usedCal = true;
            }
            double lat = inter ? perType(grp, "inter_node_latency_us") : -1;
            if (lat < 0) lat = perType(grp, "latency_us");
            if (lat < 0) lat = k.commLatencyUs;
            if (lat < 0 && cf) {
                lat = cf->fit.latencyUs;
                usedCal = true;
            }
            p.GBps = bw;
            p.latencyUs = std::max(0.0, lat);
        }
        auto& intra = m.params[static_cast<std::size_t>(grp)][0];
        auto& inter = m.params[static_cast<std::size_t>(grp)][1];
        if (!inter.valid() && intra.valid()) {
            inter = intra;
            m.interFromIntra = true;
        }
    }
    if (warnings) {
        if (usedCal)
            warnings->addForKnob("comm.model", Warn::AlphaBetaCalibrated,
                                 "comm.model=alpha-beta: parameters that were not set are calibrated from "
                                 "the measured transfers of the trace");
    }
    return m;
}

} // namespace sl
