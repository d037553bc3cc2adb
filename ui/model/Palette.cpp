#include "Palette.h"

#include "report/Colours.h"

#include <array>

namespace sl::ui {

Category categoryOf(EventClass c) {
    if (isComputeKernel(c)) return Category::Compute;
    switch (c) {
    case EventClass::CommKernel:
    case EventClass::CommOp:
        return Category::Communication;
    case EventClass::Memcpy:
    case EventClass::Memset:
        return Category::MemcpyMemset;
    case EventClass::CpuOp:
    case EventClass::Python:
    case EventClass::Annotation:
        return Category::CpuOp;
    case EventClass::RuntimeCall:
    case EventClass::Sync:
        return Category::Runtime;
    case EventClass::GpuAnnotation:
        return Category::Annotation;
    default:
        return Category::Other;
    }
}

Category categoryOf(EventKind kind, bool communicationName) {
    return categoryOf(eventClassByKind(kind, communicationName));
}

QString categoryLabel(Category c) {
    switch (c) {
    case Category::Compute:
        return QStringLiteral("GPU compute");
    case Category::Communication:
        return QStringLiteral("Communication");
    case Category::MemcpyMemset:
        return QStringLiteral("Memcpy / memset");
    case Category::CpuOp:
        return QStringLiteral("CPU op");
    case Category::Runtime:
        return QStringLiteral("Runtime / sync");
    case Category::Annotation:
        return QStringLiteral("GPU annotation");
    default:
        return QStringLiteral("Other");
    }
}

namespace palette {
namespace {
// Base colours: the table the HTML report shares (report/Colours.h).
constexpr std::array<QRgb, kCategoryCount> kBase = [] {
    std::array<QRgb, kCategoryCount> out{};
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i] = colours::kCategory[i];
    return out;
}();
static_assert(kCategoryCount == static_cast<int>(colours::kCategory.size()));

struct Table {
    std::array<std::array<QColor, kShades>, kCategoryCount> normal;
    std::array<std::array<QColor, kShades>, kCategoryCount> dim;
    Table() {
        for (int c = 0; c < kCategoryCount; ++c) {
            QColor base(kBase[static_cast<std::size_t>(c)]);
            for (int s = 0; s < kShades; ++s) {
                QColor shade = base.lighter(100 + 9 * s);
                normal[static_cast<std::size_t>(c)][static_cast<std::size_t>(s)] = shade;
                QColor d = shade;
                d.setHsl(d.hslHue(), d.hslSaturation() / 4, 200 + d.lightness() / 10);
                dim[static_cast<std::size_t>(c)][static_cast<std::size_t>(s)] = d;
            }
        }
    }
};
const Table& table() {
    static const Table t;
    return t;
}
} // namespace

int shadeOfName(std::string_view name) {
    std::uint32_t h = 2166136261u;
    for (const char ch : name) {
        h ^= static_cast<unsigned char>(ch);
        h *= 16777619u;
    }
    // The low bits of FNV-1a mix poorly for short, similar names: fold the high half in first.
    h ^= h >> 16;
    h *= 0x7feb352du;
    h ^= h >> 15;
    return static_cast<int>(h % kShades);
}

QColor color(Category c, int shade) {
    return table().normal[static_cast<std::size_t>(c)][static_cast<std::size_t>(shade & (kShades - 1))];
}
QColor dimmed(Category c, int shade) {
    return table().dim[static_cast<std::size_t>(c)][static_cast<std::size_t>(shade & (kShades - 1))];
}
QColor background() {
    return QColor(0xfafbfc);
}
QColor laneBackground(bool odd) {
    return odd ? QColor(0xf1f3f5) : QColor(0xfafbfc);
}
QColor gutter() {
    return QColor(0xe9ecef);
}
QColor text() {
    return QColor(0x212529);
}
QColor textOnBox() {
    return QColor(0xffffff);
}
QColor grid() {
    return QColor(0xdee2e6);
}
QColor selection() {
    return QColor(0x111111);
}
QColor replayDifference() {
    return QColor(230, 90, 160, 70);
}
QColor rangeFill() {
    return QColor(30, 120, 220, 40);
}
QColor groupHeader() {
    return QColor(0x49, 0x50, 0x57);
}

QColor rankHeader() {
    return QColor(0xd0d7de);
}
QColor pathColor(PathLabel l) {
    const auto& kPath = colours::kPath; // shared with the HTML report (report/Colours.h)
    const auto i = static_cast<std::size_t>(l);
    return QColor(i < kPath.size() ? kPath[i] : 0x495057);
}
QString pathLabelText(PathLabel l) {
    switch (l) {
    case PathLabel::GpuCompute:
        return QStringLiteral("GPU compute");
    case PathLabel::GpuComm:
        return QStringLiteral("GPU comm");
    case PathLabel::CollectiveWait:
        return QStringLiteral("Collective wait");
    case PathLabel::Cpu:
        return QStringLiteral("CPU");
    case PathLabel::LaunchLatency:
        return QStringLiteral("Launch latency");
    case PathLabel::Sync:
        return QStringLiteral("Sync");
    case PathLabel::LateStart:
        return QStringLiteral("Late start");
    case PathLabel::UnexplainedWait:
        return QStringLiteral("Unexplained wait");
    default:
        return QStringLiteral("Idle");
    }
}
QColor edgeColor(EdgeKind k) {
    switch (k) {
    case EdgeKind::ThreadOrder:
        return QColor(0x6741d9);
    case EdgeKind::Launch:
        return QColor(0xe6a100);
    case EdgeKind::StreamOrder:
        return QColor(0x1c7ed6);
    case EdgeKind::CrossStream:
        return QColor(0x0ca678);
    case EdgeKind::Sync:
        return QColor(0xe03131);
    case EdgeKind::PipelineTransfer: // pp.degree's stage-to-stage activations
        return QColor(0xf76707);
    default:
        return QColor(0xc2255c);
    }
}
QColor exposed() {
    return QColor(0xc92a2a);
}
QColor exposedLane() {
    return QColor(0xfff0f0);
}
QColor findMatch() {
    return QColor(0xf59f00); // amber: apart from every category colour and the black selection
}
QColor collectiveLink() {
    return QColor(0xae3ec9);
}
} // namespace palette

} // namespace sl::ui
