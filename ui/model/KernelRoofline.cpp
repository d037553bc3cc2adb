#include "KernelRoofline.h"

#include "models/Roofline.h"

#include <QCoreApplication>

namespace sl::ui {

namespace {
QString tr(const char* s) {
    return QCoreApplication::translate("KernelRoofline", s);
}
QString num(double v, int decimals = 3) {
    return QString::number(v, 'g', decimals + 2);
}
} // namespace

QString KernelRoofline::html(const TraceSet& set, int rank, EventRef gpuOp) {
    if (rank < 0 || static_cast<std::size_t>(rank) >= set.ranks.size() || !gpuOp.valid()) return {};
    const Rank& r = set.ranks[static_cast<std::size_t>(rank)];
    if (gpuOp.track >= r.tracks.size() || !r.tracks[gpuOp.track].isGpu()) return {};
    if (set_ != &set) {
        set_ = &set;
        costs_.clear();
    }
    auto [it, fresh] = costs_.try_emplace(rank);
    if (fresh)
        for (const auto& e : kernelCosts(r))
            it->second.emplace(e.gpuOp.packed(), e);
    auto found = it->second.find(gpuOp.packed());
    if (found == it->second.end()) return {}; // a communication kernel
    const KernelCostEntry& e = found->second;
    QString h = QStringLiteral("<h4>%1</h4>").arg(tr("Roofline"));
    if (!e.known())
        return h + tr("<p>No cost: %1.</p>")
                       .arg(QString::fromUtf8(costMissingName(e.missing).data(),
                                              qsizetype(costMissingName(e.missing).size())));
    const GpuSpec* gpu = nullptr;
    try {
        gpu = &sourceGpu(set, GpuTable::builtin(), {});
    } catch (const GpuTableError& err) {
        return h + QStringLiteral("<p>%1</p>").arg(QString::fromStdString(err.what()).toHtmlEscaped());
    }
    const double us = static_cast<double>(r.tracks[gpuOp.track].events.duration[gpuOp.index]) / 1000.0;
    const Achieved a = achieved(*gpu, e.cost, us);
    const bool compute = rooflineTime(*gpu, e.cost).computeBound();
    const QString op = e.op.valid() ? QString::fromUtf8(r.name(e.op).data(), qsizetype(r.name(e.op).size()))
                                    : tr("(the copy itself)");
    const std::string_view family = opFamilyName(e.cost.family);
    h += QStringLiteral("<table>");
    auto row = [&](const QString& k, const QString& v) {
        h += QStringLiteral("<tr><td>%1</td><td>%2</td></tr>").arg(k, v);
    };
    row(tr("Op"), op.toHtmlEscaped() + QStringLiteral(" (") +
                      QString::fromUtf8(family.data(), qsizetype(family.size())) + QStringLiteral(")"));
    row(tr("FLOPs"), num(e.cost.flops / 1e9) + tr(" GFLOP"));
    row(tr("Bytes"), num(e.cost.bytes / 1e6) + tr(" MB"));
    row(tr("Intensity"), num(a.intensity) + tr(" FLOPs/byte"));
    row(tr("Achieved"), tr("%1 TFLOP/s (%2% of peak), %3 TB/s (%4% of %5)")
                            .arg(num(a.tflops), num(100 * a.computeFraction), num(a.tbps),
                                 num(100 * a.memoryFraction), QString::fromStdString(gpu->name)));
    row(tr("Bound"), compute ? tr("compute") : tr("memory"));
    h += QStringLiteral("</table>");
    return h;
}

} // namespace sl::ui
