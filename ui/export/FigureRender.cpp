#include "FigureRender.h"

#include "AddedRanksPaint.h"
#include "DeltaLegend.h"
#include "Palette.h"
#include "RowLayout.h"
#include "TimeAxis.h"
#include "TimeMapping.h"
#include "TimelineRenderer.h"
#include "TrackState.h"

#include <QBuffer>
#include <QFileInfo>
#include <QFontMetrics>
#include <QImage>
#include <QPainter>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QSvgGenerator>

#include <algorithm>
#include <cmath>
#include <functional>

namespace sl::ui {

namespace {

// The figure is laid out on a page 1080 logical pixels high (fonts and rows as on screen at 1080p)
// and scaled to the requested height, so 3840x2160 is the 1920x1080 picture at twice the detail.
constexpr double kLogicalHeight = 1080.0;
constexpr int kMargin = 24;
constexpr int kGutter = TimelineRenderer::kGutterWidth;
constexpr int kPaneTitle = 22;
constexpr int kAxis = 26;
constexpr int kLegend = 30;
constexpr int kAddedHeader = 20;
constexpr int kAddedRow = 16;
constexpr int kAddedRowsShown = 8; // as the window's strip shows without scrolling

// The figure's type: the generic sans-serif family, which an SVG names as such, so that Chromium and
// Inkscape render it sans-serif whatever fonts they have (a named family they lack fell back to serif).
QFont figureFont(QFont base) {
    base.setFamilies({QStringLiteral("sans-serif")});
    base.setStyleHint(QFont::SansSerif);
    return base;
}

QFont sized(const QFont& base, int px, bool bold = false) {
    QFont f = base;
    f.setPixelSize(px);
    f.setBold(bold);
    return f;
}

} // namespace

FigureStats paintFigure(QPainter& p, const Figure& fig) {
    FigureStats stats;
    const auto& any = fig.measured ? fig.measured : fig.simulated;
    const double scale = std::max(0.25, fig.size.height() / kLogicalHeight);
    const int width = static_cast<int>(std::floor(fig.size.width() / scale));
    const int height = static_cast<int>(std::floor(fig.size.height() / scale));
    p.save();
    p.scale(scale, scale);
    p.fillRect(QRect(0, 0, width, height), Qt::white);
    p.setRenderHint(QPainter::Antialiasing, false);
    p.setRenderHint(QPainter::TextAntialiasing, true);
    const QFont base = figureFont(p.font());

    // Title, headline and knobs.
    int y = kMargin;
    p.setPen(palette::text());
    if (!fig.title.isEmpty()) {
        p.setFont(sized(base, 26, true));
        p.drawText(QRect(kMargin, y, width - 2 * kMargin, 34), Qt::AlignLeft | Qt::AlignVCenter, fig.title);
        y += 36;
    }
    if (!fig.subtitle.isEmpty()) {
        // The headline wraps (two lines at most): a data-parallel what-if's throughput and scaling
        // efficiency made it wider than the page, and the efficiency was cut off.
        p.setFont(sized(base, 18, true));
        const QRect box(kMargin, y, width - 2 * kMargin, 2 * 26);
        const QRect need = p.boundingRect(box, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, fig.subtitle);
        p.drawText(box, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, fig.subtitle);
        y += std::min(need.height(), box.height()) + 4;
    }
    p.setFont(sized(base, 15));
    const QString knobs = fig.knobs.isEmpty()
                              ? QStringLiteral("Knobs: replay (every knob at its default)")
                              : QStringLiteral("Knobs: %1").arg(fig.knobs.join(QStringLiteral(", ")));
    p.drawText(QRect(kMargin, y, width - 2 * kMargin, 22), Qt::AlignLeft | Qt::AlignVCenter,
               QFontMetrics(p.font()).elidedText(knobs, Qt::ElideRight, width - 2 * kMargin));
    y += 30;
    if (!any) {
        p.restore();
        return stats;
    }

    // The time range and its mapping over the event area.
    TimeNs start = fig.start, end = fig.end;
    if (end <= start) {
        start = any->start();
        end = any->end();
        if (fig.measured && fig.simulated) {
            start = std::min(fig.measured->start(), fig.simulated->start());
            end = std::max(fig.measured->end(), fig.simulated->end());
        }
    }
    const TimeNs origin = any->start();
    const int areaX = kMargin + kGutter, areaW = std::max(50, width - areaX - kMargin);
    const TimeMapping m = TimeMapping::fromWindow(start, end, areaW);

    // Time axis: labels at round times from the trace's start, as the window's axis.
    p.setFont(sized(base, 13));
    p.setPen(palette::text());
    p.drawText(QRect(kMargin, y, kGutter - 8, kAxis), Qt::AlignLeft | Qt::AlignVCenter,
               QStringLiteral("time from trace start"));
    std::vector<Tick> ticks;
    const auto labels = TimeAxis::labels(m, areaW, origin, QFontMetrics(p.font()), &ticks);
    p.setPen(palette::grid());
    for (const Tick& t : ticks)
        p.drawLine(QPointF(areaX + t.x, y + kAxis - (t.major ? 8 : 4)), QPointF(areaX + t.x, y + kAxis));
    p.setPen(palette::text());
    for (const auto& l : labels)
        p.drawText(QPointF(areaX + l.x + 2, y + kAxis - 10), l.text);
    y += kAxis;

    // The panes share one row layout: every rank, expanded when the panes have room, else each
    // rank's summary strip (a header row), else squeezed vertically.
    const int panes = (fig.measured ? 1 : 0) + (fig.simulated ? 1 : 0);
    // The added ranks' strip under the simulated pane takes its rows' height first.
    const bool added = fig.added && fig.simulated && !fig.added->rows().empty();
    const int addedRows = added ? std::min(static_cast<int>(fig.added->rows().size()), kAddedRowsShown) : 0;
    const int addedH = added ? kAddedHeader + addedRows * kAddedRow + 12 : 0;
    const int paneH = std::max(40, (height - y - kLegend - kMargin - addedH) / panes - kPaneTitle - 6);
    TrackState tracks;
    tracks.reset(any->set());
    // The window's track tree (hidden tracks, folded ranks, order) when asked for; the fitting below
    // still applies.
    if (fig.tracks && fig.tracks->matches(any->set())) tracks.restore(fig.tracks->ranks());
    RowLayout layout;
    layout.build(any->set(), tracks);
    const TraceSet& set = any->set();
    if (layout.height() > paneH) { // first the GPU streams alone: what a figure of a step is about
        for (std::size_t r = 0; r < set.ranks.size(); ++r)
            for (std::size_t k = 0; k < set.ranks[r].tracks.size(); ++k)
                if (!set.ranks[r].tracks[k].isGpu()) tracks.setTrackHidden(r, k, true);
        layout.build(set, tracks);
        stats.cpuHidden = true;
    }
    // Squeezing the GPU streams by up to 1/3 keeps them readable; past that, summary strips.
    if (layout.height() * 2 > paneH * 3) {
        for (std::size_t r = 0; r < tracks.rankCount(); ++r)
            tracks.setRankExpanded(r, false);
        layout.build(set, tracks);
        stats.collapsed = true;
    }
    stats.ranks = static_cast<int>(any->set().ranks.size());
    const double squeeze = layout.height() > paneH ? static_cast<double>(paneH) / layout.height() : 1.0;
    // The panes as tall as their rows: the room left goes below them, not between.
    const int shownH = std::min(paneH, layout.height());
    TimelineRenderer renderer;
    renderer.setFont(sized(base, 12));
    auto pane = [&](const TimelineData& data, const QString& title, const EventDeltas* deltas) {
        // The comparison run below: its rows along the upper pane's.
        RowLayout along;
        const bool other = &data.set() != &set && fig.simulatedRows;
        if (other) along.build(data.set(), tracks, *fig.simulatedRows);
        const RowLayout& rows = other ? along : layout;
        p.fillRect(QRect(kMargin, y, width - 2 * kMargin, kPaneTitle), QColor(0x343a40));
        p.setPen(Qt::white);
        p.setFont(sized(base, 14, true));
        p.drawText(QRect(kMargin + 8, y, width - 2 * kMargin - 16, kPaneTitle),
                   Qt::AlignLeft | Qt::AlignVCenter, title);
        y += kPaneTitle;
        p.save();
        p.translate(kMargin, y);
        p.scale(1.0, squeeze);
        const int h = static_cast<int>(shownH / squeeze);
        p.setClipRect(QRect(0, 0, width - 2 * kMargin, h));
        p.setFont(sized(base, 12));
        renderer.paintGutter(p, data, rows, tracks, h, 0, QString(), kGutter); // titled above
        p.translate(kGutter, 0);
        p.setClipRect(QRect(0, 0, areaW, h));
        p.fillRect(QRect(0, 0, areaW, h), palette::background());
        RenderState state;
        state.origin = origin;
        if (deltas && deltas->set == &data.set()) state.deltas = deltas;
        if (!other) state.notes = &fig.notes;
        stats.boxes += renderer.paintEvents(p, data, rows, m, QSize(areaW, h), 0, state).boxes;
        if (state.deltas) paintDeltaLegend(p, QRect(0, 0, areaW, h));
        p.restore();
        y += shownH + 12;
    };
    if (fig.measured) pane(*fig.measured, fig.measuredTitle, fig.measuredDeltas.get());
    if (fig.simulated) pane(*fig.simulated, fig.simulatedTitle, fig.simulatedDeltas.get());
    if (added) {
        AddedRanksArea area;
        area.width = width - 2 * kMargin;
        area.gutter = kGutter;
        area.areaWidth = areaW;
        area.headerHeight = kAddedHeader;
        area.rowHeight = kAddedRow;
        area.rowCount = addedRows;
        if (addedRows < static_cast<int>(fig.added->rows().size()))
            area.headerSuffix = QStringLiteral("; the %1 slowest shown").arg(addedRows);
        p.save();
        p.translate(kMargin, y - 8);
        p.setClipRect(QRect(0, 0, area.width, addedH));
        paintAddedRanks(p, *fig.added, m, area, sized(base, 12));
        p.restore();
        stats.addedRows = addedRows;
        y += addedH;
    }

    // The legend: one swatch per event category.
    p.setFont(sized(base, 14));
    int x = kMargin;
    const int ly = height - kMargin - kLegend + 6;
    for (int c = 0; c < kCategoryCount; ++c) {
        const auto cat = static_cast<Category>(c);
        p.fillRect(QRect(x, ly + 4, 16, 16), palette::color(cat));
        p.setPen(palette::text());
        const QString name = categoryLabel(cat);
        p.drawText(QPoint(x + 22, ly + 17), name);
        x += 22 + QFontMetrics(p.font()).horizontalAdvance(name) + 24;
        ++stats.legendItems;
    }
    p.restore();
    return stats;
}

QString paintToFile(const QString& path, QSize size, const QString& title,
                    const std::function<void(QPainter&)>& paint) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("svg")) {
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(size);
        svg.setViewBox(QRect(QPoint(0, 0), size));
        svg.setResolution(96); // CSS pixels: 1920 px is 508 mm, not 677 mm at 72 dpi
        svg.setTitle(title);
        QPainter p;
        if (!p.begin(&svg)) return QStringLiteral("%1: cannot write the image").arg(path);
        paint(p);
        p.end();
        return QFileInfo(path).size() > 0 ? QString()
                                          : QStringLiteral("%1: cannot write the image").arg(path);
    }
    if (suffix == QLatin1String("pdf")) {
        QPdfWriter pdf(path);
        // One page the picture's shape, at 96 dpi: 1920x1080 is 20 x 11.25 inches.
        pdf.setResolution(96);
        pdf.setPageSize(QPageSize(QSizeF(size.width() / 96.0, size.height() / 96.0), QPageSize::Inch));
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        pdf.setTitle(title);
        pdf.setCreator(QStringLiteral("Sightline"));
        QPainter p;
        if (!p.begin(&pdf)) return QStringLiteral("%1: cannot write the document").arg(path);
        paint(p);
        p.end();
        return QFileInfo(path).size() > 0 ? QString()
                                          : QStringLiteral("%1: cannot write the document").arg(path);
    }
    if (suffix == QLatin1String("png")) {
        QImage image(size, QImage::Format_RGB32);
        image.fill(Qt::white);
        QPainter p(&image);
        paint(p);
        p.end();
        return image.save(path, "PNG") ? QString() : QStringLiteral("%1: cannot write the image").arg(path);
    }
    return QStringLiteral("%1: unknown image format (use .png, .svg or .pdf)").arg(path);
}

QString renderFigure(const Figure& figure, const QString& path, FigureStats* stats) {
    if (figure.size.width() < 200 || figure.size.height() < 150 || figure.size.width() > 16384 ||
        figure.size.height() > 16384)
        return QStringLiteral("%1: size %2x%3 is outside 200x150 .. 16384x16384")
            .arg(path)
            .arg(figure.size.width())
            .arg(figure.size.height());
    FigureStats drawn;
    const QString error = paintToFile(
        path, figure.size, figure.title.isEmpty() ? QStringLiteral("Sightline timeline") : figure.title,
        [&](QPainter& p) { drawn = paintFigure(p, figure); });
    if (error.isEmpty() && stats) *stats = drawn;
    return error;
}

QByteArray figureSvg(const Figure& figure) {
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(figure.size);
    svg.setViewBox(QRect(QPoint(0, 0), figure.size));
    svg.setResolution(96); // CSS pixels: 1920 px is 508 mm, not 677 mm at 72 dpi
    svg.setTitle(figure.title);
    QPainter p;
    if (!p.begin(&svg)) return {};
    paintFigure(p, figure);
    p.end();
    return buffer.data();
}

bool parseTimeRange(const QString& text, TimeNs& start, TimeNs& end, QString* error) {
    static const QRegularExpression part(QStringLiteral("^\\s*([0-9]*\\.?[0-9]+)\\s*(ns|us|ms|s)?\\s*$"));
    const QStringList sides = text.split(QLatin1Char(':'));
    auto fail = [&](const QString& why) {
        if (error) *error = QStringLiteral("--range %1: %2").arg(text, why);
        return false;
    };
    if (sides.size() != 2) return fail(QStringLiteral("expected START:END, e.g. 2ms:8ms"));
    TimeNs t[2] = {0, 0};
    for (int i = 0; i < 2; ++i) {
        const auto match = part.match(sides[i]);
        if (!match.hasMatch())
            return fail(QStringLiteral("'%1' is not a time (a number with ns, us, ms or s)").arg(sides[i]));
        const QString unit = match.captured(2).isEmpty() ? QStringLiteral("ms") : match.captured(2);
        const double factor = unit == QLatin1String("ns")   ? 1.0
                              : unit == QLatin1String("us") ? 1e3
                              : unit == QLatin1String("ms") ? 1e6
                                                            : 1e9;
        const double v = match.captured(1).toDouble() * factor;
        if (!std::isfinite(v) || v > 1e18) return fail(QStringLiteral("'%1' is too large").arg(sides[i]));
        t[i] = static_cast<TimeNs>(std::llround(v));
    }
    if (t[1] <= t[0]) return fail(QStringLiteral("the end must be after the start"));
    start = t[0];
    end = t[1];
    return true;
}

} // namespace sl::ui
