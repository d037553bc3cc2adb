#include "KnobPanel.h"

#include "CpuRegionEditor.h"
#include "KnobLabels.h"
#include "Scenario.h"
#include "sim/JobRankIds.h"
#include "sim/KnobRegistry.h"
#include "sim/KnobText.h"

#include <QAbstractScrollArea>
#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTimer>
#include <QWheelEvent>

#include <algorithm>
#include <map>
#include <optional>
#include <utility>

namespace sl::ui {

namespace {

// A wheel over a field scrolls the panel unless the field has the keyboard focus (clicked or tabbed
// into): scrolling down the knobs changed whichever field came under the pointer, a what-if made
// by accident.
class WheelPassesBy : public QObject {
public:
    using QObject::QObject;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() != QEvent::Wheel) return false;
        auto* field = static_cast<QWidget*>(watched);
        if (field->hasFocus()) return false;
        for (QWidget* p = field->parentWidget(); p; p = p->parentWidget())
            if (auto* area = qobject_cast<QAbstractScrollArea*>(p)) {
                QCoreApplication::sendEvent(area->viewport(), event);
                break;
            }
        return true;
    }
};

// Spin boxes show a range people use; the registry's bounds (up to 1e6) stay valid for typed
// configs and the command line.
constexpr double kFieldMax = 1000.0;
constexpr double kFactorMin = 0.1;

} // namespace

KnobPanel::KnobPanel(QWidget* parent) : QWidget(parent) {
    form_ = new QFormLayout(this);
    presets_ = availablePresets();
    auto* presets = new QComboBox(this);
    presetBox_ = presets;
    for (std::size_t i = 0; i < presets_.size(); ++i) {
        presets->addItem(presets_[i].name);
        presets->setItemData(static_cast<int>(i), presets_[i].description, Qt::ToolTipRole);
    }
    // The last entry names a setting that is no preset: the box never shows a preset the knobs
    // are not (docs/WhatIfWorkbench.md, "Preset box").
    presets->addItem(tr("Custom"));
    presets->setItemData(presets->count() - 1, tr("The knobs match no preset"), Qt::ToolTipRole);
    presets->setToolTip(
        tr("Ready-made what-if settings; the list names the preset the knobs match, \"Custom\" when "
           "they are your own."));
    form_->addRow(tr("Preset"), presets);
    if (QWidget* label = form_->labelForField(presets)) label->setToolTip(presets->toolTip());

    // Every knob of the registry, grouped, each group under its heading (docs/WhatIfWorkbench.md,
    // "Knob panel").
    std::vector<const KnobSpec*> specs;
    for (const KnobSpec& spec : knobSpecs())
        specs.push_back(&spec);
    std::stable_sort(specs.begin(), specs.end(),
                     [](const KnobSpec* a, const KnobSpec* b) { return a->group < b->group; });
    auto* wheelGuard = new WheelPassesBy(this);
    std::optional<KnobGroup> group;
    for (const KnobSpec* s : specs) {
        const KnobSpec& spec = *s;
        if (spec.group != group) {
            group = spec.group;
            auto* heading = new QLabel(QStringLiteral("<b>%1</b>").arg(knobGroupHeading(spec.group)), this);
            heading->setObjectName(QStringLiteral("knobGroup%1").arg(static_cast<int>(spec.group)));
            form_->addRow(heading);
        }
        QWidget* w = makeField(spec);
        w->setObjectName(QString::fromStdString(spec.key));
        if (qobject_cast<QAbstractSpinBox*>(w) || qobject_cast<QComboBox*>(w)) {
            w->setFocusPolicy(Qt::StrongFocus);
            w->installEventFilter(wheelGuard);
        }
        // What each knob models, its unit and valid range, on the label and the field alike: the
        // first thing a student points at is the label.
        QString tip = QString::fromStdString(spec.key + ": " + spec.help) +
                      tr("\nValid: %1").arg(QString::fromStdString(spec.rangeText()));
        if (!spec.unit.empty() && spec.unit != "x")
            tip += QStringLiteral(" ") + QString::fromStdString(spec.unit);
        w->setToolTip(tip);
        form_->addRow(knobLabel(spec), w);
        if (QWidget* label = form_->labelForField(w)) label->setToolTip(tip);
        auto* note = new QLabel(this);
        note->setObjectName(QString::fromStdString(spec.key) + QStringLiteral(".note"));
        note->setWordWrap(true);
        note->setStyleSheet(QStringLiteral("color: #a05a00;"));
        note->hide();
        form_->addRow(QString(), note);
        fields_.push_back({&spec, w, {}, note});
    }
    regions_ = new CpuRegionEditor(this);
    form_->addRow(tr("CPU regions"), regions_);
    const QString regionTip =
        tr("cpu.speedup[<regex>]: CPU ops, annotations and Python functions whose name matches (with "
           "everything nested in them) run this many times faster; inf removes them and a host sync inside "
           "no longer waits. Typical: inf for a data loader moved to worker processes, 2 for a fused "
           "optimizer step.");
    regions_->setToolTip(regionTip);
    if (QWidget* label = form_->labelForField(regions_)) label->setToolTip(regionTip);
    otherNotes_ = new QLabel(this);
    otherNotes_->setWordWrap(true);
    otherNotes_->setStyleSheet(QStringLiteral("color: #a05a00;"));
    otherNotes_->hide();
    form_->addRow(otherNotes_);
    auto* reset = new QPushButton(tr("Reset to replay"), this);
    form_->addRow(reset);

    connect(regions_, &CpuRegionEditor::changed, this, &KnobPanel::emitChanged);
    connect(reset, &QPushButton::clicked, this, [this, presets] {
        presets->setCurrentIndex(0);
        setKnobs({});
    });
    connect(presets, &QComboBox::activated, this, &KnobPanel::applyPreset);
    setScenarios(new ScenarioList(this)); // every field shows the replay defaults
}

void KnobPanel::setScenarios(ScenarioList* list) {
    if (list_) disconnect(list_, nullptr, this, nullptr);
    if (list_ && list_->parent() == this) delete list_; // the one it edited on its own
    list_ = list;
    connect(list_, &ScenarioList::currentChanged, this, &KnobPanel::showCurrent);
    connect(list_, &ScenarioList::knobsChanged, this, [this](int i) {
        if (i == list_->current()) showCurrent();
    });
    showCurrent();
}

const SimKnobs& KnobPanel::current() const {
    return list_->at(list_->current()).knobs;
}

QWidget* KnobPanel::makeField(const KnobSpec& spec) {
    switch (spec.type) {
    case KnobType::Bool: {
        auto* box = new QCheckBox(this);
        connect(box, &QCheckBox::toggled, this, &KnobPanel::emitChanged);
        return box;
    }
    case KnobType::Choice: {
        auto* box = new QComboBox(this);
        // The empty word (gpu.target's default) means "as traced": shown with that name, kept as data.
        for (const auto& c : spec.validChoices())
            box->addItem(c.empty() ? tr("as traced") : QString::fromStdString(c), QString::fromStdString(c));
        connect(box, &QComboBox::currentIndexChanged, this, &KnobPanel::emitChanged);
        return box;
    }
    case KnobType::Integer: {
        auto* box = new QSpinBox(this);
        const double lo = spec.sentinel ? std::min(*spec.sentinel, spec.min) : spec.min;
        box->setRange(static_cast<int>(lo), static_cast<int>(std::min(spec.max, 1e6)));
        if (spec.sentinel) box->setSpecialValueText(tr(spec.sentinelText.c_str()));
        commitWhenDone(box);
        connect(box, &QSpinBox::valueChanged, this, &KnobPanel::emitChanged);
        return box;
    }
    case KnobType::Factor:
    case KnobType::Number:
        break;
    }
    auto* box = new QDoubleSpinBox(this);
    double lo = spec.type == KnobType::Factor ? std::max(spec.min, kFactorMin) : spec.min;
    if (spec.sentinel) lo = std::min(lo, *spec.sentinel);
    box->setRange(lo, std::min(spec.max, kFieldMax));
    box->setDecimals(2);
    box->setSingleStep(0.1);
    if (!spec.unit.empty()) box->setSuffix(QStringLiteral(" ") + QString::fromStdString(spec.unit));
    if (spec.sentinel) box->setSpecialValueText(tr(spec.sentinelText.c_str()));
    // The alpha-beta bandwidths: 0 is their default and means "calibrated from the trace" (their
    // help says so), not a network of no bandwidth.
    if (spec.key == "comm.intra_node_GBps" || spec.key == "comm.inter_node_GBps")
        box->setSpecialValueText(tr("calibrated"));
    // The batch (docs/Scaling.md): whole samples and tokens, up to a billion tokens per step.
    if (spec.key.rfind("batch.", 0) == 0) {
        box->setRange(0, std::min(spec.max, 1e9));
        box->setDecimals(0);
        box->setSingleStep(1);
    }
    commitWhenDone(box);
    connect(box, &QDoubleSpinBox::valueChanged, this, &KnobPanel::emitChanged);
    return box;
}

void KnobPanel::commitWhenDone(QAbstractSpinBox* box) {
    // A number typed is committed when the field is done (Enter, focus out, the arrows) or after a
    // pause of typing, never per keystroke: typing 4096 into dp.degree once simulated dp.degree = 4
    // and named a scenario after it.
    box->setKeyboardTracking(false);
    auto* pause = new QTimer(box);
    pause->setSingleShot(true);
    pause->setInterval(kTypingPauseMs);
    if (auto* edit = box->findChild<QLineEdit*>())
        connect(edit, &QLineEdit::textEdited, pause, qOverload<>(&QTimer::start));
    connect(pause, &QTimer::timeout, box, &QAbstractSpinBox::interpretText);
}

void KnobPanel::showValue(const Field& f, const SimKnobs& k) {
    const QString text = QString::fromStdString(f.spec->valueText(k));
    if (auto* check = qobject_cast<QCheckBox*>(f.widget))
        check->setChecked(text == QLatin1String("true"));
    else if (auto* combo = qobject_cast<QComboBox*>(f.widget))
        combo->setCurrentIndex(combo->findData(text));
    else if (auto* spin = qobject_cast<QSpinBox*>(f.widget))
        spin->setValue(text.toInt());
    else if (auto* dspin = qobject_cast<QDoubleSpinBox*>(f.widget))
        dspin->setValue(text.toDouble());
}

QString KnobPanel::fieldText(const Field& f) {
    const KnobSpec& spec = *f.spec;
    if (auto* check = qobject_cast<QCheckBox*>(f.widget))
        return check->isChecked() ? QStringLiteral("true") : QStringLiteral("false");
    if (auto* combo = qobject_cast<QComboBox*>(f.widget)) return combo->currentData().toString();
    if (auto* spin = qobject_cast<QSpinBox*>(f.widget)) {
        int v = spin->value();
        if (spec.sentinel && v < spec.min) v = static_cast<int>(*spec.sentinel);
        return QString::number(v);
    }
    if (auto* dspin = qobject_cast<QDoubleSpinBox*>(f.widget)) {
        double v = dspin->value();
        // Below the valid range only the special value ("from trace") is offered.
        if (spec.sentinel && v < spec.min) v = *spec.sentinel;
        return QString::fromStdString(knobNumberText(v, KnobNumberStyle::Readable));
    }
    return {};
}

void KnobPanel::readValue(const Field& f, SimKnobs& k) {
    // A field the user did not touch keeps the exact value it was given (a config's 1.234 or 5000
    // would otherwise come back rounded to the field's decimals or clamped to its range).
    const QString text = fieldText(f);
    if (text == f.shown || text.isNull()) return;
    try {
        f.spec->set(k, text.toStdString());
    } catch (const KnobError&) {
        // The field's range lies inside the knob's valid range; a value the knob refuses keeps the
        // previous setting rather than a wrong one.
    }
}

QWidget* KnobPanel::field(const QString& key) const {
    for (const auto& f : fields_)
        if (QString::fromStdString(f.spec->key) == key) return f.widget;
    return nullptr;
}

void KnobPanel::applyPreset(int i) {
    if (i < 0 || static_cast<std::size_t>(i) >= presets_.size()) {
        showMatchingPreset(knobs()); // "Custom" chosen: the knobs stay, the box tells the truth
        return;
    }
    presetBox_->setCurrentIndex(i);
    setKnobs(presets_[static_cast<std::size_t>(i)].knobs);
}

void KnobPanel::setJobLayout(const ParallelStructure& layout) {
    layout_ = std::make_shared<const ParallelStructure>(layout);
    updateRankLimit(knobs());
}

void KnobPanel::updateRankLimit(const SimKnobs& k) {
    auto* rank = qobject_cast<QSpinBox*>(field(QStringLiteral("straggler.rank")));
    if (!rank || !layout_ || layout_->places.empty()) return;
    // The ranks dp.degree, tp.degree and pp.degree give the job (docs/AddedRanks.md, docs/Layouts.md):
    // a straggler may be an added rank or a new pipeline stage.
    const int most = largestJobRankId(*layout_, k.dpDegree, k.tpDegree, k.ppDegree);
    // A lower limit clamps the value: that edit is read with the others, not signalled on its own.
    const bool was = updating_;
    updating_ = true;
    rank->setMaximum(std::max(0, most));
    updating_ = was;
}

SimKnobs KnobPanel::knobs() const {
    SimKnobs k = current();
    for (const auto& f : fields_)
        readValue(f, k);
    k.cpuRegionSpeedup = regions_->regions();
    return k;
}

void KnobPanel::showMatchingPreset(const SimKnobs& k) {
    // The preset list names the preset these knobs are, or "Custom" (the entry after the presets).
    int match = static_cast<int>(presets_.size());
    for (std::size_t i = 0; i < presets_.size(); ++i)
        if (presets_[i].knobs == k) {
            match = static_cast<int>(i);
            break;
        }
    presetBox_->setCurrentIndex(match);
}

QString KnobPanel::presetLabel() const {
    return presetBox_->currentText();
}

void KnobPanel::setKnobNotes(const std::map<std::string, std::string>& notes) {
    QStringList other;
    for (auto& f : fields_) {
        auto it = notes.find(f.spec->key);
        f.note->setText(it == notes.end() ? QString() : QString::fromStdString(it->second));
        f.note->setVisible(it != notes.end());
    }
    for (const auto& [key, note] : notes)
        if (!field(QString::fromStdString(key))) other << QString::fromStdString(note);
    otherNotes_->setText(other.join(QLatin1Char('\n')));
    otherNotes_->setVisible(!other.isEmpty());
}

QString KnobPanel::knobNote(const QString& key) const {
    for (const auto& f : fields_)
        if (QString::fromStdString(f.spec->key) == key) return f.note->text();
    return otherNotes_->text().contains(key) ? otherNotes_->text() : QString();
}

void KnobPanel::setKnobs(const SimKnobs& k) {
    // As an edit of every field: the fields show them first (an unfinished edit goes), then the list
    // takes them and announces where they went (showCurrent()).
    updateRankLimit(k); // before the straggler rank is shown: it may be an added rank
    fill(k);
    editing_ = true;
    if (current() == k)
        showCurrent();
    else
        list_->setKnobs(list_->current(), k);
    editing_ = false;
}

void KnobPanel::fill(const SimKnobs& k) {
    updating_ = true;
    for (auto& f : fields_) {
        showValue(f, k);
        f.shown = fieldText(f);
    }
    regions_->setRegions(k.cpuRegionSpeedup);
    updating_ = false;
}

void KnobPanel::showCurrent() {
    const SimKnobs k = current();
    showMatchingPreset(k); // a knob changed by hand: the preset name must not stay behind
    updateRankLimit(k);    // before the straggler rank is shown: it may be an added rank
    if (!editing_) fill(k);
    emit changed(k);
}

void KnobPanel::emitChanged() {
    if (updating_) return;
    updateRankLimit(knobs());
    const SimKnobs k = knobs();
    editing_ = true;
    if (k == current())
        showCurrent(); // nothing the scenario holds changed (an invalid CPU region row)
    else
        list_->setKnobs(list_->current(), k); // -> showCurrent()
    editing_ = false;
}

} // namespace sl::ui
