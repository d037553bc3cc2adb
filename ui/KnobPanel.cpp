#include "KnobPanel.h"

#include "CpuRegionEditor.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QPushButton>
#include <QSpinBox>

#include <utility>

namespace sl::ui {

KnobPanel::KnobPanel(QWidget* parent) : QWidget(parent) {
    form_ = new QFormLayout(this);
    presets_ = availablePresets();
    auto* presets = new QComboBox(this);
    presetBox_ = presets;
    for (std::size_t i = 0; i < presets_.size(); ++i) {
        presets->addItem(presets_[i].name);
        presets->setItemData(static_cast<int>(i), presets_[i].description, Qt::ToolTipRole);
    }
    form_->addRow(tr("Preset"), presets);
    compute_ = addSpeedup(tr("GPU compute"), tr("compute.speedup: compute kernels run duration / speedup"));
    comm_ = addSpeedup(tr("Communication"), tr("comm.speedup: collective transfers run duration / speedup"));
    cpu_ = addSpeedup(tr("CPU"), tr("cpu.speedup: CPU work and call durations / speedup"));
    launch_ = new QDoubleSpinBox(this);
    launch_->setRange(-1, 1000);
    launch_->setDecimals(1);
    launch_->setSuffix(tr(" us"));
    launch_->setSpecialValueText(tr("from trace"));
    launch_->setValue(-1);
    launch_->setToolTip(tr("launch.latency_us: launch to kernel start latency"));
    form_->addRow(tr("Launch latency"), launch_);
    overlap_ = new QCheckBox(tr("overlap comm with compute"), this);
    overlap_->setChecked(true);
    overlap_->setToolTip(tr("comm.overlap: off makes collectives wait for the compute stream"));
    form_->addRow(tr("Overlap"), overlap_);
    stragglerRank_ = new QSpinBox(this);
    stragglerRank_->setRange(-1, 4096);
    stragglerRank_->setSpecialValueText(tr("none"));
    stragglerRank_->setValue(-1);
    form_->addRow(tr("Straggler rank"), stragglerRank_);
    stragglerSlowdown_ = new QDoubleSpinBox(this);
    stragglerSlowdown_->setRange(1.0, 10.0);
    stragglerSlowdown_->setSingleStep(0.1);
    stragglerSlowdown_->setSuffix(QStringLiteral(" x"));
    form_->addRow(tr("Straggler slowdown"), stragglerSlowdown_);
    dpScale_ = new QDoubleSpinBox(this);
    dpScale_->setRange(1.0, 1024.0);
    dpScale_->setSuffix(QStringLiteral(" x"));
    dpScale_->setToolTip(tr("dp.scale: re-times collectives for a larger data-parallel group"));
    form_->addRow(tr("Data-parallel scale"), dpScale_);
    regions_ = new CpuRegionEditor(this);
    form_->addRow(tr("CPU regions"), regions_);
    auto* reset = new QPushButton(tr("Reset to replay"), this);
    form_->addRow(reset);

    // What each knob models and a typical value, on the label and the field alike: the first thing a
    // student points at is the label.
    const std::pair<QWidget*, QString> tips[] = {
        {presets, tr("Ready-made what-if settings; the list names the preset the knobs match, blank when "
                     "they are your own.")},
        {compute_, tr("compute.speedup: every GPU compute kernel takes its measured time / this factor, "
                      "as on a faster GPU. Typical: 1.5 to 3 (one GPU generation).")},
        {comm_, tr("comm.speedup: collective transfers (all-reduce, all-gather, ...) take their measured "
                   "time / this factor, as on a faster network. Typical: 2 (NVLink generation, 2x "
                   "InfiniBand).")},
        {cpu_, tr("cpu.speedup: CPU work between runtime calls and the calls themselves take their time / "
                  "this factor, as with a faster host or less Python overhead. Typical: 1.2 to 2.")},
        {launch_, tr("launch.latency_us: the time from a kernel launch call to the kernel's earliest start. "
                     "\"from trace\" measures it per launch. Typical: 5 to 20 us.")},
        {overlap_, tr("comm.overlap: when off, collectives wait for the compute stream to drain, as without "
                      "communication overlap (a separate stream). Typical: on.")},
        {stragglerRank_,
         tr("straggler.rank: one rank whose CPU and GPU work all run slower (a throttled GPU, a "
            "busy host); the others wait for it in every collective. \"none\": no straggler.")},
        {stragglerSlowdown_, tr("straggler.slowdown: every duration of the straggler rank x this factor. "
                                "Typical: 1.1 to 1.5.")},
        {dpScale_, tr("dp.scale: re-times collectives for a data-parallel group this many times larger "
                      "(the ring all-reduce gets longer with more ranks). Typical: 2 to 8.")},
        {regions_, tr("cpu.speedup[<regex>]: CPU ops, annotations and python functions whose name matches "
                      "(with everything nested) run this many times faster; inf removes them and a host "
                      "sync inside no longer waits. Typical: DataLoader = inf (worker processes), "
                      "aten::item = inf, Optimizer.step = 2.")},
        {regions_,
         tr("cpu.speedup[<regex>]: CPU ops, annotations and Python functions whose name matches (with "
            "everything nested in them) run this many times faster; inf removes them. Typical: inf "
            "for a data loader moved to worker processes, 2 for a fused optimizer step.")},
    };
    for (const auto& [field, tip] : tips) {
        field->setToolTip(tip);
        if (QWidget* label = form_->labelForField(field)) label->setToolTip(tip);
    }

    for (auto* s : {compute_, comm_, cpu_, launch_, stragglerSlowdown_, dpScale_})
        connect(s, &QDoubleSpinBox::valueChanged, this, &KnobPanel::emitChanged);
    connect(stragglerRank_, &QSpinBox::valueChanged, this, &KnobPanel::emitChanged);
    connect(overlap_, &QCheckBox::toggled, this, &KnobPanel::emitChanged);
    connect(regions_, &CpuRegionEditor::changed, this, &KnobPanel::emitChanged);
    connect(reset, &QPushButton::clicked, this, [this, presets] {
        presets->setCurrentIndex(0);
        setKnobs({});
    });
    connect(presets, &QComboBox::activated, this, &KnobPanel::applyPreset);
}

void KnobPanel::applyPreset(int i) {
    if (i < 0 || static_cast<std::size_t>(i) >= presets_.size()) return;
    presetBox_->setCurrentIndex(i);
    setKnobs(presets_[static_cast<std::size_t>(i)].knobs);
}

QDoubleSpinBox* KnobPanel::addSpeedup(const QString& label, const QString& tip) {
    auto* s = new QDoubleSpinBox(this);
    s->setRange(0.1, 100.0);
    s->setSingleStep(0.1);
    s->setDecimals(2);
    s->setValue(1.0);
    s->setSuffix(QStringLiteral(" x"));
    s->setToolTip(tip);
    form_->addRow(label, s);
    return s;
}

void KnobPanel::setRankCount(int ranks) {
    stragglerRank_->setMaximum(std::max(0, ranks - 1));
}

SimKnobs KnobPanel::knobs() const {
    SimKnobs k = base_;
    k.computeSpeedup = compute_->value();
    k.commSpeedup = comm_->value();
    k.cpuSpeedup = cpu_->value();
    k.launchLatencyUs = launch_->value() < 0 ? -1.0 : launch_->value();
    k.commOverlap = overlap_->isChecked();
    k.stragglerRank = stragglerRank_->value();
    k.stragglerSlowdown = stragglerSlowdown_->value();
    k.dpScale = dpScale_->value();
    k.cpuRegionSpeedup = regions_->regions();
    return k;
}

void KnobPanel::showMatchingPreset(const SimKnobs& k) {
    // The preset list names the preset these knobs are, or shows nothing for a custom setting.
    const nlohmann::json json = k.toJson();
    int match = -1;
    for (std::size_t i = 0; i < presets_.size() && match < 0; ++i)
        if (presets_[i].knobs.toJson() == json) match = static_cast<int>(i);
    presetBox_->setCurrentIndex(match);
}

void KnobPanel::setKnobs(const SimKnobs& k) {
    base_ = k;
    showMatchingPreset(k);
    updating_ = true;
    compute_->setValue(k.computeSpeedup);
    comm_->setValue(k.commSpeedup);
    cpu_->setValue(k.cpuSpeedup);
    launch_->setValue(k.launchLatencyUs);
    overlap_->setChecked(k.commOverlap);
    stragglerRank_->setValue(k.stragglerRank);
    stragglerSlowdown_->setValue(k.stragglerSlowdown);
    dpScale_->setValue(k.dpScale);
    regions_->setRegions(k.cpuRegionSpeedup);
    updating_ = false;
    emitChanged();
}

void KnobPanel::emitChanged() {
    if (updating_) return;
    SimKnobs k = knobs();
    showMatchingPreset(k); // a knob changed by hand: the preset name must not stay behind
    emit changed(k);
}

} // namespace sl::ui
