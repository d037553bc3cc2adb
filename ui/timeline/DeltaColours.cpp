#include "DeltaColours.h"

#include "Palette.h"

#include <QFontMetrics>
#include <QPainter>

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

QString deltaLabel(int bin) {
    const QString lo = QString::number(kDeltaSteps[0]), hi = QString::number(kDeltaSteps[1]);
    switch (bin) {
    case 0:
        return QStringLiteral("≥%1% faster").arg(hi);
    case 1:
        return QStringLiteral("%1–%2% faster").arg(lo, hi);
    case 2:
        return QStringLiteral("<%1% faster").arg(lo);
    case kDeltaSame:
        return QStringLiteral("same (noise)");
    case 4:
        return QStringLiteral("<%1% slower").arg(lo);
    case 5:
        return QStringLiteral("%1–%2% slower").arg(lo, hi);
    case 6:
        return QStringLiteral("≥%1% slower").arg(hi);
    default:
        return QStringLiteral("only in this run");
    }
}

const std::int8_t* EventDeltas::track(std::size_t rank, std::size_t track) const {
    if (rank >= bins.size() || track >= bins[rank].size() || bins[rank][track].empty()) return nullptr;
    return bins[rank][track].data();
}

std::int8_t EventDeltas::at(int rank, std::uint32_t track, std::uint32_t event) const {
    const std::int8_t* t = rank < 0 ? nullptr : this->track(static_cast<std::size_t>(rank), track);
    return t && event < bins[static_cast<std::size_t>(rank)][track].size() ? t[event] : kNotCompared;
}

void paintDeltaLegend(QPainter& p, QRect area) {
    // Compact, so that it fits a narrow pane: "faster [3 greens] [grey] [3 reds] slower than the
    // other run [purple] only here", with fewer words where the pane is narrower.
    const QFontMetrics fm(p.font());
    const int sw = 11, pad = 5, gap = 6;
    struct Words {
        QString faster, slower, only;
    };
    const Words variants[] = {
        {QStringLiteral("faster"), QStringLiteral("slower than the other run"), QStringLiteral("only here")},
        {QStringLiteral("faster"), QStringLiteral("slower"), QStringLiteral("only here")},
        {QStringLiteral("faster"), QStringLiteral("slower"), QString()}};
    const auto widthOf = [&](const Words& w) {
        return pad + fm.horizontalAdvance(w.faster) + gap + 7 * sw + gap + fm.horizontalAdvance(w.slower) +
               2 * gap + sw + (w.only.isEmpty() ? 0 : 3 + fm.horizontalAdvance(w.only)) + pad;
    };
    const Words* words = &variants[2];
    for (const Words& w : variants)
        if (widthOf(w) + 16 <= area.width()) {
            words = &w;
            break;
        }
    const int width = widthOf(*words);
    const int h = fm.height() + 2 * pad;
    const QRect box(std::max(area.left(), area.right() - width - 8), area.top() + 4, width, h);
    p.save();
    p.setPen(Qt::NoPen);
    p.setBrush(QColor(255, 255, 255, 230));
    p.drawRoundedRect(box, 3, 3);
    p.setPen(palette::text());
    int x = box.left() + pad;
    const auto text = [&](const QString& t) {
        p.drawText(QRect(x, box.top(), fm.horizontalAdvance(t), h), Qt::AlignVCenter, t);
        x += fm.horizontalAdvance(t);
    };
    const auto swatch = [&](int bin) {
        p.fillRect(QRect(x, box.top() + (h - sw) / 2, sw, sw), deltaColour(bin));
        x += sw;
    };
    text(words->faster);
    x += gap;
    for (int b = 0; b < kDeltaUnmatched; ++b)
        swatch(b);
    x += gap;
    text(words->slower);
    x += 2 * gap;
    swatch(kDeltaUnmatched);
    if (!words->only.isEmpty()) {
        x += 3;
        text(words->only);
    }
    p.restore();
}

} // namespace sl::ui
