#include "TimeFormat.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>

namespace sl::ui {

QString formatDuration(TimeNs ns) {
    const double a = std::abs(static_cast<double>(ns));
    const double v = static_cast<double>(ns);
    if (a < 1e3) return QStringLiteral("%1 ns").arg(ns);
    if (a < 1e6) return QStringLiteral("%1 us").arg(v / 1e3, 0, 'f', a < 1e4 ? 2 : (a < 1e5 ? 1 : 0));
    if (a < 1e9) return QStringLiteral("%1 ms").arg(v / 1e6, 0, 'f', a < 1e7 ? 2 : (a < 1e8 ? 1 : 0));
    return QStringLiteral("%1 s").arg(v / 1e9, 0, 'f', 3);
}

TimeNs resolutionFor(double nsPerPixel) {
    TimeNs r = 1;
    while (r < 1000 && static_cast<double>(r) * 10 <= nsPerPixel)
        r *= 10;
    return r;
}

QString formatPrecise(TimeNs ns, TimeNs resolution) {
    TimeNs res = 1;
    while (res < 1000 && res * 10 <= resolution)
        res *= 10;
    // Round to the resolution in integers (no binary fractions in the printed digits).
    const bool negative = ns < 0;
    std::uint64_t a = negative ? 0 - static_cast<std::uint64_t>(ns) : static_cast<std::uint64_t>(ns);
    const auto ures = static_cast<std::uint64_t>(res);
    a = (a + ures / 2) / ures * ures;
    std::uint64_t unit = 1;
    const char* name = "ns";
    int digits = 0; // decimal digits of the unit
    if (a >= 1'000'000'000) {
        unit = 1'000'000'000, name = "s", digits = 9;
    } else if (a >= 1'000'000) {
        unit = 1'000'000, name = "ms", digits = 6;
    } else if (a >= 1'000) {
        unit = 1'000, name = "us", digits = 3;
    }
    int decimals = digits;
    for (TimeNs r = res; r > 1 && decimals > 0; r /= 10)
        --decimals;
    QString frac = QStringLiteral("%1").arg(a % unit, digits, 10, QLatin1Char('0')).left(decimals);
    if (res == 1) {
        // Exact: drop zeros below the microsecond digit.
        const int keep = std::max(0, digits - 3);
        while (frac.size() > keep && frac.endsWith(QLatin1Char('0')))
            frac.chop(1);
    }
    QString text = negative && a != 0 ? QStringLiteral("-") : QString();
    text += QString::number(a / unit);
    if (!frac.isEmpty()) text += QLatin1Char('.') + frac;
    return text + QLatin1Char(' ') + QLatin1String(name);
}

QString formatSigned(TimeNs ns, TimeNs resolution) {
    const QString text = formatPrecise(ns, resolution);
    return text.startsWith(QLatin1Char('-')) || text.startsWith(QLatin1Char('0')) ? text
                                                                                  : QLatin1Char('+') + text;
}

TimeNs niceStep(double minNs) {
    if (!(minNs > 1)) return 1;
    const double p = std::pow(10.0, std::floor(std::log10(minNs)));
    for (double f : {1.0, 2.0, 5.0, 10.0})
        if (f * p >= minNs) return static_cast<TimeNs>(std::llround(f * p));
    return static_cast<TimeNs>(std::llround(10 * p));
}

AxisSteps axisSteps(const TimeMapping& m, int minSpacingPx, int minMajorSpacingPx) {
    AxisSteps s;
    s.minor = niceStep(m.nsPerPixel * minSpacingPx);
    if (minMajorSpacingPx <= 0) {
        // Major ticks every 5 steps for 1/10-steps, every 5 for 2-steps (10 units), every 2 for 5-steps.
        TimeNs digits = s.minor;
        while (digits % 10 == 0)
            digits /= 10;
        s.major = s.minor * (digits == 5 ? 2 : 5);
        return s;
    }
    // The next 1-2-5 value wide enough for a label that the minor ticks divide (a 2-step never gets
    // majors at 5).
    s.major = niceStep(std::max(m.nsPerPixel * minMajorSpacingPx, static_cast<double>(s.minor)));
    while (s.major % s.minor != 0)
        s.major = niceStep(static_cast<double>(s.major + 1));
    return s;
}

std::vector<Tick> axisTicks(const TimeMapping& m, int widthPx, int minSpacingPx, TimeNs origin,
                            int minMajorSpacingPx) {
    std::vector<Tick> ticks;
    if (widthPx <= 0) return ticks;
    const AxisSteps steps = axisSteps(m, minSpacingPx, minMajorSpacingPx);
    const TimeNs step = steps.minor;
    const TimeNs t0 = m.start;
    const TimeNs t1 = m.end(widthPx);
    const TimeNs r0 = t0 - origin;
    const TimeNs firstK = r0 >= 0 ? (r0 + step - 1) / step : r0 / step;
    for (TimeNs k = firstK;; ++k) {
        const TimeNs t = origin + k * step;
        if (t > t1) break;
        ticks.push_back({t, m.x(t), (k * step) % steps.major == 0});
    }
    return ticks;
}

QString formatChangePct(double pct) {
    if (!(std::abs(pct) >= 0.05)) return QStringLiteral("no change");
    return QStringLiteral("%1%2%").arg(pct > 0 ? QStringLiteral("+") : QString()).arg(pct, 0, 'f', 1);
}

QString tickLabel(TimeNs t, TimeNs origin, TimeNs majorStep) {
    const TimeNs rel = t - origin;
    const double v = static_cast<double>(rel);
    if (rel == 0 || std::abs(v) < static_cast<double>(majorStep) / 1000.0) return QStringLiteral("0");
    auto decimals = [&](double unit) {
        int d = 0;
        double s = static_cast<double>(majorStep) / unit;
        while (s < 1.0 - 1e-9 && d < 6)
            s *= 10, ++d;
        return d;
    };
    if (majorStep >= 100'000'000) return QStringLiteral("%1 s").arg(v / 1e9, 0, 'f', decimals(1e9));
    if (majorStep >= 100'000) return QStringLiteral("%1 ms").arg(v / 1e6, 0, 'f', decimals(1e6));
    if (majorStep >= 100) return QStringLiteral("%1 us").arg(v / 1e3, 0, 'f', decimals(1e3));
    return QStringLiteral("%1 ns").arg(rel);
}

} // namespace sl::ui
