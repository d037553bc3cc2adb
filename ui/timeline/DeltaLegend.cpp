#include "DeltaLegend.h"

#include "DeltaColours.h"
#include "Palette.h"

#include <QFontMetrics>
#include <QPainter>

#include <algorithm>

namespace sl::ui {

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
