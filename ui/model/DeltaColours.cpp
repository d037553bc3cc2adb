#include "DeltaColours.h"

#include "Palette.h"

#include <cmath>

namespace sl::ui {

int deltaBin(TimeNs mine, TimeNs other, double samePct) {
    if (other <= 0) return mine <= 0 ? kDeltaSame : kDeltaBins - 2;
    const double pct = 100.0 * static_cast<double>(mine - other) / static_cast<double>(other);
    if (std::abs(pct) <= samePct) return kDeltaSame;
    const double a = std::abs(pct);
    const int step = a >= kDeltaSteps[1] ? 3 : a >= kDeltaSteps[0] ? 2 : 1;
    return pct < 0 ? kDeltaSame - step : kDeltaSame + step;
}

QColor deltaColour(int bin) {
    // Greens (faster) and reds (slower) as in the comparison tables, darker for larger changes.
    static const QColor colours[kDeltaBins] = {QColor(0x1b, 0x6e, 0x2e), QColor(0x37, 0x9f, 0x4d),
                                               QColor(0x8c, 0xd0, 0x96), QColor(0xc8, 0xcc, 0xd0),
                                               QColor(0xf2, 0x9e, 0x9e), QColor(0xd9, 0x48, 0x48),
                                               QColor(0x9b, 0x16, 0x16), QColor(0x9c, 0x6a, 0xde)};
    return colours[std::clamp(bin, 0, kDeltaBins - 1)];
}

const std::int8_t* EventDeltas::track(std::size_t rank, std::size_t track) const {
    if (rank >= bins.size() || track >= bins[rank].size() || bins[rank][track].empty()) return nullptr;
    return bins[rank][track].data();
}

std::int8_t EventDeltas::at(int rank, std::uint32_t track, std::uint32_t event) const {
    const std::int8_t* t = rank < 0 ? nullptr : this->track(static_cast<std::size_t>(rank), track);
    return t && event < bins[static_cast<std::size_t>(rank)][track].size() ? t[event] : kNotCompared;
}

} // namespace sl::ui
